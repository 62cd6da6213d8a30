//! Predict mode's keys on the Connect Four tab: on and off, typing, checking and the
//! teacher's reveal (the answer and its grading are `predict.rs`'s and the domain's). Apart
//! from `predict.rs` so the state, which holds a `Predicting`, is not imported back.

use super::predict::{
    ANSWER_LIMIT, Predicting, grade_now, pick_now, pick_words, question, read_column,
};
use super::state::Connect4Tab;
use crate::components::tree_search::explain::node_name;
use crate::components::tree_search::predict::{
    limit_for, prompt, reveal_in, submit_in, takes_char,
};
use crate::domain::prediction::Score;
use crate::domain::search::mcts::asks_pick;
use crate::domain::search::predict::Question;
use crate::frame::message::Message;
use crate::frame::tab::{Asking, QuestionId};

impl Connect4Tab {
    /// True while predict mode is on and a stepped search waits for an answer: MCTS's
    /// pick, or alpha-beta's value, cut-off or pruned children.
    pub(crate) fn question_waiting(&self) -> bool {
        if self.tree_question().is_some() {
            return true;
        }
        let (Some(predicting), Some(stepper)) = (&self.predict, &self.stepping) else {
            return false;
        };
        asks_pick(stepper)
            && stepper.mcts().iterations() < self.config.iterations
            && pick_now(stepper, predicting).is_some()
    }

    /// The question waiting, in words.
    fn question_now(&self) -> Option<String> {
        let (Some(predicting), Some(stepper)) = (&self.predict, &self.stepping) else {
            return None;
        };
        if !self.question_waiting() {
            return None;
        }
        pick_now(stepper, predicting).map(|pick| question(stepper, &pick))
    }

    /// The stepped alpha-beta's question waiting, in predict mode.
    pub(crate) fn tree_question(&self) -> Option<Question> {
        self.predict.as_ref()?;
        self.tree_search
            .as_ref()
            .filter(|view| view.live)?
            .waiting()
    }

    /// The question waiting, with the answer typed so far.
    pub(crate) fn pick_prompt(&self) -> Option<Message> {
        let typed = self.predict.as_ref()?.quiz.entry.text();
        if let Some(question) = self.tree_question() {
            return Some(prompt(self.tree_search.as_ref()?, question, typed));
        }
        self.question_now()
            .map(|asked| Message::info(format!("{asked} {typed}▏")))
    }

    /// `P`: predict mode on (asking at once if a pick waits) or off (saying the score).
    pub(crate) fn toggle_predict(&mut self) -> Message {
        if let Some(predicting) = self.predict.take() {
            let Score { right, asked } = predicting.quiz.score;
            self.scored_before = self.scored_before.plus(predicting.quiz.score);
            return Message::info(format!(
                "Predict mode off: {right} of {asked} right. P turns it on again"
            ));
        }
        self.predict = Some(Predicting::new());
        self.pick_prompt().unwrap_or_else(|| {
            Message::info(
                "Predict mode on: stepping stops to ask before a value, a cut-off or a pick",
            )
        })
    }

    /// Types a character of the answer.
    pub(crate) fn answer_type(&mut self, c: char) -> Option<Message> {
        if let Some(question) = self.tree_question()
            && !takes_char(question, c)
        {
            let mut asked = self.pick_prompt()?;
            asked.text = format!("Answer first: {}", asked.text);
            return Some(asked);
        }
        let limit = self.tree_question().map_or(ANSWER_LIMIT, limit_for);
        let entry = &mut self.predict.as_mut()?.quiz.entry;
        if entry.text().chars().count() >= limit || !entry.push(c) {
            return Some(Message::error(if limit == ANSWER_LIMIT {
                "One column is the answer: Enter checks it"
            } else {
                "That is as long as an answer gets: Enter checks it"
            }));
        }
        self.pick_prompt()
    }

    /// Deletes the answer typed.
    pub(crate) fn answer_erase(&mut self) -> Option<Message> {
        self.predict.as_mut()?.quiz.entry.erase();
        self.pick_prompt()
    }

    /// Enter: grades the typed column against the search's next pick; a right one runs
    /// the selection, a wrong one says the rule and leaves the step to show the pick.
    pub(crate) fn answer_submit(&mut self) -> Option<Message> {
        if self.tree_question().is_some() {
            let hold = self.hold_answers;
            let predicting = &mut self.predict.as_mut()?.quiz;
            return Some(submit_in(self.tree_search.as_mut(), predicting, hold));
        }
        if !self.question_waiting() {
            return Some(Message::info("No prediction waits: Space steps on"));
        }
        let hold = self.hold_answers;
        let (predicting, stepper) = (self.predict.as_mut()?, self.stepping.as_mut()?);
        let pick = pick_now(stepper, predicting)?;
        let at = stepper.mcts().position(pick.node);
        let mv = match predicting.quiz.entry.submit(|text| read_column(&at, text)) {
            Ok(mv) => mv,
            Err(refused) => return Some(refused),
        };
        let typed = predicting.quiz.entry.text().trim().to_string();
        predicting.quiz.clear_entry();
        if hold {
            let said = format!("Your answer {typed} is in: the teacher reveals it to everyone");
            predicting.quiz.held = Some(typed);
            return Some(Message::info(said));
        }
        Some(grade_now(stepper, predicting, &pick, mv))
    }

    /// The question waiting and the answer held, for the lesson and the room.
    pub(crate) fn asked(&self) -> Option<Asking> {
        let predicting = self.predict.as_ref()?;
        if let Some(question) = self.tree_question() {
            let stepper = &self.tree_search.as_ref()?.stepper;
            return Some(Asking {
                id: QuestionId {
                    stepper: "Connect Four alpha-beta",
                    position: stepper.root().key(),
                    step: stepper.events_taken() as u64,
                    kind: question.kind(),
                    node: u64::from(question.node()),
                },
                question: question.text(stepper, &|id| node_name(stepper, id)),
                held: predicting.quiz.held.clone(),
                typed: predicting.quiz.entry.text().to_string(),
            });
        }
        let (stepper, pick) = (
            self.stepping.as_ref()?,
            pick_now(self.stepping.as_ref()?, predicting)?,
        );
        Some(Asking {
            id: QuestionId {
                stepper: "Connect Four MCTS",
                position: stepper.mcts().root_position().key(),
                step: stepper.phases(),
                kind: "pick",
                node: pick.node as u64,
            },
            question: self.question_now()?,
            held: predicting.quiz.held.clone(),
            typed: predicting.quiz.entry.text().to_string(),
        })
    }

    /// The teacher's reveal: the held answer graded and counted (with none, the pick
    /// shown, uncounted); the question is answered either way.
    pub(crate) fn reveal_pick(&mut self) -> Option<Message> {
        if self.tree_question().is_some() {
            let predicting = &mut self.predict.as_mut()?.quiz;
            return reveal_in(self.tree_search.as_mut(), predicting);
        }
        if !self.question_waiting() {
            return None;
        }
        let (predicting, stepper) = (self.predict.as_mut()?, self.stepping.as_mut()?);
        let pick = pick_now(stepper, predicting)?;
        let at = stepper.mcts().position(pick.node);
        predicting.mark_answered(stepper);
        predicting.quiz.clear_entry();
        let given = predicting
            .quiz
            .held
            .take()
            .and_then(|text| read_column(&at, &text).ok());
        let (right, words) = pick_words(&pick, given.unwrap_or(pick.chosen));
        let Some(_) = given else {
            return Some(Message::info(format!(
                "Revealed: {}",
                words.trim_start_matches("Right: ")
            )));
        };
        predicting.quiz.count(right);
        let said = format!("Revealed. {words}");
        Some(if right {
            Message::info(said)
        } else {
            Message::error(said)
        })
    }
}
