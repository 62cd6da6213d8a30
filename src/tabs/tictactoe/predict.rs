//! Predict mode (`P`, issue 15 §3): stepping a minimax or alpha-beta search stops before a
//! node returns its value and, under alpha-beta, before a cut-off may come, and asks for
//! it. The question and the grading are `domain::search::predict`'s; this file holds the
//! tab's side: the answer being typed, the score, the prompt and the check (`answer.rs`
//! holds what the keys do).

use super::explain::node_name;
use super::game::{Playable, SearchView};
use crate::domain::numbers::signed;
use crate::domain::prediction::Score;
use crate::domain::search::predict::{self, Question};
use crate::domain::search::{NodeId, Stepper};
use crate::frame::entry::Entry;
use crate::frame::message::Message;

/// The longest answer typed: a sign and two digits.
pub(crate) const ANSWER_LIMIT: usize = 3;

/// Predict mode while it is on: the answer being typed and the score so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Predicting {
    /// Right answers and questions answered since predict mode was turned on.
    pub(crate) score: Score,
    /// The answer being typed.
    pub(crate) entry: Entry,
    /// The answer locked in for the teacher's reveal (while answers are held), as typed.
    pub(crate) held: Option<String>,
}

impl Predicting {
    pub(crate) fn new() -> Self {
        Self {
            score: Score::default(),
            entry: Entry::new(ANSWER_LIMIT),
            held: None,
        }
    }
}

/// The question in the status line, with what has been typed so far.
pub(crate) fn prompt<G: Playable>(
    view: &SearchView<G>,
    question: Question,
    typed: &str,
) -> Message {
    let stepper = &view.stepper;
    let text = question.text(stepper, &|id| node_name(stepper, id));
    Message::info(format!("{text} {typed}▏"))
}

/// The moves a cut-off at `id` skips, as the tree pane writes them (`X7 X9`).
fn pruned_labels<G: Playable>(stepper: &Stepper<G>, id: NodeId) -> String {
    let position = stepper.position(id);
    stepper
        .moves_not_entered(id)
        .iter()
        .map(|&mv| position.move_label(mv))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks the typed answer against the search's next event: a right one takes the event
/// and says so (and the next question, if one waits at once); a wrong one says the rule
/// and marks the question answered, so the next step shows the true value.
///
/// While answers are `hold`, a readable answer is only locked in: the teacher's reveal
/// grades it ([`reveal_in`]).
pub(crate) fn submit_in<G: Playable>(
    view: Option<&mut SearchView<G>>,
    predicting: &mut Predicting,
    hold: bool,
) -> Message {
    let Some(view) = view else {
        return Message::error("No search to predict: t searches your position, m steps the AI's");
    };
    let Some(question) = view.waiting() else {
        return Message::info("No prediction waits: Space steps on");
    };
    let answer = match predicting
        .entry
        .submit(|text| question.read(text).map_err(Message::error))
    {
        Ok(answer) => answer,
        Err(refused) => return refused,
    };
    if hold {
        let typed = predicting.entry.text().trim().to_string();
        predicting.entry = Entry::new(ANSWER_LIMIT);
        let said = format!("Your answer {typed} is in: the teacher reveals it to everyone");
        predicting.held = Some(typed);
        return Message::info(said);
    }
    predicting.entry = Entry::new(ANSWER_LIMIT);
    let Some(grade) = predict::grade(&view.stepper, question, answer) else {
        return Message::error("That answer does not fit the question");
    };
    predicting.score.count(grade.mistake.is_none());
    let stepper = &view.stepper;
    let words = grade.words(
        stepper,
        &|id| node_name(stepper, id),
        &|id| pruned_labels(stepper, id),
        &signed,
    );
    view.mark_answered();
    if grade.mistake.is_some() {
        // The hints say Space steps on; the status line keeps its width for the rule.
        return Message::error(words);
    }
    // A second question before the same event (the bound after "no cut-off") waits first.
    if view.waiting().is_none() {
        view.stepper.step();
    }
    view.tree.follow = true;
    view.sync_cursor();
    match view.waiting() {
        // The next question follows at once: a short "Right." keeps it whole at 80 columns.
        Some(next) => {
            let asked = prompt(view, next, "").text;
            Message::info(format!("Right. {asked}"))
        }
        None => Message::info(format!("{words}. Space steps on")),
    }
}

/// The teacher's reveal of the question waiting: the held answer is graded and counted
/// (with none, the right answer is shown, uncounted), and the question counts as answered
/// either way, so Space steps on for the whole class. `None` when no question waits.
pub(crate) fn reveal_in<G: Playable>(
    view: Option<&mut SearchView<G>>,
    predicting: &mut Predicting,
) -> Option<Message> {
    let view = view?;
    let question = view.waiting()?;
    let stepper = &view.stepper;
    let held = predicting.held.take();
    predicting.entry = Entry::new(ANSWER_LIMIT);
    let given = held.as_deref().and_then(|text| question.read(text).ok());
    let right_answer = predict::right_answer(stepper, question)?;
    let grade = predict::grade(stepper, question, given.unwrap_or(right_answer))?;
    let words = grade.words(
        stepper,
        &|id| node_name(stepper, id),
        &|id| pruned_labels(stepper, id),
        &signed,
    );
    view.mark_answered();
    Some(match (given, grade.mistake) {
        (None, _) => Message::info(format!("Revealed: {}", words.trim_start_matches("Right: "))),
        (Some(_), None) => {
            predicting.score.count(true);
            Message::info(format!("Revealed. {words}"))
        }
        (Some(_), Some(_)) => {
            predicting.score.count(false);
            Message::error(format!("Revealed. {words}"))
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::config::{Config, FirstMover};
    use crate::domain::numbers::signed;
    use crate::domain::prediction::Score;
    use crate::domain::search::predict::{self, Question};
    use crate::domain::search::{Algorithm, EventKind};
    use crate::frame::keymap::Key;

    /// The human opens in the centre against a stepped alpha-beta search, predict mode
    /// on, and Space pressed until the first question waits.
    fn at_first_question() -> App {
        let mut config = Config {
            seed: Some(7),
            ..Config::default()
        };
        config.tictactoe.first = FirstMover::Human;
        config.search.algorithm = Algorithm::AlphaBeta;
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
        // Space is not an answer: the search does not move on.
        app.handle_key(Key::Char(' '));
        assert_eq!(waiting(&app).2, events);
    }

    #[test]
    fn a_right_answer_steps_on_and_is_counted() {
        let mut app = at_first_question();
        let (question, value, events) = waiting(&app);
        type_text(&mut app, &signed(value));
        // O8's return is right, and X7's cut-off question follows at once.
        assert!(
            said(&app).starts_with("Right. Predict: is there a cut-off at X7 (MAX)? y/n"),
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
            let right = predict::right_answer(&view.stepper, question).unwrap();
            let typed = match right {
                predict::Answer::Value(v) => signed(v),
                predict::Answer::Cut(yes) => if yes { "y" } else { "n" }.to_string(),
            };
            type_text(&mut app, &typed);
        }
        panic!("no bound question");
    }

    #[test]
    fn after_no_cut_off_the_bound_is_asked_and_graded_before_the_next_child() {
        let mut app = at_bound_question();
        assert!(
            said(&app).starts_with("Right. Predict: what is "),
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
            said(&app).contains(&format!("what is {bound} at ")),
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
        use crate::frame::tab::Tab;
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
        let asked = app.tabs.tictactoe.asking().unwrap();
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
        assert!(app.tabs.tictactoe.asking().is_none(), "answered");
        app.handle_key(Key::Char(' '));
        let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
        let last = view.stepper.last_event().unwrap();
        assert_eq!((last.kind, last.node), (EventKind::Return, question.node()));
    }

    #[test]
    fn a_reveal_with_no_answer_shows_the_right_one_uncounted() {
        use crate::frame::tab::Tab;
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
}
