//! The step keys on a stepped search (MCTS, PUCT): a phase, the rest of a round, back a
//! phase, on to the end; and autoplay's step. In predict mode a pick waiting stops every step
//! forward, and running on stops an iteration on, at the next pick.

use super::pick::pick_prompt;
use super::search::SteppedSearch;
use super::view::SteppedView;
use crate::components::autoplay::Autoplay;
use crate::components::tree_search::Playable;
use crate::tabkit::message::Message;

/// What a step key asks of the stepped search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stepping {
    /// One phase (selection, expansion, simulation or backpropagation).
    Phase,
    /// The rest of the iteration under way.
    Iteration,
    /// Back one phase.
    Back,
    /// Every iteration left (in predict mode: on to the next pick).
    ToEnd,
}

/// Runs `command` on the stepped search; what the status line says. A search that is only
/// the record of a move played is not stepped.
pub fn step<S: SteppedSearch>(
    view: Option<&mut SteppedView<S>>,
    command: Stepping,
    predicting: bool,
) -> Message
where
    S::Game: Playable,
{
    let Some(view) = view.filter(|v| v.live) else {
        return Message::error(format!(
            "This {} search is the record of a move played: m steps the AI's next one",
            S::NAME
        ));
    };
    let pick_open = |view: &SteppedView<S>| predicting && view.pick_waiting();
    match command {
        Stepping::Back => {
            if !view.stepper.step_back() {
                return Message::info("At the start of the search");
            }
            // A pick stepped back to is asked again.
            view.answered = None;
            view.follow();
            if pick_open(view) {
                return pick_prompt(view, "");
            }
            return Message::info(format!("Stepped back. {}", view.said()));
        }
        _ if pick_open(view) => return pick_prompt(view, ""),
        _ if view.is_finished() => return Message::info(view.finished_said()),
        Stepping::Phase => view.stepper.step(),
        // In predict mode running on stops at the next pick, an iteration on.
        Stepping::ToEnd if !predicting => view.finish(),
        Stepping::Iteration | Stepping::ToEnd => {
            view.stepper.run_rounds(1);
        }
    }
    view.follow();
    if pick_open(view) {
        return pick_prompt(view, "");
    }
    Message::info(view.said())
}

/// One phase of the stepped MCTS; autoplay stops once every iteration is done.
pub fn autoplay_step<S: SteppedSearch>(
    view: Option<&mut SteppedView<S>>,
    predicting: bool,
) -> (Message, bool)
where
    S::Game: Playable,
{
    let Some(view) = view.filter(|v| v.live && !v.is_finished()) else {
        return (Message::error("No search to play"), true);
    };
    if predicting && view.pick_waiting() {
        return (pick_prompt(view, ""), true);
    }
    view.stepper.step();
    view.follow();
    if predicting && view.pick_waiting() {
        return (pick_prompt(view, ""), true);
    }
    (Message::info(view.said()), view.is_finished())
}

/// Autoplay's step on the stepped search now, whatever the clock says: `None` while
/// autoplay is off; autoplay stops once no search waits or every round is done.
pub fn autoplay_now<S: SteppedSearch>(
    autoplay: &mut Autoplay,
    view: Option<&mut SteppedView<S>>,
    predicting: bool,
) -> Option<Message>
where
    S::Game: Playable,
{
    if !autoplay.on {
        return None;
    }
    let Some(view) = view else {
        autoplay.on = false;
        return None;
    };
    autoplay.stepped();
    let (message, finished) = autoplay_step(Some(view), predicting);
    if finished {
        autoplay.on = false;
    }
    Some(message)
}
