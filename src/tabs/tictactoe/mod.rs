//! The Tic-tac-toe tab: tic-tac-toe and the Game of Eight against minimax, alpha-beta or
//! MCTS, with the AI's search recorded so the tree pane can show it and the user can step
//! through it.
//!
//! `state` holds the tab and what each action does to it (`stepping` the step commands and
//! autoplay, `tree_cursor` moving about the tree pane), `game` one game against the AI and
//! the search it recorded, `tree` the tree pane's folds and lines, `mcts` the MCTS search the
//! pane shows instead, `keys` the key tables, `view` the drawing (a file a pane:
//! `game_pane`, `search_pane`, `tree_pane`, `mcts_pane`) and `symbols` the glyphs the
//! drawing uses.

mod about;
mod action;
mod answer;
mod commands;
mod describe;
pub mod editor;
mod export;
pub mod game;
mod game_pane;
mod goto;
pub mod history;
mod keys;
pub mod mcts;
#[cfg(test)]
mod mcts_tests;
mod orders;
mod panel;
#[cfg(test)]
mod panel_tests;
#[cfg(test)]
mod pick_tests;
#[cfg(test)]
mod predict_tests;
mod search_pane;
pub mod settings;
pub(crate) mod state;
mod stepping;
pub mod symbols;
#[cfg(test)]
mod tests;
mod tree_cursor;
mod view;
pub mod why;
#[cfg(test)]
mod why_tests;

pub(crate) use crate::components::tree_search::step::StepCommand;
pub use action::Action;
pub use state::TicTacToeTab;
pub(crate) use state::{Focus, GameKind};

use crate::config::Config;
use crate::persist::Store;
use crate::tabkit::keymap::{Key, KeyGroup};
use crate::tabkit::message::{Message, focus_moved};
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::stepper_keys::StepperActions as _;
use crate::tabkit::tab::{ClassSide, Effects, OpenQuestion, Score, Storage, Tab, Ticked, Unsaved};
use std::time::Duration;

impl Tab for TicTacToeTab {
    type Action = Action;
    type Saved = ();
    type Played = std::convert::Infallible;
    const SECTIONS: &'static [&'static str] = &["tictactoe", "eight", "search"];

    fn looks(&self, action: Action) -> bool {
        matches!(action, Action::Why)
    }

    fn load(_config: &Config, _store: &Store) {}

    fn open(
        config: &Config,
        seed: u64,
        _saved: (),
        store: Option<Store>,
        storage: Storage,
    ) -> (Self, Option<Message>) {
        Self::new(config, seed, store, storage)
    }

    fn keys(&self) -> Vec<KeyGroup<Action>> {
        if self.editor.is_some() {
            return vec![keys::EDITOR];
        }
        if self.comparison.is_some() {
            return vec![keys::COMPARISON];
        }
        if self.goto.is_open() {
            return vec![keys::GO_TO_ENTRY];
        }
        if self.question_waiting() {
            return vec![keys::ANSWER];
        }
        let mut groups = Vec::new();
        if self.live_mcts() {
            groups.push(keys::MCTS_STEPPER);
        } else if self.has_search() {
            groups.push(keys::STEPPER);
        }
        groups.push(keys::SEARCH_FOCUS);
        groups.push(match self.focus {
            Focus::Tree => keys::TREE,
            Focus::Board => keys::BOARD_CURSOR,
        });
        groups.push(match self.game {
            GameKind::TicTacToe => keys::TICTACTOE_CHOICES,
            GameKind::Eight => keys::EIGHT_CHOICES,
        });
        groups.push(keys::SEARCH_TAB);
        groups
    }

    fn help_keys(&self) -> Vec<KeyGroup<Action>> {
        vec![
            keys::SEARCH_TAB,
            keys::SEARCH_FOCUS,
            keys::TICTACTOE_CHOICES,
            keys::EIGHT_CHOICES,
            keys::BOARD_CURSOR,
            keys::STEPPER,
            keys::MCTS_STEPPER,
            keys::TREE,
            keys::ANSWER,
            keys::GO_TO_ENTRY,
            keys::EDITOR,
            keys::COMPARISON,
        ]
    }

    fn modal(&self) -> Option<&'static str> {
        if self.editor.is_some() {
            return Some("The position editor is open: Enter plays from it, Esc cancels");
        }
        if self.goto.is_open() {
            return Some("Go to step: type a number, Enter goes, Esc cancels");
        }
        if self.question_waiting() {
            return Some("A prediction waits: type it, Enter checks it, Esc stops predicting");
        }
        self.comparison
            .is_some()
            .then_some("The move-order comparison is open: o the next order, Esc closes")
    }

    /// Enter in the stepper group plays the AI's move only while one is waiting; otherwise
    /// it falls through to the board cursor. Marks and separators type only into a list of children: under any other question
    /// they are not keys (Space does not type into a value).
    fn in_force(&self, action: Action) -> bool {
        match action {
            Action::PlaySearchMove => self.current_awaits_step(),
            Action::AnswerType(c) if keys::LIST_KEYS.contains(&Key::Char(c)) => self
                .search_question()
                .is_some_and(crate::domain::search::predict::Question::takes_children),
            _ => true,
        }
    }

    fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Step
            | Action::StepOver
            | Action::StepOut
            | Action::RunToEnd
            | Action::ToggleAutoplay => !self.search_finished(),
            Action::StepBack => self.search_started(),
            Action::PlayCell(_) => self.human_to_move(),
            // Minimax and alpha-beta only: with MCTS on they say why instead.
            Action::Analyze => self.human_to_move() && !self.mcts_on(),
            Action::CycleOrder => !self.mcts_on(),
            Action::ExportDot | Action::ExportText => {
                self.has_search() && !self.has_mcts() && self.search_started()
            }
            Action::ToggleAlgorithm | Action::ToggleStepMode => !self.game_over(),
            Action::Why => self.has_ai_record(),
            Action::Undo => self.can_undo(),
            Action::OpenEditor => self.game == GameKind::TicTacToe,
            _ => true,
        }
    }

    fn update(&mut self, action: Action, effects: &mut Effects) -> Option<Message> {
        match action {
            Action::CycleOrder => return Some(self.cycle_order()),
            Action::ExportDot => return Some(self.export_dot(effects)),
            Action::ExportText => return Some(self.export_text(effects)),
            _ => {}
        }
        let focus = self.focus;
        let message = match action {
            Action::Why => return self.why(effects),
            Action::Edit(command) => self.edit(command, effects),
            _ => self.apply(action),
        };
        if self.focus != focus && action != Action::ToggleFocus {
            return Some(focus_moved(message, focus_words(self.focus)));
        }
        message
    }

    fn settings(&self) -> Option<Panel> {
        Some(self.settings_panel())
    }

    fn apply_settings(
        &mut self,
        changes: &[Change],
        _: &mut Effects<std::convert::Infallible>,
    ) -> Message {
        self.apply_settings(changes)
    }

    fn tick(&mut self, shown: bool) -> Ticked {
        if !shown {
            return Ticked::default();
        }
        let message = self.autoplay_step();
        Ticked {
            changed: message.is_some(),
            message,
            played: Vec::new(),
            ..Ticked::default()
        }
    }

    fn tick_interval(&self, shown: bool) -> Option<Duration> {
        self.autoplay.tick_interval(shown)
    }

    fn answers(&self, action: Action) -> bool {
        action.is_answer()
    }

    fn unsaved(&self) -> Unsaved {
        Unsaved {
            work: self
                .stepped_search()
                .then_some("the search you stepped")
                .into_iter()
                .collect(),
            game_in_progress: self.tictactoe.in_progress() || self.eight.in_progress(),
            scores: self.tictactoe.tally + self.eight.tally,
            compared_runs: 0,
        }
    }
}

impl ClassSide for TicTacToeTab {
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
        let now = self.predict.as_ref().map(|p| p.score).unwrap_or_default();
        self.scored_before.plus(now)
    }

    fn hold_answers(&mut self, hold: bool) {
        self.hold_answers = hold;
    }

    fn reveal(&mut self) -> Option<Message> {
        TicTacToeTab::reveal(self)
    }

    fn take_verdict(&mut self) -> Option<bool> {
        self.predict.as_mut()?.take_verdict()
    }
    fn facts(&self) -> crate::tabkit::facts::Facts {
        self.lesson_facts()
    }
}

impl TicTacToeTab {
    fn apply(&mut self, action: Action) -> Option<Message> {
        match action {
            Action::PlayCell(choice) => self.play(choice),
            Action::MoveCursor(dx, dy) => {
                self.move_cursor(dx, dy);
                None
            }
            Action::PlayAtCursor => self.play_at_cursor(),
            Action::NewGame => self.new_game(),
            Action::SwitchGame => self.switch_game(),
            Action::ToggleAlgorithm => self.toggle_algorithm(),
            Action::ToggleStepMode => self.toggle_step_mode(),
            Action::ToggleSide => self.toggle_side(),
            Action::Analyze => self.analyze(),
            Action::ToggleFocus => self.toggle_focus(),
            Action::Step => self.step(StepCommand::Step),
            Action::StepOver => self.step(StepCommand::Over),
            Action::StepOut => self.step(StepCommand::Out),
            Action::StepBack => self.step(StepCommand::Back),
            Action::RunToEnd => self.step(StepCommand::RunToEnd),
            Action::ToggleAutoplay => self.toggle_autoplay(),
            Action::AutoplaySpeed(faster) => Some(self.autoplay.change_speed(faster)),
            Action::PlaySearchMove => self.play_search_move(),
            Action::TreeCursor(delta) => {
                self.tree_cursor(delta);
                None
            }
            Action::TreeFold(fold) => self.tree_fold(fold),
            Action::TreeExpandAll => self.tree_expand_all(),
            Action::TreeToCurrent => {
                self.tree_to_current();
                None
            }
            Action::TreeClick(line) => self.tree_click(line),
            Action::Undo => self.undo(),
            Action::OpenEditor => self.open_editor(),
            Action::TogglePredict => Some(self.toggle_predict()),
            Action::AnswerType(c) => Some(self.answer_type(c)),
            Action::AnswerErase => self.answer_erase(),
            Action::AnswerSubmit => Some(self.answer_submit()),
            Action::GoToOpen => Some(self.goto_open()),
            Action::GoToType(c) => self.goto_type(c),
            Action::GoToErase => self.goto_erase(),
            Action::GoToSubmit => self.goto_submit(),
            Action::GoToCancel => Some(self.goto.cancel()),
            Action::CloseComparison => {
                self.comparison = None;
                Some(Message::info("Comparison closed: o opens it again"))
            }
            // Handled in `update`: they may ask the app for an overlay.
            Action::CycleOrder
            | Action::ExportDot
            | Action::ExportText
            | Action::Why
            | Action::Edit(_) => None,
        }
    }
}

fn focus_words(focus: Focus) -> &'static str {
    match focus {
        Focus::Tree => "the keys moved to the tree pane (f: back to the board)",
        Focus::Board => "the keys moved to the board (f: to the tree)",
    }
}
