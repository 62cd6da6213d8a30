//! Watching the State Graph learn at a chosen speed, through `App` and real key events:
//! slow learns one random game a tick and highlights it, fast as many as a tick's time
//! allows, and the graph learned is the same at every speed.

use crate::app::{Action, App};
use crate::config::Config;
use crate::tabkit::speed::Speed;
use crate::tabs::testing::{chars, press};
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
fn slow_learns_one_game_a_tick_and_shows_it() {
    let mut app = app();
    press(&mut app, &chars("-p"));
    assert_eq!(app.tabs.state_graph.speed, Speed::Slow);
    for games in 1..=3 {
        app.update(Action::Tick);
        let tab = &app.tabs.state_graph;
        assert_eq!(tab.graph.games, games);
        assert!(!tab.highlight.is_empty(), "the game just learned is shown");
    }
}

#[test]
fn fast_learns_many_games_a_tick_and_the_graph_is_the_same_at_every_speed() {
    let finish = |keys: &str| {
        let mut app = app();
        press(&mut app, &chars(keys));
        let mut ticks = 0;
        while app.tabs.state_graph.training {
            app.update(Action::Tick);
            ticks += 1;
        }
        (app.tabs.state_graph.graph.to_dot(), ticks)
    };
    let (normal, normal_ticks) = finish("p");
    let (fast, fast_ticks) = finish("+p");
    assert_eq!(normal, fast, "the same games, learned in bigger ticks");
    assert_eq!(normal_ticks, 40, "normal: a fortieth of the run a tick");
    assert!(fast_ticks < normal_ticks, "fast: {fast_ticks} ticks");
}
