//! Learners: deterministic given a seed, trained incrementally so a caller can show progress
//! and stop. No I/O and no terminal here.

pub mod network;
pub mod nim_net;
pub mod qlearning;
pub mod state_graph;
pub mod subtraction;
