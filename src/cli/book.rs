//! `ai-arcade book connect4`: builds the opening book with the exact solver, showing its
//! progress, keeping the work done in `OUT.partial` as it goes (so Ctrl-C, or a machine
//! that stops, loses a minute at most, and the same command resumes), and timing the whole.

use super::args::{BookArgs, BookGame};
use super::bench_solver::{MAX_THREADS, TABLE_BITS};
use super::exit::fail;
use super::progress::{Interrupt, Progress};
use crate::domain::numbers::thousands;
use crate::domain::solve::connect4::book::{MAX_DEPTH, empty_board};
use crate::domain::solve::connect4::book_build::BookBuild;
use crate::domain::solve::connect4::book_import::from_connect_four_ai;
use crate::persist::write_whole;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The first bytes of a partial build's file.
const PARTIAL_MAGIC: &[u8; 8] = b"C4PART\x00\x01";
/// The byte a partial file holds for a position not solved yet.
const UNKNOWN: u8 = 0x80;
/// How often the work done is written out.
const SAVE_EVERY: Duration = Duration::from_secs(30);
/// Positions each thread takes between two looks at the progress and at Ctrl-C.
const CHUNK_PER_THREAD: usize = 16;

/// The `book` command.
pub(super) fn command(args: &BookArgs) -> ExitCode {
    let BookGame::Connect4 {
        depth,
        ref out,
        threads,
        table_bits,
        yes,
        ref import,
    } = args.game;
    if !(0..=MAX_DEPTH).contains(&depth) {
        return fail(format!("--depth {depth}: allowed 0..={MAX_DEPTH}"));
    }
    if !(1..=MAX_THREADS).contains(&threads) {
        return fail(format!("--threads {threads}: allowed 1..={MAX_THREADS}"));
    }
    if !TABLE_BITS.contains(&table_bits) {
        return fail(format!(
            "--table-bits {table_bits}: allowed {}..={}",
            TABLE_BITS.start(),
            TABLE_BITS.end()
        ));
    }
    if out.exists() && !yes {
        return fail(format!(
            "--out {}: the file exists; --yes replaces it",
            out.display()
        ));
    }
    if let Some(theirs) = import {
        return import_book(theirs, depth, out);
    }
    let partial = partial_path(out);
    let known = match read_partial(&partial, depth) {
        Ok(known) => known,
        Err(error) => return fail(error),
    };
    let build = match BookBuild::new(&empty_board(), depth, table_bits, known) {
        Ok(build) => build,
        Err(error) => {
            return fail(format!(
                "{}: {error}; remove it to start again",
                partial.display()
            ));
        }
    };
    run(build, threads, out, &partial, depth)
}

/// Solves until the book is whole (or Ctrl-C), then writes it.
fn run(mut build: BookBuild, threads: usize, out: &Path, partial: &Path, depth: i32) -> ExitCode {
    let interrupt = Interrupt::install();
    let resumed_at = build.done();
    let progress = Progress::doing("solving", build.total() as u64, "positions");
    let started = Instant::now();
    let mut saved = Instant::now();
    while build.step(CHUNK_PER_THREAD * threads, threads) {
        let nodes = build.nodes;
        progress.set(build.done() as u64, || {
            format!("{} nodes", thousands(nodes))
        });
        if interrupt.received().is_some() {
            progress.clear();
            return match write_partial(partial, depth, build.known()) {
                Ok(()) => {
                    eprintln!(
                        "ai-arcade: interrupted after {} of {} positions; the work is kept in {}: \
                         the same command resumes it",
                        build.done(),
                        build.total(),
                        partial.display()
                    );
                    ExitCode::from(130)
                }
                Err(error) => fail(error),
            };
        }
        if saved.elapsed() >= SAVE_EVERY {
            if let Err(error) = write_partial(partial, depth, build.known()) {
                progress.clear();
                return fail(error);
            }
            saved = Instant::now();
        }
    }
    progress.clear();
    finish(build, out, partial, depth, started.elapsed(), resumed_at)
}

/// Writes the finished book and says what it took.
fn finish(
    build: BookBuild,
    out: &Path,
    partial: &Path,
    depth: i32,
    took: Duration,
    resumed_at: usize,
) -> ExitCode {
    let nodes = build.nodes;
    let total = build.total();
    let book = match build.finish() {
        Some(Ok(book)) => book,
        Some(Err(error)) => return fail(format!("the book built is refused: {error}")),
        None => return fail("positions were left unsolved"),
    };
    let bytes = book.to_bytes();
    if let Err(error) = write_whole(out, &bytes) {
        return fail(format!("--out {}: {error}", out.display()));
    }
    let _ = std::fs::remove_file(partial);
    println!(
        "connect4 book: depth {depth}, {} positions, {} bytes, written to {}\n\
         solved {} positions in {:.1} s ({} nodes){}",
        thousands(total as u64),
        thousands(bytes.len() as u64),
        out.display(),
        thousands((total - resumed_at) as u64),
        took.as_secs_f64(),
        thousands(nodes),
        if resumed_at > 0 {
            format!(
                "; {} were solved before the resume",
                thousands(resumed_at as u64)
            )
        } else {
            String::new()
        }
    );
    ExitCode::SUCCESS
}

/// `--import`: the book of another solver, turned into this arcade's.
fn import_book(theirs: &Path, depth: i32, out: &Path) -> ExitCode {
    let started = Instant::now();
    let bytes = match std::fs::read(theirs) {
        Ok(bytes) => bytes,
        Err(error) => return fail(format!("--import {}: {error}", theirs.display())),
    };
    let book = match from_connect_four_ai(&bytes, depth) {
        Ok(book) => book,
        Err(error) => return fail(format!("--import {}: {error}", theirs.display())),
    };
    let ours = book.to_bytes();
    if let Err(error) = write_whole(out, &ours) {
        return fail(format!("--out {}: {error}", out.display()));
    }
    println!(
        "connect4 book: depth {depth}, {} positions taken from {} ({} bytes), {} bytes written \
         to {} in {:.2} s",
        thousands(book.len() as u64),
        theirs.display(),
        thousands(bytes.len() as u64),
        thousands(ours.len() as u64),
        out.display(),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

fn partial_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The scores a partial build kept, if there is one; a file that is not one, or is for
/// another depth, is refused (and left as it is).
fn read_partial(path: &Path, depth: i32) -> Result<Option<Vec<Option<i8>>>, String> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("{}: {error}", path.display())),
    };
    let refuse = |why: &str| {
        Err(format!(
            "{}: {why}; remove it to start again",
            path.display()
        ))
    };
    let Some((header, scores)) = bytes.split_at_checked(PARTIAL_MAGIC.len() + 5) else {
        return refuse("not a partial book");
    };
    if &header[..PARTIAL_MAGIC.len()] != PARTIAL_MAGIC {
        return refuse("not a partial book");
    }
    if i32::from(header[PARTIAL_MAGIC.len()]) != depth {
        return refuse(&format!(
            "a partial book of depth {}, not {depth}",
            header[PARTIAL_MAGIC.len()]
        ));
    }
    let count = u32::from_le_bytes(header[PARTIAL_MAGIC.len() + 1..].try_into().expect("4"));
    if count as usize != scores.len() {
        return refuse("cut short");
    }
    Ok(Some(
        scores
            .iter()
            .map(|&b| (b != UNKNOWN).then_some(b as i8))
            .collect(),
    ))
}

fn write_partial(path: &Path, depth: i32, known: &[Option<i8>]) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(PARTIAL_MAGIC.len() + 5 + known.len());
    bytes.extend_from_slice(PARTIAL_MAGIC);
    bytes.push(depth as u8);
    bytes.extend_from_slice(&(known.len() as u32).to_le_bytes());
    bytes.extend(known.iter().map(|s| s.map_or(UNKNOWN, |s| s as u8)));
    write_whole(path, &bytes).map_err(|error| format!("{}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_build_comes_back_as_written_and_a_wrong_one_is_refused_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c4.book.partial");
        assert_eq!(read_partial(&path, 3), Ok(None), "no partial build yet");
        let known = vec![Some(1), None, Some(-18), Some(0)];
        write_partial(&path, 3, &known).unwrap();
        assert_eq!(read_partial(&path, 3), Ok(Some(known)));
        let refused = read_partial(&path, 4).unwrap_err();
        assert!(
            refused.contains("a partial book of depth 3, not 4"),
            "{refused}"
        );
        std::fs::write(&path, b"garbage").unwrap();
        let refused = read_partial(&path, 3).unwrap_err();
        assert!(
            refused.contains("not a partial book; remove it"),
            "{refused}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"garbage", "left as it was");
        assert_eq!(
            partial_path(Path::new("books/c4.book")),
            PathBuf::from("books/c4.book.partial")
        );
    }
}
