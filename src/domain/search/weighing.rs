//! What a search found each root move worth: the record behind "why did the AI play that?".
//!
//! The numbers come from the search that chose the move, never from a second search: the
//! recursive search notes each root child's value as it returns ([`search_weighing`]), and a
//! finished [`Stepper`] holds the same values in its root's children ([`Stepper::weighing`]).
//! Alpha-beta returns some of them only as bounds; each says which, as the tree pane does.

use super::ordering::MoveOrder;
use super::recursive::{Algorithm, RootChild, SearchResult, run};
use super::stepper::{Bound, BoundCause, Stepper};
use crate::domain::games::Game;

/// One legal move at the root, with the value the search returned for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// The value its subtree returned, from the root mover's view.
    pub value: i32,
    /// Whether `value` is the move's minimax value or only a bound on it.
    pub bound: Bound,
    /// The replies a cut-off at this move left unsearched: 0 when its value is a bound
    /// only because of the window it was searched with.
    pub skipped: u8,
}

impl<M> RootMove<M> {
    /// The root move as the recursive search returned it: exact, or a bound on the side of
    /// the window its value fell (the rule of [`super::TreeNode::bound`]).
    fn weighed(child: RootChild<M>) -> Self {
        let bound = if child.exact {
            Bound::Exact
        } else if child.value <= child.alpha {
            Bound::AtMost
        } else {
            Bound::AtLeast
        };
        Self {
            mv: child.mv,
            value: child.value,
            bound,
            skipped: child.skipped,
        }
    }

    /// Why the value is only a bound; `None` when it is exact.
    pub const fn cause(&self) -> Option<BoundCause> {
        BoundCause::of_done(self.bound, self.skipped)
    }
}

/// A finished search and what it found each root move worth, in the order it tried them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weighing<M> {
    /// The search's value, chosen move and counts: what [`super::search`] returns.
    pub result: SearchResult<M>,
    /// Every root move the search tried, in its order; empty when the root is terminal.
    pub moves: Vec<RootMove<M>>,
}

/// Searches `root` as [`super::search`] does (the same nodes, value, move and counts) and
/// keeps what each root move was worth, trying the children of every node in `order`.
pub fn search_weighing<G: Game>(
    root: &G,
    algorithm: Algorithm,
    order: MoveOrder,
) -> Weighing<G::Move> {
    let mut children = Vec::new();
    let result = run(root, algorithm, order, Some(&mut children));
    let moves = children.into_iter().map(RootMove::weighed).collect();
    Weighing { result, moves }
}

impl<G: Game> Stepper<G> {
    /// What the finished search found each root move worth, read from its root's children;
    /// `None` until it has finished (or when it stopped at its node limit).
    pub fn weighing(&self) -> Option<Weighing<G::Move>> {
        let result = self.result()?;
        let moves = self
            .children(0)
            .filter_map(|id| {
                let node = self.node(id);
                let (bound, value) = node.bound()?;
                Some(RootMove {
                    mv: node.mv?,
                    value,
                    bound,
                    skipped: node.pruned,
                })
            })
            .collect();
        Some(Weighing { result, moves })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::search::search_ordered;
    use std::collections::HashSet;

    /// Every position reachable from the empty board with `first` to move, game over or not.
    fn reachable(first: Mark) -> Vec<Board> {
        let mut seen = HashSet::new();
        let mut todo = vec![Board::empty(first)];
        while let Some(board) = todo.pop() {
            if seen.insert(board) {
                todo.extend(board.legal_moves().as_ref().iter().map(|&m| board.play(m)));
            }
        }
        let mut all: Vec<Board> = seen.into_iter().collect();
        all.sort_by_key(Board::to_string);
        all
    }

    fn eight_positions() -> Vec<Eight> {
        let mut seen = HashSet::new();
        let mut todo = vec![Eight::start()];
        while let Some(p) = todo.pop() {
            if seen.insert(p) {
                todo.extend(p.legal_moves().as_ref().iter().map(|&m| p.play(m)));
            }
        }
        seen.into_iter().collect()
    }

    fn check<G: Game>(root: G) {
        let exact = search_weighing(&root, Algorithm::Minimax, MoveOrder::Listed);
        for order in MoveOrder::ALL {
            for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
                check_in(&root, &exact, algorithm, order);
            }
        }
        assert!(exact.moves.iter().all(|m| m.bound == Bound::Exact));
    }

    fn check_in<G: Game>(
        root: &G,
        exact: &Weighing<G::Move>,
        algorithm: Algorithm,
        order: MoveOrder,
    ) {
        let weighing = search_weighing(root, algorithm, order);
        assert_eq!(
            weighing.result,
            search_ordered(root, algorithm, order),
            "{root:?}"
        );
        let mut stepper = Stepper::new(*root, algorithm).with_order(order);
        stepper.run_to_end();
        assert_eq!(stepper.weighing().as_ref(), Some(&weighing), "{root:?}");
        assert_eq!(weighing.moves.len(), root.legal_moves().as_ref().len());
        for weighed in &weighing.moves {
            let truth = exact.moves.iter().find(|m| m.mv == weighed.mv).unwrap();
            match weighed.bound {
                Bound::Exact => assert_eq!(weighed.value, truth.value, "{root:?}"),
                Bound::AtMost => assert!(truth.value <= weighed.value, "{root:?}"),
                Bound::AtLeast => assert!(truth.value >= weighed.value, "{root:?}"),
            }
        }
        // The move played is the first that reached the best value, in the search's order.
        if let Some(best) = weighing.result.best_move {
            let first = weighing
                .moves
                .iter()
                .find(|m| m.value == weighing.result.value)
                .unwrap();
            assert_eq!(first.mv, best);
            assert_eq!(first.bound, Bound::Exact);
        }
    }

    #[test]
    fn the_recursive_and_stepped_records_agree_on_every_reachable_board() {
        // The empty board is skipped only for speed: its minimax tree is 549,946 nodes.
        for board in reachable(Mark::X)
            .into_iter()
            .filter(|b| b.marks_placed() >= 1)
        {
            check(board);
        }
    }

    #[test]
    fn the_recursive_and_stepped_records_agree_on_every_position_of_eight() {
        for position in eight_positions() {
            check(position);
        }
    }

    #[test]
    fn alpha_beta_says_which_root_moves_it_cut_short() {
        // The mid-game of the tab's snapshot: O to move after X5 O1 X3.
        let board = Board::parse("O.X.X....", Some(Mark::O)).unwrap();
        let weighing = search_weighing(&board, Algorithm::AlphaBeta, MoveOrder::Listed);
        let shown: Vec<(u8, i32, Bound, Option<BoundCause>)> = weighing
            .moves
            .iter()
            .map(|m| (m.mv + 1, m.value, m.bound, m.cause()))
            .collect();
        let pruned = |skipped| Some(BoundCause::Pruned { skipped });
        assert_eq!(
            shown,
            vec![
                (2, -8, Bound::Exact, None),
                (4, -8, Bound::AtMost, pruned(2)),
                (6, -8, Bound::AtMost, pruned(2)),
                (7, 0, Bound::Exact, None),
                (8, 0, Bound::AtMost, pruned(3)),
                (9, -4, Bound::AtMost, pruned(4)),
            ]
        );
        assert_eq!(weighing.result.best_move, Some(6));
    }

    #[test]
    fn a_finished_game_has_no_moves_to_weigh() {
        let won = Board::parse("XX.OO....", Some(Mark::X)).unwrap().play(2);
        let weighing = search_weighing(&won, Algorithm::AlphaBeta, MoveOrder::Listed);
        assert!(weighing.moves.is_empty());
        assert_eq!(weighing.result.best_move, None);
    }
}
