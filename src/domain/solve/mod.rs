//! Exact answers every learner is measured against.

pub mod nim;
pub mod outcome;
pub mod perfect;
pub mod state_graph;
pub mod subtraction;
