//! The Tic-tac-toe tab: tic-tac-toe and the Game of Eight against minimax, alpha-beta or
//! MCTS, with the AI's search recorded so the tree pane can show it and the user can step
//! through it.
//!
//! This file holds the tab's state and what the game keys do to it; stepping the search
//! shown and autoplay are `stepping`'s, moving about the tree pane `tree_cursor`'s.

use super::editor::Editor;
use super::game::{GAME_OVER, Match};
use super::mcts::{AiSetup, SearchKind};
use super::settings::AUTOPLAY_MS_RANGE;
use crate::components::autoplay::Autoplay;
use crate::components::tree_search::predict::Predicting;
use crate::components::tree_search::{Playable, SearchView};
use crate::config::{Config, FirstMover};
use crate::domain::games::Game;
use crate::domain::games::eight::{Eight, Seat};
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::search::MoveOrder;
use crate::persist::Store;
use crate::tabkit::goto::GoTo;
use crate::tabkit::message::Message;
use crate::tabkit::tab::{Score, Storage};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Binds `$game` to the match of the game shown and evaluates `$body`: the two games are
/// different types, so a closure cannot serve both.
#[macro_export]
#[doc(hidden)]
macro_rules! shown {
    ($tab:expr, |$game:ident| $body:expr) => {
        match $tab.game {
            GameKind::TicTacToe => {
                let $game = &$tab.tictactoe;
                $body
            }
            GameKind::Eight => {
                let $game = &$tab.eight;
                $body
            }
        }
    };
}

/// [`shown!`] with a mutable binding.
#[macro_export]
#[doc(hidden)]
macro_rules! shown_mut {
    ($tab:expr, |$game:ident| $body:expr) => {
        match $tab.game {
            GameKind::TicTacToe => {
                let $game = &mut $tab.tictactoe;
                $body
            }
            GameKind::Eight => {
                let $game = &mut $tab.eight;
                $body
            }
        }
    };
}

/// Which of the two games the tab shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GameKind {
    TicTacToe,
    Eight,
}

/// Which pane the arrow keys drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Focus {
    /// The board: arrows move the cell cursor.
    Board,
    /// The tree pane: arrows move the tree cursor and fold.
    Tree,
}

/// Everything the tab holds.
pub struct TicTacToeTab {
    /// The game shown.
    pub(crate) game: GameKind,
    /// The AI's search: minimax, alpha-beta or MCTS (`a` cycles them).
    pub(crate) algorithm: SearchKind,
    /// MCTS iterations per move (`search.mcts_iterations`).
    pub(crate) mcts_iterations: u64,
    /// MCTS's exploration constant `c` (`search.mcts_exploration`).
    pub(crate) mcts_exploration: f64,
    /// The seed MCTS's random games come from (each move mixes in its game and number).
    seed: u64,
    /// When on, each AI turn opens the stepper instead of moving at once.
    pub(crate) step_mode: bool,
    /// Autoplay: on or off, its pace, when it stepped last.
    pub(crate) autoplay: Autoplay,
    /// Where the arrows go.
    pub(crate) focus: Focus,
    pub(crate) tictactoe: Match<Board>,
    pub(crate) eight: Match<Eight>,
    ttt_first: FirstMover,
    /// The board every tic-tac-toe game starts from, when the config sets one.
    ttt_start: Option<Board>,
    eight_first: FirstMover,
    /// Who moves first when that is left to chance.
    rng: ChaCha8Rng,
    /// The data dir the tree's DOT export is written to, if any.
    pub(crate) store: Option<Store>,
    /// Where the tab may write: with no data dir the export is shown to copy instead.
    pub(crate) storage: Storage,
    /// The position editor's draft while it is open (it takes the tab's keys).
    pub(crate) editor: Option<Editor>,
    /// The move-order comparison while it is open over the panes (it takes the tab's keys,
    /// so `o` in it gives the next order, as its footer says).
    pub(crate) comparison: Option<Comparison>,
    /// Predict mode (`P`): the answer being typed and the score; `None` while it is off.
    pub(crate) predict: Option<Predicting>,
    /// A class follows its teacher: answers wait for the teacher's reveal.
    pub(crate) hold_answers: bool,
    /// The predictions graded before predict mode was last turned off.
    pub(crate) scored_before: Score,
    /// The "Go to step" entry while it is open (`G`).
    pub(crate) goto: GoTo,
}

/// Every move order compared from one position, as the comparison panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Comparison {
    /// The order the AI uses now (the panel's title).
    pub(crate) order: MoveOrder,
    /// The comparison's lines.
    pub(crate) text: String,
}

impl TicTacToeTab {
    /// The tab as the config sets it up, with both games started.
    pub(crate) fn new(
        config: &Config,
        seed: u64,
        store: Option<Store>,
        storage: Storage,
    ) -> (Self, Option<Message>) {
        let human_mark = config.tictactoe.human_plays;
        let mut tab = Self {
            game: GameKind::TicTacToe,
            algorithm: SearchKind::from_algorithm(config.search.algorithm),
            mcts_iterations: config.search.mcts_iterations,
            mcts_exploration: config.search.mcts_exploration,
            seed,
            step_mode: config.search.step,
            autoplay: Autoplay::new(config.search.autoplay_ms, AUTOPLAY_MS_RANGE),
            focus: Focus::Board,
            tictactoe: Match::new(Board::empty(human_mark), human_mark, 4, config.search.order),
            eight: Match::new(Eight::start(), Seat::First, 1, config.search.order),
            store,
            storage,
            ttt_first: config.tictactoe.first,
            // Checked when the config was loaded.
            ttt_start: config.tictactoe.start_board().ok().flatten(),
            eight_first: config.eight.first,
            rng: ChaCha8Rng::seed_from_u64(seed),
            editor: None,
            comparison: None,
            predict: None,
            hold_answers: false,
            scored_before: Score::default(),
            goto: GoTo::steps(),
        };
        // Eight's game starts too (it is one key away); the tic-tac-toe message is shown.
        tab.new_eight();
        let message = tab.new_tictactoe(human_mark);
        tab.focus_for_turn();
        (tab, Some(message))
    }

    /// What the AI's next turn runs.
    pub(crate) fn setup(&self) -> AiSetup {
        AiSetup {
            kind: self.algorithm,
            iterations: self.mcts_iterations,
            exploration: self.mcts_exploration,
            seed: self.seed,
        }
    }

    /// True when the AI's search is MCTS.
    pub(crate) fn mcts_on(&self) -> bool {
        self.algorithm == SearchKind::Mcts
    }

    fn human_first(rule: FirstMover, rng: &mut ChaCha8Rng) -> bool {
        match rule {
            FirstMover::Human => true,
            FirstMover::Ai => false,
            FirstMover::Random => rng.random_bool(0.5),
        }
    }

    fn new_tictactoe(&mut self, human: Mark) -> Message {
        let first = if Self::human_first(self.ttt_first, &mut self.rng) {
            human
        } else {
            human.other()
        };
        let start = self.ttt_start.unwrap_or_else(|| Board::empty(first));
        self.tictactoe.restart(start, human);
        self.tictactoe.set_up = self.ttt_start.is_some();
        let who = match (self.ttt_start.is_some(), start.to_move() == human) {
            (false, true) => "you move first".to_string(),
            (false, false) => "the AI moves first".to_string(),
            (true, true) => "from the set-up board, your move".to_string(),
            (true, false) => "from the set-up board, the AI's move".to_string(),
        };
        let new_game = format!("New game: you play {human}, {who}");
        let setup = self.setup();
        let ai = self.tictactoe.ai_turn(&setup, self.step_mode);
        Self::new_game_message(&new_game, ai)
    }

    fn new_eight(&mut self) -> Message {
        let human = if Self::human_first(self.eight_first, &mut self.rng) {
            Seat::First
        } else {
            Seat::Second
        };
        self.eight.restart(Eight::start(), human);
        self.eight.cursor = 1;
        let who = if human == Seat::First {
            "you choose first"
        } else {
            "the AI chooses first"
        };
        let new_game = format!("New game of Eight: {who}");
        let setup = self.setup();
        let ai = self.eight.ai_turn(&setup, self.step_mode);
        Self::new_game_message(&new_game, ai)
    }

    /// The new-game sentence, or (when the AI moved first) what the AI did.
    fn new_game_message(new_game: &str, ai: Option<Message>) -> Message {
        match ai {
            Some(ai) => Message::info(format!("New game, AI first. {}", ai.text)),
            None => Message::info(new_game),
        }
    }

    /// Starts a new game of the game shown.
    pub(crate) fn new_game(&mut self) -> Option<Message> {
        self.autoplay.on = false;
        let message = match self.game {
            GameKind::TicTacToe => Some(self.new_tictactoe(self.tictactoe.human)),
            GameKind::Eight => Some(self.new_eight()),
        };
        self.focus_for_turn();
        message
    }

    /// The tree takes the focus while the AI's search waits to be stepped, the board
    /// otherwise.
    fn focus_for_turn(&mut self) {
        self.focus = if self.current_awaits_step() {
            Focus::Tree
        } else {
            Focus::Board
        };
    }

    /// Plays X or O from now on, starting a new tic-tac-toe game.
    pub(crate) fn toggle_side(&mut self) -> Option<Message> {
        if self.game != GameKind::TicTacToe {
            return Some(Message::error(
                "x chooses X or O in tic-tac-toe (g switches game)",
            ));
        }
        self.autoplay.on = false;
        let human = self.tictactoe.human.other();
        let message = Some(self.new_tictactoe(human));
        self.focus_for_turn();
        message
    }

    /// Switches between tic-tac-toe and Eight.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn switch_game(&mut self) -> Option<Message> {
        self.autoplay.on = false;
        self.game = match self.game {
            GameKind::TicTacToe => GameKind::Eight,
            GameKind::Eight => GameKind::TicTacToe,
        };
        self.focus_for_turn();
        Some(Message::info(match self.game {
            GameKind::TicTacToe => "Tic-tac-toe",
            GameKind::Eight => "Game of Eight: reach 8 exactly; the number just chosen is barred",
        }))
    }

    /// The next algorithm: minimax → alpha-beta → MCTS → minimax; a search waiting in the
    /// stepper restarts with it.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn toggle_algorithm(&mut self) -> Option<Message> {
        Some(self.set_algorithm(self.algorithm.next()))
    }

    /// Puts `kind` in force (`a` and the settings panel); a search waiting in the stepper
    /// restarts with it.
    pub(crate) fn set_algorithm(&mut self, kind: SearchKind) -> Message {
        self.algorithm = kind;
        let setup = self.setup();
        // Both games: a search waiting in the game not shown must not keep the old algorithm.
        let ttt = Self::restart_live(&mut self.tictactoe, &setup);
        let eight = Self::restart_live(&mut self.eight, &setup);
        let restarted = match self.game {
            GameKind::TicTacToe => ttt,
            GameKind::Eight => eight,
        };
        let suffix = if restarted {
            " (the search restarts)"
        } else {
            ""
        };
        let what = match kind {
            SearchKind::Mcts => format!(
                "MCTS, {} iterations, c = {:.2}",
                crate::domain::numbers::thousands(self.mcts_iterations),
                self.mcts_exploration
            ),
            tree => tree.name().to_string(),
        };
        Message::info(format!("The AI now uses {what}{suffix}"))
    }

    fn restart_live<G: Playable>(game: &mut Match<G>, setup: &AiSetup) -> bool {
        if game.awaiting_step() {
            game.open_stepper(setup);
            true
        } else {
            false
        }
    }

    /// Turns step mode on or off; on, an AI turn in progress opens the stepper, off, the AI
    /// moves at once.
    pub(crate) fn toggle_step_mode(&mut self) -> Option<Message> {
        self.step_mode = !self.step_mode;
        self.autoplay.on = false;
        let (setup, step_mode) = (self.setup(), self.step_mode);
        // Both games follow the mode: a game not shown must not stay waiting in the stepper.
        let ttt = Self::apply_step_mode(&mut self.tictactoe, &setup, step_mode);
        let eight = Self::apply_step_mode(&mut self.eight, &setup, step_mode);
        let moved = match self.game {
            GameKind::TicTacToe => ttt,
            GameKind::Eight => eight,
        };
        self.focus_for_turn();
        moved.or_else(|| {
            Some(Message::info(if self.step_mode {
                "Step mode on: each AI move waits for you to step through its search"
            } else {
                "Step mode off: the AI moves at once"
            }))
        })
    }

    fn apply_step_mode<G: Playable>(
        game: &mut Match<G>,
        setup: &AiSetup,
        step_mode: bool,
    ) -> Option<Message> {
        if step_mode || !game.awaiting_step() {
            return None;
        }
        game.search = None;
        game.mcts = None;
        game.ai_turn(setup, false)
    }

    /// Opens a search of the current position for the side to move (a hint for the human,
    /// or the whole game tree from the start), to be stepped like the AI's.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn analyze(&mut self) -> Option<Message> {
        let Some(algorithm) = self.algorithm.tree() else {
            return Some(Message::error(MINIMAX_ONLY_T));
        };
        let message = shown_mut!(self, |game| Self::analyze_in(game, algorithm));
        if message.kind == crate::tabkit::message::MessageKind::Info {
            self.autoplay.on = false;
            self.focus = Focus::Tree;
        }
        Some(message)
    }

    fn analyze_in<G: Playable>(
        game: &mut Match<G>,
        algorithm: crate::domain::search::Algorithm,
    ) -> Message {
        if game.position.outcome().is_some() {
            return Message::error(GAME_OVER);
        }
        if game.awaiting_step() {
            return Message::error("The AI's search is already open: step it, or Enter plays");
        }
        let mut view = SearchView::new(game.position, algorithm, game.order, false);
        view.analysis = true;
        game.mcts = None;
        game.search = Some(view);
        Message::info("Searching your position: Space steps, c runs to the end")
    }

    /// Switches the focus between board and tree.
    pub(crate) fn toggle_focus(&mut self) -> Option<Message> {
        self.focus = match self.focus {
            Focus::Board => Focus::Tree,
            Focus::Tree => Focus::Board,
        };
        None
    }

    /// The human's choice: a cell (1-9) or a number (1-3).
    pub(crate) fn play(&mut self, choice: u8) -> Option<Message> {
        let (setup, step_mode) = (self.setup(), self.step_mode);
        let message = shown_mut!(self, |game| game.human_move(choice, &setup, step_mode));
        if self.current_awaits_step() {
            self.focus = Focus::Tree;
        }
        message
    }

    /// Plays the choice under the board cursor.
    pub(crate) fn play_at_cursor(&mut self) -> Option<Message> {
        // Tic-tac-toe's cursor is a cell index; the choice typed is the cell number.
        let choice = match self.game {
            GameKind::TicTacToe => self.tictactoe.cursor + 1,
            GameKind::Eight => self.eight.cursor,
        };
        self.play(choice)
    }

    /// Moves the board cursor, wrapping at the edges.
    pub(crate) fn move_cursor(&mut self, dx: i8, dy: i8) {
        match self.game {
            GameKind::TicTacToe => {
                let cell = self.tictactoe.cursor as i8;
                let col = (cell % 3 + dx).rem_euclid(3);
                let row = (cell / 3 + dy).rem_euclid(3);
                self.tictactoe.cursor = (row * 3 + col) as u8;
            }
            GameKind::Eight => {
                let n = self.eight.cursor as i8 - 1;
                self.eight.cursor = ((n + dx + dy).rem_euclid(3) + 1) as u8;
            }
        }
    }

    /// True when the game shown waits for its AI search to be stepped.
    pub(crate) fn current_awaits_step(&self) -> bool {
        shown!(self, |game| game.awaiting_step())
    }

    /// True when the game shown has a minimax or alpha-beta search to show or step.
    pub(crate) fn has_search(&self) -> bool {
        shown!(self, |game| game.search.is_some())
    }

    /// True when the game shown has an MCTS search to show or step.
    pub(crate) fn has_mcts(&self) -> bool {
        shown!(self, |game| game.mcts.is_some())
    }

    /// True when the AI's MCTS waits in the stepper in the game shown.
    pub(crate) fn live_mcts(&self) -> bool {
        shown!(self, |game| game.mcts.as_ref().is_some_and(|m| m.live))
    }

    /// True when the shown search has run to its end (or there is none): every event of a
    /// tree search, every iteration of a stepped MCTS (a record of one is not stepped).
    pub(crate) fn search_finished(&self) -> bool {
        if self.has_mcts() {
            return shown!(self, |game| game
                .mcts
                .as_ref()
                .is_none_or(|m| !m.live || m.is_finished()));
        }
        shown!(self, |game| game
            .search
            .as_ref()
            .is_none_or(|v| v.stepper.is_finished()))
    }

    /// True when the shown search has taken at least one step (a phase, for MCTS).
    pub(crate) fn search_started(&self) -> bool {
        if self.has_mcts() {
            return shown!(self, |game| game
                .mcts
                .as_ref()
                .is_some_and(|m| m.live && m.stepper.phases() > 0));
        }
        shown!(self, |game| game
            .search
            .as_ref()
            .map(|v| v.stepper.events_taken()))
        .is_some_and(|events| events > 0)
    }

    /// True when either game has a search the user stepped by hand (the AI's waiting search
    /// or a search of their own position) that quitting would lose.
    pub(crate) fn stepped_search(&self) -> bool {
        fn stepped<G: Playable>(game: &Match<G>) -> bool {
            game.search
                .as_ref()
                .is_some_and(|v| (v.live || v.analysis) && v.stepper.events_taken() > 0)
                || game
                    .mcts
                    .as_ref()
                    .is_some_and(|m| m.live && m.stepper.phases() > 0)
        }
        stepped(&self.tictactoe) || stepped(&self.eight)
    }

    /// True when the game shown has ended.
    pub(crate) fn game_over(&self) -> bool {
        shown!(self, |game| game.position.outcome().is_some())
    }

    /// True when the human may move in the game shown.
    pub(crate) fn human_to_move(&self) -> bool {
        shown!(self, |game| game.position.outcome().is_none()
            && !game.ai_to_move())
    }
}

/// What `t` says while the AI uses MCTS.
pub(crate) const MINIMAX_ONLY_T: &str =
    "t searches with minimax or alpha-beta: the AI uses MCTS (a switches)";

/// What callers outside the crate read (the property, event-loop and view tests in `tests/`).
impl TicTacToeTab {
    /// The tic-tac-toe game: its position, its moves and the AI's recorded search.
    pub fn tictactoe_game(&self) -> &Match<Board> {
        &self.tictactoe
    }

    /// The Game of Eight, as [`Self::tictactoe_game`].
    pub fn eight_game(&self) -> &Match<Eight> {
        &self.eight
    }

    /// Whether autoplay steps the AI's search by itself on each tick.
    pub fn is_autoplaying(&self) -> bool {
        self.autoplay.on
    }

    /// Whether the keys go to the tree pane rather than to the board.
    pub fn tree_has_focus(&self) -> bool {
        self.focus == Focus::Tree
    }

    /// Everything the user can change in the tab, as text: equal texts mean nothing the user
    /// could see or keep changed.
    pub fn fingerprint(&self) -> String {
        /// An MCTS view as the fingerprint keeps it.
        fn mcts<G: Playable>(game: &Match<G>) -> String {
            game.mcts.as_ref().map_or_else(String::new, |m| {
                format!("mcts {} {} {}", m.live, m.stepper.phases(), m.folds.cursor)
            })
        }
        let view = |events: Option<usize>, cursor: Option<String>| format!("{events:?}/{cursor:?}");
        format!(
            "search {:?} {} {} {:?} {:?} step {} autoplay {} focus {:?} ttt {:?} {:?} {} eight {:?} {:?} {} views {} {} {} {} editor {:?}",
            self.game,
            self.mcts_iterations,
            self.mcts_exploration,
            self.algorithm,
            self.tictactoe.human,
            self.step_mode,
            self.autoplay.on,
            self.focus,
            self.tictactoe.position,
            self.tictactoe.moves,
            self.tictactoe.cursor,
            self.eight.position,
            self.eight.moves,
            self.eight.cursor,
            view(
                self.tictactoe
                    .search
                    .as_ref()
                    .map(|v| v.stepper.events_taken()),
                self.tictactoe
                    .search
                    .as_ref()
                    .map(|v| format!("{:?}", v.tree.cursor)),
            ),
            view(
                self.eight.search.as_ref().map(|v| v.stepper.events_taken()),
                self.eight
                    .search
                    .as_ref()
                    .map(|v| format!("{:?}", v.tree.cursor)),
            ),
            mcts(&self.tictactoe),
            mcts(&self.eight),
            self.editor,
        )
    }
}
