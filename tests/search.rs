//! Integration tests of the two searches: alpha-beta against plain minimax, and the step
//! machine ([`Stepper`]) against the recursive [`search`], over every reachable position.
//!
//! The node count of plain minimax from the empty board (549,946, root included) is pinned
//! by the unit test `search::tests::plain_minimax_visits_549_946_nodes_from_the_empty_board`
//! and, through the stepper, by `stepper::tests::agrees_with_the_recursive_search_from_the_
//! empty_board`; it is not repeated here. The CLI test checks it once more end to end.

use ai_arcade::domain::games::Game;
use ai_arcade::domain::games::eight::Eight;
use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::search::{
    Algorithm, EventKind, NodeId, SearchResult, SearchStats, Stepper, TreeNode, search,
};
use std::collections::HashSet;

const ALGORITHMS: [Algorithm; 2] = [Algorithm::Minimax, Algorithm::AlphaBeta];

/// Every position reachable from `start` by legal moves, finished ones included, in a
/// deterministic (discovery) order.
fn reachable<G: Game>(start: G) -> Vec<G> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut todo = vec![start];
    while let Some(position) = todo.pop() {
        if seen.insert(position) {
            order.push(position);
            todo.extend(
                position
                    .legal_moves()
                    .as_ref()
                    .iter()
                    .map(|&mv| position.play(mv)),
            );
        }
    }
    order
}

fn tictactoe_positions() -> Vec<Board> {
    reachable(Board::empty(Mark::X))
}

fn stepped<G: Game>(root: G, algorithm: Algorithm) -> Stepper<G> {
    let mut stepper = Stepper::new(root, algorithm);
    stepper.run_to_end();
    stepper
}

fn assert_stepper_matches<G: Game>(root: G, algorithm: Algorithm) {
    let stepper = stepped(root, algorithm);
    assert!(stepper.is_finished(), "{root:?} {algorithm}");
    assert_eq!(
        stepper.result(),
        Some(search(&root, algorithm)),
        "stepper vs recursive search on {root:?} with {algorithm}"
    );
    assert_eq!(
        stepper.nodes().len() as u64,
        stepper.stats().nodes,
        "{root:?} {algorithm}: the arena holds every node entered"
    );
}

#[test]
fn there_are_5478_reachable_tictactoe_positions() {
    let positions = tictactoe_positions();
    assert_eq!(positions.len(), 5478);
    // Sanity: the set is closed under moves and contains finished games of all three kinds.
    let finished = positions.iter().filter(|b| b.outcome().is_some()).count();
    assert_eq!(finished, 958, "958 terminal positions (X first)");
}

#[test]
fn alpha_beta_value_equals_minimax_value_on_every_reachable_position() {
    for board in tictactoe_positions() {
        let full = search(&board, Algorithm::Minimax);
        let pruned = search(&board, Algorithm::AlphaBeta);
        assert_eq!(
            pruned.value,
            full.value,
            "{board} ({:?} to move)",
            board.to_move()
        );
        assert!(
            pruned.stats.nodes <= full.stats.nodes,
            "{board}: pruning never visits more nodes"
        );
        assert_eq!(full.stats.cutoffs, 0, "{board}: minimax never cuts off");
        if board.outcome().is_some() {
            assert_eq!(full.best_move, None, "{board}");
            assert_eq!(pruned.best_move, None, "{board}");
            assert_eq!((full.stats.nodes, full.stats.leaves), (1, 1), "{board}");
        } else {
            let legal = board.legal_moves();
            let mv = full.best_move.expect("a non-terminal root has a best move");
            assert!(legal.as_ref().contains(&mv), "{board}: {mv} is legal");
            // With the full window at the root, alpha-beta finds the same first best move
            // as minimax (later children only return bounds <= alpha).
            assert_eq!(pruned.best_move, full.best_move, "{board}");
            assert_eq!(child_value(board, mv), full.value, "{board}: move {mv}");
        }
    }
}

/// The value of the position after `mv`, converted back to the root's point of view.
///
/// A fresh search of the child scores from the child's mover (the root's opponent) and
/// counts depth from the child. A leaf `d` plies below the root is worth `±(10 - d)` to the
/// root but `∓(10 - (d - 1))` to the child's own search, so a root value `v` shows up there
/// as `c = -(v + signum(v))`. That map is strictly decreasing, so it commutes with max/min
/// and the relation is exact; inverted, `v = -c + signum(c)`.
fn child_value(board: Board, mv: u8) -> i32 {
    let c = search(&board.play(mv), Algorithm::Minimax).value;
    -c + c.signum()
}

/// Which tic-tac-toe positions the stepper is compared on: every reachable non-terminal
/// one (4,520), with both algorithms. That takes about 2.5 s in a debug build (most of it
/// the few positions with 8 or 9 empty cells), well under the ~10 s budget, so the cheaper
/// "at most 6 empty cells" subset was not needed.
#[test]
fn stepper_matches_recursive_search_on_every_reachable_tictactoe_position() {
    let positions: Vec<Board> = tictactoe_positions()
        .into_iter()
        .filter(|b| b.outcome().is_none())
        .collect();
    assert_eq!(positions.len(), 5478 - 958);
    for board in positions {
        for algorithm in ALGORITHMS {
            assert_stepper_matches(board, algorithm);
        }
    }
}

#[test]
fn stepper_matches_recursive_search_on_finished_positions() {
    // A finished root is a single leaf: value, no move, one node, one leaf.
    for board in tictactoe_positions()
        .into_iter()
        .filter(|b| b.outcome().is_some())
        .take(50)
    {
        for algorithm in ALGORITHMS {
            assert_stepper_matches(board, algorithm);
            let result = search(&board, algorithm);
            assert_eq!(result.best_move, None);
            assert_eq!(result.stats.nodes, 1);
        }
    }
}

#[test]
fn stepper_matches_recursive_search_on_every_reachable_eight_position() {
    let positions = reachable(Eight::start());
    // Sums 0..=10 with a barred last number: small, but every one is checked.
    assert!(positions.len() > 20, "{} positions", positions.len());
    for position in positions {
        for algorithm in ALGORITHMS {
            assert_stepper_matches(position, algorithm);
        }
        // And the two algorithms agree on the value here too.
        assert_eq!(
            search(&position, Algorithm::Minimax).value,
            search(&position, Algorithm::AlphaBeta).value,
            "{position:?}"
        );
    }
}

/// A copy of everything the tree pane reads from a stepper.
type Snapshot<G> = (
    Vec<TreeNode<<G as Game>::Move>>,
    SearchStats,
    Option<NodeId>,
);

fn snapshot<G: Game>(stepper: &Stepper<G>) -> Snapshot<G> {
    (stepper.nodes().to_vec(), stepper.stats(), stepper.current())
}

/// Steps `root` to the end, back to the start and forward again. Every `stride`-th state
/// (every state when `stride` is 1) is recorded on the way forward and must be restored
/// exactly on the way back; full snapshots of every state would take quadratic memory on
/// the larger trees.
fn assert_round_trip<G: Game>(root: G, algorithm: Algorithm, stride: usize) {
    let expected: SearchResult<G::Move> = search(&root, algorithm);
    let mut stepper = Stepper::new(root, algorithm);
    assert_eq!(
        stepper.step_back(),
        None,
        "nothing to undo before the first step"
    );

    let mut snapshots = vec![(0, snapshot(&stepper))];
    let mut events = Vec::new();
    while let Some(event) = stepper.step() {
        events.push(event);
        if events.len() % stride == 0 {
            snapshots.push((events.len(), snapshot(&stepper)));
        }
    }
    assert_eq!(stepper.result(), Some(expected), "{root:?} {algorithm}");
    assert_eq!(stepper.events_taken(), events.len());
    assert_eq!(stepper.step(), None, "nothing after the end");
    assert_eq!(stepper.peek(), None);

    // Back to the start: each undo returns the event taken, and every recorded state comes
    // back exactly.
    while let Some(event) = stepper.step_back() {
        assert_eq!(
            Some(event),
            events.pop(),
            "{root:?}: undo returns the last event"
        );
        if snapshots.last().is_some_and(|(at, _)| *at > events.len()) {
            snapshots.pop();
        }
        if let Some((at, state)) = snapshots.last()
            && *at == events.len()
        {
            assert!(
                snapshot(&stepper) == *state,
                "{root:?}: state after {at} events"
            );
        }
    }
    assert!(events.is_empty());
    assert_eq!(stepper.events_taken(), 0);
    assert!(stepper.nodes().is_empty());
    assert_eq!(stepper.stats(), SearchStats::default());
    assert_eq!(stepper.current(), None);
    assert_eq!(stepper.result(), None);
    assert_eq!(
        stepper.step_back(),
        None,
        "step_back at the start returns None"
    );
    assert_eq!(
        stepper.peek().map(|e| (e.kind, e.node)),
        Some((EventKind::Enter, 0))
    );

    // Forward again: the same result.
    stepper.run_to_end();
    assert_eq!(
        stepper.result(),
        Some(expected),
        "{root:?} {algorithm} (again)"
    );
}

#[test]
fn stepping_back_to_the_start_and_forward_again_reproduces_the_search() {
    // Small trees: every intermediate state is compared.
    let small = [
        Board::parse("XOX.O....", None).unwrap(),          // 5 empty
        Board::parse("XO..X....", Some(Mark::O)).unwrap(), // 6 empty
        Board::parse("XX.OO....", Some(Mark::X)).unwrap(), // a win in one
        Board::parse("XOXOXO...", None).unwrap(),          // 3 empty
    ];
    for board in small {
        for algorithm in ALGORITHMS {
            assert_round_trip(board, algorithm, 1);
        }
    }
    for eight in [
        Eight::start(),
        Eight::from_parts(3, Some(2)).unwrap(),
        Eight::from_parts(6, Some(1)).unwrap(),
    ] {
        for algorithm in ALGORITHMS {
            assert_round_trip(eight, algorithm, 1);
        }
    }
    // Larger trees (7 and 8 empty cells; O opening): a sample of the states is compared.
    let large = [
        Board::parse("X...O....", None).unwrap(),
        Board::parse(".........", Some(Mark::O)).unwrap().play(4),
    ];
    for board in large {
        for algorithm in ALGORITHMS {
            let stride = match algorithm {
                Algorithm::Minimax => 997,
                Algorithm::AlphaBeta => 31,
            };
            assert_round_trip(board, algorithm, stride);
        }
    }
}

#[test]
fn partial_step_back_then_forward_gives_the_same_result() {
    // Undo only part of the way (into the middle of the tree), then finish.
    let root = Board::parse("X...O....", None).unwrap();
    for algorithm in ALGORITHMS {
        let expected = search(&root, algorithm);
        let mut stepper = stepped(root, algorithm);
        let total = stepper.events_taken();
        for _ in 0..total / 2 {
            assert!(stepper.step_back().is_some());
        }
        assert!(!stepper.is_finished());
        stepper.run_to_end();
        assert_eq!(stepper.result(), Some(expected), "{algorithm}");
        assert_eq!(stepper.events_taken(), total);
    }
}

#[test]
fn step_back_on_a_fresh_stepper_returns_none() {
    let mut stepper = Stepper::new(Board::empty(Mark::X), Algorithm::AlphaBeta);
    assert_eq!(stepper.step_back(), None);
    assert_eq!(stepper.events_taken(), 0);
    let mut eight = Stepper::new(Eight::start(), Algorithm::Minimax);
    assert_eq!(eight.step_back(), None);
    // One step and one undo bring it back to the start, and then None again.
    assert!(eight.step().is_some());
    assert!(eight.step_back().is_some());
    assert_eq!(eight.step_back(), None);
}
