//! Learning from self-play: the network plays itself, each move chosen by a `PUCT` search
//! it guides (noise at the root, and drawn in proportion to the visits for the first
//! moves); every position becomes a sample (the visit shares as the policy's target, the
//! game's result as the value's), seen through every symmetry of the board, kept in a
//! replay buffer of bounded size; after each game the network trains on batches drawn from
//! the buffer. One seed decides everything, so a run repeats exactly.

use super::learnable::Learnable;
use super::net::{Adam, PolicyValueNet, Sample};
use super::puct::{Puct, PuctSettings};
use super::saved::{CurvePoint, SavedLearner};
pub use super::settings::{Progress, SelfPlaySettings};
use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// A self-play learner of the game `G`.
pub struct Trainer<G: Learnable> {
    /// The network being trained.
    pub net: PolicyValueNet,
    settings: SelfPlaySettings,
    adam: Adam,
    buffer: VecDeque<Sample>,
    rng: ChaCha8Rng,
    start: G,
    progress: Progress,
    /// Self-play games played at once, each on its own thread, between trainings.
    threads: usize,
}

impl<G: Learnable> Trainer<G> {
    /// A learner with a fresh network, whose games start at `start`.
    pub fn new(start: G, settings: SelfPlaySettings) -> Self {
        let net = PolicyValueNet::new(G::INPUTS, &settings.widths, G::MOVES, settings.seed);
        Self {
            net,
            adam: Adam::new(settings.learning_rate, settings.weight_decay),
            buffer: VecDeque::with_capacity(settings.buffer.min(1 << 20)),
            rng: ChaCha8Rng::seed_from_u64(settings.seed ^ 0x5e1f_91a7),
            start,
            progress: Progress::default(),
            settings,
            threads: 1,
        }
    }

    /// The same learner, playing `threads` self-play games at once (at least 1) before
    /// each training. Each game draws from its own stream of the seed, numbered by the
    /// game, so a run repeats exactly for a given number of threads.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.clamp(1, 64);
        self
    }

    /// A learner that goes on from `saved` (its network, settings and counts). The replay
    /// buffer starts empty and fills again from new games: a file of a few kilobytes
    /// instead of megabytes of samples. Its random choices go on from the seed and the
    /// games played, so resuming repeats too.
    pub fn resume(start: G, saved: SavedLearner) -> Self {
        let progress = saved.progress();
        let mut trainer = Self::new(start, saved.settings);
        trainer.net = saved.net;
        trainer.rng = ChaCha8Rng::seed_from_u64(trainer.settings.seed ^ progress.games);
        trainer.progress = progress;
        trainer
    }

    /// The learner as its file keeps it, after `seconds` of training with `curve`
    /// measured on the way.
    pub fn saved(&self, seconds: f64, curve: Vec<CurvePoint>) -> SavedLearner {
        SavedLearner {
            game: G::NAME.to_string(),
            settings: self.settings.clone(),
            net: self.net.clone(),
            games: self.progress.games,
            moves: self.progress.moves,
            batches: self.progress.batches,
            seconds,
            curve,
        }
    }

    /// The settings it trains with.
    pub fn settings(&self) -> &SelfPlaySettings {
        &self.settings
    }

    /// Trains from now on with `settings`, but for the network's shape and the seed,
    /// which a network already made keeps. A smaller buffer drops its oldest samples with
    /// the next game.
    pub fn retune(&mut self, settings: &SelfPlaySettings) {
        self.settings = SelfPlaySettings {
            widths: self.settings.widths.clone(),
            seed: self.settings.seed,
            ..settings.clone()
        };
    }

    /// What training has done so far.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// Samples in the replay buffer.
    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }

    /// Plays a game against itself on each thread, keeps their samples, and trains on the
    /// buffer: as many batches a game as the settings say.
    pub fn step(&mut self) {
        let first = self.progress.games;
        let games: Vec<(Vec<Sample>, u32)> = if self.threads == 1 {
            vec![self.play_game(first)]
        } else {
            std::thread::scope(|scope| {
                let this = &*self;
                let running: Vec<_> = (0..self.threads as u64)
                    .map(|k| scope.spawn(move || this.play_game(first + k)))
                    .collect();
                running
                    .into_iter()
                    .map(|game| game.join().expect("a self-play game never panics"))
                    .collect()
            })
        };
        for (samples, plies) in games {
            self.keep(samples);
            self.progress.moves += u64::from(plies);
            self.adam.learning_rate = self.learning_rate_now();
            for _ in 0..self.settings.batches_per_game {
                self.train_batch();
            }
            self.progress.games += 1;
        }
    }

    /// Puts `samples` in the replay buffer, each seen through every symmetry, the oldest
    /// going first once it is full.
    fn keep(&mut self, samples: Vec<Sample>) {
        let symmetries = G::symmetries();
        for sample in samples {
            for symmetry in &symmetries {
                // At least one sample is kept, whatever the setting says.
                while self.buffer.len() >= self.settings.buffer.max(1) {
                    self.buffer.pop_front();
                }
                self.buffer.push_back(G::transform(&sample, symmetry));
            }
        }
    }

    /// The step size after the games played so far, halving every half-life.
    pub fn learning_rate_now(&self) -> f32 {
        let half_life = self.settings.learning_rate_half_life;
        if half_life == 0 {
            return self.settings.learning_rate;
        }
        let halvings = self.progress.games as f64 / half_life as f64;
        (f64::from(self.settings.learning_rate) * 0.5f64.powf(halvings)) as f32
    }

    /// Self-play game number `game`, its random draws from that game's own stream of the
    /// seed; its positions as samples, each valued by the result for the player to move
    /// there, and its length in moves.
    fn play_game(&self, game: u64) -> (Vec<Sample>, u32) {
        let mut rng = ChaCha8Rng::seed_from_u64(self.settings.seed ^ 0x9a3e_5e1f);
        rng.set_stream(game);
        let search = PuctSettings {
            c_puct: self.settings.c_puct,
            noise: Some((self.settings.noise_alpha, self.settings.noise_share)),
        };
        let mut position = self.start;
        let mut played: Vec<(Sample, G::Player, f32)> = Vec::new();
        let mut plies = 0;
        let opening = rng.random_range(0..=self.settings.random_opening);
        while position.result().is_none() {
            let mut evaluator = &self.net;
            let mut tree = Puct::new(position, search, &mut evaluator, &mut rng);
            tree.run(self.settings.simulations, &mut evaluator);
            let sample = Sample {
                input: position.encode(),
                legal: position.legal(),
                policy: tree.visit_shares(),
                value: 0.0,
            };
            played.push((sample, position.to_move(), tree.root_value()));
            let temperature = if plies < self.settings.temperature_moves {
                1.0
            } else {
                0.0
            };
            let index = if plies < opening {
                let legal = position.legal_moves();
                G::index(legal.as_ref()[rng.random_range(0..legal.as_ref().len())])
            } else {
                tree.choose(temperature, &mut rng)
            };
            position = position.play(G::move_at(index));
            plies += 1;
        }
        // The result is for the player to move at the end; the one who moved last has the
        // opposite.
        let result = position.result().unwrap_or(0.0);
        let last_mover = position.to_move();
        let samples = played
            .into_iter()
            .map(|(mut sample, mover, searched)| {
                let outcome = if mover == last_mover { result } else { -result };
                let mix = self.settings.value_from_search;
                sample.value = (1.0 - mix) * outcome + mix * searched;
                sample
            })
            .collect();
        (samples, plies)
    }

    fn train_batch(&mut self) {
        if self.buffer.is_empty() {
            return;
        }
        let batch: Vec<Sample> = (0..self.settings.batch)
            .map(|_| self.buffer[self.rng.random_range(0..self.buffer.len())].clone())
            .collect();
        self.progress.losses = self.net.train(&batch, &mut self.adam);
        self.progress.batches += 1;
    }
}

// Values here are exact (±1, 0), so equality is the check.
#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::domain::games::tictactoe::{Board, Mark};

    fn small(seed: u64) -> SelfPlaySettings {
        SelfPlaySettings {
            simulations: 12,
            batch: 16,
            batches_per_game: 2,
            buffer: 500,
            widths: vec![16],
            value_from_search: 0.0,
            random_opening: 0,
            ..SelfPlaySettings::tictactoe(seed)
        }
    }

    #[test]
    fn training_from_a_seed_repeats_exactly() {
        let run = |seed| {
            let mut trainer = Trainer::new(Board::empty(Mark::X), small(seed));
            for _ in 0..6 {
                trainer.step();
            }
            (trainer.net.clone(), trainer.progress())
        };
        let (net, progress) = run(3);
        assert_eq!(progress.games, 6);
        assert!(
            progress.moves >= 6 * 5,
            "a tic-tac-toe game takes 5 moves at least"
        );
        assert_eq!(progress.batches, 12);
        assert_eq!(run(3), (net.clone(), progress));
        assert_ne!(run(4).0, net, "another seed, another run");
    }

    /// Two games at once, each from its own stream of the seed: a step plays two, and the
    /// run repeats exactly.
    #[test]
    fn training_on_two_threads_repeats_exactly() {
        let run = |seed| {
            let mut trainer = Trainer::new(Board::empty(Mark::X), small(seed)).with_threads(2);
            for _ in 0..3 {
                trainer.step();
            }
            (trainer.net.clone(), trainer.progress())
        };
        let (net, progress) = run(8);
        assert_eq!(progress.games, 6);
        assert_eq!(progress.batches, 12);
        assert_eq!(run(8), (net, progress));
    }

    #[test]
    fn the_buffer_keeps_every_symmetry_and_stays_within_its_size() {
        let mut trainer = Trainer::new(Board::empty(Mark::X), small(1));
        trainer.step();
        let moves = trainer.progress().moves as usize;
        assert_eq!(trainer.buffered(), moves * 8);
        for _ in 0..20 {
            trainer.step();
        }
        assert_eq!(trainer.buffered(), 500);
    }

    /// With the value target taken wholly from the search, a sample's value is the root's
    /// mean `Q` there, not the game's ±1 or 0.
    #[test]
    fn the_value_target_can_come_from_the_search() {
        let settings = SelfPlaySettings {
            value_from_search: 1.0,
            ..small(5)
        };
        let trainer = Trainer::new(Board::empty(Mark::X), settings);
        let samples = trainer.play_game(0).0;
        assert!(
            samples.iter().any(|s| ![-1.0, 0.0, 1.0].contains(&s.value)),
            "{:?}",
            samples.iter().map(|s| s.value).collect::<Vec<_>>()
        );
        assert!(samples.iter().all(|s| (-1.0..=1.0).contains(&s.value)));
    }

    /// A retuned learner trains with the new settings from its next game, but keeps its
    /// network's shape and seed.
    #[test]
    fn retuning_changes_training_but_not_the_network_shape() {
        let mut trainer = Trainer::new(Board::empty(Mark::X), small(3));
        trainer.step();
        let before = trainer.buffered();
        trainer.retune(&SelfPlaySettings {
            buffer: 40,
            learning_rate: 1e-4,
            widths: vec![99],
            seed: 77,
            ..small(3)
        });
        assert_eq!(trainer.settings().widths, vec![16]);
        assert_eq!(trainer.settings().seed, 3);
        assert!((trainer.learning_rate_now() - 1e-4).abs() < 1e-6);
        assert!(before > 40);
        trainer.step();
        assert_eq!(trainer.buffered(), 40);
    }

    /// The step size halves every half-life.
    #[test]
    fn the_learning_rate_halves_every_half_life() {
        let settings = SelfPlaySettings {
            learning_rate_half_life: 2,
            ..small(6)
        };
        let mut trainer = Trainer::new(Board::empty(Mark::X), settings);
        assert_eq!(trainer.learning_rate_now(), 2e-3);
        trainer.step();
        trainer.step();
        assert!((trainer.learning_rate_now() - 1e-3).abs() < 1e-9);
    }

    /// The samples of a game carry its result for the player to move: in a game X won,
    /// X's positions are +1 and O's −1.
    #[test]
    fn samples_carry_the_result_for_their_player_to_move() {
        let trainer = Trainer::new(Board::empty(Mark::X), small(2));
        for _ in 0..30 {
            let samples = trainer.play_game(0).0;
            let first = samples[0].value;
            for (ply, sample) in samples.iter().enumerate() {
                let expected = if ply % 2 == 0 { first } else { -first };
                assert_eq!(sample.value, expected, "ply {ply}");
                assert!((sample.policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            }
        }
    }
}
