//! One recorded search as the tree pane shows it: the step machine, the pane's cursor and
//! folds, and where the predictions stand.

use super::playable::Playable;
use super::tree::TreeView;
use crate::domain::numbers::thousands;
use crate::domain::search::heuristic::Evaluate;
use crate::domain::search::predict::{self, Question};
use crate::domain::search::{Algorithm, Leaves, MoveOrder, NodeId, Stepper, search};

/// The most nodes one recorded search keeps (about 1.9 MB at 28 bytes a node and a byte an
/// event): every tic-tac-toe search after the first move fits (the largest, minimax after
/// an edge opening, is 63,905 nodes); the whole minimax tree of the empty board (549,946
/// nodes, 13 MB) stops at this limit, so a session on a server holds little.
pub const TREE_NODE_LIMIT: usize = 65_536;

/// What the status line says once a recorded search reaches [`TREE_NODE_LIMIT`]: stepping
/// stops, Enter still plays the move (found by the plain search), stepping back works.
pub fn node_limit_sentence(live: bool) -> String {
    let then = if live { "Enter plays, " } else { "" };
    format!(
        "Tree pane full ({} nodes): stepping stops; {then}b steps back",
        thousands(TREE_NODE_LIMIT as u64)
    )
}

/// A search the tree pane shows: the AI's pending move being stepped (live), or the record
/// of the search behind a move already played.
pub struct SearchView<G: Playable> {
    /// The step machine and its recorded tree.
    pub stepper: Stepper<G>,
    /// Cursor and folds of the pane.
    pub(crate) tree: TreeView,
    /// Nodes plain minimax visits from the same root, shown beside alpha-beta's count (0
    /// for a minimax search).
    pub(crate) minimax_nodes: u64,
    /// True while the AI waits for this search to be stepped and its move played.
    pub live: bool,
    /// True for a search the human asked for on their own turn (`t`).
    pub(crate) analysis: bool,
    /// The events taken when predictions were last answered, and how many of the questions
    /// waiting before that event were: those are over, so the next one is asked, or
    /// stepping goes on and shows the true value.
    pub(crate) answered: Option<(usize, usize)>,
}

impl<G: Playable> SearchView<G> {
    pub(crate) fn new(root: G, algorithm: Algorithm, order: MoveOrder, live: bool) -> Self {
        // Alpha-beta's count is shown beside plain minimax's; a minimax search has its own.
        let minimax_nodes = match algorithm {
            Algorithm::AlphaBeta => search(&root, Algorithm::Minimax).stats.nodes,
            Algorithm::Minimax => 0,
        };
        Self {
            stepper: Stepper::with_node_limit(root, algorithm, TREE_NODE_LIMIT).with_order(order),
            tree: TreeView::following(),
            minimax_nodes,
            live,
            analysis: false,
            answered: None,
        }
    }

    /// Alpha-beta on `root` stopping `depth` plies down, the positions there scored by the
    /// game's evaluation: how a game too large to search to the end is searched, stepped.
    pub fn limited(root: G, depth: u8, order: MoveOrder, live: bool) -> Self
    where
        G: Evaluate,
    {
        Self {
            stepper: Stepper::with_node_limit(root, Algorithm::AlphaBeta, TREE_NODE_LIMIT)
                .with_order(order)
                .with_leaves(Leaves::limited(depth)),
            tree: TreeView::following(),
            minimax_nodes: 0,
            live,
            analysis: false,
            answered: None,
        }
    }

    /// The prediction this search waits for before its next event (in predict mode): the
    /// stepper's question, unless it was already answered.
    pub(crate) fn waiting(&self) -> Option<Question> {
        predict::questions(&self.stepper)
            .get(self.answered_here())
            .copied()
    }

    /// How many of the questions before the next event are answered.
    fn answered_here(&self) -> usize {
        match self.answered {
            Some((events, count)) if events == self.stepper.events_taken() => count,
            _ => 0,
        }
    }

    /// Marks the question waiting as answered: the next one before the same event, if any,
    /// waits now.
    pub(crate) fn mark_answered(&mut self) {
        self.answered = Some((self.stepper.events_taken(), self.answered_here() + 1));
    }

    /// The node under the tree pane's cursor.
    pub fn tree_cursor(&self) -> NodeId {
        self.tree.cursor
    }

    /// Moves the tree cursor to the current node, if the view follows the search.
    pub(crate) fn sync_cursor(&mut self) {
        self.tree.forget_beyond(self.stepper.nodes().len());
        if self.tree.follow {
            self.tree.cursor = self.stepper.current().unwrap_or(0);
        }
    }
}
