//! What each phase of one iteration did, as the stepper records it for a view to show: the
//! path selection took and why each child on it won, the node expansion added, the
//! rollout's moves and result, and the `N` and `W` changes backpropagation made.

use super::tree::NodeId;
use crate::domain::games::Outcome;

/// The four phases of an iteration, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// From the root down through fully expanded nodes, by the highest UCB1 value.
    Selection,
    /// One untried move of the node selection stopped at becomes a child.
    Expansion,
    /// A random playout from the new node to the end of the game.
    Simulation,
    /// The playout's result added to `N` and `W` of every node on the path.
    Backpropagation,
}

impl Phase {
    /// The phases of one iteration, in order.
    pub const ALL: [Self; 4] = [
        Self::Selection,
        Self::Expansion,
        Self::Simulation,
        Self::Backpropagation,
    ];

    /// The phase after this one (Backpropagation is followed by the next Selection).
    #[must_use]
    pub const fn next(self) -> Self {
        match self {
            Self::Selection => Self::Expansion,
            Self::Expansion => Self::Simulation,
            Self::Simulation => Self::Backpropagation,
            Self::Backpropagation => Self::Selection,
        }
    }
}

/// One child as its parent's selection compared it: its numbers at that moment and the
/// UCB1 value they gave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate<M> {
    /// The child.
    pub node: NodeId,
    /// The move into it.
    pub mv: M,
    /// Its `N` then.
    pub visits: u64,
    /// Its `W` then.
    pub wins: f64,
    /// `W/N + c·√(ln N_parent / N)`.
    pub ucb: f64,
}

/// One step down the selected path: every child of `parent` with its UCB1 value, and the
/// one that won (the highest; the first in legal-move order on a tie).
#[derive(Debug, Clone, PartialEq)]
pub struct SelectionStep<M> {
    /// The node whose children were compared.
    pub parent: NodeId,
    /// Its `N` then (the `N_parent` of the formula).
    pub parent_visits: u64,
    /// Every child, in legal-move order.
    pub candidates: Vec<Candidate<M>>,
    /// The child chosen.
    pub chosen: NodeId,
}

/// What the expansion phase did at the node selection stopped at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expansion<M> {
    /// A new child for the first untried move.
    Added {
        /// The new node.
        node: NodeId,
        /// Its move.
        mv: M,
    },
    /// The game is over at the node: nothing to expand, the rollout is its result.
    Terminal {
        /// The node selection stopped at.
        node: NodeId,
    },
    /// The tree is at its node limit: the rollout starts from the node itself.
    NodeLimit {
        /// The node selection stopped at.
        node: NodeId,
    },
}

/// How backpropagation changed one node on the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The node.
    pub node: NodeId,
    /// `N` before and after.
    pub visits: (u64, u64),
    /// `W` in halves (2 a win, 1 a draw) before and after.
    pub half_wins: (u64, u64),
}

/// What one phase did.
#[derive(Debug, Clone, PartialEq)]
pub enum PhaseRecord<M, P> {
    /// The path from the root (the root first) and, for each step on it, the comparison.
    Selection {
        /// The nodes of the path.
        path: Vec<NodeId>,
        /// One comparison per step down.
        steps: Vec<SelectionStep<M>>,
    },
    /// The expansion.
    Expansion(Expansion<M>),
    /// The rollout.
    Simulation {
        /// The node it started from.
        from: NodeId,
        /// Its moves, in order (none from a finished game).
        moves: Vec<M>,
        /// How the game ended.
        outcome: Outcome<P>,
    },
    /// The changes, from the deepest node up to the root.
    Backpropagation {
        /// One per node on the path.
        changes: Vec<Change>,
    },
}

impl<M, P> PhaseRecord<M, P> {
    /// Which phase this records.
    pub const fn phase(&self) -> Phase {
        match self {
            Self::Selection { .. } => Phase::Selection,
            Self::Expansion(_) => Phase::Expansion,
            Self::Simulation { .. } => Phase::Simulation,
            Self::Backpropagation { .. } => Phase::Backpropagation,
        }
    }
}
