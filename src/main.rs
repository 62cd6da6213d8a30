//! The `ai-arcade` binary: everything lives in the library; this only hands over.

/// jemalloc returns freed memory to the system, so a server's memory falls back after its
/// sessions end (with glibc's allocator much of it stays held by per-thread arenas).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    ai_arcade::cli::main()
}
