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
            6 SelfPlay "Self-play" selfplay::SelfPlayTab,
        }
    };
}

pub mod connect4;
pub mod id;
pub mod multipile;
pub mod selfplay;
pub mod state_graph;
pub mod subtraction;
/// The verdict on the answer an action graded, given the question waiting before it.
fn verdict(asked: Option<OpenQuestion>, right: Option<bool>) -> Option<Verdict> {
    Some(Verdict {
        asked: asked?,
        right: right?,
    })
}

#[cfg(test)]
mod testing;
pub mod tictactoe;

pub use id::TabId;

use crate::config::Config;
use crate::persist::{Problems, Store};
use crate::tabkit::keymap::Group;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{Change, Panel};
use crate::tabkit::tab::{
    ClassSide, Confirm, Effects, OpenQuestion, Score, Storage, Tab, Ticked, Training, Unsaved,
    Verdict,
};
use crate::widgets::symbols::{Gloss, Symbol};
use crate::widgets::{TabView, Theme};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use std::time::Duration;

/// Generates, from the list, everything that goes through every tab.
macro_rules! tab_set {
    ($($number:literal $id:ident $title:literal $folder:ident :: $Tab:ident,)*) => {
        /// Something for one tab: the tab's own action, tagged with the tab.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

        /// An AI move one tab made in the background, whole, as the journal keeps it (see
        /// [`Tab::Played`]).
        #[derive(Debug, Clone, PartialEq)]
        pub enum TabPlayed {
            $(
                #[allow(missing_docs)]
                $id(<$folder::$Tab as Tab>::Played),
            )*
        }

        impl TabPlayed {
            /// The tab whose AI moved.
            pub fn tab(&self) -> TabId {
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

            /// `tab` as the registry reaches every tab: one object type, no match per method.
            pub fn get(&self, tab: TabId) -> &dyn AnyTab {
                match tab {
                    $(TabId::$id => &self.$folder,)*
                }
            }

            /// `tab`, to change.
            pub fn get_mut(&mut self, tab: TabId) -> &mut dyn AnyTab {
                match tab {
                    $(TabId::$id => &mut self.$folder,)*
                }
            }

            /// Time passed for every tab; what each did, the AI moves it made among it.
            /// `shown` is the tab on screen; with `None` every tab ticks as hidden (only its
            /// background work moves).
            pub fn tick(&mut self, shown: Option<TabId>) -> Vec<(TabId, Ticked<TabPlayed>)> {
                vec![$({
                    let ticked = self.$folder.tick(shown == Some(TabId::$id));
                    (TabId::$id, Ticked {
                        changed: ticked.changed,
                        message: ticked.message,
                        played: ticked.played.into_iter().map(TabPlayed::$id).collect(),
                        started: ticked.started,
                    })
                },)*]
            }

            /// Performs `action` on its tab; what to say, and in `effects` what it did.
            pub fn update(
                &mut self,
                action: TabAction,
                effects: &mut Effects<TabPlayed>,
            ) -> Option<Message> {
                match action {
                    $(TabAction::$id(action) => {
                        let asked = self.$folder.open_question();
                        let mut own = Effects::default();
                        let said = Tab::update(&mut self.$folder, action, &mut own);
                        *effects = own.map_played(TabPlayed::$id);
                        effects.graded = verdict(asked, self.$folder.take_verdict());
                        said
                    })*
                }
            }

            /// Puts what `tab`'s settings panel changed in force; what to say, and in
            /// `effects` the AI moves it made.
            pub fn apply_settings(
                &mut self,
                tab: TabId,
                changes: &[Change],
                effects: &mut Effects<TabPlayed>,
            ) -> Message {
                match tab {
                    $(TabId::$id => {
                        let mut own = Effects::default();
                        let said = Tab::apply_settings(&mut self.$folder, changes, &mut own);
                        *effects = own.map_played(TabPlayed::$id);
                        said
                    })*
                }
            }

            /// Plays an AI move the followed session's tab made; what to say.
            pub fn play_recorded(&mut self, played: TabPlayed) -> Option<Message> {
                match played {
                    $(TabPlayed::$id(played) => Tab::play_recorded(&mut self.$folder, played),)*
                }
            }

            /// Every tab, in tab-bar order, to change.
            fn all_mut(&mut self) -> [&mut dyn AnyTab; TabId::ALL.len()] {
                [$(&mut self.$folder,)*]
            }

            /// Every tab, in tab-bar order.
            fn all(&self) -> [&dyn AnyTab; TabId::ALL.len()] {
                [$(&self.$folder,)*]
            }
        }

        $(
            impl OwnAction<<$folder::$Tab as Tab>::Action> for TabAction {
                fn own(self) -> Option<<$folder::$Tab as Tab>::Action> {
                    match self {
                        Self::$id(action) => Some(action),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )*
    };
}

each_tab!(tab_set);

/// A tab's own action read back from a [`TabAction`]: `None` when it is another tab's.
pub trait OwnAction<A> {
    /// The action, if it is this tab's.
    fn own(self) -> Option<A>;
}

/// A tab as the registry holds it: the `Tab`, `ClassSide` and `TabView` contracts with the
/// tab's own actions read from and written as [`TabAction`]s, so every tab is reached
/// through one object type.
pub trait AnyTab: ClassSide {
    /// See [`Tab::modal`].
    fn modal(&self) -> Option<&'static str>;
    /// See [`Tab::in_force`]; false for another tab's action.
    fn in_force(&self, action: TabAction) -> bool;
    /// See [`Tab::enabled`]; false for another tab's action.
    fn enabled(&self, action: TabAction) -> bool;
    /// See [`Tab::confirmation`].
    fn confirmation(&self, action: TabAction) -> Option<Confirm>;
    /// See [`Tab::answers`].
    fn answers(&self, action: TabAction) -> bool;
    /// See [`Tab::looks`].
    fn looks(&self, action: TabAction) -> bool;
    /// See [`Tab::tick_interval`].
    fn tick_interval(&self, shown: bool) -> Option<Duration>;
    /// See [`Tab::on_show`].
    fn on_show(&mut self) -> Option<Message>;
    /// See [`Tab::on_exit`].
    fn on_exit(&mut self);
    /// See [`Tab::unsaved`].
    fn unsaved(&self) -> Unsaved;
    /// See [`Tab::training`].
    fn training(&self) -> Training;
    /// See [`Tab::settings`].
    fn settings(&self) -> Option<Panel>;
    /// See [`TabView::render`].
    fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme);
    /// See [`TabView::click`].
    fn click(&self, area: Rect, at: Position) -> Option<TabAction>;
    /// See [`TabView::scroll`].
    fn scroll(&self, area: Rect, at: Position, down: bool) -> Option<TabAction>;
    /// See [`TabView::symbols`].
    fn symbols(&self) -> Vec<Symbol>;
    /// See [`TabView::words`].
    fn words(&self) -> Vec<Gloss>;
}

impl<T> AnyTab for T
where
    T: Tab + TabView,
    TabAction: OwnAction<T::Action> + From<T::Action>,
{
    fn modal(&self) -> Option<&'static str> {
        Tab::modal(self)
    }
    fn in_force(&self, action: TabAction) -> bool {
        action
            .own()
            .is_some_and(|action| Tab::in_force(self, action))
    }
    fn enabled(&self, action: TabAction) -> bool {
        action
            .own()
            .is_some_and(|action| Tab::enabled(self, action))
    }
    fn confirmation(&self, action: TabAction) -> Option<Confirm> {
        Tab::confirmation(self, action.own()?)
    }
    fn answers(&self, action: TabAction) -> bool {
        action
            .own()
            .is_some_and(|action| Tab::answers(self, action))
    }
    fn looks(&self, action: TabAction) -> bool {
        action.own().is_some_and(|action| Tab::looks(self, action))
    }
    fn tick_interval(&self, shown: bool) -> Option<Duration> {
        Tab::tick_interval(self, shown)
    }
    fn on_show(&mut self) -> Option<Message> {
        Tab::on_show(self)
    }
    fn on_exit(&mut self) {
        Tab::on_exit(self);
    }
    fn unsaved(&self) -> Unsaved {
        Tab::unsaved(self)
    }
    fn training(&self) -> Training {
        Tab::training(self)
    }
    fn settings(&self) -> Option<Panel> {
        Tab::settings(self)
    }
    fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        TabView::render(self, area, buf, theme);
    }
    fn click(&self, area: Rect, at: Position) -> Option<TabAction> {
        TabView::click(self, area, at).map(TabAction::from)
    }
    fn scroll(&self, area: Rect, at: Position, down: bool) -> Option<TabAction> {
        TabView::scroll(self, area, at, down).map(TabAction::from)
    }
    fn symbols(&self) -> Vec<Symbol> {
        TabView::symbols(self)
    }
    fn words(&self) -> Vec<Gloss> {
        TabView::words(self)
    }
}

/// What the app asks of the tabs, each through [`AnyTab`].
impl Tabs {
    /// What a key outside `tab`'s open menu says, while one is open.
    pub fn modal(&self, tab: TabId) -> Option<&'static str> {
        self.get(tab).modal()
    }

    /// Whether a binding for `action` is in force now.
    pub fn in_force(&self, action: TabAction) -> bool {
        self.get(action.tab()).in_force(action)
    }

    /// Whether `action` would do something now.
    pub fn enabled(&self, action: TabAction) -> bool {
        self.get(action.tab()).enabled(action)
    }

    /// The question to ask before `action`, if it throws work away.
    pub fn confirmation(&self, action: TabAction) -> Option<Confirm> {
        self.get(action.tab()).confirmation(action)
    }

    /// Whether `action` only answers a prediction.
    pub fn answers(&self, action: TabAction) -> bool {
        self.get(action.tab()).answers(action)
    }

    /// Whether `action` only opens something to read about the position.
    pub fn looks(&self, action: TabAction) -> bool {
        self.get(action.tab()).looks(action)
    }

    /// Whether `tab`'s AI thinks in the background now.
    pub fn busy(&self, tab: TabId) -> bool {
        self.get(tab).busy()
    }

    /// One autoplay step of `tab` now.
    pub fn autoplay_once(&mut self, tab: TabId) {
        self.get_mut(tab).autoplay_once();
    }

    /// Whether `tab`'s ticks step it on (autoplay).
    pub fn autoplays(&self, tab: TabId) -> bool {
        self.get(tab).autoplays()
    }

    /// Where `tab`'s stepper is.
    pub fn stepper_at(&self, tab: TabId) -> Option<String> {
        self.get(tab).stepper_at()
    }

    /// What `tab` has done, for a lesson step that waits for the doing.
    pub fn facts(&self, tab: TabId) -> crate::tabkit::facts::Facts {
        self.get(tab).facts()
    }

    /// The prediction `tab` waits for now.
    pub fn open_question(&self, tab: TabId) -> Option<OpenQuestion> {
        self.get(tab).open_question()
    }

    /// Every tab's graded predictions together.
    pub fn predictions(&self) -> Score {
        self.all()
            .iter()
            .fold(Score::default(), |sum, tab| sum.plus(tab.predictions()))
    }

    /// Holds every tab's answers for the teacher's reveal, or grades them at once.
    pub fn hold_answers(&mut self, hold: bool) {
        for tab in self.all_mut() {
            tab.hold_answers(hold);
        }
    }

    /// The teacher reveals `tab`'s question: what to say, and the held answer it graded.
    pub fn reveal(&mut self, tab: TabId) -> (Option<Message>, Option<Verdict>) {
        let tab = self.get_mut(tab);
        let asked = tab.open_question();
        let said = tab.reveal();
        (said, verdict(asked, tab.take_verdict()))
    }

    /// While `on`, every tab's AI moves come from the followed session's journal.
    pub fn moves_from_journal(&mut self, on: bool) {
        for tab in self.all_mut() {
            tab.moves_from_journal(on);
        }
    }

    /// The soonest any tab needs a tick.
    pub fn tick_interval(&self, shown: TabId) -> Option<Duration> {
        TabId::ALL
            .iter()
            .zip(self.all())
            .filter_map(|(&id, tab)| tab.tick_interval(shown == id))
            .min()
    }

    /// `tab` comes into view.
    pub fn on_show(&mut self, tab: TabId) -> Option<Message> {
        self.get_mut(tab).on_show()
    }

    /// The program is ending.
    pub fn on_exit(&mut self) {
        for tab in self.all_mut() {
            tab.on_exit();
        }
    }

    /// What quitting now would lose, tab by tab (the tabs that would lose something).
    pub fn unsaved(&self) -> Vec<(TabId, Unsaved)> {
        TabId::ALL
            .iter()
            .zip(self.all())
            .map(|(&id, tab)| (id, tab.unsaved()))
            .filter(|(_, lost)| !lost.is_empty())
            .collect()
    }

    /// Whether `tab`'s training waits for a free trainer.
    pub fn waits_for_trainer(&self, tab: TabId) -> bool {
        self.get(tab).training() == Training::Waiting
    }

    /// Whether `tab` trains now (or waits to).
    pub fn is_training(&self, tab: TabId) -> bool {
        self.get(tab).training().is_on()
    }

    /// `tab`'s settings panel, if it has one.
    pub fn settings(&self, tab: TabId) -> Option<Panel> {
        self.get(tab).settings()
    }

    /// The config key of `tab`'s setting called `key`, as the tab declares it (a saved
    /// session names its settings changes by key).
    pub fn setting_key(&self, tab: TabId, key: &str) -> Option<&'static str> {
        let panel = self.settings(tab)?;
        panel
            .settings
            .iter()
            .map(|setting| setting.spec.key)
            .find(|&declared| declared == key)
    }

    /// Draws `tab` into `area`.
    pub fn render(&self, tab: TabId, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.get(tab).render(area, buf, theme);
    }

    /// What a click at `at` on `tab`'s `area` asks.
    pub fn click(&self, tab: TabId, area: Rect, at: Position) -> Option<TabAction> {
        self.get(tab).click(area, at)
    }

    /// What a wheel turn at `at` on `tab`'s `area` asks.
    pub fn scroll(&self, tab: TabId, area: Rect, at: Position, down: bool) -> Option<TabAction> {
        self.get(tab).scroll(area, at, down)
    }

    /// The glyphs `tab` draws, for the help.
    pub fn symbols(&self, tab: TabId) -> Vec<Symbol> {
        self.get(tab).symbols()
    }

    /// The words `tab` glosses, for the help.
    pub fn words(&self, tab: TabId) -> Vec<Gloss> {
        self.get(tab).words()
    }
}
