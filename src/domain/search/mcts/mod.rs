//! Monte Carlo tree search (UCT): the search that needs no evaluation function, only the
//! rules and random games. [`Mcts`] runs whole iterations fast (for play and benchmarks);
//! [`MctsStepper`] runs the same code one phase at a time and records what each phase did,
//! for a view that explains it. Tests pin that both build the same tree.
//!
//! - `tree.rs`: the arena of nodes (`N`, `W`, the last UCB1 value, untried moves as slots);
//! - `uct.rs`: the four phases and the search's read access;
//! - `rollout.rs`: the random playouts and their seeded generator;
//! - `record.rs`: what each phase did, as the stepper keeps it;
//! - `stepper.rs`: the phase-at-a-time face, with step back;
//! - `predict.rs`: predict, then check: the move an iteration takes from the root, graded.

mod predict;
mod record;
mod rollout;
mod stepper;
mod tree;
mod uct;

#[cfg(test)]
mod tests;

pub use predict::{Pick, PickGrade, PickMistake, asks_pick, node_path, picks, root_pick};
pub use record::{Candidate, Change, Expansion, Phase, PhaseRecord, SelectionStep};
pub use rollout::{Rollout, SplitMix64, uniform_playout};
pub use stepper::{MctsStepper, Record};
pub use tree::{Node, NodeId, ROOT};
pub use uct::{DEFAULT_EXPLORATION, MAX_NODES, Mcts, MoveStats};
