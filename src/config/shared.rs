//! What several sections share: who moves first, the recipe choice, and (from the learners)
//! the limits of a network's training.
//!
//! The checks here are the one source of truth for these settings: the config's validation
//! and the model files' checks on load (`learn::*::problem`) both call them, so a model file
//! can never carry a value the config would refuse.

use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// Bounds for a stepper's autoplay pace (`search.autoplay_ms`, `connect4.autoplay_ms`):
/// below 10 ms the stepper outruns the terminal's redraw, above 5 s it looks frozen.
pub const AUTOPLAY_MS_RANGE: RangeInclusive<u64> = 10..=5000;

/// A training recipe: this project's default or the original lab program's as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RecipeChoice {
    /// `"default"`: the original program's recipe with a cross-entropy loss (wins at every
    /// winning pile).
    #[default]
    Default,
    /// `"original"`: the original program's squared error. `"seed"`, its name before, is
    /// still read, so existing config files keep working.
    #[serde(alias = "seed")]
    Original,
}

impl RecipeChoice {
    /// Every recipe, in the order the settings panel cycles through them.
    pub const ALL: [Self; 2] = [Self::Default, Self::Original];

    /// The name a person reads in `train`'s report: `default` or `original`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Original => "original",
        }
    }

    /// The name in `train --json`'s `recipe` field: `default` or `seed`, the value's name
    /// before it was `original`, so scripts that read the field keep working.
    #[must_use]
    pub const fn json_name(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Original => "seed",
        }
    }
}

pub use crate::domain::learn::limits::{
    BATCH_RANGE, EPOCHS_RANGE, HIDDEN_RANGE, LEARNING_RATE_ALLOWED, learning_rate_allowed,
};

/// Who makes the first move of a game; spelled `"random"`, `"human"`,
/// `"ai"` in TOML.
///
/// A setting, not a player: besides the human and the AI (the two `tabkit::side::Side`s) it
/// may leave the opener to chance, drawn per game, so it cannot be a `Side`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FirstMover {
    /// Decided per game from the seeded random source, so runs stay
    /// reproducible; the default.
    #[default]
    Random,
    /// The human always opens.
    Human,
    /// The AI always opens.
    Ai,
}
