//! Stepping the search shown: the step commands (step, over, out, back, run to the end) on
//! a minimax or alpha-beta tree or on a stepped MCTS, stopping where predict mode asks;
//! autoplay, which steps by itself at a speed of its own; and playing the move the stepped
//! search chose.

use super::state::{Focus, GameKind, TicTacToeTab};
use crate::components::mcts_search::step::{self as mcts_step, Stepping};
use crate::components::tree_search::step::{self as tree_step, StepCommand};
use crate::tabkit::message::Message;

impl TicTacToeTab {
    /// Runs a step-machine command on the shown search.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn step(&mut self, command: StepCommand) -> Option<Message> {
        self.autoplay.on = false;
        let predicting = self.predict.is_some();
        if self.has_mcts() {
            let command = match command {
                StepCommand::Step => Stepping::Phase,
                StepCommand::Over | StepCommand::Out => Stepping::Iteration,
                StepCommand::Back => Stepping::Back,
                StepCommand::RunToEnd => Stepping::ToEnd,
            };
            return Some(crate::shown_mut!(self, |game| mcts_step::step(
                game.mcts.as_mut(),
                command,
                predicting
            )));
        }
        Some(crate::shown_mut!(self, |game| tree_step::step(
            game.search.as_mut(),
            command,
            predicting
        )))
    }

    /// One autoplay tick: one step when its interval is up; autoplay stops at the end.
    /// `None` when autoplay is off or not due (nothing to redraw); otherwise what the step did.
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
        self.autoplay.stepped();
        let predicting = self.predict.is_some();
        let (message, finished) = if self.has_mcts() {
            crate::shown_mut!(self, |game| mcts_step::autoplay_step(
                game.mcts.as_mut(),
                predicting
            ))
        } else {
            crate::shown_mut!(self, |game| tree_step::autoplay_step(
                game.search.as_mut(),
                predicting
            ))
        };
        if finished {
            self.autoplay.on = false;
        }
        Some(message)
    }

    /// Starts or pauses autoplay.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn toggle_autoplay(&mut self) -> Option<Message> {
        if !self.has_search() && !self.live_mcts() {
            return Some(Message::error(
                "No search to play: t searches your position, m steps the AI's",
            ));
        }
        if !self.autoplay.on && self.search_finished() {
            return Some(Message::info("The search is finished: b steps back"));
        }
        Some(self.autoplay.toggle())
    }

    /// Plays the AI move the stepped search chose (finishing the search first).
    pub(crate) fn play_search_move(&mut self) -> Option<Message> {
        self.autoplay.on = false;
        let message = crate::shown_mut!(self, |game| game.play_search_move());
        if message.is_some() {
            self.focus = Focus::Board;
        }
        message.or_else(|| Some(Message::error("No AI move is waiting")))
    }
}
