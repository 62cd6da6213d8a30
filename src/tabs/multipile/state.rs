//! The Multi-pile Nim tab: a game against one of four players, the two learners behind
//! them, and the views beside the game (the edges out of a position with their Q-values,
//! one self-play game's updates, the training charts, the Q-table, the network's outputs).
//!
//! This file holds the tab's state, its setting up, the opponent menu and where each action
//! goes; what the actions do lives beside it: `game` the game on the piles, `asking` the why
//! overlay and asking about piles, `pane` the pane's views and cursors, `stepper` one
//! self-play game's updates, `watch` the training speed and runs.

use super::action::Action;
use super::action::Compared;
use super::learners::{NetAgent, QAgent};
use super::settings::NimView;
use super::settings::OpponentChoice;
use crate::config::{Config, FirstMover};
use crate::domain::games::nim::{NimMove, Piles, Rule};
use crate::domain::learn::nim_net::NetMove;
use crate::domain::learn::nim_net::NetTrainer;
use crate::domain::learn::qlearning::QTrainer;
use crate::domain::prediction::Score;
use crate::persist::{Loaded, Store};
use crate::tabkit::ai_moves::AiMoves;
use crate::tabkit::goto::GoTo;
use crate::tabkit::message::Message;
use crate::tabkit::predicting::Predicting;
use crate::tabkit::side::Side;
use crate::tabkit::speed::{Redraws, Speed};
use crate::tabkit::tab::{Storage, TrainedSince};
use crate::tabkit::tally::Tally;
use crate::tabkit::text_entry::TextEntry;
use crate::tabkit::why::Decision;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// An AI move as it was made, for the journal: a follower plays it as made (a learner
/// trained further on the teacher's machine cannot make it differ) and draws its random
/// numbers on from where the teacher's AI left them.
#[derive(Debug, Clone, PartialEq)]
pub struct AiPlayed {
    /// The piles it was made on.
    pub(crate) before: Piles,
    /// The move.
    pub(crate) mv: NimMove,
    /// Its record, for the why overlay.
    pub(crate) record: Decision,
    /// The network's activations behind it, for the play pane (network moves only).
    pub(crate) net_move: Option<NetMove>,
    /// The tab's random numbers after the choice.
    pub(crate) rng: ChaCha8Rng,
}

/// One move of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// Who moved.
    pub by: Side,
    /// The move.
    pub mv: NimMove,
    /// The piles before it.
    pub before: Piles,
}

/// How far the human has typed a move: digits pick the pile, then the count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Typed {
    /// Nothing typed: arrows and digits both free.
    Nothing,
    /// A pile number typed; the count comes next.
    Pile,
    /// Pile and count digits typed.
    Count(String),
}

/// The views of the right-hand pane, in `v` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pane {
    /// The position and every move out of it, with Q-values.
    Edges,
    /// The updates of the last single-game step.
    Updates,
    /// Progress and charts of both learners.
    Training,
    /// Every learned position.
    Table,
    /// The network's outputs for its move.
    Network,
    /// The network's weights, one unit at a time.
    Weights,
}

impl Pane {
    /// The view the config opens the pane on.
    fn of(view: NimView) -> Self {
        match view {
            NimView::Moves => Self::Edges,
            NimView::Updates => Self::Updates,
            NimView::Training => Self::Training,
            NimView::Table => Self::Table,
            NimView::Network => Self::Network,
            NimView::Weights => Self::Weights,
        }
    }

    const ORDER: [Self; 6] = [
        Self::Edges,
        Self::Updates,
        Self::Training,
        Self::Table,
        Self::Network,
        Self::Weights,
    ];

    /// The pane after this one.
    pub(super) fn next(self) -> Self {
        let at = Self::ORDER.iter().position(|&p| p == self).unwrap_or(0);
        Self::ORDER[(at + 1) % Self::ORDER.len()]
    }
}

/// The opponents in menu order.
pub(crate) const OPPONENTS: [OpponentChoice; 4] = [
    OpponentChoice::Qlearning,
    OpponentChoice::Network,
    OpponentChoice::Perfect,
    OpponentChoice::Random,
];

/// How an opponent is named on screen.
pub(crate) fn opponent_name(opponent: OpponentChoice) -> &'static str {
    match opponent {
        OpponentChoice::Qlearning => "Q-learning agent",
        OpponentChoice::Network => "neural network",
        OpponentChoice::Perfect => "perfect player",
        OpponentChoice::Random => "random player",
    }
}

/// Everything the tab holds.
// Four independent yes/no facts (whose move, focus, filter, first view); an enum for each
// would say no more.
#[allow(clippy::struct_excessive_bools)]
pub struct MultiPileTab {
    /// The rule of games against the Q-learning, perfect and random players.
    pub(crate) rule: Rule,
    /// Their starting piles.
    pub(crate) q_start: Piles,
    pub(crate) opponent: OpponentChoice,
    /// Who opens a game.
    pub(crate) first: FirstMover,
    /// The position now.
    pub(crate) piles: Piles,
    /// This game's starting position.
    pub(crate) start: Piles,
    /// True when the human is to move.
    pub(crate) human_to_move: bool,
    pub(crate) moves: Vec<Played>,
    /// What the AI weighed for each move of `moves` (`None` for the person's).
    pub(crate) records: Vec<Option<Decision>>,
    /// The piles typed to ask the AI about, while the entry is open.
    pub(crate) ask_entry: Option<TextEntry>,
    /// The update typed to go to, while the "go to update N" entry is open.
    pub(crate) goto: GoTo,
    /// Predict mode (`u`): the answer being typed and the score; `None` while it is off.
    pub(crate) predict: Option<Predicting>,
    /// A class follows its teacher: answers wait for the teacher's reveal.
    pub(crate) hold_answers: bool,
    /// The predictions graded before predict mode was last turned off.
    pub(crate) scored_before: Score,
    /// The last graded answer's words and the update they are about, shown in the pane
    /// under it (the status line cuts them at 80 columns).
    pub(crate) feedback: Option<(usize, String)>,
    /// How many moves of the game the edges view steps back from the game's position.
    pub(crate) rewind: usize,
    /// The weights view's layer (0: the first hidden layer) and unit in it.
    pub(crate) weights_at: (usize, usize),
    /// The selected pile (0-based).
    pub(crate) pile: usize,
    pub(crate) count: u32,
    pub(crate) typed: Typed,
    /// Games won by the human and by the AI.
    pub(crate) tally: Tally,
    /// The opponent menu's cursor, while it is open.
    pub(crate) menu: Option<usize>,
    /// The right-hand view.
    pub(crate) pane: Pane,
    /// Keys go to the pane rather than the piles.
    pub(crate) pane_focus: bool,
    /// Positions walked to in the edges view, the shown one last; empty: the game's.
    pub(crate) browse: Vec<Piles>,
    /// The edge under the cursor.
    pub(crate) edge_cursor: usize,
    /// The Q-table view lists only positions where the greedy move is wrong.
    pub(crate) wrong_only: bool,
    /// Show the `★ ✓` marks and the verdict for the position the human is about to play.
    pub(crate) hints_on_your_turn: bool,
    /// The Q-table view's first row.
    pub(crate) table_scroll: usize,
    /// The network's last move, with its outputs.
    pub(crate) net_move: Option<NetMove>,
    pub(crate) q: QAgent,
    pub(crate) net: NetAgent,
    pub(super) config: Config,
    pub(super) seed: u64,
    pub(super) store: Option<Store>,
    /// How fast both learners train while watched.
    pub(crate) speed: Speed,
    /// When training progress was last drawn (fast mode draws a few times a second).
    pub(crate) redraws: Redraws,
    /// The learner whose runs the training view compares, while that list is open.
    pub(crate) compare: Option<Compared>,
    shown_once: bool,
    /// Where the app keeps what it learns (for what quitting loses).
    pub(crate) storage: Storage,
    /// The Q-table's games at the start, and whether a key trained it since.
    pub(crate) q_since: TrainedSince,
    /// The network's epochs at the start, and whether a key trained it since.
    pub(crate) net_since: TrainedSince,
    pub(super) rng: ChaCha8Rng,
    /// The AI's moves as a class sees them: reported for the journal, or taken from it.
    pub(crate) ai_moves: AiMoves<AiPlayed>,
}

impl MultiPileTab {
    /// The tab as `config` sets it up, starting from the learners [`QAgent::load`] and
    /// [`NetAgent::load`] read (fresh ones where nothing fits), saving to `store` if given.
    pub(crate) fn from_loaded(
        config: &Config,
        seed: u64,
        q: Loaded<QTrainer>,
        net: Loaded<NetTrainer>,
        store: Option<Store>,
        storage: Storage,
    ) -> Self {
        let q_start = Piles::new(&config.nim.piles).expect("validated by config");
        let rule = config.nim.rule;
        let q = QAgent::from_loaded(q_start, rule, &config.qlearning, seed, q, store.clone());
        let net = NetAgent::from_loaded(&config.nim_net, seed, net, store.clone());
        let q_games = q.trainer.as_ref().map_or(0, |t| t.games as u64);
        let net_epochs = net.trainer.epochs() as u64;
        let mut tab = Self {
            rule,
            q_start,
            opponent: config.nim.opponent,
            first: config.nim.first,
            piles: q_start,
            start: q_start,
            human_to_move: true,
            moves: Vec::new(),
            records: Vec::new(),
            ask_entry: None,
            // An update number of up to five digits.
            goto: GoTo::new(
                5,
                "That is as long as an update number gets: Enter goes",
                "Not moved",
            ),
            predict: None,
            hold_answers: false,
            scored_before: Score::default(),
            feedback: None,
            rewind: 0,
            weights_at: (0, 0),
            pile: 0,
            count: 1,
            typed: Typed::Nothing,
            tally: Tally::default(),
            menu: None,
            pane: Pane::of(config.nim.view),
            pane_focus: false,
            browse: Vec::new(),
            edge_cursor: 0,
            wrong_only: false,
            hints_on_your_turn: config.nim.hints_on_your_turn,
            table_scroll: 0,
            net_move: None,
            q,
            net,
            config: config.clone(),
            seed,
            store,
            speed: Speed::default(),
            redraws: Redraws::default(),
            compare: None,
            shown_once: false,
            storage,
            q_since: TrainedSince::new(q_games),
            net_since: TrainedSince::new(net_epochs),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x4e49_4d00),
            ai_moves: AiMoves::default(),
        };
        if tab.opponent == OpponentChoice::Qlearning && tab.q.trainer.is_err() {
            tab.opponent = OpponentChoice::Perfect;
        }
        if tab.opponent == OpponentChoice::Network {
            tab.pane = Pane::Network;
        }
        tab.start_game();
        tab
    }

    /// Called when the tab is shown: the first time, trains whatever is untrained.
    pub(crate) fn on_show(&mut self) -> Option<Message> {
        if self.shown_once {
            return None;
        }
        self.shown_once = true;
        let problems: Vec<String> = [&self.q.load_error, &self.net.load_error]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        if !problems.is_empty() {
            let count = problems.len();
            return Some(Message::error(if count == 1 {
                "A saved file could not be used: it is left as it is (details in the pane)"
                    .to_string()
            } else {
                format!("{count} saved files could not be used: left as they are (see the pane)")
            }));
        }
        if self.q.trainer.is_err() {
            return Some(Message::error(
                "Piles too large for a Q-table (see the pane): you play the perfect player",
            ));
        }
        let net = (self.opponent == OpponentChoice::Network)
            .then(|| self.net.train_if_untrained())
            .flatten();
        self.q.train_if_untrained().or(net)
    }

    /// The program is ending: a learner still training is paused, which saves what it has learned
    /// so far (as the original program's network saves on Ctrl-C); the next start resumes it.
    pub(crate) fn on_exit(&mut self) {
        if self.q.training {
            self.q.toggle_training();
        }
        if self.net.is_training() {
            self.net.toggle_training();
        }
    }

    /// The seed the tab's random choices come from.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    /// The starting piles as the config file set them (`nim.piles`).
    pub(crate) fn config_piles(&self) -> Piles {
        Piles::new(&self.config.nim.piles).expect("validated by config")
    }

    /// A new game against the opponent in force, from its starting piles.
    pub(crate) fn start_new_game(&mut self) {
        self.start_game();
    }

    /// Keeps the Q-table's settings where a rule switch (`m`) reads them for the new agent.
    pub(crate) fn keep_q_settings(&mut self) {
        self.config.qlearning = self.q.settings.clone();
    }

    /// Where the tab saves (`None`: nowhere).
    pub(crate) fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// True while either learner trains.
    pub(crate) fn is_training(&self) -> bool {
        self.q.training || self.net.is_training()
    }

    /// Time passed: train a chunk of games, take in the network's progress.
    pub(crate) fn train_tick(&mut self) -> Option<Message> {
        let q = self.q.tick(self.speed);
        let net = self.net.poll();
        q.or(net)
    }

    // ---- the opponent menu ----------------------------------------------------------

    /// Opens the opponent menu on the current opponent.
    pub(crate) fn open_menu(&mut self) {
        self.menu = OPPONENTS.iter().position(|&o| o == self.opponent);
    }

    /// Moves the menu cursor.
    pub(crate) fn menu_move(&mut self, delta: isize) {
        if let Some(at) = self.menu {
            self.menu = Some((at as isize + delta).rem_euclid(OPPONENTS.len() as isize) as usize);
        }
    }

    /// Closes the menu without a change.
    pub(crate) fn close_menu(&mut self) {
        self.menu = None;
    }

    /// Chooses the opponent at `index` (or the cursor's): a new game against it.
    pub(crate) fn choose_opponent(&mut self, index: Option<usize>) -> Message {
        let Some(index) = index.or(self.menu) else {
            return Message::error("No opponent chosen");
        };
        self.menu = None;
        let Some(&choice) = OPPONENTS.get(index) else {
            return Message::error("Choose 1 to 4");
        };
        if choice == OpponentChoice::Qlearning && self.q.trainer.is_err() {
            return Message::error("The Q-learning agent refuses piles this large: see the pane");
        }
        self.opponent = choice;
        let training = if choice == OpponentChoice::Network {
            self.pane = Pane::Network;
            self.net.train_if_untrained()
        } else {
            if self.pane == Pane::Network {
                self.pane = Pane::Edges;
            }
            None
        };
        let started = self.new_game();
        match training {
            Some(t) => Message::info(format!("{}. {}", t.text, started.text)),
            None => started,
        }
    }
}

impl MultiPileTab {
    /// Applies an action; returns the message to show, if any.
    pub(crate) fn apply(&mut self, action: Action) -> Option<Message> {
        use Action as A;
        match action {
            A::SelectPile(d) => self.select_pile(isize::from(d)),
            A::Count(d) => self.adjust_count(i32::from(d)),
            A::Digit(c) => return self.digit(c),
            A::Confirm => return Some(self.confirm()),
            A::NewGame => return Some(self.new_game()),
            A::CycleFirst => return Some(self.cycle_first()),
            A::ToggleRule => return Some(self.toggle_rule()),
            A::OpenMenu => self.open_menu(),
            A::MenuMove(d) => self.menu_move(isize::from(d)),
            A::MenuChoose(n) => {
                return Some(self.choose_opponent(n.map(|n| usize::from(n).saturating_sub(1))));
            }
            A::CloseMenu => self.close_menu(),
            A::NextPane => self.next_pane(),
            A::ToggleFocus => return Some(self.toggle_focus()),
            A::PaneMove(d) => self.pane_move(isize::from(d)),
            A::PaneEnter => return self.pane_enter(),
            A::PaneBack => return self.pane_back(),
            A::PaneHome => self.pane_home(),
            A::Undo if self.typed != Typed::Nothing => self.backspace(),
            A::Undo => return Some(self.undo()),
            A::Ask => return Some(self.ask_open()),
            A::AskType(c) => return self.ask_type(c),
            A::AskErase => self.ask_erase(),
            A::AskCancel => return Some(self.ask_cancel()),
            // `Why`, `AskSubmit` and the exports need the effects: `Tab::update` does them.
            A::Why | A::AskSubmit | A::RunsExport | A::TableExport => {}
            A::ToggleWrongOnly => return Some(self.toggle_wrong_only()),
            A::ToggleHints => return Some(self.toggle_hints()),
            A::QTrain => return Some(self.q.toggle_training()),
            A::QStep => return Some(self.step_game()),
            A::UpdateStep(to) => return Some(self.update_step(to)),
            A::GoToOpen => return Some(self.goto_open()),
            A::GoToType(c) => return Some(self.goto_type(c)),
            A::GoToErase => return Some(self.goto_erase()),
            A::GoToSubmit => return Some(self.goto_submit()),
            A::GoToCancel => return Some(self.goto.cancel()),
            A::TogglePredict => return Some(self.toggle_predict()),
            A::AnswerType(c) => return Some(self.answer_type(c)),
            A::AnswerErase => return Some(self.answer_erase()),
            A::AnswerSubmit => return Some(self.answer_submit()),
            A::QRetrain => return Some(self.q.retrain()),
            A::NetTrain => return Some(self.net.toggle_training()),
            A::NetRetrain => return Some(self.net.retrain()),
            A::QRestore => return Some(self.q.restore_previous(self.storage)),
            A::NetRestore => return Some(self.net.restore_previous(self.storage)),
            A::Speed(faster) => return Some(self.change_speed(faster)),
            A::Compare(which) => return Some(self.toggle_compare(which)),
            A::RunsMove(by) => return self.runs_move(by),
            A::RunsToggle => return self.runs_toggle(),
        }
        None
    }
}

/// What callers outside the crate read (the key and property tests in `tests/`).
impl MultiPileTab {
    /// The piles this game started from.
    pub fn game_start(&self) -> Piles {
        self.start
    }

    /// The position now.
    pub fn piles(&self) -> Piles {
        self.piles
    }

    /// This game's moves, first first.
    pub fn moves(&self) -> &[Played] {
        &self.moves
    }

    /// The selected pile (0-based).
    pub fn selected_pile(&self) -> usize {
        self.pile
    }

    /// True when the human is to move.
    pub fn human_to_move(&self) -> bool {
        self.human_to_move
    }

    /// The positions walked to in the edges view, the shown one last; empty: the game's.
    pub fn browse_path(&self) -> &[Piles] {
        &self.browse
    }

    /// The edge under the edges view's cursor.
    pub fn edge_cursor(&self) -> usize {
        self.edge_cursor
    }

    /// The games the Q-table learned from; `None` when it could not be set up.
    pub fn q_games_trained(&self) -> Option<usize> {
        self.q.trainer.as_ref().ok().map(|t| t.games)
    }

    /// True while the Q-learning agent trains on each tick.
    pub fn q_is_training(&self) -> bool {
        self.q.training
    }

    /// The epochs the network trained.
    pub fn network_epochs(&self) -> usize {
        self.net.trainer.epochs()
    }

    /// True while the network trains in the background.
    pub fn network_is_training(&self) -> bool {
        self.net.is_training()
    }

    /// Trains the network `epochs` on this thread: for scripts and tests that need a trained
    /// network without timing.
    pub fn train_network_now(&mut self, epochs: usize) {
        self.net.train_now(epochs);
    }

    /// Everything the user can change in the tab and both learners, as text: equal texts
    /// mean nothing the user could see or keep changed.
    pub fn fingerprint(&self) -> String {
        let position = format!(
            "nim {:?} {:?} {:?} {} {:?} {} {} {:?} {:?} {} {:?} {} {} {} {:?}",
            self.opponent,
            self.first,
            self.piles,
            self.human_to_move,
            self.moves,
            self.pile,
            self.count,
            self.typed,
            self.menu,
            self.pane_focus,
            self.browse,
            self.edge_cursor,
            self.wrong_only,
            self.table_scroll,
            self.pane,
        );
        let position = format!(
            "{position} {} {:?} {:?} {:?} {:?} {:?}",
            self.rewind, self.ask_entry, self.weights_at, self.q.steps, self.goto, self.predict
        );
        let learners = format!(
            "q {:?} training {} net epochs {} training {}",
            self.q
                .trainer
                .as_ref()
                .ok()
                .map(|t| serde_json::to_string(&t.saved()).unwrap_or_default()),
            self.q.training,
            self.net.trainer.epochs(),
            self.net.is_training()
        );
        format!("{position}\n{learners}")
    }
}
