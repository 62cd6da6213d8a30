//! Plain searches to the end of the game, without the solver's speed-ups: the references the
//! solver is tested against, on every size of board.

use super::score::win_now_score;
use crate::domain::games::connect4::Grid;

/// Plain negamax to the end of the game, with no pruning, no table and no ordering: the
/// reference the solver is tested against on positions close to the end.
pub fn plain_negamax<const W: usize, const H: usize>(board: &Grid<W, H>) -> i32 {
    if board.moves() == Grid::<W, H>::CELLS {
        return 0;
    }
    let mut best = i32::MIN;
    for column in 0..W {
        if !board.can_play(column) {
            continue;
        }
        let score = if board.wins_with(column) {
            win_now_score(board)
        } else {
            -plain_negamax(&board.play(column))
        };
        best = best.max(score);
    }
    best
}

/// Negamax to the end of the game with alpha-beta pruning and nothing else: no table, no
/// ordering (columns left to right), no null-window search. Pruning alone never changes a
/// full window's value, so it stands in for [`plain_negamax`] where that would take hours
/// (24 discs on the 7 × 6 board leave 18 empty cells); tests check the two agree where both
/// finish.
pub fn plain_alphabeta<const W: usize, const H: usize>(
    board: &Grid<W, H>,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if board.moves() == Grid::<W, H>::CELLS {
        return 0;
    }
    let mut best = i32::MIN;
    for column in 0..W {
        if !board.can_play(column) {
            continue;
        }
        let score = if board.wins_with(column) {
            win_now_score(board)
        } else {
            -plain_alphabeta(&board.play(column), -beta, -alpha)
        };
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}
