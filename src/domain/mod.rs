//! The subject itself, pure: the games' rules, the searches, the exact solvers and the
//! learners, and how their numbers are written. No terminal, no files, no clock; every
//! random choice comes from a seed the caller passes in. (Not `core`, which would shadow
//! Rust's own `core` crate.)

pub mod games;
pub mod learn;
pub mod numbers;
pub mod prediction;
pub mod search;
pub mod solve;
pub mod steps;
