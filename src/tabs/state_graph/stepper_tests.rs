//! One State-Graph game move by move, and predict mode on its learning, through `App` and
//! real key events (`s`, Space, `b`, `G`, End, `u`), with a fixed seed and no data dir.

use crate::app::{Action, App, MessageKind};
use crate::config::Config;
use crate::domain::prediction::Score;
use crate::tabkit::tab::ClassSide;
use crate::tabs::testing::snapshot_tab;
use crate::tabs::testing::{chars, no_key_shadowed, press, said};
use crossterm::event::KeyCode;

const SEED: u64 = 11;

/// The State Graph tab, trained a little so weights are not all 0.
fn app() -> App {
    let config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    let mut app = App::new(&config, SEED);
    press(&mut app, &[KeyCode::F(3)]);
    press(&mut app, &chars("p"));
    app.update(Action::Tick);
    press(&mut app, &chars("p"));
    app
}

fn at(app: &App) -> (usize, usize) {
    let steps = app.tabs.state_graph.stepped.as_ref().unwrap().steps;
    (steps.at(), steps.total())
}

#[test]
fn s_learns_at_once_and_the_moves_can_be_stepped_back_with_the_old_weights() {
    let mut app = app();
    let games = app.tabs.state_graph.graph.games;
    press(&mut app, &chars("s"));
    assert_eq!(
        app.tabs.state_graph.graph.games,
        games + 1,
        "learned at once"
    );
    let (shown, total) = at(&app);
    assert_eq!(shown, total, "s shows the game learned, as before");
    let edge = app.tabs.state_graph.stepped.as_ref().unwrap().path[0];
    let now = app.tabs.state_graph.graph.weight(&edge);
    assert_eq!(app.tabs.state_graph.shown_graph().weight(&edge), now);
    press(&mut app, &chars("b"));
    let before = app
        .tabs
        .state_graph
        .stepped
        .as_ref()
        .unwrap()
        .before
        .weight(&edge);
    assert_ne!(before, now);
    assert_eq!(
        app.tabs.state_graph.shown_graph().weight(&edge),
        before,
        "not learned yet: the view shows the weights from before the game"
    );
    press(&mut app, &chars("G0\n"));
    assert_eq!(at(&app).0, 0);
    press(&mut app, &chars(" "));
    assert!(said(&app).starts_with(&format!("Move 1 of {}: player 1 took", total - 1)));
    press(&mut app, &chars("G99\n"));
    assert_eq!(at(&app).0, total);
    assert_eq!(app.message.clone().unwrap().kind, MessageKind::Error);
    assert!(said(&app).contains("at the end"), "{}", said(&app));
}

/// Predict mode on, a game played and stepped to its learning: the question waits.
fn predicting() -> App {
    let mut app = app();
    press(&mut app, &chars("us"));
    assert_eq!(at(&app).0, 0, "predict mode opens the game at its start");
    assert!(
        !said(&app).contains("won"),
        "the winner is not told: {}",
        said(&app)
    );
    press(&mut app, &[KeyCode::End]);
    assert!(app.tabs.state_graph.question_waiting());
    let (shown, total) = at(&app);
    assert_eq!(shown, total - 1, "stopped before the learning");
    app
}

#[test]
fn the_learning_asks_a_weight_and_a_right_answer_learns() {
    let mut app = predicting();
    assert!(
        said(&app).starts_with("Predict: the weight of p"),
        "{}",
        said(&app)
    );
    snapshot_tab("graph__graph_predict_prompt", &app, &[(80, 24)], "");
    let asked = app.tabs.state_graph.stepped.as_ref().unwrap().asked;
    press(&mut app, &chars(&format!("{}\n", asked.after)));
    assert!(said(&app).starts_with("Right: player"), "{}", said(&app));
    assert!(app.tabs.state_graph.stepped.as_ref().unwrap().learned());
    assert_eq!(
        app.tabs.state_graph.predictions(),
        Score { right: 1, asked: 1 }
    );
}

#[test]
fn a_wrong_answer_names_the_rule_and_space_learns() {
    let mut app = predicting();
    let asked = app.tabs.state_graph.stepped.as_ref().unwrap().asked;
    let swapped = asked.before - asked.change();
    press(&mut app, &chars(&format!("{swapped}\n")));
    assert!(
        said(&app).starts_with("Wrong: winner and loser swapped"),
        "{}",
        said(&app)
    );
    assert!(!app.tabs.state_graph.question_waiting());
    press(&mut app, &chars(" "));
    assert!(app.tabs.state_graph.stepped.as_ref().unwrap().learned());
    assert_eq!(
        app.tabs.state_graph.predictions(),
        Score { right: 0, asked: 1 }
    );
}

#[test]
fn a_held_answer_waits_for_the_reveal() {
    let mut app = predicting();
    app.tabs.state_graph.hold_answers(true);
    let question = app.tabs.state_graph.open_question().unwrap().question;
    press(&mut app, &chars("7\n"));
    assert!(said(&app).contains("is in"), "{}", said(&app));
    assert_eq!(
        app.tabs.state_graph.open_question().unwrap().held,
        Some("7".into())
    );
    assert_eq!(
        app.tabs.state_graph.open_question().unwrap().question,
        question
    );
    assert_eq!(app.tabs.state_graph.predictions(), Score::default());
    let revealed = app.tabs.state_graph.reveal().unwrap();
    assert!(revealed.text.starts_with("Revealed. "), "{}", revealed.text);
    assert_eq!(app.tabs.state_graph.predictions().asked, 1);
    assert!(app.tabs.state_graph.open_question().is_none());
    assert!(app.tabs.state_graph.reveal().is_none(), "nothing waits now");
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
