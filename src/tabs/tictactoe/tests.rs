//! What one recorded search may hold: the whole minimax tree of the empty board is larger
//! than the tree pane keeps, so the record stops at the limit and says so, while the AI's
//! move (from the plain search) and stepping back still work.

use crate::app::App;
use crate::components::tree_search::TREE_NODE_LIMIT;
use crate::config::{Config, FirstMover};
use crate::domain::games::Game;
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::search::{Algorithm, search};
use crate::tabkit::keymap::Key;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn ai_opens_with_minimax(step: bool) -> App {
    let mut config = Config {
        seed: Some(3),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Ai;
    config.search.algorithm = Algorithm::Minimax.into();
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

    /// The rows of the screen at `width` x `height`.
    fn screen_at(app: &App, width: u16, height: u16) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|f| crate::ui::render(app, f)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..height)
            .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn o_inside_the_comparison_gives_the_next_order() {
        let mut app = app(false);
        press(&mut app, &chars("5o"));
        assert_eq!(
            app.tabs.tictactoe.comparison.as_ref().map(|c| c.order),
            Some(MoveOrder::Static)
        );
        press(&mut app, &chars("o"));
        assert_eq!(app.tabs.tictactoe.tictactoe.order, MoveOrder::Best);
        assert_eq!(
            app.tabs.tictactoe.comparison.as_ref().map(|c| c.order),
            Some(MoveOrder::Best),
            "the comparison stays open, on the new order"
        );
        assert_eq!(
            text(&app),
            "Move order: best first; every order compared above"
        );
        let shown = screen(&app);
        assert!(shown.contains("Move order: best first"), "{shown}");
        assert!(shown.contains("▶ best first (2-ply look-ahead)"), "{shown}");
        // A key the comparison has no use for says what works in it.
        press(&mut app, &chars("5"));
        assert_eq!(
            text(&app),
            "The move-order comparison is open: o the next order, Esc closes"
        );
        press(&mut app, &[KeyCode::Esc]);
        assert_eq!(app.tabs.tictactoe.comparison, None);
        assert_eq!(app.tabs.tictactoe.tictactoe.order, MoveOrder::Best);
    }

    /// Every key an overlay of the tab names, in its footer or in the status line's hints,
    /// does what it says there rather than being refused.
    #[test]
    fn every_key_an_overlay_of_the_tab_names_works_in_it() {
        use crate::app::Action;
        use crate::tabkit::keymap::Key;
        // (what is open, the app, the keys its own footer names)
        let mut cases: Vec<(&str, App, Vec<Key>)> = Vec::new();
        let mut compared = app(false);
        press(&mut compared, &chars("5o"));
        cases.push((
            "move-order comparison",
            compared,
            vec![Key::Char('o'), Key::Esc],
        ));
        let mut why = app(false);
        press(&mut why, &chars("5y"));
        let why_keys = vec![Key::Left, Key::Right, Key::Up, Key::Down, Key::Esc];
        cases.push(("why overlay", why, why_keys));
        let mut dot = app(false);
        press(&mut dot, &chars("5d"));
        cases.push(("DOT text to copy", dot, vec![Key::Up, Key::Down, Key::Esc]));
        let mut editor = app(false);
        press(&mut editor, &chars("i"));
        cases.push(("position editor", editor, vec![Key::Esc]));
        let mut help = app(false);
        press(&mut help, &chars("?"));
        cases.push(("help", help, vec![Key::Up, Key::Down, Key::Esc]));
        for (what, app, footer) in cases {
            let hinted = app.hints().into_iter().flat_map(|b| {
                b.keys()
                    .iter()
                    .map(move |&k| (k, Some(b.action(k))))
                    .collect::<Vec<_>>()
            });
            let named = footer.into_iter().map(|k| (k, None));
            for (key, expected) in hinted.chain(named) {
                let action = app.action_for_key(key);
                assert!(
                    !matches!(
                        action,
                        Action::Refused(_) | Action::Noop | Action::Elsewhere { .. }
                    ),
                    "{what}: {key:?} is named but does nothing ({action:?})"
                );
                if let Some(expected) = expected {
                    assert_eq!(action, expected, "{what}: {key:?}");
                }
            }
        }
    }

    #[test]
    fn the_comparison_s_footer_is_its_key_table() {
        let mut app = app(false);
        press(&mut app, &chars("5o"));
        let shown = screen(&app);
        for binding in super::super::keys::COMPARISON.bindings {
            let named = format!("{} {}", binding.label, binding.hint);
            assert!(shown.contains(&named), "{named}:\n{shown}");
        }
    }

    #[test]
    fn the_empty_eight_tree_pane_explains_an_eight_node() {
        let mut app = app(false);
        press(&mut app, &chars("g"));
        let shown = screen(&app);
        assert!(shown.contains("A line +2=3 MIN"), "{shown}");
        assert!(!shown.contains("X plays"), "no tic-tac-toe mark: {shown}");
        crate::tabs::testing::snapshot_tab(
            "eight_empty_tree",
            &app,
            &[(80, 24)],
            "seed 7, keys: g (Eight, before any search)",
        );
    }

    /// A session of a shared server writes no file: `d` shows the DOT to copy, as the
    /// State Graph's `x` does.
    #[test]
    fn d_in_a_shared_session_writes_nothing_and_shows_the_text() {
        let mut config = Config {
            seed: Some(7),
            ..Config::default()
        };
        config.tictactoe.first = FirstMover::Human;
        let mut app = App::with_models(&config, 7, &crate::app::Models::default());
        press(&mut app, &[KeyCode::F(4)]);
        press(&mut app, &chars("5d"));
        assert_eq!(
            text(&app),
            "Exports are not saved on a shared server: here is the text to copy"
        );
        assert!(app.tabs.tictactoe.store.is_none(), "nowhere to write");
        assert!(
            matches!(app.overlays.top(), Some(crate::app::Overlay::Text(shown)) if shown.text().starts_with("digraph search_tree {")),
            "{:?}",
            app.overlays.top()
        );
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
        crate::tabs::testing::snapshot_tab(
            "tictactoe_move_orders",
            &app,
            &[(80, 24)],
            "seed 7, keys: 5 Space Space o (the comparison over the AI's search)",
        );
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
        let temp = fresh_dir("search-dot");
        let dir = temp.path();
        let mut config = Config {
            seed: Some(7),
            ..Config::default()
        };
        config.eight.first = FirstMover::Ai;
        config.search.step = true;
        config.search.algorithm = Algorithm::Minimax.into();
        let mut app = App::with_store(&config, 7, Some(Store::new(dir)));
        press(&mut app, &chars("gcd"));
        let path = dir.join(super::super::export::DOT_FILE);
        assert_eq!(
            text(&app),
            format!("Search tree saved as DOT to {}", path.display())
        );
        // The status line shows the folder, not the file name alone.
        let status = screen_at(&app, 120, 40)[38].clone();
        assert!(status.contains(&path.display().to_string()), "{status}");
        let dot = std::fs::read_to_string(&path).unwrap();
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

/// X need not open here: when the AI opens (as O), the header says so, where it said
/// only "You X vs AI O" and a newcomer took X for the opener.
#[test]
fn the_header_names_the_side_that_opened() {
    let app = ai_opens_with_minimax(false);
    let shown = crate::tabs::testing::screen(&app, 80, 24);
    assert!(shown.contains("You X  vs  AI O (opens)"), "{shown}");
}
