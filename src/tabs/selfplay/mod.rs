//! The Self-play tab: an AlphaZero-style learner of tic-tac-toe. Play against it (its
//! network alone, or the network guiding a PUCT search), see what it makes of every move
//! of the position beside the exact answer, and watch it learn from games against itself.

mod about;
mod action;
mod analysis;
mod keys;
mod learning;
mod panel;
pub mod settings;
pub(crate) mod state;
mod symbols;
#[cfg(test)]
mod tests;
mod view;
mod why;

pub use action::Action;
pub use state::SelfPlayTab;

use crate::config::Config;
use crate::config::shared::FirstMover;
use crate::domain::learn::selfplay::saved::SavedLearner;
use crate::persist::{Loaded, Store};
use crate::tabkit::keymap::KeyGroup;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::side::Side;
use crate::tabkit::tab::{ClassSide, Effects, Storage, Tab, Ticked, Training, Unsaved};
use crate::tabkit::why::{Played, Why};
use settings::PlayMode;
use std::time::Duration;

impl Tab for SelfPlayTab {
    type Action = Action;
    type Saved = Loaded<SavedLearner>;
    type Played = std::convert::Infallible;
    const SECTIONS: &'static [&'static str] = &["selfplay"];

    fn looks(&self, action: Action) -> bool {
        matches!(action, Action::Why)
    }

    fn load(_config: &Config, store: &Store) -> Self::Saved {
        Self::load(store)
    }

    fn open(
        config: &Config,
        seed: u64,
        saved: Self::Saved,
        store: Option<Store>,
        storage: Storage,
    ) -> (Self, Option<Message>) {
        let tab = Self::new(&config.selfplay, seed, saved, store, storage);
        let said = tab.load_note.clone().map(Message::error);
        (tab, said)
    }

    fn keys(&self) -> Vec<KeyGroup<Action>> {
        vec![keys::GAME]
    }

    fn help_keys(&self) -> Vec<KeyGroup<Action>> {
        vec![keys::GAME]
    }

    fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Place(_) => self.human_to_move(),
            Action::Why => self.why().is_some(),
            Action::Undo => self.turns.iter().any(|t| t.by == Side::Human),
            _ => true,
        }
    }

    fn update(&mut self, action: Action, effects: &mut Effects) -> Option<Message> {
        Some(match action {
            Action::Place(0 | 10..) => Message::error("Cells are 1 to 9"),
            Action::Place(cell) => self.place(usize::from(cell) - 1),
            Action::NewGame => {
                self.start_game();
                Message::info(format!(
                    "New game against the learner ({})",
                    self.config.mode_words()
                ))
            }
            Action::ToggleFirst => {
                self.first = match self.first {
                    FirstMover::Human => FirstMover::Ai,
                    FirstMover::Ai | FirstMover::Random => FirstMover::Human,
                };
                let who = if self.first == FirstMover::Human {
                    "You open"
                } else {
                    "It opens"
                };
                Message::info(format!("{who} from the next game (r starts one)"))
            }
            Action::ToggleMode => {
                self.config.mode = match self.config.mode {
                    PlayMode::Search => PlayMode::Network,
                    PlayMode::Network => PlayMode::Search,
                };
                self.analyse();
                Message::info(format!(
                    "It plays by its {} from its next move",
                    self.config.mode_words()
                ))
            }
            Action::ToggleTraining => self.toggle_training(),
            Action::Why => match self.why() {
                Some(why) => {
                    effects.show_why = Some(why);
                    Message::info("Why it moved: ←→ its earlier moves, Esc closes")
                }
                None => Message::error("It has not moved yet in this game"),
            },
            Action::Undo => self.undo(),
        })
    }

    fn settings(&self) -> Option<Panel> {
        Some(self.settings_panel())
    }

    fn apply_settings(&mut self, changes: &[Change], _: &mut Effects) -> Message {
        self.apply_settings(changes)
    }

    fn tick(&mut self, _shown: bool) -> Ticked {
        Ticked {
            changed: self.poll_training(),
            ..Ticked::default()
        }
    }

    fn tick_interval(&self, _shown: bool) -> Option<Duration> {
        self.training()
            .is_on()
            .then_some(crate::tabkit::background::TRAINING_POLL)
    }

    fn on_exit(&mut self) {
        SelfPlayTab::on_exit(self);
    }

    fn unsaved(&self) -> Unsaved {
        Unsaved {
            work: if self.trained_unsaved() {
                vec!["the self-play learner you trained"]
            } else {
                Vec::new()
            },
            game_in_progress: self.board_in_progress(),
            scores: self.tally,
            ..Unsaved::default()
        }
    }

    fn training(&self) -> Training {
        SelfPlayTab::training(self)
    }
}

impl SelfPlayTab {
    /// The why record of the learner's moves this game.
    pub(crate) fn why(&self) -> Option<Why> {
        let moves = self
            .turns
            .iter()
            .map(|turn| Played {
                by: turn.by,
                text: (turn.cell + 1).to_string(),
                decision: turn.decision.clone(),
            })
            .collect();
        Why::last_ai_move(moves)
    }

    /// Whether you have moved in a game that is not over.
    fn board_in_progress(&self) -> bool {
        use crate::domain::games::Game as _;
        self.board.outcome().is_none() && self.turns.iter().any(|t| t.by == Side::Human)
    }
}

impl ClassSide for SelfPlayTab {
    fn about(&self) -> crate::tabkit::about::About {
        self.about_card()
    }

    /// The curve a lesson waits for is the search's share: the number the tab's lesson
    /// teaches to watch reach 100%.
    fn facts(&self) -> crate::tabkit::facts::Facts {
        use crate::domain::games::Game as _;
        crate::tabkit::facts::Facts {
            ai_moves: self.turns.iter().filter(|t| t.by == Side::Ai).count() as u64,
            over: self.board.outcome().is_some(),
            position: Some(crate::tabkit::facts::position_key(&self.board)),
            curve: self.shown.curve.last().map(|point| point.searched_kept),
            ..crate::tabkit::facts::Facts::default()
        }
    }
}
