//! `G` on the Subtraction Nim tab through real key events: forward trains, backward
//! trains again from the seed to the same weights, past the end stops there, and while
//! training runs it is refused.

use super::test_support::{app, config, said};
use crate::app::App;
use crate::domain::learn::subtraction::Trainer;
use crate::tabs::testing::snapshot_tab;
use crate::tabs::testing::{chars, press};
use crossterm::event::KeyCode;

/// A fresh learner of the tab's settings stepped one epoch at a time, `epochs` times.
fn stepped(app: &App, epochs: usize) -> Trainer {
    let tab = &app.tabs.subtraction;
    let mut trainer = Trainer::new(tab.n_max, tab.trainer.recipe, tab.trainer.seed);
    for _ in 0..epochs {
        trainer.train_epochs(1);
    }
    trainer
}

fn go_to(app: &mut App, epoch: &str) {
    press(app, &chars("G"));
    press(app, &chars(epoch));
    press(app, &[KeyCode::Enter]);
}

#[test]
fn going_to_an_epoch_equals_stepping_there_and_back_trains_again_from_the_seed() {
    let mut app = app();
    go_to(&mut app, "30");
    assert_eq!(said(&app), "At epoch 30 of 4,000");
    let tab = &app.tabs.subtraction;
    let one_by_one = stepped(&app, 30);
    assert_eq!(tab.trainer.epoch, 30);
    assert_eq!(
        tab.trainer.network, one_by_one.network,
        "the same weights, exactly"
    );
    assert_eq!(tab.trainer.losses, one_by_one.losses);
    // Back: the learner starts again from its seed and trains to 12.
    go_to(&mut app, "12");
    assert!(
        said(&app).starts_with("At epoch 12 of 4,000 (trained again from seed "),
        "{}",
        said(&app)
    );
    let tab = &app.tabs.subtraction;
    let one_by_one = stepped(&app, 12);
    assert_eq!(tab.trainer.epoch, 12);
    assert_eq!(tab.trainer.network, one_by_one.network);
    assert_eq!(tab.trainer.losses, one_by_one.losses);
    // And forward again from there, as `s` steps.
    press(&mut app, &chars("s"));
    let after_s = app.tabs.subtraction.trainer.network.clone();
    go_to(&mut app, "12");
    go_to(
        &mut app,
        &(12 + config().subtraction.step_epochs).to_string(),
    );
    assert_eq!(app.tabs.subtraction.trainer.network, after_s);
}

#[test]
fn past_the_last_epoch_it_stops_there() {
    let mut config = config();
    config.subtraction.epochs = 40;
    let mut app = App::new(&config, super::test_support::SEED);
    press(&mut app, &[KeyCode::F(1)]);
    go_to(&mut app, "999");
    assert_eq!(app.tabs.subtraction.trainer.epoch, 40);
    assert!(app.tabs.subtraction.trainer.is_done());
    assert!(
        said(&app).starts_with("Trained: wins at "),
        "{}",
        said(&app)
    );
    go_to(&mut app, "5");
    assert_eq!(app.tabs.subtraction.trainer.epoch, 5);
    assert_eq!(
        app.tabs.subtraction.trainer.network,
        stepped(&app, 5).network
    );
}

#[test]
fn the_entry_types_erases_refuses_and_cancels() {
    let mut app = app();
    press(&mut app, &chars("G"));
    assert!(
        said(&app).starts_with("Go to epoch: ▏ (now epoch 0 of 4,000"),
        "{}",
        said(&app)
    );
    press(&mut app, &chars("12"));
    press(&mut app, &[KeyCode::Backspace]);
    assert!(said(&app).starts_with("Go to epoch: 1▏"), "{}", said(&app));
    // While the entry is open, other keys do nothing to the tab.
    press(&mut app, &chars("s"));
    assert_eq!(app.tabs.subtraction.trainer.epoch, 0);
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(said(&app), "Go to cancelled");
    assert!(app.tabs.subtraction.goto.is_none());
    assert_eq!(app.tabs.subtraction.trainer.epoch, 0);
    // An empty entry is refused and stays open.
    press(&mut app, &chars("G"));
    press(&mut app, &[KeyCode::Enter]);
    assert!(said(&app).contains("is not a step"), "{}", said(&app));
    assert!(app.tabs.subtraction.goto.is_some());
}

#[test]
fn while_training_runs_go_to_is_refused_and_help_lists_it() {
    let mut app = app();
    press(&mut app, &chars("p"));
    assert!(app.tabs.subtraction.is_training());
    press(&mut app, &chars("G"));
    assert!(
        said(&app).starts_with("Training is running: p pauses it, then G goes"),
        "{}",
        said(&app)
    );
    assert!(app.tabs.subtraction.goto.is_none());
    press(&mut app, &chars("p"));
    let help: Vec<String> = app
        .help_keys()
        .iter()
        .flat_map(|group| {
            group
                .bindings
                .iter()
                .map(|b| format!("{} {}", b.label(), b.description()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        help.iter().any(|b| b == "G go to epoch N (paused)"),
        "{help:?}"
    );
}

#[test]
fn the_go_to_prompt_at_80x24() {
    let mut app = app();
    press(&mut app, &chars("G3"));
    let screen = super::test_support::screen(&app, 80, 24);
    assert!(screen.contains("Go to epoch: 3▏"), "{screen}");
    snapshot_tab("subtraction__goto_prompt", &app, &[(80, 24)], "");
}
