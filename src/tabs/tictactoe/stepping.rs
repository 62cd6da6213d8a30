//! Stepping the search shown: the step commands (step, over, out, back, run to the end) on
//! a minimax or alpha-beta tree or on a stepped MCTS, stopping where predict mode asks;
//! autoplay, which steps by itself at a speed of its own; and playing the move the stepped
//! search chose.

use super::settings::AUTOPLAY_MS_RANGE;
use super::state::{Focus, GameKind, StepCommand, TicTacToeTab};
use crate::components::mcts_search::step::{self as mcts_step, Stepping};
use crate::components::tree_search::explain::describe_last_event;
use crate::components::tree_search::predict::prompt;
use crate::components::tree_search::{Playable, SearchView};
use crate::domain::search::{EventKind, NodeId};
use crate::frame::message::Message;
use std::time::{Duration, Instant};

impl TicTacToeTab {
    /// Runs a step-machine command on the shown search.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn step(&mut self, command: StepCommand) -> Option<Message> {
        self.autoplay = false;
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
        Some(crate::shown_mut!(self, |game| Self::step_view(
            game.search.as_mut(),
            command,
            predicting
        )))
    }

    fn step_view<G: Playable>(
        view: Option<&mut SearchView<G>>,
        command: StepCommand,
        predicting: bool,
    ) -> Message {
        let Some(view) = view else {
            return Message::error(
                "No search to step yet: t searches your position, m steps the AI's",
            );
        };
        if predicting && command != StepCommand::Back {
            if let Some(question) = view.waiting() {
                return prompt(view, question, "");
            }
            if matches!(
                command,
                StepCommand::Over | StepCommand::Out | StepCommand::RunToEnd
            ) && !view.stepper.is_finished()
            {
                Self::run_asking(view, command);
                return Self::stepped(view, command, predicting);
            }
        }
        let stepper = &mut view.stepper;
        match command {
            StepCommand::Step if stepper.is_finished() => {
                return Message::info("The search is finished: b steps back");
            }
            StepCommand::Back if stepper.events_taken() == 0 => {
                return Message::info("At the start of the search");
            }
            StepCommand::Step => {
                stepper.step();
            }
            StepCommand::Over => stepper.step_over(),
            StepCommand::Out => stepper.step_out(),
            StepCommand::Back => {
                stepper.step_back();
                // A question stepped back to is asked again.
                view.answered = None;
            }
            StepCommand::RunToEnd => stepper.run_to_end(),
        }
        Self::stepped(view, command, predicting)
    }

    /// What a step command says once taken: the question now waiting in predict mode (the
    /// event's own words would give the answer away), or else the last event in words.
    fn stepped<G: Playable>(
        view: &mut SearchView<G>,
        command: StepCommand,
        predicting: bool,
    ) -> Message {
        view.tree.follow = true;
        view.sync_cursor();
        if predicting && let Some(question) = view.waiting() {
            return prompt(view, question, "");
        }
        let text = describe_last_event(view);
        Message::info(if command == StepCommand::Back {
            format!("Stepped back. Before that: {text}")
        } else {
            text
        })
    }

    /// Step over, step out or run to the end in predict mode: the same events as the
    /// stepper's own commands, stopping early where a question waits.
    fn run_asking<G: Playable>(view: &mut SearchView<G>, command: StepCommand) {
        let stepper = &view.stepper;
        let until: Option<NodeId> = match command {
            StepCommand::Over => stepper
                .peek()
                .filter(|e| e.kind == EventKind::Enter && !stepper.nodes().is_empty())
                .map(|e| e.node),
            StepCommand::Out => stepper.current(),
            _ => None,
        };
        // Over with no child to enter, and out before the root, are a single step.
        let single = command != StepCommand::RunToEnd && until.is_none();
        if view.stepper.step().is_none() || single {
            return;
        }
        while view.waiting().is_none()
            && until.is_none_or(|id| !view.stepper.node(id).is_done())
            && view.stepper.step().is_some()
        {}
    }

    /// One autoplay tick: one step when its interval is up; autoplay stops at the end.
    /// `None` when autoplay is off or not due (nothing to redraw); otherwise what the step did.
    pub(crate) fn autoplay_step(&mut self) -> Option<Message> {
        if !self.autoplay || self.last_autoplay.elapsed() < self.autoplay_interval {
            return None;
        }
        self.autoplay_now()
    }

    /// One autoplay step now, whatever the clock says (a replay of one that was taken).
    pub(crate) fn autoplay_now(&mut self) -> Option<Message> {
        if !self.autoplay {
            return None;
        }
        self.last_autoplay = Instant::now();
        let predicting = self.predict.is_some();
        let (message, finished) = if self.has_mcts() {
            crate::shown_mut!(self, |game| mcts_step::autoplay_step(
                game.mcts.as_mut(),
                predicting
            ))
        } else {
            crate::shown_mut!(self, |game| Self::tick_view(
                game.search.as_mut(),
                predicting
            ))
        };
        if finished {
            self.autoplay = false;
        }
        Some(message)
    }

    /// One autoplay step; in predict mode autoplay stops where a question waits.
    fn tick_view<G: Playable>(
        view: Option<&mut SearchView<G>>,
        predicting: bool,
    ) -> (Message, bool) {
        let Some(view) = view else {
            return (Message::error("No search to play"), true);
        };
        if predicting && let Some(question) = view.waiting() {
            return (prompt(view, question, ""), true);
        }
        view.stepper.step();
        view.tree.follow = true;
        view.sync_cursor();
        if predicting && let Some(question) = view.waiting() {
            return (prompt(view, question, ""), true);
        }
        let message = Message::info(describe_last_event(view));
        let stops = view.stepper.is_finished() || view.stepper.at_node_limit();
        (message, stops)
    }

    /// Starts or pauses autoplay.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn toggle_autoplay(&mut self) -> Option<Message> {
        if !self.has_search() && !self.live_mcts() {
            return Some(Message::error(
                "No search to play: t searches your position, m steps the AI's",
            ));
        }
        if !self.autoplay && self.search_finished() {
            return Some(Message::info("The search is finished: b steps back"));
        }
        self.autoplay = !self.autoplay;
        Some(Message::info(if self.autoplay {
            "Autoplay: the search steps by itself (p pauses)"
        } else {
            "Autoplay paused"
        }))
    }

    /// Plays the AI move the stepped search chose (finishing the search first).
    pub(crate) fn play_search_move(&mut self) -> Option<Message> {
        self.autoplay = false;
        let message = crate::shown_mut!(self, |game| game.play_search_move());
        if message.is_some() {
            self.focus = Focus::Board;
        }
        message.or_else(|| Some(Message::error("No AI move is waiting")))
    }

    /// Autoplay twice as fast or half as fast, within the config's bounds.
    pub(crate) fn change_autoplay_speed(&mut self, faster: bool) -> Message {
        let ms = self.autoplay_interval.as_millis() as u64;
        let ms = if faster { ms / 2 } else { ms * 2 };
        let ms = ms.clamp(*AUTOPLAY_MS_RANGE.start(), *AUTOPLAY_MS_RANGE.end());
        self.autoplay_interval = Duration::from_millis(ms);
        Message::info(format!(
            "Autoplay speed: {} (one step every {ms} ms; + faster, - slower)",
            self.autoplay_speed()
        ))
    }

    /// Autoplay's pace in steps a second, as the screen shows it (`4/s`, `0.5/s`).
    pub(crate) fn autoplay_speed(&self) -> String {
        let per_second = 1000.0 / self.autoplay_interval.as_millis().max(1) as f64;
        if per_second >= 10.0 || per_second.fract() == 0.0 {
            format!("{per_second:.0}/s")
        } else {
            format!("{per_second:.1}/s")
        }
    }
}
