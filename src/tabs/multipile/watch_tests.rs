//! Watching the Multi-pile learners train, through `App` and real key events: one speed for
//! both (`-` / `+`), the runs a retrain keeps, compared on one chart per learner (`c` the
//! Q-table, `C` the network), and their CSV. Snapshots of a comparison at 80x24 and 120x40.

use crate::app::{Action, App, Overlay};
use crate::config::{Config, FirstMover};
use crate::tabkit::speed::Speed;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, press, said, screen};
use crossterm::event::KeyCode;

const SEED: u64 = 5;

/// The app on the tab with nothing training by itself.
fn app() -> App {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.nim.first = FirstMover::Human;
    config.nim_net.autotrain = false;
    config.qlearning.autotrain = false;
    config.qlearning.games = Some(2_000);
    let mut app = App::new(&config, SEED);
    press(&mut app, &[KeyCode::F(2)]);
    app
}

fn games(app: &App) -> usize {
    app.tabs.multipile.q.trainer.as_ref().unwrap().games
}

#[test]
fn slow_trains_one_game_a_tick_normal_a_fortieth_and_fast_runs_on() {
    let mut app = app();
    press(&mut app, &chars("-p"));
    assert_eq!(app.tabs.multipile.speed, Speed::Slow);
    for expected in 1..=3 {
        app.update(Action::Tick);
        assert_eq!(games(&app), expected, "one game a tick");
    }
    press(&mut app, &chars("+"));
    app.update(Action::Tick);
    assert_eq!(games(&app), 3 + 2_000 / 40, "a fortieth of the run");
    press(&mut app, &chars("+"));
    app.update(Action::Tick);
    assert!(
        games(&app) > 3 + 50 + 100,
        "fast: slice after slice: {}",
        games(&app)
    );
}

#[test]
fn a_run_is_the_same_whatever_the_speed() {
    let finish = |keys: &str| {
        let mut app = app();
        press(&mut app, &chars(keys));
        while app.tabs.multipile.q.training {
            app.update(Action::Tick);
        }
        app.tabs.multipile.q.trainer.as_ref().unwrap().table.clone()
    };
    assert_eq!(
        finish("p"),
        finish("++p"),
        "normal and fast learn the same table"
    );
}

#[test]
fn a_q_retrain_keeps_the_run_and_c_compares_and_exports_it() {
    let mut app = app();
    press(&mut app, &chars("++p"));
    while app.tabs.multipile.q.training {
        app.update(Action::Tick);
    }
    press(&mut app, &chars("tt"));
    let tab = &app.tabs.multipile;
    let kept: Vec<_> = tab.q.runs.kept().collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        kept[0].settings,
        "α 0.5, ε 0.1, exploring starts, 2,000 games, seed 5"
    );
    assert_eq!(
        kept[0].points.len(),
        5,
        "measured at 0, 500, ..., 2,000 games"
    );
    press(&mut app, &chars("c"));
    let rows = screen(&app, 80, 24);
    assert!(rows.contains("Training · Q-learning runs"), "{rows}");
    assert!(rows.contains("run 1"), "{rows}");
    // The list's keys only: `t` retrains nothing while it is open.
    press(&mut app, &chars("t"));
    assert_eq!(app.tabs.multipile.q.runs.current_number(), 2);
    press(&mut app, &chars("x"));
    let Some(Overlay::Text(shown)) = app.overlays.top() else {
        panic!("no data dir: the CSV is shown to copy ({})", said(&app));
    };
    let text = shown.text();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("games,\"run 1 (α 0.5"), "{}", lines[0]);
    assert_eq!(lines[1].split(',').next(), Some("0"));
    assert_eq!(lines.len(), 1 + 5, "{text}");
    press(&mut app, &[KeyCode::Esc, KeyCode::Esc]);
    assert_eq!(app.tabs.multipile.compare, None);
    assert!(!app.tabs.multipile.q.runs.open);
}

/// The network's runs: the share of winning positions it plays a winning move at, after
/// each epoch, for the original recipe beside the default: the README's lesson on one
/// chart.
fn network_runs() -> App {
    let mut app = app();
    app.tabs.multipile.net.train_now(3);
    press(&mut app, &chars("TT"));
    app.tabs.multipile.net.train_now(2);
    press(&mut app, &chars("C"));
    app
}

#[test]
fn a_network_retrain_keeps_its_accuracy_curve() {
    let app = network_runs();
    let tab = &app.tabs.multipile;
    let kept: Vec<_> = tab.net.runs.kept().collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].points.len(), 3, "one point an epoch");
    assert!(
        kept[0]
            .points
            .iter()
            .all(|&(_, y)| (0.0..=1.0).contains(&y))
    );
    assert_eq!(tab.net.accuracy.len(), 2);
    assert_eq!(
        kept[0].settings,
        "cross-entropy, rate 0.5, hidden 64-64, batch 32, seed 5"
    );
}

#[test]
fn the_network_runs_at_80x24_and_120x40() {
    let app = network_runs();
    snapshot_tab("nim__network_runs", &app, BOTH_SIZES, "");
}

/// The README's lesson from inside the arcade: the original recipe (squared error, rate
/// 0.01, one layer of 14) beside the default (cross-entropy, rate 0.5, two layers of 64),
/// ten epochs each, set with the panel's keys and compared with `C`.
#[test]
fn the_recipe_comparison_at_80x24_and_120x40() {
    let mut app = app();
    let row = |app: &mut App, rows: usize, keys: &[KeyCode]| {
        press(app, &[KeyCode::Esc]);
        press(app, &chars("S"));
        press(app, &vec![KeyCode::Down; rows]);
        press(app, keys);
        press(app, &[KeyCode::Enter]);
    };
    // The original: loss, rate, layers, units, epochs.
    row(&mut app, 6, &[KeyCode::Right]);
    row(&mut app, 7, &chars("0.01"));
    row(&mut app, 8, &chars("1"));
    row(&mut app, 9, &chars("14"));
    row(&mut app, 10, &chars("10"));
    press(&mut app, &chars("T"));
    app.tabs.multipile.net.train_now(10);
    // The default: loss, rate, layers, units.
    row(&mut app, 6, &[KeyCode::Left]);
    row(&mut app, 7, &chars("0.5"));
    row(&mut app, 8, &chars("2"));
    row(&mut app, 9, &chars("64"));
    press(&mut app, &chars("TT"));
    app.tabs.multipile.net.train_now(10);
    press(&mut app, &chars("C"));
    let kept: Vec<_> = app.tabs.multipile.net.runs.kept().collect();
    assert_eq!(kept.len(), 1);
    assert!(
        kept[0]
            .settings
            .starts_with("squared error, rate 0.01, hidden 14,"),
        "{}",
        kept[0].settings
    );
    let original = kept[0].last().unwrap();
    let default = app.tabs.multipile.net.accuracy.last().unwrap().1;
    assert!(
        default > original + 0.5,
        "cross-entropy {default} vs squared error {original}"
    );
    snapshot_tab("nim__recipe_comparison", &app, BOTH_SIZES, "");
}

/// A kept run says the α it learned with: not one set after it ended, and both when α
/// changed in the middle.
#[test]
fn a_kept_run_names_the_alphas_it_learned_with() {
    let mut app = app();
    press(&mut app, &chars("++p"));
    while app.tabs.multipile.q.training {
        app.update(Action::Tick);
    }
    press(&mut app, &chars("--S"));
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("0.9\ntt"));
    let kept = app
        .tabs
        .multipile
        .q
        .runs
        .kept()
        .next()
        .unwrap()
        .settings
        .clone();
    assert!(kept.starts_with("α 0.5, ε 0.1, exploring"), "{kept}");
    // Run 2 (slow: a game a tick) learns at 0.9 from its start, then 0.2 from a tick on.
    app.update(Action::Tick);
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("0.2\n"));
    assert!(
        app.tabs
            .multipile
            .q
            .run_settings()
            .starts_with("α 0.9, ε 0.1→α 0.2, ε 0.1, "),
        "{}",
        app.tabs.multipile.q.run_settings()
    );
}
