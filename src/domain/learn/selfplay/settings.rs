//! How the self-play learner plays and trains, and what training has done so far: what
//! the trainer, its file and the commands share.

use super::net::Losses;

/// How the learner plays and trains.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SelfPlaySettings {
    /// Simulations a move.
    pub simulations: u32,
    /// Exploration's weight in `PUCT`.
    pub c_puct: f32,
    /// The root noise's Dirichlet concentration α.
    pub noise_alpha: f32,
    /// The share ε of noise in the root's priors.
    pub noise_share: f32,
    /// Moves of each game chosen in proportion to the visits (temperature 1); the rest
    /// take the most visited.
    pub temperature_moves: u32,
    /// Adam's step size.
    pub learning_rate: f32,
    /// Games after which the step size has halved (0: it stays): a late step as large
    /// as the first keeps the network wandering around what it learned.
    pub learning_rate_half_life: u64,
    /// The L2 weight decay.
    pub weight_decay: f32,
    /// Samples a batch.
    pub batch: usize,
    /// Batches trained after each game.
    pub batches_per_game: u32,
    /// The replay buffer's size in samples: the oldest go first.
    pub buffer: usize,
    /// The widths of the network's trunk layers.
    pub widths: Vec<usize>,
    /// The share of the search's own value (the root's mean `Q`) in the value target, the
    /// rest the game's result: the result alone says little about a position where a
    /// later blunder decided the game.
    pub value_from_search: f32,
    /// At most this many moves at the start of each game are drawn at random (how many is
    /// drawn too, 0 up to it), so the network also sees positions its own play avoids.
    pub random_opening: u32,
    /// The seed of the network's first weights and of every random choice.
    pub seed: u64,
}

impl SelfPlaySettings {
    /// Settings that suit tic-tac-toe, found by measuring (README: with them, 60 s of
    /// self-play on one core keeps the exact value in all 4,520 positions with search).
    /// Two layers of 64 learn the values of forks that one layer misses; `c_puct` 3 and
    /// up to 6 random opening moves let self-play meet the positions its own play avoids.
    pub fn tictactoe(seed: u64) -> Self {
        Self {
            simulations: 50,
            c_puct: 3.0,
            noise_alpha: 0.5,
            noise_share: 0.25,
            temperature_moves: 4,
            learning_rate: 2e-3,
            learning_rate_half_life: 3_000,
            weight_decay: 1e-4,
            batch: 64,
            batches_per_game: 4,
            buffer: 20_000,
            widths: vec![64, 64],
            value_from_search: 0.5,
            random_opening: 6,
            seed,
        }
    }
}

impl SelfPlaySettings {
    /// Settings for the 5 x 4 four-in-a-row board: the tic-tac-toe network, noise for 5
    /// moves instead of 9 (α about 10 over the moves, as `AlphaZero` scaled it), a step
    /// size that halves more slowly (games here are many), 100 simulations a move, and up
    /// to 16 random opening moves: on 3-minute runs, each of those two lifted the share
    /// of graded positions kept (random games' positions, which self-play alone avoids)
    /// from about 95% to 97%.
    pub fn small_board(seed: u64) -> Self {
        Self {
            simulations: 100,
            noise_alpha: 1.0,
            learning_rate_half_life: 20_000,
            buffer: 50_000,
            random_opening: 16,
            ..Self::tictactoe(seed)
        }
    }

    /// Settings for Connect Four (7 x 6): a wider trunk for 84 inputs, more simulations
    /// a move, more moves drawn by visits at the start of a game, and larger batches; up to
    /// 10 random opening moves, so self-play meets the kind of middle game it is graded on.
    pub fn connect4(seed: u64) -> Self {
        Self {
            simulations: 100,
            c_puct: 2.0,
            noise_alpha: 1.0,
            noise_share: 0.25,
            temperature_moves: 8,
            learning_rate: 1e-3,
            learning_rate_half_life: 60_000,
            weight_decay: 1e-4,
            batch: 128,
            batches_per_game: 4,
            buffer: 100_000,
            widths: vec![128, 128],
            value_from_search: 0.5,
            random_opening: 10,
            seed,
        }
    }
}

/// What training has done so far.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Progress {
    /// Self-play games finished.
    pub games: u64,
    /// Moves played in them.
    pub moves: u64,
    /// Batches trained.
    pub batches: u64,
    /// The losses of the last batch.
    pub losses: Losses,
}
