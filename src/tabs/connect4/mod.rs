//! The Connect Four tab: play against depth-limited alpha-beta, Monte Carlo tree search, the
//! exact solver or chance, and look at the AI's last search beside the board, with the
//! solver's verdict on every column it weighed.

mod about;
mod action;
mod ai;
mod ai_turn;
mod answer;
mod autoplay;
mod goto;
mod keys;
mod outline;
mod panel;
mod playable;
pub mod settings;
pub(crate) mod state;
pub(crate) mod symbols;
#[cfg(test)]
mod tests;
mod thinking;
mod tree_search;
mod view;

pub use action::Action;
pub use state::Connect4Tab;
pub use thinking::AiPlayed;

use crate::config::Config;
use crate::persist::Store;
use crate::tabkit::keymap::KeyGroup;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::side::Side;
use crate::tabkit::stepper_keys::StepperActions as _;
use crate::tabkit::tab::{ClassSide, Effects, OpenQuestion, Score, Storage, Tab, Ticked, Unsaved};
use state::Focus;
use std::time::Duration;

/// How often the loop looks for the AI's move while it thinks.
const THINKING_POLL: Duration = Duration::from_millis(20);

impl Tab for Connect4Tab {
    type Action = Action;
    type Saved = ();
    type Played = AiPlayed;
    const SECTIONS: &'static [&'static str] = &["connect4"];

    fn looks(&self, action: Action) -> bool {
        matches!(action, Action::Why)
    }

    fn load(_config: &Config, _store: &Store) -> Self::Saved {}

    fn open(
        config: &Config,
        seed: u64,
        _saved: Self::Saved,
        _store: Option<Store>,
        _storage: Storage,
    ) -> (Self, Option<Message>) {
        (Self::new(config, seed), None)
    }

    fn keys(&self) -> Vec<KeyGroup<Action>> {
        if self.goto.is_open() {
            return vec![keys::GO_TO_ENTRY];
        }
        if self.tree_question().is_some() {
            return vec![keys::TREE_ANSWER];
        }
        if self.question_waiting() {
            return vec![keys::ANSWER];
        }
        let mut groups = Vec::new();
        if self.stepping.is_some() {
            groups.push(keys::STEPPER);
        }
        if self.tree_search_waits() {
            groups.push(keys::TREE_STEPPER);
        }
        groups.push(match self.focus {
            Focus::Board => keys::BOARD,
            Focus::Tree => keys::TREE,
        });
        groups.push(keys::GAME);
        groups
    }

    fn help_keys(&self) -> Vec<KeyGroup<Action>> {
        vec![
            keys::GAME,
            keys::BOARD,
            keys::TREE,
            keys::TREE_STEPPER,
            keys::STEPPER,
            keys::ANSWER,
            keys::TREE_ANSWER,
            keys::GO_TO_ENTRY,
        ]
    }

    fn modal(&self) -> Option<&'static str> {
        if self.goto.is_open() {
            return Some("Go to step: type a number, Enter goes, Esc cancels");
        }
        if self.tree_question().is_some() {
            return Some(
                "A prediction waits: type your answer, Enter checks it, Esc stops predicting",
            );
        }
        self.question_waiting()
            .then_some("A prediction waits: type a column, Enter checks it, Esc stops predicting")
    }

    fn answers(&self, action: Action) -> bool {
        action.is_answer()
    }

    fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Drop(_) | Action::DropAtCursor | Action::Cursor(_) => self.human_to_move(),
            Action::Why => self.why().is_some(),
            Action::Undo => self.turns.iter().any(|t| t.by == Side::Human),
            Action::TreeCursor(_) | Action::TreeFold(_) => {
                self.tree_search.is_some() || self.last.is_some() || self.stepping.is_some()
            }
            Action::StepBack if self.tree_search_waits() => self
                .tree_search
                .as_ref()
                .is_some_and(|view| view.stepper.events_taken() > 0),
            Action::Step | Action::StepOver | Action::StepOut | Action::RunToEnd
                if self.tree_search_waits() =>
            {
                self.tree_search
                    .as_ref()
                    .is_some_and(|view| !view.stepper.is_finished())
            }
            Action::PlayStepped if self.tree_search_waits() => true,
            Action::ToggleAutoplay | Action::AutoplaySpeed(_) => {
                self.tree_search_waits() || self.stepping.is_some()
            }
            Action::StepBack => self
                .stepping
                .as_ref()
                .is_some_and(|view| view.stepper.phases() > 0),
            Action::PlayStepped => self
                .stepping
                .as_ref()
                .is_some_and(|view| view.stepper.mcts().best_move().is_some()),
            _ => true,
        }
    }

    fn update(&mut self, action: Action, effects: &mut Effects<AiPlayed>) -> Option<Message> {
        Some(match action {
            Action::Drop(0 | 8..) => Message::error("Columns are 1 to 7"),
            Action::Drop(column) => self.drop_disc(usize::from(column) - 1),
            Action::DropAtCursor => self.drop_disc(self.cursor),
            Action::Cursor(by) => {
                self.move_cursor(by);
                return None;
            }
            Action::NewGame => {
                self.start_game();
                Message::info(format!("New game against {}", self.ai_words()))
            }
            Action::ToggleFirst => self.toggle_first(),
            Action::NextAi => self.next_ai(),
            Action::ToggleFocus => {
                self.focus = match self.focus {
                    Focus::Board => Focus::Tree,
                    Focus::Tree => Focus::Board,
                };
                return None;
            }
            Action::TreeCursor(by) => {
                match self.tree_search.as_mut() {
                    Some(view) => view.move_cursor(by),
                    None => self.tree_cursor(by),
                }
                return None;
            }
            Action::TreeFold(open) => {
                if let Some(view) = self.tree_search.as_mut() {
                    return view.fold(!open);
                }
                return self.tree_fold(open);
            }
            Action::Why => match self.why() {
                Some(why) => {
                    effects.show_why = Some(why);
                    Message::info("Why the AI moved: ←→ its earlier moves, Esc closes")
                }
                None => Message::error("The AI has not moved yet in this game"),
            },
            Action::Undo => self.undo(),
            Action::ToggleStepMode => self.toggle_step_mode(),
            Action::PlayStepped if self.tree_search_waits() => self.play_tree_search(),
            Action::PlayStepped => self.play_stepped(),
            Action::TogglePredict => self.toggle_predict(),
            Action::ToggleAutoplay => self.toggle_autoplay(),
            Action::AutoplaySpeed(faster) => self.autoplay.change_speed(faster),
            Action::AnswerType(c) => return self.answer_type(c),
            Action::AnswerErase => return self.answer_erase(),
            Action::AnswerSubmit => return self.answer_submit(),
            Action::GoToOpen => self.goto_open(),
            Action::GoToType(c) => return self.goto_type(c),
            Action::GoToErase => return self.goto_erase(),
            Action::GoToSubmit => return self.goto_submit(),
            Action::GoToCancel => self.goto.cancel(),
            Action::Step
            | Action::StepOver
            | Action::StepOut
            | Action::StepBack
            | Action::RunToEnd
                if self.tree_search_waits() =>
            {
                return self.step_tree_search(action);
            }
            Action::Step | Action::StepOver | Action::StepBack | Action::RunToEnd => {
                return self.step(action);
            }
            Action::StepOut => return None,
        })
    }

    fn settings(&self) -> Option<Panel> {
        Some(self.settings_panel())
    }

    fn apply_settings(&mut self, changes: &[Change], _: &mut Effects<AiPlayed>) -> Message {
        self.apply_settings(changes)
    }

    fn tick(&mut self, shown: bool) -> Ticked<AiPlayed> {
        let stepped = shown.then(|| self.autoplay_step()).flatten();
        let started = self.search_started();
        let Some((message, played)) = self.poll_thinking() else {
            return Ticked {
                changed: started || stepped.is_some(),
                message: stepped,
                ..Ticked::default()
            };
        };
        Ticked {
            changed: true,
            message: Some(message),
            played: played.into_iter().collect(),
            ..Ticked::default()
        }
    }

    fn play_recorded(&mut self, played: AiPlayed) -> Option<Message> {
        Some(self.play_followed(&played))
    }

    fn tick_interval(&self, shown: bool) -> Option<Duration> {
        let thinking = self.thinking.is_some().then_some(THINKING_POLL);
        match (thinking, self.autoplay.tick_interval(shown)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn unsaved(&self) -> Unsaved {
        Unsaved {
            game_in_progress: !self.board.is_over()
                && self.turns.iter().any(|t| t.by == Side::Human),
            scores: self.tally,
            ..Unsaved::default()
        }
    }
}

impl ClassSide for Connect4Tab {
    fn about(&self) -> crate::tabkit::about::About {
        self.about_card()
    }

    fn busy(&self) -> bool {
        self.thinking.is_some()
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
        let now = self.predict.as_ref().map(|p| p.score).unwrap_or_default();
        self.scored_before.plus(now)
    }

    fn hold_answers(&mut self, hold: bool) {
        self.hold_answers = hold;
    }

    fn moves_from_journal(&mut self, on: bool) {
        self.take_moves_from_journal(on);
    }

    fn reveal(&mut self) -> Option<Message> {
        self.reveal_pick()
    }

    fn take_verdict(&mut self) -> Option<bool> {
        self.predict.as_mut()?.take_verdict()
    }
    fn facts(&self) -> crate::tabkit::facts::Facts {
        self.lesson_facts()
    }
}
