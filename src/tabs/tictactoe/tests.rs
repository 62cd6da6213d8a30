//! What one recorded search may hold: the whole minimax tree of the empty board is larger
//! than the tree pane keeps, so the record stops at the limit and says so, while the AI's
//! move (from the plain search) and stepping back still work.

use super::game::TREE_NODE_LIMIT;
use crate::app::App;
use crate::config::{Config, FirstMover};
use crate::domain::games::Game;
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::search::{Algorithm, search};
use crate::frame::keymap::Key;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn ai_opens_with_minimax(step: bool) -> App {
    let mut config = Config {
        seed: Some(3),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Ai;
    config.search.algorithm = Algorithm::Minimax;
    config.search.step = step;
    App::new(&config, 3)
}

fn text(app: &App) -> String {
    app.message.clone().map(|m| m.text).unwrap_or_default()
}

#[test]
fn the_ai_s_opening_keeps_a_bounded_record_and_says_so() {
    let app = ai_opens_with_minimax(false);
    let game = &app.tabs.tictactoe.tictactoe;
    let empty = Board::empty(Mark::O);
    let full = search(&empty, Algorithm::Minimax);
    assert_eq!(game.moves.len(), 1, "the AI played its move");
    assert_eq!(game.position, empty.play(full.best_move.unwrap()));
    let view = game.search.as_ref().unwrap();
    assert_eq!(view.stepper.nodes().len(), TREE_NODE_LIMIT);
    assert!(view.stepper.at_node_limit());
    let message = text(&app);
    assert!(
        message.contains("549,946 nodes"),
        "the full search's count: {message}"
    );
    assert!(
        screen(&app).contains("tree full: 65,536"),
        "{}",
        screen(&app)
    );
}

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| crate::ui::render(app, f)).unwrap();
    terminal.backend().to_string()
}

#[test]
fn stepping_stops_at_the_limit_and_enter_still_plays_the_full_search_s_move() {
    let mut app = ai_opens_with_minimax(true);
    app.handle_key(Key::Char('c'));
    let message = text(&app);
    assert_eq!(
        message,
        "Tree pane full (65,536 nodes): stepping stops; Enter plays, b steps back"
    );
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    assert_eq!(view.stepper.nodes().len(), TREE_NODE_LIMIT);
    // Stepping on changes nothing; stepping back works.
    app.handle_key(Key::Char(' '));
    assert_eq!(text(&app), message);
    app.handle_key(Key::Char('b'));
    assert!(text(&app).starts_with("Stepped back"), "{}", text(&app));
    app.handle_key(Key::Char('c'));
    app.handle_key(Key::Enter);
    let empty = Board::empty(Mark::O);
    let best = search(&empty, Algorithm::Minimax).best_move.unwrap();
    assert_eq!(app.tabs.tictactoe.tictactoe.position, empty.play(best));
    assert!(text(&app).contains("549,946 nodes"), "{}", text(&app));
}
