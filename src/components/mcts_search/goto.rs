//! "Go to step N" on a stepped MCTS: its phases are the steps, four an iteration. Forward
//! is the stepper's own step, backward its own replay, so the same step number always
//! shows the same tree; in predict mode going forward stops at the next pick (one each
//! iteration, before its selection), and a pick waiting is answered before going past it.

use super::pick::pick_prompt;
use super::view::MctsView;
use crate::components::tree_search::Playable;
use crate::tabkit::goto::{Count, Landed};
use crate::tabkit::message::Message;

/// MCTS's step counter: phases done, of four a planned iteration.
pub fn mcts_count<G: Playable>(view: &MctsView<G>) -> Count {
    (view.stepper.phases(), Some(view.iterations * 4))
}

/// Takes the stepped MCTS to phase `target`, clamped to its planned phases; in predict
/// mode going forward stops at the next pick (one each iteration, before its selection).
pub fn go_mcts<G: Playable>(view: &mut MctsView<G>, target: u64, predicting: bool) -> Message {
    let (now, total) = mcts_count(view);
    let pick_open = |view: &MctsView<G>| predicting && view.pick_waiting();
    if target > now && pick_open(view) {
        let mut said = pick_prompt(view, "");
        said.text = format!("Answer first: {}", said.text);
        return said;
    }
    let mut stop = target.min(total.unwrap_or(u64::MAX));
    if predicting {
        stop = stop.min((now / 4 + 1) * 4);
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
