//! How a command ends on bad input: one exit status and one way to say why. Its own file so
//! every command's file can use it without importing `cli.rs` back.

use std::process::ExitCode;

/// Exit status for bad input: command line, config or position.
pub const EXIT_USAGE: u8 = 2;

/// Prints `ai-arcade: {message}` on stderr and gives [`EXIT_USAGE`].
pub fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("ai-arcade: {message}");
    ExitCode::from(EXIT_USAGE)
}
