//! The Connect Four tab's state: the game, who plays which colour, the AI thinking on its
//! own thread (once the trainer pool has a place for it), the record of its last search for the tree pane, and the score.

use super::action::Action;
use super::ai::{self, Thought};
use super::ai::{Searched, Verdicts};
use super::outline::{self, Folds, Row};
use super::settings::{Connect4Ai, Connect4Config};
use super::thinking::Thinking;
use crate::components::autoplay::Autoplay;
use crate::components::mcts_search::MctsView;
use crate::components::mcts_search::step::{self as mcts_step, Stepping};
use crate::components::tree_search::SearchView;
use crate::components::tree_search::predict::Predicting;
use crate::config::shared::AUTOPLAY_MS_RANGE;
use crate::config::{Config, FirstMover};
use crate::domain::games::connect4::{Board, Disc, Refused, WIDTH};
use crate::domain::prediction::Score;
use crate::tabkit::background::{OneShot, TrainerPool};
use crate::tabkit::goto::GoTo;
use crate::tabkit::message::Message;
use crate::tabkit::side::Side;
use crate::tabkit::tally::{GameResult, Tally};
use crate::tabkit::why::{Decision, Played, Why};
use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

/// Which pane the arrows move in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Focus {
    /// The board: ←→ pick a column.
    Board,
    /// The search pane: ↑↓ move through the tree, ←→ fold.
    Tree,
}

/// One move of the game, with what undo needs and what the AI weighed.
#[derive(Debug, Clone)]
pub(crate) struct Turn {
    /// The position before the move.
    pub(crate) before: Board,
    /// The column played (0-based).
    pub(crate) column: u8,
    /// Who played it.
    pub(crate) by: Side,
    /// The AI's record of the move (AI moves only).
    pub(crate) decision: Option<Decision>,
}

/// The Connect Four tab.
pub struct Connect4Tab {
    /// The settings in force.
    pub(crate) config: Connect4Config,
    /// The seed of the AI's random choices.
    pub(crate) seed: u64,
    /// Draws who opens when the config leaves it to chance.
    rng: ChaCha8Rng,
    /// The position.
    pub(crate) board: Board,
    /// The moves so far.
    pub(crate) turns: Vec<Turn>,
    /// The person's colour this game.
    pub(crate) human: Disc,
    /// Who opens the next game (`x` changes it).
    pub(crate) first: FirstMover,
    /// Games started, so each game's random choices differ.
    pub(super) games: u64,
    /// The column under the board cursor (0-based).
    pub(crate) cursor: usize,
    /// Where the arrows go.
    pub(crate) focus: Focus,
    /// The AI's move in the works.
    pub(crate) thinking: Option<Thinking>,
    /// A search given up (a new game or undo came first) that may still be running: at
    /// most one is kept, so a session runs at most two searches however fast it asks.
    pub(super) abandoned: Option<OneShot>,
    /// Search threads alive now, waiting for a place or searching, given up or not.
    pub(super) searching: Arc<AtomicUsize>,
    /// Where the AI's searches take their places: the process's pool, which training runs
    /// share (a test gives the tab a pool of its own).
    pub(super) pool: Arc<TrainerPool>,
    /// A student following the teacher: the AI's moves come from the teacher's journal.
    pub(super) from_journal: bool,
    /// Whether the AI's MCTS waits to be stepped on its turn.
    pub(crate) step_mode: bool,
    /// Autoplay on the stepped search: on or off, its pace, when it last stepped.
    pub(crate) autoplay: Autoplay,
    /// The AI's MCTS search being stepped, while it waits.
    pub(crate) stepping: Option<MctsView<Board>>,
    /// The AI's alpha-beta search stepped node by node: waiting (live), or the record of
    /// the stepped move just played.
    pub(crate) tree_search: Option<SearchView<Board>>,
    /// The AI's last search and the position it searched.
    pub(crate) last: Option<(Board, Thought)>,
    /// The tree pane's folds and cursor.
    pub(crate) folds: Folds,
    /// The person's results.
    pub(crate) tally: Tally,
    /// The position every game starts from (`connect4.start`; the empty board without).
    pub(super) start: Board,
    /// The "Go to step" entry while it is open (`G`).
    pub(crate) goto: GoTo,
    /// Predict mode, while it is on (`P`).
    pub(crate) predict: Option<Predicting>,
    /// A class follows its teacher: answers wait for the teacher's reveal.
    pub(crate) hold_answers: bool,
    /// The predictions graded before predict mode was last turned off.
    pub(crate) scored_before: Score,
}

impl Connect4Tab {
    /// The tab as the config sets it up, the person's first game ready.
    pub(crate) fn new(config: &Config, seed: u64) -> Self {
        let config = config.connect4.clone();
        let autoplay = Autoplay::new(config.autoplay_ms, AUTOPLAY_MS_RANGE);
        let seed = config.seed.unwrap_or(seed);
        let step_mode = config.step;
        // The config was checked on load: a start that does not read is never here.
        let start = config.start_board().ok().flatten().unwrap_or_default();
        let mut tab = Self {
            first: config.first,
            config,
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            board: Board::new(),
            turns: Vec::new(),
            human: Disc::Red,
            games: 0,
            cursor: 3,
            focus: Focus::Board,
            thinking: None,
            abandoned: None,
            searching: Arc::new(AtomicUsize::new(0)),
            pool: Arc::clone(TrainerPool::global()),
            from_journal: false,
            step_mode,
            stepping: None,
            autoplay,

            tree_search: None,
            last: None,
            folds: Folds::default(),
            tally: Tally::default(),
            start,
            goto: GoTo::steps(),
            predict: None,
            hold_answers: false,
            scored_before: Score::default(),
        };
        tab.start_game();
        tab
    }

    /// A fresh game from the start position (the empty board, or `connect4.start`); who
    /// moves first from it follows `first`; the AI starts thinking if it opens.
    pub(crate) fn start_game(&mut self) {
        self.abandon_thinking();
        self.stepping = None;
        self.tree_search = None;
        self.goto.close();
        self.board = self.start;
        self.turns.clear();
        self.games += 1;
        let human_first = match self.first {
            FirstMover::Human => true,
            FirstMover::Ai => false,
            FirstMover::Random => self.rng.random_bool(0.5),
        };
        let to_move = self.start.player_to_move();
        self.human = if human_first {
            to_move
        } else {
            to_move.other()
        };
        self.cursor = 3;
        self.ai_turn_if_due();
    }

    /// Whether the game is on and it is the person's turn (and the AI is not thinking).
    pub(crate) fn human_to_move(&self) -> bool {
        !self.board.is_over()
            && self.board.player_to_move() == self.human
            && self.thinking.is_none()
    }

    /// The side whose disc is `disc`.
    pub(crate) fn side_of(&self, disc: Disc) -> Side {
        if disc == self.human {
            Side::Human
        } else {
            Side::Ai
        }
    }

    /// The person drops a disc in `column` (0-based).
    pub(crate) fn drop_disc(&mut self, column: usize) -> Message {
        if self.thinking.is_some() {
            return Message::error("The AI is thinking: wait for its move");
        }
        if self.stepping.is_some() || self.tree_search_waits() {
            return Message::error("The AI's search waits to be stepped: Space steps, Enter plays");
        }
        if self.board.is_over() {
            return Message::error("The game is over: r starts a new one");
        }
        if !self.human_to_move() {
            return Message::error("It is the AI's turn");
        }
        match self.board.played(column) {
            Err(refused) => Message::error(refused_words(&refused)),
            Ok(after) => {
                self.cursor = column;
                self.play(after, column as u8, Side::Human, None);
                if let Some(end) = self.ended() {
                    return end;
                }
                self.ai_turn_if_due();
                Message::info(format!("You played column {}", column + 1))
            }
        }
    }

    fn play(&mut self, after: Board, column: u8, by: Side, decision: Option<Decision>) {
        self.turns.push(Turn {
            before: self.board,
            column,
            by,
            decision,
        });
        self.board = after;
        if self.board.is_over() && !self.set_up() {
            self.tally.count(self.result());
        }
    }

    /// Whether the games start from a set-up position (`connect4.start`): their results
    /// are not counted.
    pub(crate) fn set_up(&self) -> bool {
        self.start != Board::new()
    }

    /// How the finished game went for the person.
    fn result(&self) -> GameResult {
        if !self.board.is_won() {
            GameResult::Drawn
        } else if self.board.player_to_move() == self.human {
            GameResult::Lost
        } else {
            GameResult::Won
        }
    }

    /// What to say when the game just ended.
    fn ended(&self) -> Option<Message> {
        let said = match self.result() {
            GameResult::Won => "Four in a row: you win!",
            GameResult::Lost => "Four in a row: the AI wins. y says why;",
            GameResult::Drawn => "The board is full: a draw.",
        };
        let counted = if self.set_up() {
            " (a set-up game: not counted)"
        } else {
            ""
        };
        (self.board.is_over()).then(|| Message::info(format!("{said}{counted} r plays again")))
    }

    /// Sets up `board` with the person playing `human` (the tests: positions the AI's
    /// replies cannot be steered to).
    #[cfg(test)]
    pub(crate) fn set_position(&mut self, board: Board, human: Disc) {
        self.abandon_thinking();
        self.board = board;
        self.turns.clear();
        self.human = human;
        self.ai_turn_if_due();
    }

    /// Plays `thought`, the AI's move on `board` (the position now); what to say.
    pub(crate) fn ai_moves(&mut self, board: Board, thought: Thought) -> Message {
        let column = thought.column;
        let ai = thought.ai;
        let decision = ai::decision(&board, &thought);
        let after = board.play(usize::from(column));
        self.folds = Folds::default();
        self.last = Some((board, thought));
        self.play(after, column, Side::Ai, Some(decision));
        self.ended().unwrap_or_else(|| {
            Message::info(format!(
                "The AI ({}) played column {}: your move",
                ai.shown(),
                column + 1
            ))
        })
    }

    /// Takes back the person's last move and the AI's reply.
    pub(crate) fn undo(&mut self) -> Message {
        let Some(last_human) = self.turns.iter().rposition(|t| t.by == Side::Human) else {
            return Message::error("Nothing of yours to take back");
        };
        self.abandon_thinking();
        self.stepping = None;
        self.tree_search = None;
        let was_over = (self.board.is_over() && !self.set_up()).then(|| self.result());
        self.board = self.turns[last_human].before;
        self.turns.truncate(last_human);
        let mut said = "Took back your last move".to_string();
        if let Some(result) = was_over {
            said = format!("{said}; {}", self.tally.take_back(result));
        }
        self.ai_turn_if_due();
        Message::info(said)
    }

    /// The next AI in the list; it plays from its next move on.
    pub(crate) fn next_ai(&mut self) -> Message {
        let at = Connect4Ai::ALL
            .iter()
            .position(|&a| a == self.config.ai)
            .unwrap_or(0);
        self.config.ai = Connect4Ai::ALL[(at + 1) % Connect4Ai::ALL.len()];
        Message::info(format!("The AI is now {}", self.ai_words()))
    }

    /// The AI and its settings, in a few words.
    pub(crate) fn ai_words(&self) -> String {
        let c = &self.config;
        match c.ai {
            Connect4Ai::AlphaBeta => format!("alpha-beta, depth {}", c.depth),
            Connect4Ai::Mcts => format!(
                "MCTS, {} iters",
                crate::domain::numbers::thousands(c.iterations)
            ),
            Connect4Ai::Perfect => "perfect (exact solver)".to_string(),
            Connect4Ai::Random => "random".to_string(),
        }
    }

    /// Who opens the next game: the person, the AI, or chance.
    pub(crate) fn toggle_first(&mut self) -> Message {
        self.first = match self.first {
            FirstMover::Human => FirstMover::Ai,
            FirstMover::Ai => FirstMover::Random,
            FirstMover::Random => FirstMover::Human,
        };
        let who = match self.first {
            FirstMover::Human => "you open",
            FirstMover::Ai => "the AI opens",
            FirstMover::Random => "who opens is drawn",
        };
        self.start_game();
        Message::info(format!("New game: {who}"))
    }

    /// Moves the board cursor, within the board.
    pub(crate) fn move_cursor(&mut self, by: i8) {
        self.cursor = (self.cursor as i64 + i64::from(by)).clamp(0, WIDTH as i64 - 1) as usize;
    }

    /// Every move of the game, for the why overlay.
    pub(crate) fn why(&self) -> Option<Why> {
        let moves = self
            .turns
            .iter()
            .map(|turn| Played {
                by: turn.by,
                text: format!(
                    "{} column {}",
                    turn.before.player_to_move().name(),
                    turn.column + 1
                ),
                decision: turn.decision.clone(),
            })
            .collect();
        Why::last_ai_move(moves)
    }
}

impl Connect4Tab {
    /// The tree pane's rows: the last search's outline, as the folds open it (a stepped
    /// MCTS keeps its own, in its view).
    pub(crate) fn tree_rows(&self) -> Vec<Row> {
        let Some((_, thought)) = &self.last else {
            return Vec::new();
        };
        match &thought.searched {
            Searched::AlphaBeta(found)
            | Searched::GaveUp {
                fallback: found, ..
            } => outline::rows(found, thought, &self.folds),
            Searched::Mcts(mcts) => outline::mcts_rows(mcts, &thought.verdicts, &self.folds, &[]),
            _ => Vec::new(),
        }
    }

    /// Moves the tree cursor by `by` rows, within the outline.
    pub(crate) fn tree_cursor(&mut self, by: i32) {
        if let Some(view) = self.stepping.as_mut() {
            return view.move_cursor(by);
        }
        let last = self.tree_rows().len().saturating_sub(1) as i64;
        let at = (self.folds.cursor as i64).saturating_add(i64::from(by));
        self.folds.cursor = at.clamp(0, last) as usize;
    }

    /// Folds or unfolds the node under the tree cursor (the stepped MCTS's as the
    /// component folds: folding a folded node goes to its parent).
    pub(crate) fn tree_fold(&mut self, open: bool) -> Option<Message> {
        if let Some(view) = self.stepping.as_mut() {
            return view.fold(!open).map(Message::info);
        }
        if let Some(row) = self.tree_rows().get(self.folds.cursor) {
            let node = row.node;
            self.folds.set(node, open);
        }
        None
    }
}

impl Connect4Tab {
    /// Step mode on or off; turning it off while a search waits runs it at once.
    pub(crate) fn toggle_step_mode(&mut self) -> Message {
        self.step_mode = !self.step_mode;
        if !self.step_mode {
            let waited = self.tree_search_waits();
            if self.stepping.take().is_some() || waited {
                self.tree_search = None;
                self.ai_turn_if_due();
            }
            return Message::info("Step mode off: the AI moves at once");
        }
        match self.config.ai {
            Connect4Ai::AlphaBeta => Message::info(
                "Step mode on: the AI's next alpha-beta search waits for Space, event by event",
            ),
            Connect4Ai::Mcts => {
                Message::info("Step mode on: the AI's next MCTS search waits for Space")
            }
            _ => Message::info("Step mode on: it steps alpha-beta and MCTS, so a picks one first"),
        }
    }

    /// The stepper's keys on the stepped MCTS: one phase, the rest of the iteration, back,
    /// to the end (the component's work, with its stops for predict mode).
    pub(crate) fn step(&mut self, action: Action) -> Option<Message> {
        let command = match action {
            Action::Step => Stepping::Phase,
            Action::StepOver | Action::StepOut => Stepping::Iteration,
            Action::StepBack => Stepping::Back,
            Action::RunToEnd => Stepping::ToEnd,
            _ => return None,
        };
        self.stepping.as_ref()?;
        Some(mcts_step::step(
            self.stepping.as_mut(),
            command,
            self.predict.is_some(),
        ))
    }

    /// Plays the move of the stepped search: the root move visited most so far.
    pub(crate) fn play_stepped(&mut self) -> Message {
        let Some(view) = self.stepping.take() else {
            return Message::error("No stepped search waits");
        };
        let mcts = view.stepper.mcts().clone();
        let Some(column) = mcts.best_move() else {
            self.stepping = Some(view);
            return Message::error("No iteration has reached a move yet: Space steps");
        };
        let thought = Thought {
            column,
            ai: Connect4Ai::Mcts,
            searched: Searched::Mcts(Box::new(mcts)),
            verdicts: Verdicts::NotAsked,
        };
        self.ai_moves(self.board, thought)
    }
}

/// A refused move in the tab's words.
fn refused_words(refused: &Refused) -> String {
    match refused {
        Refused::ColumnFull(column) => format!("Column {column} is full: pick another"),
        other => other.to_string(),
    }
}

/// What callers outside the crate read.
impl Connect4Tab {
    /// The position.
    pub fn position(&self) -> Board {
        self.board
    }

    /// Whether the AI is working out its move.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The game's moves, each the position it was played from, its column (0-based) and
    /// who played it: what a test replays to check the position.
    pub fn moves(&self) -> impl Iterator<Item = (Board, u8, Side)> + '_ {
        self.turns.iter().map(|t| (t.before, t.column, t.by))
    }

    /// The person's colour this game.
    pub fn human(&self) -> Disc {
        self.human
    }
}
