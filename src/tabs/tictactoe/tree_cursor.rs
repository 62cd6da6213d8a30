//! Moving about the tree pane from the keys and the mouse: the cursor, a click on a line,
//! folding and unfolding a node or the whole tree, and back to the node being searched;
//! on minimax's or alpha-beta's tree and on MCTS's alike.

use super::mcts::MctsView;
use super::state::{GameKind, TicTacToeTab};
use crate::components::tree_search::tree::{LineKind, TreeView};
use crate::components::tree_search::{Playable, SearchView};
use crate::domain::search::NodeId;
use crate::frame::message::Message;

impl TicTacToeTab {
    /// Moves the tree cursor.
    pub(crate) fn tree_cursor(&mut self, delta: i32) {
        if self.has_mcts() {
            crate::shown_mut!(self, |game| game
                .mcts
                .as_mut()
                .map(|m| m.move_cursor(delta)));
            return;
        }
        crate::shown_mut!(self, |game| Self::tree_cursor_in(
            game.search.as_mut(),
            delta
        ));
    }

    fn tree_cursor_in<G: Playable>(view: Option<&mut SearchView<G>>, delta: i32) {
        if let Some(view) = view {
            view.tree.move_cursor(&view.stepper, delta);
        }
    }

    /// Puts the tree cursor on a line (a mouse click); a click on the selected node folds
    /// or unfolds it.
    pub(crate) fn tree_click(&mut self, line: usize) -> Option<Message> {
        if self.has_mcts() {
            return crate::shown_mut!(self, |game| game.mcts.as_mut()?.click(line))
                .map(Message::error);
        }
        crate::shown_mut!(self, |game| Self::tree_click_in(game.search.as_mut(), line))
    }

    fn tree_click_in<G: Playable>(
        view: Option<&mut SearchView<G>>,
        line: usize,
    ) -> Option<Message> {
        let view = view?;
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
    pub(crate) fn tree_fold(&mut self, fold: bool) -> Option<Message> {
        if self.has_mcts() {
            return crate::shown_mut!(self, |game| game.mcts.as_mut()?.fold(fold))
                .map(Message::error);
        }
        crate::shown_mut!(self, |game| Self::fold_in(game.search.as_mut()?, fold))
    }

    fn fold_in<G: Playable>(view: &mut SearchView<G>, fold: bool) -> Option<Message> {
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

    /// Unfolds the whole tree, or folds it back.
    pub(crate) fn tree_expand_all(&mut self) -> Option<Message> {
        if self.has_mcts() {
            let on = crate::shown_mut!(self, |game| game.mcts.as_mut().map(MctsView::expand_all))?;
            return Some(Message::info(if on {
                "Every node of the MCTS tree unfolded (e folds back)"
            } else {
                "Folded back to the root's moves"
            }));
        }
        let toggle = |tree: &mut TreeView| {
            tree.expand_all = !tree.expand_all;
            tree.expand_all
        };
        let on = crate::shown_mut!(self, |game| game
            .search
            .as_mut()
            .map(|v| toggle(&mut v.tree)))?;
        Some(Message::info(if on {
            "Every explored node unfolded (e folds back)"
        } else {
            "Finished subtrees folded"
        }))
    }

    /// Puts the tree cursor back on the search's current node and follows it again.
    pub(crate) fn tree_to_current(&mut self) {
        if self.has_mcts() {
            crate::shown_mut!(self, |game| game.mcts.as_mut().map(MctsView::follow));
            return;
        }
        crate::shown_mut!(self, |game| Self::follow_in(game.search.as_mut()));
    }

    fn follow_in<G: Playable>(view: Option<&mut SearchView<G>>) {
        if let Some(view) = view {
            view.tree.follow = true;
            view.sync_cursor();
        }
    }
}
