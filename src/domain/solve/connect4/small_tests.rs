//! The solver on smaller boards, the small board (5 × 4) and an odd height (6 × 5), against
//! the plain references: the same checks the 7 × 6 solver passes, on boards where they reach
//! further back towards the empty board, on the small one to the empty board itself.

use super::tests_support::random_position_on;
use super::*;
use crate::domain::games::connect4::SmallBoard;
use crate::domain::solve::verdict::Verdict;
use proptest::prelude::*;

fn small(moves: &str) -> SmallBoard {
    SmallBoard::parse(moves).unwrap()
}

/// A window wider than every score of a `W` × `H` board.
const fn full<const W: usize, const H: usize>() -> (i32, i32) {
    (
        GridSolver::<W, H>::MIN_SCORE - 1,
        GridSolver::<W, H>::MAX_SCORE + 1,
    )
}

/// Plain alpha-beta with a full window: the exact value, without the solver's speed-ups.
fn exact<const W: usize, const H: usize>(board: &Grid<W, H>) -> i32 {
    plain_alphabeta(board, full::<W, H>().0, full::<W, H>().1)
}

/// Every column's score of `position` as `reference` finds it (a column's own four scored
/// as the solver scores it, a full column `None`).
fn reference_scores<const W: usize, const H: usize>(
    position: &Grid<W, H>,
    reference: impl Fn(&Grid<W, H>) -> i32,
) -> [Option<i32>; W] {
    std::array::from_fn(|column| {
        position.can_play(column).then(|| {
            let after = position.play(column);
            if after.is_won() {
                win_now_score(position)
            } else if after.is_over() {
                0
            } else {
                -reference(&after)
            }
        })
    })
}

/// The solver's score and every column's score of the random position `seed` and `moves`
/// draw are `reference`'s.
fn agrees<const W: usize, const H: usize>(
    seed: u64,
    moves: usize,
    reference: impl Fn(&Grid<W, H>) -> i32,
) -> Result<(), TestCaseError> {
    let position = random_position_on::<W, H>(seed, moves).expect("a position within 1,000 tries");
    let mut solver = GridSolver::<W, H>::with_table_bits(14);
    prop_assert_eq!(solver.solve(&position), reference(&position));
    prop_assert_eq!(
        solver.scores(&position),
        reference_scores(&position, reference)
    );
    Ok(())
}

#[test]
fn the_small_boards_scores_count_its_own_stones() {
    // 20 cells: a score is 11 − the winner's stones; the best, a four with the 4th stone, 7.
    assert_eq!((SmallSolver::MIN_SCORE, SmallSolver::MAX_SCORE), (-7, 7));
    assert_eq!(
        (GridSolver::<6, 5>::MIN_SCORE, GridSolver::<6, 5>::MAX_SCORE),
        (-12, 12)
    );
    assert_eq!(
        (Solver::MIN_SCORE, Solver::MAX_SCORE),
        (MIN_SCORE, MAX_SCORE)
    );
    let position = small("121212");
    let mut solver = SmallSolver::with_table_bits(12);
    assert_eq!(solver.solve(&position), 7);
    assert_eq!(verdict(&position, 7), Verdict::wins_in_plies(1));
    // Yellow to move, red wins with its 4th stone (ply 7) unless yellow blocks.
    let facing = small("12121");
    assert_eq!(-solver.solve(&facing.play(1)), -7);
    assert_eq!(verdict(&facing, -7), Verdict::loses_in_plies(2));
    // An open three on the bottom row (red's, columns 2-4): yellow cannot block both ends
    // and loses to red's 4th stone.
    assert_eq!(solver.solve(&small("22334")), -7);
    // A draw after the last stone; a loss to red's 10th stone (11 − 10), ply 19.
    assert_eq!(verdict(&SmallBoard::new(), 0), Verdict::DRAW);
    assert_eq!(verdict(&small("1"), -1), Verdict::loses_in_plies(19 - 1));
}

/// The empty small board and every first move, solved from nothing and by plain alpha-beta
/// (no table, no ordering: an independent search to the end of every game): the values the
/// learner's judge rests on. Allis' follow-up keeps the first player from winning on a board
/// of an even height and at most 6 columns: the empty board is at best a draw for it.
#[test]
fn the_empty_small_board_is_solved_and_plain_alpha_beta_agrees() {
    let mut solver = SmallSolver::default();
    let empty = SmallBoard::new();
    let score = solver.solve(&empty);
    assert!(score <= 0, "{score}");
    let scores = solver.scores(&empty);
    assert_eq!(scores, reference_scores(&empty, exact));
    assert_eq!(scores.iter().flatten().max(), Some(&score), "{scores:?}");
    assert_eq!(scores[solver.best_move(&empty, score)], Some(score));
    assert_eq!(
        scores,
        std::array::from_fn(|c| scores[4 - c]),
        "mirror images"
    );
    // A fresh solver, with a table too small to remember much, finds the same.
    assert_eq!(SmallSolver::with_table_bits(10).scores(&empty), scores);
}

#[test]
fn threads_find_on_the_small_boards_what_one_thread_finds() {
    for seed in 0..6 {
        let position = random_position_on::<5, 4>(seed, seed as usize).unwrap();
        let alone = SmallSolver::with_table_bits(14).scores(&position);
        let mut together = SmallSolver::with_table_bits(14).with_threads(3);
        assert_eq!(together.scores(&position), alone, "seed {seed}");
        let position = random_position_on::<6, 5>(seed, 6 + seed as usize).unwrap();
        let alone = GridSolver::<6, 5>::with_table_bits(16).scores(&position);
        let mut together = GridSolver::<6, 5>::with_table_bits(16).with_threads(3);
        assert_eq!(together.scores(&position), alone, "6x5 seed {seed}");
    }
}

#[test]
fn small_scores_stay_in_their_range_and_a_shared_table_agrees_with_a_fresh_one() {
    let mut shared = SmallSolver::with_table_bits(12);
    for seed in 0..60 {
        let Some(position) = random_position_on::<5, 4>(seed, seed as usize % 16) else {
            continue;
        };
        let score = shared.solve(&position);
        let (low, high) = full::<5, 4>();
        assert!((low + 1..high).contains(&score), "{score}");
        assert_eq!(
            score,
            SmallSolver::with_table_bits(12).solve(&position),
            "seed {seed}"
        );
        let budgeted = SmallSolver::with_table_bits(12).solve_within(&position, u64::MAX);
        assert_eq!(budgeted, Some(score), "seed {seed}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The small solver's score and every column's score equal plain negamax's, on random
    /// positions of 8 moves and more (at most 12 empty cells, as for the 7 × 6 solver).
    #[test]
    fn the_small_solver_agrees_with_plain_negamax(seed in any::<u64>(), moves in 8usize..=16) {
        agrees::<5, 4>(seed, moves, plain_negamax)?;
    }

    /// The same on 6 × 5, a board of an odd height, from 18 moves on.
    #[test]
    fn the_6x5_solver_agrees_with_plain_negamax(seed in any::<u64>(), moves in 18usize..=26) {
        agrees::<6, 5>(seed, moves, plain_negamax)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// From the first moves on (up to 20 empty cells), the small solver's scores equal
    /// those of full-depth negamax with pruning alone.
    #[test]
    fn the_small_solver_agrees_with_full_depth_negamax(seed in any::<u64>(), moves in 1usize..=7) {
        agrees::<5, 4>(seed, moves, exact)?;
    }

    /// The same on 6 × 5 from 12 moves on (18 empty cells and fewer).
    #[test]
    fn the_6x5_solver_agrees_with_full_depth_negamax(seed in any::<u64>(), moves in 12usize..=17) {
        agrees::<6, 5>(seed, moves, exact)?;
    }

    /// Plain alpha-beta equals plain negamax on the smaller boards where both finish.
    #[test]
    fn plain_alphabeta_agrees_with_plain_negamax_on_the_smaller_boards(
        seed in any::<u64>(),
        moves in 8usize..=16,
    ) {
        let position = random_position_on::<5, 4>(seed, moves).expect("a position");
        prop_assert_eq!(exact(&position), plain_negamax(&position));
        let position = random_position_on::<6, 5>(seed, moves + 10).expect("a position");
        prop_assert_eq!(exact(&position), plain_negamax(&position));
    }
}
