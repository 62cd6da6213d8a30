//! How a step's words lie in the lesson pane: its heading ("Step 2 of 7 (] next [ back): ")
//! then the words, wrapped to the screen's width, then the step's question, if it asks
//! one: its words, its choices and where the student's answer is. The drawing and the
//! lesson's check use these functions, so a step the check lets through is one the pane
//! shows whole on the smallest screen.

use super::gate::Gate;
use super::question::{MAX_NUMBER_CHARS, Question};

/// The fewest rows the lesson pane takes while a lesson with steps runs: a short step keeps
/// the layout it always had.
pub const PANE_ROWS_MIN: usize = 2;
/// The most rows the lesson pane takes: at 80x24 the tab keeps 15 of its 19 rows.
pub const PANE_ROWS_MAX: usize = 6;
/// The width a step must fit in [`PANE_ROWS_MAX`] rows at: the narrowest screen.
pub const PANE_WIDTH: usize = 80;

/// Where a student is with a step that waits for the doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateState {
    /// Not done yet.
    Waiting,
    /// Done: `]` moves on.
    Done,
    /// Left without doing it (`]` twice).
    Skipped,
}

/// The counter a step's heading starts with: the step, and for a student moving on their
/// own (`done`: the steps done, and for a step that waits for the doing what it waits for,
/// or that it is done) "Step 3 of 9, 2 done · to do: let the AI make a move". A student
/// following the teacher is moved on by the teacher: "Step 3 of 9".
#[must_use]
pub fn counter(
    step: usize,
    total: usize,
    done: Option<(usize, Option<(&Gate, GateState)>)>,
) -> String {
    let Some((done, gate)) = done else {
        return format!("Step {step} of {total}");
    };
    let waits = match gate {
        None => String::new(),
        Some((gate, GateState::Waiting)) => format!(" · to do: {}", gate.to_do()),
        Some((_, GateState::Done)) => " · ✓ done".to_owned(),
        Some((_, GateState::Skipped)) => " · skipped".to_owned(),
    };
    format!("Step {step} of {total}, {done} done{waits}")
}

/// The heading before a step's words: its counter and the keys that move on, or that the
/// teacher moves the student on; while the step `waits` for its doing, the counter says
/// what is to do and `]` is not offered yet.
#[must_use]
pub fn heading(counter: &str, following: bool, waits: bool) -> String {
    if following {
        format!("{counter}, following the teacher: ")
    } else if waits {
        format!("{counter}: ")
    } else {
        format!("{counter} (] next [ back): ")
    }
}

/// The rows of the pane for `heading` then `text` at `width` columns, each row's words
/// whole where they fit (a word wider than a row is broken; never at its hyphens).
#[must_use]
pub fn rows(heading: &str, text: &str, width: usize) -> Vec<String> {
    let options =
        textwrap::Options::new(width.max(1)).word_splitter(textwrap::WordSplitter::NoHyphenation);
    textwrap::wrap(&format!("{heading}{text}"), options)
        .into_iter()
        .map(std::borrow::Cow::into_owned)
        .collect()
}

/// The label before a question's words.
pub const QUESTION_LABEL: &str = "Question: ";

/// The rows of a step's question at `width` columns: its words, then its choices (`a) 3
/// b) 4`) and `state`, where the student's answer is.
#[must_use]
pub fn question_rows(question: &Question, state: &str, width: usize) -> Vec<String> {
    let mut shown = rows(QUESTION_LABEL, &question.ask, width);
    let line = match question.choices() {
        Some(choices) => {
            let labelled: Vec<String> = (choices.iter().enumerate())
                .map(|(at, choice)| format!("{}) {choice}", Question::label(at)))
                .collect();
            format!("{}   {state}", labelled.join("   "))
        }
        None => state.to_owned(),
    };
    shown.extend(rows("", &line, width));
    shown
}

/// Where a student is with a step's question, as the pane says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answering<'a> {
    /// Nothing answered yet, the entry closed.
    Waiting,
    /// The entry is open: the choice made so far (choices) or the number typed.
    Entry(&'a str),
    /// The answer is locked in for the teacher's reveal.
    Held(&'a str),
    /// The last answer was wrong: another may be tried.
    Retry(&'a str),
    /// The answer given was right.
    Right(&'a str),
    /// The teacher revealed the right answer (the second), after this wrong answer or
    /// none.
    Revealed(Option<&'a str>, &'a str),
}

/// What the pane says after a question's choices: where the student's answer is.
#[must_use]
pub fn state_words(answering: Answering<'_>) -> String {
    match answering {
        Answering::Waiting => "A answers".to_owned(),
        Answering::Entry(typed) => format!("answer: {typed}▏ Enter gives it, Esc closes"),
        Answering::Held(given) => format!("locked in: {given}; the teacher reveals"),
        Answering::Retry(given) => format!("✗ not {given}: A tries again"),
        Answering::Right(given) => format!("✓ right: {given}"),
        Answering::Revealed(Some(given), right) => {
            format!("✗ you said {given}; the answer: {right}")
        }
        Answering::Revealed(None, right) => format!("the answer: {right} (you gave none)"),
    }
}

/// The longest a question's state gets: an answer as long as answers get, in each state.
fn longest_state(question: &Question) -> String {
    let longest = question.choices().map_or(MAX_NUMBER_CHARS, |choices| {
        choices.iter().map(|c| c.chars().count()).max().unwrap_or(0)
    });
    let given = "8".repeat(longest);
    let right = question.right_answer();
    [
        Answering::Entry(&given),
        Answering::Held(&given),
        Answering::Retry(&given),
        Answering::Revealed(Some(&given), &right),
        Answering::Revealed(None, &right),
    ]
    .into_iter()
    .map(state_words)
    .max_by_key(|words| words.chars().count())
    .unwrap_or_default()
}

/// Why `text`, step `step` (1-based) of `total`, with its question, does not fit the pane at
/// [`PANE_WIDTH`] columns in [`PANE_ROWS_MAX`] rows, under the longest of its headings.
pub(super) fn too_long(
    text: &str,
    question: Option<&Question>,
    gate: Option<&Gate>,
    step: usize,
    total: usize,
) -> Option<String> {
    // Every heading the step may show: its gate waiting, done or skipped (or none), and
    // following the teacher, with as many steps done as there are.
    let own = |state| counter(step, total, Some((total, gate.map(|g| (g, state)))));
    let mut headings = vec![
        heading(&own(GateState::Done), false, false),
        heading(&own(GateState::Skipped), false, false),
        heading(&counter(step, total, None), true, false),
    ];
    if gate.is_some() {
        headings.push(heading(&own(GateState::Waiting), false, true));
    }
    let asked = question.map_or(0, |q| question_rows(q, &longest_state(q), PANE_WIDTH).len());
    let taken = asked
        + (headings.iter())
            .map(|heading| rows(heading, text, PANE_WIDTH).len())
            .max()
            .unwrap_or(0);
    let of_them = if asked > 0 {
        format!(" ({asked} for its question)")
    } else {
        String::new()
    };
    (taken > PANE_ROWS_MAX).then(|| {
        format!(
            "takes {taken} rows of the lesson pane at {PANE_WIDTH} columns{of_them}: at most \
             {PANE_ROWS_MAX} (shorten it, or split it over two steps)"
        )
    })
}
