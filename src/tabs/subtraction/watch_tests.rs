//! Watching the Subtraction network train, through `App` and real key events: the speed
//! keys, slow mode drawing every epoch, and the runs a retrain keeps for the chart to
//! compare, with their CSV export. Snapshots of two runs on one chart at 80x24 and 120x40.

use super::test_support::{SEED, app, config, said, screen};
use crate::app::{Action as AppAction, App, Overlay};
use crate::persist::Store;
use crate::tabkit::speed::Speed;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, fresh_dir, press};
use crossterm::event::KeyCode;
use std::time::Duration;

/// Two finished runs of 300 epochs: the default, then one retrained at learning rate 0.5
/// with 6 hidden units, both trained to their end on this thread.
fn two_runs() -> App {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Down, KeyCode::Down]);
    // Untrained, `t` builds the 300-epoch network at once (nothing to lose, no question).
    press(&mut app, &chars("300\nt"));
    app.tabs.subtraction.finish_training_now();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("0.5"));
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("6\n"));
    press(&mut app, &chars("tt"));
    app.tabs.subtraction.finish_training_now();
    app
}

#[test]
fn minus_and_plus_climb_the_speeds_and_refuse_past_their_ends() {
    let mut app = app();
    assert_eq!(app.tabs.subtraction.speed, Speed::Normal);
    press(&mut app, &chars("-"));
    assert_eq!(app.tabs.subtraction.speed, Speed::Slow);
    assert!(said(&app).contains("every epoch drawn"), "{}", said(&app));
    press(&mut app, &chars("-"));
    assert_eq!(
        app.tabs.subtraction.speed,
        Speed::Slow,
        "refused: unchanged"
    );
    assert!(
        said(&app).contains("already at its slowest"),
        "{}",
        said(&app)
    );
    press(&mut app, &chars("+="));
    assert_eq!(
        app.tabs.subtraction.speed,
        Speed::Fast,
        "= is + without Shift"
    );
    press(&mut app, &chars("+"));
    assert_eq!(app.tabs.subtraction.speed, Speed::Fast);
    assert!(said(&app).contains("already as fast"), "{}", said(&app));
    let rows = screen(&app, 80, 24);
    assert!(rows.contains("untrained 0/4000 · fast"), "{rows}");
}

/// Slow mode: the running job trains one epoch a chunk and each tick takes in one, so no
/// epoch goes undrawn; the speed is what the progress line says.
#[test]
fn slow_mode_takes_in_one_epoch_a_tick() {
    let mut app = app();
    press(&mut app, &chars("-p"));
    assert!(app.tabs.subtraction.is_training());
    let mut seen = vec![app.tabs.subtraction.trainer.epoch];
    // Bounded: at 30 epochs a second 20 epochs come in well under the 2,000 tries.
    for _ in 0..2_000 {
        if seen.last() >= Some(&20) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
        app.update(AppAction::Tick);
        seen.push(app.tabs.subtraction.trainer.epoch);
    }
    assert!(seen.last() >= Some(&20), "slow training moved on: {seen:?}");
    assert!(
        seen.windows(2).all(|w| w[1] - w[0] <= 1),
        "one epoch a tick at most: {seen:?}"
    );
    let rows = screen(&app, 80, 24);
    assert!(rows.contains("· slow"), "{rows}");
    // Fast from here: the ticks take in many epochs at once.
    press(&mut app, &chars("++"));
    let before = app.tabs.subtraction.trainer.epoch;
    for _ in 0..2_000 {
        std::thread::sleep(Duration::from_millis(5));
        app.update(AppAction::Tick);
        if app.tabs.subtraction.trainer.epoch >= before + 500 || !app.tabs.subtraction.is_training()
        {
            break;
        }
    }
    assert!(app.tabs.subtraction.trainer.epoch >= before + 500);
}

#[test]
fn a_retrain_keeps_the_run_it_replaces_and_the_legend_tells_them_apart() {
    let app = two_runs();
    let tab = &app.tabs.subtraction;
    let kept: Vec<_> = tab.runs.kept().collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].number, 1);
    assert_eq!(
        kept[0].settings,
        "cross-entropy, rate 0.12, 14 hidden, batch 1, seed 8"
    );
    assert_eq!(kept[0].points.len(), 300, "one point an epoch");
    assert!(kept[0].marked, "a kept run is drawn at first");
    assert_eq!(
        tab.run_settings(),
        "cross-entropy, rate 0.5, 6 hidden, batch 1, seed 9"
    );
    let rows = screen(&app, 80, 24);
    assert!(rows.contains("run 2 now"), "{rows}");
    assert!(rows.contains("rate 0.12, 14 hidden"), "{rows}");
    assert!(
        !rows.contains("batch 1"),
        "what all runs share is left out: {rows}"
    );
}

#[test]
fn a_learning_rate_changed_mid_run_is_in_the_runs_words() {
    let mut app = app();
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Down, KeyCode::Down]);
    press(&mut app, &chars("400\n"));
    press(&mut app, &chars("s"));
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars("0.5\n"));
    press(&mut app, &chars("s"));
    assert!(
        app.tabs
            .subtraction
            .run_settings()
            .contains("rate 0.12→0.5"),
        "{}",
        app.tabs.subtraction.run_settings()
    );
}

#[test]
fn the_runs_list_marks_runs_on_and_off_the_chart() {
    let mut app = two_runs();
    press(&mut app, &chars("c"));
    assert!(app.tabs.subtraction.runs.open);
    press(&mut app, &[KeyCode::Char(' ')]);
    assert!(said(&app).contains("always drawn"), "{}", said(&app));
    press(&mut app, &[KeyCode::Down]);
    assert_eq!(
        said(&app),
        "run 1: cross-entropy, rate 0.12, 14 hidden, batch 1, seed 8"
    );
    press(&mut app, &[KeyCode::Char(' ')]);
    assert_eq!(said(&app), "run 1 taken off the chart");
    assert_eq!(app.tabs.subtraction.runs.marked().count(), 0);
    // The list's keys are the only ones in force: `t` says so and retrains nothing.
    press(&mut app, &chars("t"));
    assert_eq!(app.tabs.subtraction.runs.current_number(), 2);
    press(&mut app, &[KeyCode::Esc]);
    assert!(!app.tabs.subtraction.runs.open);
}

#[test]
fn x_writes_every_run_as_csv_into_the_data_dir() {
    let temp = fresh_dir("runs-csv");
    let dir = temp.path();
    let mut app = App::with_store(&config(), SEED, Some(Store::new(dir)));
    press(&mut app, &[KeyCode::F(1)]);
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down, KeyCode::Down, KeyCode::Down]);
    press(&mut app, &chars("3\nt"));
    app.tabs.subtraction.finish_training_now();
    press(&mut app, &chars("tt"));
    app.tabs.subtraction.finish_training_now();
    press(&mut app, &chars("cx"));
    let path = dir.join(super::training::RUNS_FILE);
    assert_eq!(
        said(&app),
        format!("Runs saved as CSV to {}", path.display())
    );
    let csv = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "a header and epochs 1-3: {csv}");
    assert!(lines[0].starts_with("epoch,\"run 1 (cross-entropy, rate 0.12, 14 hidden"));
    assert!(
        lines[0]
            .contains("\"run 2 (cross-entropy, rate 0.12, 14 hidden, batch 1, seed 9, in force)\"")
    );
    for (row, epoch) in lines[1..].iter().zip(1..) {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[0], epoch.to_string());
        assert!(
            cells[1].parse::<f64>().is_ok(),
            "run 1 has every epoch: {row}"
        );
        assert!(
            cells[2].parse::<f64>().is_ok(),
            "run 2 has every epoch: {row}"
        );
    }
}

#[test]
fn x_without_a_data_dir_shows_the_csv_to_copy() {
    let mut app = two_runs();
    press(&mut app, &chars("cx"));
    let Some(Overlay::Text(shown)) = app.overlays.top() else {
        panic!("the CSV is shown: {:?}", said(&app));
    };
    let text = shown.text();
    assert!(text.starts_with("epoch,"), "{text}");
    assert_eq!(text.lines().count(), 301, "a header and 300 epochs");
}

#[test]
fn two_runs_on_one_chart_at_80x24_and_120x40() {
    let mut app = two_runs();
    press(&mut app, &chars("c"));
    snapshot_tab("subtraction__two_runs", &app, BOTH_SIZES, "");
}
