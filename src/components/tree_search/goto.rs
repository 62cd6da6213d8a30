//! "Go to step N" on the tree-search stepper: an event is a step. Back is the stepper's
//! own step back and forward its own step, so a step number always shows the same tree;
//! in predict mode going forward stops at the first question on the way, and a question
//! already waiting must be answered before going past it.

use super::playable::Playable;
use super::predict::prompt;
use super::view::SearchView;
use crate::tabkit::goto::{Count, Landed};
use crate::tabkit::message::Message;

/// The tree search's step counter: events taken, and all of them once it is finished.
pub fn search_count<G: Playable>(view: &SearchView<G>) -> Count {
    let at = view.stepper.events_taken() as u64;
    (at, view.stepper.is_finished().then_some(at))
}

/// Takes the tree search to event `target`: back by step back, forward by steps that stop
/// where a question waits in predict mode.
pub fn go_search<G: Playable>(view: &mut SearchView<G>, target: u64, predicting: bool) -> Message {
    let pick_open = |view: &SearchView<G>| view.waiting().filter(|_| predicting);
    let at = |view: &SearchView<G>| view.stepper.events_taken() as u64;
    if target > at(view)
        && let Some(question) = pick_open(view)
    {
        let mut said = prompt(view, question, "");
        said.text = format!("Answer first: {}", said.text);
        return said;
    }
    while at(view) > target && view.stepper.step_back().is_some() {
        view.answered = None;
    }
    while at(view) < target && view.stepper.step().is_some() && pick_open(view).is_none() {}
    view.tree.follow = true;
    view.sync_cursor();
    let (now, total) = search_count(view);
    if let Some(question) = pick_open(view).filter(|_| now < target) {
        let mut said = prompt(view, question, "");
        said.text = format!("Stopped at step {now} to ask: {}", said.text);
        return said;
    }
    let total = total.or_else(|| view.stepper.at_node_limit().then_some(now));
    Landed {
        asked: target,
        at: now,
        total,
    }
    .said()
}
