//! Grading the learner against the exact answer: on a fixed set of positions, the share in
//! which its move keeps the position's value (a won position stays won, a drawn one at
//! least drawn), for the network alone (its highest prior) and with its search.

use super::learnable::Learnable;
use super::net::PolicyValueNet;
use super::puct::{Puct, PuctSettings};
use super::saved::CurvePoint;
use super::trainer::Trainer;
use crate::domain::games::Game as _;
use crate::domain::games::connect4::{Board as Connect4, Grid, SmallBoard};
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::solve::connect4::{GridSolver, SmallSolver, Solver as Connect4Solver};
use crate::domain::solve::perfect::Solver;
use crate::domain::solve::verdict::Verdict;
use rand::{RngExt as _, SeedableRng};
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

/// A graded position: the position, and for each policy index whether playing it keeps
/// the exact value (found once, so every curve point grades without a solver).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graded<G> {
    /// The position, a game still on.
    pub position: G,
    /// For each policy index, whether that move keeps the value; false for illegal ones.
    pub keeps: Vec<bool>,
}

/// Grades every tic-tac-toe position [`tictactoe_positions`] finds.
pub fn grade_tictactoe() -> Vec<Graded<Board>> {
    let mut solver = Solver::new();
    tictactoe_positions()
        .into_iter()
        .map(|position| {
            let best = solver.verdict(&position);
            let mut keeps = vec![false; Board::MOVES];
            for &mv in position.legal_moves().as_ref() {
                keeps[Board::index(mv)] = same_end(solver.after(&position, mv), best);
            }
            Graded { position, keeps }
        })
        .collect()
}

/// [`grade_tictactoe`], made once for the whole process: every curve point of every
/// session and command grades the same 4,520 positions.
pub fn graded_tictactoe() -> &'static [Graded<Board>] {
    static GRADED: std::sync::OnceLock<Vec<Graded<Board>>> = std::sync::OnceLock::new();
    GRADED.get_or_init(grade_tictactoe)
}

/// The same end of the game (won, drawn, lost), whatever the distance.
fn same_end(a: Verdict, b: Verdict) -> bool {
    (a.wins(), a.is_draw(), a.loses()) == (b.wins(), b.is_draw(), b.loses())
}

/// `position` graded by the four-in-a-row solver: a move keeps the value when its exact
/// score has the sign of the best one (won, drawn or lost, however soon). `None` when the
/// solver needs more than `budget` positions for it.
pub fn grade_grid<const W: usize, const H: usize>(
    position: Grid<W, H>,
    solver: &mut GridSolver<W, H>,
    budget: u64,
) -> Option<Graded<Grid<W, H>>> {
    solver.reset_nodes();
    let scores = solver.scores_within(&position, budget)?;
    let best = scores.iter().flatten().max()?.signum();
    let keeps = scores
        .iter()
        .map(|score| score.is_some_and(|score| score.signum() == best))
        .collect();
    Some(Graded { position, keeps })
}

/// `count` distinct positions of random games on the `W` x `H` board, each after a number
/// of moves drawn from `plies` (a game that ends sooner is drawn again), all from `seed`:
/// a fixed sample, so every run is graded on the same positions.
pub fn sampled_grid_positions<const W: usize, const H: usize>(
    count: usize,
    plies: std::ops::RangeInclusive<usize>,
    seed: u64,
) -> Vec<Grid<W, H>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut positions = Vec::with_capacity(count);
    // Bounded: a range with fewer positions than asked ends the draws.
    for _ in 0..count.saturating_mul(50) {
        if positions.len() == count {
            break;
        }
        let moves = rng.random_range(plies.clone());
        let mut position = Grid::<W, H>::new();
        while position.moves() < moves && !position.is_over() {
            let open: Vec<usize> = position.open_columns().collect();
            position = position.play(open[rng.random_range(0..open.len())]);
        }
        if !position.is_over() && position.moves() == moves && seen.insert(position) {
            positions.push(position);
        }
    }
    positions
}

/// The small board's graded sample: 2,000 positions of random games of 0 to 18 moves,
/// every one solved exactly (a few seconds, once a process).
pub fn graded_small_board() -> &'static [Graded<SmallBoard>] {
    static GRADED: std::sync::OnceLock<Vec<Graded<SmallBoard>>> = std::sync::OnceLock::new();
    GRADED.get_or_init(|| {
        let mut solver = SmallSolver::with_table_bits(20);
        sampled_grid_positions::<5, 4>(2_000, 0..=18, 0x5a11)
            .into_iter()
            .filter_map(|position| grade_grid(position, &mut solver, u64::MAX))
            .collect()
    })
}

/// Connect Four's graded sample: middle-game positions (12 to 20 moves of random games)
/// that the solver answers within a budget, 200 of them: the whole game is too large to
/// grade, and its openings are where a learner is weakest.
pub fn graded_connect4() -> &'static [Graded<Connect4>] {
    static GRADED: std::sync::OnceLock<Vec<Graded<Connect4>>> = std::sync::OnceLock::new();
    GRADED.get_or_init(|| {
        let mut solver = Connect4Solver::default();
        sampled_grid_positions::<7, 6>(400, 12..=20, 0xc4)
            .into_iter()
            .filter_map(|position| grade_grid(position, &mut solver, 2_000_000))
            .take(200)
            .collect()
    })
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

/// Grades `net` on `graded`: its highest prior, and the most visited move after
/// `simulations` simulations (none: the network alone only).
pub fn kept_value<G: Learnable>(
    net: &PolicyValueNet,
    graded: &[Graded<G>],
    simulations: u32,
    c_puct: f32,
) -> Kept {
    let mut kept = Kept {
        of: graded.len(),
        ..Kept::default()
    };
    let settings = PuctSettings {
        c_puct,
        noise: None,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for Graded { position, keeps } in graded {
        let eval = net.evaluate(&position.encode(), &position.legal());
        kept.network += usize::from(keeps[highest(&eval.priors)]);
        if simulations > 0 {
            let mut evaluator = net;
            let mut tree = Puct::new(*position, settings, &mut evaluator, &mut rng);
            tree.run(simulations, &mut evaluator);
            kept.searched += usize::from(keeps[tree.choose(0.0, &mut rng)]);
        }
    }
    kept
}

/// The curve's point now: what `trainer` has done, and how it plays `graded` (its search of
/// `simulations`, its own `c_puct`), after `seconds` of training in all.
pub fn curve_point<G: Learnable>(
    trainer: &Trainer<G>,
    graded: &[Graded<G>],
    seconds: f64,
    simulations: u32,
) -> CurvePoint {
    let kept = kept_value(&trainer.net, graded, simulations, trainer.settings().c_puct);
    let progress = trainer.progress();
    CurvePoint {
        games: progress.games,
        seconds,
        policy_loss: progress.losses.policy,
        value_loss: progress.losses.value,
        buffer: trainer.buffered(),
        network_kept: Kept::percent(kept.network, kept.of),
        searched_kept: Kept::percent(kept.searched, kept.of),
        ..CurvePoint::default()
    }
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
        let graded: Vec<Graded<Board>> = graded_tictactoe().iter().step_by(9).cloned().collect();
        let net = PolicyValueNet::new(Board::INPUTS, &[16], Board::MOVES, 1);
        let kept = kept_value(&net, &graded, 200, 1.5);
        assert_eq!(kept.of, graded.len());
        assert!(kept.network < kept.of, "{kept:?}");
        assert!(kept.searched > kept.network, "{kept:?}");
    }

    /// Every tic-tac-toe position has a move that keeps its value, and the empty board's
    /// every move does (all draw).
    #[test]
    fn every_graded_position_has_a_move_that_keeps_its_value() {
        let graded = graded_tictactoe();
        assert!(graded.iter().all(|g| g.keeps.iter().any(|&k| k)));
        assert_eq!(graded[0].keeps, vec![true; 9]);
    }

    /// On the small board a move keeps the value when its exact score has the best
    /// score's sign: checked against the solver's scores themselves.
    #[test]
    fn a_grid_move_keeps_the_value_when_its_score_has_the_best_sign() {
        let positions = sampled_grid_positions::<5, 4>(40, 4..=12, 9);
        assert_eq!(positions.len(), 40);
        let distinct: HashSet<_> = positions.iter().collect();
        assert_eq!(distinct.len(), 40);
        let mut solver = SmallSolver::with_table_bits(16);
        let mut keeping_some_but_not_all = 0;
        for position in positions {
            assert!(!position.is_over());
            let graded = grade_grid(position, &mut solver, u64::MAX).unwrap();
            let scores = solver.scores(&position);
            let best = scores.iter().flatten().max().unwrap();
            for (column, score) in scores.iter().enumerate() {
                let expected = score.is_some_and(|s| s.signum() == best.signum());
                assert_eq!(
                    graded.keeps[column], expected,
                    "{position:?} column {column}"
                );
            }
            let kept = graded.keeps.iter().filter(|&&k| k).count();
            keeping_some_but_not_all += usize::from(kept > 0 && kept < 5);
        }
        assert!(keeping_some_but_not_all > 5, "{keeping_some_but_not_all}");
    }

    /// A budget the solver cannot keep leaves the position out rather than guessing.
    #[test]
    fn a_position_past_the_budget_is_not_graded() {
        let mut solver = SmallSolver::with_table_bits(16);
        assert_eq!(grade_grid(SmallBoard::new(), &mut solver, 10), None);
    }
}
