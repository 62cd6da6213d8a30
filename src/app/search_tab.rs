//! The Tic-tac-toe tab: tic-tac-toe and the Game of Eight against minimax or alpha-beta, with
//! the AI's search recorded so the tree pane can show it and the user can step through it.

use super::Message;
use super::tree::{LineKind, TreeView};
use crate::config::{self, Config, FirstMover};
use crate::games::eight::{Eight, Seat};
use crate::games::tictactoe::{Board, Mark};
use crate::games::{Game, Outcome};
use crate::search::{Algorithm, NodeId, Stepper, search};
use crate::text::{signed, thousands};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Binds `$game` to the match of the game shown and evaluates `$body`: the two games are
/// different types, so a closure cannot serve both.
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

/// What a game must offer the tab beyond the search trait: checked moves and names.
pub trait Playable: Game<Move = u8> {
    /// The move for the human's choice as typed (a cell 1-9, a number 1-3), or a sentence
    /// saying why it is refused.
    fn check_choice(&self, choice: u8) -> Result<u8, String>;
    /// How a move is written in the tree and the move list (`X5`, `+2`).
    fn move_label(&self, mv: u8) -> String;
    /// How a player is named on screen.
    fn player_name(player: Self::Player) -> String;
}

impl Playable for Board {
    fn check_choice(&self, cell: u8) -> Result<u8, String> {
        if cell == 0 {
            return Err("there is no cell 0: cells are 1-9".into());
        }
        self.try_play(cell - 1)
            .map(|_| cell - 1)
            .map_err(|e| e.to_string())
    }

    fn move_label(&self, cell: u8) -> String {
        format!("{}{}", self.to_move(), cell + 1)
    }

    fn player_name(player: Mark) -> String {
        player.to_string()
    }
}

impl Playable for Eight {
    fn check_choice(&self, n: u8) -> Result<u8, String> {
        self.try_play(n).map(|_| n).map_err(|e| e.to_string())
    }

    fn move_label(&self, n: u8) -> String {
        format!("+{n}={}", self.sum() + n)
    }

    fn player_name(player: Seat) -> String {
        match player {
            Seat::First => "1st".into(),
            Seat::Second => "2nd".into(),
        }
    }
}

/// Which of the two games the tab shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    /// Tic-tac-toe.
    TicTacToe,
    /// The Game of Eight.
    Eight,
}

/// Which pane the arrow keys drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// The board: arrows move the cell cursor.
    Board,
    /// The tree pane: arrows move the tree cursor and fold.
    Tree,
}

/// Wins, losses and draws of the human this session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Games the human won.
    pub wins: u32,
    /// Games the AI won.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
}

/// The fast search behind an AI move played without stepping: what it found and its cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FastSearch {
    /// Root value for the AI.
    pub value: i32,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time of the search itself.
    pub elapsed: Duration,
}

/// A search the tree pane shows: the AI's pending move being stepped (live), or the record
/// of the search behind a move already played.
pub struct SearchView<G: Playable> {
    /// The step machine and its recorded tree.
    pub stepper: Stepper<G>,
    /// Cursor and folds of the pane.
    pub tree: TreeView,
    /// Nodes plain minimax visits from the same root, shown beside alpha-beta's count (0
    /// for a minimax search).
    pub minimax_nodes: u64,
    /// True while the AI waits for this search to be stepped and its move played.
    pub live: bool,
    /// True for a search the human asked for on their own turn (`t`).
    pub analysis: bool,
    /// Set when the move was played by the fast search.
    pub fast: Option<FastSearch>,
}

impl<G: Playable> SearchView<G> {
    fn new(root: G, algorithm: Algorithm, live: bool) -> Self {
        // Alpha-beta's count is shown beside plain minimax's; a minimax search has its own.
        let minimax_nodes = match algorithm {
            Algorithm::AlphaBeta => search(&root, Algorithm::Minimax).stats.nodes,
            Algorithm::Minimax => 0,
        };
        Self {
            stepper: Stepper::new(root, algorithm),
            tree: TreeView::following(),
            minimax_nodes,
            live,
            analysis: false,
            fast: None,
        }
    }

    /// Moves the tree cursor to the current node, if the view follows the search.
    fn sync_cursor(&mut self) {
        self.tree.forget_beyond(self.stepper.nodes().len());
        if self.tree.follow {
            self.tree.cursor = self.stepper.current().unwrap_or(0);
        }
    }
}

/// One game in progress, its move list, its search and its tally.
pub struct Match<G: Playable> {
    /// The position on the board.
    pub position: G,
    /// The human's side.
    pub human: G::Player,
    /// Moves so far, labelled (`X5`) and by whom.
    pub moves: Vec<(G::Player, String)>,
    /// The search the tree pane shows.
    pub search: Option<SearchView<G>>,
    /// Board cursor: a cell index 0-8, or a number 1-3 for Eight.
    pub cursor: u8,
    /// Results this session.
    pub tally: Tally,
}

impl<G: Playable> Match<G> {
    fn new(position: G, human: G::Player, cursor: u8) -> Self {
        Self {
            position,
            human,
            moves: Vec::new(),
            search: None,
            cursor,
            tally: Tally::default(),
        }
    }

    /// True when the AI is to move and the game is not over.
    pub fn ai_to_move(&self) -> bool {
        self.position.outcome().is_none() && self.position.to_move() != self.human
    }

    /// True when the AI's search waits in the stepper.
    pub fn awaiting_step(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.live)
    }

    fn restart(&mut self, position: G, human: G::Player) {
        self.position = position;
        self.human = human;
        self.moves.clear();
        self.search = None;
    }

    fn play(&mut self, mv: u8) -> Option<Message> {
        let mover = self.position.to_move();
        let label = self.position.move_label(mv);
        self.position = self.position.play(mv);
        self.moves.push((mover, label));
        let outcome = self.position.outcome()?;
        Some(self.record_result(outcome))
    }

    fn record_result(&mut self, outcome: Outcome<G::Player>) -> Message {
        match outcome {
            Outcome::Winner(p) if p == self.human => {
                self.tally.wins += 1;
                Message::info("You win! r: new game")
            }
            Outcome::Winner(_) => {
                self.tally.losses += 1;
                Message::info("The AI wins. r: new game")
            }
            Outcome::Draw => {
                self.tally.draws += 1;
                Message::info("Draw. r: new game")
            }
        }
    }

    /// Lets the AI move: at once with the fast search, or by opening the stepper.
    fn ai_turn(&mut self, algorithm: Algorithm, step_mode: bool) -> Option<Message> {
        if !self.ai_to_move() {
            return None;
        }
        if step_mode {
            self.search = Some(SearchView::new(self.position, algorithm, true));
            return Some(Message::info(
                "AI's turn: Space steps its search, c runs it, Enter plays its move",
            ));
        }
        let root = self.position;
        let started = Instant::now();
        let result = search(&root, algorithm);
        let elapsed = started.elapsed();
        let mv = result.best_move?;
        let mut view = SearchView::new(root, algorithm, false);
        view.stepper.run_to_end();
        view.fast = Some(FastSearch {
            value: result.value,
            nodes: result.stats.nodes,
            elapsed,
        });
        view.sync_cursor();
        self.search = Some(view);
        let label = root.move_label(mv);
        let over = self.play(mv);
        over.or_else(|| {
            Some(Message::info(format!(
                "AI played {label} (value {}, {} nodes): your move",
                signed(result.value),
                thousands(result.stats.nodes)
            )))
        })
    }

    fn human_move(&mut self, choice: u8, algorithm: Algorithm, step_mode: bool) -> Option<Message> {
        if self.position.outcome().is_some() {
            return Some(Message::error("The game is over: r starts a new game"));
        }
        if self.ai_to_move() {
            return Some(Message::error(
                "It is the AI's turn: Enter plays its move, c runs its search",
            ));
        }
        match self.position.check_choice(choice) {
            Err(reason) => Some(Message::error(reason)),
            Ok(mv) => {
                let mover_label = self.position.move_label(mv);
                if let Some(over) = self.play(mv) {
                    return Some(over);
                }
                self.ai_turn(algorithm, step_mode)
                    .or_else(|| Some(Message::info(format!("You played {mover_label}"))))
            }
        }
    }

    fn play_search_move(&mut self) -> Option<Message> {
        let view = self.search.as_mut().filter(|v| v.live)?;
        view.stepper.run_to_end();
        view.live = false;
        view.sync_cursor();
        let result = view.stepper.result()?;
        let mv = result.best_move?;
        let label = self.position.move_label(mv);
        let over = self.play(mv);
        over.or_else(|| {
            Some(Message::info(format!(
                "AI played {label} (value {}): your move",
                signed(result.value)
            )))
        })
    }
}

/// What the last step did, in a sentence for the status line.
fn describe_last_event<G: Playable>(view: &SearchView<G>) -> String {
    use crate::search::EventKind;
    let stepper = &view.stepper;
    if let Some(result) = stepper.result() {
        let best = result
            .best_move
            .map_or("none".into(), |mv| stepper.root().move_label(mv));
        let then = if view.live {
            "Enter plays it"
        } else {
            "b steps back"
        };
        return format!(
            "Search finished: value {}, best {best}, {} nodes; {then}",
            signed(result.value),
            thousands(result.stats.nodes)
        );
    }
    let Some(event) = stepper.last_event() else {
        return "At the start: Space enters the root".into();
    };
    let node = stepper.node(event.node);
    let name = match (node.parent(), node.mv) {
        (Some(parent), Some(mv)) => stepper.position(parent).move_label(mv),
        _ => "the root".into(),
    };
    let level = if node.maximizing { "MAX" } else { "MIN" };
    let value = node.value.map_or("?".into(), |v| signed(i32::from(v)));
    match event.kind {
        EventKind::Enter if node.terminal => {
            format!("Entered {name}: the game is over here, a leaf")
        }
        EventKind::Enter => format!(
            "Entered {name} at depth {}: {level} takes the {} value of {} children",
            node.depth,
            if node.maximizing {
                "largest"
            } else {
                "smallest"
            },
            node.move_count
        ),
        EventKind::Leaf => format!("Evaluated leaf {name}: {value} (10 - depth for a win)"),
        EventKind::Return => {
            let parent = node.parent().map_or("the top".into(), |p| {
                let p = stepper.node(p);
                let best = p.value.map_or("?".into(), |v| signed(i32::from(v)));
                format!("its parent (best so far {best})")
            });
            format!("{name} returns {value} to {parent}")
        }
        EventKind::Cutoff => format!(
            "Cut-off at {name}: α {} ≥ β {}, {} pruned",
            signed(node.alpha()),
            signed(node.beta()),
            if node.pruned == 1 {
                "1 child".to_string()
            } else {
                format!("{} children", node.pruned)
            }
        ),
    }
}

/// A step-machine command from the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepCommand {
    /// One event.
    Step,
    /// The next child's whole subtree.
    Over,
    /// Finish the current node.
    Out,
    /// Undo one event.
    Back,
    /// To the end.
    RunToEnd,
}

/// Everything the tab holds.
pub struct SearchTab {
    /// The game shown.
    pub game: GameKind,
    /// The AI's search algorithm.
    pub algorithm: Algorithm,
    /// When on, each AI turn opens the stepper instead of moving at once.
    pub step_mode: bool,
    /// While on, the stepper steps by itself on each tick.
    pub autoplay: bool,
    /// Where the arrows go.
    pub focus: Focus,
    /// The tic-tac-toe game.
    pub tictactoe: Match<Board>,
    /// The Game of Eight.
    pub eight: Match<Eight>,
    ttt_first: FirstMover,
    eight_first: FirstMover,
}

impl SearchTab {
    /// The tab as the config sets it up, with both games started.
    pub fn new(config: &Config, rng: &mut ChaCha8Rng) -> (Self, Option<Message>) {
        let human_mark = match config.tictactoe.human_plays {
            config::Mark::X => Mark::X,
            config::Mark::O => Mark::O,
        };
        let algorithm = match config.search.algorithm {
            config::AlgorithmChoice::Minimax => Algorithm::Minimax,
            config::AlgorithmChoice::AlphaBeta => Algorithm::AlphaBeta,
        };
        let mut tab = Self {
            game: GameKind::TicTacToe,
            algorithm,
            step_mode: config.search.step,
            autoplay: false,
            focus: Focus::Board,
            tictactoe: Match::new(Board::empty(human_mark), human_mark, 4),
            eight: Match::new(Eight::start(), Seat::First, 1),
            ttt_first: config.tictactoe.first,
            eight_first: config.eight.first,
        };
        let eight_message = tab.new_eight(rng);
        let ttt_message = tab.new_tictactoe(rng, human_mark);
        tab.focus_for_turn();
        (tab, ttt_message.or(eight_message))
    }

    fn human_first(rule: FirstMover, rng: &mut ChaCha8Rng) -> bool {
        match rule {
            FirstMover::Human => true,
            FirstMover::Ai => false,
            FirstMover::Random => rng.random_bool(0.5),
        }
    }

    fn new_tictactoe(&mut self, rng: &mut ChaCha8Rng, human: Mark) -> Option<Message> {
        let first = if Self::human_first(self.ttt_first, rng) {
            human
        } else {
            human.other()
        };
        self.tictactoe.restart(Board::empty(first), human);
        let who = if first == human {
            "you move first"
        } else {
            "the AI moves first"
        };
        let ai = self.tictactoe.ai_turn(self.algorithm, self.step_mode);
        ai.or_else(|| Some(Message::info(format!("New game: you play {human}, {who}"))))
    }

    fn new_eight(&mut self, rng: &mut ChaCha8Rng) -> Option<Message> {
        let human = if Self::human_first(self.eight_first, rng) {
            Seat::First
        } else {
            Seat::Second
        };
        self.eight.restart(Eight::start(), human);
        self.eight.cursor = 1;
        let ai = self.eight.ai_turn(self.algorithm, self.step_mode);
        ai.or_else(|| Some(Message::info("New game of Eight: you choose first")))
    }

    /// Starts a new game of the game shown.
    pub fn new_game(&mut self, rng: &mut ChaCha8Rng) -> Option<Message> {
        self.autoplay = false;
        let message = match self.game {
            GameKind::TicTacToe => self.new_tictactoe(rng, self.tictactoe.human),
            GameKind::Eight => self.new_eight(rng),
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
    pub fn toggle_side(&mut self, rng: &mut ChaCha8Rng) -> Option<Message> {
        if self.game != GameKind::TicTacToe {
            return Some(Message::error(
                "x chooses X or O in tic-tac-toe (g switches game)",
            ));
        }
        self.autoplay = false;
        let human = self.tictactoe.human.other();
        let message = self.new_tictactoe(rng, human);
        self.focus_for_turn();
        message
    }

    /// Switches between tic-tac-toe and Eight.
    pub fn switch_game(&mut self) -> Option<Message> {
        self.autoplay = false;
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

    /// Switches minimax / alpha-beta; a search waiting in the stepper restarts with it.
    pub fn toggle_algorithm(&mut self) -> Option<Message> {
        self.algorithm = self.algorithm.toggled();
        let algorithm = self.algorithm;
        let restarted = shown_mut!(self, |game| Self::restart_live(game, algorithm));
        let suffix = if restarted {
            " (the search restarts)"
        } else {
            ""
        };
        Some(Message::info(format!(
            "The AI now uses {algorithm}{suffix}"
        )))
    }

    fn restart_live<G: Playable>(game: &mut Match<G>, algorithm: Algorithm) -> bool {
        if game.awaiting_step() {
            game.search = Some(SearchView::new(game.position, algorithm, true));
            true
        } else {
            false
        }
    }

    /// Turns step mode on or off; on, an AI turn in progress opens the stepper, off, the AI
    /// moves at once.
    pub fn toggle_step_mode(&mut self) -> Option<Message> {
        self.step_mode = !self.step_mode;
        self.autoplay = false;
        let (algorithm, step_mode) = (self.algorithm, self.step_mode);
        // Both games follow the mode: a game not shown must not stay waiting in the stepper.
        let ttt = Self::apply_step_mode(&mut self.tictactoe, algorithm, step_mode);
        let eight = Self::apply_step_mode(&mut self.eight, algorithm, step_mode);
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
        algorithm: Algorithm,
        step_mode: bool,
    ) -> Option<Message> {
        if step_mode || !game.awaiting_step() {
            return None;
        }
        game.search = None;
        game.ai_turn(algorithm, false)
    }

    /// Opens a search of the current position for the side to move (a hint for the human,
    /// or the whole game tree from the start), to be stepped like the AI's.
    pub fn analyze(&mut self) -> Option<Message> {
        let algorithm = self.algorithm;
        let message = shown_mut!(self, |game| Self::analyze_in(game, algorithm));
        if message.kind == super::MessageKind::Info {
            self.autoplay = false;
            self.focus = Focus::Tree;
        }
        Some(message)
    }

    fn analyze_in<G: Playable>(game: &mut Match<G>, algorithm: Algorithm) -> Message {
        if game.position.outcome().is_some() {
            return Message::error("The game is over: r starts a new game");
        }
        if game.awaiting_step() {
            return Message::error("The AI's search is already open: step it, or Enter plays");
        }
        let mut view = SearchView::new(game.position, algorithm, false);
        view.analysis = true;
        game.search = Some(view);
        Message::info("Searching your position: Space steps, c runs to the end")
    }

    /// Switches the focus between board and tree.
    pub fn toggle_focus(&mut self) -> Option<Message> {
        self.focus = match self.focus {
            Focus::Board => Focus::Tree,
            Focus::Tree => Focus::Board,
        };
        None
    }

    /// The human's choice: a cell (1-9) or a number (1-3).
    pub fn play(&mut self, choice: u8) -> Option<Message> {
        let (algorithm, step_mode) = (self.algorithm, self.step_mode);
        let message = shown_mut!(self, |game| game.human_move(choice, algorithm, step_mode));
        if self.current_awaits_step() {
            self.focus = Focus::Tree;
        }
        message
    }

    /// Plays the choice under the board cursor.
    pub fn play_at_cursor(&mut self) -> Option<Message> {
        // Tic-tac-toe's cursor is a cell index; the choice typed is the cell number.
        let choice = match self.game {
            GameKind::TicTacToe => self.tictactoe.cursor + 1,
            GameKind::Eight => self.eight.cursor,
        };
        self.play(choice)
    }

    /// Moves the board cursor, wrapping at the edges.
    pub fn move_cursor(&mut self, dx: i8, dy: i8) {
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
    pub fn current_awaits_step(&self) -> bool {
        shown!(self, |game| game.awaiting_step())
    }

    /// True when the game shown has a search to show or step.
    pub fn has_search(&self) -> bool {
        shown!(self, |game| game.search.is_some())
    }

    /// True when the shown search has run to its end (or there is none).
    pub fn search_finished(&self) -> bool {
        shown!(self, |game| game
            .search
            .as_ref()
            .is_none_or(|v| v.stepper.is_finished()))
    }

    /// True when the shown search has taken at least one step.
    pub fn search_started(&self) -> bool {
        shown!(self, |game| game
            .search
            .as_ref()
            .map(|v| v.stepper.events_taken()))
        .is_some_and(|events| events > 0)
    }

    /// True when the game shown has ended.
    pub fn game_over(&self) -> bool {
        shown!(self, |game| game.position.outcome().is_some())
    }

    /// True when the human may move in the game shown.
    pub fn human_to_move(&self) -> bool {
        shown!(self, |game| game.position.outcome().is_none()
            && !game.ai_to_move())
    }

    /// Runs a step-machine command on the shown search.
    pub fn step(&mut self, command: StepCommand) -> Option<Message> {
        self.autoplay = false;
        Some(shown_mut!(self, |game| Self::step_view(
            game.search.as_mut(),
            command
        )))
    }

    fn step_view<G: Playable>(view: Option<&mut SearchView<G>>, command: StepCommand) -> Message {
        let Some(view) = view else {
            return Message::error(
                "No search to step yet: t searches your position, m steps the AI's",
            );
        };
        let stepper = &mut view.stepper;
        match command {
            StepCommand::Step if stepper.is_finished() => {
                return Message::info("The search is finished: b steps back");
            }
            StepCommand::Back if stepper.events_taken() == 0 => {
                return Message::info("At the start of the search");
            }
            StepCommand::Step => {
                stepper.step();
            }
            StepCommand::Over => stepper.step_over(),
            StepCommand::Out => stepper.step_out(),
            StepCommand::Back => {
                stepper.step_back();
            }
            StepCommand::RunToEnd => stepper.run_to_end(),
        }
        view.tree.follow = true;
        view.sync_cursor();
        let text = describe_last_event(view);
        Message::info(if command == StepCommand::Back {
            format!("Stepped back. Before that: {text}")
        } else {
            text
        })
    }

    /// One autoplay tick: one step; autoplay stops at the end.
    pub fn tick(&mut self) -> bool {
        if !self.autoplay {
            return false;
        }
        let finished = shown_mut!(self, |game| Self::tick_view(game.search.as_mut()));
        if finished {
            self.autoplay = false;
        }
        true
    }

    fn tick_view<G: Playable>(view: Option<&mut SearchView<G>>) -> bool {
        let Some(view) = view else { return true };
        view.stepper.step();
        view.tree.follow = true;
        view.sync_cursor();
        view.stepper.is_finished()
    }

    /// Starts or pauses autoplay.
    pub fn toggle_autoplay(&mut self) -> Option<Message> {
        if !self.has_search() {
            return Some(Message::error(
                "No search to play: the AI searches on its turn",
            ));
        }
        self.autoplay = !self.autoplay;
        Some(Message::info(if self.autoplay {
            "Autoplay: the search steps by itself (p pauses)"
        } else {
            "Autoplay paused"
        }))
    }

    /// Plays the AI move the stepped search chose (finishing the search first).
    pub fn play_search_move(&mut self) -> Option<Message> {
        self.autoplay = false;
        let message = shown_mut!(self, |game| game.play_search_move());
        if message.is_some() {
            self.focus = Focus::Board;
        }
        message.or_else(|| Some(Message::error("No AI move is waiting")))
    }

    /// Moves the tree cursor.
    pub fn tree_cursor(&mut self, delta: i32) {
        shown_mut!(self, |game| Self::tree_cursor_in(
            game.search.as_mut(),
            delta
        ));
    }

    fn tree_cursor_in<G: Playable>(view: Option<&mut SearchView<G>>, delta: i32) {
        if let Some(view) = view {
            view.tree.move_cursor(&view.stepper, delta);
        }
    }

    /// Puts the tree cursor on a line (a mouse click); a click on the selected node folds
    /// or unfolds it.
    pub fn tree_click(&mut self, line: usize) -> Option<Message> {
        shown_mut!(self, |game| Self::tree_click_in(game.search.as_mut(), line))
    }

    fn tree_click_in<G: Playable>(
        view: Option<&mut SearchView<G>>,
        line: usize,
    ) -> Option<Message> {
        let view = view?;
        let lines = view.tree.lines(&view.stepper);
        let LineKind::Node(id) = lines.get(line)?.kind else {
            return None;
        };
        if view.tree.cursor == id && !view.tree.follow {
            let expanded = view.tree.is_expanded(&view.stepper, id);
            return Self::fold_in(view, !expanded);
        }
        view.tree.cursor = id;
        view.tree.follow = false;
        None
    }

    /// Folds (`true`) or unfolds the node under the tree cursor; folding a folded node
    /// moves to its parent, unfolding an open one to its first child.
    pub fn tree_fold(&mut self, fold: bool) -> Option<Message> {
        shown_mut!(self, |game| Self::fold_in(game.search.as_mut()?, fold))
    }

    fn fold_in<G: Playable>(view: &mut SearchView<G>, fold: bool) -> Option<Message> {
        if view.stepper.nodes().is_empty() {
            return None;
        }
        let id: NodeId = view.tree.cursor;
        let node = *view.stepper.node(id);
        let expanded = view.tree.is_expanded(&view.stepper, id);
        view.tree.follow = false;
        if fold {
            if expanded && node.children > 0 {
                if !node.is_done() {
                    return Some(Message::error(
                        "That node is still being searched: it stays open",
                    ));
                }
                view.tree.set_expanded(id, false);
            } else if let Some(parent) = node.parent() {
                view.tree.cursor = parent;
            }
        } else if !expanded {
            view.tree.set_expanded(id, true);
        } else if let Some(child) = view.stepper.children(id).next() {
            view.tree.cursor = child;
        }
        None
    }

    /// Unfolds the whole tree, or folds it back.
    pub fn tree_expand_all(&mut self) -> Option<Message> {
        let toggle = |tree: &mut TreeView| {
            tree.expand_all = !tree.expand_all;
            tree.expand_all
        };
        let on = shown_mut!(self, |game| game
            .search
            .as_mut()
            .map(|v| toggle(&mut v.tree)))?;
        Some(Message::info(if on {
            "Every explored node unfolded (e folds back)"
        } else {
            "Finished subtrees folded"
        }))
    }

    /// Puts the tree cursor back on the search's current node and follows it again.
    pub fn tree_to_current(&mut self) {
        shown_mut!(self, |game| Self::follow_in(game.search.as_mut()));
    }

    fn follow_in<G: Playable>(view: Option<&mut SearchView<G>>) {
        if let Some(view) = view {
            view.tree.follow = true;
            view.sync_cursor();
        }
    }
}
