//! The settings panel on the State Graph tab, through `App` and real key events: every
//! setting changes with keys only, a refused typed value keeps the old one in the config's
//! words, the number of games reaches a running training, and a reset builds a graph of
//! the new size. Snapshots of the panel at 80x24 and 120x40.

use crate::app::{Action, App, Overlay};
use crate::config::{Config, GraphConfig};
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, press, said};
use crossterm::event::KeyCode;

fn app() -> App {
    let config = Config {
        seed: Some(11),
        ..Config::default()
    };
    let mut app = App::new(&config, 11);
    press(&mut app, &[KeyCode::F(3)]);
    app
}

#[test]
fn every_setting_changes_from_the_panel_with_keys_only_and_z_builds_the_new_graph() {
    let mut app = app();
    press(&mut app, &chars("S"));
    // games a step up (10,000 → 20,000), tokens typed 12, the max take a step up
    // (2 → 3), seed typed 99.
    press(&mut app, &[KeyCode::Right, KeyCode::Down]);
    press(&mut app, &chars("12"));
    press(&mut app, &[KeyCode::Down, KeyCode::Right, KeyCode::Down]);
    press(&mut app, &chars("99\n"));
    assert!(app.overlays.is_empty(), "Enter applies and closes");
    assert_eq!(
        said(&app),
        "Set games 10000 → 20000 (now), tokens (k) 10 → 12 (on retrain), max take \
         2 → 3 (on retrain), seed 11 → 99 (on retrain); z resets to a new graph with them"
    );
    let tab = &app.tabs.state_graph;
    assert_eq!(tab.target_games, 20_000);
    assert_eq!(
        (tab.graph.tokens, tab.graph.max_take),
        (10, 2),
        "the graph waits for z"
    );
    press(&mut app, &chars("z"));
    let tab = &app.tabs.state_graph;
    assert_eq!((tab.graph.tokens, tab.graph.max_take), (12, 3));
    assert_eq!(tab.cursor, tab.graph.start());
    assert!(
        said(&app).starts_with("A new graph of Nim(12), takes 1-3"),
        "{}",
        said(&app)
    );
    // The take keys follow the new limit: 3 is a take now.
    press(&mut app, &chars("g3"));
    let path = &app.tabs.state_graph.game.as_ref().expect("a game").path;
    assert_eq!(
        path.first().map(|edge| edge.from.tokens - edge.to.tokens),
        Some(3)
    );
}

#[test]
fn a_typed_value_out_of_range_is_refused_in_the_configs_words() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("500\n"));
    let config_says = GraphConfig {
        tokens: 500,
        ..GraphConfig::default()
    }
    .validate()
    .unwrap_err()
    .refused_value();
    assert_eq!(said(&app), format!("Refused: {config_says}; kept 10"));
    assert!(matches!(app.overlays.top(), Some(Overlay::Settings(_))));
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(app.tabs.state_graph.next.tokens, 10);
}

#[test]
fn fewer_games_stop_a_running_training_at_the_new_target() {
    let mut app = app();
    press(&mut app, &chars("p"));
    app.update(Action::Tick);
    press(&mut app, &chars("S"));
    press(&mut app, &chars("500\n"));
    while app.tabs.state_graph.training {
        app.update(Action::Tick);
    }
    assert_eq!(app.tabs.state_graph.graph.games, 500);
}

#[test]
fn the_panel_at_80x24_and_120x40() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Right]);
    snapshot_tab("graph__settings_panel", &app, BOTH_SIZES, "");
}
