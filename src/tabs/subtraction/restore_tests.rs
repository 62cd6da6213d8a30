//! Issue 29 §8: a retrain's save says which network it replaced and that it is kept, and `B`
//! swaps the network in play with the kept one, through real key events on a data dir.

use super::test_support::{SEED, config};
use crate::app::{App, MessageKind};
use crate::persist::Store;
use crate::tabkit::tab::Tab;
use crate::tabs::subtraction::Action;
use crate::tabs::testing::{chars, fresh_dir, press, said};
use crossterm::event::KeyCode;
use std::path::Path;

/// A network of 200 epochs trained and saved through the tab, on F1, in `dir`.
fn trained_in(dir: &Path) -> App {
    let mut config = config();
    config.subtraction.epochs = 200;
    let mut app = App::with_store(&config, SEED, Some(Store::new(dir)));
    press(&mut app, &[KeyCode::F(1)]);
    app.tabs.subtraction.finish_training_now();
    app
}

/// Retrains (`t t`) to the end: the save replaces the network trained first.
fn retrain(app: &mut App) -> String {
    press(app, &chars("tt"));
    app.tabs
        .subtraction
        .finish_training_now()
        .expect("saved")
        .text
}

#[test]
fn a_retrain_says_what_it_replaced_and_b_swaps_it_back_and_forth() {
    let temp = fresh_dir("restore-f1");
    let dir = temp.path();
    let mut app = trained_in(dir);
    let first = app.tabs.subtraction.trainer.network.clone();
    let first_score = app.tabs.subtraction.evaluation.winning_correct();
    assert!(
        !app.tabs.subtraction.enabled(Action::RestorePrevious),
        "no previous network yet: B is not hinted"
    );

    let saved = retrain(&mut app);
    let prev = dir.join("subtraction-mlp.json.prev");
    assert!(
        saved.ends_with(&format!(
            "; the previous network (200 epochs, wins at {first_score}/120 winning piles, saved \
             just now) is kept as {}: B restores it",
            prev.display()
        )),
        "{saved}"
    );
    let second = app.tabs.subtraction.trainer.network.clone();
    assert_ne!(first, second, "a new seed, other weights");
    assert!(app.tabs.subtraction.enabled(Action::RestorePrevious));

    press(&mut app, &chars("B"));
    assert!(
        said(&app).starts_with(&format!(
            "Restored the previous network (200 epochs, wins at {first_score}/120 winning \
             piles, saved just now); the one it replaces (200 epochs"
        )) && said(&app).ends_with(&format!("is kept as {}: B swaps back", prev.display())),
        "{}",
        said(&app)
    );
    assert_eq!(app.tabs.subtraction.trainer.network, first, "back in play");
    let again = App::with_store(&config(), SEED, Some(Store::new(dir)));
    assert_eq!(
        again.tabs.subtraction.trainer.network, first,
        "and in the file the next launch plays"
    );

    press(&mut app, &chars("B"));
    assert_eq!(app.tabs.subtraction.trainer.network, second, "B undoes B");
}

#[test]
fn a_damaged_previous_network_is_refused_with_its_path_and_nothing_changes() {
    let temp = fresh_dir("restore-f1-damaged");
    let dir = temp.path();
    let mut app = trained_in(dir);
    retrain(&mut app);
    let prev = dir.join("subtraction-mlp.json.prev");
    std::fs::write(&prev, "{\"format\": \"ai-arcade/subtraction-mlp\", \"vers").unwrap();
    let playing = app.tabs.subtraction.trainer.network.clone();
    let file = std::fs::read(dir.join("subtraction-mlp.json")).unwrap();

    press(&mut app, &chars("B"));
    let message = app.message.clone().unwrap();
    assert_eq!(message.kind, MessageKind::Error);
    assert!(
        message.text.contains(&prev.display().to_string())
            && message.text.contains("damaged")
            && message.text.ends_with("the network in play is unchanged"),
        "{}",
        message.text
    );
    assert_eq!(app.tabs.subtraction.trainer.network, playing);
    assert_eq!(
        std::fs::read(dir.join("subtraction-mlp.json")).unwrap(),
        file
    );
    assert!(std::fs::read_to_string(&prev).unwrap().ends_with("\"vers"));
}

#[test]
fn restoring_waits_for_training_and_is_refused_where_nothing_is_saved() {
    let temp = fresh_dir("restore-f1-training");
    let mut app = trained_in(temp.path());
    retrain(&mut app);
    press(&mut app, &chars("tt"));
    assert!(app.tabs.subtraction.is_training());
    let training = app.tabs.subtraction.trainer.network.clone();
    press(&mut app, &chars("B"));
    assert_eq!(
        said(&app),
        "The network is training: p pauses it, then B restores the previous network"
    );
    assert_eq!(app.tabs.subtraction.trainer.network, training);

    let mut nowhere = App::new(&config(), SEED);
    press(&mut nowhere, &[KeyCode::F(1)]);
    press(&mut nowhere, &chars("B"));
    assert_eq!(
        said(&nowhere),
        "No data dir (see --data-dir): no previous network is kept"
    );
}
