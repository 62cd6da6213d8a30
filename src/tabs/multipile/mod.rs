//! The Multi-pile Nim tab: a game of several piles against tabular Q-learning, a network,
//! the perfect player or a random one, with the learners' edges, updates, training curves,
//! Q-table and network outputs in the pane beside the piles.

mod about;
mod action;
mod ask_entry;
mod game;
mod keys;
pub(crate) mod learners;
mod net_views;
mod notice;
mod pane;
mod panel;
#[cfg(test)]
mod panel_tests;
mod q_views;
#[cfg(test)]
mod restore_tests;
pub mod settings;
pub(crate) mod state;
mod stepper;
#[cfg(test)]
mod stepper_tests;
pub mod symbols;
#[cfg(test)]
mod tests;
mod training_view;
mod view;
mod watch;
#[cfg(test)]
mod watch_tests;
mod why;

pub use action::Action;
use action::StepTo;
pub(crate) use state::Pane;
pub use state::Played;
pub use state::{AiPlayed, MultiPileTab};

use crate::config::Config;
use crate::domain::games::nim::Piles;
use crate::domain::learn::nim_net::NetTrainer;
use crate::domain::learn::qlearning::QTrainer;
use crate::domain::numbers::thousands;
use crate::persist::{Loaded, Problems, Store};
use crate::tabkit::keymap::KeyGroup;
use crate::tabkit::message::{Message, focus_moved};
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::side as frame_side;
use crate::tabkit::stepper_keys::StepperActions as _;
use crate::tabkit::tab::{
    ClassSide, Confirm, Effects, OpenQuestion, Score, Storage, Tab, Ticked, Training, Unsaved,
};
use learners::{NetAgent, QAgent};
use std::time::Duration;

/// The learners the tab starts from: the Q-table for the configured piles and rule, and the
/// network.
#[derive(Debug, Clone, Default)]
pub struct Saved {
    /// The Q-table.
    pub q: Loaded<QTrainer>,
    /// The network.
    pub net: Loaded<NetTrainer>,
}

impl Problems for Saved {
    fn problems(&self) -> Vec<&str> {
        [&self.q.error, &self.net.error]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect()
    }
}

impl Tab for MultiPileTab {
    type Action = Action;
    type Saved = Saved;
    type Played = AiPlayed;
    const SECTIONS: &'static [&'static str] = &["nim", "qlearning", "nim_net"];

    fn looks(&self, action: Action) -> bool {
        matches!(action, Action::Why)
    }

    fn load(config: &Config, store: &Store) -> Saved {
        Saved {
            q: Piles::new(&config.nim.piles).map_or_else(Loaded::default, |start| {
                QAgent::load(start, config.nim.rule, &config.qlearning, store)
            }),
            net: NetAgent::load(&config.nim_net, store),
        }
    }

    fn open(
        config: &Config,
        seed: u64,
        saved: Saved,
        store: Option<Store>,
        storage: Storage,
    ) -> (Self, Option<Message>) {
        (
            Self::from_loaded(config, seed, saved.q, saved.net, store, storage),
            None,
        )
    }

    fn keys(&self) -> Vec<KeyGroup<Action>> {
        if self.menu.is_some() {
            return vec![keys::NIM_MENU];
        }
        if self.ask_entry.is_some() {
            return vec![keys::NIM_ASK];
        }
        if self.compare.is_some() {
            return vec![keys::NIM_RUNS];
        }
        if self.goto.is_open() {
            return vec![keys::NIM_GOTO];
        }
        if self.question_waiting() {
            return vec![keys::NIM_ANSWER];
        }
        let mut groups = vec![if self.pane_focus {
            keys::NIM_PANE
        } else {
            keys::NIM_PILES
        }];
        if self.has_updates() {
            groups.push(keys::NIM_UPDATES);
        }
        groups.push(keys::NIM);
        groups
    }

    fn help_keys(&self) -> Vec<KeyGroup<Action>> {
        vec![
            keys::NIM,
            keys::NIM_PILES,
            keys::NIM_PANE,
            keys::NIM_MENU,
            keys::NIM_ASK,
            keys::NIM_RUNS,
            keys::NIM_UPDATES,
            keys::NIM_GOTO,
            keys::NIM_ANSWER,
        ]
    }

    fn modal(&self) -> Option<&'static str> {
        if self.compare.is_some() {
            return Some("The runs are open: Space shows a run, x exports, Esc closes");
        }
        if self.ask_entry.is_some() {
            return Some("Typing piles to ask about: Enter asks, Esc cancels");
        }
        if self.goto.is_open() {
            return Some("Typing the update to go to: Enter goes, Esc cancels");
        }
        if self.question_waiting() {
            return Some("A prediction waits: type it, Enter checks it, Esc stops predicting");
        }
        self.menu
            .is_some()
            .then_some("The opponent menu is open: Esc closes it")
    }

    fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Confirm | Action::SelectPile(_) | Action::Count(_) | Action::Digit(_) => {
                self.human_to_move && !self.game_over()
            }
            Action::PaneBack => match self.pane {
                Pane::Weights => self.weights_at.0 > 0,
                _ => self.can_step_back(),
            },
            Action::Why => self.has_ai_record(),
            Action::Undo => self.moves.iter().any(|m| m.by == frame_side::Side::Human),
            Action::QStep | Action::QTrain | Action::QRetrain => self.q.trainer.is_ok(),
            Action::QRestore => !self.q.training && self.q.has_prev(),
            Action::NetRestore => !self.net.is_training() && self.net.has_prev(),
            Action::UpdateStep(StepTo::Back) => self.q.steps.at() > 0,
            Action::UpdateStep(_) => self.q.steps.at() < self.q.steps.total(),
            _ => true,
        }
    }

    fn confirmation(&self, action: Action) -> Option<Confirm> {
        match action {
            Action::QRetrain => {
                let games = self.q.trainer.as_ref().ok().map(|t| t.games as u64);
                let games = thousands(games.filter(|&g| g > 0)?);
                Some(Confirm {
                    then: format!("empty the Q-table: drops {games} games of training"),
                    cancelled: format!("Not retrained: the Q-table keeps its {games} games"),
                })
            }
            Action::NetRetrain if self.net.trainer.epochs() > 0 => {
                let epochs = thousands(self.net.trainer.epochs() as u64);
                Some(Confirm {
                    then: format!("retrain the network: drops {epochs} epochs of training"),
                    cancelled: format!("Not retrained: the network keeps its {epochs} epochs"),
                })
            }
            _ => None,
        }
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
        let started = self.net.got_trainer();
        let moving = self.q.training || (self.net.is_training() && !self.net.waits_for_trainer());
        let message = self.train_tick();
        let finished = message.is_some();
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

    fn on_exit(&mut self) {
        self.on_exit();
    }

    fn unsaved(&self) -> Unsaved {
        let mut work = Vec::new();
        if self.storage != Storage::DataDir {
            if self.q_since.grew(self.q_games()) {
                work.push("the Q-table you trained");
            }
            if self.net_since.grew(self.net.trainer.epochs() as u64) {
                work.push("the Multi-pile network you trained");
            }
        }
        Unsaved {
            work,
            game_in_progress: !self.game_over()
                && self.moves.iter().any(|m| m.by == frame_side::Side::Human),
            scores: self.tally,
            compared_runs: self.q.runs.kept().count() + self.net.runs.kept().count(),
        }
    }

    fn answers(&self, action: Action) -> bool {
        action.is_answer()
    }

    fn training(&self) -> Training {
        if self.net.waits_for_trainer() {
            Training::Waiting
        } else if self.is_training() {
            Training::Running
        } else {
            Training::Idle
        }
    }
}

impl ClassSide for MultiPileTab {
    fn facts(&self) -> crate::tabkit::facts::Facts {
        let curve = if self.opponent == settings::OpponentChoice::Network {
            Some(self.net.evaluation().winning_accuracy() * 100.0)
        } else {
            // The last point only: the whole curve is copied for drawing, not for a look.
            (self.q.trainer.as_ref().ok())
                .and_then(|trainer| trainer.curve.last())
                .map(|point| point.policy_optimality() * 100.0)
        };
        crate::tabkit::facts::Facts {
            ai_moves: self.ai_moves.total(),
            over: self.piles.is_over(),
            steps: self.q.steps.at() as u64,
            curve,
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
        let steps = &self.q.steps;
        (steps.total() > 0).then(|| {
            crate::tabkit::goto::short_counter(steps.at() as u64, Some(steps.total() as u64))
        })
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
        MultiPileTab::reveal(self)
    }

    fn take_verdict(&mut self) -> Option<bool> {
        self.predict.as_mut()?.take_verdict()
    }
}

impl MultiPileTab {
    /// Games the Q-table has learned from (0 when the game is too large for a table).
    fn q_games(&self) -> u64 {
        self.q.trainer.as_ref().map_or(0, |t| t.games as u64)
    }

    fn focus_words(&self) -> &'static str {
        if self.pane_focus {
            "the keys moved to the pane (f: back to the piles)"
        } else {
            "the keys moved to the piles (f: to the pane)"
        }
    }
}

/// Why a pane key does nothing in the pane's current view (it would change what another
/// view shows, unseen), or `None` when it acts here.
fn pane_refusal(action: Action, pane: Pane) -> Option<&'static str> {
    match action {
        Action::PaneMove(_) | Action::PaneEnter
            if !matches!(pane, Pane::Edges | Pane::Table | Pane::Weights) =>
        {
            Some("The pane's cursor works in the edges, Q-table and weights views: v shows them")
        }
        Action::PaneBack if !matches!(pane, Pane::Edges | Pane::Weights) => {
            Some("← walks back in the edges view (and layers in the weights view): v shows them")
        }
        Action::PaneHome if pane != Pane::Edges => {
            Some(". goes back to the game in the edges view: v shows it")
        }
        _ => None,
    }
}

impl MultiPileTab {
    /// What `update` does, the AI moves it made left in `made`.
    fn act(&mut self, action: Action, effects: &mut Effects<AiPlayed>) -> Option<Message> {
        if let Some(why) = pane_refusal(action, self.pane) {
            return Some(Message::error(why));
        }
        if action == Action::RunsExport {
            return self.export_runs(effects);
        }
        if action == Action::TableExport {
            return Some(self.export_table(effects));
        }
        let shown = match action {
            Action::Why => Some(self.why()),
            Action::AskSubmit => Some(self.ask_submit()),
            _ => None,
        };
        if let Some(shown) = shown {
            return match shown {
                Ok(why) => {
                    effects.show_why = Some(why);
                    None
                }
                Err(message) => Some(message),
            };
        }
        match action {
            Action::QTrain | Action::QStep | Action::QRetrain => self.q_since.trained_by_key(),
            Action::NetTrain | Action::NetRetrain => self.net_since.trained_by_key(),
            _ => {}
        }
        let focus = self.pane_focus;
        let message = self.apply(action);
        if self.pane_focus != focus && action != Action::ToggleFocus {
            return Some(focus_moved(message, self.focus_words()));
        }
        message
    }
}
