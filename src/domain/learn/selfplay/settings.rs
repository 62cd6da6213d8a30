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
