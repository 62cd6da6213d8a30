//! The glyphs of the Connect Four tab, each with what it means; the help lists them.

use crate::components::mcts_search::outline;
use crate::widgets::symbols::{Symbol, symbol};

/// A red disc (the first player's).
pub(crate) const RED: Symbol = symbol("●", "red disc (moves first)");
/// A yellow disc.
pub(crate) const YELLOW: Symbol = symbol("○", "yellow disc");
/// An empty cell.
pub(crate) const EMPTY: Symbol = symbol("·", "empty cell");
/// A disc of the four that won.
pub(crate) const FOUR: Symbol = symbol("[●]", "the four in a row");
/// A node whose children are shown.
pub(crate) const OPEN: Symbol = symbol(outline::OPEN, "node unfolded (← folds)");
/// A node whose children are hidden.
pub(crate) const FOLDED: Symbol = symbol(outline::FOLDED, "node folded (→ unfolds)");
/// Moves a cut-off left unsearched, a leaf at the depth limit and a finished game: the
/// tree-search stepper's glyphs, so both trees of alpha-beta read alike.
pub(crate) use crate::components::tree_search::symbols::{
    HORIZON, LEAF as FINISHED, PRUNED as CUT, WINDOW_BOUND,
};
/// An answer from the transposition table.
pub(crate) const TABLE_HIT: Symbol = symbol("TT", "transposition-table hit");
/// The line the AI chose.
pub(crate) const CHOSEN: Symbol = symbol("*", "the AI's chosen line");

/// The tab's symbols.
pub(crate) const ALL: &[Symbol] = &[
    RED,
    YELLOW,
    EMPTY,
    FOUR,
    OPEN,
    FOLDED,
    CUT,
    WINDOW_BOUND,
    HORIZON,
    FINISHED,
    TABLE_HIT,
    CHOSEN,
];
