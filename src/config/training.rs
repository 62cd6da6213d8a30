//! What the learners of several sections share: the recipe choice and the limits of a
//! network's training.
//!
//! The checks here are the one source of truth for these settings: the config's validation
//! and the model files' checks on load (`learn::*::problem`) both call them, so a model file
//! can never carry a value the config would refuse.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

/// A training recipe: this project's default or the seed's as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RecipeChoice {
    /// `"default"`: the seed's recipe with a cross-entropy loss (wins at every winning pile).
    #[default]
    Default,
    /// `"seed"`: the seed's squared error.
    Seed,
}

/// What [`learning_rate_allowed`] allows, in words.
pub const LEARNING_RATE_ALLOWED: &str = "a number above 0 and at most 10";

/// Allowed hidden layer sizes.
pub const HIDDEN_RANGE: RangeInclusive<usize> = 1..=256;
/// Allowed epoch counts.
pub const EPOCHS_RANGE: RangeInclusive<usize> = 1..=1_000_000;

/// Whether a gradient step is allowed (config and saved networks alike).
pub fn learning_rate_allowed(rate: f64) -> bool {
    rate > 0.0 && rate <= 10.0
}
