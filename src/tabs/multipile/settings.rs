//! `[nim]`, `[qlearning]` and `[nim_net]`: the Multi-pile Nim tab's game and its two
//! learners (also trained by `train qlearning` and `train nim-net`).

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::config::check::{ConfigError, in_range, in_range_if_set, require};
use crate::config::shared::FirstMover;
use crate::config::shared::{
    EPOCHS_RANGE, LEARNING_RATE_ALLOWED, RecipeChoice, learning_rate_allowed,
};
use crate::domain::games::nim::Rule;
pub use crate::domain::learn::limits::{
    ALPHA_ALLOWED, BATCH_RANGE, EPSILON_ALLOWED, HIDDEN_LAYERS_ALLOWED, NET_LAYERS_RANGE,
    NIM_PILE_RANGE, NIM_PILES_RANGE, QLEARNING_GAMES_RANGE, alpha_allowed, epsilon_allowed,
    hidden_layers_allowed,
};
use crate::domain::learn::nim_net::{NetGame, NetRecipe};
use crate::domain::learn::qlearning::{QSettings, Starts};

/// Allowed games between two points of the Q-learning charts.
pub const SAMPLE_EVERY_RANGE: RangeInclusive<usize> = 1..=1_000_000;
/// Allowed network pile counts (inputs grow by 6 per pile).
pub const NET_PILES_RANGE: RangeInclusive<usize> = 1..=4;
/// Allowed network pile sizes (6 bits).
pub const NET_MAX_PILE_RANGE: RangeInclusive<u8> = 1..=63;

/// The Multi-pile Nim tab's game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NimConfig {
    /// Starting piles for play against the Q-learning, perfect and random players.
    pub piles: Vec<u8>,
    /// Misère (the last object loses, original program 003) or normal play.
    pub rule: Rule,
    /// Who opens each game (original program 003: random per game).
    pub first: FirstMover,
    /// The opponent at start.
    pub opponent: OpponentChoice,
    /// Show the `★ ✓` marks (the AI's pick, the winning moves) for the position the human
    /// is about to play; `i` in the tab switches them. Off for a fair game.
    pub hints_on_your_turn: bool,
    /// The view the right-hand pane opens on (`v` cycles them).
    pub view: NimView,
}

/// The views of the Multi-pile Nim tab's right-hand pane, as the config names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum NimView {
    /// `"moves"`: the position and every move out of it, with Q-values.
    #[default]
    Moves,
    /// `"updates"`: the updates of the last one-game step.
    Updates,
    /// `"training"`: both learners' progress and curves.
    Training,
    /// `"table"`: every learned position.
    Table,
    /// `"network"`: the network's outputs for its move.
    Network,
    /// `"weights"`: the network's weights, a unit at a time.
    Weights,
}

impl Default for NimConfig {
    fn default() -> Self {
        Self {
            piles: vec![1, 3, 5, 7],
            rule: Rule::Misere,
            first: FirstMover::Random,
            opponent: OpponentChoice::Qlearning,
            hints_on_your_turn: false,
            view: NimView::Moves,
        }
    }
}

impl NimConfig {
    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        let pile_sizes_ok = self.piles.iter().all(|s| NIM_PILE_RANGE.contains(s));
        require(
            "nim.piles",
            NIM_PILES_RANGE.contains(&self.piles.len()) && pile_sizes_ok,
            "1 to 6 piles of 0..=31 objects",
            format!("{:?}", self.piles),
        )?;
        require(
            "nim.piles",
            self.piles.iter().any(|&s| s != 0),
            "at least one object",
            format!("{:?}", self.piles),
        )
    }
}

/// The players the Multi-pile Nim tab can put against the human.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum OpponentChoice {
    /// `"qlearning"`: the Q-table's greedy move.
    #[default]
    Qlearning,
    /// `"network"`: the 3-pile network's move.
    Network,
    /// `"perfect"`: the exact solver.
    Perfect,
    /// `"random"`: a uniformly random legal move.
    Random,
}

/// The Q-learning agent's training.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QLearningConfig {
    /// `"default"` (exploring starts, 20,000 games) or `"original"` (every game from the
    /// start piles, 10,000 games; `"seed"` is read as `"original"`).
    pub recipe: RecipeChoice,
    /// Self-play games; absent: the recipe's.
    pub games: Option<usize>,
    /// Learning rate alpha.
    pub alpha: f64,
    /// Exploration rate epsilon.
    pub epsilon: f64,
    /// Games between two points of the training charts.
    pub sample_every: usize,
    /// Seed of the training games; absent: the run's seed.
    pub seed: Option<u64>,
    /// Train when the tab is first shown and no saved table fits.
    pub autotrain: bool,
}

impl Default for QLearningConfig {
    fn default() -> Self {
        Self {
            recipe: RecipeChoice::Default,
            games: None,
            alpha: 0.5,
            epsilon: 0.1,
            sample_every: 500,
            seed: None,
            autotrain: true,
        }
    }
}

impl QLearningConfig {
    /// The learning settings and game count these settings ask for.
    pub fn recipe(&self) -> (QSettings, usize) {
        let (starts, games) = match self.recipe {
            RecipeChoice::Default => (Starts::Exploring, 20_000),
            RecipeChoice::Original => (Starts::Original, 10_000),
        };
        let settings = QSettings {
            alpha: self.alpha,
            epsilon: self.epsilon,
            starts,
        };
        (settings, self.games.unwrap_or(games))
    }

    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        in_range_if_set("qlearning.games", self.games, &QLEARNING_GAMES_RANGE)?;
        require(
            "qlearning.alpha",
            alpha_allowed(self.alpha),
            ALPHA_ALLOWED,
            self.alpha,
        )?;
        require(
            "qlearning.epsilon",
            epsilon_allowed(self.epsilon),
            EPSILON_ALLOWED,
            self.epsilon,
        )?;
        in_range(
            "qlearning.sample_every",
            self.sample_every,
            &SAMPLE_EVERY_RANGE,
        )
    }
}

/// The network agent's game and training.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NimNetConfig {
    /// Piles the network plays (original program 001: 3).
    pub piles: usize,
    /// The largest pile it learns (original program 001: 31).
    pub max_pile: u8,
    /// The rule its labels follow (original program 001: normal play).
    pub rule: Rule,
    /// Starting piles of a game against it.
    pub start: Vec<u8>,
    /// `"default"` (two hidden layers of 64, cross-entropy) or `"original"` (14 hidden
    /// units, squared error; `"seed"` is read as `"original"`).
    pub recipe: RecipeChoice,
    /// Hidden layer sizes; absent: the recipe's.
    pub hidden: Option<Vec<usize>>,
    /// Gradient step; absent: the recipe's.
    pub learning_rate: Option<f64>,
    /// Passes over the training set; absent: the recipe's.
    pub epochs: Option<usize>,
    /// Samples per update; absent: the recipe's (32).
    pub batch_size: Option<usize>,
    /// Seed of the initial weights and sample order; absent: the run's seed.
    pub seed: Option<u64>,
    /// Train in the background when the network is first chosen and none is saved.
    pub autotrain: bool,
}

impl Default for NimNetConfig {
    fn default() -> Self {
        Self {
            piles: 3,
            max_pile: 31,
            rule: Rule::Normal,
            start: vec![15, 15, 14],
            recipe: RecipeChoice::Default,
            hidden: None,
            learning_rate: None,
            epochs: None,
            batch_size: None,
            seed: None,
            autotrain: true,
        }
    }
}

impl NimNetConfig {
    /// The game the network plays.
    pub fn game(&self) -> NetGame {
        NetGame {
            piles: self.piles,
            max_pile: self.max_pile,
            rule: self.rule,
        }
    }

    /// The recipe: the chosen base with any sizes and rates given here.
    pub fn recipe(&self) -> NetRecipe {
        let base = match self.recipe {
            RecipeChoice::Default => NetRecipe::default(),
            RecipeChoice::Original => NetRecipe::original(),
        };
        NetRecipe {
            hidden: self.hidden.clone().unwrap_or(base.hidden),
            learning_rate: self.learning_rate.unwrap_or(base.learning_rate),
            epochs: self.epochs.unwrap_or(base.epochs),
            batch_size: self.batch_size.unwrap_or(base.batch_size),
            ..base
        }
    }

    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        in_range("nim_net.piles", self.piles, &NET_PILES_RANGE)?;
        in_range("nim_net.max_pile", self.max_pile, &NET_MAX_PILE_RANGE)?;
        let start_ok = self.start.len() == self.piles
            && self.start.iter().all(|&s| s <= self.max_pile)
            && self.start.iter().any(|&s| s != 0);
        require(
            "nim_net.start",
            start_ok,
            format!(
                "{} piles of 0..={}, not all empty",
                self.piles, self.max_pile
            ),
            format!("{:?}", self.start),
        )?;
        if let Some(hidden) = &self.hidden {
            require(
                "nim_net.hidden",
                hidden_layers_allowed(hidden),
                HIDDEN_LAYERS_ALLOWED,
                format!("{hidden:?}"),
            )?;
        }
        require(
            "nim_net.learning_rate",
            self.learning_rate.is_none_or(learning_rate_allowed),
            LEARNING_RATE_ALLOWED,
            format!("{:?}", self.learning_rate),
        )?;
        in_range_if_set("nim_net.epochs", self.epochs, &EPOCHS_RANGE)?;
        in_range_if_set("nim_net.batch_size", self.batch_size, &BATCH_RANGE)
    }
}
