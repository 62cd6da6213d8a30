//! `[connect4]`: the Connect Four tab, its AIs and `arena connect4`'s defaults.

use std::ops::RangeInclusive;

use crate::config::shared::AUTOPLAY_MS_RANGE;
use serde::{Deserialize, Serialize};

use crate::config::check::{ConfigError, MERGED_ORIGIN, in_range, require};
use crate::config::serve::HumanDuration;
use crate::config::shared::FirstMover;
use crate::domain::games::connect4::Board;
use std::time::Duration;

/// Plies the alpha-beta AI looks ahead: 1 sees only its own move; 12 takes seconds.
pub const DEPTH_RANGE: RangeInclusive<u8> = 1..=12;
/// MCTS iterations per move.
pub const ITERATIONS_RANGE: RangeInclusive<u64> = 100..=1_000_000;
/// MCTS's exploration constant c: 0 never explores, past 10 it hardly exploits.
pub const EXPLORATION_RANGE: RangeInclusive<f64> = 0.0..=10.0;
/// MCTS's time budget a move, when one is set instead of iterations.
pub const MCTS_TIME_RANGE: RangeInclusive<Duration> =
    Duration::from_millis(10)..=Duration::from_secs(60);
/// Positions the exact solver may search for one move (0: never ask it).
pub const SOLVER_BUDGET_RANGE: RangeInclusive<u64> = 0..=1_000_000_000;

/// The AI the tab plays against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Connect4Ai {
    /// Depth-limited alpha-beta with the evaluation.
    #[default]
    AlphaBeta,
    /// Monte Carlo tree search (UCT) with random rollouts.
    Mcts,
    /// The exact solver within its budget; alpha-beta beyond it.
    Perfect,
    /// A uniformly random column, from the seed.
    Random,
}

impl Connect4Ai {
    /// Every AI, in the order `a` and the settings panel cycle through them.
    pub const ALL: [Self; 4] = [Self::AlphaBeta, Self::Mcts, Self::Perfect, Self::Random];

    /// The AI's name as the tab and the config write it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::AlphaBeta => "alphabeta",
            Self::Mcts => "mcts",
            Self::Perfect => "perfect",
            Self::Random => "random",
        }
    }

    /// The AI as the screens name it, in the words the other tabs use (`alpha-beta`, as
    /// Tic-tac-toe writes it, not the config's `alphabeta`).
    pub const fn shown(self) -> &'static str {
        match self {
            Self::AlphaBeta => "alpha-beta",
            Self::Mcts => "MCTS",
            Self::Perfect => "perfect",
            Self::Random => "random",
        }
    }
}

/// Settings of the Connect Four tab.
// Each bool is a key of the file a user sets on its own (`deepening = true`), not a state.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Connect4Config {
    /// Who opens each game.
    pub first: FirstMover,
    /// The AI played against.
    pub ai: Connect4Ai,
    /// Alpha-beta's depth in plies.
    pub depth: u8,
    /// Alpha-beta searches depth 1, 2, ... up to `depth`, the previous best line first.
    pub deepening: bool,
    /// Alpha-beta tries the best line known and the centre first.
    pub ordering: bool,
    /// Alpha-beta keeps a transposition table.
    pub table: bool,
    /// MCTS iterations per move.
    pub iterations: u64,
    /// MCTS's exploration constant c.
    pub exploration: f64,
    /// When set, MCTS runs for this long a move instead of `iterations`: the iterations
    /// depend on the machine, so such a run does not repeat exactly.
    pub mcts_time: Option<HumanDuration>,
    /// Positions the exact solver may search per move, for the perfect AI and for the
    /// verdicts beside the AI's moves.
    pub solver_budget: u64,
    /// Seed of MCTS's rollouts and the random AI; absent: the run's seed.
    pub seed: Option<u64>,
    /// Milliseconds between the stepper's steps while it plays itself (`p`).
    pub autoplay_ms: u64,
    /// Step mode (`m`) on from the start: the AI's alpha-beta or MCTS search waits to be
    /// stepped instead of moving at once.
    pub step: bool,
    /// The position every game starts from, as the columns played in order (`"4453"`, the
    /// solvers' notation); `first` then says who moves from it. A lesson starts a class in
    /// the middle game, where a search has something to find. Such games are set-up
    /// games: the tally does not count them.
    pub start: Option<String>,
}

impl Default for Connect4Config {
    fn default() -> Self {
        Self {
            first: FirstMover::Human,
            ai: Connect4Ai::AlphaBeta,
            depth: 6,
            deepening: true,
            ordering: true,
            table: true,
            iterations: 20_000,
            exploration: std::f64::consts::SQRT_2,
            mcts_time: None,
            solver_budget: 8_000_000,
            seed: None,
            autoplay_ms: 250,
            step: false,
            start: None,
        }
    }
}

/// What `connect4.start` may be, as a refusal says it.
const START_ALLOWED: &str =
    "the columns played in order, 1 to 7 (\"4453\"), none into a full column, the game not over";

impl Connect4Config {
    /// The start position, if one is set.
    ///
    /// # Errors
    /// Why `start` is not a position a game can go on from: which move is no column, plays
    /// into a full column or comes after four in a row, or that the game is over.
    pub fn start_board(&self) -> Result<Option<Board>, ConfigError> {
        let Some(text) = &self.start else {
            return Ok(None);
        };
        let refused = |why: String| ConfigError::OutOfRange {
            origin: MERGED_ORIGIN.to_owned(),
            key: "connect4.start",
            allowed: START_ALLOWED.to_owned(),
            found: format!("{text:?} ({why})"),
        };
        let board = Board::parse(text).map_err(|(at, why)| refused(format!("move {at}: {why}")))?;
        if board.is_won() {
            return Err(refused(
                "the last move makes four in a row: the game is over".into(),
            ));
        }
        if board.is_over() {
            return Err(refused("the board is full: the game is over".into()));
        }
        Ok(Some(board))
    }

    /// Checks what the types alone cannot.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        self.start_board()?;
        in_range("connect4.depth", self.depth, &DEPTH_RANGE)?;
        in_range("connect4.iterations", self.iterations, &ITERATIONS_RANGE)?;
        in_range("connect4.exploration", self.exploration, &EXPLORATION_RANGE)?;
        in_range("connect4.autoplay_ms", self.autoplay_ms, &AUTOPLAY_MS_RANGE)?;
        if let Some(time) = self.mcts_time {
            require(
                "connect4.mcts_time",
                MCTS_TIME_RANGE.contains(&time.0),
                "10ms to 60s",
                time,
            )?;
        }
        in_range(
            "connect4.solver_budget",
            self.solver_budget,
            &SOLVER_BUDGET_RANGE,
        )
    }
}
