//! "Go to step N" on the steppers (`G`, issue 15 §5): an event of the stepped alpha-beta,
//! a phase of the stepped MCTS (each its component's go-to). Forward and backward
//! both go through the stepper's own replay, so a step number always shows the same tree;
//! a step past the planned iterations stops at their end and says so.

use super::state::Connect4Tab;
use crate::components::mcts_search::goto::{go_mcts, mcts_count};
use crate::components::tree_search::goto::{go_search, search_count};
use crate::tabkit::facts::Facts;
use crate::tabkit::goto;
use crate::tabkit::message::Message;
use crate::tabkit::side::Side;
use crate::tabkit::tab::position_key;

impl Connect4Tab {
    /// What the game on screen and its steppers have done, for a lesson step's gate.
    pub(crate) fn lesson_facts(&self) -> Facts {
        let live_search = self.tree_search.as_ref().filter(|view| view.live);
        Facts {
            ai_moves: self.turns.iter().filter(|turn| turn.by == Side::Ai).count() as u64,
            over: self.board.is_won() || self.board.is_over(),
            steps: self.step_count().map_or(0, |(at, _)| at),
            cut_offs: live_search.map_or(0, |view| view.stepper.stats().cutoffs),
            position: Some(position_key(&self.board)),
            curve: None,
        }
    }

    /// The stepper's counter: the stepped alpha-beta's events, or the stepped MCTS's
    /// phases (four an iteration).
    pub(crate) fn step_count(&self) -> Option<(u64, Option<u64>)> {
        if let Some(view) = self.tree_search.as_ref().filter(|view| view.live) {
            return Some(search_count(view));
        }
        self.stepping.as_ref().map(mcts_count)
    }

    /// `G`: opens the "Go to step" entry.
    pub(crate) fn goto_open(&mut self) -> Message {
        let count = self.step_count();
        self.goto
            .open_at(count, "No stepped search: m turns step mode on")
    }

    /// Types a digit of the step.
    pub(crate) fn goto_type(&mut self, c: char) -> Option<Message> {
        let count = self.step_count();
        self.goto.type_at(c, count)
    }

    /// Deletes the last digit typed.
    pub(crate) fn goto_erase(&mut self) -> Option<Message> {
        let count = self.step_count();
        self.goto.erase_at(count)
    }

    /// Enter: goes to the step typed, clamped to the planned phases.
    pub(crate) fn goto_submit(&mut self) -> Option<Message> {
        let target = match self.goto.submit(goto::read)? {
            Ok(target) => target,
            Err(refused) => return Some(refused),
        };
        let predicting = self.predict.is_some();
        if let Some(view) = self.tree_search.as_mut().filter(|view| view.live) {
            return Some(go_search(view, target, predicting));
        }
        Some(go_mcts(self.stepping.as_mut()?, target, predicting))
    }
}
