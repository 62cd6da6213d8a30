//! The registry: every tab, in tab-bar order, one line each. From this list come the tab ids
//! and their F-keys (`id.rs`), the app's tab set and its dispatch, the tabs' actions as one
//! type, and the saved models the app starts from. Adding a tab is a folder beside these, a
//! line here and its `[section]` in `config/default.toml` (see ARCHITECTURE.md).

/// Calls `$then!` with the list of tabs: F-key number, id, title in the tab bar, folder and
/// tab type.
macro_rules! each_tab {
    ($then:ident) => {
        $then! {
            1 SubtractionNim "Subtraction Nim" subtraction::SubtractionTab,
            2 MultiPileNim "Multi-pile Nim" multipile::MultiPileTab,
            3 StateGraph "State Graph" state_graph::StateGraphTab,
            4 TicTacToe "Tic-tac-toe" tictactoe::TicTacToeTab,
            5 ConnectFour "Connect Four" connect4::Connect4Tab,
        }
    };
}

pub mod connect4;
pub mod id;
pub mod multipile;
pub mod state_graph;
pub mod subtraction;
#[cfg(test)]
mod testing;
pub mod tictactoe;

pub use id::TabId;

use crate::config::Config;
use crate::frame::keymap::Group;
use crate::frame::message::Message;
use crate::frame::settings::{Change, Panel};
use crate::frame::tab::{Asking, Confirm, Effects, Score, Storage, Tab, Ticked};
use crate::persist::{Problems, Store};
use crate::widgets::symbols::Symbol;
use crate::widgets::{TabView, Theme};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use std::time::Duration;

/// Generates, from the list, everything that goes through every tab.
macro_rules! tab_set {
    ($($number:literal $id:ident $title:literal $folder:ident :: $Tab:ident,)*) => {
        /// Something for one tab: the tab's own action, tagged with the tab.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum TabAction {
            $(
                #[allow(missing_docs)]
                $id(<$folder::$Tab as Tab>::Action),
            )*
        }

        impl TabAction {
            /// The tab the action is for.
            pub fn tab(self) -> TabId {
                match self {
                    $(Self::$id(_) => TabId::$id,)*
                }
            }
        }

        $(
            impl From<<$folder::$Tab as Tab>::Action> for TabAction {
                fn from(action: <$folder::$Tab as Tab>::Action) -> Self {
                    Self::$id(action)
                }
            }
        )*

        /// Every tab's saved models, read once (a server reads them at start and gives each
        /// session a copy: small networks and tables, so cloning is cheap).
        #[derive(Debug, Clone, Default)]
        pub struct Models {
            $(
                #[allow(missing_docs)]
                pub $folder: <$folder::$Tab as Tab>::Saved,
            )*
        }

        impl Models {
            /// Reads every tab's models from `store`; a missing or unusable file leaves that
            /// model empty (with the reason), never fails the whole load.
            pub fn load(config: &Config, store: &Store) -> Self {
                Self {
                    $($folder: <$folder::$Tab as Tab>::load(config, store),)*
                }
            }

            /// Why each model that could not be used could not, for a server to print.
            pub fn problems(&self) -> Vec<&str> {
                let mut problems = Vec::new();
                $(problems.extend(self.$folder.problems());)*
                problems
            }
        }

        /// Every tab, as the app holds them.
        pub struct Tabs {
            $(
                #[allow(missing_docs)]
                pub $folder: $folder::$Tab,
            )*
        }

        impl Tabs {
            /// Every tab opened from `models`, and what each said on opening.
            pub fn open(
                config: &Config,
                seed: u64,
                models: Models,
                store: Option<&Store>,
                storage: Storage,
            ) -> (Self, Vec<(TabId, Message)>) {
                let mut said = Vec::new();
                $(
                    let ($folder, message) = <$folder::$Tab as Tab>::open(
                        config,
                        seed,
                        models.$folder,
                        store.cloned(),
                        storage,
                    );
                    said.extend(message.map(|message| (TabId::$id, message)));
                )*
                (Self { $($folder,)* }, said)
            }

            /// The `[sections]` of the config file that set `tab` up.
            pub fn sections(tab: TabId) -> &'static [&'static str] {
                match tab {
                    $(TabId::$id => <$folder::$Tab as Tab>::SECTIONS,)*
                }
            }

            /// The key groups of `tab` in force now, most specific first.
            pub fn keys<A: 'static $(+ From<<$folder::$Tab as Tab>::Action>)*>(
                &self,
                tab: TabId,
            ) -> Vec<Group<A>> {
                match tab {
                    $(TabId::$id => self.$folder.keys().into_iter().map(Group::from).collect(),)*
                }
            }

            /// Every key group of `tab`, for the help.
            pub fn help_keys<A: 'static $(+ From<<$folder::$Tab as Tab>::Action>)*>(
                &self,
                tab: TabId,
            ) -> Vec<Group<A>> {
                match tab {
                    $(TabId::$id => {
                        self.$folder.help_keys().into_iter().map(Group::from).collect()
                    })*
                }
            }

            /// What a key outside `tab`'s open menu says, while one is open.
            pub fn modal(&self, tab: TabId) -> Option<&'static str> {
                match tab {
                    $(TabId::$id => self.$folder.modal(),)*
                }
            }

            /// Whether a binding for `action` is in force now.
            pub fn in_force(&self, action: TabAction) -> bool {
                match action {
                    $(TabAction::$id(action) => self.$folder.in_force(action),)*
                }
            }

            /// Whether `action` would do something now.
            pub fn enabled(&self, action: TabAction) -> bool {
                match action {
                    $(TabAction::$id(action) => self.$folder.enabled(action),)*
                }
            }

            /// The question to ask before `action`, if it throws work away.
            pub fn confirmation(&self, action: TabAction) -> Option<Confirm> {
                match action {
                    $(TabAction::$id(action) => self.$folder.confirmation(action),)*
                }
            }

            /// Performs `action` on its tab; what to say, and whether the tab's training
            /// waits for a trainer (the message says so).
            pub fn update(&mut self, action: TabAction, effects: &mut Effects) -> Option<Message> {
                match action {
                    $(TabAction::$id(action) => self.$folder.update(action, effects),)*
                }
            }

            /// Whether `action` only answers a prediction.
            pub fn answers(&self, action: TabAction) -> bool {
                match action {
                    $(TabAction::$id(action) => self.$folder.answers(action),)*
                }
            }

            /// Whether `tab`'s AI thinks in the background now.
            pub fn busy(&self, tab: TabId) -> bool {
                match tab {
                    $(TabId::$id => self.$folder.busy(),)*
                }
            }

            /// One autoplay step of `tab` now.
            pub fn autoplay_once(&mut self, tab: TabId) {
                match tab {
                    $(TabId::$id => self.$folder.autoplay_once(),)*
                }
            }

            /// Whether `tab`'s ticks step it on (autoplay).
            pub fn autoplays(&self, tab: TabId) -> bool {
                match tab {
                    $(TabId::$id => self.$folder.autoplays(),)*
                }
            }

            /// Where `tab`'s stepper is.
            pub fn stepper_at(&self, tab: TabId) -> Option<String> {
                match tab {
                    $(TabId::$id => self.$folder.stepper_at(),)*
                }
            }

            /// The prediction `tab` waits for now.
            pub fn asking(&self, tab: TabId) -> Option<Asking> {
                match tab {
                    $(TabId::$id => self.$folder.asking(),)*
                }
            }

            /// Every tab's graded predictions together.
            pub fn predictions(&self) -> Score {
                Score::default()$(.plus(self.$folder.predictions()))*
            }

            /// Holds every tab's answers for the teacher's reveal, or grades them at once.
            pub fn hold_answers(&mut self, hold: bool) {
                $(self.$folder.hold_answers(hold);)*
            }

            /// The teacher reveals `tab`'s question.
            pub fn reveal(&mut self, tab: TabId) -> Option<Message> {
                match tab {
                    $(TabId::$id => self.$folder.reveal(),)*
                }
            }

            /// Time passed for every tab; what the shown one (`shown`) says. With `None`
            /// every tab ticks as hidden (only its background work moves).
            pub fn tick(&mut self, shown: Option<TabId>) -> Vec<(TabId, Ticked)> {
                vec![$((TabId::$id, self.$folder.tick(shown == Some(TabId::$id))),)*]
            }

            /// The soonest any tab needs a tick.
            pub fn tick_interval(&self, shown: TabId) -> Option<Duration> {
                [$(self.$folder.tick_interval(shown == TabId::$id),)*]
                    .into_iter()
                    .flatten()
                    .min()
            }

            /// `tab` comes into view.
            pub fn on_show(&mut self, tab: TabId) -> Option<Message> {
                match tab {
                    $(TabId::$id => self.$folder.on_show(),)*
                }
            }

            /// The program is ending.
            pub fn on_exit(&mut self) {
                $(self.$folder.on_exit();)*
            }

            /// What quitting now would lose, tab by tab.
            pub fn unsaved(&self) -> Vec<&'static str> {
                let mut lost = Vec::new();
                $(lost.extend(self.$folder.unsaved());)*
                lost
            }

            /// Whether `tab`'s training waits for a free trainer.
            pub fn waits_for_trainer(&self, tab: TabId) -> bool {
                match tab {
                    $(TabId::$id => self.$folder.waits_for_trainer(),)*
                }
            }

            /// Whether `tab` trains now.
            pub fn is_training(&self, tab: TabId) -> bool {
                match tab {
                    $(TabId::$id => self.$folder.is_training(),)*
                }
            }

            /// `tab`'s settings panel, if it has one.
            pub fn settings(&self, tab: TabId) -> Option<Panel> {
                match tab {
                    $(TabId::$id => self.$folder.settings(),)*
                }
            }

            /// Puts what `tab`'s settings panel changed in force; what to say.
            pub fn apply_settings(&mut self, tab: TabId, changes: &[Change]) -> Message {
                match tab {
                    $(TabId::$id => self.$folder.apply_settings(changes),)*
                }
            }

            /// Draws `tab` into `area`.
            pub fn render(&self, tab: TabId, area: Rect, buf: &mut Buffer, theme: &Theme) {
                match tab {
                    $(TabId::$id => self.$folder.render(area, buf, theme),)*
                }
            }

            /// What a click at `at` on `tab`'s `area` asks.
            pub fn click(&self, tab: TabId, area: Rect, at: Position) -> Option<TabAction> {
                match tab {
                    $(TabId::$id => self.$folder.click(area, at).map(TabAction::$id),)*
                }
            }

            /// What a wheel turn at `at` on `tab`'s `area` asks.
            pub fn scroll(
                &self,
                tab: TabId,
                area: Rect,
                at: Position,
                down: bool,
            ) -> Option<TabAction> {
                match tab {
                    $(TabId::$id => self.$folder.scroll(area, at, down).map(TabAction::$id),)*
                }
            }

            /// The glyphs `tab` draws, for the help.
            pub fn symbols(&self, tab: TabId) -> Vec<Symbol> {
                match tab {
                    $(TabId::$id => self.$folder.symbols(),)*
                }
            }
        }
    };
}

each_tab!(tab_set);
