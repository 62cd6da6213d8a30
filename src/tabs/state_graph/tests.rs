//! The State Graph tab through `App` and real key events, with a fixed seed and no data dir:
//! training advances one chunk per `Tick`, so every frame is reproducible. Snapshots at 80x24
//! and 120x40.

use crate::app::{Action, App};
use crate::config::Config;
use crate::domain::learn::state_graph::Player;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, fresh_dir, press};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const SEED: u64 = 11;

fn app() -> App {
    let config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    let mut app = App::new(&config, SEED);
    press(&mut app, &[KeyCode::F(3)]);
    app
}

fn trained() -> App {
    let mut app = app();
    press(&mut app, &chars("p"));
    while app.tabs.state_graph.training {
        app.update(Action::Tick);
    }
    app
}

fn snapshot(name: &str, app: &App) {
    snapshot_tab(&format!("graph__{name}"), app, BOTH_SIZES, "");
}

#[test]
fn the_fresh_graph_is_all_zero() {
    let app = app();
    assert_eq!(app.tabs.state_graph.graph.games, 0);
    assert!(
        app.tabs
            .state_graph
            .graph
            .edges()
            .iter()
            .all(|e| app.tabs.state_graph.graph.weight(e) == 0)
    );
    snapshot("graph_fresh", &app);
}

#[test]
fn ten_thousand_games_train_in_ticks_and_answer_the_questions() {
    let app = trained();
    assert_eq!(app.tabs.state_graph.graph.games, 10_000);
    assert!(!app.tabs.state_graph.training);
    snapshot("graph_trained", &app);
}

#[test]
fn a_selected_vertex_shows_its_edges_and_the_exact_answer() {
    let mut app = trained();
    press(
        &mut app,
        &[
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
            KeyCode::Right,
        ],
    );
    assert_eq!(app.tabs.state_graph.cursor.tokens, 4);
    press(&mut app, &[KeyCode::Down]);
    assert_eq!(app.tabs.state_graph.cursor.player, Player::Two);
    snapshot("graph_vertex_p2_4", &app);
}

#[test]
fn a_stepped_game_is_highlighted_with_its_rewards() {
    let mut app = app();
    press(&mut app, &chars("s"));
    assert_eq!(app.tabs.state_graph.graph.games, 1);
    let path = app.tabs.state_graph.highlight.clone();
    let winner = path.last().unwrap().from.player;
    for edge in &path {
        let expected = if edge.from.player == winner { 1 } else { -1 };
        assert_eq!(app.tabs.state_graph.graph.weight(edge), expected);
    }
    assert!(app.message.as_ref().unwrap().text.contains("won in"));
    snapshot("graph_stepped_game", &app);
}

#[test]
fn a_game_against_the_learned_graph() {
    let mut app = trained();
    press(&mut app, &chars("g"));
    press(&mut app, &chars("3"));
    assert!(
        app.message.as_ref().unwrap().text.contains("Take 1-2"),
        "an illegal take is refused"
    );
    assert_eq!(
        app.tabs.state_graph.game.as_ref().unwrap().at.tokens,
        10,
        "nothing changed"
    );
    // Play 1 until the game ends: the trained graph (player 2) answers with strongest edges.
    while app.tabs.state_graph.game.as_ref().unwrap().at.tokens > 0 {
        press(&mut app, &chars("1"));
    }
    snapshot("graph_game_over", &app);
}

/// Issue 29 §6: while the person is to take, no exact answer is on screen (the lost-state
/// marks, the winning take, "not the winning move", the lab's exact line); they come back
/// once the take is made.
#[test]
fn the_exact_answers_are_hidden_on_your_turn_and_back_after() {
    let mut app = trained();
    app.color = false;
    let screen = |app: &App| crate::tabs::testing::screen(app, 80, 24);
    let shown = screen(&app);
    assert!(
        shown.contains("×p1-9") && shown.contains("exact: "),
        "{shown}"
    );
    press(&mut app, &chars("g"));
    let hidden = screen(&app);
    for answer in [
        "×p",
        " wins",
        "exact: winning",
        "exact: losing",
        "edge is not the winning",
        "wins Nim",
    ] {
        assert!(
            !hidden.contains(answer),
            "{answer:?} on your turn:\n{hidden}"
        );
    }
    assert!(hidden.contains("exact: hidden on your turn"), "{hidden}");
    // Asking about a state would open its record, exact answers and all: refused.
    press(&mut app, &chars("a"));
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .text
            .starts_with("Not on your turn"),
        "{:?}",
        app.message
    );
    assert!(app.overlays.is_empty());
    press(&mut app, &chars("1"));
    if !app.tabs.state_graph.your_turn() {
        assert!(screen(&app).contains("×p"), "{}", screen(&app));
    }
    while app.tabs.state_graph.game.as_ref().unwrap().at.tokens > 0 {
        press(&mut app, &chars("1"));
    }
    assert!(
        screen(&app).contains("×p1-9"),
        "after the game: {}",
        screen(&app)
    );
}

/// The rows of the graph pane as text, on a `width` x 24 screen.
fn grid_rows(app: &App, width: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, 24)).unwrap();
    terminal.draw(|f| crate::ui::render(app, f)).unwrap();
    let buffer = terminal.backend().buffer();
    let lanes = 2 * app.tabs.state_graph.graph.max_take as u16;
    (2..2 + lanes + 2)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

/// Every cell of the grid starts after a space (or the border): an arrow or a state's
/// name never follows the text before it directly.
fn assert_columns_apart(app: &App, width: u16) {
    for row in grid_rows(app, width) {
        let cells: Vec<char> = row.chars().collect();
        for pair in cells.windows(2) {
            let starts_cell = matches!(pair[1], '↘' | '⇘' | '⇗' | '↗' | '×')
                || (pair[1] == 'p' && pair[0] != '×');
            assert!(
                !starts_cell || pair[0] == ' ' || pair[0] == '│',
                "columns run together at {width} columns: {row}"
            );
        }
    }
}

#[test]
fn large_weights_never_run_together() {
    for games in [10_000, 100_000, 1_000_000] {
        let mut config = Config {
            seed: Some(SEED),
            ..Config::default()
        };
        config.graph.games = games;
        let mut app = App::new(&config, SEED);
        press(&mut app, &[KeyCode::F(3)]);
        press(&mut app, &chars("p"));
        while app.tabs.state_graph.graph.games < games {
            app.update(Action::Tick);
        }
        for width in [80, 100, 120] {
            assert_columns_apart(&app, width);
        }
        // Every column is on screen at 80 columns, the thousands form if need be.
        let rows = grid_rows(&app, 80);
        assert!(
            rows[0].contains("p1-10") && rows[0].contains("p1-0"),
            "{games} games: {}",
            rows.join("\n")
        );
    }
}

#[test]
fn lost_states_are_marked_by_a_glyph_as_well_as_colour() {
    let mut app = app();
    app.color = false;
    let rows = grid_rows(&app, 80);
    // Nim(10) with takes 1-2: the mover loses at 9, 6, 3 and 0 tokens.
    for tokens in [9, 6, 3, 0] {
        assert!(rows[0].contains(&format!("×p1-{tokens} ")), "{}", rows[0]);
        assert!(rows[5].contains(&format!("×p2-{tokens} ")), "{}", rows[5]);
    }
    for tokens in [10, 8, 7, 5, 4, 2, 1] {
        assert!(!rows[0].contains(&format!("×p1-{tokens} ")), "{}", rows[0]);
    }
}

/// The hints' labels now.
fn hint_labels(app: &App) -> Vec<&'static str> {
    app.hints().iter().map(|b| b.label()).collect()
}

#[test]
fn the_take_key_is_hinted_only_while_a_game_waits_for_a_take() {
    let mut app = app();
    assert!(app.tabs.state_graph.game.is_none());
    let idle = hint_labels(&app);
    assert!(!idle.contains(&"1-2"), "no game, nothing to take: {idle:?}");
    assert!(idle.contains(&"g"), "{idle:?}");

    press(&mut app, &chars("g"));
    assert!(hint_labels(&app).contains(&"1-2"), "your turn");

    // Play the game out: every take of 1 until someone takes the last token.
    while app.tabs.state_graph.game_on() {
        press(&mut app, &chars("1"));
    }
    let over = hint_labels(&app);
    assert!(!over.contains(&"1-2"), "the game is over: {over:?}");
    assert!(over.contains(&"y"), "the AI moved, so y explains: {over:?}");
}

#[test]
fn the_hints_say_the_configured_take_limit() {
    for max_take in 1..=5 {
        let mut config = Config {
            seed: Some(SEED),
            ..Config::default()
        };
        config.graph.max_take = max_take;
        let mut app = App::new(&config, SEED);
        // The take key is hinted while a game waits for a take.
        press(&mut app, &[KeyCode::F(3), KeyCode::Char('g')]);
        let expected = if max_take == 1 {
            "1".to_string()
        } else {
            format!("1-{max_take}")
        };
        let take = app
            .hints()
            .into_iter()
            .find(|b| b.hint() == "take")
            .expect("a take hint");
        assert_eq!(take.label(), expected);
        let help: Vec<&str> = app
            .help_keys()
            .iter()
            .flat_map(|g| g.bindings.iter().map(|b| b.label()))
            .collect();
        assert!(help.contains(&expected.as_str()), "{help:?}");
        assert!(!help.contains(&"1-5") || max_take == 5, "{help:?}");
    }
}

#[test]
fn zeroing_the_graph_keeps_the_trained_file_as_prev_through_later_saves() {
    let temp = fresh_dir("zero");
    let dir = temp.path();
    let mut app = App::with_store(&Config::default(), 1, Some(crate::persist::Store::new(dir)));
    app.tabs.state_graph.toggle_training();
    while app.tabs.state_graph.training {
        app.tabs.state_graph.train_tick();
    }
    let file = dir.join("state-graph.json");
    let trained = std::fs::read(&file).unwrap();
    assert!(app.tabs.state_graph.graph.games >= 10_000);

    let message = app.tabs.state_graph.reset();
    assert!(message.text.contains(".prev"), "{}", message.text);
    let prev = dir.join("state-graph.json.prev");
    assert_eq!(std::fs::read(&prev).unwrap(), trained, "byte for byte");
    // Stepping a game after the zero saves again: the backup stays the trained file.
    app.tabs.state_graph.step_game();
    app.tabs.state_graph.step_game();
    assert_eq!(std::fs::read(&prev).unwrap(), trained);
    assert_ne!(std::fs::read(&file).unwrap(), trained);
}

/// The record open in the why overlay, if it is open.
fn open_record(app: &App) -> Option<&crate::tabkit::why::Why> {
    match app.overlays.top() {
        Some(crate::app::Overlay::Why(why)) => Some(why),
        _ => None,
    }
}

/// Checks the open record against the graph as it is now: every move out of `at` with its
/// weight and the games that crossed it, and `chosen` marked.
fn assert_record_is_the_graphs(app: &App, at: crate::domain::learn::state_graph::Vertex) {
    let graph = &app.tabs.state_graph.graph;
    let decision = open_record(app).unwrap().decision().unwrap();
    let edges = graph.out_edges(at);
    assert_eq!(decision.options.len(), edges.len(), "every move");
    for (edge, option) in edges.iter().zip(&decision.options) {
        let crossings = graph.crossings(edge);
        assert_eq!(
            option.numbers,
            vec![
                format!("{:+}", graph.weight(edge)),
                crate::domain::numbers::thousands(crossings.won),
                crate::domain::numbers::thousands(crossings.lost),
            ]
        );
        let exact = crate::domain::solve::state_graph::verdict_of_take(at.tokens, edge.take(), 2);
        assert_eq!(option.verdict, Some(exact));
    }
}

#[test]
fn every_ai_move_keeps_the_weights_and_crossings_it_chose_by() {
    let mut app = trained();
    press(&mut app, &chars("y"));
    assert!(open_record(&app).is_none(), "no game: nothing opens");
    press(&mut app, &chars("g1"));
    let game = app.tabs.state_graph.game.clone().unwrap();
    let ai_edge = game.path[1];
    press(&mut app, &chars("y"));
    assert_record_is_the_graphs(&app, ai_edge.from);
    let decision = open_record(&app).unwrap().decision().unwrap();
    assert_eq!(
        decision.chosen(),
        vec![format!("take {} → {}", ai_edge.take(), ai_edge.to.name())]
    );
    let crossings = app.tabs.state_graph.graph.crossings(&ai_edge);
    assert!(
        decision.origin[0].contains(&format!(
            "{} won games",
            crate::domain::numbers::thousands(crossings.won)
        )),
        "{:?}",
        decision.origin
    );
    assert!(decision.how.starts_with("Greedy"));
    snapshot("graph_why", &app);
}

#[test]
fn a_tie_says_the_seeded_draw_picked_the_move() {
    let mut app = app();
    press(&mut app, &chars("g1y"));
    let decision = open_record(&app).unwrap().decision().unwrap();
    assert!(
        decision
            .how
            .starts_with("A tie: take 1 and take 2 both weigh +0; the seeded draw picked"),
        "{}",
        decision.how
    );
    assert_eq!(decision.chosen().len(), 1);
}

#[test]
fn asking_about_the_selected_state_draws_nothing_from_the_game() {
    // The same game played with and without a question first: the same moves.
    let game_after = |ask: bool| {
        let mut app = trained();
        press(&mut app, &[KeyCode::Right, KeyCode::Right, KeyCode::Down]);
        if ask {
            press(&mut app, &chars("a"));
            let at = app.tabs.state_graph.cursor;
            assert_eq!(at.name(), "p2-8");
            assert_record_is_the_graphs(&app, at);
            let why = open_record(&app).unwrap();
            assert_eq!(why.moves.len(), 1, "a state asked about, no game");
            press(&mut app, &[KeyCode::Esc]);
        }
        press(&mut app, &chars("g1111"));
        app.tabs.state_graph.game.clone().unwrap().path
    };
    assert_eq!(game_after(true), game_after(false));
}

#[test]
fn asking_about_a_state_with_a_tie_or_no_move() {
    let mut app = app();
    press(&mut app, &chars("a"));
    let decision = open_record(&app).unwrap().decision().unwrap();
    assert!(
        decision.how.contains("a question draws nothing"),
        "{}",
        decision.how
    );
    assert!(decision.chosen().is_empty());
    assert_eq!(
        decision.origin.len(),
        2,
        "both tied edges say where they came from"
    );
    snapshot("graph_asked_tie", &app);
    press(&mut app, &[KeyCode::Esc]);
    for _ in 0..10 {
        press(&mut app, &[KeyCode::Right]);
    }
    assert_eq!(app.tabs.state_graph.cursor.tokens, 0);
    press(&mut app, &chars("a"));
    assert!(open_record(&app).is_none());
    assert!(app.message.as_ref().unwrap().text.contains("has no move"));
}

#[test]
fn a_graph_saved_before_the_counts_loads_and_says_which_games_it_cannot_break_down() {
    let temp = fresh_dir("old-graph");
    let dir = temp.path();
    let store = crate::persist::Store::new(dir);
    let mut app = App::with_store(&Config::default(), 1, Some(store.clone()));
    for _ in 0..200 {
        app.tabs.state_graph.step_game();
    }
    // The file as the version before the counts wrote it: no won, lost or uncounted.
    let file = dir.join("state-graph.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let payload = json["payload"].as_object_mut().unwrap();
    for field in ["won", "lost", "uncounted"] {
        assert!(payload.remove(field).is_some(), "{field}");
    }
    std::fs::write(&file, json.to_string()).unwrap();
    let mut old = App::with_store(&Config::default(), 1, Some(store));
    press(&mut old, &[KeyCode::F(3)]);
    assert_eq!(old.tabs.state_graph.load_error, None);
    assert_eq!(old.tabs.state_graph.graph.games, 200);
    press(&mut old, &chars("g1y"));
    let decision = open_record(&old).unwrap().decision().unwrap();
    assert!(
        decision.origin[0].contains("from the 200 games learned before"),
        "{:?}",
        decision.origin
    );
}

#[test]
fn following_the_graph_plays_the_teacher_s_moves_not_its_own() {
    use crate::tabkit::tab::ClassSide as _;
    use crate::tabs::TabPlayed;
    let journal_moves = |app: &App| -> Vec<super::AiPlayed> {
        crate::tabs::testing::journal_moves(app)
            .into_iter()
            .filter_map(|played| match played {
                TabPlayed::StateGraph(played) => Some(played),
                _ => None,
            })
            .collect()
    };
    let mut teacher = trained();
    press(&mut teacher, &chars("g1"));
    let played = journal_moves(&teacher);
    assert_eq!(played.len(), 1, "the graph's reply is in the journal");
    // A student whose graph learned nothing: its own reply would be a random draw.
    let mut student = app();
    student.tabs.state_graph.moves_from_journal(true);
    press(&mut student, &chars("g1"));
    assert!(
        journal_moves(&student).is_empty(),
        "it moved nothing itself"
    );
    student.tabs.state_graph.play_followed(played[0].clone());
    assert_eq!(student.tabs.state_graph.game, teacher.tabs.state_graph.game);
    let again = student.tabs.state_graph.play_followed(played[0].clone());
    assert!(again.text.contains("does not fit"), "{}", again.text);
    assert_eq!(student.tabs.state_graph.game, teacher.tabs.state_graph.game);
}
