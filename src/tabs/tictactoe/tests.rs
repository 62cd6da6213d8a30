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

mod order_and_export {
    //! `o` and `d` through real key events.

    use crate::app::App;
    use crate::config::{Config, FirstMover};
    use crate::domain::games::Game;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::search::{Algorithm, MoveOrder, search_ordered};
    use crate::persist::Store;
    use crate::tabs::testing::{chars, fresh_dir, press};
    use crossterm::event::KeyCode;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn app(step: bool) -> App {
        let mut config = Config {
            seed: Some(7),
            ..Config::default()
        };
        config.tictactoe.first = FirstMover::Human;
        config.search.step = step;
        App::new(&config, 7)
    }

    fn text(app: &App) -> String {
        app.message.clone().map(|m| m.text).unwrap_or_default()
    }

    fn screen(app: &App) -> String {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| crate::ui::render(app, f)).unwrap();
        terminal.backend().to_string()
    }

    #[test]
    fn o_cycles_the_order_restarts_the_waiting_search_and_compares_the_orders() {
        let mut app = app(true);
        press(&mut app, &chars("5"));
        let root = Board::empty(Mark::X).play(4);
        assert!(app.tabs.tictactoe.tictactoe.awaiting_step());
        press(&mut app, &chars("  "));
        press(&mut app, &chars("o"));
        assert_eq!(app.tabs.tictactoe.tictactoe.order, MoveOrder::Static);
        assert_eq!(app.tabs.tictactoe.eight.order, MoveOrder::Static);
        assert_eq!(
            text(&app),
            "Move order: static order (the search restarts); every order compared above"
        );
        let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
        assert_eq!(view.stepper.order(), MoveOrder::Static);
        assert_eq!(view.stepper.events_taken(), 0, "restarted");
        let shown = screen(&app);
        for order in MoveOrder::ALL {
            let nodes = search_ordered(&root, Algorithm::AlphaBeta, order)
                .stats
                .nodes;
            assert!(
                shown.contains(&crate::domain::numbers::thousands(nodes)),
                "{shown}"
            );
        }
        insta::with_settings!({
            snapshot_path => "../../../tests/snapshots",
            prepend_module_to_snapshot => false,
            description => "seed 7, keys: 5 Space Space o (the comparison over the AI's search)",
        }, {
            insta::assert_snapshot!("tictactoe_move_orders_80x24", shown);
        });
        // Esc closes; Enter plays the move the ordered search chose.
        press(&mut app, &[KeyCode::Esc, KeyCode::Enter]);
        let best = search_ordered(&root, Algorithm::AlphaBeta, MoveOrder::Static)
            .best_move
            .unwrap();
        assert_eq!(app.tabs.tictactoe.tictactoe.position, root.play(best));
        // Twice more comes back to the listed order.
        press(&mut app, &chars("o"));
        press(&mut app, &[KeyCode::Esc]);
        press(&mut app, &chars("o"));
        assert_eq!(app.tabs.tictactoe.tictactoe.order, MoveOrder::Listed);
    }

    #[test]
    fn the_ai_moves_by_the_order_it_is_set_to() {
        let mut app = app(false);
        press(&mut app, &chars("o"));
        press(&mut app, &[KeyCode::Esc]);
        press(&mut app, &chars("o"));
        press(&mut app, &[KeyCode::Esc]);
        assert_eq!(app.tabs.tictactoe.tictactoe.order, MoveOrder::Best);
        press(&mut app, &chars("1"));
        let after = Board::empty(Mark::X).play(0);
        let best = search_ordered(&after, Algorithm::AlphaBeta, MoveOrder::Best);
        assert_eq!(
            app.tabs.tictactoe.tictactoe.position,
            after.play(best.best_move.unwrap())
        );
        let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
        assert_eq!(
            view.stepper.result(),
            Some(best),
            "the tree pane shows that search"
        );
        assert!(
            screen(&app).contains("alpha-beta, best first"),
            "{}",
            screen(&app)
        );
    }

    #[test]
    fn d_writes_the_tree_into_the_data_dir() {
        let dir = fresh_dir("search-dot");
        let mut config = Config {
            seed: Some(7),
            ..Config::default()
        };
        config.eight.first = FirstMover::Ai;
        config.search.step = true;
        config.search.algorithm = Algorithm::Minimax;
        let mut app = App::with_store(&config, 7, Some(Store::new(&dir)));
        press(&mut app, &chars("gcd"));
        assert!(
            text(&app).starts_with("The search tree (62 nodes) as Graphviz DOT written to "),
            "{}",
            text(&app)
        );
        let dot = std::fs::read_to_string(dir.join(super::super::export::DOT_FILE)).unwrap();
        let nodes = dot
            .lines()
            .filter(|l| l.starts_with("  n") && l.contains(" [label="))
            .count();
        assert_eq!(nodes, 62);
    }

    #[test]
    fn d_without_a_data_dir_shows_the_text_to_copy_and_refuses_with_no_tree() {
        let mut app = app(false);
        press(&mut app, &chars("d"));
        assert_eq!(
            text(&app),
            "No search tree to export yet: t searches your position"
        );
        press(&mut app, &chars("5d"));
        assert!(
            text(&app).contains("here is the text to copy"),
            "{}",
            text(&app)
        );
        assert!(
            screen(&app).contains("digraph search_tree {"),
            "{}",
            screen(&app)
        );
    }
}
