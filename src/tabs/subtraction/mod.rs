//! The Subtraction Nim tab: a game against a multi-layer perceptron, the network's training
//! (in the background, pausable, restartable with a new seed), its check against the exact
//! answer, and its weights unit by unit.

mod about;
mod action;
mod ask_entry;
mod goto;
#[cfg(test)]
mod goto_tests;
mod keys;
mod panel;
#[cfg(test)]
mod panel_tests;
mod record;
#[cfg(test)]
mod restore_tests;
pub mod settings;
pub(crate) mod state;
mod symbols;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
mod training;
mod view;
#[cfg(test)]
mod watch_tests;

pub use action::Action;
pub use state::{AiPlayed, SubtractionTab};
pub use state::{PaneView, Unit};

use crate::config::Config;
use crate::domain::learn::subtraction::SavedModel;
use crate::domain::numbers::thousands;
use crate::persist::{Loaded, Store};
use crate::tabkit::keymap::KeyGroup;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::side::Side;
use crate::tabkit::tab::{ClassSide, Confirm, Effects, Storage, Tab, Ticked, Training, Unsaved};
use std::time::Duration;

impl Tab for SubtractionTab {
    type Action = Action;
    type Saved = Loaded<SavedModel>;
    type Played = AiPlayed;
    const SECTIONS: &'static [&'static str] = &["subtraction"];

    fn looks(&self, action: Action) -> bool {
        matches!(action, Action::Why)
    }

    fn load(config: &Config, store: &Store) -> Self::Saved {
        Self::load(&config.subtraction, store)
    }

    fn open(
        config: &Config,
        seed: u64,
        saved: Self::Saved,
        store: Option<Store>,
        storage: Storage,
    ) -> (Self, Option<Message>) {
        (
            Self::from_loaded(&config.subtraction, seed, saved, store, storage),
            None,
        )
    }

    fn keys(&self) -> Vec<KeyGroup<Action>> {
        if self.goto.is_some() {
            vec![keys::GO_TO_ENTRY]
        } else if self.ask_entry.is_some() {
            vec![keys::ASK]
        } else if self.runs.open {
            vec![keys::RUNS]
        } else {
            vec![keys::SUBTRACTION]
        }
    }

    fn help_keys(&self) -> Vec<KeyGroup<Action>> {
        vec![keys::SUBTRACTION, keys::ASK, keys::GO_TO_ENTRY, keys::RUNS]
    }

    fn modal(&self) -> Option<&'static str> {
        if self.goto.is_some() {
            return Some("Go to epoch: type a number, Enter goes, Esc cancels");
        }
        if self.runs.open {
            return Some("The runs list is open: Space draws a run, x exports, Esc closes");
        }
        self.ask_entry
            .is_some()
            .then_some("Type a pile to ask about: Enter asks, Esc cancels")
    }

    fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Undo => self.can_undo(),
            Action::Why => self.why().is_some(),
            Action::Digit(_) => !self.game_over(),
            Action::TogglePause | Action::Speed(_) => !self.trainer.is_done(),
            Action::Step => !self.is_training() && !self.trainer.is_done(),
            Action::GoTo => !self.is_training(),
            Action::RestorePrevious => self.has_prev() && !self.is_training(),
            _ => true,
        }
    }

    fn confirmation(&self, action: Action) -> Option<Confirm> {
        if action != Action::Retrain || self.trainer.epoch == 0 {
            return None;
        }
        let epochs = thousands(self.trainer.epoch as u64);
        Some(Confirm {
            then: format!("retrain from fresh weights: drops {epochs} epochs of training"),
            cancelled: format!("Not retrained: the network keeps its {epochs} epochs"),
        })
    }

    fn update(&mut self, action: Action, effects: &mut Effects<AiPlayed>) -> Option<Message> {
        self.ai_moves.begin();
        let said = self.act(action, effects);
        self.ai_moves.report(effects);
        said
    }

    fn play_recorded(&mut self, played: AiPlayed) -> Option<Message> {
        Some(self.play_followed(played))
    }

    fn tick(&mut self, _shown: bool) -> Ticked<AiPlayed> {
        let started = self.got_trainer();
        let moving = self.is_training() && !self.waits_for_trainer();
        let message = self.poll();
        let finished = message.is_some() || !self.is_training();
        Ticked {
            changed: started || ((moving || finished) && self.redraws.due(self.speed, finished)),
            message,
            played: Vec::new(),
            started,
        }
    }

    fn tick_interval(&self, _shown: bool) -> Option<Duration> {
        self.is_training().then_some(self.speed.poll())
    }

    fn on_show(&mut self) -> Option<Message> {
        self.on_show()
    }

    fn unsaved(&self) -> Unsaved {
        let epochs = self.trainer.epoch as u64;
        let lost = if self.storage == Storage::DataDir {
            (self.since.by_key() && !self.trainer.is_done() && epochs > 0)
                .then_some("the Subtraction Nim network's unfinished training")
        } else {
            self.since
                .grew(epochs)
                .then_some("the Subtraction Nim network you trained")
        };
        Unsaved {
            work: lost.into_iter().collect(),
            game_in_progress: self.pile.is_some()
                && !self.game_over()
                && self.moves.iter().any(|m| m.by == Side::Human),
            scores: self.tally,
            compared_runs: self.runs.kept().count(),
        }
    }

    fn settings(&self) -> Option<Panel> {
        Some(self.settings_panel())
    }

    fn apply_settings(&mut self, changes: &[Change], effects: &mut Effects<AiPlayed>) -> Message {
        self.ai_moves.begin();
        let said = self.apply_settings(changes);
        self.ai_moves.report(effects);
        said
    }

    fn training(&self) -> Training {
        if self.waits_for_trainer() {
            Training::Waiting
        } else if self.is_training() {
            Training::Running
        } else {
            Training::Idle
        }
    }
}

/// No stepper and no questions; the AI's moves come from the journal while following.
impl ClassSide for SubtractionTab {
    fn facts(&self) -> crate::tabkit::facts::Facts {
        let evaluation = &self.evaluation;
        let share =
            evaluation.winning_correct() as f64 / evaluation.winning_positions().max(1) as f64;
        crate::tabkit::facts::Facts {
            ai_moves: self.ai_moves.total(),
            over: self.game_over(),
            // Its stepping is training: a step is an epoch.
            steps: self.epochs_trained() as u64,
            curve: Some(share * 100.0),
            ..Default::default()
        }
    }

    fn about(&self) -> crate::tabkit::about::About {
        self.about_card()
    }

    fn moves_from_journal(&mut self, on: bool) {
        self.ai_moves.follow(on);
    }
}

impl SubtractionTab {
    /// What `update` does, the AI moves it made left in `made`.
    fn act(&mut self, action: Action, effects: &mut Effects<AiPlayed>) -> Option<Message> {
        if matches!(
            action,
            Action::TogglePause | Action::Step | Action::Retrain | Action::GoToSubmit
        ) {
            self.since.trained_by_key();
        }
        match action {
            Action::Digit(c) => self.type_digit(c),
            Action::Enter => self.enter(),
            Action::NewGame => Some(self.new_game()),
            Action::ToggleFirst => Some(self.toggle_first()),
            Action::TogglePause => Some(self.toggle_pause()),
            Action::Step => Some(self.step_training()),
            Action::GoTo => Some(self.open_goto()),
            Action::GoToType(c) => Some(self.goto_type(c)),
            Action::GoToErase => self.goto_erase(),
            Action::GoToSubmit => Some(self.goto_submit()),
            Action::GoToCancel => {
                self.goto = None;
                Some(Message::info("Go to cancelled"))
            }
            Action::Speed(faster) => Some(self.change_speed(faster)),
            Action::Retrain => Some(self.retrain()),
            Action::RestorePrevious => Some(self.restore_previous()),
            Action::NextView => {
                self.next_view();
                None
            }
            Action::Cursor(..) if self.view == PaneView::Training => Some(Message::error(
                "The arrows scroll the table or pick a unit of the weights: v shows them",
            )),
            Action::Cursor(dx, dy) => {
                self.cursor(dx, dy);
                None
            }
            Action::Undo if !self.typed.is_empty() => {
                self.backspace();
                None
            }
            Action::Undo => Some(self.undo()),
            Action::Why => Some(match self.why() {
                Some(why) => {
                    effects.show_why = Some(why);
                    Message::info("Why the AI moved: ←→ its earlier moves, Esc closes")
                }
                None => Message::error(
                    "The AI has not moved in this game yet: y explains its moves once it has",
                ),
            }),
            Action::Ask => Some(self.open_ask_entry()),
            Action::AskDigit(c) => self.ask_digit(c),
            Action::AskBackspace => {
                self.ask_backspace();
                None
            }
            Action::AskCancel => Some(self.close_ask_entry()),
            Action::Runs => Some(self.toggle_runs()),
            Action::RunsMove(by) => {
                self.runs.move_by(by);
                Some(Message::info(
                    self.runs.selected_words(&self.run_settings()),
                ))
            }
            Action::RunsToggle => Some(match self.runs.toggle_selected() {
                Ok(said) => Message::info(said),
                Err(refused) => Message::error(refused),
            }),
            Action::RunsExport => Some(self.export_runs(effects)),
            Action::AskEnter => Some(match self.ask() {
                Ok((why, said)) => {
                    effects.show_why = Some(why);
                    said
                }
                Err(refused) => refused,
            }),
        }
    }
}
