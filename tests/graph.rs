//! The State Graph tab through `App` and real key events, with a fixed seed and no data dir:
//! training advances one chunk per `Tick`, so every frame is reproducible. Snapshots at 80x24
//! and 120x40.

use ai_arcade::app::{Action, App};
use ai_arcade::config::Config;
use ai_arcade::input;
use ai_arcade::learn::state_graph::Player;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

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

fn press(app: &mut App, keys: &[KeyCode]) {
    for &code in keys {
        input::handle(
            app,
            &Event::Key(KeyEvent::new(code, KeyModifiers::NONE)),
            Rect::new(0, 0, 80, 24),
        );
    }
}

fn chars(text: &str) -> Vec<KeyCode> {
    text.chars().map(KeyCode::Char).collect()
}

fn trained() -> App {
    let mut app = app();
    press(&mut app, &chars("p"));
    while app.graph.training {
        app.update(Action::Tick);
    }
    app
}

fn snapshot(name: &str, app: &App) {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| ai_arcade::ui::render(app, f)).unwrap();
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), terminal.backend());
    }
}

#[test]
fn the_fresh_graph_is_all_zero() {
    let app = app();
    assert_eq!(app.graph.graph.games, 0);
    assert!(
        app.graph
            .graph
            .edges()
            .iter()
            .all(|e| app.graph.graph.weight(e) == 0)
    );
    snapshot("graph_fresh", &app);
}

#[test]
fn ten_thousand_games_train_in_ticks_and_answer_the_questions() {
    let app = trained();
    assert_eq!(app.graph.graph.games, 10_000);
    assert!(!app.graph.training);
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
    assert_eq!(app.graph.cursor.tokens, 4);
    press(&mut app, &[KeyCode::Down]);
    assert_eq!(app.graph.cursor.player, Player::Two);
    snapshot("graph_vertex_p2_4", &app);
}

#[test]
fn a_stepped_game_is_highlighted_with_its_rewards() {
    let mut app = app();
    press(&mut app, &chars("s"));
    assert_eq!(app.graph.graph.games, 1);
    let path = app.graph.highlight.clone();
    let winner = path.last().unwrap().from.player;
    for edge in &path {
        let expected = if edge.from.player == winner { 1 } else { -1 };
        assert_eq!(app.graph.graph.weight(edge), expected);
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
        app.graph.game.as_ref().unwrap().at.tokens,
        10,
        "nothing changed"
    );
    // Play 1 until the game ends: the trained graph (player 2) answers with strongest edges.
    while app.graph.game.as_ref().unwrap().at.tokens > 0 {
        press(&mut app, &chars("1"));
    }
    snapshot("graph_game_over", &app);
}
