//! The worked example an "about" card (`I`) gives from a stepped search: the node under the
//! tree pane's cursor, whether it is MAX or MIN, the values its children returned and which
//! one it keeps, and under alpha-beta its window. Read from the stepper's own record, so
//! the numbers are the ones on screen. Written once for every tab that contains the tree.

use super::explain::{node_name, window_moves};
use super::playable::Playable;
use super::view::SearchView;
use crate::domain::numbers::signed;
use crate::domain::search::{Algorithm, Bound};

/// The example's lines for the node under the cursor of `view`.
pub fn example<G: Playable>(view: &SearchView<G>) -> Vec<String> {
    let stepper = &view.stepper;
    let id = view.tree_cursor();
    // A search just opened has entered no node yet, not even the root.
    if usize::try_from(id).map_or(true, |id| id >= stepper.nodes().len()) {
        return vec![
            "The search has not started: Space takes its first step, then I again.".into(),
        ];
    }
    let node = stepper.node(id);
    let name = node_name(stepper, id);
    let (side, keeps) = if node.maximizing {
        ("MAX", "largest")
    } else {
        ("MIN", "smallest")
    };
    let mut lines = vec![format!("The cursor is on {name}, a {side} node.")];
    if node.terminal || node.horizon {
        let value = node.value.map_or("?".into(), |v| signed(i32::from(v)));
        let why = if node.terminal {
            "a leaf: the game is over there, so its value is the result"
        } else {
            "a leaf at the depth limit: the heuristic scores its board"
        };
        lines[0] = format!("The cursor is on {name}, {why}: {value}.");
        return lines;
    }
    // Each value with its bound sign, as the tree writes it: under alpha-beta a child cut
    // short returns only a bound (`≤0`), which must not read as its exact value.
    let returned: Vec<String> = stepper
        .children(id)
        .filter_map(|child| {
            let (bound, value) = stepper.node(child).bound()?;
            Some(format!(
                "{} {}{}",
                node_name(stepper, child),
                bound.sign(),
                signed(value)
            ))
        })
        .collect();
    if returned.is_empty() {
        lines.push(format!(
            "It will take the {keeps} of its children's values; none has returned yet: \
             Space steps on."
        ));
    } else {
        lines.push(format!("Its children so far: {}.", returned.join(", ")));
        let best = node.best_move.map(|mv| stepper.position(id).move_label(mv));
        if let (Some((bound, value)), Some(best)) = (node.bound(), best) {
            // A value cut short is only a bound: its sign says so (`≥-2`).
            let sign = if bound == Bound::Exact {
                ""
            } else {
                bound.sign()
            };
            lines.push(format!(
                "This node is {side}: it takes the {keeps} of its children: {sign}{} (from {best}).",
                signed(value)
            ));
        }
    }
    if stepper.algorithm() == Algorithm::AlphaBeta {
        lines.push(format!(
            "Its window: {}; once α ≥ β, its other children are cut off.",
            window_moves(node)
        ));
    }
    lines
}
