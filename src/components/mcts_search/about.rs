//! The worked example an "about" card (`I`) gives from an MCTS search: the root's move the
//! next selection would take, its `W`, `N` and UCB1 value worked out with the numbers on
//! screen. Read from the search itself, so it changes as the search steps. Written once
//! for every tab that contains the MCTS pane.

use super::outline::Names;
use super::view::MctsView;
use crate::domain::search::mcts::ROOT;

/// What MCTS does, in words a first-year student reads: the same on every tab that
/// contains the search.
pub const WORDS: [&str; 4] = [
    "MCTS plays many random games (rollouts) and grows a tree where they win.",
    "W/N beside a move: its wins (a draw ½) out of N visits, for its mover.",
    "It goes down the highest UCB1 = W/N + c·√(ln N_parent / N): good or rare.",
    "The AI plays the move visited most.",
];

/// The example's lines for the root of `view`'s search now.
pub fn example<G: Names>(view: &MctsView<G>) -> Vec<String> {
    let mcts = view.stepper.mcts();
    let root = mcts.root();
    let position = mcts.position(ROOT);
    let mut lines = vec![format!(
        "After {} of {} iterations the root was visited {} times.",
        mcts.iterations(),
        view.iterations,
        root.visits()
    )];
    let best = mcts
        .children(ROOT)
        .filter_map(|(id, node)| Some((mcts.ucb_now(id)?, node)))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let Some((ucb, node)) = best else {
        lines.push("No move has been tried twice yet: Space steps the search on.".into());
        return lines;
    };
    let name = node.mv().map_or("?".into(), |mv| position.move_name(mv));
    lines.push(format!(
        "Highest UCB1 now: {name}, W {} / N {} = {:.2}, plus {:.2}·√(ln {} / {}) = {ucb:.2}.",
        node.wins(),
        node.visits(),
        node.mean().unwrap_or(0.0),
        mcts.exploration(),
        root.visits(),
        node.visits()
    ));
    lines.push(format!(
        "So the next selection goes down {name}; the AI plays the move visited most."
    ));
    lines
}
