//! One Q-learning game update by update, and predict mode on it, through `App` and real
//! key events (`s`, Space, `b`, `G`, End, `u`), with a fixed seed and no data dir.

use crate::app::{Action, App, MessageKind};
use crate::config::{Config, FirstMover};
use crate::domain::learn::predict_q;
use crate::domain::prediction::Score;
use crate::tabkit::tab::ClassSide;
use crate::tabs::testing::{chars, no_key_shadowed, press, said};
use crate::tabs::testing::{snapshot_tab, tab_screen};
use crossterm::event::KeyCode;

const SEED: u64 = 5;

/// The Nim tab with its Q-table trained to the end (so updates have varied numbers).
fn trained() -> App {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.nim.first = FirstMover::Human;
    config.nim_net.autotrain = false;
    let mut app = App::new(&config, SEED);
    press(&mut app, &[KeyCode::F(2)]);
    while app.tabs.multipile.q.training {
        app.update(Action::Tick);
    }
    app
}

fn at(app: &App) -> (usize, usize) {
    let steps = app.tabs.multipile.q.steps;
    (steps.at(), steps.total())
}

fn snapshot(name: &str, app: &App) -> String {
    snapshot_tab(&format!("nim__{name}"), app, &[(80, 24)], "");
    tab_screen(app, 80, 24)
}

#[test]
fn s_opens_the_game_at_its_first_update_and_the_keys_walk_it() {
    let mut app = trained();
    press(&mut app, &chars("s"));
    let (shown, total) = at(&app);
    assert_eq!(shown, 0);
    assert!(total >= 4);
    press(&mut app, &chars("  b "));
    assert_eq!(at(&app).0, 2);
    assert!(said(&app).starts_with(&format!("Update 2 of {total}: Q ← Q + α·")));
    press(&mut app, &[KeyCode::End]);
    assert_eq!(
        at(&app).0,
        total,
        "End shows every update, as s did at once"
    );
    press(&mut app, &chars("b"));
    assert_eq!(at(&app).0, total - 1);
}

#[test]
fn go_to_update_n_goes_clamps_and_cancels() {
    let mut app = trained();
    press(&mut app, &chars("sG3"));
    assert!(said(&app).starts_with("Go to update (0-"), "{}", said(&app));
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(at(&app).0, 3);
    press(&mut app, &chars("G99\n"));
    let total = at(&app).1;
    assert_eq!(at(&app).0, total);
    let message = app.message.clone().unwrap();
    assert_eq!(message.kind, MessageKind::Error);
    assert!(
        message.text.starts_with(&format!(
            "This game has {total} updates, not 99: at update {total}"
        )),
        "{}",
        message.text
    );
    press(&mut app, &chars("G1"));
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(at(&app).0, total, "Esc cancels");
    assert!(!app.tabs.multipile.goto.is_open());
}

/// Predict mode on, a game stepped: the first update's question waits.
fn predicting() -> App {
    let mut app = trained();
    press(&mut app, &chars("us"));
    assert!(app.tabs.multipile.question_waiting());
    app
}

fn waiting(app: &App) -> crate::domain::learn::qlearning::Update {
    *app.tabs.multipile.waiting_update().unwrap()
}

#[test]
fn predict_mode_asks_each_new_value_and_a_right_answer_steps_on() {
    let mut app = predicting();
    assert!(
        said(&app).starts_with("Predict: Q([1,3,5,7], p"),
        "{}",
        said(&app)
    );
    let text = snapshot("q_predict_prompt", &app);
    assert!(text.contains("→ ?"), "{text}");
    // Space is no answer: the update waits.
    press(&mut app, &chars(" "));
    assert_eq!(at(&app).0, 0);
    let update = waiting(&app);
    press(&mut app, &chars(&format!("{:.2}\n", update.new)));
    assert!(
        said(&app).starts_with("Right. Predict: Q("),
        "{}",
        said(&app)
    );
    assert_eq!(at(&app).0, 1);
    assert_eq!(
        app.tabs.multipile.predictions(),
        Score { right: 1, asked: 1 }
    );
}

#[test]
fn a_wrong_answer_names_the_rule_and_space_then_shows_the_update() {
    let mut app = predicting();
    let update = waiting(&app);
    let target = predict_q::target(&update);
    assert!((target - update.new).abs() > 0.01, "{update:?}");
    press(&mut app, &chars(&format!("{target:.2}\n")));
    let message = app.message.clone().unwrap();
    assert_eq!(message.kind, MessageKind::Error);
    assert!(
        message.text.contains("is the target itself"),
        "{}",
        message.text
    );
    assert!(
        message.text.contains(&predict_q::rule(&update)),
        "{}",
        message.text
    );
    snapshot("q_predict_wrong", &app);
    assert_eq!(at(&app).0, 0);
    assert!(!app.tabs.multipile.question_waiting(), "answered");
    press(&mut app, &chars(" "));
    assert_eq!(at(&app).0, 1);
    assert_eq!(
        app.tabs.multipile.predictions(),
        Score { right: 0, asked: 1 }
    );
    press(&mut app, &[KeyCode::Esc]);
    assert!(app.tabs.multipile.predict.is_none());
    assert!(
        said(&app).starts_with("Predict mode off: 0 of 1 right"),
        "{}",
        said(&app)
    );
}

#[test]
fn a_held_answer_waits_for_the_reveal_which_grades_and_counts_it() {
    let mut app = predicting();
    app.tabs.multipile.hold_answers(true);
    let update = waiting(&app);
    let question = app.tabs.multipile.open_question().unwrap().question;
    assert!(
        question.ends_with("after this update? (2 decimals)"),
        "{question}"
    );
    press(&mut app, &chars("9\n"));
    assert!(said(&app).contains("is in"), "{}", said(&app));
    assert_eq!(app.tabs.multipile.predictions(), Score::default());
    let asked = app.tabs.multipile.open_question().unwrap();
    assert_eq!((asked.question, asked.held), (question, Some("9".into())));
    let revealed = app.tabs.multipile.reveal().unwrap();
    assert!(
        revealed.text.starts_with("Revealed. Wrong"),
        "{}",
        revealed.text
    );
    assert!(revealed.text.contains(&predict_q::rule(&update)));
    assert_eq!(
        app.tabs.multipile.predictions(),
        Score { right: 0, asked: 1 }
    );
    assert!(app.tabs.multipile.open_question().is_none(), "answered");
    press(&mut app, &chars(" "));
    // Nothing held: the reveal shows the right value, uncounted.
    let revealed = app.tabs.multipile.reveal().unwrap();
    assert!(
        revealed.text.starts_with("Revealed: Q ← Q"),
        "{}",
        revealed.text
    );
    assert_eq!(
        app.tabs.multipile.predictions(),
        Score { right: 0, asked: 1 }
    );
}

#[test]
fn going_forward_in_predict_mode_stops_at_the_next_question() {
    let mut app = predicting();
    press(&mut app, &chars("9\n"));
    assert!(!app.tabs.multipile.question_waiting(), "answered, wrong");
    press(&mut app, &[KeyCode::End]);
    assert_eq!(at(&app).0, 1);
    assert!(
        said(&app).starts_with("Stopped at update 2 of"),
        "{}",
        said(&app)
    );
    assert!(app.tabs.multipile.question_waiting());
}

#[test]
fn predict_mode_turned_on_mid_game_asks_from_the_next_update() {
    let mut app = trained();
    press(&mut app, &chars("s  v"));
    press(&mut app, &chars("u"));
    assert_eq!(
        app.tabs.multipile.pane,
        super::Pane::Updates,
        "its numbers shown"
    );
    assert!(app.tabs.multipile.question_waiting());
    assert_eq!(at(&app).0, 2);
    assert!(said(&app).starts_with("Predict: Q("), "{}", said(&app));
}

#[test]
fn the_stepper_the_go_to_entry_and_the_answer_keys_shadow_no_listed_key() {
    let mut app = predicting();
    no_key_shadowed(&app);
    press(&mut app, &[KeyCode::Esc]);
    press(&mut app, &chars("s"));
    no_key_shadowed(&app);
    press(&mut app, &chars("G"));
    no_key_shadowed(&app);
}
