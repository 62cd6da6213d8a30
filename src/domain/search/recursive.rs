//! The recursive face of the search: minimax and alpha-beta as plain recursion, for play,
//! `solve` and benchmarks, with the values and counters both faces share.

use super::ordering::MoveOrder;
use super::score::{INFINITY, evaluate};
use crate::domain::games::Game;
use std::fmt;

/// Which search the AI runs; the default is alpha-beta, what a real engine would run. The
/// config file (`search.algorithm`) and `solve --algo` spell it `minimax` / `alphabeta`
/// through the serde and clap derives, so there is one algorithm type, not one per reader.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Plain minimax: visits every node of the tree, the baseline to compare against.
    #[value(help = "Plain minimax")]
    Minimax,
    /// Minimax with alpha-beta pruning: same value, fewer nodes.
    #[default]
    #[value(name = "alphabeta", help = "Alpha-beta pruning")]
    AlphaBeta,
}

impl Algorithm {
    /// The other algorithm, for the toggle key.
    #[must_use]
    pub const fn toggled(self) -> Self {
        match self {
            Self::Minimax => Self::AlphaBeta,
            Self::AlphaBeta => Self::Minimax,
        }
    }
}

impl Algorithm {
    /// The algorithm's name as the screens write it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Minimax => "minimax",
            Self::AlphaBeta => "alpha-beta",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counts a search reports, identical between [`search`] and [`Stepper`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Nodes entered, root included.
    pub nodes: u64,
    /// Terminal positions evaluated.
    pub leaves: u64,
    /// Cut-offs that pruned at least one child.
    pub cutoffs: u64,
}

/// What a finished search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// Root value from the point of view of the player to move at the root (MAX).
    pub value: i32,
    /// The first move reaching that value; `None` only when the root is terminal.
    pub best_move: Option<M>,
    /// Node, leaf and cut-off counts.
    pub stats: SearchStats,
}

/// Searches `root` to the end of the game and returns the value and the best move for
/// the player to move. Children are tried in `legal_moves` order; the first best wins ties.
pub fn search<G: Game>(root: &G, algorithm: Algorithm) -> SearchResult<G::Move> {
    search_ordered(root, algorithm, MoveOrder::Listed)
}

/// [`search`] with the children of every node tried in `order`: the same value, other
/// counts with alpha-beta, and among moves of equal value the first in `order` wins.
pub fn search_ordered<G: Game>(
    root: &G,
    algorithm: Algorithm,
    order: MoveOrder,
) -> SearchResult<G::Move> {
    run(root, algorithm, order, None)
}

/// A root child as the recursive search returned from it: the raw facts
/// [`super::search_weighing`] reads a value and its bound from.
#[derive(Debug, Clone, Copy)]
pub(super) struct RootChild<M> {
    pub(super) mv: M,
    pub(super) value: i32,
    /// Whether `value` is the child's minimax value rather than a bound on it.
    pub(super) exact: bool,
    /// The child's children that a cut-off at it left unsearched.
    pub(super) skipped: u8,
    /// The α the child was searched with: a value that is not exact lies at or below it
    /// (an upper bound) or else at or above β (a lower bound).
    pub(super) alpha: i32,
}

/// The recursive search, also noting in `root_moves` (when given) what each root move
/// returned: the one search behind [`search`] and [`super::search_weighing`].
pub(super) fn run<G: Game>(
    root: &G,
    algorithm: Algorithm,
    order: MoveOrder,
    root_moves: Option<&mut Vec<RootChild<G::Move>>>,
) -> SearchResult<G::Move> {
    let mut searcher = Recursive {
        max_player: root.to_move(),
        prune: algorithm == Algorithm::AlphaBeta,
        order,
        stats: SearchStats::default(),
        root_moves,
    };
    let returned = searcher.node(root, 0, -INFINITY, INFINITY);
    SearchResult {
        value: returned.value,
        best_move: returned.best_move,
        stats: searcher.stats,
    }
}

struct Recursive<'a, P, M> {
    max_player: P,
    prune: bool,
    order: MoveOrder,
    stats: SearchStats,
    root_moves: Option<&'a mut Vec<RootChild<M>>>,
}

/// What a node returned to its parent.
struct Returned<M> {
    value: i32,
    best_move: Option<M>,
    /// Whether `value` is the node's minimax value: see [`super::TreeNode::bound`].
    exact: bool,
    /// Children a cut-off at this node left unsearched.
    skipped: u8,
}

impl<P: Copy + PartialEq, M: Copy> Recursive<'_, P, M> {
    fn node<G: Game<Player = P, Move = M>>(
        &mut self,
        position: &G,
        depth: u32,
        alpha_in: i32,
        beta_in: i32,
    ) -> Returned<G::Move> {
        self.stats.nodes += 1;
        if let Some(outcome) = position.outcome() {
            self.stats.leaves += 1;
            return Returned {
                value: evaluate(outcome, &self.max_player, depth),
                best_move: None,
                exact: true,
                skipped: 0,
            };
        }
        let (mut alpha, mut beta) = (alpha_in, beta_in);
        let maximizing = position.to_move() == self.max_player;
        let moves = self.order.moves(position);
        let moves = moves.as_ref();
        let mut best = if maximizing { -INFINITY } else { INFINITY };
        let mut best_move = None;
        let mut children_exact = true;
        let mut skipped = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let child = position.play(mv);
            let returned = self.node(&child, depth + 1, alpha, beta);
            let value = returned.value;
            children_exact &= returned.exact;
            if depth == 0
                && let Some(root_moves) = self.root_moves.as_deref_mut()
            {
                root_moves.push(RootChild {
                    mv,
                    value,
                    exact: returned.exact,
                    skipped: returned.skipped,
                    alpha,
                });
            }
            if maximizing {
                if value > best {
                    best = value;
                    best_move = Some(mv);
                }
                alpha = alpha.max(value);
            } else {
                if value < best {
                    best = value;
                    best_move = Some(mv);
                }
                beta = beta.min(value);
            }
            if self.prune && alpha >= beta && i + 1 < moves.len() {
                self.stats.cutoffs += 1;
                skipped = (moves.len() - i - 1) as u8;
                break;
            }
        }
        let inside = alpha_in < best && best < beta_in;
        Returned {
            value: best,
            best_move,
            exact: !self.prune || inside || (skipped == 0 && children_exact),
            skipped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::search::WIN;

    #[test]
    fn plain_minimax_visits_549_946_nodes_from_the_empty_board() {
        let result = search(&Board::empty(Mark::X), Algorithm::Minimax);
        assert_eq!(result.stats.nodes, 549_946);
        assert_eq!(result.stats.leaves, 255_168);
        assert_eq!(result.value, 0);
        assert_eq!(result.stats.cutoffs, 0);
    }

    #[test]
    fn alpha_beta_agrees_and_visits_fewer_nodes() {
        let full = search(&Board::empty(Mark::X), Algorithm::Minimax);
        let pruned = search(&Board::empty(Mark::X), Algorithm::AlphaBeta);
        assert_eq!(pruned.value, full.value);
        assert!(pruned.stats.nodes < full.stats.nodes / 10);
        assert!(pruned.stats.cutoffs > 0);
    }

    #[test]
    fn a_quick_win_beats_a_slow_one() {
        // X to move can win at once with cell 3 (index 2).
        let board = Board::parse("XX.OO....", Some(Mark::X)).unwrap();
        let result = search(&board, Algorithm::AlphaBeta);
        assert_eq!(result.best_move, Some(2));
        assert_eq!(result.value, WIN - 1);
    }

    #[test]
    fn the_second_player_wins_the_game_of_eight() {
        // Whatever the first player does, the second forces an overshoot on the first
        // player's third choice (depth 5).
        let result = search(&Eight::start(), Algorithm::Minimax);
        assert_eq!(result.value, 5 - WIN);
        assert_eq!(search(&Eight::start(), Algorithm::AlphaBeta).value, 5 - WIN);
    }

    #[test]
    fn alpha_beta_from_the_empty_board_visits_what_the_original_visits() {
        // The original program's C++ alpha-beta (benches/seed_cpp) visits 20,866 nodes with the
        // same move order and tie-breaking.
        let result = search(&Board::empty(Mark::X), Algorithm::AlphaBeta);
        assert_eq!(result.stats.nodes, 20_866);
        assert_eq!(result.stats.leaves, 8_453);
    }
}
