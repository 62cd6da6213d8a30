//! How the solver scores a position, and what a score means to a player: the numbers every
//! part of the solver shares, for every size of board.
//!
//! A score is 0 for a draw; otherwise ±(`CELLS / 2 + 1` − the stones the winner has played
//! when it wins), positive when the player to move wins: 22 − stones on the 7 × 6 board,
//! 11 − stones on 5 × 4. Every board the solver takes has an even number of cells, so both
//! players have `CELLS / 2` stones and the count means the same for either.

use crate::domain::games::connect4::{CELLS, Grid};
use crate::domain::solve::verdict::Verdict;

/// The lowest score on a board of `cells` cells: losing to a four the other player makes
/// with its 4th stone.
pub const fn min_score(cells: usize) -> i32 {
    -(cells as i32) / 2 + 3
}

/// The highest score on a board of `cells` cells: a four made with one's own 4th stone.
pub const fn max_score(cells: usize) -> i32 {
    (cells as i32 + 1) / 2 - 3
}

/// The lowest score there is on the 7 × 6 board.
pub const MIN_SCORE: i32 = min_score(CELLS);
/// The highest score there is on the 7 × 6 board.
pub const MAX_SCORE: i32 = max_score(CELLS);

/// The verdict, for the player to move on `board`, of a move (or position) whose score is
/// `score`: the score counts the winner's stones, the verdict the plies from now, this
/// move included.
pub fn verdict<const W: usize, const H: usize>(board: &Grid<W, H>, score: i32) -> Verdict {
    // The winner's w-th stone is ply 2w-1 of the game for the first player, 2w for the second.
    let end_ply =
        |winner_moves_first: bool, stones: i32| (2 * stones - i32::from(winner_moves_first)) as u32;
    let mover_first = board.moves().is_multiple_of(2);
    let played = board.moves() as u32;
    let stones_plus_score = (W * H / 2 + 1) as i32;
    match score {
        0 => Verdict::DRAW,
        s if s > 0 => Verdict::wins_in_plies(end_ply(mover_first, stones_plus_score - s) - played),
        s => Verdict::loses_in_plies(end_ply(!mover_first, stones_plus_score + s) - played),
    }
}

/// The score of a win by the player to move with its next stone.
pub fn win_now_score<const W: usize, const H: usize>(board: &Grid<W, H>) -> i32 {
    ((W * H) as i32 + 1 - board.moves() as i32) / 2
}
