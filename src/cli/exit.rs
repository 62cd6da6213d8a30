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

/// Longest `--board` echoed whole in an error; a longer one is cut with an ellipsis.
pub(crate) const BOARD_ECHO_CHARS: usize = 20;

/// `board` as an error message quotes it: whole when short, else its start, an ellipsis
/// and its length, so a huge argument cannot flood the terminal.
pub(crate) fn board_echo(board: &str) -> String {
    let length = board.chars().count();
    if length <= BOARD_ECHO_CHARS {
        format!("{board:?}")
    } else {
        let start: String = board.chars().take(BOARD_ECHO_CHARS).collect();
        format!("{:?} ({length} characters)", format!("{start}…"))
    }
}
