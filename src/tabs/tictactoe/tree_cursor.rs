//! Moving about the tree pane from the keys and the mouse: the cursor, a click on a line,
//! folding and unfolding a node or the whole tree, and back to the node being searched;
//! on minimax's or alpha-beta's tree and on MCTS's alike.

use super::state::{GameKind, TicTacToeTab};
use crate::components::mcts_search::MctsView;
use crate::components::tree_search::SearchView;
use crate::tabkit::message::Message;

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
        crate::shown_mut!(self, |game| game
            .search
            .as_mut()
            .map(|view| view.move_cursor(delta)));
    }

    /// Puts the tree cursor on a line (a mouse click); a click on the selected node folds
    /// or unfolds it.
    pub(crate) fn tree_click(&mut self, line: usize) -> Option<Message> {
        if self.has_mcts() {
            return crate::shown_mut!(self, |game| game.mcts.as_mut()?.click(line))
                .map(Message::error);
        }
        crate::shown_mut!(self, |game| game.search.as_mut()?.click(line))
    }

    /// Folds (`true`) or unfolds the node under the tree cursor; folding a folded node
    /// moves to its parent, unfolding an open one to its first child.
    pub(crate) fn tree_fold(&mut self, fold: bool) -> Option<Message> {
        if self.has_mcts() {
            return crate::shown_mut!(self, |game| game.mcts.as_mut()?.fold(fold))
                .map(Message::error);
        }
        crate::shown_mut!(self, |game| game.search.as_mut()?.fold(fold))
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
        let on = crate::shown_mut!(self, |game| game
            .search
            .as_mut()
            .map(SearchView::toggle_expand_all))?;
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
        crate::shown_mut!(self, |game| game.search.as_mut().map(SearchView::follow));
    }
}
