//! Predict mode's keys on the Connect Four tab: on and off, typing, checking and the
//! teacher's reveal. The questions and their grading are the components': the tree-search
//! stepper's for alpha-beta, the MCTS stepper's picks (`mcts_search::pick`).

use super::state::Connect4Tab;
use crate::components::mcts_search::MctsView;
use crate::components::mcts_search::pick::{pick_prompt, pick_question, reveal_pick, submit_pick};
use crate::components::tree_search::explain::node_name;
use crate::components::tree_search::predict::{
    limit_for, prompt, quiz, reveal_in, submit_in, takes_char,
};
use crate::domain::search::predict::Question;
use crate::tabkit::message::Message;
use crate::tabkit::tab::{OpenQuestion, QuestionId};

/// The longest answer to an MCTS pick: one column.
const PICK_LIMIT: usize = 1;

impl Connect4Tab {
    /// True while predict mode is on and a stepped search waits for an answer: MCTS's
    /// pick, or alpha-beta's value, cut-off or pruned children.
    pub(crate) fn question_waiting(&self) -> bool {
        self.tree_question().is_some() || self.pick_waiting()
    }

    /// Whether the stepped MCTS waits for a pick, in predict mode.
    fn pick_waiting(&self) -> bool {
        self.predict.is_some() && self.stepping.as_ref().is_some_and(MctsView::pick_waiting)
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
        let typed = self.predict.as_ref()?.entry.text();
        if let Some(question) = self.tree_question() {
            return Some(prompt(self.tree_search.as_ref()?, question, typed));
        }
        let view = self.stepping.as_ref().filter(|_| self.pick_waiting())?;
        Some(pick_prompt(view, typed))
    }

    /// `P`: predict mode on (asking at once if a pick waits) or off (saying the score).
    pub(crate) fn toggle_predict(&mut self) -> Message {
        if let Some(predicting) = self.predict.take() {
            return predicting.turn_off(&mut self.scored_before, 'P');
        }
        self.predict = Some(quiz());
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
        let limit = self.tree_question().map_or(PICK_LIMIT, limit_for);
        let entry = &mut self.predict.as_mut()?.entry;
        if entry.text().chars().count() >= limit || !entry.push(c) {
            return Some(Message::error(if limit == PICK_LIMIT {
                "One column is the answer: Enter checks it"
            } else {
                "That is as long as an answer gets: Enter checks it"
            }));
        }
        self.pick_prompt()
    }

    /// Deletes the answer typed.
    pub(crate) fn answer_erase(&mut self) -> Option<Message> {
        self.predict.as_mut()?.entry.erase();
        self.pick_prompt()
    }

    /// Enter: grades the typed answer against the stepped search's next event or pick.
    pub(crate) fn answer_submit(&mut self) -> Option<Message> {
        let hold = self.hold_answers;
        let predicting = self.predict.as_mut()?;
        if self.tree_search.as_ref().is_some_and(|view| view.live) {
            return Some(submit_in(self.tree_search.as_mut(), predicting, hold));
        }
        Some(match self.stepping.as_mut() {
            Some(view) => submit_pick(view, predicting, hold),
            None => Message::info("No prediction waits: Space steps on"),
        })
    }

    /// The question waiting and the answer held, for the lesson and the room.
    pub(crate) fn asked(&self) -> Option<OpenQuestion> {
        let predicting = self.predict.as_ref()?;
        let (id, question) = if let Some(question) = self.tree_question() {
            let stepper = &self.tree_search.as_ref()?.stepper;
            let id = QuestionId {
                stepper: "Connect Four alpha-beta",
                position: stepper.root().key(),
                step: stepper.events_taken() as u64,
                kind: question.kind(),
                node: u64::from(question.node()),
            };
            (id, question.text(stepper, &|id| node_name(stepper, id)))
        } else {
            let view = self.stepping.as_ref()?;
            let pick = view.pick_now()?;
            let id = QuestionId {
                stepper: "Connect Four MCTS",
                position: view.stepper.mcts().root_position().key(),
                step: view.stepper.phases(),
                kind: "pick",
                node: pick.node as u64,
            };
            (id, pick_question(view))
        };
        Some(predicting.open_question(id, question))
    }

    /// The teacher's reveal: the held answer graded and counted (with none, the right
    /// answer shown, uncounted); the question is answered either way.
    pub(crate) fn reveal_pick(&mut self) -> Option<Message> {
        let predicting = self.predict.as_mut()?;
        if self.tree_search.as_ref().is_some_and(|view| view.live) {
            return reveal_in(self.tree_search.as_mut(), predicting);
        }
        reveal_pick(self.stepping.as_mut()?, predicting)
    }
}
