//! `[selfplay]`: the Self-play tab, its learner's play and the `train selfplay` defaults
//! that the tab shares.

use crate::config::check::{ConfigError, in_range, require};
use crate::config::shared::FirstMover;
use crate::domain::learn::selfplay::saved::{
    BUFFER_RANGE, OPENING_RANGE, SIMULATIONS_RANGE, WIDTH_RANGE,
};
use crate::domain::learn::selfplay::settings::SelfPlaySettings;
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

/// The game the tab opens on (`g` switches).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum GameChoice {
    /// Tic-tac-toe, which its learner masters in a minute.
    #[default]
    #[serde(rename = "tictactoe")]
    TicTacToe,
    /// Four in a row on 5 columns of 4, which the solver answers at once.
    #[serde(rename = "connect4-5x4")]
    SmallBoard,
    /// Connect Four, 7 columns of 6.
    #[serde(rename = "connect4")]
    ConnectFour,
}

impl GameChoice {
    /// The games in the order `g` cycles them.
    pub const ALL: [Self; 3] = [Self::TicTacToe, Self::SmallBoard, Self::ConnectFour];

    /// The game after this one, as `g` goes.
    #[must_use]
    pub const fn next(self) -> Self {
        match self {
            Self::TicTacToe => Self::SmallBoard,
            Self::SmallBoard => Self::ConnectFour,
            Self::ConnectFour => Self::TicTacToe,
        }
    }
}

/// Settings of the Self-play tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// The game the tab opens on.
    pub game: GameChoice,
    /// Who opens each game.
    pub first: FirstMover,
    /// How the learner chooses its move against you.
    pub mode: PlayMode,
    /// Simulations of its search a move, when it searches.
    pub simulations: u32,
    /// Exploration's weight in its search when it plays you.
    pub c_puct: f64,
    /// Self-play games between two measurements of the curve (tic-tac-toe's grading of
    /// all 4,520 positions takes about a fifth of a second); a Connect Four point also
    /// plays the fixed opponents (seconds), so it measures every half as many.
    pub measure_every: u64,
    /// Seed of a new learner's network and games; absent: the run's seed. The keys from
    /// here to `width` are the tic-tac-toe learner's: the four-in-a-row learners start
    /// from their own measured settings, which the panel changes as it changes these.
    pub seed: Option<u64>,
    /// Simulations of each self-play move's search (a new learner's; a saved learner
    /// keeps its own training settings, which the panel changes).
    pub self_play_simulations: u32,
    /// Exploration's weight in the self-play search.
    pub self_play_c_puct: f64,
    /// The share of Dirichlet noise in the root's priors during self-play.
    pub noise: f64,
    /// Moves of each self-play game drawn in proportion to the visits (temperature 1).
    pub temperature_moves: u32,
    /// Adam's step size at the start (it halves every 3,000 games).
    pub learning_rate: f64,
    /// Samples the replay buffer keeps.
    pub buffer: usize,
    /// Units in each of the network's two hidden layers (a new learner's).
    pub width: usize,
}

/// Self-play `c_puct`: above 0 (a search that never explores learns nothing new).
pub const SELF_PLAY_C_PUCT_RANGE: RangeInclusive<f64> = 0.01..=20.0;
/// The step size: above 0, at most 1 (the saved file's own check).
pub const LEARNING_RATE_RANGE: RangeInclusive<f64> = 1e-6..=1.0;

impl Default for SelfPlayConfig {
    fn default() -> Self {
        let learner = SelfPlaySettings::tictactoe(0);
        Self {
            game: GameChoice::TicTacToe,
            first: FirstMover::Human,
            mode: PlayMode::Search,
            simulations: 50,
            c_puct: 3.0,
            measure_every: 1_000,
            seed: None,
            self_play_simulations: learner.simulations,
            self_play_c_puct: f64::from(learner.c_puct),
            noise: f64::from(learner.noise_share),
            temperature_moves: learner.temperature_moves,
            // Written out: f32's 0.002 widened is not the file's 0.002.
            learning_rate: 0.002,
            buffer: learner.buffer,
            width: learner.widths[0],
        }
    }
}

impl SelfPlayConfig {
    /// A new tic-tac-toe learner's settings: the training keys in force, seeded from
    /// `seed`.
    pub fn learner_settings(&self, seed: u64) -> SelfPlaySettings {
        SelfPlaySettings {
            simulations: self.self_play_simulations,
            c_puct: self.self_play_c_puct as f32,
            noise_share: self.noise as f32,
            temperature_moves: self.temperature_moves,
            learning_rate: self.learning_rate as f32,
            buffer: self.buffer,
            widths: vec![self.width; 2],
            ..SelfPlaySettings::tictactoe(seed)
        }
    }

    /// Checks the training keys, with the saved file's own ranges.
    fn validate_training(&self) -> Result<(), ConfigError> {
        in_range(
            "selfplay.self_play_simulations",
            self.self_play_simulations,
            &SIMULATIONS_RANGE,
        )?;
        require(
            "selfplay.self_play_c_puct",
            SELF_PLAY_C_PUCT_RANGE.contains(&self.self_play_c_puct),
            "0.01 to 20",
            self.self_play_c_puct,
        )?;
        require(
            "selfplay.noise",
            (0.0..=1.0).contains(&self.noise),
            "0 to 1",
            self.noise,
        )?;
        in_range(
            "selfplay.temperature_moves",
            self.temperature_moves,
            &OPENING_RANGE,
        )?;
        require(
            "selfplay.learning_rate",
            LEARNING_RATE_RANGE.contains(&self.learning_rate),
            "0.000001 to 1",
            self.learning_rate,
        )?;
        in_range("selfplay.buffer", self.buffer, &BUFFER_RANGE)?;
        in_range("selfplay.width", self.width, &WIDTH_RANGE)
    }

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
        )?;
        self.validate_training()
    }
}

#[cfg(test)]
mod tests {
    use super::GameChoice;
    use crate::config::parse;

    /// The game is written as `train selfplay --game` writes it; another is refused with
    /// the key named.
    #[test]
    fn the_game_key_takes_the_command_line_s_names() {
        let config = parse("[selfplay]\ngame = \"connect4-5x4\"\n", "user.toml").unwrap();
        assert_eq!(config.selfplay.game, GameChoice::SmallBoard);
        let refused = parse("[selfplay]\ngame = \"chess\"\n", "user.toml").unwrap_err();
        let said = refused.to_string();
        assert!(said.contains("game") && said.contains("chess"), "{said}");
    }

    #[test]
    fn g_goes_round_every_game_once() {
        let mut game = GameChoice::TicTacToe;
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.push(game);
            game = game.next();
        }
        assert_eq!(seen, GameChoice::ALL);
        assert_eq!(game, GameChoice::TicTacToe);
    }
}
