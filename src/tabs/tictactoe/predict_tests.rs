//! Predict mode on the Tic-tac-toe tab through `App` and real key events: the questions
//! the tree-search stepper asks, graded and scored.

use crate::app::App;
use crate::components::tree_search::Playable;
use crate::config::{Config, FirstMover};
use crate::domain::numbers::signed;
use crate::domain::prediction::Score;
use crate::domain::search::predict::{self, Question};
use crate::domain::search::{Algorithm, EventKind};
use crate::tabkit::keymap::Key;

/// The human opens in the centre against a stepped alpha-beta search, predict mode
/// on, and Space pressed until the first question waits.
fn at_first_question() -> App {
    let mut config = Config {
        seed: Some(7),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    config.search.algorithm = Algorithm::AlphaBeta.into();
    config.search.step = true;
    let mut app = App::new(&config, 7);
    for key in [Key::Char('5'), Key::Char('P')] {
        app.handle_key(key);
    }
    for _ in 0..200 {
        if app.tabs.tictactoe.question_waiting() {
            return app;
        }
        app.handle_key(Key::Char(' '));
    }
    panic!("no question within 200 steps");
}

fn said(app: &App) -> String {
    app.message.clone().map(|m| m.text).unwrap_or_default()
}

fn waiting(app: &App) -> (Question, i32, usize) {
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let question = view.waiting().unwrap();
    let value = i32::from(view.stepper.node(question.node()).value.unwrap());
    (question, value, view.stepper.events_taken())
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        app.handle_key(Key::Char(c));
    }
    app.handle_key(Key::Enter);
}

fn score(app: &App) -> Score {
    app.tabs.tictactoe.predict.as_ref().unwrap().score
}

#[test]
fn stepping_stops_at_a_question_and_the_status_line_asks_it() {
    let mut app = at_first_question();
    let (question, _, events) = waiting(&app);
    assert!(matches!(question, Question::Value { .. }), "{question:?}");
    assert!(
        said(&app).starts_with("Predict: what value does"),
        "{}",
        said(&app)
    );
    // Space is not an answer: the search does not move on, and no blank is typed (Space
    // pressed on to step used to fill a value's three characters with blanks).
    for _ in 0..3 {
        app.handle_key(Key::Char(' '));
    }
    assert_eq!(waiting(&app).2, events);
    assert!(said(&app).starts_with("Answer first"), "{}", said(&app));
    // A reminder, not a mistake: no red cross, whether the answer refused the key or the
    // app did (the board's `r` is not an answer key).
    for key in [Key::Char(' '), Key::Char('r')] {
        app.handle_key(key);
        let message = app.message.clone().unwrap();
        assert_eq!(
            message.kind,
            crate::app::MessageKind::Info,
            "{key:?}: {}",
            message.text
        );
        assert!(
            message.text.starts_with("Answer first: Predict"),
            "{}",
            message.text
        );
    }
    assert_eq!(
        app.tabs.tictactoe.predict.as_ref().unwrap().entry.text(),
        ""
    );
    let (_, value, _) = waiting(&app);
    type_text(&mut app, &value.to_string());
    assert_eq!(score(&app).right, 1, "{}", said(&app));
}

#[test]
fn a_right_answer_steps_on_and_is_counted() {
    let mut app = at_first_question();
    let (question, value, events) = waiting(&app);
    type_text(&mut app, &signed(value));
    // O8's return is right, and X7's cut-off question follows at once.
    assert!(
        said(&app)
            .starts_with("Right. Predict: O8 returned to X7 (MAX): is there a cut-off now? y/n"),
        "{}",
        said(&app)
    );
    assert_eq!(score(&app), Score { right: 1, asked: 1 });
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    assert_eq!(view.stepper.events_taken(), events + 1);
    let last = view.stepper.last_event().unwrap();
    assert_eq!((last.kind, last.node), (EventKind::Return, question.node()));
}

#[test]
fn a_wrong_answer_names_the_rule_and_changes_nothing_but_the_score() {
    let mut app = at_first_question();
    let (question, value, events) = waiting(&app);
    let nodes = app
        .tabs
        .tictactoe
        .tictactoe
        .search
        .as_ref()
        .unwrap()
        .stepper
        .nodes()
        .to_vec();
    type_text(&mut app, &(value + 1).to_string());
    let message = said(&app);
    assert!(message.starts_with("Wrong: "), "{message}");
    assert!(message.contains("node returns the"), "{message}");
    assert!(message.contains(&signed(value)), "{message}");
    assert_eq!(score(&app), Score { right: 0, asked: 1 });
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    assert_eq!(view.stepper.events_taken(), events);
    assert_eq!(view.stepper.nodes(), nodes.as_slice());
    assert!(!app.tabs.tictactoe.question_waiting(), "answered: step on");
    // The next step is the event that was asked about.
    app.handle_key(Key::Char(' '));
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let last = view.stepper.last_event().unwrap();
    assert_eq!((last.kind, last.node), (EventKind::Return, question.node()));
}

#[test]
fn a_refused_answer_is_cleared_and_not_graded() {
    let mut app = at_first_question();
    type_text(&mut app, "y");
    assert!(said(&app).contains("is not a value"), "{}", said(&app));
    assert_eq!(score(&app), Score::default());
    assert!(app.tabs.tictactoe.question_waiting());
    assert_eq!(
        app.tabs.tictactoe.predict.as_ref().unwrap().entry.text(),
        ""
    );
}

#[test]
fn esc_leaves_predict_mode_and_stepping_goes_on() {
    let mut app = at_first_question();
    let (_, _, events) = waiting(&app);
    app.handle_key(Key::Esc);
    assert!(app.tabs.tictactoe.predict.is_none());
    assert!(said(&app).starts_with("Predict mode off"), "{}", said(&app));
    app.handle_key(Key::Char(' '));
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    assert_eq!(view.stepper.events_taken(), events + 1);
}

/// Answers every question right until a bound question waits.
fn at_bound_question() -> App {
    let mut app = at_first_question();
    for _ in 0..400 {
        let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
        let Some(question) = view.waiting() else {
            app.handle_key(Key::Char(' '));
            continue;
        };
        if matches!(question, Question::Bound { .. }) {
            return app;
        }
        let typed = right_text(&app);
        type_text(&mut app, &typed);
    }
    panic!("no bound question");
}

/// The right answer to the question waiting, as a student types it.
fn right_text(app: &App) -> String {
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let question = view.waiting().unwrap();
    let stepper = &view.stepper;
    match predict::right_answer(stepper, question).unwrap() {
        predict::Answer::Value(v) => signed(v),
        predict::Answer::Cut(yes) => if yes { "y" } else { "n" }.to_string(),
        predict::Answer::Children(bits) => {
            let position = stepper.position(question.node());
            predict::children_text(stepper, question.node(), bits, &|mv| {
                position.move_label(mv)
            })
        }
    }
}

/// Answers every question right until a cut-off question whose answer is yes waits
/// (at a node that has searched a child and skips at least `skipped` children).
fn at_cut_off(skipped: u8) -> App {
    let mut app = at_first_question();
    for _ in 0..2000 {
        let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
        let Some(question) = view.waiting() else {
            app.handle_key(Key::Char(' '));
            continue;
        };
        let node = view.stepper.node(question.node());
        if matches!(question, Question::Cutoff { .. })
            && view.stepper.peek().unwrap().kind == EventKind::Cutoff
            && node.move_count - node.children >= skipped
        {
            return app;
        }
        let typed = right_text(&app);
        type_text(&mut app, &typed);
    }
    panic!("no cut-off skipping {skipped}");
}

fn pruned_now(app: &App) -> (String, Vec<String>) {
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let question = view.waiting().unwrap();
    let stepper = &view.stepper;
    let position = stepper.position(question.node());
    let searched = stepper
        .children(question.node())
        .map(|c| position.move_label(stepper.node(c).mv.unwrap()))
        .collect();
    (right_text(app), searched)
}

#[test]
fn a_right_yes_to_a_cut_off_asks_which_children_it_prunes() {
    let mut app = at_cut_off(2);
    let before = score(&app);
    let events = waiting(&app).2;
    type_text(&mut app, "y");
    assert!(
        said(&app).starts_with("Right. Predict: which children does "),
        "{}",
        said(&app)
    );
    assert!(
        said(&app).contains("prune? Name them, or none:"),
        "{}",
        said(&app)
    );
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let question = view.waiting().unwrap();
    assert!(matches!(question, Question::Pruned { .. }));
    assert_eq!(view.stepper.events_taken(), events, "the cut-off waits");
    // The names typed back to front, with a comma and a space, in lower case.
    let (right, _) = pruned_now(&app);
    let mut names: Vec<&str> = right.split(' ').collect();
    names.reverse();
    type_text(&mut app, &names.join(", ").to_lowercase());
    // The cut-off is taken; the node's own return is asked next, after a short "Right."
    // (a question asked at once keeps the status line for itself).
    let message = said(&app);
    assert!(
        message.starts_with("Right: a cut-off skips every child not yet searched at ")
            && message.contains(&right)
            || message.starts_with("Right. Predict: what value does "),
        "{message}"
    );
    let two_right = Score { right: 2, asked: 2 };
    assert_eq!(score(&app), before.plus(two_right));
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let last = view.stepper.last_event().unwrap();
    assert_eq!(
        last.kind,
        EventKind::Cutoff,
        "a right list takes the cut-off"
    );
}

#[test]
fn a_wrong_no_to_a_cut_off_names_the_children_and_asks_no_more() {
    let mut app = at_cut_off(1);
    let (question, _, events) = waiting(&app);
    type_text(&mut app, "n");
    assert!(said(&app).contains("pruned: "), "{}", said(&app));
    assert!(!app.tabs.tictactoe.question_waiting(), "no follow-up");
    app.handle_key(Key::Char(' '));
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    assert_eq!(view.stepper.events_taken(), events + 1);
    let last = view.stepper.last_event().unwrap();
    assert_eq!((last.kind, last.node), (EventKind::Cutoff, question.node()));
}

#[test]
fn each_wrong_list_of_children_names_its_misconception_and_the_rule() {
    type Answer = fn(&[String]) -> String;
    let cases: [(&str, Answer); 3] = [
        ("Wrong: a cut-off always prunes: ", |_| "none".into()),
        ("Wrong: not just the next child: ", |pruned| {
            pruned[0].clone()
        }),
        ("Wrong: a cut-off skips", |pruned| pruned[1..].join(" ")),
    ];
    for (start, answer) in cases {
        let mut app = at_cut_off(2);
        type_text(&mut app, "y");
        let (right, _) = pruned_now(&app);
        let pruned: Vec<String> = right.split(' ').map(str::to_string).collect();
        let before = score(&app);
        let events = waiting(&app).2;
        type_text(&mut app, &answer(&pruned));
        let message = said(&app);
        assert!(message.starts_with(start), "{message}");
        assert!(
            message.contains("a cut-off skips every child not yet searched at "),
            "{message}"
        );
        assert!(message.ends_with(&format!(": {right}")), "{message}");
        assert_eq!(score(&app), before.plus(Score { right: 0, asked: 1 }));
        assert!(!app.tabs.tictactoe.question_waiting());
        app.handle_key(Key::Char(' '));
        let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
        assert_eq!(view.stepper.events_taken(), events + 1);
        assert_eq!(view.stepper.last_event().unwrap().kind, EventKind::Cutoff);
    }
}

#[test]
fn a_searched_child_named_as_pruned_is_said_to_be_searched() {
    let mut app = at_cut_off(1);
    type_text(&mut app, "y");
    let (right, searched) = pruned_now(&app);
    let first = searched[0].clone();
    type_text(&mut app, &format!("{first} {right}"));
    assert!(
        said(&app).starts_with(&format!(
            "Wrong: {first} was searched already; a cut-off skips"
        )),
        "{}",
        said(&app)
    );
}

#[test]
fn space_and_marks_type_only_into_a_list_of_children() {
    let mut app = at_cut_off(1);
    // Under the y/n question Space and x are no answer keys.
    for key in [Key::Char(' '), Key::Char('x')] {
        app.handle_key(key);
    }
    assert_eq!(
        app.tabs.tictactoe.predict.as_ref().unwrap().entry.text(),
        ""
    );
    type_text(&mut app, "y");
    for c in "o1, x".chars() {
        app.handle_key(Key::Char(c));
    }
    assert_eq!(
        app.tabs.tictactoe.predict.as_ref().unwrap().entry.text(),
        "o1, x"
    );
    // A word that names no move is refused, not graded.
    let before = score(&app);
    app.handle_key(Key::Enter);
    assert!(said(&app).contains("is no move at "), "{}", said(&app));
    assert_eq!(score(&app), before);
    assert!(app.tabs.tictactoe.question_waiting());
}

#[test]
fn a_held_list_is_counted_in_one_spelling_and_graded_at_the_reveal() {
    use crate::tabkit::tab::ClassSide;
    let mut app = at_cut_off(2);
    type_text(&mut app, "y");
    app.tabs.tictactoe.hold_answers(true);
    let (right, _) = pruned_now(&app);
    let numbers: Vec<&str> = right.split(' ').rev().map(|n| &n[1..]).collect();
    type_text(&mut app, &numbers.join(","));
    assert!(said(&app).contains("is in"), "{}", said(&app));
    let asked = app.tabs.tictactoe.open_question().unwrap();
    assert_eq!(asked.held.as_deref(), Some(right.as_str()));
    assert!(
        asked.question.contains("which children does"),
        "{}",
        asked.question
    );
    let before = score(&app);
    let revealed = app.tabs.tictactoe.reveal().unwrap();
    assert!(
        revealed
            .text
            .starts_with("Revealed. Right: a cut-off skips"),
        "{}",
        revealed.text
    );
    assert_eq!(score(&app), before.plus(Score { right: 1, asked: 1 }));
}

#[test]
fn after_no_cut_off_the_bound_is_asked_and_graded_before_the_next_child() {
    let mut app = at_bound_question();
    assert!(
        said(&app).starts_with("Right. Predict: ") && said(&app).contains(": what is "),
        "{}",
        said(&app)
    );
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let question = view.waiting().unwrap();
    let node = view.stepper.node(question.node());
    let (bound, now) = if node.maximizing {
        ("α", node.alpha())
    } else {
        ("β", node.beta())
    };
    assert!(
        said(&app).contains(&format!("what is {bound} there now?")),
        "{}",
        said(&app)
    );
    let events = view.stepper.events_taken();
    type_text(&mut app, &signed(now));
    assert!(
        said(&app).starts_with(&format!("Right: {bound} at ")),
        "{}",
        said(&app)
    );
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    assert_eq!(
        view.stepper.events_taken(),
        events + 1,
        "the next child entered"
    );
    let entered = view.stepper.last_event().unwrap();
    assert_eq!(entered.kind, EventKind::Enter);
}

#[test]
fn after_a_right_answer_run_to_end_stops_at_the_next_question() {
    let mut app = at_first_question();
    let (_, value, _) = waiting(&app);
    type_text(&mut app, &signed(value));
    if !app.tabs.tictactoe.question_waiting() {
        app.handle_key(Key::Char('c'));
    }
    assert!(app.tabs.tictactoe.question_waiting(), "{}", said(&app));
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    assert!(!view.stepper.is_finished());
}

#[test]
fn a_held_answer_waits_for_the_reveal_which_grades_and_counts_it() {
    use crate::tabkit::tab::ClassSide;
    let mut app = at_first_question();
    app.tabs.tictactoe.hold_answers(true);
    let (question, value, events) = waiting(&app);
    type_text(&mut app, &(value + 1).to_string());
    assert!(said(&app).contains("is in"), "{}", said(&app));
    assert_eq!(
        score(&app),
        Score::default(),
        "nothing graded before the reveal"
    );
    let asked = app.tabs.tictactoe.open_question().unwrap();
    assert_eq!(asked.held, Some((value + 1).to_string()));
    assert!(asked.question.starts_with("Predict: what value does"));
    assert_eq!(waiting(&app).2, events, "the search waits");

    let revealed = app.tabs.tictactoe.reveal().unwrap();
    assert!(
        revealed.text.starts_with("Revealed. Wrong: "),
        "{}",
        revealed.text
    );
    assert_eq!(score(&app), Score { right: 0, asked: 1 });
    assert!(app.tabs.tictactoe.open_question().is_none(), "answered");
    app.handle_key(Key::Char(' '));
    let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
    let last = view.stepper.last_event().unwrap();
    assert_eq!((last.kind, last.node), (EventKind::Return, question.node()));
}

#[test]
fn a_reveal_with_no_answer_shows_the_right_one_uncounted() {
    use crate::tabkit::tab::ClassSide;
    let mut app = at_first_question();
    app.tabs.tictactoe.hold_answers(true);
    let (_, value, _) = waiting(&app);
    let revealed = app.tabs.tictactoe.reveal().unwrap();
    assert!(revealed.text.starts_with("Revealed: "), "{}", revealed.text);
    assert!(
        revealed
            .text
            .contains(&format!("returns {}", signed(value))),
        "{}",
        revealed.text
    );
    assert_eq!(score(&app), Score::default());
    assert!(app.tabs.tictactoe.reveal().is_none(), "nothing waits now");
}
