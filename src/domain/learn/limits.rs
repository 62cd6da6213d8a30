//! The limits of the learners' settings. They are the one source of truth: the config's
//! validation (`config/`) and the model files' checks on load (`learn::*::problem`) both use
//! them, so a model file can never carry a value the config would refuse. They live with the
//! learners because the learners check their own files and must not import the config.

use std::ops::RangeInclusive;

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

/// What [`alpha_allowed`] allows, in words.
pub const ALPHA_ALLOWED: &str = "above 0, at most 1";
/// What [`epsilon_allowed`] allows, in words.
pub const EPSILON_ALLOWED: &str = "0 to 1";
/// What [`hidden_layers_allowed`] allows, in words.
pub const HIDDEN_LAYERS_ALLOWED: &str = "1 to 3 layers of 1..=256 units";
/// Allowed hidden layer counts.
pub const NET_LAYERS_RANGE: RangeInclusive<usize> = 1..=3;
/// Allowed batch sizes.
pub const BATCH_RANGE: RangeInclusive<usize> = 1..=4096;

/// Whether a Q-learning rate alpha is allowed: above 1 the update overshoots, and huge
/// values overflow the Q-values to NaN.
pub fn alpha_allowed(alpha: f64) -> bool {
    alpha > 0.0 && alpha <= 1.0
}

/// Whether an exploration rate epsilon is allowed.
pub fn epsilon_allowed(epsilon: f64) -> bool {
    (0.0..=1.0).contains(&epsilon)
}

/// Whether hidden layer sizes are allowed: [`NET_LAYERS_RANGE`] layers of [`HIDDEN_RANGE`]
/// units.
pub fn hidden_layers_allowed(hidden: &[usize]) -> bool {
    NET_LAYERS_RANGE.contains(&hidden.len()) && hidden.iter().all(|h| HIDDEN_RANGE.contains(h))
}

/// Allowed pile counts for play (the Multi-pile tab and `nim`).
pub const NIM_PILES_RANGE: RangeInclusive<usize> = 1..=crate::domain::games::nim::MAX_PILES;
/// Allowed pile sizes for play.
pub const NIM_PILE_RANGE: RangeInclusive<u8> = 0..=31;
/// Allowed Q-learning game counts (the tab's training and `train qlearning`).
pub const QLEARNING_GAMES_RANGE: RangeInclusive<usize> = 1..=10_000_000;

/// Allowed token counts for the state graph (the tab and `train graph`).
pub const GRAPH_TOKENS_RANGE: RangeInclusive<u32> = 1..=100;
/// Allowed maximum takes.
pub const GRAPH_MAX_TAKE_RANGE: RangeInclusive<u32> = 1..=5;
/// Allowed game counts.
pub const GRAPH_GAMES_RANGE: RangeInclusive<u64> = 1..=100_000_000;
