//! The settings panel on the Tic-tac-toe tab, through `App` and real key events: every
//! setting changes with keys only, a refused typed value keeps the old one in the config's
//! words, and the next AI search runs with the algorithm and order the panel set.
//! Snapshots of the panel at 80x24 and 120x40.

use super::mcts::SearchKind;
use crate::app::{App, Overlay};
use crate::config::{Algorithm, Config, FirstMover, SearchConfig};
use crate::domain::search::MoveOrder;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, press, said};
use crossterm::event::KeyCode;
use std::time::Duration;

fn app() -> App {
    let mut config = Config {
        seed: Some(7),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    let mut app = App::new(&config, 7);
    press(&mut app, &[KeyCode::F(4)]);
    app
}

/// The nodes of the AI's last search and its algorithm.
fn last_search(app: &App) -> (usize, Algorithm) {
    let view = app
        .tabs
        .tictactoe
        .tictactoe
        .search
        .as_ref()
        .expect("a search");
    (view.stepper.nodes().len(), view.stepper.algorithm())
}

#[test]
fn every_setting_changes_from_the_panel_with_keys_only() {
    let mut app = app();
    press(&mut app, &chars("S"));
    // alpha-beta → minimax, listed → static, step mode off → on, autoplay typed 100 ms.
    press(&mut app, &[KeyCode::Left, KeyCode::Down, KeyCode::Right]);
    press(&mut app, &[KeyCode::Down, KeyCode::Right, KeyCode::Down]);
    press(&mut app, &chars("100\n"));
    assert!(app.overlays.is_empty(), "Enter applies and closes");
    assert_eq!(
        said(&app),
        "Set algorithm alphabeta → minimax (now), move order listed → static (now), step mode \
         off → on (now), autoplay ms 250 → 100 (now)"
    );
    let tab = &app.tabs.tictactoe;
    assert_eq!(tab.algorithm, SearchKind::Minimax);
    assert_eq!(tab.tictactoe.order, MoveOrder::Static);
    assert_eq!(tab.eight.order, MoveOrder::Static, "both games");
    assert!(tab.step_mode);
    assert_eq!(tab.autoplay.interval, Duration::from_millis(100));
}

#[test]
fn the_next_search_uses_what_the_panel_set() {
    let mut plain = app();
    press(&mut plain, &chars("5"));
    let (alphabeta_nodes, algorithm) = last_search(&plain);
    assert_eq!(algorithm, Algorithm::AlphaBeta);
    let mut minimax = app();
    press(&mut minimax, &chars("S"));
    press(&mut minimax, &[KeyCode::Left, KeyCode::Enter]);
    press(&mut minimax, &chars("5"));
    let (minimax_nodes, algorithm) = last_search(&minimax);
    assert_eq!(algorithm, Algorithm::Minimax);
    assert!(
        minimax_nodes > alphabeta_nodes,
        "minimax {minimax_nodes} > alpha-beta {alphabeta_nodes}"
    );
    // Static order: alpha-beta prunes more from the same position.
    let mut ordered = app();
    press(&mut ordered, &chars("S"));
    press(
        &mut ordered,
        &[KeyCode::Down, KeyCode::Right, KeyCode::Enter],
    );
    press(&mut ordered, &chars("5"));
    let (ordered_nodes, _) = last_search(&ordered);
    assert_ne!(
        ordered_nodes, alphabeta_nodes,
        "the order changed the search"
    );
}

#[test]
fn a_typed_autoplay_out_of_range_is_refused_in_the_configs_words() {
    let mut app = app();
    press(&mut app, &chars("S"));
    // Up from the first row wraps to the last; the autoplay row is third from the end.
    press(&mut app, &[KeyCode::Up; 3]);
    press(&mut app, &chars("3\n"));
    let config_says = SearchConfig {
        autoplay_ms: 3,
        ..SearchConfig::default()
    }
    .validate()
    .unwrap_err()
    .refused_value();
    assert_eq!(said(&app), format!("Refused: {config_says}; kept 250"));
    assert!(matches!(app.overlays.top(), Some(Overlay::Settings(_))));
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(
        app.tabs.tictactoe.autoplay.interval,
        Duration::from_millis(250)
    );
}

#[test]
fn the_panel_at_80x24_and_120x40() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Right]);
    snapshot_tab("tictactoe__settings_panel", &app, BOTH_SIZES, "");
}
