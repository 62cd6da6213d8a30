//! The learner's search stepped through real key events: `m` makes its move wait, the
//! step keys walk its PUCT search phase by phase, Enter plays the move it would have
//! played at once, and predict mode asks which edge each walk takes, naming the slip of a
//! wrong answer.

use crate::app::App;
use crate::config::Config;
use crate::domain::learn::selfplay::predict::PuctPick;
use crate::tabkit::tab::ClassSide as _;
use crate::tabs::testing::{chars, no_key_shadowed, press, said, snapshot_tab, tab_screen};
use crossterm::event::KeyCode;

const SEED: u64 = 3;

fn app() -> App {
    let mut app = App::new(&Config::default(), SEED);
    press(&mut app, &[KeyCode::F(6)]);
    app
}

/// The pick waiting in the stepped search.
fn pick_now(app: &App) -> Option<PuctPick> {
    app.tabs.selfplay.tictactoe().stepping.as_ref()?.pick_now()
}

/// The first edge with the largest `key`, as a cell 1-9.
fn first_max(
    pick: &PuctPick,
    key: impl Fn(&crate::domain::learn::selfplay::puct::EdgeStats) -> f32,
) -> usize {
    let mut best = &pick.edges[0];
    for edge in &pick.edges {
        if key(edge).total_cmp(&key(best)).is_gt() {
            best = edge;
        }
    }
    best.index
}

#[test]
fn in_step_mode_its_search_waits_and_enter_plays_the_move_it_plays_at_once() {
    let mut at_once = app();
    press(&mut at_once, &chars("1"));
    let reply = at_once.tabs.selfplay.tictactoe().turns[1].index;

    let mut app = app();
    press(&mut app, &chars("m1"));
    assert!(
        app.tabs.selfplay.tictactoe().stepping.is_some(),
        "{}",
        said(&app)
    );
    assert_eq!(
        app.tabs.selfplay.tictactoe().turns.len(),
        1,
        "its move waits"
    );
    press(&mut app, &chars("  "));
    assert!(said(&app).contains("evaluation done"), "{}", said(&app));
    let screen = tab_screen(&app, 80, 24);
    assert!(
        screen.contains("no rollout: the network's value is"),
        "{screen}"
    );
    assert!(screen.contains("PUCT, stepped"), "{screen}");
    press(&mut app, &chars("b"));
    assert!(said(&app).contains("selection done"), "{}", said(&app));
    no_key_shadowed(&app);
    // The tree's keys move and fold without stepping.
    press(&mut app, &chars("jkhl"));
    assert_eq!(
        app.tabs.selfplay.tictactoe().step_count().map(|(at, _)| at),
        Some(1)
    );
    press(&mut app, &[KeyCode::Enter]);
    assert!(app.tabs.selfplay.tictactoe().stepping.is_none());
    assert_eq!(
        app.tabs.selfplay.tictactoe().turns[1].index,
        reply,
        "{}",
        said(&app)
    );
    // Step mode stays on: its next search waits too.
    let free = first_free(&app).to_string();
    press(&mut app, &chars(&free));
    assert!(app.tabs.selfplay.tictactoe().stepping.is_some());
}

/// The first empty cell, 1-9.
fn first_free(app: &App) -> u8 {
    let board = app.tabs.selfplay.tictactoe().board;
    (0..9u8).find(|&c| board.cell(c).is_none()).unwrap() + 1
}

#[test]
fn a_wrong_pick_names_its_slip_and_counts_as_every_prediction_does() {
    let mut app = app();
    press(&mut app, &chars("m1P"));
    no_key_shadowed(&app);
    let mut named = (false, false);
    let mut asked = 0;
    while let Some(pick) = pick_now(&app) {
        asked += 1;
        assert!(asked < 200, "the search ends");
        let chosen = pick.chosen;
        let prior = first_max(&pick, |e| e.prior);
        let mean = first_max(&pick, |e| e.mean);
        let tied = |index: usize| {
            let score = |i: usize| pick.edges.iter().find(|e| e.index == i).unwrap().score();
            score(index).total_cmp(&score(chosen)).is_eq()
        };
        let answer = if !named.0 && prior != chosen && !tied(prior) {
            named.0 = true;
            prior
        } else if !named.1 && mean != chosen && mean != prior && !tied(mean) {
            named.1 = true;
            mean
        } else {
            chosen
        };
        press(&mut app, &chars(&format!("{}", answer + 1)));
        press(&mut app, &[KeyCode::Enter]);
        let words = said(&app);
        if answer == chosen {
            assert!(words.starts_with("Right:"), "{words}");
        } else if answer == prior {
            assert!(
                words.contains("highest prior alone is not PUCT: U shrinks as N grows"),
                "{words}"
            );
        } else {
            assert!(
                words.contains("highest Q alone is not PUCT: U adds exploration"),
                "{words}"
            );
        }
        if named.0 && named.1 {
            break;
        }
        // On to the next selection, unless a deeper node of this walk is asked next.
        if pick_now(&app).is_none() {
            press(&mut app, &chars("n"));
        }
    }
    assert!(named.0 && named.1, "both slips came up in {asked} picks");
    let score = app.tabs.selfplay.predictions();
    assert_eq!(score.asked as usize, asked);
    assert_eq!(score.right as usize, asked - 2);
}

#[test]
fn snapshot_of_a_selection_stepped_mid_search() {
    let mut app = app();
    // Three whole simulations, then the fourth's selection.
    press(&mut app, &chars("m1nnn "));
    assert!(
        said(&app).contains("Simulation 4: selection done"),
        "{}",
        said(&app)
    );
    snapshot_tab("selfplay__puct_selection_stepped", &app, &[(80, 24)], "");
}
