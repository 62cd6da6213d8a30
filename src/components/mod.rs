//! The teaching parts every tab contains rather than copies: each owns its state and its
//! drawing, and a tab with a searching AI gets them by holding one.

pub mod autoplay;
pub mod mcts_search;
pub mod tree_search;
