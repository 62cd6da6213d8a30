//! What the tree pane shows of a search: which nodes are unfolded, where the cursor is, and
//! the flattened list of visible lines. Pure state; `ui::search` only draws these lines.

use crate::domain::games::Game;
use crate::domain::search::{NodeId, Stepper};
use std::cell::Cell;
use std::collections::HashMap;

/// At most this many lines are listed, so unfolding all of a 549,946-node tree stays cheap.
pub(crate) const MAX_LINES: usize = 20_000;

/// What one line of the outline stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// A node of the explored tree.
    Node(NodeId),
    /// The children of this node that a cut-off skipped.
    Pruned(NodeId),
    /// The children of this node not searched yet.
    Pending(NodeId),
    /// The search has not entered its root yet.
    NotStarted,
    /// The outline was cut at [`MAX_LINES`].
    Truncated,
}

/// One visible line of the outline, with what is needed to draw its box-drawing prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TreeLine {
    /// What the line shows.
    pub(crate) kind: LineKind,
    /// Plies below the root (the root is 0).
    pub(crate) depth: u8,
    /// Bit `l` set: the ancestor at depth `l` has later siblings, so a `│` continues there.
    pub(crate) guides: u32,
    /// The line is its parent's last child, drawn with `└─` rather than `├─`.
    pub(crate) last: bool,
}

/// Fold state and cursor of the tree pane for one search.
#[derive(Debug, Default)]
pub(crate) struct TreeView {
    /// The selected node.
    pub(crate) cursor: NodeId,
    /// While true, the cursor jumps to the search's current node at every step.
    pub(crate) follow: bool,
    /// Folds and unfolds the user asked for, overriding the default.
    overrides: HashMap<NodeId, bool>,
    /// Unfold everything (the `e` key).
    pub(crate) expand_all: bool,
    /// First visible line; adjusted while drawing so the cursor stays in view.
    pub(crate) scroll: Cell<usize>,
}

impl TreeView {
    /// A fresh view that follows the search.
    pub(crate) fn following() -> Self {
        Self {
            follow: true,
            ..Self::default()
        }
    }

    /// Whether `id`'s children are listed: by default the path being searched and the root
    /// are open and finished subtrees are folded to one line.
    /// A node still being searched is always open (a fold made before a step back does not
    /// hide the current node).
    pub(crate) fn is_expanded<G: Game>(&self, stepper: &Stepper<G>, id: NodeId) -> bool {
        let open = !stepper.node(id).is_done();
        open || self
            .overrides
            .get(&id)
            .copied()
            .unwrap_or(self.expand_all || id == 0)
    }

    /// Folds or unfolds `id` on the user's request.
    pub(crate) fn set_expanded(&mut self, id: NodeId, expanded: bool) {
        self.overrides.insert(id, expanded);
    }

    /// Forgets state about nodes a step back removed, so a reused id starts fresh.
    pub(crate) fn forget_beyond(&mut self, node_count: usize) {
        self.overrides.retain(|&id, _| (id as usize) < node_count);
        if self.cursor as usize >= node_count {
            self.cursor = 0;
        }
    }

    /// The visible outline, in display order.
    pub(crate) fn lines<G: Game>(&self, stepper: &Stepper<G>) -> Vec<TreeLine> {
        let mut lines = Vec::new();
        if stepper.nodes().is_empty() {
            lines.push(TreeLine {
                kind: LineKind::NotStarted,
                depth: 0,
                guides: 0,
                last: true,
            });
        } else {
            self.push_subtree(stepper, 0, 0, 0, true, &mut lines);
        }
        if lines.len() > MAX_LINES {
            lines.truncate(MAX_LINES);
            lines.push(TreeLine {
                kind: LineKind::Truncated,
                depth: 0,
                guides: 0,
                last: true,
            });
        }
        lines
    }

    fn push_subtree<G: Game>(
        &self,
        stepper: &Stepper<G>,
        id: NodeId,
        depth: u8,
        guides: u32,
        last: bool,
        lines: &mut Vec<TreeLine>,
    ) {
        if lines.len() > MAX_LINES {
            return;
        }
        lines.push(TreeLine {
            kind: LineKind::Node(id),
            depth,
            guides,
            last,
        });
        if !self.is_expanded(stepper, id) {
            return;
        }
        let node = stepper.node(id);
        let marker = if node.pruned > 0 {
            Some(LineKind::Pruned(id))
        } else if !node.is_done() && node.children < node.move_count {
            Some(LineKind::Pending(id))
        } else {
            None
        };
        let child_guides = if depth > 0 && !last {
            guides | (1 << depth)
        } else {
            guides
        };
        let children: Vec<NodeId> = stepper.children(id).collect();
        for (i, &child) in children.iter().enumerate() {
            let is_last = i + 1 == children.len() && marker.is_none();
            self.push_subtree(stepper, child, depth + 1, child_guides, is_last, lines);
        }
        if let Some(kind) = marker {
            lines.push(TreeLine {
                kind,
                depth: depth + 1,
                guides: child_guides,
                last: true,
            });
        }
    }

    /// Index of the cursor's line (or of the nearest line of its node).
    pub(crate) fn cursor_line(&self, lines: &[TreeLine]) -> usize {
        lines
            .iter()
            .position(|line| line.kind == LineKind::Node(self.cursor))
            .unwrap_or(0)
    }

    /// Moves the cursor `delta` node lines (clamped at both ends).
    pub(crate) fn move_cursor<G: Game>(&mut self, stepper: &Stepper<G>, delta: i32) {
        let lines = self.lines(stepper);
        let nodes: Vec<NodeId> = lines
            .iter()
            .filter_map(|line| match line.kind {
                LineKind::Node(id) => Some(id),
                _ => None,
            })
            .collect();
        if nodes.is_empty() {
            return;
        }
        let at = nodes.iter().position(|&id| id == self.cursor).unwrap_or(0) as i64;
        let last = nodes.len() as i64 - 1;
        let target = (at + i64::from(delta)).clamp(0, last) as usize;
        self.cursor = nodes[target];
        self.follow = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;
    use crate::domain::search::Algorithm;

    fn node_ids(lines: &[TreeLine]) -> Vec<NodeId> {
        lines
            .iter()
            .filter_map(|l| match l.kind {
                LineKind::Node(id) => Some(id),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_fresh_search_shows_a_not_started_line() {
        let stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        let lines = TreeView::following().lines(&stepper);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].kind, LineKind::NotStarted);
    }

    #[test]
    fn finished_subtrees_fold_and_the_path_stays_open() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        stepper.step();
        stepper.step_over(); // first child done: folds to one line
        stepper.step(); // enter second child: open, on the path
        let view = TreeView::following();
        let lines = view.lines(&stepper);
        let first = stepper.children(0).next().unwrap();
        let second = stepper.current().unwrap();
        assert_eq!(node_ids(&lines), vec![0, first, second]);
        // The second child has untried children (pending marker), the root one more child.
        assert_eq!(lines.last().unwrap().kind, LineKind::Pending(0));
    }

    #[test]
    fn unfolding_all_lists_every_node_of_the_game_of_eight() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        stepper.run_to_end();
        let mut view = TreeView::following();
        assert_eq!(
            node_ids(&view.lines(&stepper)).len(),
            1 + 3,
            "root and its children"
        );
        view.expand_all = true;
        assert_eq!(node_ids(&view.lines(&stepper)).len(), stepper.nodes().len());
    }

    #[test]
    fn guides_mark_ancestors_with_later_siblings() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        stepper.run_to_end();
        let view = TreeView {
            expand_all: true,
            ..TreeView::default()
        };
        let lines = view.lines(&stepper);
        // The first child of the root is not last, so its descendants carry guide bit 1.
        let deep = lines.iter().find(|l| l.depth == 3).unwrap();
        assert_ne!(deep.guides & (1 << 1), 0);
        // Every last line of the root's children has no later sibling.
        let root_children: Vec<_> = lines.iter().filter(|l| l.depth == 1).collect();
        assert!(root_children.last().unwrap().last);
        assert!(
            root_children[..root_children.len() - 1]
                .iter()
                .all(|l| !l.last)
        );
    }

    #[test]
    fn the_cursor_moves_between_node_lines_and_stops_at_the_ends() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        stepper.run_to_end();
        let mut view = TreeView::following();
        view.move_cursor(&stepper, -5);
        assert_eq!(view.cursor, 0);
        view.move_cursor(&stepper, 100);
        let last_child = stepper.children(0).last().unwrap();
        assert_eq!(view.cursor, last_child);
        assert!(!view.follow);
    }
}
