//! Learning by self-play: the settings the original program names, one self-play game with
//! its update timing (a player's move updated once the opponent replied), and the trainer
//! that plays games in chunks and measures the table as it goes.

use super::evaluation::{QEvaluation, evaluate};
use super::table::{QTable, TableError};
use super::update::Update;
use crate::domain::games::nim::{NimMove, Piles, Rule};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The learning settings the original program names, kept with a table so a saved one says how it
/// was made.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QSettings {
    /// Learning rate alpha (original: 0.5).
    pub alpha: f64,
    /// Exploration rate epsilon (original: 0.1).
    pub epsilon: f64,
    /// Where each self-play game starts.
    #[serde(default)]
    pub starts: Starts,
}

/// Where self-play games start: the original program's recipe always plays from the start;
/// exploring starts visit every position evenly, so positions good play rarely reaches are learned
/// too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Starts {
    /// Every game from the starting piles (original program 003). Saved tables spell it
    /// `"seed"`, its name before, so files already written load unchanged.
    #[default]
    #[serde(rename = "seed")]
    Original,
    /// Every game from a uniformly random position a game can reach.
    Exploring,
}

impl Default for QSettings {
    fn default() -> Self {
        Self {
            alpha: 0.5,
            epsilon: 0.1,
            starts: Starts::Original,
        }
    }
}

impl QTable {
    /// Plays one self-play game from the start with the original program's update timing, calling
    /// `on_update` with every update in the order made.
    pub fn self_play(
        &mut self,
        settings: QSettings,
        rng: &mut ChaCha8Rng,
        mut on_update: impl FnMut(Update),
    ) {
        let mut piles = match settings.starts {
            Starts::Original => self.start,
            Starts::Exploring => self.random_position(rng),
        };
        let mut last: [Option<(Piles, NimMove)>; 2] = [None, None];
        let mut player = 0;
        while let Some(mv) = self.explore(&piles, settings.epsilon, rng) {
            let state = piles;
            last[player] = Some((state, mv));
            piles = piles.after(mv);
            player ^= 1;
            if piles.is_over() {
                let mover_reward = match self.rule {
                    Rule::Misere => -1.0,
                    Rule::Normal => 1.0,
                };
                on_update(self.update(state, mv, piles, mover_reward, settings.alpha));
                if let Some((s, a)) = last[player] {
                    on_update(self.update(s, a, piles, -mover_reward, settings.alpha));
                }
                return;
            }
            if let Some((s, a)) = last[player] {
                on_update(self.update(s, a, piles, 0.0, settings.alpha));
            }
        }
    }

    /// A uniformly random position with at least one object, each pile at most its start.
    fn random_position(&self, rng: &mut ChaCha8Rng) -> Piles {
        loop {
            let sizes: Vec<u8> = self
                .start
                .sizes()
                .iter()
                .map(|&max| rng.random_range(0..=max))
                .collect();
            let piles = Piles::new(&sizes).expect("no larger than the start");
            if !piles.is_over() || self.start.is_over() {
                return piles;
            }
        }
    }
}

/// A table in training: self-play games in chunks, with a measurement every
/// `sample_every` games for the charts.
#[derive(Debug, Clone)]
pub struct QTrainer {
    /// The table.
    pub table: QTable,
    /// The learning settings.
    pub settings: QSettings,
    /// Games the run aims for.
    pub target: usize,
    /// Games played so far.
    pub games: usize,
    /// Games between measurements.
    pub sample_every: usize,
    /// Measurements so far, the untrained table first.
    pub curve: Vec<QEvaluation>,
    /// The seed of the training games.
    pub seed: u64,
    /// Time spent in self-play, measurements left out.
    pub training_time: Duration,
    pub(super) rng: ChaCha8Rng,
}

impl QTrainer {
    /// A fresh table, or why the game is too large for one.
    pub fn new(
        start: Piles,
        rule: Rule,
        settings: QSettings,
        target: usize,
        sample_every: usize,
        seed: u64,
    ) -> Result<Self, TableError> {
        let table = QTable::new(start, rule)?;
        let curve = vec![evaluate(&table, 0)];
        Ok(Self {
            table,
            settings,
            target,
            games: 0,
            sample_every: sample_every.max(1),
            curve,
            seed,
            training_time: Duration::ZERO,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    /// True once the target is reached.
    pub fn is_done(&self) -> bool {
        self.games >= self.target
    }

    /// The latest measurement.
    pub fn evaluation(&self) -> QEvaluation {
        *self.curve.last().expect("the untrained table is measured")
    }

    /// Plays up to `count` more games (not past the target), measuring at every
    /// `sample_every` boundary and at the end.
    pub fn train(&mut self, count: usize) {
        let end = (self.games + count).min(self.target);
        while self.games < end {
            let next_sample = (self.games / self.sample_every + 1) * self.sample_every;
            let stop = end.min(next_sample);
            let started = Instant::now();
            while self.games < stop {
                self.table.self_play(self.settings, &mut self.rng, |_| {});
                self.games += 1;
            }
            self.training_time += started.elapsed();
            if self.games.is_multiple_of(self.sample_every) || self.games == self.target {
                self.curve.push(evaluate(&self.table, self.games));
            }
        }
    }

    /// Plays one more game, past the target if need be, and returns its updates: the single-game
    /// step the arithmetic view shows. It always starts from the starting piles (whatever the
    /// recipe), so a student sees the whole game the original program describes.
    pub fn step_game(&mut self) -> Vec<Update> {
        let mut updates = Vec::new();
        let from_start = QSettings {
            starts: Starts::Original,
            ..self.settings
        };
        self.table
            .self_play(from_start, &mut self.rng, |u| updates.push(u));
        self.games += 1;
        self.target = self.target.max(self.games);
        self.curve.push(evaluate(&self.table, self.games));
        updates
    }
}
