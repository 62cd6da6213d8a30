//! The application state and the only place it changes: keys become [`Action`]s and
//! [`App::update`] applies them. No terminal types live here, so tests drive the whole app
//! headless.

pub mod background;
pub mod graph_tab;
pub mod keys;
pub mod log;
pub mod matches;
pub mod models;
pub mod nim_learners;
pub mod nim_tab;
pub mod search_tab;
pub mod subtraction_tab;
pub mod tree;

use crate::config::{Config, StartTab};
use crate::store::Store;
use graph_tab::GraphTab;
use keys::{Binding, Key, KeyGroup};
use log::MessageLog;
use models::Models;
use nim_tab::{NimAction, NimTab};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use search_tab::{Focus, GameKind, SearchTab, StepCommand};
use std::cell::Cell;
use std::collections::HashSet;
use std::time::{Duration, Instant};
use subtraction_tab::SubtractionTab;

/// Enough to scroll the longest help to its end on the smallest screen; the overlay
/// clamps what it shows.
const HELP_SCROLL_MAX: u16 = 60;

/// How often the loop takes in training progress while a network trains.
const TRAINING_POLL: Duration = Duration::from_millis(50);

/// The tabs, in tab-bar order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tab {
    /// Subtraction Nim against a multi-layer perceptron.
    SubtractionNim,
    /// Multi-pile Nim against a Q-learning agent.
    MultiPileNim,
    /// Nim as a weighted state graph.
    StateGraph,
    /// Tic-tac-toe and the Game of Eight against minimax / alpha-beta.
    TicTacToe,
}

impl Tab {
    /// Every tab, in order.
    pub const ALL: [Self; 4] = [
        Self::SubtractionNim,
        Self::MultiPileNim,
        Self::StateGraph,
        Self::TicTacToe,
    ];

    /// The title in the tab bar.
    pub const fn title(self) -> &'static str {
        match self {
            Self::SubtractionNim => "Subtraction Nim",
            Self::MultiPileNim => "Multi-pile Nim",
            Self::StateGraph => "State Graph",
            Self::TicTacToe => "Tic-tac-toe",
        }
    }

    /// Position in the bar, 0-based.
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|&t| t == self).unwrap_or(0)
    }

    /// The tab for function key F`n` (1-4); out of range stays in range.
    pub fn from_number(n: u8) -> Self {
        Self::ALL[usize::from(n.clamp(1, 4) - 1)]
    }

    fn offset(self, by: isize) -> Self {
        let len = Self::ALL.len() as isize;
        Self::ALL[(self.index() as isize + by).rem_euclid(len) as usize]
    }
}

impl From<StartTab> for Tab {
    fn from(tab: StartTab) -> Self {
        match tab {
            StartTab::SubtractionNim => Self::SubtractionNim,
            StartTab::MultiPileNim => Self::MultiPileNim,
            StartTab::StateGraph => Self::StateGraph,
            StartTab::TicTacToe => Self::TicTacToe,
        }
    }
}

/// Whether a message reports progress or a refusal; errors are marked by a glyph as well
/// as colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// Something happened.
    Info,
    /// Something was refused; nothing changed.
    Error,
}

/// The last message, shown in the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Info or error.
    pub kind: MessageKind,
    /// The sentence.
    pub text: String,
}

impl Message {
    /// An informational message.
    pub fn info(text: impl Into<String>) -> Self {
        Self {
            kind: MessageKind::Info,
            text: text.into(),
        }
    }

    /// A refusal; the state is unchanged.
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            kind: MessageKind::Error,
            text: text.into(),
        }
    }
}

/// A tab's message, with the reason nothing trains yet when its job waits in the pool.
fn say_if_waiting(message: Message, waits: bool) -> Message {
    if waits && message.kind == MessageKind::Info {
        Message::info(format!(
            "{}: {}",
            message.text,
            background::WAITING_FOR_TRAINER
        ))
    } else {
        message
    }
}

/// Everything the user can ask of the Tic-tac-toe tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchAction {
    /// Play a cell (1-9) or number (1-3); 0 and out-of-range are refused with a message.
    PlayCell(u8),
    /// Move the board cursor by (columns, rows).
    MoveCursor(i8, i8),
    /// Play the cell or number under the cursor.
    PlayAtCursor,
    /// Start a new game.
    NewGame,
    /// Tic-tac-toe / Eight.
    SwitchGame,
    /// Minimax / alpha-beta.
    ToggleAlgorithm,
    /// Step through each AI search, or let the AI move at once.
    ToggleStepMode,
    /// Play X or O.
    ToggleSide,
    /// Search the current position for the side to move, to step through it.
    Analyze,
    /// Board / tree focus.
    ToggleFocus,
    /// One event of the search.
    Step,
    /// The next child's whole subtree.
    StepOver,
    /// Finish the current node.
    StepOut,
    /// Undo one event.
    StepBack,
    /// Run the search to its end.
    RunToEnd,
    /// Autoplay on / off.
    ToggleAutoplay,
    /// Autoplay faster (`true`) or slower.
    AutoplaySpeed(bool),
    /// Play the move the stepped search chose.
    PlaySearchMove,
    /// Move the tree cursor by this many lines (`i32::MIN`/`MAX`: to the ends).
    TreeCursor(i32),
    /// Fold (`true`) or unfold the node under the tree cursor.
    TreeFold(bool),
    /// Unfold everything or fold back.
    TreeExpandAll,
    /// Cursor back to the current node.
    TreeToCurrent,
    /// A click on a line of the tree pane (0 = first visible line of the outline).
    TreeClick(usize),
}

/// Everything the user can ask of the Subtraction Nim tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubtractionAction {
    /// A digit of the starting pile or of a take.
    Digit(char),
    /// Delete the last digit.
    Backspace,
    /// Confirm the digits.
    Enter,
    /// Start a new game.
    NewGame,
    /// You or the AI first.
    ToggleFirst,
    /// Pause or resume training.
    TogglePause,
    /// Train a few epochs by hand.
    Step,
    /// Retrain with a new seed.
    Retrain,
    /// Next view of the right-hand pane.
    NextView,
    /// Scroll the table or move the weights cursor.
    Cursor(i8, i8),
}

/// Everything the user can ask of the State Graph tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphAction {
    /// Start or pause training.
    ToggleTraining,
    /// Learn from one random game and show it.
    Step,
    /// Every weight back to 0.
    Reset,
    /// A game against the graph.
    NewGame,
    /// Player 1 or 2.
    ToggleFirst,
    /// Take this many tokens.
    Take(u8),
    /// Move the vertex cursor.
    Cursor(i8, i8),
    /// Write the DOT file.
    Export,
}

/// Everything that can change the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Leave the program; asks once first when quitting would lose work.
    Quit,
    /// Leave the program at once (Ctrl-C), whatever would be lost.
    QuitNow,
    /// Next tab.
    NextTab,
    /// Previous tab.
    PrevTab,
    /// A given tab.
    SelectTab(Tab),
    /// Open or close the help overlay.
    ToggleHelp,
    /// Close whatever overlay is open.
    CloseOverlay,
    /// Scroll the help overlay by this many lines.
    ScrollHelp(i16),
    /// Open or close the message log.
    ToggleLog,
    /// Scroll the message log or the exported text by this many lines.
    ScrollOverlay(i16),
    /// A key pressed while a confirmation was asked for that is not the confirming key: it
    /// cancels the confirmation and does nothing else.
    Cancel,
    /// A key that cannot act on anything the user can see now; the sentence says why.
    Refused(&'static str),
    /// A key of a pane or overlay that does not have the keys now.
    Elsewhere {
        /// The binding's keys as the help writes them.
        label: &'static str,
        /// What the binding does.
        what: &'static str,
        /// The key group (pane) it belongs to.
        group: &'static str,
    },
    /// Something for the Tic-tac-toe tab.
    Search(SearchAction),
    /// Something for the Subtraction Nim tab.
    Subtraction(SubtractionAction),
    /// Something for the State Graph tab.
    Graph(GraphAction),
    /// Something for the Multi-pile Nim tab.
    Nim(NimAction),
    /// Time passed while something runs by itself (autoplay).
    Tick,
    /// The terminal changed size: redraw.
    Resize,
    /// Nothing to do (an unbound key).
    Noop,
}

/// An overlay over the tab besides help: the message log, or exported text to copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// The last messages, whole, newest last.
    Log,
    /// Text the user may copy (an export that a shared server does not write to a file).
    Text {
        /// What the text is, for the overlay's title line.
        title: String,
        /// The text itself, drawn plain so a terminal selection copies it as it is.
        text: String,
    },
}

/// An action that waits for its key to be pressed a second time.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pending {
    /// The action the second press performs.
    action: Action,
    /// What the status line says when another key cancels it.
    cancelled: String,
}

/// What the learners held when the app started, so quitting can tell what a session
/// without a data dir trained since.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Baseline {
    graph_games: u64,
    q_games: Option<u64>,
    net_epochs: usize,
    subtraction_epochs: usize,
}

/// A learner that quitting can lose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Learner {
    Graph,
    QTable,
    NimNet,
    Subtraction,
}

impl Learner {
    /// The learner `action` trains, if it trains one. Training that starts by itself the
    /// first time a tab is shown is not a key's: it starts again by itself next time, so
    /// losing it loses nothing.
    fn trained_by(action: Action) -> Option<Self> {
        match action {
            Action::Graph(GraphAction::ToggleTraining | GraphAction::Step) => Some(Self::Graph),
            Action::Nim(NimAction::QTrain | NimAction::QStep | NimAction::QRetrain) => {
                Some(Self::QTable)
            }
            Action::Nim(NimAction::NetTrain | NimAction::NetRetrain) => Some(Self::NimNet),
            Action::Subtraction(
                SubtractionAction::TogglePause
                | SubtractionAction::Step
                | SubtractionAction::Retrain,
            ) => Some(Self::Subtraction),
            _ => None,
        }
    }
}

/// Where trained models go, which decides what quitting loses and how it is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// A data dir: the tabs save their learners.
    DataDir,
    /// No data dir (none could be found, or tests): nothing is written.
    Nowhere,
    /// A session of a shared server (`ai-arcade serve`): nothing it does is written.
    SharedServer,
}

/// The whole application state.
pub struct App {
    /// False once the user quit.
    pub running: bool,
    /// The tab shown.
    pub tab: Tab,
    /// The help overlay is open.
    pub help_open: bool,
    /// First line of the help overlay shown; clamped to the content while drawing (the
    /// height is only known there), as ratatui's list state is.
    pub help_scroll: Cell<u16>,
    /// The last message.
    pub message: Option<Message>,
    /// The last messages, for the log overlay.
    pub log: MessageLog,
    /// The message log or exported text, when one is open (help has its own flag).
    pub overlay: Option<Overlay>,
    /// First line of the overlay shown; clamped while drawing, as `help_scroll` is.
    pub overlay_scroll: Cell<u16>,
    /// Where trained models go.
    pub storage: Storage,
    /// The Tic-tac-toe tab.
    pub search: SearchTab,
    /// The Subtraction Nim tab.
    pub subtraction: SubtractionTab,
    /// The State Graph tab.
    pub graph: GraphTab,
    /// The Multi-pile Nim tab.
    pub nim: NimTab,
    /// The seed every random choice flows from, shown in the help so a run can be repeated.
    pub seed: u64,
    /// Milliseconds between autoplay steps.
    pub autoplay_interval: Duration,
    /// Draw with colours (false under `NO_COLOR`).
    pub color: bool,
    /// When autoplay last stepped.
    last_autoplay: Instant,
    /// Whether the Subtraction Nim and the Multi-pile Nim networks' jobs waited for a free
    /// trainer at the last tick: a change is worth a redraw, and starting a message.
    trainers_waited: (bool, bool),
    rng: ChaCha8Rng,
    /// The action waiting for its key a second time.
    pending: Option<Pending>,
    /// What the learners held at the start.
    baseline: Baseline,
    /// The learners the user trained by key.
    trained: HashSet<Learner>,
}

impl App {
    /// The app as `config` sets it up, with every random choice drawn from `seed`.
    pub fn new(config: &Config, seed: u64) -> Self {
        Self::with_store(config, seed, None)
    }

    /// The app with a data dir to load and save trained models in (`None`: nothing is read
    /// or written, as in tests).
    pub fn with_store(config: &Config, seed: u64, store: Option<Store>) -> Self {
        let models = store
            .as_ref()
            .map_or_else(Models::default, |store| Models::load(config, store));
        Self::from_models(config, seed, models, store)
    }

    /// The app starting from models read earlier (a server reads them once and gives each
    /// session a copy): training changes only this app's copy, and nothing is written.
    pub fn with_models(config: &Config, seed: u64, models: &Models) -> Self {
        let mut app = Self::from_models(config, seed, models.clone(), None);
        app.storage = Storage::SharedServer;
        app
    }

    fn from_models(config: &Config, seed: u64, models: Models, store: Option<Store>) -> Self {
        let storage = if store.is_some() {
            Storage::DataDir
        } else {
            Storage::Nowhere
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (search, message) = SearchTab::new(config, &mut rng);
        let graph = GraphTab::from_loaded(&config.graph, seed, models.graph, store.clone());
        let nim = NimTab::from_loaded(config, seed, models.nim_q, models.nim_net, store.clone());
        let subtraction =
            SubtractionTab::from_loaded(&config.subtraction, seed, models.subtraction, store);
        let mut app = Self {
            running: true,
            tab: config.ui.start_tab.into(),
            help_open: false,
            help_scroll: Cell::new(0),
            message: None,
            log: MessageLog::default(),
            overlay: None,
            overlay_scroll: Cell::new(0),
            storage,
            search,
            subtraction,
            graph,
            nim,
            seed,
            autoplay_interval: Duration::from_millis(config.search.autoplay_ms),
            color: true,
            last_autoplay: Instant::now(),
            trainers_waited: (false, false),
            rng,
            pending: None,
            baseline: Baseline {
                graph_games: 0,
                q_games: None,
                net_epochs: 0,
                subtraction_epochs: 0,
            },
            trained: HashSet::new(),
        };
        app.baseline = app.learned();
        let mut message = message;
        if app.tab == Tab::SubtractionNim {
            message = app.subtraction.on_show().or(message);
        }
        if app.tab == Tab::MultiPileNim {
            message = app.nim.on_show().or(message);
        }
        if let Some(message) = message {
            app.say(message);
        }
        app
    }

    /// True while a question waits for its key a second time (`q again to quit: …`).
    pub fn is_asking(&self) -> bool {
        self.pending.is_some()
    }

    /// Shows `message` in the status line and keeps it in the log.
    pub fn say(&mut self, message: Message) {
        self.log.push(message.clone());
        self.message = Some(message);
    }

    /// How much each learner holds now.
    fn learned(&self) -> Baseline {
        Baseline {
            graph_games: self.graph.graph.games,
            q_games: self.nim.q.trainer.as_ref().ok().map(|t| t.games as u64),
            net_epochs: self.nim.net.trainer.epochs(),
            subtraction_epochs: self.subtraction.trainer.epoch,
        }
    }

    /// What quitting now would lose, as the end of a sentence ("the Q-table you trained is
    /// not saved on this server"), or `None` when nothing would be. Without a data dir
    /// (a shared server's session) that is everything the user trained or stepped since the
    /// start; with one, the tabs save their learners on the way out except an unfinished
    /// Subtraction Nim run, and a stepped search is never saved. Training that started by
    /// itself on a tab's first view is not counted: it starts again by itself.
    pub fn quit_loses(&self) -> Option<String> {
        let now = self.learned();
        let start = self.baseline;
        let mut lost = Vec::new();
        if self.storage == Storage::DataDir {
            let sub = &self.subtraction;
            if self.trained.contains(&Learner::Subtraction)
                && !sub.trainer.is_done()
                && now.subtraction_epochs > 0
            {
                lost.push("the Subtraction Nim network's unfinished training");
            }
        } else {
            let grew = |learner: Learner, now: u64, start: u64| {
                self.trained.contains(&learner) && now != start && now > 0
            };
            if grew(Learner::Graph, now.graph_games, start.graph_games) {
                lost.push("the state graph you trained");
            }
            if grew(
                Learner::QTable,
                now.q_games.unwrap_or(0),
                start.q_games.unwrap_or(0),
            ) {
                lost.push("the Q-table you trained");
            }
            if grew(
                Learner::NimNet,
                now.net_epochs as u64,
                start.net_epochs as u64,
            ) {
                lost.push("the Multi-pile network you trained");
            }
            if grew(
                Learner::Subtraction,
                now.subtraction_epochs as u64,
                start.subtraction_epochs as u64,
            ) {
                lost.push("the Subtraction Nim network you trained");
            }
        }
        if self.search.stepped_search() {
            lost.push("the search you stepped");
        }
        let (last, rest) = lost.split_last()?;
        let list = if rest.is_empty() {
            (*last).to_string()
        } else {
            format!("{} and {last}", rest.join(", "))
        };
        let verb = if rest.is_empty() { "is" } else { "are" };
        let place = match self.storage {
            Storage::SharedServer => " on this server",
            Storage::DataDir => "",
            Storage::Nowhere => " (no data dir)",
        };
        Some(format!("{list} {verb} not saved{place}"))
    }

    /// The program is ending (quit, signal or lost terminal): lets the tabs keep what
    /// their learners have learned so far.
    pub fn on_exit(&mut self) {
        self.nim.on_exit();
        if self.graph.training {
            // Pausing saves the games learned so far.
            self.graph.toggle_training();
        }
    }

    /// The key groups in force now, most specific first: the first that matches a key wins.
    pub fn active_keys(&self) -> Vec<KeyGroup> {
        match self.overlay {
            Some(Overlay::Log) => return vec![keys::LOG_OVERLAY],
            Some(Overlay::Text { .. }) => return vec![keys::TEXT_OVERLAY],
            None => {}
        }
        if self.help_open {
            return vec![keys::HELP_OVERLAY];
        }
        let mut groups = Vec::new();
        if self.tab == Tab::SubtractionNim {
            groups.push(keys::SUBTRACTION);
        }
        if self.tab == Tab::StateGraph {
            groups.push(keys::GRAPH);
            groups.push(keys::graph_take_keys(self.graph.graph.max_take));
        }
        if self.tab == Tab::MultiPileNim {
            if self.nim.menu.is_some() {
                return vec![keys::NIM_MENU, keys::GLOBAL];
            }
            groups.push(if self.nim.pane_focus {
                keys::NIM_PANE
            } else {
                keys::NIM_PILES
            });
            groups.push(keys::NIM);
        }
        if self.tab == Tab::TicTacToe {
            let tab = &self.search;
            if tab.has_search() {
                groups.push(keys::STEPPER);
            }
            groups.push(keys::SEARCH_FOCUS);
            groups.push(match tab.focus {
                Focus::Tree => keys::TREE,
                Focus::Board => keys::BOARD_CURSOR,
            });
            groups.push(match tab.game {
                GameKind::TicTacToe => keys::TICTACTOE_CHOICES,
                GameKind::Eight => keys::EIGHT_CHOICES,
            });
            groups.push(keys::SEARCH_TAB);
        }
        groups.push(keys::GLOBAL);
        groups
    }

    /// Every key group of the current tab, for the help overlay.
    pub fn help_keys(&self) -> Vec<KeyGroup> {
        match self.tab {
            Tab::TicTacToe => vec![
                keys::GLOBAL,
                keys::SEARCH_TAB,
                keys::SEARCH_FOCUS,
                keys::TICTACTOE_CHOICES,
                keys::EIGHT_CHOICES,
                keys::BOARD_CURSOR,
                keys::STEPPER,
                keys::TREE,
            ],
            Tab::SubtractionNim => vec![keys::GLOBAL, keys::SUBTRACTION],
            Tab::StateGraph => vec![
                keys::GLOBAL,
                keys::GRAPH,
                keys::graph_take_keys(self.graph.graph.max_take),
            ],
            Tab::MultiPileNim => vec![
                keys::GLOBAL,
                keys::NIM,
                keys::NIM_PILES,
                keys::NIM_PANE,
                keys::NIM_MENU,
            ],
        }
    }

    /// The main keys now, for the status line: the same table that drives the keys, less
    /// the keys that would only be refused right now, global keys first.
    pub fn hints(&self) -> Vec<Binding> {
        let mut groups = self.active_keys();
        groups.rotate_right(1);
        groups
            .iter()
            .flat_map(|group| group.bindings.iter())
            .filter(|binding| !binding.hint.is_empty())
            .filter(|binding| self.binding_applies(binding) && self.worth_hinting(binding))
            .copied()
            .collect()
    }

    /// Whether a key would do something now (the rest stay bound, and explain themselves
    /// with a message, but are left out of the status line).
    fn worth_hinting(&self, binding: &Binding) -> bool {
        let tab = &self.search;
        match (binding.action)(binding.keys[0]) {
            Action::Search(
                SearchAction::Step
                | SearchAction::StepOver
                | SearchAction::StepOut
                | SearchAction::RunToEnd
                | SearchAction::ToggleAutoplay,
            ) => !tab.search_finished(),
            Action::Search(SearchAction::StepBack) => tab.search_started(),
            Action::Search(SearchAction::PlayCell(_) | SearchAction::Analyze) => {
                tab.human_to_move()
            }
            Action::Search(SearchAction::ToggleAlgorithm | SearchAction::ToggleStepMode) => {
                !tab.game_over()
            }
            Action::Subtraction(SubtractionAction::Digit(_)) => !self.subtraction.game_over(),
            Action::Subtraction(SubtractionAction::TogglePause) => {
                !self.subtraction.trainer.is_done()
            }
            Action::Nim(
                NimAction::Confirm
                | NimAction::SelectPile(_)
                | NimAction::Count(_)
                | NimAction::Digit(_),
            ) => self.nim.human_to_move && !self.nim.game_over(),
            Action::Nim(NimAction::PaneBack) => !self.nim.browse.is_empty(),
            Action::Nim(NimAction::QStep | NimAction::QTrain | NimAction::QRetrain) => {
                self.nim.q.trainer.is_ok()
            }
            Action::Subtraction(SubtractionAction::Step) => {
                !self.subtraction.is_training() && !self.subtraction.trainer.is_done()
            }
            _ => true,
        }
    }

    fn binding_applies(&self, binding: &Binding) -> bool {
        // Enter in the stepper group plays the AI's move only while one is waiting.
        let plays = (binding.action)(Key::Enter) == Action::Search(SearchAction::PlaySearchMove);
        !plays || self.search.current_awaits_step()
    }

    /// The action a key stands for now, from the active key tables. While a confirmation
    /// waits, every key but the confirming one (and Ctrl-C) cancels it; a key that does
    /// nothing here but belongs to a pane or overlay not in front says so.
    pub fn action_for_key(&self, key: Key) -> Action {
        let action = self
            .active_keys()
            .iter()
            .flat_map(|group| group.bindings.iter())
            .filter(|binding| self.binding_applies(binding))
            .find(|binding| binding.matches(key))
            .map_or(Action::Noop, |binding| (binding.action)(key));
        if let Some(pending) = &self.pending {
            return if action == pending.action || action == Action::QuitNow {
                action
            } else {
                Action::Cancel
            };
        }
        if action == Action::Noop {
            return self.why_nothing(key);
        }
        action
    }

    /// Why a key that is bound to nothing now does nothing: an overlay in front takes the
    /// keys, or the key belongs to another pane of the tab. `Noop` for keys the tab never
    /// uses.
    fn why_nothing(&self, key: Key) -> Action {
        match self.overlay {
            Some(Overlay::Log) => return Action::Refused("The message log is open: Esc closes it"),
            Some(Overlay::Text { .. }) => {
                return Action::Refused("The exported text is open: Esc closes it");
            }
            None => {}
        }
        if self.help_open {
            return Action::Refused("Help is open over the tab: Esc closes it");
        }
        if self.tab == Tab::MultiPileNim && self.nim.menu.is_some() {
            return Action::Refused("The opponent menu is open: Esc closes it");
        }
        let active = self.active_keys();
        self.help_keys()
            .iter()
            .filter(|group| !active.iter().any(|a| a.title == group.title))
            .flat_map(|group| group.bindings.iter().map(move |b| (group.title, b)))
            .find(|(_, binding)| binding.matches(key))
            .map_or(Action::Noop, |(group, binding)| Action::Elsewhere {
                label: binding.label,
                what: binding.description,
                group,
            })
    }

    /// The label of the key that stands for `action` now, for "press it again" questions.
    fn key_label(&self, action: Action) -> &'static str {
        self.active_keys()
            .iter()
            .flat_map(|group| group.bindings.iter())
            .find(|binding| binding.keys.iter().any(|&k| (binding.action)(k) == action))
            .map_or("the same key", |binding| binding.label)
    }

    /// The question to ask before `action`, when it would throw away training or work; the
    /// same key pressed again performs it.
    fn confirmation(&self, action: Action) -> Option<(String, Pending)> {
        let key = self.key_label(action);
        let count = |n: u64| crate::text::thousands(n);
        let (question, cancelled) = match action {
            Action::Quit => {
                let lost = self.quit_loses()?;
                (
                    format!("{key} again to quit: {lost}"),
                    "Not quitting".to_string(),
                )
            }
            Action::Graph(GraphAction::Reset) if self.graph.graph.games > 0 => {
                let games = count(self.graph.graph.games);
                (
                    format!("{key} again to zero {games} games of training"),
                    format!("Not zeroed: the graph keeps its {games} games"),
                )
            }
            Action::Subtraction(SubtractionAction::Retrain)
                if self.subtraction.trainer.epoch > 0 =>
            {
                let epochs = count(self.subtraction.trainer.epoch as u64);
                (
                    format!(
                        "{key} again to retrain from fresh weights: drops {epochs} epochs of training"
                    ),
                    format!("Not retrained: the network keeps its {epochs} epochs"),
                )
            }
            Action::Nim(NimAction::QRetrain) => {
                let games = self.learned().q_games.filter(|&g| g > 0)?;
                let games = count(games);
                (
                    format!("{key} again to empty the Q-table: drops {games} games of training"),
                    format!("Not retrained: the Q-table keeps its {games} games"),
                )
            }
            Action::Nim(NimAction::NetRetrain) if self.nim.net.trainer.epochs() > 0 => {
                let epochs = count(self.nim.net.trainer.epochs() as u64);
                (
                    format!(
                        "{key} again to retrain the network: drops {epochs} epochs of training"
                    ),
                    format!("Not retrained: the network keeps its {epochs} epochs"),
                )
            }
            _ => return None,
        };
        Some((question, Pending { action, cancelled }))
    }

    /// Applies a key press: looks it up and updates. Returns whether anything changed.
    pub fn handle_key(&mut self, key: Key) -> bool {
        let action = self.action_for_key(key);
        self.update(action)
    }

    /// How long the event loop may sleep before it must tick; `None` means it may block
    /// until input arrives (nothing runs by itself).
    pub fn tick_interval(&self) -> Option<Duration> {
        if self.subtraction.is_training() || self.graph.training || self.nim.is_training() {
            return Some(TRAINING_POLL);
        }
        (self.tab == Tab::TicTacToe && self.search.autoplay).then_some(self.autoplay_interval)
    }

    /// The one place state changes. Returns whether a redraw is needed.
    ///
    /// An action that would throw away training or work (`q` with unsaved work, zeroing or
    /// retraining a trained learner) asks first; the same action again performs it, and any
    /// other (a key, a click) only cancels: it is not acted on, so a key meant for the game
    /// does not fire while the user reads the question.
    pub fn update(&mut self, action: Action) -> bool {
        match action {
            Action::Noop => return false,
            Action::Cancel if self.pending.is_none() => return false,
            Action::Tick => return self.tick(),
            Action::Resize => return true,
            Action::QuitNow => {
                self.running = false;
                return true;
            }
            _ => {}
        }
        if let Some(pending) = self.pending.take() {
            if action == pending.action {
                return self.apply(action);
            }
            self.say(Message::info(pending.cancelled));
            return true;
        }
        if let Some((question, pending)) = self.confirmation(action) {
            self.say(Message::info(question));
            self.pending = Some(pending);
            return true;
        }
        self.apply(action)
    }

    /// Performs `action` (confirmed, or not needing confirmation).
    fn apply(&mut self, action: Action) -> bool {
        if let Some(learner) = Learner::trained_by(action) {
            self.trained.insert(learner);
        }
        match action {
            Action::Noop | Action::Cancel | Action::Tick | Action::Resize => return false,
            Action::Quit | Action::QuitNow => self.running = false,
            Action::Refused(why) => self.say(Message::error(why)),
            Action::Elsewhere { label, what, group } => {
                self.say(Message::error(format!(
                    "{label} ({what}) is a key of: {group}"
                )));
            }
            Action::ToggleLog => {
                self.help_open = false;
                self.overlay = match self.overlay {
                    Some(Overlay::Log) => None,
                    _ => Some(Overlay::Log),
                };
                // Newest last: open at the end (clamped while drawing).
                self.overlay_scroll.set(u16::MAX);
            }
            Action::ScrollOverlay(by) => {
                let scroll = self.overlay_scroll.get().saturating_add_signed(by);
                self.overlay_scroll.set(scroll);
            }
            Action::NextTab => self.show_tab(self.tab.offset(1)),
            Action::PrevTab => self.show_tab(self.tab.offset(-1)),
            Action::SelectTab(tab) => self.show_tab(tab),
            Action::ToggleHelp => {
                self.help_open = !self.help_open;
                self.help_scroll.set(0);
            }
            Action::CloseOverlay => {
                if self.overlay.take().is_none() {
                    self.help_open = false;
                }
            }
            Action::ScrollHelp(by) => {
                let scroll = self.help_scroll.get().saturating_add_signed(by);
                self.help_scroll.set(scroll.min(HELP_SCROLL_MAX));
            }
            Action::Subtraction(SubtractionAction::Cursor(..))
                if self.subtraction.view == subtraction_tab::NimView::Training =>
            {
                self.say(Message::error(
                    "The arrows scroll the table or pick a unit of the weights: v shows them",
                ));
            }
            Action::Subtraction(action) => {
                if let Some(message) = self.update_subtraction(action) {
                    let waits = self.subtraction.waits_for_trainer();
                    self.say(say_if_waiting(message, waits));
                }
            }
            Action::Graph(action) => {
                if let Some(message) = self.update_graph(action) {
                    self.say(message);
                }
            }
            Action::Nim(action) if nim_pane_refusal(action, self.nim.pane).is_some() => {
                if let Some(why) = nim_pane_refusal(action, self.nim.pane) {
                    self.say(Message::error(why));
                }
            }
            Action::Nim(action) => {
                let focus = self.nim.pane_focus;
                let mut message = self.nim.apply(action);
                if self.nim.pane_focus != focus && action != NimAction::ToggleFocus {
                    message = Some(focus_moved(message, self.nim_focus_words()));
                }
                if let Some(message) = message {
                    let waits = self.nim.net.waits_for_trainer();
                    self.say(say_if_waiting(message, waits));
                }
            }
            Action::Search(action) => {
                let focus = self.search.focus;
                let mut message = self.update_search(action);
                if self.search.focus != focus && action != SearchAction::ToggleFocus {
                    message = Some(focus_moved(message, search_focus_words(self.search.focus)));
                }
                if let Some(message) = message {
                    self.say(message);
                }
            }
        }
        true
    }

    fn nim_focus_words(&self) -> &'static str {
        if self.nim.pane_focus {
            "the keys moved to the pane (f: back to the piles)"
        } else {
            "the keys moved to the piles (f: to the pane)"
        }
    }

    /// Time passed: take in training progress, and step autoplay when its interval is up
    /// (training ticks come faster than autoplay's pace). Returns whether to redraw.
    fn tick(&mut self) -> bool {
        // A job waiting for a free trainer changes nothing on screen until it starts.
        let waited = self.trainers_waited;
        let training = (self.subtraction.is_training() && !self.subtraction.waits_for_trainer())
            || self.graph.training
            || self.nim.q.training
            || (self.nim.net.is_training() && !self.nim.net.waits_for_trainer());
        if let Some(message) = self.nim.tick()
            && self.tab == Tab::MultiPileNim
        {
            self.say(message);
        }
        if let Some(message) = self.graph.tick()
            && self.tab == Tab::StateGraph
        {
            self.say(message);
        }
        if let Some(message) = self.subtraction.poll()
            && self.tab == Tab::SubtractionNim
        {
            self.say(message);
        }
        let autoplay_due = self.tab == Tab::TicTacToe
            && self.search.autoplay
            && self.last_autoplay.elapsed() >= self.autoplay_interval;
        if autoplay_due {
            self.last_autoplay = Instant::now();
            if let Some(message) = self.search.tick() {
                self.say(message);
            }
        }
        let waits = (
            self.subtraction.waits_for_trainer(),
            self.nim.net.waits_for_trainer(),
        );
        let started = match self.tab {
            Tab::SubtractionNim => waited.0 && !waits.0 && self.subtraction.is_training(),
            Tab::MultiPileNim => waited.1 && !waits.1 && self.nim.net.is_training(),
            _ => false,
        };
        if started {
            self.say(Message::info("A trainer is free: training started"));
        }
        self.trainers_waited = waits;
        training || autoplay_due || waits != waited
    }

    fn show_tab(&mut self, tab: Tab) {
        if tab != self.tab {
            self.tab = tab;
            self.message = None;
            let shown = match tab {
                Tab::SubtractionNim => {
                    let waits = self.subtraction.waits_for_trainer();
                    self.subtraction.on_show().map(|m| say_if_waiting(m, waits))
                }
                Tab::MultiPileNim => {
                    let waits = self.nim.net.waits_for_trainer();
                    self.nim.on_show().map(|m| say_if_waiting(m, waits))
                }
                Tab::StateGraph | Tab::TicTacToe => None,
            };
            if let Some(message) = shown {
                self.say(message);
            }
        }
    }

    fn update_graph(&mut self, action: GraphAction) -> Option<Message> {
        if action == GraphAction::Export && !self.graph.can_export() {
            return Some(self.show_export());
        }
        let tab = &mut self.graph;
        Some(match action {
            GraphAction::ToggleTraining => tab.toggle_training(),
            GraphAction::Step => tab.step_game(),
            GraphAction::Reset => tab.reset(),
            GraphAction::NewGame => tab.new_game(),
            GraphAction::ToggleFirst => tab.toggle_first(),
            GraphAction::Take(n) => tab.human_take(u32::from(n)),
            GraphAction::Cursor(dx, dy) => {
                tab.move_cursor(dx, dy);
                return None;
            }
            GraphAction::Export => tab.export(),
        })
    }

    /// With no data dir to write to, `x` shows the DOT text in an overlay to copy.
    fn show_export(&mut self) -> Message {
        self.help_open = false;
        self.overlay = Some(Overlay::Text {
            title: "The state graph as Graphviz DOT".to_string(),
            text: self.graph.graph.to_dot(),
        });
        self.overlay_scroll.set(0);
        Message::info(if self.storage == Storage::SharedServer {
            "Exports are not saved on a shared server: here is the text to copy"
        } else {
            "No data dir to save to (see --data-dir): here is the text to copy"
        })
    }

    fn update_subtraction(&mut self, action: SubtractionAction) -> Option<Message> {
        let tab = &mut self.subtraction;
        match action {
            SubtractionAction::Digit(c) => tab.type_digit(c),
            SubtractionAction::Backspace => {
                tab.backspace();
                None
            }
            SubtractionAction::Enter => tab.enter(),
            SubtractionAction::NewGame => Some(tab.new_game()),
            SubtractionAction::ToggleFirst => Some(tab.toggle_first()),
            SubtractionAction::TogglePause => Some(tab.toggle_pause()),
            SubtractionAction::Step => Some(tab.step_training()),
            SubtractionAction::Retrain => Some(tab.retrain()),
            SubtractionAction::NextView => {
                tab.next_view();
                None
            }
            SubtractionAction::Cursor(dx, dy) => {
                tab.cursor(dx, dy);
                None
            }
        }
    }

    /// Autoplay twice as fast or half as fast, within the config's bounds.
    fn change_autoplay_speed(&mut self, faster: bool) -> Message {
        let ms = self.autoplay_interval.as_millis() as u64;
        let ms = if faster { ms / 2 } else { ms * 2 };
        let ms = ms.clamp(
            *crate::config::AUTOPLAY_MS_RANGE.start(),
            *crate::config::AUTOPLAY_MS_RANGE.end(),
        );
        self.autoplay_interval = Duration::from_millis(ms);
        Message::info(format!(
            "Autoplay speed: {} (one step every {ms} ms; + faster, - slower)",
            self.autoplay_speed()
        ))
    }

    /// Autoplay's pace in steps a second, as the screen shows it (`4/s`, `0.5/s`).
    pub fn autoplay_speed(&self) -> String {
        let per_second = 1000.0 / self.autoplay_interval.as_millis().max(1) as f64;
        if per_second >= 10.0 || per_second.fract() == 0.0 {
            format!("{per_second:.0}/s")
        } else {
            format!("{per_second:.1}/s")
        }
    }

    fn update_search(&mut self, action: SearchAction) -> Option<Message> {
        let tab = &mut self.search;
        let rng = &mut self.rng;
        match action {
            SearchAction::PlayCell(choice) => tab.play(choice),
            SearchAction::MoveCursor(dx, dy) => {
                tab.move_cursor(dx, dy);
                None
            }
            SearchAction::PlayAtCursor => tab.play_at_cursor(),
            SearchAction::NewGame => tab.new_game(rng),
            SearchAction::SwitchGame => tab.switch_game(),
            SearchAction::ToggleAlgorithm => tab.toggle_algorithm(),
            SearchAction::ToggleStepMode => tab.toggle_step_mode(),
            SearchAction::ToggleSide => tab.toggle_side(rng),
            SearchAction::Analyze => tab.analyze(),
            SearchAction::ToggleFocus => tab.toggle_focus(),
            SearchAction::Step => tab.step(StepCommand::Step),
            SearchAction::StepOver => tab.step(StepCommand::Over),
            SearchAction::StepOut => tab.step(StepCommand::Out),
            SearchAction::StepBack => tab.step(StepCommand::Back),
            SearchAction::RunToEnd => tab.step(StepCommand::RunToEnd),
            SearchAction::ToggleAutoplay => tab.toggle_autoplay(),
            SearchAction::AutoplaySpeed(faster) => Some(self.change_autoplay_speed(faster)),
            SearchAction::PlaySearchMove => tab.play_search_move(),
            SearchAction::TreeCursor(delta) => {
                tab.tree_cursor(delta);
                None
            }
            SearchAction::TreeFold(fold) => tab.tree_fold(fold),
            SearchAction::TreeExpandAll => tab.tree_expand_all(),
            SearchAction::TreeToCurrent => {
                tab.tree_to_current();
                None
            }
            SearchAction::TreeClick(line) => tab.tree_click(line),
        }
    }
}

/// Why a pane key does nothing in the pane's current view (it would change what another
/// view shows, unseen), or `None` when it acts here.
fn nim_pane_refusal(action: NimAction, pane: nim_tab::Pane) -> Option<&'static str> {
    use nim_tab::Pane;
    match action {
        NimAction::PaneMove(_) | NimAction::PaneEnter
            if !matches!(pane, Pane::Edges | Pane::Table) =>
        {
            Some("The pane's cursor works in the edges and Q-table views: v shows them")
        }
        NimAction::PaneBack | NimAction::PaneHome if pane != Pane::Edges => {
            Some("← and . walk the browsed path in the edges view: v shows it")
        }
        _ => None,
    }
}

/// `message` with a note that a key moved the focus by itself (or the note alone).
fn focus_moved(message: Option<Message>, note: &str) -> Message {
    match message {
        Some(message) => Message {
            text: format!("{}; {note}", message.text),
            kind: message.kind,
        },
        None => Message::info(capitalized(note)),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

fn search_focus_words(focus: Focus) -> &'static str {
    match focus {
        Focus::Tree => "the keys moved to the tree pane (f: back to the board)",
        Focus::Board => "the keys moved to the board (f: to the tree)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FirstMover;

    fn app(first: FirstMover, step: bool) -> App {
        let mut config = Config::default();
        config.tictactoe.first = first;
        config.search.step = step;
        App::new(&config, 5)
    }

    /// Every key listed in an active group does what its line says, unless an earlier
    /// group claims it; returns the (group, label) pairs so shadowed.
    fn shadowed(app: &App) -> Vec<(&'static str, &'static str)> {
        let mut hidden = Vec::new();
        for group in app.active_keys() {
            for binding in group.bindings.iter().filter(|b| app.binding_applies(b)) {
                for &key in binding.keys {
                    if app.action_for_key(key) != (binding.action)(key) {
                        hidden.push((group.title, binding.label));
                    }
                }
            }
        }
        hidden.dedup();
        hidden
    }

    #[test]
    fn no_listed_key_is_silently_shadowed() {
        let mut human = app(FirstMover::Human, false);
        assert_eq!(shadowed(&human), vec![]);
        human.update(Action::Search(SearchAction::ToggleFocus));
        assert_eq!(shadowed(&human), vec![]);
        human.update(Action::ToggleHelp);
        assert_eq!(shadowed(&human), vec![]);

        // While the AI's search waits, Enter plays its move: the board cursor's Enter is the
        // one deliberate exception (the board takes no move then).
        let mut stepping = app(FirstMover::Ai, true);
        assert!(stepping.search.current_awaits_step());
        assert_eq!(
            stepping.search.focus,
            Focus::Tree,
            "the stepper takes the focus"
        );
        assert_eq!(shadowed(&stepping), vec![]);
        stepping.update(Action::Search(SearchAction::ToggleFocus));
        assert_eq!(
            shadowed(&stepping),
            vec![("Board cursor (f focuses the board)", "Enter")]
        );
    }

    #[test]
    fn hints_only_list_keys_that_act_now() {
        let human = app(FirstMover::Human, false);
        let labels: Vec<_> = human.hints().iter().map(|b| b.label).collect();
        assert_eq!(&labels[..2], ["?", "q"], "global keys first");
        assert!(labels.contains(&"1-9"));
        assert!(!labels.contains(&"Space/s"), "no search to step yet");

        let stepping = app(FirstMover::Ai, true);
        let labels: Vec<_> = stepping.hints().iter().map(|b| b.label).collect();
        assert!(labels.contains(&"Space/s") && labels.contains(&"Enter"));
        assert!(!labels.contains(&"1-9"), "not the human's turn");
        assert!(!labels.contains(&"b"), "nothing to step back yet");
    }

    #[test]
    fn tabs_cycle_and_unbound_keys_change_nothing() {
        let mut app = app(FirstMover::Human, false);
        assert_eq!(app.tab, Tab::TicTacToe);
        assert!(app.handle_key(Key::Tab));
        assert_eq!(app.tab, Tab::SubtractionNim);
        assert!(app.handle_key(Key::BackTab));
        assert_eq!(app.tab, Tab::TicTacToe);
        assert!(app.handle_key(Key::F(2)));
        assert_eq!(app.tab, Tab::MultiPileNim);
        assert!(!app.handle_key(Key::Char('Z')), "unbound: no redraw");
        assert!(app.handle_key(Key::Char('q')));
        assert!(!app.running);
    }

    #[test]
    fn esc_closes_help_before_anything_else() {
        let mut app = app(FirstMover::Human, false);
        app.handle_key(Key::Char('?'));
        assert!(app.help_open);
        app.handle_key(Key::Char('5'));
        assert_eq!(
            app.search.tictactoe.moves.len(),
            0,
            "keys do not reach the game under help"
        );
        app.handle_key(Key::Esc);
        assert!(!app.help_open && app.running);
    }

    #[test]
    fn an_occupied_cell_is_refused_and_nothing_changes() {
        let mut app = app(FirstMover::Human, false);
        app.handle_key(Key::Char('5'));
        let position = app.search.tictactoe.position;
        let moves = app.search.tictactoe.moves.len();
        app.handle_key(Key::Char('5'));
        assert_eq!(app.search.tictactoe.position, position);
        assert_eq!(app.search.tictactoe.moves.len(), moves);
        let message = app.message.as_ref().unwrap();
        assert_eq!(message.kind, MessageKind::Error);
        assert!(message.text.contains("taken"), "{}", message.text);
    }

    #[test]
    fn the_same_seed_gives_the_same_games() {
        let mut config = Config::default();
        config.tictactoe.first = FirstMover::Random;
        let firsts = |seed| {
            let mut app = App::new(&config, seed);
            (0..8)
                .map(|_| {
                    app.update(Action::Search(SearchAction::NewGame));
                    app.search.tictactoe.moves.len()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(firsts(11), firsts(11));
        assert_ne!(
            firsts(11),
            firsts(12),
            "different seeds, different coin flips"
        );
    }
}
