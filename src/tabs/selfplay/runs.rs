//! New learners and the runs they make: `T` starts a learner from fresh weights, the next
//! seed and the panel's width, keeping the run it replaces; `c` opens the chart of every
//! run kept (the share of positions the network alone keeps, over games) with its list.

use super::game::TabGame;
use super::learning::Learning;
use super::run_record::RunRecord;
use super::state::{Learner, SelfPlay};
use crate::domain::learn::selfplay::trainer::{SelfPlaySettings, Trainer};
use crate::tabkit::background::Job;
use crate::tabkit::message::{Message, MessageKind};
use crate::tabkit::tab::{CopyText, Effects, TrainedSince, export_shown, export_written_as};

impl<G: TabGame> SelfPlay<G> {
    /// The run in force's curve: games, and the share of the graded positions whose value
    /// the network alone keeps (search makes every learner look alike within a minute).
    pub(crate) fn run_curve(&self) -> Vec<(f64, f64)> {
        self.shown
            .curve
            .iter()
            .map(|point| (point.games as f64, point.network_kept / 100.0))
            .collect()
    }

    /// `T`: a learner from fresh weights, the next seed and the panel's settings (its width
    /// too). The learner it replaces is saved if it was training, and its run kept for the
    /// chart; the new one trains if the old one was training, and otherwise waits for `t`.
    /// The new learner continues no file: its first save keeps the old one as `.prev`.
    pub(crate) fn new_learner(&mut self) -> Message {
        let was_training = match self.learner {
            Learner::Training(_) => true,
            // A learner lost with its thread: a new one is the way on.
            Learner::Resting(_) | Learner::Gone => false,
        };
        if was_training {
            let said = self.start_or_stop_now();
            if said.kind == MessageKind::Error {
                return said;
            }
        }
        let dropped = self
            .runs
            .keep(self.run.words(), &self.run_curve())
            .map_or(String::new(), |n| format!("; run {n} gave way"));
        self.stamp = None;
        let seed = self.next_seed;
        self.next_seed = seed.wrapping_add(1);
        let settings = SelfPlaySettings {
            seed,
            ..self.training.clone()
        };
        let width = settings.widths.first().copied().unwrap_or(0);
        self.run = RunRecord::new(&settings);
        let trainer = Trainer::new(G::start(), settings);
        let learning = Learning::new(trainer, Vec::new(), 0.0, G::measure_every(&self.config));
        self.shown = learning.snapshot();
        self.trained_since = TrainedSince::new(0);
        let how = if was_training {
            self.trained_since.trained_by_key();
            self.learner = Learner::Training(Job::start(learning));
            "training (t stops)"
        } else {
            self.learner = Learner::Resting(Box::new(learning));
            "t trains it"
        };
        self.give_up_stepping();
        self.analyse();
        Message::info(format!(
            "A new learner: fresh weights, width {width}, seed {seed}, {how}. Run {}; c compares runs{dropped}",
            self.runs.current_number()
        ))
    }

    /// `c`: opens the chart and list of runs in the right-hand column, or closes them.
    pub(crate) fn toggle_runs(&mut self) -> Message {
        if self.runs.open {
            self.runs.open = false;
            return Message::info("Runs closed");
        }
        self.runs.open = true;
        self.runs.selected = 0;
        let kept = self.runs.kept().count();
        Message::info(if kept == 0 {
            "No runs kept yet: T starts a new learner and keeps this run here".to_string()
        } else {
            format!("Runs: {kept} kept. ↑↓ choose, Space draws or hides, x exports CSV, Esc closes")
        })
    }

    /// What the runs list's cursor is on, in words.
    pub(crate) fn runs_cursor_said(&self) -> Message {
        Message::info(self.runs.selected_words(&self.run.words()))
    }

    /// Every run's curve as CSV (`x` in the runs list): into the data dir, or shown to copy
    /// where there is none.
    pub(crate) fn export_runs(&self, effects: &mut Effects) -> Message {
        let csv = self
            .runs
            .csv("games", (&self.run.words(), &self.run_curve()));
        if let Some(store) = &self.store {
            return match store.write_file(G::RUNS_FILE, csv.as_bytes()) {
                Ok(path) => export_written_as("Runs", "CSV", &path),
                Err(error) => Message::error(error.to_string()),
            };
        }
        effects.show_text = Some(CopyText {
            title: "The runs' curves as CSV (games, the share the network keeps, one column a run)"
                .into(),
            file: G::RUNS_FILE,
            text: csv,
        });
        export_shown(self.storage)
    }

    /// What the run in force trains with, in words.
    pub(crate) fn run_words(&self) -> String {
        self.run.words()
    }

    /// The x axis's end: the games of the run in force (at least one).
    pub(crate) fn run_games(&self) -> f64 {
        self.shown.progress.games.max(1) as f64
    }
}
