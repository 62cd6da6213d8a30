//! Predict mode's side that every learner's stepper shares (issue 15 §3): the answer being
//! typed, checked or held for the teacher's reveal, the reveal's taking of it, the score
//! (graded, kept when predict mode is turned off, and the session's), the question as the
//! room reads it, and the "go to step N" entry's reading. The questions and their grading
//! are the domain's, beside each learner; what the tab does with a grade is its own.

use super::message::Message;
use super::tab::{OpenQuestion, QuestionId};
use super::text_entry::TextEntry;
use crate::domain::prediction::Score;

/// Predict mode while it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Predicting {
    /// Right answers and questions graded since predict mode was turned on.
    pub score: Score,
    /// The answer being typed.
    pub entry: TextEntry,
    /// The answer locked in for the teacher's reveal (while answers are held), as typed.
    pub held: Option<String>,
    limit: usize,
    /// The verdict on the answer graded last, until the tab hands it on as an effect.
    verdict: Option<bool>,
}

impl Predicting {
    /// Predict mode with answers of up to `limit` characters.
    pub fn new(limit: usize) -> Self {
        Self {
            score: Score::default(),
            entry: TextEntry::new(limit),
            held: None,
            limit,
            verdict: None,
        }
    }

    /// A fresh entry for the next answer.
    pub fn clear_entry(&mut self) {
        self.entry = TextEntry::new(self.limit);
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
        Message::typing(question, self.entry.text(), "")
    }

    /// Types a character of the answer.
    ///
    /// # Errors
    /// The refusal when the answer is as long as it gets.
    pub fn type_char(&mut self, c: char) -> Result<(), Message> {
        if self.entry.push(c) {
            Ok(())
        } else {
            Err(Message::error(
                "That is as long as an answer gets: Enter checks it",
            ))
        }
    }

    /// Enter: the typed answer read with `read`, the entry cleared for the next question.
    /// While answers are held for the teacher (`hold`), a readable answer is only locked
    /// in, and what the status line says then comes back instead of it.
    ///
    /// # Errors
    /// Why the answer does not read (the entry cleared), or the words of a held answer.
    pub fn submit<T>(
        &mut self,
        read: impl FnOnce(&str) -> Result<T, String>,
        hold: bool,
    ) -> Result<T, Message> {
        let given = self
            .entry
            .submit(|text| read(text).map_err(Message::error))?;
        if hold {
            return Err(self.hold());
        }
        self.clear_entry();
        Ok(given)
    }

    /// The teacher's reveal: the answer held (the entry cleared either way), read with
    /// `read`; `None` when none was held or it does not read, so the reveal only shows
    /// the right answer.
    pub fn take_held<T, E>(&mut self, read: impl FnOnce(&str) -> Result<T, E>) -> Option<T> {
        let held = self.held.take();
        self.clear_entry();
        held.as_deref().and_then(|text| read(text).ok())
    }

    /// Counts a graded answer: the score, and the verdict for the class (the teacher's
    /// collect folder keeps every graded answer). Every grading goes through here.
    pub fn count(&mut self, right: bool) {
        self.score.count(right);
        self.verdict = Some(right);
    }

    /// The verdict on an answer graded since it was last taken: whether it was right.
    pub fn take_verdict(&mut self) -> Option<bool> {
        self.verdict.take()
    }

    /// Counts a graded answer and says `words`, as an error when the answer was wrong.
    pub fn graded(&mut self, right: bool, words: String) -> Message {
        self.count(right);
        if right {
            Message::info(words)
        } else {
            Message::error(words)
        }
    }

    /// The question waiting and the answer locked in, for the lesson and the room.
    pub fn open_question(&self, id: QuestionId, question: String) -> OpenQuestion {
        OpenQuestion {
            id,
            question,
            held: self.held.clone(),
            typed: self.entry.text().to_string(),
        }
    }

    /// Turns predict mode off: its score joins `scored_before`; what the status line
    /// says, with `toggle` the key that turns it on again.
    pub fn turn_off(self, scored_before: &mut Score, toggle: char) -> Message {
        let Score { right, asked } = self.score;
        *scored_before = scored_before.plus(self.score);
        Message::info(format!(
            "Predict mode off: {right} of {asked} right. {toggle} turns it on again"
        ))
    }
}

/// Every graded prediction of the session: those before predict mode was last turned off
/// and those since.
pub fn session_score(predict: Option<&Predicting>, scored_before: Score) -> Score {
    let now = predict.map(|p| p.score).unwrap_or_default();
    scored_before.plus(now)
}

/// What the answer keys say when no question waits.
pub fn nothing_waits() -> Message {
    Message::info("No prediction waits: Space steps on")
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
    fn an_answer_is_read_held_or_refused_and_a_held_one_taken_by_the_reveal() {
        let read = |text: &str| text.parse::<u8>().map_err(|_| "not a number".to_string());
        let mut predicting = Predicting::new(2);
        predicting.type_char('7').unwrap();
        predicting.type_char('7').unwrap();
        assert!(predicting.type_char('7').is_err(), "full at two");
        assert_eq!(predicting.submit(read, false), Ok(77));
        assert_eq!(predicting.entry.text(), "");
        predicting.type_char('x').unwrap();
        assert_eq!(
            predicting.submit(read, false),
            Err(Message::error("not a number"))
        );
        predicting.type_char('5').unwrap();
        let held = predicting.submit(read, true).unwrap_err();
        assert!(
            held.text.starts_with("Your answer 5 is in"),
            "{}",
            held.text
        );
        assert_eq!(predicting.take_held(read), Some(5));
        assert_eq!(predicting.take_held(read), None, "taken once");
    }

    #[test]
    fn the_score_is_counted_kept_when_turned_off_and_summed_for_the_session() {
        let mut predicting = Predicting::new(2);
        assert_eq!(predicting.graded(true, "yes".into()), Message::info("yes"));
        assert_eq!(predicting.graded(false, "no".into()), Message::error("no"));
        assert_eq!(
            session_score(Some(&predicting), Score { right: 2, asked: 3 }),
            Score { right: 3, asked: 5 }
        );
        let mut before = Score { right: 2, asked: 3 };
        let said = predicting.turn_off(&mut before, 'u');
        assert_eq!(
            said.text,
            "Predict mode off: 1 of 2 right. u turns it on again"
        );
        assert_eq!(before, Score { right: 3, asked: 5 });
        assert_eq!(session_score(None, before), before);
    }

    #[test]
    fn a_step_number_is_read_or_refused() {
        assert_eq!(read_step(" 3 ", "update"), Ok(3));
        assert!(read_step("x", "update").is_err());
    }
}
