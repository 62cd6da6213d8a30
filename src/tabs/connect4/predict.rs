//! Predict mode on the MCTS stepper (`P`, issue 15 §3): before each iteration's selection
//! the stepper asks which column UCT takes from the root, and the answer is graded against
//! the search's own pick (`domain::search::mcts::predict`, the same seed and ties). The
//! tab keeps the answer being typed, the score and an answer held for the teacher's reveal
//! (`answer.rs` holds what the keys do).

use crate::domain::games::Game;
use crate::domain::games::connect4::Board;
use crate::domain::prediction::Score;
use crate::domain::search::mcts::{MctsStepper, Pick, root_pick};
use crate::frame::entry::Entry;
use crate::frame::message::Message;

/// The longest answer: one column.
pub(crate) const ANSWER_LIMIT: usize = 1;

/// The question, as the status line and the teacher's room write it.
pub(crate) const QUESTION: &str = "Predict: which column does UCT select at the root? Type 1-7";

/// Predict mode while it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Predicting {
    /// Right answers and questions answered since predict mode was turned on.
    pub(crate) score: Score,
    /// The answer being typed.
    pub(crate) entry: Entry,
    /// The answer locked in for the teacher's reveal, as typed.
    pub(crate) held: Option<String>,
    /// The phases done when the pick was last answered: that question is over.
    pub(crate) answered: Option<u64>,
}

impl Predicting {
    pub(crate) fn new() -> Self {
        Self {
            score: Score::default(),
            entry: Entry::new(ANSWER_LIMIT),
            held: None,
            answered: None,
        }
    }
}

/// Reads a typed column as a root move: refused (not graded) unless it is open.
pub(crate) fn read_column(root: &Board, text: &str) -> Result<u8, Message> {
    let column = text
        .trim()
        .parse::<u8>()
        .ok()
        .filter(|c| (1..=7).contains(c))
        .ok_or_else(|| Message::error(format!("{text:?} is not a column: type 1-7")))?;
    if root.legal_moves().as_ref().contains(&(column - 1)) {
        Ok(column - 1)
    } else {
        Err(Message::error(format!(
            "Column {column} is full: pick another"
        )))
    }
}

/// The grade of `mv` in words, columns named as the tree names them.
pub(crate) fn pick_words(pick: &Pick<u8>, mv: u8) -> (bool, String) {
    let grade = pick.grade(mv);
    let words = grade.words(pick, &|m| format!("col {}", m + 1));
    (grade.mistake.is_none(), words)
}

/// Grades `mv` now: counted, the question answered, and a right pick's selection run.
pub(crate) fn grade_now(
    stepper: &mut MctsStepper<Board>,
    predicting: &mut Predicting,
    mv: u8,
) -> Message {
    predicting.answered = Some(stepper.phases());
    let Some(pick) = root_pick(stepper) else {
        return Message::info("Nothing to pick here: Space steps on");
    };
    let (right, words) = pick_words(&pick, mv);
    predicting.score.count(right);
    if !right {
        return Message::error(words);
    }
    stepper.step();
    Message::info(format!("{words}. Space steps on"))
}
