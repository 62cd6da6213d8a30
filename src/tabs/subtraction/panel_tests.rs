//! The settings panel on the Subtraction Nim tab, through `App` and real key events: every
//! setting changes with keys only, a refused typed value keeps the old one in the config's
//! words, the learning rate reaches a running trainer, a retrain builds the new network, and
//! a server session changes only its own copy. Snapshots of the panel at 80x24 and 120x40.

use super::test_support::{SEED, app, said, screen};
use crate::app::{App, Overlay};
use crate::config::{Config, RecipeChoice, SubtractionConfig};
use crate::domain::learn::network::Loss;
use crate::tabs::Models;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, press};
use crossterm::event::KeyCode;

fn panel_open(app: &App) -> bool {
    matches!(app.overlays.top(), Some(Overlay::Settings(_)))
}

#[test]
fn every_setting_changes_from_the_panel_with_keys_only() {
    let mut app = app();
    press(&mut app, &chars("S"));
    assert!(panel_open(&app));
    // recipe → original; learning rate one step up (0.12 → 0.2); hidden typed 20; epochs a
    // step down (4000 → 2000); batch size a step up (1 → 2); seed typed 42.
    press(&mut app, &[KeyCode::Right, KeyCode::Down, KeyCode::Right]);
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("20"));
    press(
        &mut app,
        &[KeyCode::Down, KeyCode::Left, KeyCode::Down, KeyCode::Right],
    );
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("42"));
    press(&mut app, &[KeyCode::Enter]);
    assert!(!panel_open(&app), "Enter applies and closes");
    let tab = &app.tabs.subtraction;
    assert_eq!(tab.recipe.loss, Loss::Squared);
    assert!(
        (tab.trainer.recipe.learning_rate - 0.2).abs() < 1e-15,
        "now"
    );
    assert_eq!(
        (tab.recipe.hidden, tab.recipe.epochs, tab.recipe.batch_size),
        (20, 2000, 2)
    );
    assert_eq!(tab.next_seed, 42);
    assert_eq!(
        tab.trainer.recipe.hidden, 14,
        "hidden units wait for a retrain"
    );
    assert_eq!(
        said(&app),
        "Set recipe (loss) default → original (on retrain), learning rate 0.12 → 0.2 (now), \
         hidden units 14 → 20 (on retrain), epochs 4000 → 2000 (on retrain), batch size 1 → 2 \
         (on retrain), seed 8 → 42 (on retrain); t retrains with them"
    );
    // Opened again, the panel shows the values in force.
    press(&mut app, &chars("S"));
    let Some(Overlay::Settings(panel)) = app.overlays.top() else {
        panic!("the panel opens again");
    };
    let shown: Vec<String> = panel
        .settings
        .iter()
        .map(|row| row.value.shown(&row.spec.allowed))
        .collect();
    assert_eq!(shown, ["original", "0.2", "20", "2000", "2", "42"]);
    press(&mut app, &[KeyCode::Esc]);
}

#[test]
fn a_retrain_builds_the_network_the_panel_set_and_the_view_shows_it() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Down]);
    press(&mut app, &chars("20\n"));
    assert_eq!(app.tabs.subtraction.trainer.network.sizes(), [7, 14, 6]);
    press(&mut app, &chars("t"));
    let tab = &app.tabs.subtraction;
    assert_eq!(tab.trainer.network.sizes(), [7, 20, 6]);
    assert_eq!(tab.trainer.recipe.hidden, 20);
    // The weights view reaches the new last unit: ↑ from the first wraps to h19.
    press(&mut app, &chars("vv"));
    press(&mut app, &[KeyCode::Up]);
    let rows = screen(&app, 80, 24);
    assert!(rows.contains("›h19 "), "{rows}");
}

#[test]
fn a_typed_value_out_of_range_is_refused_in_the_configs_words_and_the_old_kept() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Down]);
    press(&mut app, &chars("300\n"));
    assert!(panel_open(&app), "a refusal keeps the panel open");
    let config_says = SubtractionConfig {
        hidden: 300,
        ..SubtractionConfig::default()
    }
    .validate()
    .unwrap_err()
    .refused_value();
    assert_eq!(config_says, "subtraction.hidden = 300: allowed 1 to 256");
    assert_eq!(said(&app), format!("Refused: {config_says}; kept 14"));
    // The learning rate refuses 0 and 11 the same way.
    press(&mut app, &[KeyCode::Up]);
    press(&mut app, &chars("11\n"));
    assert_eq!(
        said(&app),
        "Refused: subtraction.learning_rate = 11: allowed a number above 0 and at most 10; \
         kept 0.12"
    );
    press(&mut app, &chars("1.2.3\n"));
    assert!(said(&app).starts_with("Refused: subtraction.learning_rate = 1.2.3"));
    press(&mut app, &[KeyCode::Enter]);
    assert!(!panel_open(&app));
    assert_eq!(said(&app), "Settings unchanged");
    let tab = &app.tabs.subtraction;
    assert_eq!(tab.recipe.hidden, 14);
    assert!((tab.trainer.recipe.learning_rate - 0.12).abs() < 1e-15);
}

#[test]
fn esc_closes_the_panel_and_drops_its_changes() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Right, KeyCode::Down]);
    press(&mut app, &chars("99"));
    press(&mut app, &[KeyCode::Esc]);
    assert!(!panel_open(&app));
    assert_eq!(said(&app), "Settings closed: nothing changed");
    let tab = &app.tabs.subtraction;
    assert_eq!(tab.recipe.hidden, 14);
    assert!((tab.trainer.recipe.learning_rate - 0.12).abs() < 1e-15);
}

#[test]
fn the_learning_rate_reaches_the_running_training() {
    let mut app = app();
    press(&mut app, &chars("p"));
    assert!(app.tabs.subtraction.is_training());
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("0.5\n"));
    // Paused, the trainer handed back trains on at the new rate.
    press(&mut app, &chars("p"));
    let tab = &app.tabs.subtraction;
    assert!(!tab.is_training());
    assert!((tab.trainer.recipe.learning_rate - 0.5).abs() < 1e-15);
    assert!(
        (tab.recipe.learning_rate - 0.5).abs() < 1e-15,
        "and a retrain"
    );
}

#[test]
fn a_server_session_changes_only_its_own_settings() {
    let config = Config::default();
    let models = Models::default();
    let mut one = App::with_models(&config, SEED, &models);
    let two = App::with_models(&config, SEED, &models);
    press(&mut one, &[KeyCode::F(1)]);
    press(&mut one, &chars("S"));
    press(&mut one, &[KeyCode::Down, KeyCode::Down]);
    press(&mut one, &chars("30\n"));
    assert_eq!(one.tabs.subtraction.recipe.hidden, 30);
    assert_eq!(two.tabs.subtraction.recipe.hidden, 14);
    assert_eq!(
        config.subtraction.hidden, 14,
        "the server's config is not touched"
    );
    assert_eq!(config.subtraction.recipe, RecipeChoice::Default);
}

#[test]
fn the_panel_at_80x24_and_120x40() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Right, KeyCode::Down]);
    press(&mut app, &chars("2"));
    snapshot_tab("subtraction__settings_panel", &app, BOTH_SIZES, "");
}
