//! An AI move in the works, and one made, as the journal keeps it (see `ai_turn.rs`).

use super::ai::Thought;
use super::settings::Connect4Ai;
use crate::domain::games::connect4::Board;
use crate::tabkit::background::OneShot;
use std::sync::Arc;
use std::sync::mpsc::Receiver;

/// Where the AI's move will come from.
pub(crate) enum Source {
    /// A search in the trainer pool, on its own thread once it has a place; its thought
    /// arrives on `receiver`.
    Pool {
        receiver: Receiver<Thought>,
        search: OneShot,
    },
    /// The followed session's journal.
    Journal,
}

/// An AI move in the works.
pub(crate) struct Thinking {
    /// Where the move comes from.
    pub(crate) source: Source,
    /// The position it is for.
    pub(crate) board: Board,
    /// The AI thinking.
    pub(crate) ai: Connect4Ai,
}

/// An AI move as it was made: the position and the whole thought (shared, not copied,
/// between the journals of a class).
#[derive(Debug, Clone)]
pub struct AiPlayed(pub(crate) Arc<(Board, Thought)>);

impl PartialEq for AiPlayed {
    /// The same move by the same AI on the same board.
    fn eq(&self, other: &Self) -> bool {
        let (board, thought) = &*self.0;
        let (other_board, other_thought) = &*other.0;
        board == other_board
            && thought.column == other_thought.column
            && thought.ai == other_thought.ai
    }
}
