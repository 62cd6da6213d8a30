//! What `y` (why), Backspace (undo) and the position editor (`i`) do to the tab.

use super::editor::{EditCommand, Editor};
use super::history::{AiChoice, MctsChoice, TreeChoice};
use super::mcts::{AiSetup, mcts_run};
use super::state::{Focus, GameKind, TicTacToeTab};
use super::why::{decision, why_of};
use crate::components::tree_search::Playable;
use crate::domain::games::Game;
use crate::domain::games::tictactoe::Board;
use crate::domain::search::{MoveOrder, search_weighing};
use crate::domain::solve::perfect::Solver;
use crate::tabkit::message::Message;
use crate::tabkit::side::Side;
use crate::tabkit::tab::Effects;
use crate::tabkit::why::Why;

/// What `i` says when the editor opens.
const EDITOR_OPENED: &str = "Editor: x/o/Space set the cell; Enter plays, t searches, Esc cancels";

impl TicTacToeTab {
    /// True when the game shown has an AI move with a record to show.
    pub(crate) fn has_ai_record(&self) -> bool {
        crate::shown!(self, |game| game.moves.iter().any(|t| t.choice.is_some()))
    }

    /// True when the game shown has a move of the person's to take back.
    pub(crate) fn can_undo(&self) -> bool {
        crate::shown!(self, |game| game.moves.iter().any(|t| t.by == Side::Human))
    }

    /// Opens the why overlay on the AI's last move of the game shown.
    pub(crate) fn why(&self, effects: &mut Effects) -> Option<Message> {
        match crate::shown!(self, |game| why_of(game)) {
            Some(why) => {
                effects.show_why = Some(why);
                None
            }
            None => Some(Message::error(
                "The AI has not moved in this game yet: y shows why once it has",
            )),
        }
    }

    /// Takes back the person's last move and the AI's reply in the game shown.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn undo(&mut self) -> Option<Message> {
        self.autoplay.on = false;
        let message = crate::shown_mut!(self, |game| game.undo());
        self.focus = Focus::Board;
        Some(message)
    }

    /// Opens the position editor on the tic-tac-toe board.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn open_editor(&mut self) -> Option<Message> {
        if self.game != GameKind::TicTacToe {
            return Some(Message::error(
                "The position editor is for tic-tac-toe (g switches game): a game of Eight \
                 is its running sum, set by playing",
            ));
        }
        self.autoplay.on = false;
        let game = &self.tictactoe;
        self.editor = Some(Editor::new(&game.position, game.cursor));
        Some(Message::info(EDITOR_OPENED))
    }

    /// One key of the position editor.
    pub(crate) fn edit(&mut self, command: EditCommand, effects: &mut Effects) -> Option<Message> {
        let editor = self.editor.as_mut()?;
        match command {
            EditCommand::Cursor(dx, dy) => editor.move_cursor(dx, dy),
            EditCommand::Cell(n) if (1..=9).contains(&n) => editor.cursor = n - 1,
            EditCommand::Cell(_) => {
                return Some(Message::error("there is no cell 0: cells are 1-9"));
            }
            EditCommand::Put(mark) => editor.put(mark),
            EditCommand::SwitchMover => {
                return Some(match editor.switch_mover() {
                    Ok(mark) => Message::info(format!("{mark} to move")),
                    Err(why) => Message::error(why),
                });
            }
            EditCommand::Clear => {
                editor.cells = [None; 9];
                return Some(Message::info("Board cleared"));
            }
            EditCommand::Play => return Some(self.use_board(false)),
            EditCommand::Search => return Some(self.use_board(true)),
            EditCommand::Ask => return self.ask(effects),
            EditCommand::Cancel => {
                self.editor = None;
                return Some(Message::info("Editor closed: the game is as it was"));
            }
        }
        None
    }

    /// Plays from the edited board (`search`: with its search open in the tree pane, to
    /// step); an illegal or finished board is refused and nothing changes.
    fn use_board(&mut self, search: bool) -> Message {
        let Some(editor) = self.editor else {
            return Message::error("The position editor is not open");
        };
        let board = match editor.playable() {
            Ok(board) => board,
            Err(why) => return Message::error(format!("Cannot use this board: {why}")),
        };
        self.editor = None;
        let (setup, step_mode) = (self.setup(), self.step_mode);
        let game = &mut self.tictactoe;
        game.restart(board, game.human);
        game.set_up = true;
        game.cursor = editor.cursor;
        let mover = board.to_move();
        let set = format!("Board set up, {mover} to move (not counted in the tally)");
        let message = if game.ai_to_move() {
            // `t` opens the AI's search in the stepper whatever the step mode.
            let ai = game.ai_turn(&setup, step_mode || search);
            ai.map_or(Message::info(set.clone()), |ai| {
                Message::info(format!("{set}. {}", ai.text))
            })
        } else if search {
            let analysis = self.analyze().map(|m| m.text).unwrap_or_default();
            Message::info(format!("{set}. {analysis}"))
        } else {
            Message::info(format!("{set}: your move"))
        };
        self.focus = if self.current_awaits_step() || search {
            Focus::Tree
        } else {
            Focus::Board
        };
        message
    }

    /// What the AI would play on the edited board for the side to move, in the why
    /// overlay; nothing is played and no random number drawn.
    fn ask(&self, effects: &mut Effects) -> Option<Message> {
        let editor = self.editor?;
        let board = match editor.playable() {
            Ok(board) => board,
            Err(why) => {
                return Some(Message::error(format!(
                    "Cannot ask about this board: {why}"
                )));
            }
        };
        // MCTS's random games take the seed the game's next move would.
        let seed = self.tictactoe.move_seed(self.setup().seed);
        effects.show_why = Some(asked(board, &self.setup(), self.tictactoe.order, seed));
        None
    }
}

/// The AI's view of a board set up in the editor: the search `setup` picks, run at once.
fn asked(board: Board, setup: &AiSetup, order: MoveOrder, seed: u64) -> Why {
    let choice = if let Some(algorithm) = setup.kind.tree() {
        AiChoice::Tree(TreeChoice {
            algorithm,
            order,
            weighing: search_weighing(&board, algorithm, order),
            stepped: None,
            minimax_nodes: 0,
            beyond_tree: false,
        })
    } else {
        let view = mcts_run(board, setup.iterations, setup.exploration, seed);
        AiChoice::Mcts(MctsChoice::of(view.stepper.mcts(), None))
    };
    let mover = Board::player_name(board.to_move());
    let context = format!("{mover} to move: a board set up in the editor");
    let mut record = decision(&board, &choice, &context, &mut Solver::new());
    let name = setup.kind.name();
    record.title = match choice.best_move() {
        Some(mv) => format!("The {name} AI would play {}", board.move_label(mv)),
        None => format!("The {name} AI's view"),
    };
    Why::asked(board.to_string(), record)
}
