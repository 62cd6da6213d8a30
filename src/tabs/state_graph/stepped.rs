//! The game `s` played on the State Graph, kept to be stepped move by move: its moves, the
//! graph before it was learned, the edge predict mode asks about and how far it is shown.
//! What the keys do with it is `stepper.rs`'s.

use crate::domain::learn::predict_graph::EdgeLearned;
use crate::domain::learn::state_graph::{Edge, StateGraph};
use crate::domain::steps::Steps;

/// A game `s` played, already learned, and how far it is shown: steps 1 to n are its
/// moves, step n + 1 its learning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SteppedGame {
    /// The moves.
    pub(crate) path: Vec<Edge>,
    /// The graph before the game was learned: what the tab shows until the last step.
    pub(crate) before: StateGraph,
    /// The edge predict mode asks about, with what the learner did to it.
    pub(crate) asked: EdgeLearned,
    pub(crate) steps: Steps,
}

impl SteppedGame {
    /// The game `path`, just learned into `graph` (which was `before` until then), at its
    /// start in predict mode, else at its end as `s` always showed it. The edge asked about
    /// changes from game to game: the graph's game count picks it.
    pub(crate) fn new(
        before: StateGraph,
        graph: &StateGraph,
        path: Vec<Edge>,
        at_start: bool,
    ) -> Self {
        let pick = (graph.games as usize).saturating_sub(1) % path.len().max(1);
        let winner = path.last().map(|e| e.from.player);
        let asked = EdgeLearned {
            edge: path[pick],
            winner: winner.unwrap_or(path[pick].from.player),
            before: before.weight(&path[pick]),
            after: graph.weight(&path[pick]),
        };
        let total = path.len() + 1;
        Self {
            steps: Steps::new(total, if at_start { 0 } else { total }, path.len()),
            path,
            before,
            asked,
        }
    }

    /// Moves shown (the learning not counted).
    pub(crate) fn moves_shown(&self) -> usize {
        self.steps.at().min(self.path.len())
    }

    /// Whether the last step, the learning, is shown.
    pub(crate) fn learned(&self) -> bool {
        self.steps.at() == self.steps.total()
    }

    /// The counter: "move 3 of 7", or "learned".
    pub(crate) fn counter(&self) -> String {
        if self.learned() {
            format!("{} moves, learned", self.path.len())
        } else {
            format!("move {} of {}", self.moves_shown(), self.path.len())
        }
    }
}
