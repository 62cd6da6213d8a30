//! The Self-play tab: an AlphaZero-style learner of tic-tac-toe, four in a row on 5x4 and
//! Connect Four, one learner a game (`g` switches). Play against it (its network alone, or
//! the network guiding a PUCT search), see what it makes of every move of the position
//! beside the exact answer, and watch it learn from games against itself.

/// Runs `$body` on the game the tab shows, bound to `$play` (a `SelfPlay<G>` of its
/// game): `&` or `&mut` as `$games` is.
macro_rules! each_game {
    ($games:expr, $play:ident => $body:expr) => {
        match $games {
            $crate::tabs::selfplay::games::Games::TicTacToe($play) => $body,
            $crate::tabs::selfplay::games::Games::SmallBoard($play) => $body,
            $crate::tabs::selfplay::games::Games::ConnectFour($play) => $body,
        }
    };
}

mod about;
mod action;
mod analysis;
mod game;
mod games;
#[cfg(test)]
mod games_tests;
mod keys;
mod learning;
mod panel;
mod play;
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
pub use games::SelfPlayTab;

use crate::config::Config;
use crate::domain::prediction::Score;
use crate::persist::Store;
use crate::tabkit::keymap::KeyGroup;
use crate::tabkit::message::{Message, together};
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::tab::{
    ClassSide, Confirm, Effects, OpenQuestion, Storage, Tab, Ticked, Training, Unsaved,
};
use std::time::Duration;

impl Tab for SelfPlayTab {
    type Action = Action;
    type Saved = games::Saved;
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
        each_game!(&self.shown, play => play.modal())
    }

    /// Every game's learner, so each session of a server has them all.
    fn load(_config: &Config, store: &Store) -> Self::Saved {
        games::Saved::load(store)
    }

    fn open(
        config: &Config,
        seed: u64,
        saved: Self::Saved,
        store: Option<Store>,
        storage: Storage,
    ) -> (Self, Option<Message>) {
        let mut tab = Self::new(&config.selfplay, seed, saved, store, storage);
        let said = tab.take_load_note().map(Message::error);
        (tab, said)
    }

    fn keys(&self) -> Vec<KeyGroup<Action>> {
        each_game!(&self.shown, play => play.keys())
    }

    fn help_keys(&self) -> Vec<KeyGroup<Action>> {
        vec![
            each_game!(&self.shown, play => game_keys(play)),
            keys::STEPPER,
            keys::TREE,
            keys::ANSWER,
            keys::GO_TO_ENTRY,
            keys::RUNS,
        ]
    }

    fn enabled(&self, action: Action) -> bool {
        action == Action::SwitchGame || each_game!(&self.shown, play => play.enabled(action))
    }

    /// `T` on a learner that has trained asks first: a stray Shift-t put a trained
    /// network out of sight (its file and its run are kept, but the tab shows 0 games).
    fn confirmation(&self, action: Action) -> Option<Confirm> {
        if action != Action::NewLearner {
            return None;
        }
        // A learner lost with its thread has nothing to keep: T is the way on.
        let games = each_game!(&self.shown, play => {
            (!matches!(play.learner, state::Learner::Gone)).then_some(play.shown.progress.games)
        })?;
        let games = crate::domain::numbers::thousands(Some(games).filter(|&g| g > 0)?);
        Some(Confirm {
            then: format!("replace this learner ({games} games) by fresh weights"),
            cancelled: format!("No new learner: this one keeps its {games} games"),
        })
    }

    fn update(&mut self, action: Action, effects: &mut Effects) -> Option<Message> {
        if action == Action::SwitchGame {
            return Some(self.switch_game());
        }
        each_game!(&mut self.shown, play => play.update(action, effects))
    }

    fn settings(&self) -> Option<Panel> {
        Some(each_game!(&self.shown, play => play.settings_panel()))
    }

    fn apply_settings(&mut self, changes: &[Change], _: &mut Effects) -> Message {
        each_game!(&mut self.shown, play => play.apply_settings(changes))
    }

    /// Every game's learner may train: each is polled, the shown one autoplays.
    fn tick(&mut self, shown: bool) -> Ticked {
        let mut ticked = each_game!(&mut self.shown, play => play.tick(shown));
        for other in &mut self.others {
            // Another game's news changes nothing on screen, but a stop it was asked
            // before `g` is said when it ends.
            if let Some(said) = each_game!(other, play => play.tick_behind()) {
                ticked.message = together(ticked.message, Some(said));
                ticked.changed = true;
            }
        }
        ticked
    }

    fn tick_interval(&self, shown: bool) -> Option<Duration> {
        let here = each_game!(&self.shown, play => play.tick_interval(shown));
        self.others
            .iter()
            .filter_map(|other| each_game!(other, play => play.tick_interval(false)))
            .chain(here)
            .min()
    }

    /// Every learner that trains is asked to stop first, then each is waited for and saved.
    fn on_exit(&mut self) {
        for games in self.all() {
            each_game!(games, play => play.ask_to_stop());
        }
        for games in self.all_mut() {
            each_game!(games, play => play.on_exit());
        }
    }

    /// What every game holds: its learner, its game and its scores.
    fn unsaved(&self) -> Unsaved {
        self.all()
            .map(|games| each_game!(games, play => play.unsaved()))
            .fold(Unsaved::default(), |mut all, one| {
                all.work.extend(one.work);
                all.game_in_progress |= one.game_in_progress;
                all.scores.won += one.scores.won;
                all.scores.lost += one.scores.lost;
                all.scores.drawn += one.scores.drawn;
                all.compared_runs += one.compared_runs;
                all
            })
    }

    /// Training, if any game's learner trains.
    fn training(&self) -> Training {
        self.all()
            .map(|games| each_game!(games, play => play.training()))
            .max_by_key(|training| match training {
                Training::Running => 2,
                Training::Waiting => 1,
                Training::Idle => 0,
            })
            .unwrap_or(Training::Idle)
    }
}

impl ClassSide for SelfPlayTab {
    fn about(&self) -> crate::tabkit::about::About {
        each_game!(&self.shown, play => play.about_card())
    }

    fn autoplays(&self) -> bool {
        each_game!(&self.shown, play => play.autoplay.on)
    }

    fn autoplay_once(&mut self) {
        each_game!(&mut self.shown, play => play.autoplay_now());
    }

    fn stepper_at(&self) -> Option<String> {
        each_game!(&self.shown, play => play.stepper_at())
    }

    fn open_question(&self) -> Option<OpenQuestion> {
        each_game!(&self.shown, play => play.asked())
    }

    /// The predictions graded in every game.
    fn predictions(&self) -> Score {
        self.all()
            .map(|games| each_game!(games, play => play.predictions()))
            .fold(Score::default(), |all, one| Score {
                right: all.right + one.right,
                asked: all.asked + one.asked,
            })
    }

    fn hold_answers(&mut self, hold: bool) {
        self.hold = hold;
        for games in self.all_mut() {
            each_game!(games, play => play.hold_answers = hold);
        }
    }

    fn reveal(&mut self) -> Option<Message> {
        each_game!(&mut self.shown, play => play.reveal_pick())
    }

    fn take_verdict(&mut self) -> Option<bool> {
        each_game!(&mut self.shown, play => play.predict.as_mut()?.take_verdict())
    }

    fn facts(&self) -> crate::tabkit::facts::Facts {
        each_game!(&self.shown, play => play.facts())
    }
}

/// The game's own keys, as the help lists them for the game shown (its digits named as
/// its moves).
fn game_keys<G: game::TabGame>(_shown: &state::SelfPlay<G>) -> KeyGroup<Action> {
    G::KEYS
}
