//! Predict mode's side that every learner's stepper shares (issue 15 §3): the answer being
//! typed, the score, the answer held for the teacher's reveal, and the "go to step N"
//! entry's reading. The questions and their grading are the domain's, beside each learner.

use super::entry::Entry;
use super::message::Message;
use crate::domain::prediction::Score;

/// Predict mode while it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Predicting {
    /// Right answers and questions graded since predict mode was turned on.
    pub score: Score,
    /// The answer being typed.
    pub entry: Entry,
    /// The answer locked in for the teacher's reveal (while answers are held), as typed.
    pub held: Option<String>,
    limit: usize,
}

impl Predicting {
    /// Predict mode with answers of up to `limit` characters.
    pub fn new(limit: usize) -> Self {
        Self {
            score: Score::default(),
            entry: Entry::new(limit),
            held: None,
            limit,
        }
    }

    /// A fresh entry for the next answer.
    pub fn clear_entry(&mut self) {
        self.entry = Entry::new(self.limit);
    }

    /// Locks the typed answer in for the teacher's reveal; what the status line says.
    pub fn hold(&mut self) -> Message {
        let typed = self.entry.text().trim().to_string();
        self.clear_entry();
        let said = format!("Your answer {typed} is in: the teacher reveals it to everyone");
        self.held = Some(typed);
        Message::info(said)
    }

    /// The question in the status line, with the answer typed so far.
    pub fn prompt(&self, question: &str) -> Message {
        Message::info(format!("{question} {}▏", self.entry.text()))
    }
}

/// Reads the step typed into a "go to step N" entry (`what`: "update", "move").
///
/// # Errors
/// Why the text is not a step number.
pub fn read_step(text: &str, what: &str) -> Result<usize, Message> {
    text.trim()
        .parse::<usize>()
        .map_err(|_| Message::error(format!("Type the number of the {what} to go to, e.g. 3")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_answer_is_kept_as_typed_and_the_entry_cleared() {
        let mut predicting = Predicting::new(4);
        for c in "0.5".chars() {
            predicting.entry.push(c);
        }
        let said = predicting.hold();
        assert_eq!(predicting.held.as_deref(), Some("0.5"));
        assert_eq!(predicting.entry.text(), "");
        assert!(
            said.text.starts_with("Your answer 0.5 is in"),
            "{}",
            said.text
        );
    }

    #[test]
    fn a_step_number_is_read_or_refused() {
        assert_eq!(read_step(" 3 ", "update"), Ok(3));
        assert!(read_step("x", "update").is_err());
    }
}
