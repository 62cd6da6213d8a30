//! Predict mode (`P`, issue 15 §3): stepping a minimax or alpha-beta search stops before a
//! node returns its value and, under alpha-beta, before a cut-off may come, and asks for
//! it. The question and the grading are `domain::search::predict`'s; this file holds the
//! tab's side: the answer being typed, the score, the prompt and the check (`answer.rs`
//! holds what the keys do).

use super::explain::{node_name, untried_labels};
use super::playable::Playable;
use super::view::SearchView;
use crate::domain::numbers::signed;
use crate::domain::search::Stepper;
use crate::domain::search::predict::{self, Question};
use crate::tabkit::message::Message;

/// The longest answer typed: a sign and two digits.
pub(crate) const ANSWER_LIMIT: usize = 3;

/// The longest list of children typed (every move of an empty board, `X1 X2 … X9`).
pub(crate) const LIST_LIMIT: usize = 26;

/// The longest answer the question waiting takes.
pub(crate) const fn limit_for(question: Question) -> usize {
    if question.takes_children() {
        LIST_LIMIT
    } else {
        ANSWER_LIMIT
    }
}

/// Predict mode while it is on: the quiz's state every stepper shares (the answer typed or
/// held, the score), with answers up to a list of children long.
pub(crate) use crate::tabkit::predicting::Predicting;

/// Predict mode, turned on: a fresh quiz.
pub(crate) fn quiz() -> Predicting {
    Predicting::new(LIST_LIMIT)
}

/// Whether `c` may be typed into an answer to `question`: a space or a comma only
/// separates children in a list. Elsewhere it is refused, so Space pressed on to step
/// does not fill the answer with blanks when a question comes up.
pub(crate) fn takes_char(question: Question, c: char) -> bool {
    question.takes_children() || !(c == ' ' || c == ',')
}

/// The question in the status line, with what has been typed so far.
pub(crate) fn prompt<G: Playable>(
    view: &SearchView<G>,
    question: Question,
    typed: &str,
) -> Message {
    let stepper = &view.stepper;
    let text = question.text(stepper, &|id| node_name(stepper, id));
    Message::typing(&text, typed, "")
}

/// Reads `text` as an answer to `question`: children as the tree pane names them.
fn read_answer<G: Playable>(
    stepper: &Stepper<G>,
    question: Question,
    text: &str,
) -> Result<predict::Answer, String> {
    if !question.takes_children() {
        return question.read(text);
    }
    let id = question.node();
    let position = stepper.position(id);
    predict::read_children(stepper, id, text, &node_name(stepper, id), &|mv| {
        position.move_label(mv)
    })
}

/// An answer as the room counts it: children in one spelling (`O1 O3`, `none`), any
/// other answer as typed.
fn answer_text<G: Playable>(
    stepper: &Stepper<G>,
    question: Question,
    answer: predict::Answer,
    typed: &str,
) -> String {
    match answer {
        predict::Answer::Children(bits) => {
            let id = question.node();
            let position = stepper.position(id);
            predict::children_text(stepper, id, bits, &|mv| position.move_label(mv))
        }
        _ => typed.trim().to_string(),
    }
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
        .submit(|text| read_answer(&view.stepper, question, text).map_err(Message::error))
    {
        Ok(answer) => answer,
        Err(refused) => return refused,
    };
    if hold {
        let typed = answer_text(&view.stepper, question, answer, predicting.entry.text());
        predicting.clear_entry();
        let said = format!("Your answer {typed} is in: the teacher reveals it to everyone");
        predicting.held = Some(typed);
        return Message::info(said);
    }
    predicting.clear_entry();
    let Some(grade) = predict::grade(&view.stepper, question, answer) else {
        return Message::error("That answer does not fit the question");
    };
    predicting.count(grade.mistake.is_none());
    let stepper = &view.stepper;
    let words = grade.words(
        stepper,
        &|id| node_name(stepper, id),
        &|id| untried_labels(stepper, id),
        &signed,
    );
    mark_graded(view, &grade);
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

/// Marks the question graded as answered; after a wrong answer to a cut-off that comes,
/// the children it prunes are not asked too (the grade's words named them).
fn mark_graded<G: Playable>(view: &mut SearchView<G>, grade: &predict::Grade) {
    view.mark_answered();
    if matches!(grade.question, Question::Cutoff { .. }) && grade.cuts && grade.mistake.is_some() {
        view.mark_answered();
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
    predicting.clear_entry();
    let given = held
        .as_deref()
        .and_then(|text| read_answer(stepper, question, text).ok());
    let right_answer = predict::right_answer(stepper, question)?;
    let grade = predict::grade(stepper, question, given.unwrap_or(right_answer))?;
    let words = grade.words(
        stepper,
        &|id| node_name(stepper, id),
        &|id| untried_labels(stepper, id),
        &signed,
    );
    mark_graded(view, &grade);
    Some(match (given, grade.mistake) {
        (None, _) => Message::info(format!("Revealed: {}", words.trim_start_matches("Right: "))),
        (Some(_), None) => {
            predicting.count(true);
            Message::info(format!("Revealed. {words}"))
        }
        (Some(_), Some(_)) => {
            predicting.count(false);
            Message::error(format!("Revealed. {words}"))
        }
    })
}
