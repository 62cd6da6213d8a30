//! Issue 29 §8: a Q-learning retrain's save says which table it replaced and that it is
//! kept, `B` puts the previous table back and `N` the previous network, through real key
//! events on a data dir.

use crate::app::{Action, App, MessageKind};
use crate::config::Config;
use crate::persist::Store;
use crate::tabs::testing::{chars, fresh_dir, press, said};
use crossterm::event::KeyCode;

/// Ticks until Q-learning stops.
fn until_trained(app: &mut App) {
    while app.tabs.multipile.q.training {
        app.update(Action::Tick);
    }
}

#[test]
fn a_q_retrain_says_what_it_replaced_and_b_brings_the_table_back() {
    let temp = fresh_dir("restore-f2");
    let dir = temp.path();
    let mut config = Config::default();
    config.nim_net.autotrain = false;
    let mut app = App::with_store(&config, 5, Some(Store::new(dir)));
    press(&mut app, &[KeyCode::F(2)]);
    until_trained(&mut app);
    let first = app.tabs.multipile.q.trainer.clone().unwrap();
    let right = first.evaluation().optimal_states;

    press(&mut app, &chars("tt"));
    until_trained(&mut app);
    let prev = dir.join("nim-qtable-misere-1-3-5-7.json.prev");
    assert!(
        said(&app).ends_with(&format!(
            "; the previous Q-table (20,000 games, wins at {right}/335 winning positions, saved \
             just now) is kept as {}: B restores it",
            prev.display()
        )),
        "{}",
        said(&app)
    );
    assert_ne!(
        app.tabs.multipile.q.trainer.as_ref().unwrap().seed,
        first.seed
    );

    press(&mut app, &chars("B"));
    assert!(
        said(&app).starts_with(&format!(
            "Restored the previous Q-table (20,000 games, wins at {right}/335 winning positions"
        )),
        "{}",
        said(&app)
    );
    let back = app.tabs.multipile.q.trainer.as_ref().unwrap();
    assert_eq!((back.seed, back.games), (first.seed, first.games));
    let next_launch = App::with_store(&config, 5, Some(Store::new(dir)));
    assert_eq!(
        next_launch.tabs.multipile.q.trainer.as_ref().unwrap().seed,
        first.seed
    );

    // No network was ever replaced: `N` says so and changes nothing.
    press(&mut app, &chars("N"));
    let message = app.message.clone().unwrap();
    assert_eq!(message.kind, MessageKind::Error);
    assert!(
        message.text.starts_with("No previous network is kept (")
            && message
                .text
                .ends_with("nothing to restore; the network in play is unchanged"),
        "{}",
        message.text
    );
}
