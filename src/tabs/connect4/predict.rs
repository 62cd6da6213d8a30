//! Predict mode on the MCTS stepper (`P`, issue 15 §3): before each iteration's selection
//! the stepper asks which column UCT takes at each node on its way down, the root first, and the answer is graded against
//! the search's own pick (`domain::search::mcts::predict`, the same seed and ties). The
//! tab keeps the answer being typed, the score and an answer held for the teacher's reveal
//! (`answer.rs` holds what the keys do).

use crate::domain::games::Game;
use crate::domain::games::connect4::Board;
use crate::domain::search::mcts::{MctsStepper, Pick, node_path, picks};
use crate::frame::message::Message;
use crate::frame::predicting::Predicting as Quiz;

/// The longest answer: one column.
pub(crate) const ANSWER_LIMIT: usize = 1;

/// The question at the node `pick` is taken at, as the status line and the teacher's room
/// write it.
pub(crate) fn question(stepper: &MctsStepper<Board>, pick: &Pick<u8>) -> String {
    let at = node_path(stepper, pick.node, &|_, mv| column_name(mv));
    format!("Predict: which column does UCT select at {at}? Type 1-7")
}

/// A column as the tree names it.
fn column_name(mv: u8) -> String {
    format!("col {}", mv + 1)
}

/// Predict mode while it is on: the quiz's state every stepper shares, and how far into
/// the next selection's picks the answers have gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Predicting {
    /// The answer typed or held, and the score.
    pub(crate) quiz: Quiz,
    /// The phases done when a pick was last answered, and how many of that selection's
    /// picks (the root's first) are answered: those questions are over.
    pub(crate) answered: Option<(u64, usize)>,
}

impl Predicting {
    pub(crate) fn new() -> Self {
        Self {
            // Long enough for the alpha-beta stepper's answers (a value, a list of
            // columns); a pick is one column, which `answer_type` keeps it to.
            quiz: crate::components::tree_search::predict::quiz(),
            answered: None,
        }
    }
}

impl Predicting {
    /// How many picks of the stepper's next selection are answered.
    pub(crate) fn levels_answered(&self, stepper: &MctsStepper<Board>) -> usize {
        match self.answered {
            Some((phases, levels)) if phases == stepper.phases() => levels,
            _ => 0,
        }
    }

    /// Marks the pick waiting as answered: the next level's is asked, if there is one.
    pub(crate) fn mark_answered(&mut self, stepper: &MctsStepper<Board>) {
        self.answered = Some((stepper.phases(), self.levels_answered(stepper) + 1));
    }
}

/// The pick waiting: the first not answered of the stepper's next selection.
pub(crate) fn pick_now(stepper: &MctsStepper<Board>, predicting: &Predicting) -> Option<Pick<u8>> {
    picks(stepper)
        .into_iter()
        .nth(predicting.levels_answered(stepper))
}

/// Reads a typed column as a move at `root` (the node asked about): refused (not graded)
/// unless it is open.
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
    let words = grade.words(pick, &|m| column_name(m));
    (grade.mistake.is_none(), words)
}

/// Grades `mv` now against `pick`: counted, the pick answered, and a right pick at the
/// last node runs the selection (at any other, the next node's pick is asked).
pub(crate) fn grade_now(
    stepper: &mut MctsStepper<Board>,
    predicting: &mut Predicting,
    pick: &Pick<u8>,
    mv: u8,
) -> Message {
    predicting.mark_answered(stepper);
    let (right, words) = pick_words(pick, mv);
    predicting.quiz.count(right);
    if !right {
        return Message::error(words);
    }
    if let Some(next) = pick_now(stepper, predicting) {
        let at = node_path(stepper, next.node, &|_, mv| column_name(mv));
        return Message::info(format!("{words}. Next: at {at}"));
    }
    stepper.step();
    Message::info(format!("{words}. Space steps on"))
}
