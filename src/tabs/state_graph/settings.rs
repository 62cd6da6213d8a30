//! `[graph]`: the State Graph tab and `train graph`.

use serde::{Deserialize, Serialize};

use crate::config::check::{ConfigError, in_range};

pub use crate::domain::learn::limits::{
    GRAPH_GAMES_RANGE, GRAPH_MAX_TAKE_RANGE, GRAPH_TOKENS_RANGE,
};

/// Settings of the State Graph tab and `train graph`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GraphConfig {
    /// Tokens at the start of Nim(k).
    pub tokens: u32,
    /// The most tokens one turn may take.
    pub max_take: u32,
    /// Random games to learn from.
    pub games: u64,
    /// Seed of the random games; absent: the run's seed.
    pub seed: Option<u64>,
}

impl Default for GraphConfig {
    fn default() -> Self {
        Self {
            tokens: 10,
            max_take: 2,
            games: 10_000,
            seed: None,
        }
    }
}

impl GraphConfig {
    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        in_range("graph.tokens", self.tokens, &GRAPH_TOKENS_RANGE)?;
        in_range("graph.max_take", self.max_take, &GRAPH_MAX_TAKE_RANGE)?;
        in_range("graph.games", self.games, &GRAPH_GAMES_RANGE)
    }
}
