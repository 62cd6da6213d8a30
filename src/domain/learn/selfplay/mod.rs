//! An AlphaZero-style learner: a policy/value network that guides a PUCT search and learns
//! from its own games, graded against the exact solvers. The self-play tab and the
//! `train selfplay` / `play selfplay` commands both use it.
//!
//! - `net.rs`: the network, its losses and Adam;
//! - `learnable.rs`: what a game must say to be learned (moves as indices, the input, the
//!   result, the symmetries), and tic-tac-toe's;
//! - `puct.rs`: the search;
//! - `stepper.rs`: the search one phase at a time (selection, the network's evaluation,
//!   backup), each phase recorded, any step taken back;
//! - `predict.rs`: which edge the next walk takes at each node, and the slip a wrong
//!   answer makes;
//! - `settings.rs`: how it plays and trains, and how far training went;
//! - `trainer.rs`: self-play games, the replay buffer and training;
//! - `judge.rs`: the share of positions in which its moves keep the exact value;
//! - `referee.rs`: each game's exact answer: its solver, the graded positions, the
//!   verdict of every move;
//! - `saved.rs`: the learner as its file keeps it, checked on load;
//! - `versus.rs`: Connect Four games against fixed opponents.

pub mod judge;
pub mod learnable;
pub mod net;
pub mod predict;
pub mod puct;
pub mod referee;
pub mod saved;
pub mod settings;
pub mod stepper;
pub mod trainer;
pub mod versus;
