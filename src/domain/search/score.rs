//! How a finished game is scored, and the bounds of the α/β window: shared by the searches
//! and by the move ordering's look-ahead.

use crate::domain::games::Outcome;

/// Larger than any score of any search here (a depth-limited win is under 1,000); the
/// initial α/β window is (-INFINITY, +INFINITY), written `±∞`. One bound for every game,
/// so a window or value reads the same on every tab and fits a recorded node's `i16`.
pub const INFINITY: i32 = 10_000;

/// The score of a win at the root; the original program's evaluation is `WIN - depth`.
pub const WIN: i32 = 10;

/// The original program's depth-aware evaluation of a finished game, from MAX's (the root mover's)
/// view: win `10 - depth`, loss `depth - 10`, draw 0, so quick wins and slow losses are
/// preferred.
pub fn evaluate<P: PartialEq>(outcome: Outcome<P>, max_player: &P, depth: u32) -> i32 {
    let depth = depth as i32;
    match outcome {
        Outcome::Draw => 0,
        Outcome::Winner(p) if &p == max_player => WIN - depth,
        Outcome::Winner(_) => depth - WIN,
    }
}
