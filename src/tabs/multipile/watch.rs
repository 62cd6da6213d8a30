//! Watching the tab's two learners train: one speed for both (`-` / `+`: the Q-table one
//! game a tick when slow, the network a pause after each epoch), and each learner's runs of
//! this session on one chart (`c` the Q-table's policy optimality, `C` the network's share
//! of winning positions it plays a winning move at), with the CSV of every run (`x`).

use super::action::Compared;
use super::state::{MultiPileTab, Pane};
use crate::tabkit::message::Message;
use crate::tabkit::runs::Runs;

/// The file `x` writes the Q-table to.
const TABLE_FILE: &str = "qtable.csv";
use super::state::AiPlayed;
use crate::tabkit::tab::{CopyText, Effects, export_shown, export_written_as};

impl MultiPileTab {
    /// `-` / `+`: both learners train slower or faster from here on.
    pub(crate) fn change_speed(&mut self, faster: bool) -> Message {
        match self.speed.change(faster, "game or epoch") {
            Ok(said) => {
                self.net.set_speed(self.speed);
                Message::info(said)
            }
            Err(refused) => Message::error(refused),
        }
    }

    /// `c` / `C`: opens the comparison of a learner's runs on the training view, or closes
    /// it (the same key, or Esc).
    pub(crate) fn toggle_compare(&mut self, which: Compared) -> Message {
        if let Some(open) = self.compare.take() {
            self.runs_mut(open).open = false;
            return Message::info("Runs closed: the training view again");
        }
        self.compare = Some(which);
        self.pane = Pane::Training;
        let runs = self.runs_mut(which);
        runs.open = true;
        runs.selected = 0;
        let kept = runs.kept().count();
        let retrain = if which == Compared::QTable { "t" } else { "T" };
        Message::info(if kept == 0 {
            format!(
                "{} runs: none kept yet; {retrain} retrains and keeps this run to compare",
                which.name()
            )
        } else {
            format!(
                "{} runs: {kept} kept. ↑↓ choose, Space shows or hides, x CSV, Esc closes",
                which.name()
            )
        })
    }

    /// The runs of `which` learner.
    pub(crate) fn runs(&self, which: Compared) -> &Runs {
        match which {
            Compared::QTable => &self.q.runs,
            Compared::Network => &self.net.runs,
        }
    }

    fn runs_mut(&mut self, which: Compared) -> &mut Runs {
        match which {
            Compared::QTable => &mut self.q.runs,
            Compared::Network => &mut self.net.runs,
        }
    }

    /// The settings and curve of `which` learner's run in force.
    pub(crate) fn current_run(&self, which: Compared) -> (String, Vec<(f64, f64)>) {
        match which {
            Compared::QTable => (self.q.run_settings(), self.q.curve()),
            Compared::Network => (self.net.run_settings(), self.net.accuracy.clone()),
        }
    }

    /// ↑↓ in the open comparison: the run under the cursor, its whole settings said.
    pub(crate) fn runs_move(&mut self, by: i8) -> Option<Message> {
        let which = self.compare?;
        self.runs_mut(which).move_by(by);
        let runs = self.runs(which);
        Some(Message::info(
            runs.selected_words(&self.current_run(which).0),
        ))
    }

    /// Space in the open comparison: the run under the cursor drawn or not.
    pub(crate) fn runs_toggle(&mut self) -> Option<Message> {
        let which = self.compare?;
        Some(match self.runs_mut(which).toggle_selected() {
            Ok(said) => Message::info(said),
            Err(refused) => Message::error(refused),
        })
    }

    /// `x` in the open comparison: every run of the learner as CSV, into the data dir or
    /// shown to copy.
    /// `x`: the Q-table as CSV, one row per learned value (the position, the move, Q and
    /// its number of updates): into the data dir, or shown to copy where there is none.
    pub(crate) fn export_table(&self, effects: &mut Effects<AiPlayed>) -> Message {
        let Ok(trainer) = &self.q.trainer else {
            return Message::error("No Q-table to export: its file could not be used");
        };
        let mut csv = csv::Writer::from_writer(Vec::new());
        let rows = trainer.table.learned();
        let written: Result<(), csv::Error> = (|| {
            csv.write_record(["position", "pile", "take", "q", "updates"])?;
            for entry in &rows {
                let sizes: Vec<String> = entry.state.iter().map(ToString::to_string).collect();
                csv.write_record([
                    sizes.join(" "),
                    (entry.pile + 1).to_string(),
                    entry.take.to_string(),
                    format!("{:.6}", entry.value),
                    entry.updates.to_string(),
                ])?;
            }
            Ok(())
        })();
        let text = written
            .ok()
            .and_then(|()| csv.into_inner().ok())
            .and_then(|bytes| String::from_utf8(bytes).ok());
        let Some(text) = text else {
            return Message::error("The Q-table could not be written as CSV");
        };
        if let Some(store) = self.store() {
            return match store.write_file(TABLE_FILE, text.as_bytes()) {
                Ok(path) => export_written_as("Q-table", "CSV", &path),
                Err(error) => Message::error(error.to_string()),
            };
        }
        effects.show_text = Some(CopyText {
            title: format!("The Q-table as CSV ({} learned values)", rows.len()),
            file: TABLE_FILE,
            text,
        });
        export_shown(self.storage)
    }

    pub(crate) fn export_runs(&self, effects: &mut Effects<AiPlayed>) -> Option<Message> {
        let which = self.compare?;
        let (settings, curve) = self.current_run(which);
        let csv = self.runs(which).csv(which.x_name(), (&settings, &curve));
        if let Some(store) = self.store() {
            return Some(match store.write_file(which.file(), csv.as_bytes()) {
                Ok(path) => export_written_as("Runs", "CSV", &path),
                Err(error) => Message::error(error.to_string()),
            });
        }
        effects.show_text = Some(CopyText {
            title: format!(
                "{} runs as CSV ({}, one column per run)",
                which.name(),
                which.x_name()
            ),
            file: which.file(),
            text: csv,
        });
        Some(export_shown(self.storage))
    }
}
