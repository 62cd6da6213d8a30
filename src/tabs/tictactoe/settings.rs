//! `[tictactoe]`, `[eight]` and `[search]`: the two games of the Tic-tac-toe tab and the
//! game-tree search their AI runs.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::config::check::{ConfigError, in_range};
use crate::config::shared::FirstMover;
pub use crate::domain::games::tictactoe::{Board, Mark};
pub use crate::domain::search::{Algorithm, MoveOrder};

pub use crate::config::shared::AUTOPLAY_MS_RANGE;
/// MCTS iterations per move: 1 shows a search that has seen one random game (and plays
/// the first legal move); past 100,000 the tree of tic-tac-toe holds no more surprises
/// and a move takes long enough to notice.
pub const MCTS_ITERATIONS_RANGE: RangeInclusive<u64> = 1..=100_000;
/// MCTS's exploration constant `c`: 0 never explores, past 10 it hardly exploits.
pub const MCTS_EXPLORATION_RANGE: RangeInclusive<f64> = 0.0..=10.0;

/// Settings for the tic-tac-toe tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TicTacToeConfig {
    /// The mark the human plays (`"x"` / `"o"`); the AI takes the other, so a
    /// user can try both sides of the same position.
    pub human_plays: Mark,
    /// Who opens each game; `Random` (drawn from the seed) keeps the AI
    /// from always seeing the same first move.
    pub first: FirstMover,
    /// The board every game starts from, nine cells in reading order (`"X...O...."`, `.`
    /// for empty), the side to move read from the counts, or the cells played in order
    /// (`"519"`, X first); `first` is then unused. A
    /// lesson starts a class a few moves in, where the search is small enough to step.
    /// Such games are set-up games: the tally does not count them.
    pub start: Option<String>,
}

impl Default for TicTacToeConfig {
    fn default() -> Self {
        Self {
            human_plays: Mark::X,
            first: FirstMover::Random,
            start: None,
        }
    }
}

impl TicTacToeConfig {
    /// The start board, if one is set.
    ///
    /// # Errors
    /// Why `start` is not a board a game can go on from.
    pub fn start_board(&self) -> Result<Option<Board>, ConfigError> {
        let Some(text) = &self.start else {
            return Ok(None);
        };
        // A move list is digits only; a board has X, O or an empty mark in its nine cells.
        let moves = text.chars().all(|c| c.is_ascii_digit() || c == ' ');
        let board = if moves {
            Board::from_moves(text)
        } else {
            Board::parse(text, None)
        };
        board.map(Some).map_err(|why| ConfigError::OutOfRange {
            origin: crate::config::check::MERGED_ORIGIN.to_owned(),
            key: "tictactoe.start",
            allowed: format!(
                "nine cells X, O and . in reading order, or the cells played 1-9, X first; \
                 a game not over ({why})"
            ),
            found: format!("{text:?}"),
        })
    }

    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        self.start_board().map(|_| ())
    }
}

/// Settings for the Eight tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EightConfig {
    /// Who opens each game; `Random` (drawn from the seed) lets the user
    /// meet both the winning and the losing side of the start.
    pub first: FirstMover,
}

impl Default for EightConfig {
    fn default() -> Self {
        Self {
            first: FirstMover::Random,
        }
    }
}

/// The tab's search as the config names it: the two tree searches, or MCTS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SearchAlgorithm {
    /// Plain minimax.
    Minimax,
    /// Minimax with alpha-beta pruning.
    #[default]
    AlphaBeta,
    /// Monte Carlo tree search (UCT), with `mcts_iterations` and `mcts_exploration`.
    Mcts,
}

impl SearchAlgorithm {
    /// The tree search this names, `None` for MCTS.
    #[must_use]
    pub const fn tree(self) -> Option<Algorithm> {
        match self {
            Self::Minimax => Some(Algorithm::Minimax),
            Self::AlphaBeta => Some(Algorithm::AlphaBeta),
            Self::Mcts => None,
        }
    }
}

impl From<Algorithm> for SearchAlgorithm {
    fn from(algorithm: Algorithm) -> Self {
        match algorithm {
            Algorithm::Minimax => Self::Minimax,
            Algorithm::AlphaBeta => Self::AlphaBeta,
        }
    }
}

/// Settings of the game-tree search and its stepper.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Which algorithm the AI runs (`"minimax"` / `"alphabeta"` / `"mcts"`), so the
    /// user can compare how many nodes plain minimax visits against alpha-beta for the
    /// same move, and a lesson can open on MCTS.
    pub algorithm: SearchAlgorithm,
    /// When true, the AI's turn opens the search stepper instead of moving
    /// at once, for users who want to watch every search.
    pub step: bool,
    /// Delay in milliseconds between steps when the stepper plays itself;
    /// must lie in [`AUTOPLAY_MS_RANGE`].
    pub autoplay_ms: u64,
    /// The order the search tries moves in (`"listed"`, `"static"`, `"best"`): the
    /// value never changes, alpha-beta's node count does; `"listed"` is the search as
    /// it always was.
    pub order: MoveOrder,
    /// MCTS iterations per move, when `algorithm` or `a` picks MCTS; must lie in
    /// [`MCTS_ITERATIONS_RANGE`].
    pub mcts_iterations: u64,
    /// MCTS's exploration constant `c` in UCB1; must lie in [`MCTS_EXPLORATION_RANGE`].
    pub mcts_exploration: f64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            algorithm: SearchAlgorithm::AlphaBeta,
            step: false,
            autoplay_ms: 250,
            order: MoveOrder::Listed,
            mcts_iterations: 1000,
            mcts_exploration: std::f64::consts::SQRT_2,
        }
    }
}

impl SearchConfig {
    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        in_range("search.autoplay_ms", self.autoplay_ms, &AUTOPLAY_MS_RANGE)?;
        in_range(
            "search.mcts_iterations",
            self.mcts_iterations,
            &MCTS_ITERATIONS_RANGE,
        )?;
        in_range(
            "search.mcts_exploration",
            self.mcts_exploration,
            &MCTS_EXPLORATION_RANGE,
        )
    }
}
