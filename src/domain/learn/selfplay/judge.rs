//! Grading the learner against the exact answer: on a fixed set of positions, the share in
//! which its move keeps the position's value (a won position stays won, a drawn one at
//! least drawn), for the network alone (its highest prior) and with its search.

use super::learnable::Learnable;
use super::net::PolicyValueNet;
use super::puct::{Puct, PuctSettings};
use crate::domain::games::Game as _;
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::solve::perfect::Solver;
use crate::domain::solve::verdict::Verdict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{HashSet, VecDeque};

/// Every tic-tac-toe position a game from the empty board (X first) can reach where the
/// game goes on, in the order a breadth-first walk meets them.
pub fn tictactoe_positions() -> Vec<Board> {
    let start = Board::empty(Mark::X);
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    let mut positions = Vec::new();
    while let Some(position) = queue.pop_front() {
        if position.result().is_some() {
            continue;
        }
        positions.push(position);
        for &mv in position.legal_moves().as_ref() {
            let next = position.play(mv);
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    positions
}

/// [`tictactoe_positions`], made once for the whole process: every curve point of every
/// session and command grades the same 4,520 positions.
pub fn graded_tictactoe() -> &'static [Board] {
    static POSITIONS: std::sync::OnceLock<Vec<Board>> = std::sync::OnceLock::new();
    POSITIONS.get_or_init(tictactoe_positions)
}

/// The same end of the game (won, drawn, lost), whatever the distance.
fn same_end(a: Verdict, b: Verdict) -> bool {
    (a.wins(), a.is_draw(), a.loses()) == (b.wins(), b.is_draw(), b.loses())
}

/// How often the learner keeps the value, of how many positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Kept {
    /// Positions where the network's highest prior keeps the value.
    pub network: usize,
    /// Positions where the move after the search keeps it.
    pub searched: usize,
    /// Positions graded.
    pub of: usize,
}

impl Kept {
    /// A share in percent.
    pub fn percent(count: usize, of: usize) -> f64 {
        if of == 0 {
            0.0
        } else {
            100.0 * count as f64 / of as f64
        }
    }
}

/// Grades `net` on `positions`: its highest prior, and the most visited move after
/// `simulations` simulations (none: the network alone only), each against `solver`.
pub fn kept_value(
    net: &PolicyValueNet,
    positions: &[Board],
    simulations: u32,
    c_puct: f32,
    solver: &mut Solver<Board>,
) -> Kept {
    let mut kept = Kept {
        of: positions.len(),
        ..Kept::default()
    };
    let settings = PuctSettings {
        c_puct,
        noise: None,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for position in positions {
        let best = solver.verdict(position);
        let keeps = |solver: &mut Solver<Board>, index: usize| {
            same_end(solver.after(position, Board::move_at(index)), best)
        };
        let eval = net.evaluate(&position.encode(), &position.legal());
        let favourite = highest(&eval.priors);
        kept.network += usize::from(keeps(solver, favourite));
        if simulations > 0 {
            let mut evaluator = net;
            let mut tree = Puct::new(*position, settings, &mut evaluator, &mut rng);
            tree.run(simulations, &mut evaluator);
            kept.searched += usize::from(keeps(solver, tree.choose(0.0, &mut rng)));
        }
    }
    kept
}

/// The index of the largest value, the first among equals.
fn highest(values: &[f32]) -> usize {
    values
        .iter()
        .enumerate()
        .fold((0, f32::NEG_INFINITY), |best, (i, &v)| {
            if v > best.1 { (i, v) } else { best }
        })
        .0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count the issue names (and `OpenSpiel`'s tic-tac-toe test learns): 4,520.
    #[test]
    fn tictactoe_has_4520_positions_where_the_game_goes_on() {
        let positions = tictactoe_positions();
        assert_eq!(positions.len(), 4_520);
        assert_eq!(positions[0], Board::empty(Mark::X));
    }

    /// A network that knows nothing keeps the value in some positions (every move draws
    /// from the empty board) but far from all; a search with enough simulations keeps it
    /// more often.
    #[test]
    fn an_untrained_network_is_graded_below_its_search() {
        let positions: Vec<Board> = tictactoe_positions().into_iter().step_by(9).collect();
        let net = PolicyValueNet::new(Board::INPUTS, &[16], Board::MOVES, 1);
        let mut solver = Solver::new();
        let kept = kept_value(&net, &positions, 200, 1.5, &mut solver);
        assert_eq!(kept.of, positions.len());
        assert!(kept.network < kept.of, "{kept:?}");
        assert!(kept.searched > kept.network, "{kept:?}");
    }
}
