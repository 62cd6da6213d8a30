//! The settings panel on the Multi-pile Nim tab, through `App` and real key events: every
//! setting changes with keys only, a refused typed value keeps the old one in the config's
//! words, α and ε reach the Q-table's run in force, the network's learning rate its running
//! thread, a retrain builds a network of the new shape, and the piles and rule start a new
//! game with the Q-table for them. Snapshots of the panel at 80x24 and 120x40.

use crate::app::{Action, App, Overlay};
use crate::config::{Config, FirstMover, QLearningConfig, RecipeChoice};
use crate::domain::games::nim::{Piles, Rule};
use crate::domain::learn::network::Loss;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, press, said};
use crossterm::event::KeyCode;

fn app() -> App {
    let mut config = Config {
        seed: Some(5),
        ..Config::default()
    };
    config.nim.first = FirstMover::Human;
    config.nim_net.autotrain = false;
    config.qlearning.autotrain = false;
    let mut app = App::new(&config, 5);
    press(&mut app, &[KeyCode::F(2)]);
    app
}

/// Whether two numbers set from the same decimal text are the same.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// Presses ↓ `rows` times from the first row.
fn down(app: &mut App, rows: usize) {
    press(app, &vec![KeyCode::Down; rows]);
}

#[test]
fn every_setting_changes_from_the_panel_with_keys_only() {
    let mut app = app();
    press(&mut app, &chars("S"));
    // Q recipe → original, α typed 0.25, ε a step down (0.1 → 0.05), games typed 3000,
    // piles → "1 2 3" (two steps), rule → normal, net recipe → original, net rate typed
    // 0.02, layers 2 → 1... set after the recipe, units typed 20, epochs a step up, batch
    // a step up, seed typed 9.
    press(&mut app, &[KeyCode::Right]);
    down(&mut app, 1);
    press(&mut app, &chars("0.25"));
    down(&mut app, 1);
    press(&mut app, &[KeyCode::Left]);
    down(&mut app, 1);
    press(&mut app, &chars("3000"));
    down(&mut app, 1);
    press(&mut app, &[KeyCode::Right, KeyCode::Right]);
    down(&mut app, 1);
    press(&mut app, &[KeyCode::Right]);
    down(&mut app, 1);
    press(&mut app, &[KeyCode::Right]);
    down(&mut app, 1);
    press(&mut app, &chars("0.02"));
    down(&mut app, 1);
    press(&mut app, &chars("1"));
    down(&mut app, 1);
    press(&mut app, &chars("20"));
    down(&mut app, 1);
    press(&mut app, &[KeyCode::Right]);
    down(&mut app, 1);
    press(&mut app, &[KeyCode::Right]);
    down(&mut app, 1);
    press(&mut app, &chars("9\n"));
    assert!(
        app.overlays.is_empty(),
        "Enter applies and closes: {}",
        said(&app)
    );
    let tab = &app.tabs.multipile;
    let q = &tab.q.settings;
    assert_eq!(q.recipe, RecipeChoice::Original);
    assert_eq!((q.alpha, q.epsilon, q.games), (0.25, 0.05, Some(3000)));
    let trainer = tab.q.trainer.as_ref().unwrap();
    assert_eq!(
        (trainer.settings.alpha, trainer.settings.epsilon),
        (0.25, 0.05),
        "now"
    );
    assert_eq!(tab.q_start, Piles::new(&[1, 2, 3]).unwrap());
    assert_eq!(tab.rule, Rule::Normal);
    assert_eq!(tab.piles, tab.q_start, "a new game from the new piles");
    let net = tab.net.settings.recipe();
    assert_eq!(tab.net.settings.recipe, RecipeChoice::Original);
    assert_eq!(net.loss, Loss::Squared);
    assert_eq!(net.hidden, vec![20], "one layer of 20");
    assert_eq!(
        (net.epochs, net.batch_size),
        (100, 64),
        "60 a step up, 32 doubled"
    );
    assert!(
        same(tab.net.trainer.recipe.learning_rate, 0.02),
        "the rate now"
    );
    assert_eq!(tab.net.next_seed, 9);
    assert!(
        said(&app).ends_with("; t / T retrain with them"),
        "{}",
        said(&app)
    );
    // The rule switch (m) later keeps the Q-table's settings.
    press(&mut app, &chars("m"));
    assert!(same(app.tabs.multipile.q.settings.alpha, 0.25));
}

#[test]
fn a_network_retrain_builds_the_shape_the_panel_set() {
    let mut app = app();
    press(&mut app, &chars("S"));
    down(&mut app, 8);
    press(&mut app, &chars("3"));
    down(&mut app, 1);
    press(&mut app, &chars("8\n"));
    assert_eq!(
        app.tabs.multipile.net.trainer.network.sizes(),
        [18, 64, 64, 9]
    );
    press(&mut app, &chars("T"));
    assert_eq!(
        app.tabs.multipile.net.trainer.network.sizes(),
        [18, 8, 8, 8, 9]
    );
}

#[test]
fn alpha_changed_mid_run_changes_the_next_updates() {
    // Two runs from the same seed: one changes α after 500 games, one is built with the
    // new α from a copy at 500 games; the tables agree, and differ from an unchanged run.
    let mut changed = app();
    press(&mut changed, &chars("p"));
    changed.update(Action::Tick);
    let mut rebuilt = changed.tabs.multipile.q.trainer.clone().unwrap();
    let mut unchanged = rebuilt.clone();
    press(&mut changed, &chars("S"));
    down(&mut changed, 1);
    press(&mut changed, &chars("0.9\n"));
    changed.update(Action::Tick);
    rebuilt.settings.alpha = 0.9;
    rebuilt.train(500);
    unchanged.train(500);
    let table = &changed.tabs.multipile.q.trainer.as_ref().unwrap().table;
    assert_eq!(table, &rebuilt.table);
    assert_ne!(table, &unchanged.table);
}

#[test]
fn the_network_rate_reaches_the_running_training() {
    let mut app = app();
    press(&mut app, &chars("P"));
    assert!(app.tabs.multipile.net.is_training());
    press(&mut app, &chars("S"));
    down(&mut app, 7);
    press(&mut app, &chars("0.05\n"));
    press(&mut app, &chars("P"));
    let net = &app.tabs.multipile.net;
    assert!(!net.is_training());
    assert!(
        same(net.trainer.recipe.learning_rate, 0.05),
        "the trainer handed back keeps it"
    );
}

#[test]
fn out_of_range_alpha_is_refused_in_the_configs_words() {
    let mut app = app();
    press(&mut app, &chars("S"));
    down(&mut app, 1);
    press(&mut app, &chars("2\n"));
    let config_says = QLearningConfig {
        alpha: 2.0,
        ..QLearningConfig::default()
    }
    .validate()
    .unwrap_err()
    .refused_value();
    assert_eq!(said(&app), format!("Refused: {config_says}; kept 0.5"));
    assert!(matches!(app.overlays.top(), Some(Overlay::Settings(_))));
    press(&mut app, &[KeyCode::Esc]);
    assert!(same(app.tabs.multipile.q.settings.alpha, 0.5));
}

#[test]
fn the_panel_at_80x24_and_120x40() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Right]);
    snapshot_tab("nim__settings_panel", &app, BOTH_SIZES, "");
}
