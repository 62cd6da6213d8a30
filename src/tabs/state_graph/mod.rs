//! The State Graph tab: Nim(k) as a weighted graph of states, learned from random games,
//! stepped one game at a time, questioned, played against, and exported as Graphviz DOT.

mod about;
mod action;
mod keys;
mod panel;
#[cfg(test)]
mod panel_tests;
mod record;
#[cfg(test)]
mod restore_tests;
pub mod settings;
pub(crate) mod state;
mod stepped;
mod stepper;
#[cfg(test)]
mod stepper_tests;
pub(crate) mod symbols;
#[cfg(test)]
mod tests;
mod view;
#[cfg(test)]
mod watch_tests;

pub use action::Action;
use action::StepTo;
pub use state::{AiPlayed, StateGraphTab};

use crate::config::Config;
use crate::domain::learn::state_graph::StateGraph;
use crate::domain::numbers::thousands;
use crate::persist::{Loaded, Store};
use crate::tabkit::keymap::KeyGroup;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::stepper_keys::StepperActions as _;
use crate::tabkit::tab::{
    ClassSide, Confirm, CopyText, Effects, OpenQuestion, Score, Storage, Tab, Ticked, Training,
    Unsaved, export_shown,
};
use std::time::Duration;

impl Tab for StateGraphTab {
    type Action = Action;
    type Saved = Loaded<StateGraph>;
    type Played = AiPlayed;
    const SECTIONS: &'static [&'static str] = &["graph"];

    fn looks(&self, action: Action) -> bool {
        matches!(action, Action::Why)
    }

    fn load(config: &Config, store: &Store) -> Self::Saved {
        Self::load(&config.graph, store)
    }

    fn open(
        config: &Config,
        seed: u64,
        saved: Self::Saved,
        store: Option<Store>,
        storage: Storage,
    ) -> (Self, Option<Message>) {
        (
            Self::from_loaded(&config.graph, seed, saved, store, storage),
            None,
        )
    }

    fn keys(&self) -> Vec<KeyGroup<Action>> {
        if self.goto.is_open() {
            return vec![keys::GRAPH_GOTO];
        }
        if self.question_waiting() {
            return vec![keys::GRAPH_ANSWER];
        }
        // The take key first, so the status line keeps its hint when the others crowd it.
        let mut groups = vec![keys::take_keys(self.graph.max_take)];
        if self.stepped.is_some() {
            groups.push(keys::GRAPH_STEPS);
        }
        groups.push(keys::GRAPH);
        groups
    }

    fn help_keys(&self) -> Vec<KeyGroup<Action>> {
        vec![
            keys::GRAPH,
            keys::take_keys(self.graph.max_take),
            keys::GRAPH_STEPS,
            keys::GRAPH_GOTO,
            keys::GRAPH_ANSWER,
        ]
    }

    fn modal(&self) -> Option<&'static str> {
        if self.goto.is_open() {
            return Some("Typing the move to go to: Enter goes, Esc cancels");
        }
        self.question_waiting()
            .then_some("A prediction waits: type it, Enter checks it, Esc stops predicting")
    }

    fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Why => self.why().is_some(),
            Action::Ask => self.cursor.tokens > 0,
            Action::Take(_) => self.game_on(),
            Action::Speed(_) => self.graph.games < self.target_games,
            Action::RestorePrevious => self.has_prev() && !self.training,
            Action::GameStep(StepTo::Back) => {
                self.stepped.as_ref().is_some_and(|g| g.steps.at() > 0)
            }
            Action::GameStep(_) => self.stepped.as_ref().is_some_and(|g| !g.learned()),
            _ => true,
        }
    }

    fn confirmation(&self, action: Action) -> Option<Confirm> {
        if action != Action::Reset || self.graph.games == 0 {
            return None;
        }
        let games = thousands(self.graph.games);
        Some(Confirm {
            then: format!("zero {games} games of training"),
            cancelled: format!("Not zeroed: the graph keeps its {games} games"),
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

    fn settings(&self) -> Option<Panel> {
        Some(self.settings_panel())
    }

    fn apply_settings(&mut self, changes: &[Change], effects: &mut Effects<AiPlayed>) -> Message {
        self.ai_moves.begin();
        let said = self.apply_settings(changes);
        self.ai_moves.report(effects);
        said
    }

    fn tick(&mut self, _shown: bool) -> Ticked<AiPlayed> {
        let moving = self.training;
        let message = self.train_tick();
        let finished = message.is_some();
        Ticked {
            changed: (moving || finished) && self.redraws.due(self.speed, finished),
            message,
            played: Vec::new(),
            ..Ticked::default()
        }
    }

    fn tick_interval(&self, _shown: bool) -> Option<Duration> {
        self.training.then_some(self.speed.poll())
    }

    fn on_exit(&mut self) {
        if self.training {
            // Pausing saves the games learned so far.
            self.toggle_training();
        }
    }

    fn unsaved(&self) -> Unsaved {
        let trained = self.storage != Storage::DataDir && self.since.grew(self.graph.games);
        Unsaved {
            work: trained
                .then_some("the state graph you trained")
                .into_iter()
                .collect(),
            game_in_progress: self.game.as_ref().is_some_and(|game| {
                game.at.tokens > 0 && game.path.iter().any(|e| e.from.player == game.human)
            }),
            ..Unsaved::default()
        }
    }

    fn answers(&self, action: Action) -> bool {
        action.is_answer()
    }

    fn training(&self) -> Training {
        if self.training {
            Training::Running
        } else {
            Training::Idle
        }
    }
}

impl ClassSide for StateGraphTab {
    fn facts(&self) -> crate::tabkit::facts::Facts {
        let steps = self
            .stepped
            .as_ref()
            .map_or(0, |stepped| stepped.steps.at() as u64);
        crate::tabkit::facts::Facts {
            ai_moves: self.ai_moves.total(),
            over: self.game.as_ref().is_some_and(|game| game.at.tokens == 0),
            steps,
            curve: Some(self.graph.optimal_share() * 100.0),
            ..Default::default()
        }
    }

    fn about(&self) -> crate::tabkit::about::About {
        self.about_card()
    }

    fn moves_from_journal(&mut self, on: bool) {
        self.ai_moves.follow(on);
    }

    fn stepper_at(&self) -> Option<String> {
        let steps = &self.stepped.as_ref()?.steps;
        Some(crate::tabkit::goto::short_counter(
            steps.at() as u64,
            Some(steps.total() as u64),
        ))
    }

    fn open_question(&self) -> Option<OpenQuestion> {
        self.asked()
    }

    fn predictions(&self) -> Score {
        self.predicted()
    }

    fn hold_answers(&mut self, hold: bool) {
        self.hold_answers = hold;
    }

    fn reveal(&mut self) -> Option<Message> {
        StateGraphTab::reveal(self)
    }

    fn take_verdict(&mut self) -> Option<bool> {
        self.predict.as_mut()?.take_verdict()
    }
}

impl StateGraphTab {
    /// With no data dir to write to, `x` shows the DOT text in an overlay to copy.
    fn show_export(&self, effects: &mut Effects<AiPlayed>) -> Message {
        effects.show_text = Some(CopyText {
            title: "The state graph as Graphviz DOT".to_string(),
            file: state::DOT_FILE,
            text: self.graph.to_dot(),
        });
        export_shown(self.storage)
    }
}

impl StateGraphTab {
    /// What `update` does, the AI moves it made left in `made`.
    fn act(&mut self, action: Action, effects: &mut Effects<AiPlayed>) -> Option<Message> {
        if matches!(action, Action::ToggleTraining | Action::Step) {
            self.since.trained_by_key();
        }
        Some(match action {
            Action::ToggleTraining => self.toggle_training(),
            Action::Step => self.step_game(),
            Action::Speed(faster) => self.change_speed(faster),
            Action::Reset => self.reset(),
            Action::RestorePrevious => self.restore_previous(),
            Action::NewGame => self.new_game(),
            Action::ToggleFirst => self.toggle_first(),
            Action::Take(n) => self.human_take(u32::from(n)),
            Action::Cursor(dx, dy) => {
                self.move_cursor(dx, dy);
                return None;
            }
            Action::Why => match self.why() {
                Some(why) => {
                    effects.show_why = Some(why);
                    Message::info("Why the AI moved: ←→ its earlier moves, Esc closes")
                }
                None => Message::error(
                    "The AI has not moved in a game yet: g plays one, then y explains its moves",
                ),
            },
            Action::Ask => match self.ask() {
                Ok((why, said)) => {
                    effects.show_why = Some(why);
                    said
                }
                Err(refused) => refused,
            },
            Action::Export if self.can_export() => self.export(),
            Action::Export => self.show_export(effects),
            Action::GameStep(to) => self.game_step(to),
            Action::GoToOpen => self.goto_open(),
            Action::GoToType(c) => self.goto_type(c),
            Action::GoToErase => self.goto_erase(),
            Action::GoToSubmit => self.goto_submit(),
            Action::GoToCancel => self.goto.cancel(),
            Action::TogglePredict => self.toggle_predict(),
            Action::AnswerType(c) => self.answer_type(c),
            Action::AnswerErase => self.answer_erase(),
            Action::AnswerSubmit => self.answer_submit(),
        })
    }
}
