//! Exact answers every learner is measured against, each given as one [`verdict::Verdict`].

pub mod connect4;
pub mod nim;
pub mod perfect;
pub mod state_graph;
pub mod subtraction;
pub mod verdict;
