//! One game against the AI: the position, whose turn, the moves so far, the tally, and the
//! search the tree pane shows (the AI's move waiting to be stepped, the record of its last
//! move, or a search of the human's position), a minimax or alpha-beta tree or an MCTS.

use super::history::{AiChoice, MctsChoice, TreeChoice, Turn, undo_from};
use super::mcts::{AiSetup, SearchKind, mcts_run, mcts_view};
use crate::components::mcts_search::MctsView;
use crate::components::mcts_search::outline::Names;
use crate::components::tree_search::{Playable, SearchView};
use crate::domain::games::eight::{Eight, Seat, TARGET};
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::games::{Game, Outcome};
use crate::domain::numbers::{signed, thousands};
use crate::domain::search::{MoveOrder, Weighing, search_weighing};
use crate::tabkit::message::Message;
use crate::tabkit::side::Side;
use crate::tabkit::tally::GameResult;

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

    const DRAWS: bool = true;
    const CHOICE: &'static str = "a cell 1-9";

    fn why_over(&self, name: &dyn Fn(Mark) -> String) -> Option<String> {
        match self.outcome()? {
            Outcome::Winner(winner) => Some(format!("{} got three in a row", name(winner))),
            Outcome::Draw => Some("the board is full".into()),
        }
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

    const DRAWS: bool = false;
    const CHOICE: &'static str = "a number 1-3";

    fn why_over(&self, name: &dyn Fn(Seat) -> String) -> Option<String> {
        self.outcome()?;
        // The player who moved last is the one not to move now.
        let mover = name(self.to_move().other());
        Some(if self.sum() == crate::domain::games::eight::TARGET {
            format!("{mover} reached 8 exactly")
        } else {
            format!("{mover} went past 8 (sum {})", self.sum())
        })
    }
}

/// Tic-tac-toe in the MCTS outline: moves as the tree writes them (`X5`), the marks by
/// name, a finished random game as a small board.
impl Names for Board {
    fn move_name(&self, mv: u8) -> String {
        self.move_label(mv)
    }

    fn side_name(player: Mark) -> String {
        player.to_string()
    }

    fn board_lines(&self) -> Vec<String> {
        (0..3u8)
            .map(|row| {
                let cells: Vec<String> = (0..3u8)
                    .map(|col| {
                        self.cell(row * 3 + col)
                            .map_or("·".into(), |m| m.to_string())
                    })
                    .collect();
                cells.join(" ")
            })
            .collect()
    }
}

/// The Game of Eight in the MCTS outline: a move with the sum it makes in the tree (`+2=3`),
/// bare (`+2`) in a random game's list, the seats by order, the sum at the end.
impl Names for Eight {
    fn move_name(&self, mv: u8) -> String {
        self.move_label(mv)
    }

    fn rollout_move(&self, mv: u8) -> String {
        format!("+{mv}")
    }

    fn side_name(player: Seat) -> String {
        Self::player_name(player)
    }

    fn board_lines(&self) -> Vec<String> {
        vec![format!("sum {} of {TARGET}", self.sum())]
    }
    const CAN_DRAW: bool = false;
}

/// Wins, losses and draws of the human this session.
pub(crate) use crate::tabkit::tally::Tally;

/// Said when a move is tried after the game ended.
pub(crate) const GAME_OVER: &str = "The game is over: r starts a new game";

/// One game in progress, its move list, its search and its tally.
pub struct Match<G: Playable> {
    /// The position on the board.
    pub position: G,
    /// The human's side.
    pub(crate) human: G::Player,
    /// Moves so far: by whom, labelled (`X5`), the position before each, and what the AI
    /// weighed for its own.
    pub moves: Vec<Turn<G>>,
    /// The minimax or alpha-beta search the tree pane shows (never beside an MCTS one).
    pub search: Option<SearchView<G>>,
    /// The MCTS search the tree pane shows (never beside a tree search).
    pub mcts: Option<MctsView<G>>,
    /// Board cursor: a cell index 0-8, or a number 1-3 for Eight.
    pub(crate) cursor: u8,
    /// Results this session.
    pub(crate) tally: Tally,
    /// The order the AI's searches try children in (`o` cycles it).
    pub(crate) order: MoveOrder,
    /// True for a game played from a position set up in the editor: its result is not
    /// counted in the tally.
    pub(crate) set_up: bool,
    /// Games started, so each game's MCTS seeds differ.
    games: u64,
}

impl<G: Playable> Match<G> {
    pub(super) fn new(position: G, human: G::Player, cursor: u8, order: MoveOrder) -> Self {
        Self {
            order,
            position,
            human,
            moves: Vec::new(),
            search: None,
            mcts: None,
            cursor,
            tally: Tally::default(),
            set_up: false,
            games: 0,
        }
    }

    /// The side that opened this game (or opens it, before the first move).
    pub fn opener(&self) -> G::Player {
        self.moves
            .first()
            .map_or_else(|| self.position.to_move(), |turn| turn.before.to_move())
    }

    /// True when the AI is to move and the game is not over.
    pub fn ai_to_move(&self) -> bool {
        self.position.outcome().is_none() && self.position.to_move() != self.human
    }

    /// The person's results this session.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// True while a game is under way: the person has moved in it and it is not over.
    pub(crate) fn in_progress(&self) -> bool {
        self.position.outcome().is_none() && self.moves.iter().any(|turn| turn.by == Side::Human)
    }

    /// True when the AI's search waits in the stepper (minimax's or MCTS's).
    pub fn awaiting_step(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.live) || self.mcts.as_ref().is_some_and(|m| m.live)
    }

    pub(super) fn restart(&mut self, position: G, human: G::Player) {
        self.position = position;
        self.human = human;
        self.moves.clear();
        self.search = None;
        self.mcts = None;
        self.set_up = false;
        self.games += 1;
    }

    /// The seed of an MCTS search now: the tab's seed, the game and the move (as Connect
    /// Four mixes them), so a game replays exactly and each move of it draws its own random
    /// games.
    pub(crate) fn move_seed(&self, seed: u64) -> u64 {
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(self.games << 8)
            .wrapping_add(self.moves.len() as u64)
    }

    /// Opens the AI's search of the current position in the stepper, as `setup` says:
    /// minimax's or alpha-beta's node by node, MCTS's phase by phase.
    pub(super) fn open_stepper(&mut self, setup: &AiSetup) {
        if let Some(algorithm) = setup.kind.tree() {
            self.mcts = None;
            self.search = Some(SearchView::new(self.position, algorithm, self.order, true));
        } else {
            self.search = None;
            let seed = self.move_seed(setup.seed);
            self.mcts = Some(mcts_view(
                self.position,
                setup.iterations,
                setup.exploration,
                seed,
                true,
            ));
        }
    }

    fn play(&mut self, mv: u8, choice: Option<AiChoice<u8>>) -> Option<Message> {
        let before = self.position;
        let by = if before.to_move() == self.human {
            Side::Human
        } else {
            Side::Ai
        };
        self.position = before.play(mv);
        self.moves.push(Turn {
            by,
            text: before.move_label(mv),
            before,
            choice,
        });
        let outcome = self.position.outcome()?;
        Some(self.record_result(outcome))
    }

    /// Takes back the person's last move and the AI's reply to it (see [`undo_from`]); the
    /// records of the moves before stay. A finished game's result comes off the tally, so
    /// playing it out again counts it once. The tree pane goes back to the search of the AI
    /// move that now stands last (none: as a new game shows it).
    pub(super) fn undo(&mut self) -> Message {
        let from = match undo_from(&self.moves) {
            Ok(from) => from,
            Err(why) => return Message::error(why),
        };
        let result = self.position.outcome().map(|outcome| self.result(outcome));
        let taken: Vec<String> = self.moves[from..].iter().map(|t| t.text.clone()).collect();
        self.position = self.moves[from].before;
        self.moves.truncate(from);
        self.show_last_search();
        let score = match result {
            Some(result) if !self.set_up => format!("; {}", self.tally.take_back(result)),
            _ => String::new(),
        };
        Message::info(format!(
            "Took back {}{score}: your move again",
            taken.join(" and ")
        ))
    }

    /// Shows the search behind the AI's last move of the game, searched again from the
    /// position it faced with the same algorithm and order, or MCTS's `c`, seed and
    /// iterations (every search here is deterministic, so the tree is the one the pane
    /// showed then); none when the AI has not moved.
    fn show_last_search(&mut self) {
        self.search = None;
        self.mcts = None;
        let Some((before, choice)) = self
            .moves
            .iter()
            .rev()
            .find_map(|turn| Some((turn.before, turn.choice.as_ref()?)))
        else {
            return;
        };
        match choice {
            AiChoice::Tree(choice) => {
                let mut view = SearchView::new(before, choice.algorithm, choice.order, false);
                view.stepper.run_to_end();
                view.sync_cursor();
                self.search = Some(view);
            }
            AiChoice::Mcts(choice) => {
                let view = mcts_run(before, choice.iterations, choice.exploration, choice.seed);
                self.mcts = Some(view);
            }
        }
    }

    /// How a finished game went for the person.
    fn result(&self, outcome: Outcome<G::Player>) -> GameResult {
        match outcome {
            Outcome::Winner(p) if p == self.human => GameResult::Won,
            Outcome::Winner(_) => GameResult::Lost,
            Outcome::Draw => GameResult::Drawn,
        }
    }

    fn record_result(&mut self, outcome: Outcome<G::Player>) -> Message {
        let why = self.why_over().unwrap_or_default();
        if self.set_up {
            let result = match outcome {
                Outcome::Winner(p) if p == self.human => "You win",
                Outcome::Winner(_) => "The AI wins",
                Outcome::Draw => "Draw",
            };
            return Message::info(format!(
                "{result}: {why} (a set-up game: not counted). r: new game"
            ));
        }
        let result = self.result(outcome);
        self.tally.count(result);
        Message::info(match result {
            GameResult::Won => format!("You win: {why}. r: new game"),
            GameResult::Lost => format!("The AI wins: {why}. r: new game"),
            GameResult::Drawn => format!("Draw: {why}. r: new game"),
        })
    }

    /// Why the game is over, the human called "you" and the AI "the AI".
    pub fn why_over(&self) -> Option<String> {
        let human = self.human;
        self.position.why_over(&|p| {
            if p == human {
                "you".to_string()
            } else {
                "the AI".to_string()
            }
        })
    }

    /// Lets the AI move: at once with the fast search, or by opening the stepper.
    pub(super) fn ai_turn(&mut self, setup: &AiSetup, step_mode: bool) -> Option<Message> {
        if !self.ai_to_move() {
            return None;
        }
        if step_mode {
            self.open_stepper(setup);
            return Some(Message::info(match setup.kind {
                SearchKind::Mcts => "AI's turn: Space steps MCTS, Enter plays",
                _ => "AI's turn: Space steps its search, Enter plays",
            }));
        }
        let Some(algorithm) = setup.kind.tree() else {
            let seed = self.move_seed(setup.seed);
            let view = mcts_run(self.position, setup.iterations, setup.exploration, seed);
            return self.play_mcts_move(view, None);
        };
        self.mcts = None;
        let root = self.position;
        let weighing = search_weighing(&root, algorithm, self.order);
        let mut view = SearchView::new(root, algorithm, self.order, false);
        view.stepper.run_to_end();
        view.sync_cursor();
        let choice = TreeChoice {
            algorithm,
            order: self.order,
            weighing,
            stepped: None,
            minimax_nodes: view.minimax_nodes,
            beyond_tree: view.stepper.result().is_none(),
        };
        self.search = Some(view);
        self.play_ai_move(choice)
    }

    /// Plays the move the AI's tree search chose, keeping what it weighed, and says so (or
    /// how the game ended).
    fn play_ai_move(&mut self, choice: TreeChoice<u8>) -> Option<Message> {
        let result = choice.weighing.result;
        let mv = result.best_move?;
        let label = self.position.move_label(mv);
        Some(
            self.play(mv, Some(AiChoice::Tree(choice)))
                .unwrap_or_else(|| {
                    Message::info(format!(
                        "AI played {label} (value {}, {} nodes): your move",
                        signed(result.value),
                        thousands(result.stats.nodes)
                    ))
                }),
        )
    }

    /// Plays the root move MCTS visited most in `view` (its search finished), keeping
    /// what the search returned, and shows the view as the record of the move. `stepped`:
    /// the phases the person stepped, `None` for a search run at once.
    fn play_mcts_move(&mut self, mut view: MctsView<G>, stepped: Option<u64>) -> Option<Message> {
        let choice = MctsChoice::of(view.stepper.mcts(), stepped);
        let Some(mv) = choice.best else {
            self.mcts = Some(view);
            return None;
        };
        let visits = choice
            .moves
            .iter()
            .find(|m| m.mv == mv)
            .map_or(0, |m| m.visits);
        let iterations = choice.iterations;
        view.live = false;
        view.follow();
        self.search = None;
        self.mcts = Some(view);
        let label = self.position.move_label(mv);
        Some(
            self.play(mv, Some(AiChoice::Mcts(choice)))
                .unwrap_or_else(|| {
                    Message::info(format!(
                        "AI played {label} (MCTS: N {} of {} iterations): your move",
                        thousands(visits),
                        thousands(iterations)
                    ))
                }),
        )
    }

    pub(super) fn human_move(
        &mut self,
        choice: u8,
        setup: &AiSetup,
        step_mode: bool,
    ) -> Option<Message> {
        if self.position.outcome().is_some() {
            return Some(Message::error(GAME_OVER));
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
                if let Some(over) = self.play(mv, None) {
                    return Some(over);
                }
                self.ai_turn(setup, step_mode)
                    .or_else(|| Some(Message::info(format!("You played {mover_label}"))))
            }
        }
    }

    /// Plays the move of the search waiting in the stepper, finishing the search first
    /// (every event of minimax's, every iteration of MCTS's), so the move is the one the
    /// AI plays unstepped.
    pub(super) fn play_search_move(&mut self) -> Option<Message> {
        if let Some(mut view) = self.mcts.take_if(|v| v.live) {
            let stepped = view.stepper.phases();
            view.finish();
            return self.play_mcts_move(view, Some(stepped));
        }
        let view = self.search.as_mut().filter(|v| v.live)?;
        let stepped = view.stepper.events_taken();
        view.stepper.run_to_end();
        view.live = false;
        view.sync_cursor();
        let algorithm = view.stepper.algorithm();
        // A search larger than the record's limit gets its move from the plain search.
        let (weighing, beyond_tree): (Weighing<u8>, bool) = match view.stepper.weighing() {
            Some(weighing) => (weighing, false),
            None => (
                search_weighing(view.stepper.root(), algorithm, view.stepper.order()),
                true,
            ),
        };
        let choice = TreeChoice {
            algorithm,
            order: view.stepper.order(),
            weighing,
            stepped: Some(stepped),
            minimax_nodes: view.minimax_nodes,
            beyond_tree,
        };
        self.play_ai_move(choice)
    }
}
