//! Property tests: the searches on random tic-tac-toe positions, and the whole app driven
//! headless by random key sequences (with the odd tick, click and render in between).
//!
//! Every `proptest!` block sets its number of cases so the file stays fast in a debug
//! build; failures print a minimal input to reproduce.

use ai_arcade::app::TabId;
use ai_arcade::app::{Action, App};
use ai_arcade::components::tree_search::Playable;
use ai_arcade::config::{self, Config, FirstMover};
use ai_arcade::domain::games::connect4;
use ai_arcade::domain::games::eight::{Eight, TARGET};
use ai_arcade::domain::games::nim::{Piles, Rule};
use ai_arcade::domain::games::tictactoe::{Board, LINES, Mark};
use ai_arcade::domain::games::{Game, Outcome};
use ai_arcade::domain::learn::predict_graph::{EdgeLearned, GraphMistake};
use ai_arcade::domain::learn::predict_q;
use ai_arcade::domain::learn::qlearning::{QSettings, QTrainer};
use ai_arcade::domain::learn::state_graph::StateGraph;
use ai_arcade::domain::search::mcts::{
    Expansion, MctsStepper, PhaseRecord, Rollout, picks, root_pick,
};
use ai_arcade::domain::search::predict::{self, Answer, Question};
use ai_arcade::domain::search::{
    Algorithm, Event, EventKind, MoveOrder, Stepper, search, search_ordered,
};
use ai_arcade::tabkit::keymap::Key;
use ai_arcade::tabkit::side::Side;
use ai_arcade::tabs::tictactoe::game::Match;
use ai_arcade::ui;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

// ---------------------------------------------------------------------------------------
// Searches on random positions.
// ---------------------------------------------------------------------------------------

/// A position reached by legal moves from the empty board with `first` to move: each pick
/// chooses among the legal moves by index (modulo their number); picks after the game ends
/// are ignored, so finished positions are produced too.
fn play_out(first: Mark, picks: &[usize]) -> Board {
    let mut board = Board::empty(first);
    for &pick in picks {
        let moves = board.legal_moves();
        let moves = moves.as_ref();
        if moves.is_empty() {
            break;
        }
        board = board.play(moves[pick % moves.len()]);
    }
    board
}

/// Mostly positions a few moves in: the empty board and one-move positions (checked
/// exhaustively in `tests/search.rs`) cost a full 550,000-node minimax each, so they are
/// drawn rarely to keep the debug run short.
fn any_board() -> impl Strategy<Value = Board> {
    (
        prop_oneof![Just(Mark::X), Just(Mark::O)],
        prop_oneof![
            1 => prop::collection::vec(0usize..9, 0..=1),
            30 => prop::collection::vec(0usize..9, 2..=9),
        ],
    )
        .prop_map(|(first, picks)| play_out(first, &picks))
}

/// The root value `v` as a fresh search of a child sees it. The child's search scores from
/// the other side and counts depth from one ply lower, so a leaf worth `±(10 - d)` at the
/// root is worth `∓(10 - (d - 1))` there: `v` becomes `-(v + signum(v))`. The map is
/// strictly decreasing, so it commutes with the max/min of minimax and the identity is
/// exact, not just a bound.
fn seen_from_child(root_value: i32) -> i32 {
    -(root_value + root_value.signum())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn alpha_beta_agrees_with_minimax(board in any_board()) {
        let full = search(&board, Algorithm::Minimax);
        let pruned = search(&board, Algorithm::AlphaBeta);
        prop_assert_eq!(pruned.value, full.value, "{} ({:?} to move)", board, board.to_move());
        prop_assert!(pruned.stats.nodes <= full.stats.nodes);
        prop_assert_eq!(full.best_move.is_none(), board.outcome().is_some());
        prop_assert_eq!(pruned.best_move.is_none(), board.outcome().is_some());

        for (name, result) in [("minimax", full), ("alpha-beta", pruned)] {
            let Some(mv) = result.best_move else { continue };
            prop_assert!(board.legal_moves().as_ref().contains(&mv));
            let child = board.play(mv);
            prop_assert_eq!(child.to_move(), board.to_move().other());
            let child_value = search(&child, Algorithm::Minimax).value;
            prop_assert_eq!(
                child_value,
                seen_from_child(full.value),
                "{}: {} move {} from {} (root value {})",
                name, board, mv + 1, child, full.value
            );
            // No other move is better for the side to move (alpha-beta's value equals
            // minimax's, checked above and exhaustively in tests/search.rs).
            for &other in board.legal_moves().as_ref() {
                let v = search(&board.play(other), Algorithm::AlphaBeta).value;
                prop_assert!(v >= child_value, "{}: move {} beats the best move", board, other + 1);
            }
        }
    }
}

/// A position at least three moves in: its trees are small enough to grade every answer
/// at every question in a debug build.
fn board_a_few_moves_in() -> impl Strategy<Value = Board> {
    (
        prop_oneof![Just(Mark::X), Just(Mark::O)],
        prop::collection::vec(0usize..9, 3..=9),
    )
        .prop_map(|(first, picks)| play_out(first, &picks))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Predict, then check: at every question a stepped search asks, exactly the answer its
    /// next event bears out is graded right (every value in -10..=10, y and n), and the
    /// event is then taken and read back from the stepper's own record. The α/β question
    /// is read back from the child entered next: it is entered with the bound the question
    /// asked for (α from a MAX node, β from a MIN node). The children a cut-off prunes:
    /// of every subset of the node's moves, exactly the moves the stepper's cut-off then
    /// leaves not entered is graded right.
    #[test]
    fn every_predicted_answer_is_graded_as_the_engine_next_event_shows(
        board in board_a_few_moves_in(),
        alpha_beta in any::<bool>(),
        order in prop_oneof![Just(MoveOrder::Listed), Just(MoveOrder::Static), Just(MoveOrder::Best)],
    ) {
        let algorithm = if alpha_beta { Algorithm::AlphaBeta } else { Algorithm::Minimax };
        // Each order gives the inner nodes other windows, and other children left to prune.
        let mut stepper = Stepper::new(board, algorithm).with_order(order);
        let candidates: Vec<Answer> = (-10..=10)
            .map(Answer::Value)
            .chain([Answer::Cut(true), Answer::Cut(false)])
            .collect();
        let mut asked = 0;
        loop {
            let questions = predict::questions(&stepper);
            let right: Vec<Vec<Answer>> = questions
                .iter()
                .map(|&q| {
                    answers_to(&stepper, q, &candidates)
                        .into_iter()
                        .filter(|&a| {
                            predict::grade(&stepper, q, a).is_some_and(|g| g.mistake.is_none())
                        })
                        .collect()
                })
                .collect();
            let Some(event) = stepper.step() else { break };
            for (question, right) in questions.into_iter().zip(right) {
                asked += 1;
                check_graded(&stepper, algorithm, question, event, &right)?;
            }
        }
        // A finished game has no search to question; any other has a root to return.
        prop_assert_eq!(asked > 0, board.outcome().is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Predict the Q update: after random self-play from random piles, every update of one
    /// stepped game is graded right exactly when the answer is within the tolerance of the
    /// value the learner's own update wrote, which is the value its table now holds; each
    /// misconception's number, when it differs, is graded wrong.
    #[test]
    fn every_q_answer_is_graded_as_the_learners_own_update_shows(
        sizes in prop::collection::vec(0u8..=5, 1..=3),
        normal in any::<bool>(),
        alpha_tenths in 1u32..=10,
        trained in 0usize..300,
        seed in any::<u64>(),
        offsets in prop::collection::vec(-0.02f64..0.02, 8),
    ) {
        prop_assume!(sizes.iter().any(|&s| s > 0));
        let start = Piles::new(&sizes).unwrap();
        let rule = if normal { Rule::Normal } else { Rule::Misere };
        let settings = QSettings { alpha: f64::from(alpha_tenths) / 10.0, ..QSettings::default() };
        let mut trainer = QTrainer::new(start, rule, settings, trained, trained.max(1), seed).unwrap();
        trainer.train(trained);
        let updates = trainer.step_game();
        prop_assert!(!updates.is_empty());
        for update in &updates {
            // A game visits each position once: its update is the cell's last.
            prop_assert_eq!(trainer.table.q(&update.state, update.mv).to_bits(), update.new.to_bits());
            let wrong_rules = [
                predict_q::target(update),
                update.old + update.alpha * (update.reward - update.best_future - update.old),
                update.old + update.alpha * (-update.reward + update.best_future - update.old),
                update.old,
            ];
            let candidates = offsets.iter().map(|d| update.new + d).chain(wrong_rules);
            for given in candidates {
                let right = (given - update.new).abs() <= predict_q::TOLERANCE + 1e-9;
                let grade = predict_q::grade(update, given);
                prop_assert_eq!(grade.mistake.is_none(), right, "{:?} given {}", update, given);
            }
        }
    }

    /// Predict the State Graph's learning: for every edge of a random game on a randomly
    /// trained graph, exactly the weight the learner's own `reinforce` left is graded
    /// right, and winner and loser swapped is named as such.
    #[test]
    fn every_graph_answer_is_graded_as_the_learners_own_reinforce_shows(
        tokens in 2u32..=12,
        max_take in 1u32..=3,
        trained in 0u64..200,
        seed in any::<u64>(),
    ) {
        let mut graph = StateGraph::new(tokens, max_take);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        graph.train(trained, &mut rng);
        let path = graph.random_game(&mut rng);
        let before = graph.clone();
        graph.reinforce(&path);
        let winner = path.last().unwrap().from.player;
        for &edge in &path {
            let learned = EdgeLearned {
                edge,
                winner,
                before: before.weight(&edge),
                after: graph.weight(&edge),
            };
            for given in learned.after - 4..=learned.after + 4 {
                let grade = learned.grade(given);
                prop_assert_eq!(grade.mistake.is_none(), given == learned.after);
            }
            let swapped = learned.before - learned.change();
            prop_assert_eq!(learned.grade(swapped).mistake, Some(GraphMistake::SidesSwapped));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// MCTS predict, then check: before every selection of a stepped search, in a
    /// Tic-tac-toe and a Connect Four position with a random seed, at every node on the
    /// way down (the root first), exactly the move the iteration then takes there (the
    /// child selection picked, or the node expansion added) is graded right, whatever the
    /// answer.
    #[test]
    fn every_mcts_pick_is_graded_as_the_engine_next_selection_shows(
        board in board_a_few_moves_in(),
        columns in prop::collection::vec(0u8..7, 0..8),
        seed in any::<u64>(),
        exploration in prop_oneof![Just(1.0), Just(std::f64::consts::SQRT_2), Just(2.0)],
    ) {
        let mut stepper = MctsStepper::new(board, exploration, seed);
        check_picks(&mut stepper, &(0..9).collect::<Vec<u8>>(), 160)?;
        let mut c4 = connect4::Board::new();
        for column in columns {
            if c4.outcome().is_none() && c4.legal_moves().as_ref().contains(&column) {
                c4 = Game::play(&c4, column);
            }
        }
        let mut stepper = MctsStepper::new(c4, exploration, seed);
        check_picks(&mut stepper, &(0..7).collect::<Vec<u8>>(), 160)?;
    }
}

/// The small Connect Four board (5 columns of 4) after `columns`, each played if it has room
/// and makes no four (so the game goes on), with the columns played.
fn small_board_after(columns: &[usize]) -> (connect4::SmallBoard, Vec<usize>) {
    let mut board = connect4::SmallBoard::new();
    let mut played = Vec::new();
    for &column in columns {
        if board.can_play(column) && !board.wins_with(column) {
            board = board.play(column);
            played.push(column);
        }
    }
    (board, played)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The small board's exact solver, through the calls a learner makes, on random
    /// positions of 8 moves and more: its score and every column's score are plain
    /// negamax's, the best column keeps the score, the position written out parses back to
    /// itself, and MCTS's picks there are graded as its next selection shows.
    #[test]
    fn the_small_boards_solver_agrees_with_plain_negamax(
        columns in prop::collection::vec(0usize..5, 8..=19),
        seed in any::<u64>(),
    ) {
        use ai_arcade::domain::solve::connect4::{SmallSolver, plain_negamax, win_now_score};
        let (board, played) = small_board_after(&columns);
        prop_assume!(board.moves() >= 8);
        prop_assert!(!board.is_over());
        let written = connect4::SmallBoard::written(played.iter().copied());
        prop_assert_eq!(connect4::SmallBoard::parse(&written), Ok(board));
        let mut solver = SmallSolver::with_table_bits(12);
        let score = solver.solve(&board);
        prop_assert_eq!(score, plain_negamax(&board));
        let scores = solver.scores(&board);
        for (column, found) in scores.iter().enumerate() {
            let expected = board.can_play(column).then(|| {
                let after = board.play(column);
                if after.is_won() {
                    win_now_score(&board)
                } else if after.is_over() {
                    0
                } else {
                    -plain_negamax(&after)
                }
            });
            prop_assert_eq!(*found, expected, "column {} of {}", column + 1, written);
        }
        let best = SmallSolver::best_of(&scores).expect("a game going on has a move");
        prop_assert_eq!(scores[best], Some(score));
        prop_assert_eq!(scores[solver.best_move(&board, score)], Some(score));
        let mut stepper = MctsStepper::new(board, 1.0, seed);
        check_picks(&mut stepper, &(0..5).collect::<Vec<u8>>(), 60)?;
    }
}

/// Steps `phases` phases, grading every answer in `answers` at every pick before each
/// selection (the root's, then each deeper node's on the way down) against the move the
/// iteration then takes at that node, read back from the selection's and the expansion's
/// own records.
fn check_picks<G>(
    stepper: &mut MctsStepper<G>,
    answers: &[G::Move],
    phases: usize,
) -> Result<(), TestCaseError>
where
    G: Rollout,
    G::Move: std::fmt::Debug,
{
    for _ in 0..phases {
        let picks = picks(stepper);
        let root_first = root_pick(stepper);
        prop_assert_eq!(root_first.as_ref(), picks.first());
        stepper.step();
        if picks.is_empty() {
            continue;
        }
        // (node, move) at each level, as the engine took them.
        let mut taken: Vec<(u32, G::Move)> = Vec::new();
        if let Some(PhaseRecord::Selection { steps, .. }) = stepper.last_phase_record() {
            for step in steps {
                taken.push((step.parent, stepper.mcts().node(step.chosen).mv().unwrap()));
            }
        }
        let mut ahead = stepper.clone();
        ahead.step();
        if let Some(PhaseRecord::Expansion(Expansion::Added { node, mv })) =
            ahead.last_phase_record()
        {
            taken.push((ahead.mcts().node(*node).parent().unwrap(), *mv));
        }
        prop_assert_eq!(picks.len(), taken.len());
        for (level, (pick, &(node, took))) in picks.iter().zip(&taken).enumerate() {
            prop_assert_eq!(pick.level, level);
            prop_assert_eq!(pick.node, node);
            for &answer in answers {
                let right = pick.grade(answer).mistake.is_none();
                prop_assert_eq!(
                    right,
                    answer == took,
                    "level {}, answer {:?}, taken {:?}",
                    level,
                    answer,
                    took
                );
            }
        }
    }
    Ok(())
}

/// The answers tried at `q`: every value and y/n, or, for the children a cut-off prunes,
/// every subset of the node's moves (none included).
fn answers_to(stepper: &Stepper<Board>, q: Question, values: &[Answer]) -> Vec<Answer> {
    if q.takes_children() {
        let moves = stepper.node(q.node()).move_count;
        (0..1u64 << moves).map(Answer::Children).collect()
    } else {
        values.to_vec()
    }
}

/// One question's right answers against the event the stepper took after it.
fn check_graded(
    stepper: &Stepper<Board>,
    algorithm: Algorithm,
    question: Question,
    event: Event,
    right: &[Answer],
) -> Result<(), TestCaseError> {
    match question {
        Question::Value { node } => {
            prop_assert_eq!(event.kind, EventKind::Return);
            prop_assert_eq!(event.node, node);
            let value = i32::from(stepper.node(node).value.unwrap());
            prop_assert_eq!(right, &[Answer::Value(value)]);
        }
        Question::Cutoff { node } => {
            prop_assert!(algorithm == Algorithm::AlphaBeta);
            let cut = event.kind == EventKind::Cutoff;
            if cut {
                prop_assert_eq!(event.node, node);
                prop_assert!(stepper.node(node).pruned > 0);
            } else {
                prop_assert_eq!(event.kind, EventKind::Enter);
                prop_assert_eq!(stepper.node(event.node).parent(), Some(node));
            }
            prop_assert_eq!(right, &[Answer::Cut(cut)]);
        }
        Question::Bound { node } => {
            prop_assert!(algorithm == Algorithm::AlphaBeta);
            prop_assert_eq!(
                event.kind,
                EventKind::Enter,
                "asked only when no cut-off follows"
            );
            let child = stepper.node(event.node);
            prop_assert_eq!(child.parent(), Some(node));
            let bound = if stepper.node(node).maximizing {
                child.alpha_in
            } else {
                child.beta_in
            };
            prop_assert_eq!(right, &[Answer::Value(i32::from(bound))]);
        }
        Question::Pruned { node } => {
            prop_assert_eq!(event.kind, EventKind::Cutoff, "asked only before a cut-off");
            prop_assert_eq!(event.node, node);
            // The skipped set as the stepper recorded the cut-off: the moves not entered,
            // as bits over the node's moves in the order tried.
            let order = stepper.order().moves(&stepper.position(node));
            let skipped = stepper.moves_not_entered(node);
            prop_assert_eq!(skipped.len(), usize::from(stepper.node(node).pruned));
            let bits = order
                .as_ref()
                .iter()
                .enumerate()
                .filter(|(_, mv)| skipped.contains(mv))
                .fold(0u64, |bits, (i, _)| bits | 1 << i);
            prop_assert_eq!(right, &[Answer::Children(bits)]);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The app under random input.
// ---------------------------------------------------------------------------------------

/// One thing that happens to the app.
#[derive(Debug, Clone, Copy)]
enum Input {
    /// A key press, through `App::handle_key`.
    Key(Key),
    /// An autoplay tick.
    Tick,
    /// A left click at this position on an 80x24 screen, through `ui::click`.
    Click(u16, u16),
    /// A mouse wheel turn (down or up) at this position on an 80x24 screen.
    Scroll(u16, u16, bool),
    /// Draw into the area at (x, y) of this size (besides the regular 80x24 draws), in a
    /// buffer just large enough to hold it.
    Render(u16, u16, u16, u16),
}

/// Every key the key tables list (and a few they do not), except the quit keys and the
/// new-game keys `r` and `x` (drawn separately, more rarely).
fn plain_keys() -> Vec<Key> {
    let mut keys: Vec<Key> = "0123456789gampfhjklesnubc. ?~ZovwtPT"
        .chars()
        .map(Key::Char)
        .collect();
    keys.extend([
        Key::Enter,
        Key::Esc,
        Key::Tab,
        Key::BackTab,
        Key::Up,
        Key::Down,
        Key::Left,
        Key::Right,
        Key::PageUp,
        Key::PageDown,
        Key::Home,
        Key::End,
        Key::Backspace,
        Key::F(1),
        Key::F(2),
        Key::F(3),
        Key::F(4),
        Key::F(5),
        Key::Ctrl('x'),
    ]);
    keys
}

fn any_input() -> impl Strategy<Value = Input> {
    let keys = plain_keys();
    // The tic-tac-toe tab gets most of the keys; the quit keys are rare.
    prop_oneof![
        40 => prop::sample::select(keys).prop_map(Input::Key),
        20 => prop::sample::select(&b"123456789"[..]).prop_map(|d| Input::Key(Key::Char(char::from(d)))),
        1 => prop_oneof![Just(Key::Char('r')), Just(Key::Char('x'))].prop_map(Input::Key),
        4 => Just(Input::Tick),
        3 => (0u16..80, 0u16..24).prop_map(|(x, y)| Input::Click(x, y)),
        1 => (0u16..80, 0u16..24, any::<bool>()).prop_map(|(x, y, down)| Input::Scroll(x, y, down)),
        2 => (
            prop_oneof![Just((0u16, 0u16)), (0u16..5, 0u16..5)],
            prop_oneof![
                Just((0u16, 0u16)),
                Just((1, 1)),
                Just((69, 19)),
                Just((70, 20)),
                Just((200, 60)),
                (0u16..=160, 0u16..=50),
            ],
        )
            .prop_map(|((x, y), (w, h))| Input::Render(x, y, w, h)),
        1 => prop_oneof![Just(Key::Char('q')), Just(Key::Ctrl('c'))].prop_map(Input::Key),
    ]
}

fn any_config() -> impl Strategy<Value = Config> {
    let first = || {
        prop_oneof![
            1 => Just(FirstMover::Random),
            6 => Just(FirstMover::Human),
            1 => Just(FirstMover::Ai),
        ]
    };
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        first(),
        first(),
        prop_oneof![
            3 => Just(TabId::TicTacToe),
            1 => Just(TabId::SubtractionNim),
            2 => Just(TabId::MultiPileNim),
            2 => Just(TabId::ConnectFour),
        ],
    )
        .prop_map(
            |(step, minimax, human_o, ttt_first, eight_first, start_tab)| {
                let mut config = Config::default();
                config.search.step = step;
                config.search.autoplay_ms = 10;
                config.search.algorithm = if minimax {
                    Algorithm::Minimax
                } else {
                    Algorithm::AlphaBeta
                }
                .into();
                config.tictactoe.human_plays = if human_o {
                    config::Mark::O
                } else {
                    config::Mark::X
                };
                config.tictactoe.first = ttt_first;
                config.eight.first = eight_first;
                config.ui.start_tab = start_tab;
                config.nim_net.autotrain = false;
                // Verdicts for every root move cost the most of a Connect Four AI move.
                config.connect4.solver_budget = 50_000;
                config
            },
        )
}

fn render(app: &App, width: u16, height: u16) {
    render_at(app, Rect::new(0, 0, width, height));
}

fn render_at(app: &App, area: Rect) {
    let mut buf = Buffer::empty(Rect::new(0, 0, area.right(), area.bottom()));
    ui::render_app(app, area, &mut buf);
}

/// The marks of each side, counted from the cells.
fn counts(board: Board) -> (u32, u32, u16, u16) {
    let (mut x, mut o) = (0u16, 0u16);
    for i in 0..9 {
        match board.cell(i) {
            Some(Mark::X) => x |= 1 << i,
            Some(Mark::O) => o |= 1 << i,
            None => {}
        }
    }
    (x.count_ones(), o.count_ones(), x, o)
}

fn has_line(marks: u16) -> bool {
    LINES.into_iter().any(|line| marks & line == line)
}

/// The tic-tac-toe board is one a real game reaches, and the game-over state agrees with it.
fn check_board(board: Board) -> Result<(), TestCaseError> {
    let (xs, os, x, o) = counts(board);
    prop_assert!(xs.abs_diff(os) <= 1, "{board}: {xs} X and {os} O");
    prop_assert!(
        !(has_line(x) && has_line(o)),
        "{board}: both sides have a line"
    );
    // The side to move is the one with fewer marks (either may open on equal counts).
    match xs.cmp(&os) {
        std::cmp::Ordering::Greater => prop_assert_eq!(board.to_move(), Mark::O, "{}", board),
        std::cmp::Ordering::Less => prop_assert_eq!(board.to_move(), Mark::X, "{}", board),
        std::cmp::Ordering::Equal => {}
    }
    let expected = if has_line(x) {
        Some(Outcome::Winner(Mark::X))
    } else if has_line(o) {
        Some(Outcome::Winner(Mark::O))
    } else if xs + os == 9 {
        Some(Outcome::Draw)
    } else {
        None
    };
    prop_assert_eq!(board.outcome(), expected, "{}", board);
    // The winner moved last, so the loser is to move, and the game takes no more moves.
    if let Some(Outcome::Winner(w)) = expected {
        prop_assert_eq!(board.to_move(), w.other(), "{}", board);
        prop_assert!(board.legal_moves().as_ref().is_empty());
        prop_assert!(board.winning_line().is_some());
    }
    prop_assert_eq!(
        board.legal_moves().as_ref().len(),
        if expected.is_some() {
            0
        } else {
            9 - (xs + os) as usize
        }
    );
    Ok(())
}

fn check_eight(position: Eight) -> Result<(), TestCaseError> {
    prop_assert!(position.sum() <= TARGET + 3, "{position}");
    match position.last() {
        None => prop_assert_eq!(position.sum(), 0),
        Some(last) => {
            prop_assert!((1..=3).contains(&last), "{position}");
            prop_assert!(last <= position.sum(), "{position}");
        }
    }
    Ok(())
}

/// What holds for either game's match after every input: the game is never stuck on the
/// AI's turn without a search to finish it, a live search searches the position on the
/// board, and the tree cursor points at a node that exists.
/// With `deep`, a finished recorded search is also compared with the recursive search (too
/// slow to do after every input when the tree is plain minimax's 549,946 nodes).
fn check_match<G: Playable>(game: &Match<G>, deep: bool) -> Result<(), TestCaseError> {
    if game.ai_to_move() {
        prop_assert!(
            game.awaiting_step(),
            "the AI is to move at {:?} but no search waits to be stepped",
            game.position
        );
    }
    if let Some(view) = &game.search {
        if view.live {
            prop_assert_eq!(view.stepper.root(), &game.position);
            prop_assert!(game.ai_to_move());
        }
        let nodes = view.stepper.nodes().len();
        prop_assert!(
            (view.tree_cursor() as usize) < nodes.max(1),
            "tree cursor {} with {} nodes",
            view.tree_cursor(),
            nodes
        );
        if let Some(result) = view.stepper.result().filter(|_| deep) {
            prop_assert_eq!(
                result,
                search_ordered(
                    view.stepper.root(),
                    view.stepper.algorithm(),
                    view.stepper.order()
                )
            );
        }
    }
    Ok(())
}

fn check_app(app: &App, deep: bool) -> Result<(), TestCaseError> {
    check_board(app.tabs.tictactoe.tictactoe_game().position)?;
    check_eight(app.tabs.tictactoe.eight_game().position)?;
    check_match(app.tabs.tictactoe.tictactoe_game(), deep)?;
    check_match(app.tabs.tictactoe.eight_game(), deep)?;
    check_nim(app)?;
    check_connect4(app)?;
    prop_assert!(TabId::ALL.contains(&app.tab));
    Ok(())
}

/// The Nim game replays from its start to its position through legal moves only, each by
/// the side whose turn it was, and a finished game has a winner.
fn check_nim(app: &App) -> Result<(), TestCaseError> {
    let nim = &app.tabs.multipile;
    let mut piles = nim.game_start();
    for (i, played) in nim.moves().iter().enumerate() {
        prop_assert_eq!(played.before, piles);
        piles = piles
            .play(played.mv)
            .map_err(|e| TestCaseError::fail(format!("move {i} {:?} illegal: {e}", played.mv)))?;
        if i > 0 {
            prop_assert_ne!(played.by, nim.moves()[i - 1].by, "sides alternate");
        }
    }
    prop_assert_eq!(piles, nim.piles());
    prop_assert_eq!(
        nim.game_over(),
        nim.winner().is_some() || nim.moves().is_empty() && nim.game_start().is_over()
    );
    prop_assert!(nim.selected_pile() < nim.piles().len());
    Ok(())
}

/// The Connect Four game replays from the empty board through legal moves only, each by
/// the side whose disc was to move, to the position shown.
fn check_connect4(app: &App) -> Result<(), TestCaseError> {
    let tab = &app.tabs.connect4;
    let mut board = connect4::Board::new();
    for (i, (before, column, by)) in tab.moves().enumerate() {
        prop_assert_eq!(before, board, "move {}", i);
        prop_assert!(!board.is_over(), "move {} after the game ended", i);
        prop_assert!(
            board.can_play(usize::from(column)),
            "move {} in a full column",
            i
        );
        let human_to_move = board.player_to_move() == tab.human();
        prop_assert_eq!(
            by == Side::Human,
            human_to_move,
            "move {} by the wrong side",
            i
        );
        board = board.play(usize::from(column));
    }
    prop_assert_eq!(board, tab.position());
    Ok(())
}

/// Draws at 80x24 after every this many inputs.
const RENDER_EVERY: usize = 4;

proptest! {
    // 32 cases of up to 200 inputs: about 3,200 inputs in all, nearly all keys. Cases are
    // long because interesting states (a stepped search deep in a game, the help scrolled)
    // take many keys to reach. An AI search from the empty board costs 0.2-0.9 s in a debug
    // build (the app also counts plain minimax's nodes for the info pane), so the configs
    // lean towards the human moving first and `r`/`x` are drawn rarely.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_keys_never_break_the_app(
        config in any_config(),
        seed in any::<u64>(),
        inputs in prop::collection::vec(any_input(), 1..200),
    ) {
        let mut app = App::new(&config, seed);
        check_app(&app, true)?;
        render(&app, 80, 24);
        for (i, input) in inputs.into_iter().enumerate() {
            match input {
                Input::Key(key) => {
                    let before = (app.tabs.tictactoe.tictactoe_game().position, app.tabs.tictactoe.eight_game().position);
                    if key == Key::Char('q') && app.is_asking() {
                        // A question waits (a retrain): Esc cancels it, and q then quits
                        // as from anywhere. (q itself would cancel and then ask or quit.)
                        app.handle_key(Key::Esc);
                        prop_assert!(app.running && !app.is_asking());
                    }
                    let loses = app.quit_loses();
                    app.handle_key(key);
                    if key == Key::Char('q') && loses.is_some() {
                        // Work would be lost: q asks once, and q again quits.
                        prop_assert!(app.running, "q quit without asking");
                        let asked = app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default();
                        prop_assert!(asked.starts_with("q again to quit"), "{}", asked);
                        app.handle_key(key);
                    }
                    if matches!(key, Key::Char('q') | Key::Ctrl('c')) {
                        // Quit works from every state and changes nothing else; the test
                        // then carries on with the same state (a fresh app would cost a
                        // new AI search in many configs).
                        prop_assert!(!app.running, "{:?} did not quit", key);
                        prop_assert_eq!(
                            (app.tabs.tictactoe.tictactoe_game().position, app.tabs.tictactoe.eight_game().position),
                            before
                        );
                        render(&app, 80, 24);
                        app.running = true;
                    }
                }
                Input::Tick => {
                    app.update(Action::Tick);
                    // The Connect Four AI thinks on a thread: a tick here lets it finish,
                    // so the random keys reach the games it plays.
                    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
                    while app.tab == TabId::ConnectFour && app.tabs.connect4.is_thinking() {
                        prop_assert!(std::time::Instant::now() < deadline, "the AI never answered");
                        std::thread::sleep(std::time::Duration::from_millis(2));
                        app.update(Action::Tick);
                    }
                }
                Input::Click(x, y) => {
                    let action = ui::click(&app, Rect::new(0, 0, 80, 24), x, y);
                    app.update(action);
                }
                Input::Scroll(x, y, down) => {
                    let action = ui::scroll(&app, Rect::new(0, 0, 80, 24), x, y, down);
                    app.update(action);
                }
                Input::Render(x, y, w, h) => render_at(&app, Rect::new(x, y, w, h)),
            }
            prop_assert!(app.running, "only q and Ctrl-C quit (after {:?})", input);
            check_app(&app, false)?;
            if i % RENDER_EVERY == 0 {
                render(&app, 80, 24);
            }
        }
        check_app(&app, true)?;
        render(&app, 80, 24);
    }
}
