//! The glyphs of the search tree, each with what it means; a tab's help lists them.

use crate::components::mcts_search::outline;
use crate::domain::search::Bound;
use crate::widgets::symbols::{Gloss, Symbol, gloss, symbol};

/// An exact value.
pub const EXACT: Symbol = symbol(Bound::Exact.sign(), "exact value");
/// A lower bound (alpha-beta, fail-soft).
pub const AT_LEAST: Symbol = symbol(Bound::AtLeast.sign(), "at least: so far, or bound");
/// An upper bound.
pub const AT_MOST: Symbol = symbol(Bound::AtMost.sign(), "at most: so far, or bound");
/// A bound a cut-off made: moves were skipped at that node.
pub const CUT_BOUND: Symbol = symbol("≤0 cut", "bound: moves cut off here");
/// A bound from the window alone: every move was searched.
pub const WINDOW_BOUND: Symbol = symbol("≤0 window", "bound: all searched, ≤α/≥β");
/// A node without a value yet.
pub const UNKNOWN: Symbol = symbol("?", "no value yet");
/// A leaf: the game is over there.
pub const LEAF: Symbol = symbol("■", "game over here (a leaf)");
/// A leaf at a depth-limited search's horizon: the evaluation scores it.
pub const HORIZON: Symbol = symbol("◇", "depth limit: evaluated");
/// Children skipped by a cut-off.
pub const PRUNED: Symbol = symbol("╳", "pruned by a cut-off");
/// Children the search has not reached yet.
pub const PENDING: Symbol = symbol("┄", "children not searched yet");
/// The child whose value its parent took.
pub const BEST: Symbol = symbol("◂ best", "the move the parent chose");
/// A folded subtree.
pub const FOLDED: Symbol = symbol(outline::FOLDED, "folded subtree (→ opens)");
/// An unfolded subtree.
pub const UNFOLDED: Symbol = symbol(outline::OPEN, "unfolded subtree (← folds)");
/// The tree cursor.
pub const TREE_CURSOR: Symbol = symbol("›", "tree cursor");
/// The node being searched now.
pub const CURRENT: Symbol = symbol("▶", "node being searched now");

/// The glyphs the stepped tree draws, as a help lists them.
pub const STEPPED_TREE: &[Symbol] = &[
    EXACT,
    AT_LEAST,
    AT_MOST,
    CUT_BOUND,
    WINDOW_BOUND,
    UNKNOWN,
    LEAF,
    HORIZON,
    PRUNED,
    PENDING,
    BEST,
    FOLDED,
    UNFOLDED,
    TREE_CURSOR,
    CURRENT,
];

/// α in the tree: what MAX is already sure of on the path to a node.
pub const ALPHA_WORD: Gloss = gloss(
    "α, β (alpha, beta)",
    "The window a node is searched with. α: the most MAX is already sure of on the path \
     to here; β: the least MIN is sure of. Once α ≥ β the node's other moves cannot \
     change the choice above: they are cut off.",
);
/// `MAX=O` at the root, `MAX`/`MIN` on every node.
pub const MAX_WORD: Gloss = gloss(
    "MAX, MIN",
    "MAX is the side to move at the root, the one the search chooses for (the AI for its \
     move, you after t); the root row says who (MAX=O). Values are from MAX's side: MAX \
     takes the largest, MIN the smallest.",
);
/// The two kinds of bound.
pub const BOUND_WORD: Gloss = gloss(
    "≤ ≥, cut, window",
    "A value that is only a bound. While a node is searched, its best so far. Once done, \
     cut: a cut-off skipped some of its moves; window: all were searched, but something \
     below was cut, so the value is only known to lie outside the window.",
);
