//! Minimax and alpha-beta, in two faces of one algorithm: [`search`], a fast recursive
//! search for play, `solve` and benchmarks, and [`Stepper`], an explicit-stack step machine
//! that records the tree for the tree pane. Tests pin that both give the same value, move
//! and counts. [`limited`] is alpha-beta for games too large to search to the end: a depth
//! limit and [`heuristic`]'s evaluation at it. [`mcts`] is the other family: Monte Carlo tree search, which needs no
//! evaluation, only the rules and seeded random games. [`players`] wraps them, the exact
//! solver and a random mover as Connect Four players named by a short spelling.

pub mod heuristic;
pub mod limited;
pub mod mcts;
mod ordering;
pub mod players;
pub mod predict;
mod recursive;
mod score;
mod stepper;
#[cfg(test)]
mod stepper_limited_tests;
mod weighing;

pub use ordering::{MoveOrder, SHALLOW_PLIES};
pub use recursive::{Algorithm, SearchResult, SearchStats, search, search_ordered};
pub use score::{INFINITY, WIN, evaluate};
pub use stepper::{
    Bound, BoundCause, CutoffKind, Event, EventKind, Leaves, NodeId, Stepper, TreeNode,
};
pub use weighing::{RootMove, Weighing, search_weighing};
