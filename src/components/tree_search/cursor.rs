//! Moving about the tree pane: the cursor, a click on a line, folding and unfolding a node
//! or the whole tree, and back to the node being searched.

use super::playable::Playable;
use super::tree::LineKind;
use super::view::SearchView;
use crate::domain::search::NodeId;
use crate::tabkit::message::Message;

impl<G: Playable> SearchView<G> {
    /// Moves the tree cursor by `delta` rows (clamped to the tree).
    pub fn move_cursor(&mut self, delta: i32) {
        self.tree.move_cursor(&self.stepper, delta);
    }

    /// Puts the tree cursor on a line (a mouse click); a click on the selected node folds
    /// or unfolds it.
    pub fn click(&mut self, line: usize) -> Option<Message> {
        let view = self;
        let lines = view.tree.lines(&view.stepper);
        let LineKind::Node(id) = lines.get(line)?.kind else {
            return None;
        };
        if view.tree.cursor == id && !view.tree.follow {
            // A second click toggles the node in place: the cursor stays on it.
            let expanded = view.tree.is_expanded(&view.stepper, id);
            let node = *view.stepper.node(id);
            if expanded && node.children > 0 && !node.is_done() {
                return Some(Message::error(
                    "That node is still being searched: it stays open",
                ));
            }
            if node.children > 0 {
                view.tree.set_expanded(id, !expanded);
            }
            return None;
        }
        view.tree.cursor = id;
        view.tree.follow = false;
        None
    }

    /// Folds (`true`) or unfolds the node under the tree cursor; folding a folded node
    /// moves to its parent, unfolding an open one to its first child.
    pub fn fold(&mut self, fold: bool) -> Option<Message> {
        let view = self;
        if view.stepper.nodes().is_empty() {
            return None;
        }
        let id: NodeId = view.tree.cursor;
        let node = *view.stepper.node(id);
        let expanded = view.tree.is_expanded(&view.stepper, id);
        view.tree.follow = false;
        if fold {
            if expanded && node.children > 0 {
                if !node.is_done() {
                    return Some(Message::error(
                        "That node is still being searched: it stays open",
                    ));
                }
                view.tree.set_expanded(id, false);
            } else if let Some(parent) = node.parent() {
                view.tree.cursor = parent;
            }
        } else if !expanded {
            view.tree.set_expanded(id, true);
        } else if let Some(child) = view.stepper.children(id).next() {
            view.tree.cursor = child;
        }
        None
    }

    /// Unfolds every explored node, or folds finished subtrees back; whether all are open.
    pub fn toggle_expand_all(&mut self) -> bool {
        self.tree.expand_all = !self.tree.expand_all;
        self.tree.expand_all
    }

    /// Puts the tree cursor back on the node being searched, following it again.
    pub fn follow(&mut self) {
        self.tree.follow = true;
        self.sync_cursor();
    }
}
