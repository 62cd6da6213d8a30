//! The `ai-arcade` binary: everything lives in the library; this only hands over.

fn main() -> std::process::ExitCode {
    ai_arcade::cli::main()
}
