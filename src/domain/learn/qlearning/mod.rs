//! The Q-learning agent of original program 003: a table of Q(s, a) for every position and move of
//! a multi-pile Nim game, learned by self-play with the original program's update timing.
//!
//! Q(s, a) <- Q(s, a) + alpha (r + max Q(s', .) - Q(s, a)). A player's move is updated once
//! the opponent has replied, so s' is the position the same player faces next and max Q(s', .)
//! is that player's own best estimate. The move that ends the game gets its reward at once:
//! -1 under misère (it took the last object), +1 under normal play; the other player's last
//! move gets the opposite. Every other reward is 0.
//!
//! The files: `table.rs` holds the table itself (a dense cell per position and move),
//! `update.rs` the update rule and the arithmetic each cell keeps of its last update,
//! `choice.rs` the greedy and epsilon-greedy choices, `training.rs` self-play and the
//! trainer, `evaluation.rs` how a table is measured, and `saved.rs` the table file.

mod choice;
mod evaluation;
mod saved;
mod table;
mod training;
mod update;

pub use choice::{QDecision, QHow, QOption};
pub use evaluation::{
    EVALUATION_GAMES, Opponent, QEvaluation, evaluate, greedy_is_optimal, win_rate,
};
pub use saved::{QEntry, SavedTable, SavedUpdate, TABLE_FORMAT, TABLE_VERSION, table_file, usable};
pub use table::{MAX_TABLE_CELLS, QTable, TableError};
pub use training::{QSettings, QTrainer, Starts};
pub use update::Update;

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests;
