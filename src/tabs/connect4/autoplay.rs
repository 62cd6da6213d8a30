//! Autoplay on the tab's steppers (`p`, `+`/`-`), as on the Tic-tac-toe tab: the stepped
//! alpha-beta steps an event a tick, the stepped MCTS a phase, each through its
//! component's autoplay step (which stops where predict mode asks), until the search ends.

use super::state::Connect4Tab;
use crate::components::mcts_search::step as mcts_step;
use crate::components::tree_search::step as tree_step;
use crate::tabkit::message::Message;

impl Connect4Tab {
    /// Whether a stepped search waits: what autoplay steps.
    fn steps_by_itself(&self) -> bool {
        self.tree_search_waits() || self.stepping.is_some()
    }

    /// `p`: autoplay on or off.
    pub(crate) fn toggle_autoplay(&mut self) -> Message {
        if !self.autoplay.on && !self.steps_by_itself() {
            return Message::error("No stepped search to play: m turns step mode on");
        }
        self.autoplay.toggle()
    }

    /// One autoplay step when its interval is up: what it did, `None` when none was due.
    pub(crate) fn autoplay_step(&mut self) -> Option<Message> {
        if !self.autoplay.due() {
            return None;
        }
        self.autoplay_now()
    }

    /// One autoplay step now, whatever the clock says (a replay of one that was taken).
    pub(crate) fn autoplay_now(&mut self) -> Option<Message> {
        if !self.autoplay.on {
            return None;
        }
        if !self.steps_by_itself() {
            // The search was played or given up: nothing is left to step.
            self.autoplay.on = false;
            return None;
        }
        self.autoplay.stepped();
        let predicting = self.predict.is_some();
        let (message, finished) = match self.tree_search.as_mut().filter(|view| view.live) {
            Some(view) => tree_step::autoplay_step(Some(view), predicting),
            None => mcts_step::autoplay_step(self.stepping.as_mut(), predicting),
        };
        if finished {
            self.autoplay.on = false;
        }
        Some(message)
    }
}
