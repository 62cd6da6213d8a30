//! What a teacher has open over the tabs that their followers see too, as the teacher's
//! position carries it (`mirror.rs` opens and closes it). Plain data, so the journal's
//! position can name it without naming the app.

use crate::tabkit::why::Why;
use std::sync::Arc;

/// What a teacher has open that the students following them see too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// The AI's reasons, at the record the teacher opened.
    Why(Why),
    /// The log (each follower's own: it holds the same replayed messages).
    Log,
    /// An exported text, shown to be copied.
    Text {
        /// What the text is.
        title: String,
        /// The text.
        text: String,
    },
}

/// What tells one [`Shown`] from another without comparing whole records (a Connect Four
/// search's is large): the kind, and for the reasons the record open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShownMark {
    /// The reasons, at record `open` of `moves`.
    Why {
        /// The record open.
        open: usize,
        /// How many moves the overlay holds.
        moves: usize,
    },
    /// The log.
    Log,
    /// An exported text of this many bytes.
    Text(usize),
}

/// What a teacher's session shows its followers, and what was last sent.
#[derive(Debug, Clone, Default)]
pub struct Showing {
    pub(super) sent: Option<(ShownMark, Arc<Shown>)>,
}

impl Showing {
    /// What followers see now.
    pub fn shown(&self) -> Option<Arc<Shown>> {
        self.sent.as_ref().map(|(_, shown)| Arc::clone(shown))
    }
}
