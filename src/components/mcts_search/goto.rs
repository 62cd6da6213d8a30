//! "Go to step N" on a stepped search: its phases are the steps, four an MCTS iteration,
//! three a PUCT simulation. Forward
//! is the stepper's own step, backward its own replay, so the same step number always
//! shows the same tree; in predict mode going forward stops at the next pick (one each
//! iteration, before its selection), and a pick waiting is answered before going past it.

use super::pick::pick_prompt;
use super::search::SteppedSearch;
use super::view::SteppedView;
use crate::components::tree_search::Playable;
use crate::tabkit::goto::{Count, Landed};
use crate::tabkit::message::Message;

/// The step counter: phases done, of the phases of the planned rounds (four an MCTS
/// iteration, three a PUCT simulation).
pub fn mcts_count<S: SteppedSearch>(view: &SteppedView<S>) -> Count {
    (view.stepper.phases(), Some(view.iterations * S::PHASES))
}

/// Takes the stepped MCTS to phase `target`, clamped to its planned phases; in predict
/// mode going forward stops at the next pick (one each iteration, before its selection).
pub fn go_mcts<S: SteppedSearch>(
    view: &mut SteppedView<S>,
    target: u64,
    predicting: bool,
) -> Message
where
    S::Game: Playable,
{
    let (now, total) = mcts_count(view);
    let pick_open = |view: &SteppedView<S>| predicting && view.pick_waiting();
    if target > now && pick_open(view) {
        let mut said = pick_prompt(view, "");
        said.text = format!("Answer first: {}", said.text);
        return said;
    }
    let mut stop = target.min(total.unwrap_or(u64::MAX));
    if predicting {
        stop = stop.min((now / S::PHASES + 1) * S::PHASES);
    }
    view.stepper.go_to(stop);
    if stop < now {
        view.answered = None;
    }
    view.follow();
    let (at, total) = mcts_count(view);
    if pick_open(view) && at < target {
        let mut said = pick_prompt(view, "");
        said.text = format!("Stopped at step {at} to ask: {}", said.text);
        return said;
    }
    Landed {
        asked: target,
        at,
        total,
    }
    .said()
}
