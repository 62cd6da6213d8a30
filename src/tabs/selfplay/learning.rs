//! The learner as the tab trains it in the background: self-play games in chunks, the
//! curve measured every so many games, and after each chunk a snapshot for the screen
//! (the network as it is now, the counts, the curve).

use super::game::TabGame;
use crate::domain::learn::Chunked;
use crate::domain::learn::selfplay::judge::curve_point;
use crate::domain::learn::selfplay::net::PolicyValueNet;
use crate::domain::learn::selfplay::saved::{CurvePoint, SavedLearner};
use crate::domain::learn::selfplay::trainer::{Progress, SelfPlaySettings, Trainer};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the screen shows of the learner: a copy taken after each chunk.
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    /// The network now.
    pub net: Arc<PolicyValueNet>,
    /// Games, moves, batches and the last losses.
    pub progress: Progress,
    /// Samples in the replay buffer.
    pub buffered: usize,
    /// Seconds of training in all.
    pub seconds: f64,
    /// The curve so far.
    pub curve: Vec<CurvePoint>,
}

/// The tab's learner of the game `G`: the trainer and its curve.
pub(crate) struct Learning<G: TabGame> {
    pub trainer: Trainer<G>,
    pub curve: Vec<CurvePoint>,
    /// Seconds of training before this session.
    seconds_before: f64,
    trained: Duration,
    measure_every: u64,
    /// A point of the curve is due: the next chunk measures it and plays no game, so a
    /// stop waits for one or the other, not both.
    measure_due: bool,
}

impl<G: TabGame> Learning<G> {
    /// A learner going on from `trainer`, its curve and time so far.
    pub(crate) fn new(
        trainer: Trainer<G>,
        curve: Vec<CurvePoint>,
        seconds_before: f64,
        measure_every: u64,
    ) -> Self {
        Self {
            trainer,
            curve,
            seconds_before,
            trained: Duration::ZERO,
            measure_every: measure_every.max(1),
            measure_due: false,
        }
    }

    /// Seconds of training in all.
    pub(crate) fn seconds(&self) -> f64 {
        self.seconds_before + self.trained.as_secs_f64()
    }

    /// Grades the network now (and plays the fixed opponents, where its game does) and
    /// adds the point to the curve.
    fn measure(&mut self) {
        let simulations = self.trainer.settings().simulations;
        let point = CurvePoint {
            versus: G::versus(&self.trainer.net, self.trainer.settings()),
            ..curve_point(&self.trainer, G::graded(), self.seconds(), simulations)
        };
        self.curve.push(point);
    }

    /// What the screen shows now.
    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot {
            net: Arc::new(self.trainer.net.clone()),
            progress: self.trainer.progress(),
            buffered: self.trainer.buffered(),
            seconds: self.seconds(),
            curve: self.curve.clone(),
        }
    }

    /// The learner as its file keeps it.
    pub(crate) fn saved(&self) -> SavedLearner {
        self.trainer.saved(self.seconds(), self.curve.clone())
    }
}

impl<G: TabGame> Chunked for Learning<G> {
    type Report = Snapshot;
    type Tuning = SelfPlaySettings;

    /// Self-play goes on until it is stopped.
    fn is_done(&self) -> bool {
        false
    }

    /// Grading takes from a fifth of a second (tic-tac-toe) to seconds (Connect Four), so
    /// the curve's first point (the untrained network) is measured here, on the training
    /// thread, not when the tab opens; a chunk either measures a point or plays games.
    fn train_chunk(&mut self) -> Snapshot {
        if self.curve.is_empty() || self.measure_due {
            self.measure();
            self.measure_due = false;
            return self.snapshot();
        }
        for _ in 0..G::CHUNK_GAMES {
            let started = Instant::now();
            self.trainer.step();
            self.trained += started.elapsed();
            if self
                .trainer
                .progress()
                .games
                .is_multiple_of(self.measure_every)
            {
                self.measure_due = true;
                break;
            }
        }
        self.snapshot()
    }

    /// The panel's training settings, in force from the next game.
    fn retune(&mut self, settings: SelfPlaySettings) {
        self.trainer.retune(&settings);
    }
}
