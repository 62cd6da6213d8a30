//! Predict mode's keys on the tab: turning it on and off, typing, erasing and checking an
//! answer (the answer and the score are `predict.rs`'s, the grading the domain's). Apart
//! from `predict.rs` so the state, which holds a `Predicting`, is not imported back.

use super::state::{GameKind, TicTacToeTab};
use crate::components::mcts_search::MctsView;
use crate::components::mcts_search::pick::{pick_prompt, pick_question, reveal_pick, submit_pick};
use crate::components::tree_search::SearchView;
use crate::components::tree_search::explain::node_name;
use crate::components::tree_search::predict::{
    ANSWER_LIMIT, limit_for, prompt, quiz, reveal_in, submit_in, takes_char,
};
use crate::domain::prediction::Score;
use crate::domain::search::predict::Question;
use crate::tabkit::message::Message;
use crate::tabkit::tab::{OpenQuestion, QuestionId, position_key};

impl TicTacToeTab {
    /// True while predict mode is on and the search shown waits for an answer.
    pub(crate) fn question_waiting(&self) -> bool {
        self.predict.is_some()
            && crate::shown!(self, |game| game
                .search
                .as_ref()
                .is_some_and(|view| view.waiting().is_some())
                || game.mcts.as_ref().is_some_and(MctsView::pick_waiting))
    }

    /// The question waiting, with the answer typed so far, as the status line shows it.
    fn open_question(&self) -> Option<Message> {
        let typed = self.predict.as_ref()?.entry.text();
        crate::shown!(self, |game| game
            .search
            .as_ref()
            .and_then(|view| view.waiting().map(|q| prompt(view, q, typed)))
            .or_else(|| game
                .mcts
                .as_ref()
                .filter(|view| view.pick_waiting())
                .map(|view| pick_prompt(view, typed))))
    }

    /// Turns predict mode on (asking at once if a question waits) or off (saying the score).
    pub(crate) fn toggle_predict(&mut self) -> Message {
        if let Some(predicting) = self.predict.take() {
            let Score { right, asked } = predicting.score;
            self.scored_before = self.scored_before.plus(predicting.score);
            return Message::info(format!(
                "Predict mode off: {right} of {asked} right. P turns it on again"
            ));
        }
        self.predict = Some(quiz());
        self.autoplay.on = false;
        match self.open_question() {
            Some(asked) => asked,
            None => Message::info(
                "Predict mode on: stepping stops to ask before a value, a cut-off or a pick",
            ),
        }
    }

    /// The question waiting on the minimax / alpha-beta stepper, if one does.
    pub(crate) fn search_question(&self) -> Option<Question> {
        self.predict.as_ref()?;
        crate::shown!(self, |game| game
            .search
            .as_ref()
            .and_then(SearchView::waiting))
    }

    /// Types a character of the answer (a list of children is longer than a value).
    pub(crate) fn answer_type(&mut self, c: char) -> Message {
        if let Some(question) = self.search_question()
            && !takes_char(question, c)
            && let Some(mut asked) = self.open_question()
        {
            asked.text = format!("Answer first: {}", asked.text);
            return asked;
        }
        let limit = self.search_question().map_or(ANSWER_LIMIT, limit_for);
        if let Some(predicting) = self.predict.as_mut()
            && (predicting.entry.text().chars().count() >= limit || !predicting.entry.push(c))
        {
            return Message::error("That is as long as an answer gets: Enter checks it");
        }
        self.open_question()
            .unwrap_or_else(|| Message::info("No prediction waits: Space steps on"))
    }

    /// Deletes the last character of the answer.
    pub(crate) fn answer_erase(&mut self) -> Option<Message> {
        self.predict.as_mut()?.entry.erase();
        self.open_question()
    }

    /// Checks the answer typed.
    pub(crate) fn answer_submit(&mut self) -> Message {
        let Some(predicting) = self.predict.as_mut() else {
            return Message::error("Predict mode is off: P turns it on");
        };
        let hold = self.hold_answers;
        crate::shown_mut!(self, |game| match game.mcts.as_mut() {
            Some(view) => submit_pick(view, predicting, hold),
            None => submit_in(game.search.as_mut(), predicting, hold),
        })
    }

    /// The question waiting and the answer locked in, for the lesson and the room.
    pub(crate) fn asked(&self) -> Option<OpenQuestion> {
        let predicting = self.predict.as_ref()?;
        let question = crate::shown!(self, |game| game
            .search
            .as_ref()
            .and_then(|view| {
                let question = view.waiting()?;
                let stepper = &view.stepper;
                let id = QuestionId {
                    stepper: stepper.algorithm().name(),
                    position: position_key(stepper.root()),
                    step: stepper.events_taken() as u64,
                    kind: question.kind(),
                    node: u64::from(question.node()),
                };
                Some((id, question.text(stepper, &|id| node_name(stepper, id))))
            })
            .or_else(|| game
                .mcts
                .as_ref()
                .filter(|view| view.pick_waiting())
                .map(|view| {
                    let id = QuestionId {
                        stepper: "MCTS",
                        position: position_key(view.stepper.mcts().root_position()),
                        step: view.stepper.phases(),
                        kind: "pick",
                        node: view.pick_now().map_or(0, |pick| pick.node as u64),
                    };
                    (id, pick_question(view))
                })))?;
        let (id, question) = question;
        Some(OpenQuestion {
            id,
            question,
            held: predicting.held.clone(),
            typed: predicting.entry.text().to_string(),
        })
    }

    /// The teacher's reveal of the question waiting.
    pub(crate) fn reveal(&mut self) -> Option<Message> {
        let predicting = self.predict.as_mut()?;
        crate::shown_mut!(self, |game| match game.mcts.as_mut() {
            Some(view) => reveal_pick(view, predicting),
            None => reveal_in(game.search.as_mut(), predicting),
        })
    }
}
