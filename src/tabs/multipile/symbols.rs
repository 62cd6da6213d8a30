//! The glyphs of Multi-pile Nim, each with what it means; the help lists them.

use crate::widgets::symbols::{Symbol, symbol};

/// The move the Q-table (or network) plays.
pub const GREEDY: Symbol = symbol("★", "the AI's choice (greedy)");
/// A move the solver says wins.
pub const WINS: Symbol = symbol("✓", "a winning move (solver)");
/// The pane cursor, and the chosen pile.
pub const SELECTED: Symbol = symbol("▸", "selected row / pile");
/// Objects the selection would take.
pub const TAKING: Symbol = symbol("○", "objects your move takes");

/// Multi-pile Nim's symbols.
pub const NIM: &[Symbol] = &[GREEDY, WINS, SELECTED, TAKING];
