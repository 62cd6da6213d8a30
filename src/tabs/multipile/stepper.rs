//! One Q-learning game, update by update (issue 15 §3 and §5): `s` plays a self-play game
//! and opens its updates at the first; Space shows the next, `b` goes back, `G` goes to
//! update N, End shows them all. In predict mode (`u`) each update's new Q(s, a) is asked
//! before it is shown and graded by `domain::learn::predict_q` against the learner's own
//! update. The table learned the whole game when it was played: stepping only shows it.

use super::action::StepTo;
use super::state::{MultiPileTab, Pane};
use super::why::mv_text;
use crate::domain::learn::predict_q::{self, ANSWER_LIMIT};
use crate::domain::learn::qlearning::Update;
use crate::domain::prediction::Score;
use crate::domain::steps::Moved;
use crate::tabkit::message::{Message, MessageKind};
use crate::tabkit::predicting::{Predicting, nothing_waits, read_step, session_score};
use crate::tabkit::tab::{OpenQuestion, QuestionId};

impl MultiPileTab {
    /// Plays one self-play game and opens its updates at the first, asking about it in
    /// predict mode.
    pub(crate) fn step_game(&mut self) -> Message {
        let message = self.q.step_game();
        self.feedback = None;
        if message.kind == MessageKind::Info {
            self.pane = Pane::Updates;
            if let Some(asked) = self.prompt() {
                return asked;
            }
        }
        message
    }

    /// Whether a stepped game's updates are there to walk through.
    pub(crate) fn has_updates(&self) -> bool {
        !self.q.last_game.is_empty()
    }

    /// The update whose new value predict mode asks for now.
    pub(crate) fn waiting_update(&self) -> Option<&Update> {
        self.predict.as_ref()?;
        let steps = &self.q.steps;
        if !self.has_updates() || !steps.question_waits() {
            return None;
        }
        self.q.last_game.get(steps.at())
    }

    /// True while predict mode waits for an answer.
    pub(crate) fn question_waiting(&self) -> bool {
        self.waiting_update().is_some()
    }

    /// The question waiting, in words: the same on every screen at the same update.
    fn question(&self) -> Option<String> {
        let update = self.waiting_update()?;
        Some(predict_q::question(update, &mv_text(update.mv)))
    }

    /// The question with the answer typed so far, as the status line shows it.
    pub(crate) fn prompt(&self) -> Option<Message> {
        let question = self.question()?;
        Some(self.predict.as_ref()?.prompt(&question))
    }

    /// Moves through the stepped game's updates.
    pub(crate) fn update_step(&mut self, to: StepTo) -> Message {
        if !self.has_updates() {
            return Message::error("No game to step: s plays one");
        }
        let predicting = self.predict.is_some();
        let moved = match to {
            StepTo::Next => self.q.steps.forward(predicting),
            StepTo::Back => self.q.steps.back(),
            StepTo::End => {
                let total = self.q.steps.total();
                self.q.steps.go_to(total, predicting)
            }
        };
        self.pane = Pane::Updates;
        self.moved_words(moved, to)
    }

    /// What a move through the updates says: the question now waiting, or the update
    /// just shown with its arithmetic.
    fn moved_words(&self, moved: Moved, to: StepTo) -> Message {
        let (at, total) = (self.q.steps.at(), self.q.steps.total());
        if let Some(asked) = self.prompt() {
            return if moved == Moved::StoppedToAsk {
                Message::info(format!(
                    "Stopped at update {} of {total}: {}",
                    at + 1,
                    asked.text
                ))
            } else {
                asked
            };
        }
        match (moved, to) {
            (Moved::Clamped, StepTo::Back) => {
                Message::error("At the start: no update shown yet (Space shows the first)")
            }
            (Moved::Clamped, _) if at == total => Message::error(format!(
                "All {total} updates are shown: s plays another game"
            )),
            _ if at == 0 => Message::info(format!(
                "Update 0 of {total}: none shown yet (Space shows the first)"
            )),
            _ => {
                let update = &self.q.last_game[at - 1];
                Message::info(format!(
                    "Update {at} of {total}: {}",
                    predict_q::rule(update)
                ))
            }
        }
    }

    /// Opens the "go to update N" entry.
    pub(crate) fn goto_open(&mut self) -> Message {
        if !self.has_updates() {
            return Message::error("No game to step: s plays one");
        }
        self.goto.open();
        self.goto_prompt()
    }

    fn goto_prompt(&self) -> Message {
        let typed = self.goto.text().unwrap_or_default();
        Message::info(format!(
            "Go to update (0-{}): {typed}▏",
            self.q.steps.total()
        ))
    }

    /// A digit typed into the go-to entry.
    pub(crate) fn goto_type(&mut self, c: char) -> Message {
        self.goto
            .type_digit(c)
            .err()
            .unwrap_or_else(|| self.goto_prompt())
    }

    /// Deletes the last digit typed.
    pub(crate) fn goto_erase(&mut self) -> Message {
        self.goto.erase();
        self.goto_prompt()
    }

    /// Goes to the typed update: beyond the game it goes to the last and says so; in
    /// predict mode it stops at the first question not yet answered.
    pub(crate) fn goto_submit(&mut self) -> Message {
        let Some(read) = self.goto.submit(|text| read_step(text, "update")) else {
            return Message::error("G opens the go-to entry");
        };
        let n = match read {
            Ok(n) => n,
            Err(refused) => return refused,
        };
        let moved = self.q.steps.go_to(n, self.predict.is_some());
        self.pane = Pane::Updates;
        let total = self.q.steps.total();
        let said = self.moved_words(moved, StepTo::End);
        if moved == Moved::Clamped {
            return Message::error(format!(
                "This game has {total} updates, not {n}: at update {total}. {}",
                said.text
            ));
        }
        said
    }

    /// Turns predict mode on (asking at once if an update waits) or off (saying the score).
    pub(crate) fn toggle_predict(&mut self) -> Message {
        if let Some(predicting) = self.predict.take() {
            return predicting.turn_off(&mut self.scored_before, 'u');
        }
        self.predict = Some(Predicting::new(ANSWER_LIMIT));
        self.q.training = false;
        self.q.steps.predict_from_here();
        if self.question_waiting() {
            // The question's numbers are in the updates view.
            self.pane = Pane::Updates;
        }
        self.prompt().unwrap_or_else(|| {
            Message::info("Predict mode on: s plays a game and asks each new Q before showing it")
        })
    }

    /// Types a character of the answer.
    pub(crate) fn answer_type(&mut self, c: char) -> Message {
        let refused = self.predict.as_mut().and_then(|p| p.type_char(c).err());
        refused.unwrap_or_else(|| self.prompt().unwrap_or_else(nothing_waits))
    }

    /// Deletes the last character of the answer.
    pub(crate) fn answer_erase(&mut self) -> Message {
        if let Some(predicting) = self.predict.as_mut() {
            predicting.entry.erase();
        }
        self.prompt().unwrap_or_else(nothing_waits)
    }

    /// Checks the typed answer against the learner's own update: a right one shows the
    /// update (and asks the next); a wrong one says the rule with this update's numbers
    /// and marks the question answered, so Space shows the update. While answers are held
    /// for the teacher, a readable answer is only locked in.
    pub(crate) fn answer_submit(&mut self) -> Message {
        let Some(update) = self.waiting_update().copied() else {
            return nothing_waits();
        };
        let hold = self.hold_answers;
        let Some(predicting) = self.predict.as_mut() else {
            return Message::error("Predict mode is off: u turns it on");
        };
        let given = match predicting.submit(predict_q::read, hold) {
            Ok(given) => given,
            Err(said) => return said,
        };
        let grade = predict_q::grade(&update, given);
        predicting.count(grade.mistake.is_none());
        self.q.steps.answer();
        let words = grade.words(&update);
        if grade.mistake.is_some() {
            self.feedback = Some((self.q.steps.at(), words.clone()));
            return Message::error(format!("{words}. Space shows it"));
        }
        self.q.steps.forward(true);
        match self.prompt() {
            Some(next) => Message::info(format!("Right. {}", next.text)),
            None => Message::info(words),
        }
    }

    /// The question waiting and the answer locked in, for the lesson and the room.
    pub(crate) fn asked(&self) -> Option<OpenQuestion> {
        let id = QuestionId {
            stepper: "Q-learning",
            position: self.q.trainer.as_ref().map_or(0, |t| t.games as u64),
            step: self.q.steps.at() as u64,
            kind: "Q update",
            node: 0,
        };
        Some(self.predict.as_ref()?.open_question(id, self.question()?))
    }

    /// The teacher's reveal: the held answer graded and counted, or with none the right
    /// one shown uncounted; the question counts as answered either way.
    pub(crate) fn reveal(&mut self) -> Option<Message> {
        let update = *self.waiting_update()?;
        let predicting = self.predict.as_mut()?;
        let given = predicting.take_held(predict_q::read);
        self.q.steps.answer();
        let Some(given) = given else {
            let words = format!("Revealed: {}", predict_q::rule(&update));
            self.feedback = Some((self.q.steps.at(), words.clone()));
            return Some(Message::info(words));
        };
        let grade = predict_q::grade(&update, given);
        let words = format!("Revealed. {}", grade.words(&update));
        self.feedback = Some((self.q.steps.at(), words.clone()));
        Some(predicting.graded(grade.mistake.is_none(), words))
    }

    /// Every graded prediction of the session.
    pub(crate) fn predicted(&self) -> Score {
        session_score(self.predict.as_ref(), self.scored_before)
    }
}
