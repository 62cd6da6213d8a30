//! The step keys on a stepped minimax or alpha-beta search: one event, over the next
//! child's subtree, out of this node, back one event, on to the end; and autoplay's step.
//! In predict mode every step forward stops where a question waits, so stepping over or
//! running on never skips one.

use super::explain::describe_last_event;
use super::predict::prompt;
use super::{Playable, SearchView};
use crate::domain::search::{EventKind, NodeId};
use crate::tabkit::message::Message;

/// A step-machine command from the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepCommand {
    /// One event.
    Step,
    /// The next child's whole subtree.
    Over,
    /// Finish the current node.
    Out,
    /// Undo one event.
    Back,
    /// Every event left.
    RunToEnd,
}

/// Runs `command` on the search shown; what the status line says.
pub fn step<G: Playable>(
    view: Option<&mut SearchView<G>>,
    command: StepCommand,
    predicting: bool,
) -> Message {
    let Some(view) = view else {
        return Message::error("No search to step yet: t searches your position, m steps the AI's");
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
            run_asking(view, command);
            return stepped(view, command, predicting);
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
    stepped(view, command, predicting)
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

/// One autoplay step; in predict mode autoplay stops where a question waits.
pub fn autoplay_step<G: Playable>(
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
