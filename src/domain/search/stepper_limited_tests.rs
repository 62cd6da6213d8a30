//! The stepper run depth-limited ([`Leaves::limited`]) is the same search as the fast
//! depth-limited alpha-beta: the same value as plain minimax to that depth, and, with the
//! same move order, exactly the nodes the fast search visits.

use super::limited::{Options, plain_limited, search_limited};
use super::{Algorithm, EventKind, Leaves, MoveOrder, Stepper};
use crate::domain::games::Game;
use crate::domain::games::connect4::Board;
use crate::domain::search::heuristic::Evaluate;
use proptest::prelude::*;

fn stepped(root: Board, algorithm: Algorithm, order: MoveOrder, depth: u8) -> Stepper<Board> {
    let mut stepper = Stepper::new(root, algorithm)
        .with_order(order)
        .with_leaves(Leaves::limited(depth));
    stepper.run_to_end();
    stepper
}

/// The position after `choices`, each an index into the legal moves (wrapped).
fn position(choices: &[u8]) -> Board {
    let mut position = Board::new();
    for &choice in choices {
        let moves = position.legal_moves();
        let moves = moves.as_ref();
        if moves.is_empty() || position.outcome().is_some() {
            break;
        }
        position = Game::play(&position, moves[usize::from(choice) % moves.len()]);
    }
    position
}

fn fast(root: &Board, depth: u8, ordering: bool) -> super::limited::Limited<Board> {
    let options = Options {
        depth,
        deepening: false,
        ordering,
        table: false,
    };
    search_limited(root, options, 1 << 20)
}

#[test]
fn leaves_at_the_depth_limit_are_scored_by_the_evaluation() {
    let root = Board::parse("4453").unwrap();
    let stepper = stepped(root, Algorithm::Minimax, MoveOrder::Listed, 2);
    let horizon: Vec<_> = stepper.nodes().iter().filter(|n| n.horizon).collect();
    assert_eq!(horizon.len(), 49, "every two-ply line of seven columns");
    for (id, node) in stepper.nodes().iter().enumerate() {
        assert!(node.depth <= 2);
        if node.horizon {
            let position = stepper.position(id as u32);
            let expected = Board::score(&position.counts(), root.to_move());
            assert_eq!(node.value.map(i32::from), Some(expected));
            assert!(node.terminal && node.move_count == 0);
        }
    }
    assert_eq!(stepper.result().unwrap().value, plain_limited(&root, 2));
}

#[test]
fn a_win_within_the_depth_scores_as_the_fast_search_scores_it() {
    // Red has three in column 1 and is to move: the win is one ply away.
    let root = Board::parse("121212").unwrap();
    let stepper = stepped(root, Algorithm::AlphaBeta, MoveOrder::Static, 3);
    let result = stepper.result().unwrap();
    assert_eq!(result.value, super::limited::WIN_SCORE - 1);
    assert_eq!(result.best_move, Some(0));
}

#[test]
fn stepping_back_to_the_start_undoes_every_horizon_leaf() {
    let root = Board::parse("44").unwrap();
    let mut stepper = stepped(root, Algorithm::AlphaBeta, MoveOrder::Static, 3);
    let mut kinds = Vec::new();
    while let Some(event) = stepper.step_back() {
        kinds.push(event.kind);
    }
    assert!(stepper.nodes().is_empty());
    assert!(kinds.contains(&EventKind::Cutoff));
    assert!(kinds.contains(&EventKind::Leaf));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn stepped_minimax_and_alpha_beta_find_the_plain_depth_limited_value(
        choices in proptest::collection::vec(0u8..7, 0..24),
        depth in 1u8..=4,
    ) {
        let root = position(&choices);
        prop_assume!(root.outcome().is_none());
        let plain = plain_limited(&root, depth);
        for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
            for order in [MoveOrder::Listed, MoveOrder::Static] {
                let stepper = stepped(root, algorithm, order, depth);
                prop_assert_eq!(stepper.result().unwrap().value, plain, "{} {:?}", algorithm, order);
            }
        }
    }

    #[test]
    fn stepped_alpha_beta_visits_the_nodes_the_fast_search_visits(
        choices in proptest::collection::vec(0u8..7, 0..24),
        depth in 1u8..=5,
    ) {
        let root = position(&choices);
        prop_assume!(root.outcome().is_none());
        for (order, ordering) in [(MoveOrder::Listed, false), (MoveOrder::Static, true)] {
            let stepper = stepped(root, Algorithm::AlphaBeta, order, depth);
            let found = fast(&root, depth, ordering);
            prop_assert_eq!(stepper.stats().nodes, found.total().nodes, "{:?}", order);
            // The fast search also counts a window closed by a node's last child, where
            // nothing is left to prune; the stepper's cut-off is an event only when some
            // move is skipped.
            prop_assert!(found.tree_complete);
            let pruning = found.tree.iter().filter(|n| n.pruned > 0).count() as u64;
            prop_assert_eq!(stepper.stats().cutoffs, pruning, "{:?}", order);
            prop_assert_eq!(stepper.result().unwrap().best_move, found.best_move());
        }
    }
}
