//! `[selfplay]`: the Self-play tab, its learner's play and the `train selfplay` defaults
//! that the tab shares.

use crate::config::check::{ConfigError, in_range, require};
use crate::config::shared::FirstMover;
use crate::domain::learn::selfplay::saved::SIMULATIONS_RANGE;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// `c_puct` when the learner plays you: 0 never explores past the prior's favourite.
pub const C_PUCT_RANGE: RangeInclusive<f64> = 0.0..=20.0;
/// Self-play games between two measurements of the curve.
pub const MEASURE_EVERY_RANGE: RangeInclusive<u64> = 50..=1_000_000;

/// How the learner chooses its move against you.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum PlayMode {
    /// The network guides a PUCT search of `simulations` simulations: the most visited
    /// move.
    #[default]
    Search,
    /// The network alone: its highest prior, no search.
    Network,
}

impl PlayMode {
    /// Both modes, in the order `n` and the panel cycle them.
    pub const ALL: [Self; 2] = [Self::Search, Self::Network];

    /// As the config writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Search => "search",
            Self::Network => "network",
        }
    }
}

/// Settings of the Self-play tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Who opens each game.
    pub first: FirstMover,
    /// How the learner chooses its move against you.
    pub mode: PlayMode,
    /// Simulations of its search a move, when it searches.
    pub simulations: u32,
    /// Exploration's weight in its search when it plays you.
    pub c_puct: f64,
    /// Self-play games between two measurements of the curve (each grades all 4,520
    /// positions, about a fifth of a second).
    pub measure_every: u64,
    /// Seed of a new learner's network and games; absent: the run's seed.
    pub seed: Option<u64>,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        Self {
            first: FirstMover::Human,
            mode: PlayMode::Search,
            simulations: 50,
            c_puct: 3.0,
            measure_every: 1_000,
            seed: None,
        }
    }
}

impl SelfPlayConfig {
    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        in_range("selfplay.simulations", self.simulations, &SIMULATIONS_RANGE)?;
        require(
            "selfplay.c_puct",
            C_PUCT_RANGE.contains(&self.c_puct),
            "0 to 20",
            self.c_puct,
        )?;
        in_range(
            "selfplay.measure_every",
            self.measure_every,
            &MEASURE_EVERY_RANGE,
        )
    }
}
