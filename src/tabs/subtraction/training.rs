//! The network's training: the background run (paused, resumed, stepped by hand, restarted
//! with the next seed, sped up or slowed down), what each report of it brings in, the save
//! when it is done, and the runs of this session with their settings and loss curves for
//! the chart to compare and the CSV export.

use super::state::AiPlayed;
use super::state::{PaneView, SubtractionTab, Unit};
use crate::domain::learn::network::Loss;
use crate::domain::learn::subtraction::{CHUNK_EPOCHS, EpochsDone, Evaluation, Trainer, Tuning};
use crate::domain::numbers::thousands;
use crate::persist::model_files::SubtractionNetFile;
use crate::tabkit::background::{Job, Progress};
use crate::tabkit::message::Message;
use crate::tabkit::restore;
use crate::tabkit::speed::{SLOW_GAP, Speed};
use crate::tabkit::tab::{CopyText, Effects, TrainedSince, export_shown, export_written_as};

/// The file the runs export (`x` in the runs list) writes in the data dir.
pub(crate) const RUNS_FILE: &str = "subtraction-runs.csv";

/// Each epoch's loss as a curve: (epoch, loss), epochs from 1.
pub(crate) fn loss_curve(losses: &[f64]) -> Vec<(f64, f64)> {
    losses
        .iter()
        .enumerate()
        .map(|(i, &loss)| ((i + 1) as f64, loss))
        .collect()
}

/// The loss a recipe trains on, in words.
pub(crate) fn loss_name(loss: Loss) -> &'static str {
    match loss {
        Loss::Squared => "squared error",
        Loss::CrossEntropy => "cross-entropy",
    }
}

/// Epochs a background chunk trains at `speed`: one in slow mode (each is drawn), ten
/// times normal's in fast mode (fewer hand-overs; the display moves on four times a
/// second anyway).
fn chunk_epochs(speed: Speed) -> usize {
    match speed {
        Speed::Slow => 1,
        Speed::Normal => CHUNK_EPOCHS,
        Speed::Fast => 10 * CHUNK_EPOCHS,
    }
}

/// The wait after each chunk at `speed`: slow mode's pace, else none.
fn gap(speed: Speed) -> std::time::Duration {
    if speed == Speed::Slow {
        SLOW_GAP
    } else {
        std::time::Duration::ZERO
    }
}

impl SubtractionTab {
    /// True while the background thread trains.
    pub(crate) fn is_training(&self) -> bool {
        self.job.is_some()
    }

    /// True while the training run waits for a free trainer in the pool.
    pub(crate) fn waits_for_trainer(&self) -> bool {
        self.job.as_ref().is_some_and(Job::is_waiting)
    }

    /// True once, when first asked after a run that waited for a free trainer got one.
    pub(crate) fn got_trainer(&self) -> bool {
        self.job.as_ref().is_some_and(Job::started)
    }

    /// True when the network has had no training at all.
    pub(crate) fn untrained(&self) -> bool {
        self.trainer.epoch == 0
    }

    /// Called when the tab is shown: starts the first training if nothing was saved.
    pub(crate) fn on_show(&mut self) -> Option<Message> {
        if self.train_on_first_use
            && self.untrained()
            && !self.is_training()
            && self.load_error.is_none()
        {
            self.train_on_first_use = false;
            self.start_job();
            return Some(Message::info(
                "No saved network: training it now (p pauses)",
            ));
        }
        None
    }

    /// Pauses or resumes training; resumes a finished run only by restarting (`t`).
    pub(crate) fn toggle_pause(&mut self) -> Message {
        if let Some(job) = self.job.take() {
            // The thread hands the trainer back after its current chunk: nothing trained is
            // lost.
            if let Some(trainer) = job.finish() {
                self.take_back(trainer);
            }
            self.refresh();
            // The run may have ended before this key: then it is finished, not paused.
            if let Some(finished) = self.finish_if_done() {
                return finished;
            }
            return Message::info(format!(
                "Training paused at epoch {}: p resumes, s steps",
                self.trainer.epoch
            ));
        }
        if self.trainer.is_done() {
            return Message::error("Training is finished: t retrains with a new seed");
        }
        self.start_job();
        Message::info("Training resumed")
    }

    /// Trains a few epochs on this thread (training must be paused): a step to watch.
    pub(crate) fn step_training(&mut self) -> Message {
        if self.is_training() {
            return Message::error("Training is running: p pauses it first");
        }
        if self.trainer.is_done() {
            return Message::error("Training is finished: t retrains with a new seed");
        }
        self.note_rate(self.trainer.recipe.learning_rate);
        self.trainer.train_epochs(self.step_epochs);
        self.refresh();
        self.finish_if_done().unwrap_or_else(|| {
            Message::info(format!(
                "Trained to epoch {}: {} at a time (subtraction.step_epochs in S)",
                thousands(self.trainer.epoch as u64),
                thousands(self.step_epochs as u64),
            ))
        })
    }

    /// Starts over with fresh weights from the next seed, training in the background.
    pub(crate) fn retrain(&mut self) -> Message {
        self.job = None;
        self.trace = None;
        self.stamp = None;
        self.load_error = None;
        let seed = self.next_seed;
        self.next_seed = self.next_seed.wrapping_add(1);
        let kept = self.runs.keep(self.run_settings(), &self.curve());
        self.rates_used.clear();
        self.trainer = Trainer::new(self.n_max, self.recipe, seed);
        self.unit = Unit::Hidden(0);
        self.refresh();
        self.start_job();
        let dropped = kept.map_or(String::new(), |n| format!("; run {n} gave way"));
        Message::info(format!(
            "Retraining from fresh weights, seed {seed}: run {}; c compares runs{dropped}",
            self.runs.current_number()
        ))
    }

    /// Whether a previous network is kept beside the file (`.prev`), for `B` to put back.
    pub(crate) fn has_prev(&self) -> bool {
        let kind = SubtractionNetFile { n_max: self.n_max };
        self.store
            .as_ref()
            .is_some_and(|store| store.has_prev(&kind))
    }

    /// `B`: the network the last save replaced back in play, and the one in play kept as
    /// the backup in its place, so `B` again swaps back. Refused, with nothing changed,
    /// while training runs or when the network in play is not the one saved (a retrain not
    /// finished): swapping then would lose it.
    pub(crate) fn restore_previous(&mut self) -> Message {
        let Some(store) = &self.store else {
            return restore::unavailable(self.storage, "network");
        };
        if self.is_training() {
            return restore::while_training("network", "p", "B");
        }
        let kind = SubtractionNetFile { n_max: self.n_max };
        match store.restore_prev_kind(&kind, &self.trainer.saved()) {
            Ok(restored) => {
                let said = restore::restored(&restored, "B");
                self.trace = None;
                self.stamp = Some(restored.stamp);
                self.load_error = None;
                self.rates_used.clear();
                self.trainer = Trainer::from_saved(restored.model);
                self.since = TrainedSince::new(self.trainer.epoch as u64);
                self.unit = Unit::Hidden(0);
                self.refresh();
                said
            }
            Err(error) => restore::refused(&error, "network"),
        }
    }

    /// Trains to the end on this thread: for scripts and tests that need a finished network
    /// without timing.
    pub fn finish_training_now(&mut self) -> Option<Message> {
        self.job = None;
        self.note_rate(self.trainer.recipe.learning_rate);
        self.trainer.train_epochs(self.trainer.recipe.epochs);
        self.refresh();
        self.finish_if_done()
    }

    /// Takes in what the background thread reported; returns a message when training ended.
    /// In slow mode one report a tick, so every epoch is drawn.
    pub(crate) fn poll(&mut self) -> Option<Message> {
        let job = self.job.take()?;
        let most = if self.speed == Speed::Slow {
            1
        } else {
            usize::MAX
        };
        let mut stopped = false;
        let mut taken = 0;
        while taken < most {
            let Some(report) = job.try_next() else {
                break;
            };
            taken += 1;
            stopped = self.take_report(report);
            if stopped {
                break;
            }
        }
        self.refresh();
        if !stopped {
            self.job = Some(job);
            return None;
        }
        self.finish_if_done()
    }

    /// Takes in one report; true when the thread handed the trainer back (it has stopped).
    fn take_report(&mut self, report: Progress<Trainer>) -> bool {
        match report {
            Progress::Chunk(EpochsDone {
                epoch,
                losses,
                network,
                learning_rate,
            }) => {
                self.note_rate(learning_rate);
                self.trainer.epoch = epoch;
                self.trainer.losses.extend(losses);
                self.trainer.network = network;
                false
            }
            Progress::Stopped(trainer) => {
                self.take_back(*trainer);
                true
            }
        }
    }

    /// The trainer the thread hands back, with the learning rate in force here (one changed
    /// after the thread's last check would otherwise be lost).
    fn take_back(&mut self, trainer: Trainer) {
        let rate = self.trainer.recipe.learning_rate;
        self.trainer = trainer;
        self.trainer.set_learning_rate(rate);
    }

    /// Changes the learning rate of the run in force from its next epochs on (the running
    /// thread takes it in before its next chunk), and of every retrain after.
    pub(crate) fn set_learning_rate(&mut self, rate: f64) {
        self.recipe.learning_rate = rate;
        self.trainer.set_learning_rate(rate);
        if let Some(job) = &self.job {
            job.retune(self.tuning());
        }
    }

    /// What the running job is told: the learning rate in force and the chunk the speed
    /// asks for.
    fn tuning(&self) -> Tuning {
        Tuning {
            learning_rate: self.trainer.recipe.learning_rate,
            chunk_epochs: chunk_epochs(self.speed),
        }
    }

    /// Notes that the run in force trains with `rate` from here on.
    fn note_rate(&mut self, rate: f64) {
        self.rates_used.note(&rate);
    }

    /// Notes the learning rate in force as the one the run trains with from here on.
    pub(super) fn note_rate_in_force(&mut self) {
        self.note_rate(self.trainer.recipe.learning_rate);
    }

    /// How many learning rates the run in force trained with (more than one: a change
    /// while it ran, which training again from the seed would not repeat).
    pub(super) fn rates_used_count(&self) -> usize {
        self.rates_used.count()
    }

    /// The settings the run in force trained with, in words, for the runs legend and the
    /// CSV header: the loss, every learning rate it used (`rate 0.12→0.5`), the sizes and
    /// the seed.
    pub(crate) fn run_settings(&self) -> String {
        let recipe = &self.trainer.recipe;
        let rates = self.rates_used.words(&recipe.learning_rate);
        format!(
            "{}, rate {rates}, {} hidden, batch {}, seed {}",
            loss_name(recipe.loss),
            recipe.hidden,
            recipe.batch_size,
            self.trainer.seed
        )
    }

    /// The run in force's curve: each epoch's loss.
    pub(crate) fn curve(&self) -> Vec<(f64, f64)> {
        loss_curve(&self.trainer.losses)
    }

    /// `c`: opens the runs list on the loss curve, or closes it.
    pub(crate) fn toggle_runs(&mut self) -> Message {
        if self.runs.open {
            self.runs.open = false;
            return Message::info("Runs list closed: the chart keeps the runs drawn");
        }
        self.view = PaneView::Training;
        self.runs.open = true;
        self.runs.selected = 0;
        let kept = self.runs.kept().count();
        Message::info(if kept == 0 {
            "Runs: none kept yet. Change a setting (S), retrain (t): the run it replaces is kept here"
                .to_string()
        } else {
            format!("Runs: {kept} kept. ↑↓ choose, Space draws or hides, x exports CSV, Esc closes")
        })
    }

    /// Every run's curve as CSV (`x` in the runs list): into the data dir, or shown to copy
    /// where there is none.
    pub(crate) fn export_runs(&self, effects: &mut Effects<AiPlayed>) -> Message {
        let csv = self
            .runs
            .csv("epoch", (&self.run_settings(), &self.curve()));
        if let Some(store) = &self.store {
            return match store.write_file(RUNS_FILE, csv.as_bytes()) {
                Ok(path) => export_written_as("Runs", "CSV", &path),
                Err(error) => Message::error(error.to_string()),
            };
        }
        effects.show_text = Some(CopyText {
            title: "The runs' loss curves as CSV (epoch, one column per run)".into(),
            file: RUNS_FILE,
            text: csv,
        });
        export_shown(self.storage)
    }

    /// Starts training the network in force in the background, at the speed in force.
    fn start_job(&mut self) {
        let mut trainer = self.trainer.clone();
        trainer.chunk_epochs = chunk_epochs(self.speed);
        self.job = Some(Job::start_paced(trainer, gap(self.speed)));
    }

    /// `-` / `+`: trains slower or faster from the next chunk on (a paused run keeps the
    /// speed for when it resumes).
    pub(crate) fn change_speed(&mut self, faster: bool) -> Message {
        match self.speed.change(faster, "epoch") {
            Ok(said) => {
                if let Some(job) = &self.job {
                    job.retune(self.tuning());
                    job.pace(gap(self.speed));
                }
                Message::info(said)
            }
            Err(refused) => Message::error(refused),
        }
    }

    pub(super) fn refresh(&mut self) {
        self.evaluation =
            Evaluation::new(&self.trainer.network, self.trainer.encoding, &self.solution);
    }

    /// When training is done: save the weights and say how well they play.
    pub(super) fn finish_if_done(&mut self) -> Option<Message> {
        if !self.trainer.is_done() {
            return None;
        }
        let score = format!(
            "Trained: wins at {}/{} winning piles",
            self.evaluation.winning_correct(),
            self.evaluation.winning_positions()
        );
        let Some(store) = &self.store else {
            return Some(Message::info(score));
        };
        let kind = SubtractionNetFile { n_max: self.n_max };
        let saved = store.save_kind(&kind, &self.trainer.saved(), self.stamp);
        Some(match saved {
            Ok(saved) => {
                self.load_error = None;
                self.stamp = Some(saved.stamp);
                Message::info(format!(
                    "{score}; saved to {}{}",
                    saved.path.display(),
                    restore::saved_note(&saved, "B")
                ))
            }
            Err(error) => Message::error(format!("{score}; not saved: {error}")),
        })
    }
}
