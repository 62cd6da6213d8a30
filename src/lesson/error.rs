//! Why a lesson file was refused: the file, the line and the key, and what is wrong.

use std::path::PathBuf;

/// Why a lesson file was refused. Every message names the file, the line and the key.
#[derive(Debug, thiserror::Error)]
pub enum LessonError {
    /// The file could not be read, or is too large to be a lesson.
    #[error("lesson error in {}: cannot read file: {reason}", path.display())]
    Read {
        /// The file asked for.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// Something in the file is not what a lesson allows: its syntax, a key, a type, a
    /// value, in the `[lesson]` and `[[step]]` parts or in the config's own sections.
    #[error("lesson error in {origin}{}: key `{key}`: {reason}", LineSuffix(*line))]
    Invalid {
        /// The file.
        origin: String,
        /// The line (1-based) the key is written on; `None` only for a key the file does
        /// not write (a config check that fails on the config the lesson is laid over).
        line: Option<usize>,
        /// Dotted path of the key, e.g. `lesson.locked` or `step.3.text`.
        key: String,
        /// What is wrong and what is allowed.
        reason: String,
    },
}

/// `, line 16` after the file's name, when the line is known.
struct LineSuffix(Option<usize>);

impl std::fmt::Display for LineSuffix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(line) => write!(f, ", line {line}"),
            None => Ok(()),
        }
    }
}
