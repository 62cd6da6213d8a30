//! The glyphs of the search tree, each with what it means; the help lists them.

pub use crate::components::tree_search::symbols::{
    AT_LEAST, AT_MOST, BEST, CURRENT, CUT_BOUND, EXACT, FOLDED, LEAF, PENDING, PRUNED, TREE_CURSOR,
    UNFOLDED, UNKNOWN, WINDOW_BOUND,
};
use crate::widgets::symbols::{Gloss, Symbol, symbol};

/// A node's label: the move that led to it, then who moves next (MAX or MIN).
pub const NODE_LABEL: Symbol = symbol("X2 MAX", "after X plays 2, MAX moves");
/// A node's label in the Game of Eight: the number added and the sum it makes, then who
/// moves next.
pub const EIGHT_NODE_LABEL: Symbol = symbol("+2=3 MIN", "after 2 makes 3, MIN moves");
/// In MCTS's tree: the move the AI plays, or the path of the iteration being stepped.
pub use crate::components::mcts_search::pane::{CHOSEN as MCTS_CHOSEN, SOLVER as MCTS_SOLVER};

/// The tree's symbols, as the help lists them.
pub const TREE: &[Symbol] = &[
    NODE_LABEL,
    EIGHT_NODE_LABEL,
    EXACT,
    AT_LEAST,
    AT_MOST,
    CUT_BOUND,
    WINDOW_BOUND,
    UNKNOWN,
    LEAF,
    PRUNED,
    PENDING,
    BEST,
    FOLDED,
    UNFOLDED,
    TREE_CURSOR,
    CURRENT,
    MCTS_CHOSEN,
    MCTS_SOLVER,
];

/// The words the help glosses on this tab: the steppers' own.
pub fn words() -> Vec<Gloss> {
    crate::components::mcts_search::pane::SEARCH_WORDS.to_vec()
}
