//! `[subtraction]`: the Subtraction Nim tab and its network.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::config::check::{ConfigError, in_range, require};
use crate::config::shared::{
    BATCH_RANGE, EPOCHS_RANGE, HIDDEN_RANGE, LEARNING_RATE_ALLOWED, RecipeChoice,
    learning_rate_allowed,
};

/// Allowed largest piles: at least 3 (one losing pile to learn), at most 1023 (10 bits).
pub const N_MAX_RANGE: RangeInclusive<u32> = 3..=1023;

/// Epochs one press of `s` trains: one epoch lets a class see a single update's effect,
/// 10,000 is a whole default training.
pub const STEP_EPOCHS_RANGE: RangeInclusive<usize> = 1..=10_000;

/// The view the tab's network pane opens on (`v` cycles them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SubtractionView {
    /// `"curve"`: the loss curve.
    #[default]
    Curve,
    /// `"piles"`: every pile, the network's move beside the right one.
    Piles,
    /// `"weights"`: the weights, unit by unit.
    Weights,
}

/// Settings of the Subtraction Nim tab and its network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SubtractionConfig {
    /// The largest starting pile; the network's input and output widths follow from it.
    pub n_max: u32,
    /// Whether the human moves first (the original program lets the AI start).
    pub human_first: bool,
    /// Which training recipe the tab and `train subtraction` use.
    pub recipe: RecipeChoice,
    /// Hidden sigmoid units.
    pub hidden: usize,
    /// Gradient step.
    pub learning_rate: f64,
    /// Training passes over every pile.
    pub epochs: usize,
    /// Samples per weight update (1: per-sample backpropagation, as the original).
    pub batch_size: usize,
    /// Seed for the initial weights and the labels at losing piles; absent: the run's seed.
    pub seed: Option<u64>,
    /// Train in the background when the tab is first shown and no saved network exists.
    pub autotrain: bool,
    /// Epochs one press of `s` trains, within [`STEP_EPOCHS_RANGE`].
    pub step_epochs: usize,
    /// The view the network pane opens on.
    pub view: SubtractionView,
    /// The pile every game starts from, instead of typing one: a lesson starts the class
    /// on a pile it has something to say about.
    pub start: Option<u32>,
}

impl Default for SubtractionConfig {
    fn default() -> Self {
        Self {
            n_max: 127,
            human_first: false,
            recipe: RecipeChoice::Default,
            hidden: 14,
            learning_rate: 0.12,
            epochs: 4000,
            batch_size: 1,
            seed: None,
            autotrain: true,
            step_epochs: 100,
            view: SubtractionView::Curve,
            start: None,
        }
    }
}

impl SubtractionConfig {
    /// The training recipe these settings ask for: the chosen base recipe with the
    /// configured sizes, learning rate and epochs.
    pub fn recipe(&self) -> crate::domain::learn::subtraction::Recipe {
        use crate::domain::learn::subtraction::Recipe;
        let base = match self.recipe {
            RecipeChoice::Default => Recipe::DEFAULT,
            RecipeChoice::Original => Recipe::ORIGINAL,
        };
        Recipe {
            hidden: self.hidden,
            learning_rate: self.learning_rate,
            epochs: self.epochs,
            batch_size: self.batch_size,
            ..base
        }
    }

    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        in_range("subtraction.n_max", self.n_max, &N_MAX_RANGE)?;
        if let Some(start) = self.start {
            require(
                "subtraction.start",
                (2..=self.n_max).contains(&start),
                format!(
                    "2..={} (a pile a move can be made from, at most n_max)",
                    self.n_max
                ),
                start,
            )?;
        }
        in_range("subtraction.hidden", self.hidden, &HIDDEN_RANGE)?;
        in_range("subtraction.epochs", self.epochs, &EPOCHS_RANGE)?;
        in_range("subtraction.batch_size", self.batch_size, &BATCH_RANGE)?;
        in_range(
            "subtraction.step_epochs",
            self.step_epochs,
            &STEP_EPOCHS_RANGE,
        )?;
        require(
            "subtraction.learning_rate",
            learning_rate_allowed(self.learning_rate),
            LEARNING_RATE_ALLOWED,
            self.learning_rate,
        )
    }
}
