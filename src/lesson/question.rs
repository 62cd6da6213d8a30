//! A question of the teacher's own in a lesson step: multiple choice, or a number with a
//! tolerance. The file's keys are read and checked here, and an answer is graded here, so
//! the check, the grading and the tests share one reading of the words.

use super::words::check_words;
use serde::Deserialize;

/// The most choices a question offers: `a` to `f`, one row of the lesson pane.
pub const MAX_CHOICES: usize = 6;
/// The most characters of one choice: six of them fit one row at 80 columns.
pub const MAX_CHOICE_CHARS: usize = 8;
/// The most characters of a question's words: one row of the lesson pane at 80 columns,
/// after its label.
pub const MAX_ASK_CHARS: usize = 66;
/// The most characters of a number typed as an answer.
pub const MAX_NUMBER_CHARS: usize = 12;

/// A step's question, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The question in words, as the lesson pane and the room show it.
    pub ask: String,
    /// What answers it.
    pub kind: Kind,
}

/// What kind of answer a question takes, with the right one.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// One of the choices, labelled `a`, `b`, ... on the pane.
    Choices {
        /// The choices, in the file's order.
        choices: Vec<String>,
        /// The right one's place among them.
        right: usize,
    },
    /// A number, right within `tolerance` of `answer`.
    Number {
        /// The right number.
        answer: f64,
        /// How far from it an answer may be and still be right (0: exactly).
        tolerance: f64,
    },
}

// A checked question holds no NaN: its numbers are finite, so equality is total.
impl Eq for Question {}

/// An answer as the file writes it: a number, or words.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(super) enum Written {
    /// `answer = 4` or `answer = 0.5`.
    Number(f64),
    /// `answer = "4"`.
    Words(String),
}

/// Which of a step's keys a refusal is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum At {
    Ask,
    Choices(Option<usize>),
    Answer,
    Tolerance,
}

impl At {
    /// The step's key, as the refusal names it.
    pub(super) fn key(self) -> &'static str {
        match self {
            Self::Ask => "ask",
            Self::Choices(_) => "choices",
            Self::Answer => "answer",
            Self::Tolerance => "tolerance",
        }
    }
}

/// The step's question from its keys: `None` when it asks nothing.
///
/// # Errors
/// The key at fault and why: an answer without a question or the other way round, no
/// choice or too many, a choice too long or twice, an answer not among the choices, a
/// number answer that is not a number, a tolerance that is no distance.
pub(super) fn read(
    ask: Option<String>,
    choices: Option<Vec<String>>,
    answer: Option<Written>,
    tolerance: Option<f64>,
) -> Result<Option<Question>, (At, String)> {
    let Some(ask) = ask else {
        let stray = [
            (choices.is_some(), At::Choices(None)),
            (answer.is_some(), At::Answer),
            (tolerance.is_some(), At::Tolerance),
        ];
        return match stray.into_iter().find(|(set, _)| *set) {
            Some((_, at)) => Err((at, "only a step that asks a question (ask) has it".into())),
            None => Ok(None),
        };
    };
    let ask = ask.trim().to_owned();
    check_words(&ask, MAX_ASK_CHARS).map_err(|why| (At::Ask, why))?;
    let Some(answer) = answer else {
        return Err((At::Ask, "a question needs its answer (answer = ...)".into()));
    };
    let kind = match choices {
        Some(choices) => {
            if tolerance.is_some() {
                return Err((
                    At::Tolerance,
                    "only a number question has a tolerance".into(),
                ));
            }
            read_choices(choices, &answer)?
        }
        None => read_number(&answer, tolerance)?,
    };
    Ok(Some(Question { ask, kind }))
}

fn read_choices(choices: Vec<String>, answer: &Written) -> Result<Kind, (At, String)> {
    if !(2..=MAX_CHOICES).contains(&choices.len()) {
        return Err((
            At::Choices(None),
            format!("{} choices: from 2 to {MAX_CHOICES}", choices.len()),
        ));
    }
    let mut read: Vec<String> = Vec::with_capacity(choices.len());
    for (i, choice) in choices.into_iter().enumerate() {
        let choice = choice.trim().to_owned();
        check_words(&choice, MAX_CHOICE_CHARS).map_err(|why| (At::Choices(Some(i)), why))?;
        if read.contains(&choice) {
            return Err((At::Choices(Some(i)), format!("{choice:?} is listed twice")));
        }
        read.push(choice);
    }
    let wanted = match answer {
        Written::Words(words) => words.trim().to_owned(),
        Written::Number(number) => number.to_string(),
    };
    let Some(right) = read.iter().position(|choice| *choice == wanted) else {
        return Err((
            At::Answer,
            format!(
                "{wanted:?} is not one of the choices ({})",
                read.iter()
                    .map(|c| format!("{c:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    Ok(Kind::Choices {
        choices: read,
        right,
    })
}

fn read_number(answer: &Written, tolerance: Option<f64>) -> Result<Kind, (At, String)> {
    let answer = match answer {
        Written::Number(number) => *number,
        Written::Words(words) => parse_number(words).ok_or_else(|| {
            (
                At::Answer,
                format!(
                    "{words:?} is not a number: a question without choices takes a number \
                     (or give it choices)"
                ),
            )
        })?,
    };
    if !answer.is_finite() {
        return Err((At::Answer, "not a finite number".into()));
    }
    let tolerance = tolerance.unwrap_or(0.0);
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err((At::Tolerance, format!("{tolerance}: a distance, 0 or more")));
    }
    Ok(Kind::Number { answer, tolerance })
}

/// A number as a student or a file writes it (`4`, `-0.5`, `1,000` is not one).
fn parse_number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|n| n.is_finite())
}

impl Question {
    /// The label of the choice at `at` on the pane: `a`, `b`, ...
    #[must_use]
    pub fn label(at: usize) -> char {
        (b'a' + (at % 26) as u8) as char
    }

    /// The choices, when it has them.
    #[must_use]
    pub fn choices(&self) -> Option<&[String]> {
        match &self.kind {
            Kind::Choices { choices, .. } => Some(choices),
            Kind::Number { .. } => None,
        }
    }

    /// The right answer, as the reveal says it.
    #[must_use]
    pub fn right_answer(&self) -> String {
        match &self.kind {
            Kind::Choices { choices, right } => choices[*right].clone(),
            Kind::Number { answer, tolerance } if *tolerance > 0.0 => {
                format!("{answer} (± {tolerance})")
            }
            Kind::Number { answer, .. } => answer.to_string(),
        }
    }

    /// Whether `given` (a choice's words, or a number as typed) is right.
    ///
    /// # Errors
    /// Why `given` is no answer to this question: not one of the choices, not a number.
    pub fn grade(&self, given: &str) -> Result<bool, String> {
        match &self.kind {
            Kind::Choices { choices, right } => choices
                .iter()
                .position(|choice| choice == given.trim())
                .map(|at| at == *right)
                .ok_or_else(|| format!("{given:?} is not one of the choices")),
            Kind::Number { answer, tolerance } => parse_number(given)
                .map(|n| (n - answer).abs() <= *tolerance + f64::EPSILON * answer.abs())
                .ok_or_else(|| "Type a number, e.g. 3 or -0.5, then Enter".to_string()),
        }
    }
}
