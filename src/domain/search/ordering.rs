//! Move ordering: the order a search tries a node's children in. It never changes a node's
//! value, only how soon alpha-beta finds a good move and so how much it can prune (and, among
//! moves of equal value, which one is found first and played).

use super::score::evaluate;
use crate::domain::games::Game;

/// How many plies the best-first order looks ahead to rank a node's moves: the move itself
/// and the opponent's reply, so a move that wins at once comes first and one that lets the
/// opponent win at once comes last.
pub const SHALLOW_PLIES: u32 = 2;

/// The order children are searched in. The config file (`search.order`) spells it
/// `listed` / `static` / `best`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum MoveOrder {
    /// As the game lists its moves (cells 1-9, numbers 1-3): the search as it always was.
    #[default]
    Listed,
    /// A fixed rule of thumb of the game ([`Game::static_rank`]): centre and corners first
    /// in tic-tac-toe, the largest number first in the Game of Eight.
    Static,
    /// Best first by a [`SHALLOW_PLIES`]-ply search of each move (terminal positions scored
    /// as the real search scores them, anything else 0); ties keep the listed order.
    Best,
}

impl MoveOrder {
    /// Every order, in the order the toggle visits them.
    pub const ALL: [Self; 3] = [Self::Listed, Self::Static, Self::Best];

    /// The order after this one, for the toggle key.
    #[must_use]
    pub const fn next(self) -> Self {
        match self {
            Self::Listed => Self::Static,
            Self::Static => Self::Best,
            Self::Best => Self::Listed,
        }
    }

    /// The legal moves of `position` in this order.
    pub fn moves<G: Game>(self, position: &G) -> G::Moves {
        let mut moves = position.legal_moves();
        self.arrange(position, &mut moves);
        moves
    }

    /// Puts `moves` (legal in `position`) in this order; a stable sort, so moves that rank
    /// alike keep the listed order.
    pub fn arrange<G: Game>(self, position: &G, moves: &mut G::Moves) {
        let moves = moves.as_mut();
        match self {
            Self::Listed => {}
            Self::Static => moves.sort_by_key(|&mv| position.static_rank(mv)),
            Self::Best => {
                let mut scored: Vec<(i32, G::Move)> = moves
                    .iter()
                    .map(|&mv| (shallow_score(position, mv), mv))
                    .collect();
                // Highest score first; `sort_by_key` is stable.
                scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
                for (slot, (_, mv)) in moves.iter_mut().zip(scored) {
                    *slot = mv;
                }
            }
        }
    }
}

/// What a [`SHALLOW_PLIES`]-ply search says `mv` is worth to the player who makes it.
fn shallow_score<G: Game>(position: &G, mv: G::Move) -> i32 {
    let mover = position.to_move();
    shallow(&position.play(mv), &mover, 1)
}

/// Depth-limited minimax from `mover`'s view: a finished game scored as the real search
/// scores it (`WIN - depth`), a position at the horizon 0.
fn shallow<G: Game>(position: &G, mover: &G::Player, depth: u32) -> i32 {
    if let Some(outcome) = position.outcome() {
        return evaluate(outcome, mover, depth);
    }
    if depth >= SHALLOW_PLIES {
        return 0;
    }
    let values = position
        .legal_moves()
        .as_ref()
        .iter()
        .map(|&mv| shallow(&position.play(mv), mover, depth + 1))
        .collect::<Vec<_>>();
    let best = if position.to_move() == *mover {
        values.iter().max()
    } else {
        values.iter().min()
    };
    best.copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;
    use crate::domain::games::tictactoe::{Board, Mark};

    fn ordered(board: Board, order: MoveOrder) -> Vec<u8> {
        order.moves(&board).as_ref().to_vec()
    }

    #[test]
    fn listed_is_the_games_own_order() {
        let empty = Board::empty(Mark::X);
        assert_eq!(
            ordered(empty, MoveOrder::Listed),
            empty.legal_moves().as_ref()
        );
    }

    #[test]
    fn static_puts_the_centre_then_the_corners_first() {
        let empty = Board::empty(Mark::X);
        assert_eq!(
            ordered(empty, MoveOrder::Static),
            [4, 0, 2, 6, 8, 1, 3, 5, 7]
        );
        let eight = Eight::start();
        assert_eq!(MoveOrder::Static.moves(&eight).as_ref(), [3, 2, 1]);
    }

    #[test]
    fn best_first_plays_a_win_first_and_a_loss_last() {
        // X to move: cell 3 (index 2) wins at once.
        let board = Board::parse("XX.OO....", Some(Mark::X)).unwrap();
        let moves = ordered(board, MoveOrder::Best);
        assert_eq!(moves[0], 2);
        // O to move on the same board: cell 6 (index 5) wins for O; cell 3 blocks X. Any
        // other move lets X win at once, so those come last.
        let board = Board::parse("XX.OO....", Some(Mark::O)).unwrap();
        let moves = ordered(board, MoveOrder::Best);
        assert_eq!(moves[0], 5);
        assert_eq!(moves[1], 2, "the block ties at 0 with nothing else");
    }

    #[test]
    fn every_order_is_a_permutation_of_the_legal_moves() {
        let board = Board::parse("X...O..X.", Some(Mark::O)).unwrap();
        for order in MoveOrder::ALL {
            let mut moves = ordered(board, order);
            moves.sort_unstable();
            assert_eq!(moves, board.legal_moves().as_ref(), "{order:?}");
        }
    }

    #[test]
    fn the_toggle_visits_every_order_and_comes_back() {
        let mut order = MoveOrder::Listed;
        for expected in MoveOrder::ALL.iter().cycle().skip(1).take(3) {
            order = order.next();
            assert_eq!(order, *expected);
        }
        assert_eq!(order, MoveOrder::Listed);
    }
}

/// The orders against the plain search: the value never changes, the move chosen is always
/// one of the best, and the step machine agrees with the recursive search in every order.
#[cfg(test)]
mod agreement {
    use super::MoveOrder;
    use crate::domain::games::Game;
    use crate::domain::games::eight::Eight;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::search::{Algorithm, Stepper, search, search_ordered};
    use std::collections::HashSet;

    /// Every position reachable from `starts`, the starts included.
    fn reachable<G: Game>(starts: &[G]) -> Vec<G> {
        let mut seen: HashSet<G> = starts.iter().copied().collect();
        let mut queue: Vec<G> = starts.to_vec();
        let mut all = Vec::new();
        while let Some(position) = queue.pop() {
            all.push(position);
            for &mv in position.legal_moves().as_ref() {
                let next = position.play(mv);
                if seen.insert(next) {
                    queue.push(next);
                }
            }
        }
        all
    }

    /// The root's value of `mv` by plain minimax of the position after it: the child's value
    /// is from the opponent's view with depths counted from the child, one ply shallower.
    fn value_of_move<G: Game>(root: &G, mv: G::Move) -> i32 {
        let child = search(&root.play(mv), Algorithm::Minimax).value;
        -child + child.signum()
    }

    fn check_every_order<G: Game>(position: &G, minimax_too: bool) {
        if position.outcome().is_some() {
            return;
        }
        let truth = search(position, Algorithm::Minimax);
        for order in MoveOrder::ALL {
            let pruned = search_ordered(position, Algorithm::AlphaBeta, order);
            assert_eq!(pruned.value, truth.value, "{position:?} {order:?}");
            let chosen = pruned.best_move.expect("a move");
            assert_eq!(
                value_of_move(position, chosen),
                truth.value,
                "{position:?} {order:?}: the move chosen is one of the best"
            );
            if minimax_too {
                let full = search_ordered(position, Algorithm::Minimax, order);
                assert_eq!(full.value, truth.value, "{position:?} {order:?}");
                assert_eq!(full.stats, truth.stats, "minimax visits every node");
                assert_eq!(
                    value_of_move(position, full.best_move.unwrap()),
                    truth.value
                );
            }
        }
    }

    #[test]
    fn no_order_changes_the_value_of_any_reachable_tictactoe_position() {
        let positions = reachable(&[Board::empty(Mark::X), Board::empty(Mark::O)]);
        // 5,478 positions with X first, the same again with O first, the empty board shared
        // by neither (its mover differs).
        assert_eq!(positions.len(), 2 * 5_478);
        for position in &positions {
            // Plain minimax in every order is checked where its tree is small enough to
            // run three more times (at most 7 empty cells: all but 20 positions).
            let empty_cells = position.legal_moves().as_ref().len();
            check_every_order(position, empty_cells <= 7);
        }
    }

    #[test]
    fn no_order_changes_the_value_of_any_game_of_eight_position() {
        for position in reachable(&[Eight::start()]) {
            check_every_order(&position, true);
        }
    }

    #[test]
    fn the_stepper_agrees_with_the_recursive_search_in_every_order() {
        let roots = [
            Board::empty(Mark::X),
            Board::parse("X...O....", Some(Mark::X)).unwrap(),
            Board::parse("XO..X....", Some(Mark::O)).unwrap(),
        ];
        for order in MoveOrder::ALL {
            for algorithm in [Algorithm::AlphaBeta, Algorithm::Minimax] {
                for root in roots
                    .iter()
                    .skip(usize::from(algorithm == Algorithm::Minimax))
                {
                    let mut stepper = Stepper::new(*root, algorithm).with_order(order);
                    stepper.run_to_end();
                    let recursive = search_ordered(root, algorithm, order);
                    assert_eq!(stepper.result(), Some(recursive), "{root:?} {order:?}");
                }
                let mut stepper = Stepper::new(Eight::start(), algorithm).with_order(order);
                stepper.run_to_end();
                assert_eq!(
                    stepper.result(),
                    Some(search_ordered(&Eight::start(), algorithm, order))
                );
            }
        }
    }

    #[test]
    fn ordering_changes_how_much_alpha_beta_prunes_from_the_empty_board() {
        let empty = Board::empty(Mark::X);
        let nodes = |order| {
            search_ordered(&empty, Algorithm::AlphaBeta, order)
                .stats
                .nodes
        };
        assert_eq!(nodes(MoveOrder::Listed), 20_866);
        assert!(nodes(MoveOrder::Static) < nodes(MoveOrder::Listed));
        assert!(nodes(MoveOrder::Best) < nodes(MoveOrder::Listed));
    }

    #[test]
    fn the_stepper_steps_back_through_an_ordered_search() {
        let root = Board::parse("XO..X....", Some(Mark::O)).unwrap();
        let mut stepper = Stepper::new(root, Algorithm::AlphaBeta).with_order(MoveOrder::Best);
        stepper.run_to_end();
        let nodes = stepper.nodes().to_vec();
        while stepper.step_back().is_some() {}
        stepper.run_to_end();
        assert_eq!(stepper.nodes(), nodes.as_slice());
        assert_eq!(stepper.moves_not_entered(0).len(), 0);
    }
}
