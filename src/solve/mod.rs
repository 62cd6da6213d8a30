//! Exact answers every learner is measured against.

pub mod subtraction;
