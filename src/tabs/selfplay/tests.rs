//! The Self-play tab through `App` and real key events, with a fixed seed: a whole game
//! against the learner, its numbers against its own search, both ways of playing, the why
//! record, and training in the background saved to the data dir and loaded again.

use super::settings::PlayMode;
use crate::app::{Action, App};
use crate::config::Config;
use crate::domain::games::Game as _;
use crate::persist::Store;
use crate::tabs::testing::{BOTH_SIZES, chars, fresh_dir, press, said, screen, snapshot_tab};
use crossterm::event::KeyCode;

const SEED: u64 = 3;

fn app() -> App {
    let mut app = App::new(&Config::default(), SEED);
    press(&mut app, &[KeyCode::F(6)]);
    app
}

/// The first empty cell, 1-9.
fn first_empty(app: &App) -> char {
    let board = app.tabs.selfplay.tictactoe().board;
    let cell = (0..9u8).find(|&c| board.cell(c).is_none()).unwrap();
    char::from(b'1' + cell)
}

#[test]
fn a_whole_game_against_the_learner_ends_and_counts() {
    let mut app = app();
    assert!(
        app.tabs.selfplay.tictactoe().human_to_move(),
        "you open by default"
    );
    while app.tabs.selfplay.tictactoe().board.outcome().is_none() {
        let cell = first_empty(&app);
        press(&mut app, &chars(&cell.to_string()));
    }
    let tally = app.tabs.selfplay.tictactoe().tally;
    assert_eq!(tally.won + tally.lost + tally.drawn, 1, "{}", said(&app));
    assert!(
        app.tabs.selfplay.tictactoe().analysis.is_none(),
        "nothing to weigh once it is over"
    );
    // Another key on the board is refused with the reason.
    let empty = first_empty(&app).to_string();
    press(&mut app, &chars(&empty));
    assert!(said(&app).contains("game is over"), "{}", said(&app));
    press(&mut app, &chars("r"));
    assert!(app.tabs.selfplay.tictactoe().turns.is_empty());
}

#[test]
fn the_table_shows_the_search_it_plays_by() {
    let mut app = app();
    press(&mut app, &chars("1"));
    let tab = app.tabs.selfplay.tictactoe();
    let analysis = tab.analysis.as_ref().unwrap();
    let visits: u32 = analysis.rows.iter().map(|r| r.visits).sum();
    assert_eq!(
        visits, tab.config.simulations,
        "every simulation went through one move"
    );
    let priors: f32 = analysis.rows.iter().map(|r| r.prior).sum();
    assert!((priors - 1.0).abs() < 1e-4);
    // Its reply was the most visited move of its search of the position it faced.
    let reply = tab.turns[1].index;
    let decision = tab.turns[1].decision.as_ref().unwrap();
    let chosen = decision.options.iter().find(|o| o.chosen).unwrap();
    assert_eq!(chosen.mv, (reply + 1).to_string());
    let most: u32 = decision
        .options
        .iter()
        .map(|o| o.numbers[1].parse::<u32>().unwrap())
        .max()
        .unwrap();
    assert_eq!(chosen.numbers[1].parse::<u32>().unwrap(), most);
}

#[test]
fn n_plays_by_the_network_alone_its_highest_prior() {
    let mut app = app();
    press(&mut app, &chars("n"));
    assert_eq!(app.tabs.selfplay.tictactoe().config.mode, PlayMode::Network);
    assert!(said(&app).contains("network alone"), "{}", said(&app));
    press(&mut app, &chars("5"));
    let tab = app.tabs.selfplay.tictactoe();
    let decision = tab.turns[1].decision.as_ref().unwrap();
    let priors: Vec<f64> = decision
        .options
        .iter()
        .map(|o| o.numbers[0].parse().unwrap())
        .collect();
    let chosen = decision.options.iter().position(|o| o.chosen).unwrap();
    let best = priors.iter().copied().fold(f64::MIN, f64::max);
    assert!(
        (priors[chosen] - best).abs() < 1e-9,
        "{priors:?} chose {chosen}"
    );
    assert!(decision.how.contains("network alone"));
}

#[test]
fn y_shows_why_with_the_exact_verdict_of_every_move() {
    let mut app = app();
    press(&mut app, &chars("y"));
    assert!(said(&app).contains("not moved yet"), "{}", said(&app));
    press(&mut app, &chars("1y"));
    let screen = crate::tabs::testing::screen(&app, 80, 24);
    assert!(screen.contains("Self-play: O to move, move 2"), "{screen}");
    assert!(
        screen.contains("prior P") && screen.contains("visits N"),
        "{screen}"
    );
    // O must take the centre against a corner: every other reply loses.
    assert!(screen.contains("loses in 3 moves"), "{screen}");
}

#[test]
fn training_runs_in_the_background_saves_and_loads_again() {
    let temp = fresh_dir("selfplay-train");
    let mut config = Config::default();
    config.selfplay.measure_every = 50;
    let mut app = App::with_store(&config, SEED, Some(Store::new(temp.path())));
    press(&mut app, &[KeyCode::F(6), KeyCode::Char('t')]);
    assert!(app.tabs.is_training(crate::tabs::TabId::SelfPlay));
    wait_for(&mut app, |app| {
        app.tabs.selfplay.tictactoe().shown.progress.games >= 50
    });
    press(&mut app, &chars("t"));
    assert!(
        said(&app).contains("stops after the games or curve point under way"),
        "{}",
        said(&app)
    );
    wait_for(&mut app, |app| {
        !app.tabs.is_training(crate::tabs::TabId::SelfPlay)
    });
    let games = app.tabs.selfplay.tictactoe().shown.progress.games;
    assert!(said(&app).contains("saved to"), "{}", said(&app));
    assert!(
        app.tabs.selfplay.tictactoe().shown.curve.len() >= 2,
        "the start and 50 games"
    );
    let again = App::with_store(&config, SEED, Some(Store::new(temp.path())));
    assert_eq!(
        again.tabs.selfplay.tictactoe().shown.progress.games,
        games,
        "loaded as saved"
    );
}

#[test]
fn snapshot_after_your_first_move_and_its_reply() {
    let mut app = app();
    press(&mut app, &chars("1"));
    snapshot_tab("selfplay__after_a_move", &app, BOTH_SIZES, "");
}

/// Trains the tab's learner by `t` until it has played `games`, then stops it.
fn train_for(app: &mut App, games: u64) {
    press(app, &chars("t"));
    train_for_more(app, games);
}

/// The widths of the trunk of the network the tab shows.
fn widths(app: &App) -> Vec<usize> {
    let net = &app.tabs.selfplay.tictactoe().shown.net;
    net.trunk.iter().map(|layer| layer.outputs).collect()
}

#[test]
fn t_starts_a_learner_of_the_panel_s_width_and_c_compares_the_runs() {
    let temp = fresh_dir("selfplay-runs");
    let mut config = Config::default();
    config.selfplay.measure_every = 50;
    let mut app = App::with_store(&config, SEED, Some(Store::new(temp.path())));
    press(&mut app, &[KeyCode::F(6)]);
    train_for(&mut app, 50);
    // The width is the panel's last row; it waits for a new learner.
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down; 9]);
    press(&mut app, &chars("32\n"));
    assert!(
        said(&app).contains("T starts a new learner"),
        "{}",
        said(&app)
    );
    assert_eq!(widths(&app), vec![64, 64], "the learner keeps its width");

    press(&mut app, &chars("T"));
    assert!(
        said(&app).contains("again to replace this learner"),
        "a trained learner is replaced only when asked twice: {}",
        said(&app)
    );
    press(&mut app, &chars("T"));
    assert!(said(&app).contains("width 32"), "{}", said(&app));
    assert!(said(&app).contains("t trains it"), "{}", said(&app));
    assert_eq!(widths(&app), vec![32, 32]);
    assert_eq!(
        app.tabs.selfplay.tictactoe().shown.progress.games,
        0,
        "fresh weights"
    );
    // While it trains, T puts a new learner in training at once.
    press(&mut app, &chars("t"));
    wait_for(&mut app, |app| {
        !app.tabs.selfplay.tictactoe().shown.curve.is_empty()
    });
    press(&mut app, &chars("TT"));
    assert!(said(&app).contains("training (t stops)"), "{}", said(&app));
    // The second learner, saved as it gave way, continued no file: the first one's is
    // kept beside it.
    assert!(temp.path().join("selfplay-tictactoe.json.prev").exists());
    assert!(app.tabs.is_training(crate::tabs::TabId::SelfPlay));
    train_for_more(&mut app, 50);

    press(&mut app, &chars("c"));
    let tab = app.tabs.selfplay.tictactoe();
    assert!(tab.runs.open);
    assert_eq!(
        tab.runs.kept().count(),
        2,
        "the runs of the first two learners"
    );
    let screen = crate::tabs::testing::screen(&app, 80, 24);
    assert!(
        screen.contains("run 1") && screen.contains("width 64"),
        "{screen}"
    );
    // Space on the run in force is refused; on the kept run it hides it.
    press(&mut app, &chars(" "));
    assert!(said(&app).contains("always drawn"), "{}", said(&app));
    press(&mut app, &[KeyCode::Down]);
    press(&mut app, &chars(" "));
    assert!(said(&app).contains("taken off the chart"), "{}", said(&app));

    press(&mut app, &chars("x"));
    let csv = std::fs::read_to_string(
        temp.path()
            .join(<crate::domain::games::tictactoe::Board as super::game::TabGame>::RUNS_FILE),
    )
    .unwrap();
    let header = csv.lines().next().unwrap();
    assert!(header.starts_with("games,"), "{header}");
    assert!(header.contains("run 1 (width 64"), "{header}");
    assert!(header.contains("run 2 (width 32"), "{header}");
    assert!(
        header.contains("run 3 (width 32") && header.contains("in force"),
        "{header}"
    );
    // Columns: games, run 1, run 2, run 3; every run has values in its column.
    for column in 1..=3 {
        assert!(
            csv.lines()
                .skip(1)
                .any(|row| row.split(',').nth(column).is_some_and(|v| !v.is_empty())),
            "run {column} has no values: {csv}"
        );
    }

    press(&mut app, &[KeyCode::Esc]);
    assert!(!app.tabs.selfplay.tictactoe().runs.open);
}

/// Trains the learner already training until it has played `games`, then stops it.
fn train_for_more(app: &mut App, games: u64) {
    wait_for(app, |app| {
        app.tabs.selfplay.tictactoe().shown.progress.games >= games
    });
    stop_training(app);
}

/// A learner lost with its training thread (a panic) leaves the tab a way on: `t` says
/// what happened, and `T` starts a new learner, which trains.
#[test]
fn a_learner_lost_with_its_thread_says_so_and_t_starts_a_new_one() {
    let mut app = app();
    app.tabs.selfplay.tictactoe_mut().train_here(1);
    app.tabs.selfplay.tictactoe_mut().learner = super::state::Learner::Gone;
    press(&mut app, &chars("t"));
    assert_eq!(said(&app), super::state::LOST);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Learning by self-play: lost"), "{shown}");
    // Nothing is left to keep: T does not ask.
    press(&mut app, &chars("T"));
    assert!(said(&app).starts_with("A new learner"), "{}", said(&app));
    press(&mut app, &chars("t"));
    assert!(app.tabs.is_training(crate::tabs::TabId::SelfPlay));
    stop_training(&mut app);
}

/// Presses `t` on a training learner and ticks until it is back (and saved).
pub(super) fn stop_training(app: &mut App) {
    press(app, &chars("t"));
    wait_for(app, |app| {
        !app.tabs.is_training(crate::tabs::TabId::SelfPlay)
    });
}

/// Ticks the app until `done` holds; a training thread that never gets there fails the
/// test after a minute instead of hanging the suite.
pub(super) fn wait_for(app: &mut App, done: impl Fn(&App) -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !done(app) {
        assert!(
            std::time::Instant::now() < deadline,
            "training never got there: {}",
            said(app)
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
        app.update(Action::Tick);
    }
}

#[test]
fn snapshot_the_runs_compared() {
    let mut config = Config::default();
    config.selfplay.measure_every = 50;
    let mut app = App::new(&config, SEED);
    press(&mut app, &[KeyCode::F(6)]);
    app.tabs.selfplay.tictactoe_mut().train_here(4);
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down; 9]);
    press(&mut app, &chars("16\n"));
    press(&mut app, &chars("TT"));
    app.tabs.selfplay.tictactoe_mut().train_here(4);
    press(&mut app, &chars("c"));
    snapshot_tab("selfplay__runs_compared", &app, BOTH_SIZES, "");
}
