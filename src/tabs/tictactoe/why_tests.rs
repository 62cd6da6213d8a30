//! The decision records (`y`), undo (Backspace), the move list and the position editor
//! (`i`), through real key events: a record's numbers are the ones the search that chose the
//! move returned, undo leaves the records before it intact, and the editor refuses every
//! board no game reaches with the board and the game left as they were.

use crate::app::{App, Overlay};
use crate::components::tree_search::Playable;
use crate::config::{Config, FirstMover};
use crate::domain::games::Game;
use crate::domain::games::eight::Eight;
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::search::{Algorithm, MoveOrder, search_weighing};
use crate::domain::solve::perfect::Solver;
use crate::domain::solve::verdict::Verdict;
use crate::tabkit::side::Side;
use crate::tabkit::why::{Decision, Why};
use crate::tabs::TabId;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, press};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const SEED: u64 = 7;

fn config(first: FirstMover, algorithm: Algorithm, step: bool) -> Config {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.ui.start_tab = TabId::TicTacToe;
    config.subtraction.autotrain = false;
    config.tictactoe.first = first;
    config.tictactoe.human_plays = Mark::X;
    config.eight.first = first;
    config.search.algorithm = algorithm.into();
    config.search.step = step;
    config
}

fn app(first: FirstMover, algorithm: Algorithm, step: bool) -> App {
    App::new(&config(first, algorithm, step), SEED)
}

fn why(app: &App) -> &Why {
    match app.overlays.top() {
        Some(Overlay::Why(why)) => why,
        other => panic!("the why overlay is not open: {other:?}"),
    }
}

fn message(app: &App) -> String {
    app.message.clone().map(|m| m.text).unwrap_or_default()
}

/// The record's value column, as numbers and bounds.
fn values(decision: &Decision) -> Vec<String> {
    decision
        .options
        .iter()
        .map(|o| o.numbers[0].clone())
        .collect()
}

/// The values the tree pane's record of the same search holds for the root's children.
fn tree_values(app: &App) -> Vec<String> {
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let stepper = &view.stepper;
    stepper
        .children(0)
        .map(|id| {
            let (bound, value) = stepper.node(id).bound().unwrap();
            format!("{}{}", bound.sign(), crate::domain::numbers::signed(value))
        })
        .collect()
}

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| crate::ui::render(app, f)).unwrap();
    terminal.backend().to_string()
}

fn snapshot(name: &str, app: &App, sizes: &[(u16, u16)]) {
    snapshot_tab(&format!("why__{name}"), app, sizes, "");
}

const BOTH: &[(u16, u16)] = BOTH_SIZES;

#[test]
fn the_record_of_an_instant_move_holds_the_values_the_search_chose_by() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &chars("53"));
    let game = &app.tabs.tictactoe.tictactoe;
    let last = game.moves.last().unwrap();
    assert_eq!(last.by, Side::Ai);
    let root = last.before;
    let played = root
        .legal_moves()
        .as_ref()
        .iter()
        .copied()
        .find(|&mv| root.play(mv) == game.position);
    press(&mut app, &[KeyCode::Char('y')]);
    let why = why(&app);
    assert_eq!(why.moves.len(), 4);
    assert_eq!(why.open, 3, "the AI's last move is open");
    let decision = why.decision().unwrap();
    // The same numbers as the tree pane's record of that search, for every legal move.
    assert_eq!(values(decision), tree_values(&app));
    assert_eq!(
        values(decision),
        vec!["=-8", "≤-8", "≤-8", "=0", "≤0", "≤-4"]
    );
    let chosen = decision.chosen();
    assert_eq!(chosen, vec![root.move_label(played.unwrap()).as_str()]);
    assert_eq!(chosen, vec!["O7"]);
    assert!(
        decision
            .how
            .contains("O7 has the highest value, 0 (MAX takes the largest)"),
        "{}",
        decision.how
    );
    assert!(
        decision.how.contains(
            "O8 returned ≤0: cut short once no reply could beat 0; at best a tie, which keeps O7."
        ),
        "{}",
        decision.how
    );
    let origin = decision.origin.join(" ");
    assert!(
        origin
            .contains("261 nodes (plain minimax: 933), 110 leaves, 58 cut-offs; searched at once"),
        "{origin}"
    );
    // The earlier AI move keeps its own record.
    let mut why = why.clone();
    assert!(why.step(-1));
    assert_eq!(
        why.decision().unwrap().title,
        "Why the alpha-beta AI played O1"
    );
}

#[test]
fn minimax_values_are_exact_and_agree_with_the_exact_answer() {
    let mut app = app(FirstMover::Human, Algorithm::Minimax, false);
    press(&mut app, &chars("1"));
    press(&mut app, &[KeyCode::Char('y')]);
    let decision = why(&app).decision().unwrap().clone();
    assert_eq!(decision.options.len(), 8);
    for option in &decision.options {
        assert_eq!(option.numbers[1], "exact");
        // A value of 10 - n is a win n plies on, n - 10 a loss, 0 a draw.
        let value: i32 = option.numbers[0].trim_start_matches('=').parse().unwrap();
        let expected = Verdict::from_search_value(value);
        assert_eq!(option.verdict, Some(expected), "{}", option.mv);
    }
    // Every reply to a corner but the centre loses; the centre draws.
    assert!(
        decision.how.contains("O5 has the highest value, 0"),
        "{}",
        decision.how
    );
}

#[test]
fn a_stepped_search_s_record_comes_from_the_stepper_and_says_it_was_stepped() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, true);
    press(&mut app, &chars("5"));
    press(&mut app, &chars("   "));
    press(&mut app, &[KeyCode::Enter]);
    let game = &app.tabs.tictactoe.tictactoe;
    assert_eq!(game.moves.len(), 2, "the AI played its stepped move");
    let root = game.moves[1].before;
    let expected = search_weighing(&root, Algorithm::AlphaBeta, MoveOrder::Listed);
    press(&mut app, &[KeyCode::Char('y')]);
    let decision = why(&app).decision().unwrap();
    assert_eq!(values(decision), tree_values(&app));
    let from_search: Vec<String> = expected
        .moves
        .iter()
        .map(|m| {
            format!(
                "{}{}",
                m.bound.sign(),
                crate::domain::numbers::signed(m.value)
            )
        })
        .collect();
    assert_eq!(values(decision), from_search);
    assert!(
        decision.origin[0].ends_with("you stepped 3 events of it."),
        "{:?}",
        decision.origin
    );
}

#[test]
fn the_minimax_opening_beyond_the_tree_pane_s_limit_keeps_a_whole_record() {
    let mut app = app(FirstMover::Ai, Algorithm::Minimax, false);
    press(&mut app, &[KeyCode::Char('y')]);
    let decision = why(&app).decision().unwrap();
    assert_eq!(decision.options.len(), 9);
    assert!(
        decision
            .options
            .iter()
            .all(|o| o.numbers == ["=0", "exact"])
    );
    assert!(
        decision
            .options
            .iter()
            .all(|o| o.verdict == Some(Verdict::DRAW))
    );
    assert!(decision.how.contains("a tie"), "{}", decision.how);
    assert!(decision.how.contains("O1, O2, O3"), "{}", decision.how);
    assert_eq!(decision.chosen(), ["O1"], "the first of the tied moves");
    let origin = decision.origin.join(" ");
    assert!(origin.contains("549,946 nodes"), "{origin}");
    assert!(
        origin.contains("The tree pane kept only the first part"),
        "{origin}"
    );
}

#[test]
fn y_before_the_ai_has_moved_says_so_and_opens_nothing() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &[KeyCode::Char('y')]);
    assert!(app.overlays.is_empty());
    assert_eq!(
        message(&app),
        "The AI has not moved in this game yet: y shows why once it has"
    );
}

#[test]
fn the_game_of_eight_keeps_records_with_exact_answers() {
    let mut app = app(FirstMover::Human, Algorithm::Minimax, false);
    press(&mut app, &chars("g1"));
    press(&mut app, &[KeyCode::Char('y')]);
    let decision = why(&app).decision().unwrap();
    let eight = &app.tabs.tictactoe.eight;
    let root = eight.moves[1].before;
    assert_eq!(root, Eight::start().play(1));
    let mut solver = Solver::new();
    for (option, &mv) in decision.options.iter().zip(root.legal_moves().as_ref()) {
        assert_eq!(option.verdict, Some(solver.after(&root, mv)));
    }
    assert_eq!(
        decision.position[0],
        "  sum 1 of 8, 1 just chosen, so barred"
    );
    assert_eq!(decision.options.len(), 2);
    snapshot("eight_record", &app, BOTH);
}

#[test]
fn the_why_overlay_of_a_tic_tac_toe_move() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &chars("53y"));
    snapshot("tictactoe_record", &app, BOTH);
}

#[test]
fn undo_takes_back_both_moves_and_keeps_the_earlier_records() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &chars("5"));
    press(&mut app, &[KeyCode::Char('y')]);
    let first = why(&app).clone();
    press(&mut app, &[KeyCode::Esc]);
    let after_one = app.tabs.tictactoe.tictactoe.position;
    press(&mut app, &chars("3"));
    assert_eq!(app.tabs.tictactoe.tictactoe.moves.len(), 4);
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(message(&app), "Took back X3 and O7: your move again");
    let game = &app.tabs.tictactoe.tictactoe;
    assert_eq!(game.position, after_one);
    assert_eq!(game.moves.len(), 2);
    press(&mut app, &[KeyCode::Char('y')]);
    assert_eq!(why(&app), &first, "the remaining record is intact");
}

/// Plays cells 1, 2, 3, ... (the free ones) until the game ends; the last cell pressed,
/// and the tree pane's root values just before it.
fn play_to_the_end(app: &mut App) -> (char, Vec<String>) {
    let mut last = ('1', Vec::new());
    for cell in "123456789".chars() {
        if app.tabs.tictactoe.tictactoe.position.outcome().is_some() {
            break;
        }
        if app
            .tabs
            .tictactoe
            .tictactoe
            .position
            .check_choice(cell as u8 - b'0')
            .is_err()
        {
            continue;
        }
        let pane = app
            .tabs
            .tictactoe
            .tictactoe
            .search
            .as_ref()
            .map_or_else(Vec::new, |_| tree_values(app));
        last = (cell, pane);
        press(app, &chars(&cell.to_string()));
    }
    assert!(app.tabs.tictactoe.tictactoe.position.outcome().is_some());
    last
}

#[test]
fn a_finished_game_taken_back_and_played_again_counts_once() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    let (last, _) = play_to_the_end(&mut app);
    let ended = app.tabs.tictactoe.tictactoe.tally;
    assert_eq!(ended.won + ended.lost + ended.drawn, 1);
    let result = if ended.lost == 1 { "loss" } else { "draw" };
    press(&mut app, &[KeyCode::Backspace]);
    assert!(
        message(&app).contains(&format!("; the {result} comes off the score")),
        "{}",
        message(&app)
    );
    let game = &app.tabs.tictactoe.tictactoe;
    assert!(game.position.outcome().is_none());
    assert_eq!(game.tally, crate::tabkit::tally::Tally::default());
    assert_eq!(game.moves.last().map(|t| t.by), Some(Side::Ai));
    // The same move again ends the same game, counted once.
    press(&mut app, &chars(&last.to_string()));
    assert_eq!(app.tabs.tictactoe.tictactoe.tally, ended);
}

#[test]
fn undo_shows_the_search_of_the_ai_move_that_now_stands_last() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    let (_, pane_before) = play_to_the_end(&mut app);
    assert!(!pane_before.is_empty());
    press(&mut app, &[KeyCode::Backspace]);
    let game = &app.tabs.tictactoe.tictactoe;
    let last_ai = game.moves.iter().rev().find(|t| t.by == Side::Ai).unwrap();
    let view = game.search.as_ref().expect("the tree pane is not blank");
    assert_eq!(*view.stepper.root(), last_ai.before);
    assert!(view.stepper.result().is_some(), "searched to the end");
    assert_eq!(
        tree_values(&app),
        pane_before,
        "the tree the pane showed then"
    );
    // Taken back to the first move: the pane is as a new game shows it.
    while app
        .tabs
        .tictactoe
        .tictactoe
        .moves
        .iter()
        .any(|t| t.by == Side::Human)
    {
        press(&mut app, &[KeyCode::Backspace]);
    }
    let game = &app.tabs.tictactoe.tictactoe;
    assert!(game.moves.is_empty());
    assert!(game.search.is_none());
    let mut fresh = self::app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut fresh, &[KeyCode::Char('r')]);
    let tree_pane = |app: &App| {
        screen(app, 80, 24)
            .lines()
            .skip(2)
            .map(|l| l.chars().skip(40).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(tree_pane(&app), tree_pane(&fresh));
}

#[test]
fn undo_refuses_to_take_back_the_ai_s_opening_move_alone() {
    let mut app = app(FirstMover::Ai, Algorithm::AlphaBeta, false);
    let before = app.tabs.tictactoe.fingerprint();
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(
        message(&app),
        "Nothing of yours to take back: the AI's opening move stays (r starts a new game)"
    );
    assert_eq!(app.tabs.tictactoe.fingerprint(), before);
}

#[test]
fn undo_while_the_ai_s_search_waits_takes_back_your_move_only() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, true);
    press(&mut app, &chars("5 "));
    press(&mut app, &[KeyCode::Backspace]);
    assert!(
        message(&app).starts_with("Took back X5: your move again"),
        "{}",
        message(&app)
    );
    let game = &app.tabs.tictactoe.tictactoe;
    assert_eq!(game.position, Board::empty(Mark::X));
    assert!(game.search.is_none());
}

#[test]
fn the_move_list_beside_the_board_holds_the_whole_game() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &chars("53"));
    let text = screen(&app, 80, 24);
    assert!(text.contains("moves"), "{text}");
    assert!(text.contains("1. X5 O1"), "{text}");
    assert!(text.contains("2. X3 O7"), "{text}");
}

/// Opens the editor, empties the board and types `cells` (X, O or . for each of 1-9).
fn set_up(app: &mut App, cells: &str) {
    press(app, &chars("ic"));
    for (i, c) in cells.chars().enumerate() {
        press(app, &chars(&format!("{}", i + 1)));
        let key = match c {
            'X' => 'x',
            'O' => 'o',
            _ => '.',
        };
        press(app, &[KeyCode::Char(key)]);
    }
}

fn assert_refused(cells: &str, expected: &str) {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &chars("5"));
    let game_before = app.tabs.tictactoe.tictactoe.position;
    set_up(&mut app, cells);
    let draft = app.tabs.tictactoe.editor;
    for key in [KeyCode::Enter, KeyCode::Char('t'), KeyCode::Char('y')] {
        press(&mut app, &[key]);
        let said = message(&app);
        assert!(said.contains(expected), "{cells} {key:?}: {said}");
        assert!(app.overlays.is_empty());
        assert_eq!(app.tabs.tictactoe.editor, draft, "the draft is unchanged");
        assert_eq!(app.tabs.tictactoe.tictactoe.position, game_before);
        assert_eq!(app.tabs.tictactoe.tictactoe.moves.len(), 2);
    }
}

#[test]
fn the_editor_refuses_two_winners() {
    assert_refused(
        "XXXOOO...",
        "both X and O have three in a row: a game stops at the first line",
    );
}

#[test]
fn the_editor_refuses_wrong_counts() {
    assert_refused("XXX.O....", "impossible piece counts: 3 X and 1 O");
    assert_refused("OOO......", "impossible piece counts: 0 X and 3 O");
}

#[test]
fn the_editor_refuses_a_winner_who_could_not_have_moved_last() {
    assert_refused("XXXOO.OO.", "X has three in a row, but O moved last here");
}

#[test]
fn the_editor_refuses_a_finished_board_to_search() {
    assert_refused(
        "XXXOO....",
        "the game is over on this board (X has three in a row)",
    );
    assert_refused("XOXXOOOXX", "the game is over on this board (it is full)");
}

#[test]
fn the_editor_plays_from_a_legal_board_and_the_ai_answers() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    // Three X and two O: O (the AI) is to move, and O4 O5 threaten 6.
    set_up(&mut app, "X..OO.XX.");
    press(&mut app, &[KeyCode::Char('s')]);
    assert!(
        message(&app).contains("the counts decide it"),
        "{}",
        message(&app)
    );
    press(&mut app, &[KeyCode::Enter]);
    let game = &app.tabs.tictactoe.tictactoe;
    assert!(app.tabs.tictactoe.editor.is_none());
    // X had more marks, so O (the AI) was to move and took its winning line.
    assert_eq!(game.moves.len(), 1);
    assert_eq!(game.moves[0].text, "O6");
    assert!(
        message(&app).contains("Board set up, O to move"),
        "{}",
        message(&app)
    );
    assert!(message(&app).contains("not counted"), "{}", message(&app));
    assert_eq!(game.tally, super::game::Tally::default());
    press(&mut app, &[KeyCode::Char('y')]);
    let decision = why(&app).decision().unwrap();
    assert!(
        decision
            .options
            .iter()
            .any(|o| o.chosen && o.verdict == Some(Verdict::wins_in_plies(1)))
    );
}

#[test]
fn the_editor_searches_a_board_for_you_to_step() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    set_up(&mut app, "X...O....");
    press(&mut app, &[KeyCode::Char('t')]);
    let game = &app.tabs.tictactoe.tictactoe;
    let view = game.search.as_ref().unwrap();
    assert!(view.analysis, "a search of your own position");
    assert_eq!(view.stepper.root().to_string(), "X...O....");
    assert_eq!(view.stepper.events_taken(), 0, "waiting to be stepped");
    assert!(app.tabs.tictactoe.tree_has_focus());
    press(&mut app, &chars(" "));
    assert!(
        message(&app).starts_with("Entered the root"),
        "{}",
        message(&app)
    );
}

#[test]
fn asking_about_a_board_plays_nothing() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    set_up(&mut app, "X...O...X");
    let before = app.tabs.tictactoe.fingerprint();
    press(&mut app, &[KeyCode::Char('y')]);
    let why = why(&app).clone();
    assert_eq!(app.tabs.tictactoe.fingerprint(), before);
    assert_eq!(why.moves.len(), 1);
    let decision = why.decision().unwrap();
    assert_eq!(decision.title, "The alpha-beta AI would play O2");
    let verdicts: Vec<(&str, String)> = decision
        .options
        .iter()
        .map(|o| (o.mv.as_str(), o.verdict.unwrap().to_string()))
        .collect();
    assert!(verdicts.contains(&("O2", "draw".to_string())));
    assert!(verdicts.contains(&("O3", "loses in 2 moves".to_string())));
    assert!(
        decision
            .options
            .iter()
            .any(|o| o.numbers[1].starts_with("cut: "))
    );
}

#[test]
fn escape_leaves_the_game_as_it_was() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &chars("5"));
    let before = app.tabs.tictactoe.fingerprint();
    set_up(&mut app, "XXX......");
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(message(&app), "Editor closed: the game is as it was");
    assert_eq!(app.tabs.tictactoe.fingerprint(), before);
}

#[test]
fn the_position_editor_on_screen() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &chars("5"));
    set_up(&mut app, "X...O...X");
    press(&mut app, &chars("3"));
    snapshot("editor", &app, BOTH);
    press(&mut app, &chars("x"));
    press(&mut app, &[KeyCode::Enter]);
    assert!(
        message(&app).starts_with("Cannot use this board"),
        "{}",
        message(&app)
    );
    snapshot("editor_refusal", &app, &[(80, 24)]);
}

#[test]
fn the_editor_is_refused_on_the_game_of_eight() {
    let mut app = app(FirstMover::Human, Algorithm::AlphaBeta, false);
    press(&mut app, &chars("g"));
    let before = app.tabs.tictactoe.fingerprint();
    press(&mut app, &chars("i"));
    assert!(message(&app).starts_with("The position editor is for tic-tac-toe"));
    assert_eq!(app.tabs.tictactoe.fingerprint(), before);
}
