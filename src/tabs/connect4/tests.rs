//! The Connect Four tab through `App` and real key events, with a fixed seed: the AI's search
//! runs on its thread and the tests tick until its move is played, so every frame is
//! reproducible. Snapshots at 80x24 and 120x40.

use super::settings::Connect4Ai;
use crate::app::{Action, App};
use crate::config::Config;
use crate::domain::games::connect4::{Board, Disc};
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, press, said, screen};
use crossterm::event::KeyCode;

const SEED: u64 = 5;

fn app_with(ai: Connect4Ai, solver_budget: u64) -> App {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.connect4.ai = ai;
    config.connect4.solver_budget = solver_budget;
    config.connect4.iterations = 3_000;
    let mut app = App::new(&config, SEED);
    press(&mut app, &[KeyCode::F(5)]);
    app
}

/// Ticks until the AI has played.
fn wait(app: &mut App) {
    while app.tabs.connect4.is_thinking() {
        std::thread::sleep(std::time::Duration::from_millis(2));
        app.update(Action::Tick);
    }
}

/// Plays `columns` (1-7), waiting for the AI's reply after each.
fn play(app: &mut App, columns: &str) {
    for column in columns.chars() {
        press(app, &chars(&column.to_string()));
        wait(app);
    }
}

fn snapshot(name: &str, app: &App) {
    snapshot_tab(&format!("connect4__{name}"), app, BOTH_SIZES, "");
}

#[test]
fn alpha_beta_replies_and_its_tree_shows_windows_values_and_cuts() {
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    play(&mut app, "443");
    assert_eq!(app.tabs.connect4.position().moves(), 6);
    assert!(
        said(&app).starts_with("The AI (alpha-beta) played column"),
        "{}",
        said(&app)
    );
    snapshot("alphabeta_tree", &app);
}

#[test]
fn a_leaf_under_the_cursor_shows_the_evaluations_arithmetic() {
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    play(&mut app, "4");
    // Down the first line to depth 6: each j goes to the first child, each l unfolds it.
    press(&mut app, &chars("fjljljljljlj"));
    let tab = &app.tabs.connect4;
    let rows = tab.tree_rows();
    let row = &rows[tab.folds.cursor];
    assert!(row.text.ends_with(" ◇"), "a depth-limit leaf: {}", row.text);
    snapshot("leaf_arithmetic", &app);
}

#[test]
fn mcts_shows_visits_shares_and_ucb_sorted_by_visits() {
    let mut app = app_with(Connect4Ai::Mcts, 0);
    play(&mut app, "4");
    let tab = &app.tabs.connect4;
    let rows = tab.tree_rows();
    assert!(
        rows[1].chosen,
        "the most visited root move is first and chosen"
    );
    snapshot("mcts_tree", &app);
}

#[test]
fn the_solver_gives_every_column_its_verdict() {
    let mut app = app_with(Connect4Ai::Perfect, 5_000_000);
    // Columns 3 and 4 are full; red (the AI) to move wins with column 2 or 5.
    app.tabs
        .connect4
        .set_position(Board::parse("444444333333").unwrap(), Disc::Yellow);
    wait(&mut app);
    let tab = &app.tabs.connect4;
    assert_eq!(tab.position().moves(), 13);
    assert_eq!(
        tab.turns[0].column, 4,
        "column 5, centre first among equal wins"
    );
    snapshot("solver_verdicts", &app);
}

#[test]
fn a_game_against_random_ends_with_the_four_marked_and_counted() {
    let mut app = app_with(Connect4Ai::Random, 0);
    let mut column = 1;
    while !app.tabs.connect4.position().is_over() {
        let before = app.tabs.connect4.position().moves();
        play(&mut app, &column.to_string());
        if app.tabs.connect4.position().moves() == before {
            column = column % 7 + 1;
        }
    }
    let tally = app.tabs.connect4.tally;
    assert_eq!(tally.won + tally.lost + tally.drawn, 1);
    snapshot("game_over", &app);
}

#[test]
fn bad_columns_are_refused_and_change_nothing() {
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    press(&mut app, &chars("9"));
    assert_eq!(said(&app), "Columns are 1 to 7");
    press(&mut app, &chars("0"));
    assert_eq!(said(&app), "Columns are 1 to 7");
    assert_eq!(app.tabs.connect4.position().moves(), 0);
    app.tabs
        .connect4
        .set_position(Board::parse("444444").unwrap(), Disc::Red);
    press(&mut app, &chars("4"));
    assert_eq!(said(&app), "Column 4 is full: pick another");
    assert_eq!(
        app.tabs.connect4.position(),
        Board::parse("444444").unwrap()
    );
}

#[test]
fn undo_takes_back_your_move_and_the_reply() {
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    play(&mut app, "44");
    assert_eq!(app.tabs.connect4.position().moves(), 4);
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(app.tabs.connect4.position().moves(), 2);
    assert!(!app.tabs.connect4.is_thinking());
}

#[test]
fn the_ai_may_open_and_a_switches_the_ai() {
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    press(&mut app, &chars("x"));
    assert!(said(&app).contains("the AI opens"), "{}", said(&app));
    wait(&mut app);
    assert_eq!(app.tabs.connect4.position().moves(), 1);
    press(&mut app, &chars("a"));
    assert_eq!(said(&app), "The AI is now MCTS, 3,000 iters");
}

#[test]
fn y_explains_the_ais_move() {
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    press(&mut app, &chars("y"));
    assert_eq!(said(&app), "The AI has not moved yet in this game");
    play(&mut app, "4");
    press(&mut app, &chars("y"));
    assert!(said(&app).starts_with("Why the AI moved"), "{}", said(&app));
}

/// The text of the stepped search: the phase lines and the tree rows.
fn stepped(app: &App) -> Vec<String> {
    let tab = &app.tabs.connect4;
    let view = tab.stepping.as_ref().expect("a stepped search");
    let mut text = crate::components::mcts_search::outline::phase_lines(&view.stepper);
    text.extend(view.rows().into_iter().map(|r| r.text));
    text
}

#[test]
fn a_stepped_search_run_to_the_end_plays_what_the_unstepped_one_plays() {
    let mut at_once = app_with(Connect4Ai::Mcts, 0);
    play(&mut at_once, "4");
    let mut stepped_app = app_with(Connect4Ai::Mcts, 0);
    press(&mut stepped_app, &chars("m4"));
    assert!(
        stepped_app.tabs.connect4.stepping.is_some(),
        "the search waits"
    );
    assert!(!stepped_app.tabs.connect4.is_thinking());
    press(&mut stepped_app, &chars("c"));
    assert_eq!(
        stepped_app
            .tabs
            .connect4
            .stepping
            .as_ref()
            .unwrap()
            .stepper
            .mcts()
            .iterations(),
        3_000
    );
    press(&mut stepped_app, &[KeyCode::Enter]);
    wait(&mut stepped_app);
    assert_eq!(
        stepped_app.tabs.connect4.position(),
        at_once.tabs.connect4.position(),
        "the same move, from the same tree"
    );
}

#[test]
fn each_phase_of_a_stepped_iteration_on_screen_and_back() {
    let mut app = app_with(Connect4Ai::Mcts, 0);
    press(&mut app, &chars("m4"));
    press(&mut app, &chars("nnnnnnnnnnnn"));
    let before = stepped(&app);
    press(&mut app, &chars(" "));
    assert!(said(&app).contains("selection done"), "{}", said(&app));
    snapshot("mcts_step_selection", &app);
    press(&mut app, &chars("b"));
    assert_eq!(
        stepped(&app),
        before,
        "b restores the state before the phase"
    );
    for (key, name) in [
        (" ", "mcts_step_selection_again"),
        (" ", "mcts_step_expansion"),
        (" ", "mcts_step_simulation"),
        (" ", "mcts_step_backpropagation"),
    ] {
        press(&mut app, &chars(key));
        if name != "mcts_step_selection_again" {
            snapshot(name, &app);
        }
    }
    let stepper = &app.tabs.connect4.stepping.as_ref().unwrap().stepper;
    assert_eq!(stepper.mcts().iterations(), 13);
}

#[test]
fn the_settings_panel_sets_the_ai_from_its_next_move() {
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    press(&mut app, &chars("S"));
    snapshot("settings_panel", &app);
    press(
        &mut app,
        &[KeyCode::Down, KeyCode::Right, KeyCode::Down, KeyCode::Right],
    );
    press(&mut app, &[KeyCode::Enter]);
    let config = &app.tabs.connect4.config;
    assert_eq!(config.depth, 7, "{}", said(&app));
    assert!(!config.deepening, "{}", said(&app));
    play(&mut app, "4");
    let Some((_, thought)) = &app.tabs.connect4.last else {
        panic!("the AI moved")
    };
    let super::ai::Searched::AlphaBeta(found) = &thought.searched else {
        panic!("alpha-beta searched")
    };
    assert_eq!(found.iterations.len(), 1, "no deepening: one iteration");
    assert_eq!(found.options.depth, 7);
}

#[test]
fn new_games_pressed_fast_run_at_most_two_searches() {
    let mut app = app_with(Connect4Ai::Perfect, 3_000_000);
    press(&mut app, &chars("x"));
    assert!(app.tabs.connect4.is_thinking(), "the AI opens");
    for _ in 0..6 {
        press(&mut app, &chars("r"));
        let running = app.tabs.connect4.searches_running();
        assert!(running <= 2, "{running} searches at once");
    }
    wait(&mut app);
}

#[test]
fn go_to_step_reaches_the_phase_that_many_steps_reach_and_clamps_past_the_end() {
    let mut app = app_with(Connect4Ai::Mcts, 0);
    press(&mut app, &chars("m4"));
    press(&mut app, &chars(&" ".repeat(21)));
    let at_21 = app.tabs.connect4.stepping.as_ref().unwrap().stepper.clone();
    press(&mut app, &chars("G5"));
    assert!(said(&app).starts_with("Go to step: 5▏"), "{}", said(&app));
    press(&mut app, &[KeyCode::Enter]);
    assert!(
        said(&app).starts_with("At step 5 of 12,000"),
        "{}",
        said(&app)
    );
    press(&mut app, &chars("G21"));
    press(&mut app, &[KeyCode::Enter]);
    let at = app
        .tabs
        .connect4
        .stepping
        .as_ref()
        .map(|view| &view.stepper);
    assert_eq!(at, Some(&at_21));
    press(&mut app, &chars("G99999"));
    press(&mut app, &[KeyCode::Enter]);
    assert!(
        said(&app).starts_with("There is no step 99999: the search ends at step 12000"),
        "{}",
        said(&app)
    );
    press(&mut app, &chars("G3"));
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(
        app.tabs
            .connect4
            .stepping
            .as_ref()
            .unwrap()
            .stepper
            .phases(),
        12_000
    );
}

#[test]
fn predict_mode_asks_the_column_uct_selects_and_grades_it_against_the_search() {
    use crate::domain::search::mcts::root_pick;
    use crate::tabkit::tab::ClassSide;
    let mut app = app_with(Connect4Ai::Mcts, 0);
    press(&mut app, &chars("m4"));
    press(&mut app, &chars(&"n".repeat(7)));
    press(&mut app, &chars("P"));
    assert!(
        said(&app).starts_with("Predict: which column does UCT select at the root?"),
        "{}",
        said(&app)
    );
    let pick = root_pick(&app.tabs.connect4.stepping.as_ref().unwrap().stepper).unwrap();
    assert!(
        pick.untried.is_empty(),
        "seven iterations: every column has a child"
    );
    // Space waits for the answer.
    press(&mut app, &chars(" "));
    assert_eq!(
        app.tabs
            .connect4
            .stepping
            .as_ref()
            .unwrap()
            .stepper
            .phases(),
        28
    );
    let wrong = (0..7).find(|&c| c != pick.chosen).unwrap();
    press(&mut app, &chars(&(wrong + 1).to_string()));
    press(&mut app, &[KeyCode::Enter]);
    assert!(said(&app).starts_with("Wrong: "), "{}", said(&app));
    assert!(said(&app).contains("col "), "{}", said(&app));
    assert_eq!(app.tabs.connect4.predictions().asked, 1);
    // The selection answered shows on the next step; the iteration's rest, then the next
    // iteration's pick, answered right.
    press(&mut app, &chars(" "));
    press(&mut app, &chars("n"));
    let pick = root_pick(&app.tabs.connect4.stepping.as_ref().unwrap().stepper).unwrap();
    press(&mut app, &chars(&(pick.chosen + 1).to_string()));
    press(&mut app, &[KeyCode::Enter]);
    assert!(said(&app).starts_with("Right: col "), "{}", said(&app));
    assert_eq!(
        app.tabs.connect4.predictions(),
        crate::domain::prediction::Score { right: 1, asked: 2 }
    );
    press(&mut app, &chars("P"));
    assert!(
        said(&app).starts_with("Predict mode off: 1 of 2"),
        "{}",
        said(&app)
    );
}

#[test]
fn following_the_ai_searches_nothing_and_plays_the_journal_s_move_only_where_it_fits() {
    use crate::tabkit::tab::Tab as _;
    // The teacher's session: a move and its AI's reply, searched on a thread.
    let mut teacher = app_with(Connect4Ai::AlphaBeta, 0);
    press(&mut teacher, &chars("4"));
    let played = loop {
        std::thread::sleep(std::time::Duration::from_millis(2));
        let ticked = teacher.tabs.connect4.tick(true);
        if let Some(played) = ticked.played.into_iter().next() {
            break played;
        }
    };
    // A student's session taking its AI's moves from the journal.
    let mut student = app_with(Connect4Ai::AlphaBeta, 0);
    student.tabs.connect4.take_moves_from_journal(true);
    let before = student.tabs.connect4.position();
    let refused = student.tabs.connect4.play_followed(&played);
    assert!(refused.text.contains("does not fit"), "{}", refused.text);
    assert_eq!(student.tabs.connect4.position(), before, "nothing changed");
    press(&mut student, &chars("4"));
    assert!(student.tabs.connect4.is_thinking(), "it waits for the move");
    assert_eq!(
        student.tabs.connect4.searches_running(),
        0,
        "and searches nothing"
    );
    student.tabs.connect4.play_followed(&played);
    assert_eq!(
        student.tabs.connect4.position(),
        teacher.tabs.connect4.position()
    );
    assert!(student.tabs.connect4.human_to_move());
    // Released, a move the AI waits for is searched for here again.
    press(&mut student, &chars("3"));
    student.tabs.connect4.take_moves_from_journal(false);
    assert!(student.tabs.connect4.is_thinking());
    wait(&mut student);
    assert_eq!(student.tabs.connect4.position().moves(), 4);
}

/// An app whose AI is alpha-beta to `depth` plies.
fn alpha_beta_app(depth: u8) -> App {
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    app.tabs.connect4.config.depth = depth;
    app
}

#[test]
fn alpha_beta_steps_event_by_event_with_the_tic_tac_toe_stepper_s_words_and_keys() {
    let mut app = alpha_beta_app(3);
    press(&mut app, &chars("m4"));
    assert!(app.tabs.connect4.tree_search_waits(), "the search waits");
    assert!(
        !app.tabs.connect4.is_thinking(),
        "and nothing searches by itself"
    );
    press(&mut app, &chars(" "));
    assert!(said(&app).starts_with("Entered the root"), "{}", said(&app));
    press(&mut app, &chars("   "));
    // Root, a child, a grandchild, then a leaf at the depth limit.
    assert!(said(&app).contains("the depth limit"), "{}", said(&app));
    press(&mut app, &chars(" "));
    assert!(said(&app).contains("the evaluation from"), "{}", said(&app));
    press(&mut app, &chars("b"));
    assert!(
        said(&app).contains("the depth limit"),
        "b steps back: {}",
        said(&app)
    );
    press(&mut app, &chars("u"));
    press(&mut app, &chars("n"));
    snapshot("alphabeta_stepped", &app);
    press(&mut app, &chars("c"));
    assert!(said(&app).starts_with("Search finished"), "{}", said(&app));
    press(&mut app, &[KeyCode::Enter]);
    assert!(!app.tabs.connect4.tree_search_waits());
    assert_eq!(app.tabs.connect4.position().moves(), 2, "the AI moved");
    assert!(app.tabs.connect4.human_to_move());
}

#[test]
fn the_stepped_alpha_beta_plays_the_move_the_same_plain_search_finds() {
    use crate::domain::search::limited::{Options, search_limited};
    for opening in ["4", "1", "7"] {
        let mut app = alpha_beta_app(4);
        press(&mut app, &chars("m"));
        press(&mut app, &chars(opening));
        let root = app.tabs.connect4.position();
        press(&mut app, &[KeyCode::Enter]);
        let options = Options {
            depth: 4,
            deepening: false,
            ordering: true,
            table: false,
        };
        let best = search_limited(&root, options, 0).best_move().unwrap();
        assert_eq!(app.tabs.connect4.position(), root.play(usize::from(best)));
        let why = app.tabs.connect4.why().expect("the move has its record");
        assert!(why.decision().is_some(), "with the decision behind it");
    }
}

#[test]
fn predict_mode_asks_the_stepped_alpha_beta_s_questions_and_grades_them() {
    use crate::domain::search::EventKind;
    use crate::domain::search::predict::Question;
    let mut app = alpha_beta_app(2);
    press(&mut app, &chars("m4P"));
    let mut steps = 0;
    while app.tabs.connect4.tree_question().is_none() {
        press(&mut app, &chars(" "));
        steps += 1;
        assert!(steps < 200, "a question comes");
    }
    let question = app.tabs.connect4.tree_question().unwrap();
    assert!(said(&app).starts_with("Predict"), "{}", said(&app));
    let asking = app
        .tabs
        .connect4
        .asked()
        .expect("the room sees the question");
    assert_eq!(asking.id.stepper, "Connect Four alpha-beta");
    // Space does not step past a question, nor type blanks into a value or a y/n.
    press(&mut app, &chars("   "));
    assert_eq!(app.tabs.connect4.tree_question(), Some(question));
    if !question.takes_children() {
        assert!(said(&app).starts_with("Answer first"), "{}", said(&app));
        let typed = app.tabs.connect4.predict.as_ref().unwrap().entry.text();
        assert_eq!(typed, "", "nothing typed");
    }
    let view = app.tabs.connect4.tree_search.as_ref().unwrap();
    let answer = match question {
        Question::Value { node } => {
            // What the node returns, from the same search run to its end (nodes are
            // numbered in the order they are entered, so the id is the same).
            let mut ahead = crate::components::tree_search::SearchView::limited(
                app.tabs.connect4.position(),
                2,
                crate::domain::search::MoveOrder::Static,
                false,
            );
            ahead.stepper.run_to_end();
            format!(
                "{:+}",
                ahead.stepper.node(node).value.map(i32::from).unwrap()
            )
        }
        Question::Cutoff { .. } => {
            let cut = view.stepper.peek().unwrap().kind == EventKind::Cutoff;
            (if cut { "y" } else { "n" }).to_string()
        }
        other => panic!("the first question is a value or a cut-off, not {other:?}"),
    };
    press(&mut app, &chars(&answer));
    press(&mut app, &[KeyCode::Enter]);
    assert!(said(&app).starts_with("Right"), "{}", said(&app));
    let score = crate::tabkit::tab::ClassSide::predictions(&app.tabs.connect4);
    assert_eq!((score.right, score.asked), (1, 1));
}

#[test]
fn go_to_step_takes_the_stepped_alpha_beta_to_that_event_and_back() {
    let mut app = alpha_beta_app(3);
    press(&mut app, &chars("m4"));
    let events = |app: &App| {
        let view = app.tabs.connect4.tree_search.as_ref().unwrap();
        view.stepper.events_taken()
    };
    press(&mut app, &chars("G12"));
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(events(&app), 12);
    let at = crate::tabkit::tab::ClassSide::stepper_at(&app.tabs.connect4);
    assert_eq!(at.as_deref(), Some("12"), "the room sees where it is");
    press(&mut app, &chars("G3"));
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(events(&app), 3, "back by stepping back");
    press(&mut app, &chars("c"));
    let all = events(&app);
    press(&mut app, &chars("G99999"));
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(events(&app), all, "past the end stops at the end");
}

#[test]
fn the_stepped_alpha_beta_s_tree_takes_the_tree_keys() {
    let mut app = alpha_beta_app(2);
    press(&mut app, &chars("m4"));
    press(&mut app, &chars("c"));
    press(&mut app, &chars("f"));
    let cursor = |app: &App| {
        app.tabs
            .connect4
            .tree_search
            .as_ref()
            .unwrap()
            .tree_cursor()
    };
    press(&mut app, &[KeyCode::Home]);
    assert_eq!(cursor(&app), 0, "Home: the root");
    press(&mut app, &[KeyCode::Down, KeyCode::Down]);
    assert_ne!(cursor(&app), 0, "the arrows move in the stepped tree");
    // ← folds the node, then goes to its parent: four take the cursor to the root.
    press(&mut app, &[KeyCode::Left; 4]);
    assert_eq!(cursor(&app), 0, "folding a folded node goes to its parent");
}

#[test]
fn in_predict_mode_stepping_over_or_running_on_stops_at_the_alpha_beta_s_next_question() {
    for key in ["n", "u", "c"] {
        let mut app = alpha_beta_app(2);
        press(&mut app, &chars("m4P "));
        assert!(app.tabs.connect4.tree_question().is_none(), "none at once");
        press(&mut app, &chars(key));
        assert!(
            app.tabs.connect4.tree_question().is_some(),
            "{key} stops at the question: {}",
            said(&app)
        );
        assert!(said(&app).starts_with("Predict"), "{key}: {}", said(&app));
        let view = app.tabs.connect4.tree_search.as_ref().unwrap();
        assert!(!view.stepper.is_finished(), "{key} ran past every question");
    }
}

#[test]
fn autoplay_steps_either_stepper_by_itself_and_stops_at_a_question() {
    use crate::tabkit::tab::ClassSide;
    // Alpha-beta: an event a step.
    let mut app = alpha_beta_app(3);
    press(&mut app, &chars("m4p"));
    assert!(
        said(&app).starts_with("Autoplay: the search steps"),
        "{}",
        said(&app)
    );
    for _ in 0..3 {
        app.tabs.connect4.autoplay_once();
    }
    let view = app.tabs.connect4.tree_search.as_ref().unwrap();
    assert_eq!(view.stepper.events_taken(), 3);
    press(&mut app, &chars("+"));
    assert!(
        said(&app).starts_with("Autoplay speed: 8/s"),
        "{}",
        said(&app)
    );
    press(&mut app, &chars("p"));
    assert!(!app.tabs.connect4.autoplays(), "paused");
    // MCTS: a phase a step.
    let mut app = app_with(Connect4Ai::Mcts, 0);
    press(&mut app, &chars("m4p"));
    for _ in 0..5 {
        app.tabs.connect4.autoplay_once();
    }
    let view = app.tabs.connect4.stepping.as_ref().unwrap();
    assert_eq!(view.stepper.phases(), 5);
    // In predict mode autoplay stops where a question waits, and says it.
    let mut app = alpha_beta_app(2);
    press(&mut app, &chars("m4Pp"));
    for _ in 0..200 {
        if !app.tabs.connect4.autoplays() {
            break;
        }
        app.tabs.connect4.autoplay_once();
    }
    assert!(
        app.tabs.connect4.tree_question().is_some(),
        "{}",
        said(&app)
    );
    // With no stepped search, p says whose key it is.
    let mut app = alpha_beta_app(3);
    press(&mut app, &chars("p"));
    assert!(said(&app).contains("is a key of"), "{}", said(&app));
}

/// Work holding `pool`'s one place (once any work before it has given it back) until the
/// sender returned is used or dropped.
fn hold_the_place(
    pool: &std::sync::Arc<crate::tabkit::background::TrainerPool>,
) -> (
    crate::tabkit::background::OneShot,
    std::sync::mpsc::Sender<()>,
) {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (began_tx, began) = std::sync::mpsc::channel();
    let holder = crate::tabkit::background::OneShot::start(pool, move || {
        began_tx.send(()).unwrap();
        let _ = held.recv();
    });
    began.recv().unwrap();
    (holder, release)
}

/// The AI's search takes a place in the trainer pool like a training run: while every
/// place is taken it waits and the status line says so; a new game, undo or the tab
/// closing gives its turn up (no place taken, no thread left waiting); once a place is
/// free it searches and plays.
#[test]
fn the_ai_s_search_waits_for_a_free_place_and_gives_its_turn_up_when_cancelled() {
    use crate::tabkit::background::{TrainerPool, WAITING_TO_THINK};
    use crate::tabkit::tab::Tab as _;
    let mut app = app_with(Connect4Ai::AlphaBeta, 0);
    let pool = TrainerPool::new(1);
    app.tabs.connect4.pool = std::sync::Arc::clone(&pool);
    let (mut holder, release) = hold_the_place(&pool);
    let searches_given_up = |app: &mut App| {
        assert!(!app.tabs.connect4.is_thinking());
        assert_eq!(pool.waiting(), 0, "the search left the queue");
        if let Some(search) = app.tabs.connect4.abandoned.as_mut() {
            search.join();
        }
        assert_eq!(app.tabs.connect4.searches_running(), 0, "its thread ended");
        assert_eq!(pool.running(), 1, "only the holder has a place");
    };

    press(&mut app, &chars("4"));
    assert!(app.tabs.connect4.waits_for_place());
    assert_eq!(app.tabs.connect4.searches_running(), 1);
    let status = format!(
        "The AI ({}) is {WAITING_TO_THINK}…",
        Connect4Ai::AlphaBeta.shown()
    );
    // The board pane's text, its wrapped lines joined again.
    let drawn = screen(&app, 80, 24);
    let pane: Vec<String> = drawn
        .lines()
        .map(|line| line.chars().skip(2).take(29).collect::<String>())
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty())
        .collect();
    assert!(pane.join(" ").contains(&status), "{drawn}");
    let ticked = app.tabs.connect4.tick(true);
    assert!(!ticked.changed, "nothing to redraw while it waits");
    press(&mut app, &chars("r"));
    searches_given_up(&mut app);

    press(&mut app, &chars("4"));
    assert!(app.tabs.connect4.waits_for_place());
    press(&mut app, &[KeyCode::Backspace]);
    searches_given_up(&mut app);
    assert_eq!(
        app.tabs.connect4.position().moves(),
        0,
        "your move taken back"
    );

    press(&mut app, &chars("4"));
    assert!(app.tabs.connect4.waits_for_place());
    release.send(()).unwrap();
    holder.join();
    wait(&mut app);
    assert_eq!(app.tabs.connect4.position().moves(), 2, "the AI replied");
    assert_eq!(app.tabs.connect4.searches_running(), 0);

    // Closing the tab (a session ending) while a search waits gives its turn up too.
    let (mut holder, release) = hold_the_place(&pool);
    press(&mut app, &chars("3"));
    assert!(app.tabs.connect4.waits_for_place());
    drop(app);
    assert_eq!(pool.waiting(), 0, "the search left the queue");
    drop(release);
    holder.join();
}
