//! Issue 29 §8, the study's second way: `z z`, one game, and the trained graph was gone
//! from play without a word. Now the zeroing says which graph it replaced and that it is
//! kept, and `B` puts it back, through real key events on a data dir.

use crate::app::{Action, App};
use crate::config::Config;
use crate::persist::Store;
use crate::tabs::testing::{chars, fresh_dir, press, said};
use crossterm::event::KeyCode;

#[test]
fn zeroing_says_which_graph_it_replaced_and_b_brings_it_back() {
    let temp = fresh_dir("restore-f3");
    let dir = temp.path();
    let mut config = Config::default();
    config.graph.games = 2_000;
    let mut app = App::with_store(&config, 1, Some(Store::new(dir)));
    press(&mut app, &[KeyCode::F(3)]);
    press(&mut app, &chars("p"));
    while app.tabs.is_training(crate::tabs::TabId::StateGraph) {
        app.update(Action::Tick);
    }
    let trained = app.tabs.state_graph.graph.clone();
    let share = (trained.optimal_share() * 100.0).round();

    press(&mut app, &chars("zz"));
    let prev = dir.join("state-graph.json.prev");
    assert_eq!(
        said(&app),
        format!(
            "Every weight is 0 again: p trains, s steps one game; the previous state graph \
             (2,000 games, {share}% of winning states pick a winning move, saved just now) is \
             kept as {}: B restores it",
            prev.display()
        )
    );
    press(&mut app, &chars("s"));
    assert_eq!(
        app.tabs.state_graph.graph.games, 1,
        "one game learned and saved"
    );

    press(&mut app, &chars("B"));
    assert!(
        said(&app).starts_with("Restored the previous state graph (2,000 games, ")
            && said(&app).contains("; the one it replaces (1 game, "),
        "{}",
        said(&app)
    );
    assert_eq!(app.tabs.state_graph.graph, trained);
    assert!(
        app.tabs.state_graph.stepped.is_none(),
        "learned into the old weights"
    );
    let next_launch = App::with_store(&config, 1, Some(Store::new(dir)));
    assert_eq!(next_launch.tabs.state_graph.graph, trained);
    press(&mut app, &chars("B"));
    assert_eq!(app.tabs.state_graph.graph.games, 1, "B again swaps back");
}
