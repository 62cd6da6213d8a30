//! How the solver scores a position, and what a score means to a player: the numbers every
//! part of the solver shares.

use crate::domain::games::connect4::{Board, CELLS};
use crate::domain::solve::verdict::Verdict;

/// The lowest score there is: losing to a four the other player makes with its 4th stone.
pub const MIN_SCORE: i32 = -(CELLS as i32) / 2 + 3;
/// The highest score there is.
pub const MAX_SCORE: i32 = (CELLS as i32 + 1) / 2 - 3;

/// The verdict, for the player to move on `board`, of a move (or position) whose score is
/// `score`: the score counts the winner's stones, the verdict the plies from now, this
/// move included.
pub fn verdict(board: &Board, score: i32) -> Verdict {
    // The winner's w-th stone is ply 2w-1 of the game for the first player, 2w for the second.
    let end_ply =
        |winner_moves_first: bool, stones: i32| (2 * stones - i32::from(winner_moves_first)) as u32;
    let mover_first = board.moves().is_multiple_of(2);
    let played = board.moves() as u32;
    match score {
        0 => Verdict::DRAW,
        s if s > 0 => Verdict::wins_in_plies(end_ply(mover_first, 22 - s) - played),
        s => Verdict::loses_in_plies(end_ply(!mover_first, 22 + s) - played),
    }
}

/// The score of a win by the player to move with its next stone.
pub fn win_now_score(board: &Board) -> i32 {
    (CELLS as i32 + 1 - board.moves() as i32) / 2
}
