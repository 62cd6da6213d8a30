//! The Self-play tab: an AlphaZero-style learner of tic-tac-toe. Play against it (its
//! network alone, or the network guiding a PUCT search), see what it makes of every move
//! of the position beside the exact answer, and watch it learn from games against itself.

mod about;
mod action;
mod analysis;
mod game;
mod keys;
mod learning;
mod panel;
mod run_record;
mod runs;
pub mod settings;
pub(crate) mod state;
mod stepping;
#[cfg(test)]
mod stepping_tests;
mod symbols;
#[cfg(test)]
mod tests;
mod view;
mod why;

pub use action::Action;
pub use state::SelfPlayTab;

use crate::components::mcts_search::step::Stepping;
use crate::config::Config;
use crate::config::shared::FirstMover;
use crate::domain::learn::selfplay::saved::SavedLearner;
use crate::domain::prediction::Score;
use crate::persist::{Loaded, Store};
use crate::tabkit::keymap::KeyGroup;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::side::Side;
use crate::tabkit::tab::{
    ClassSide, Effects, OpenQuestion, Storage, Tab, Ticked, Training, Unsaved,
};
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

    fn answers(&self, action: Action) -> bool {
        use crate::tabkit::stepper_keys::StepperActions as _;
        action.is_answer()
    }

    fn modal(&self) -> Option<&'static str> {
        if self.goto.is_open() {
            return Some("Go to step: type a number, Enter goes, Esc cancels");
        }
        if self.runs.open {
            return Some("The runs are open: Space draws a run, x exports, Esc closes");
        }
        self.pick_waiting()
            .then_some("A prediction waits: type a cell, Enter checks it, Esc stops predicting")
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
        if self.goto.is_open() {
            return vec![keys::GO_TO_ENTRY];
        }
        if self.pick_waiting() {
            return vec![keys::ANSWER];
        }
        if self.runs.open {
            return vec![keys::RUNS];
        }
        if self.stepping.is_some() {
            return vec![keys::STEPPER, keys::TREE, keys::GAME_STEPPING];
        }
        vec![keys::GAME]
    }

    fn help_keys(&self) -> Vec<KeyGroup<Action>> {
        vec![
            keys::GAME,
            keys::STEPPER,
            keys::TREE,
            keys::ANSWER,
            keys::GO_TO_ENTRY,
            keys::RUNS,
        ]
    }

    fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Place(_) => self.human_to_move() && self.stepping.is_none(),
            Action::Why => self.why().is_some(),
            Action::Undo => self.turns.iter().any(|t| t.by == Side::Human),
            Action::Step
            | Action::StepOver
            | Action::StepOut
            | Action::StepBack
            | Action::RunToEnd
            | Action::ToggleAutoplay
            | Action::AutoplaySpeed(_)
            | Action::PlayStepped
            | Action::GoToOpen
            | Action::TreeCursor(_)
            | Action::TreeFold(_) => self.stepping.is_some(),
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
            Action::NewLearner => self.new_learner(),
            Action::Runs => self.toggle_runs(),
            Action::RunsMove(by) => {
                self.runs.move_by(by);
                self.runs_cursor_said()
            }
            Action::RunsToggle => match self.runs.toggle_selected() {
                Ok(said) => Message::info(said),
                Err(why) => Message::error(why),
            },
            Action::RunsExport => self.export_runs(effects),
            Action::Why => match self.why() {
                Some(why) => {
                    effects.show_why = Some(why);
                    Message::info("Why it moved: ←→ its earlier moves, Esc closes")
                }
                None => Message::error("It has not moved yet in this game"),
            },
            Action::Undo => self.undo(),
            Action::ToggleStepMode => self.toggle_step_mode(),
            Action::Step => self.step_search(Stepping::Phase),
            Action::StepOver | Action::StepOut => self.step_search(Stepping::Iteration),
            Action::StepBack => self.step_search(Stepping::Back),
            Action::RunToEnd => self.step_search(Stepping::ToEnd),
            Action::ToggleAutoplay => self.toggle_autoplay(),
            Action::AutoplaySpeed(faster) => self.autoplay.change_speed(faster),
            Action::PlayStepped => self.play_stepped(),
            Action::GoToOpen => self.goto_open(),
            Action::GoToType(c) => return self.goto.type_at(c, self.step_count()),
            Action::GoToErase => return self.goto.erase_at(self.step_count()),
            Action::GoToSubmit => return self.goto_submit(),
            Action::GoToCancel => self.goto.cancel(),
            Action::AnswerType(c) => return self.answer_type(c),
            Action::AnswerErase => return self.answer_erase(),
            Action::AnswerSubmit => return self.answer_submit(),
            Action::TogglePredict => self.toggle_predict(),
            Action::TreeCursor(rows) => {
                let view = self.stepping.as_mut()?;
                view.move_cursor(rows);
                return None;
            }
            Action::TreeFold(fold) => return self.stepping.as_mut()?.fold(fold).map(Message::info),
        })
    }

    fn settings(&self) -> Option<Panel> {
        Some(self.settings_panel())
    }

    fn apply_settings(&mut self, changes: &[Change], _: &mut Effects) -> Message {
        self.apply_settings(changes)
    }

    fn tick(&mut self, shown: bool) -> Ticked {
        let stepped = shown.then(|| self.autoplay_step()).flatten();
        Ticked {
            changed: self.poll_training() || stepped.is_some(),
            message: stepped,
            ..Ticked::default()
        }
    }

    fn tick_interval(&self, shown: bool) -> Option<Duration> {
        let training = self
            .training()
            .is_on()
            .then_some(crate::tabkit::background::TRAINING_POLL);
        match (training, self.autoplay.tick_interval(shown)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
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

    fn autoplays(&self) -> bool {
        self.autoplay.on
    }

    fn autoplay_once(&mut self) {
        self.autoplay_now();
    }

    fn stepper_at(&self) -> Option<String> {
        let (at, total) = self.step_count()?;
        Some(crate::tabkit::goto::short_counter(at, total))
    }

    fn open_question(&self) -> Option<OpenQuestion> {
        self.asked()
    }

    fn predictions(&self) -> Score {
        crate::tabkit::predicting::session_score(self.predict.as_ref(), self.scored_before)
    }

    fn hold_answers(&mut self, hold: bool) {
        self.hold_answers = hold;
    }

    fn reveal(&mut self) -> Option<Message> {
        self.reveal_pick()
    }

    fn take_verdict(&mut self) -> Option<bool> {
        self.predict.as_mut()?.take_verdict()
    }

    /// The curve a lesson waits for is the search's share: the number the tab's lesson
    /// teaches to watch reach 100%.
    fn facts(&self) -> crate::tabkit::facts::Facts {
        use crate::domain::games::Game as _;
        crate::tabkit::facts::Facts {
            ai_moves: self.turns.iter().filter(|t| t.by == Side::Ai).count() as u64,
            over: self.board.outcome().is_some(),
            position: Some(crate::tabkit::facts::position_key(&self.board)),
            steps: self.step_count().map_or(0, |(at, _)| at),
            curve: self.shown.curve.last().map(|point| point.searched_kept),
            ..crate::tabkit::facts::Facts::default()
        }
    }
}
