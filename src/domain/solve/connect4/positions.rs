//! The positions solvers are measured on: random games of a few moves, drawn from a seed,
//! where the game goes on and the player to move cannot win at once (a position a solver
//! answers without searching says nothing of its speed). Written as the columns played, the
//! notation every Connect Four solver reads, so the same set can be given to others.

use crate::domain::games::connect4::{Grid, HEIGHT, WIDTH};
use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::RangeInclusive;

/// The most random games tried for one position before giving up on it (a game that makes
/// four is thrown away whole and drawn again).
const TRIES: usize = 10_000;

/// `count` 7 × 6 positions, each of a number of moves drawn from `moves`, from `seed`: every
/// move a column drawn uniformly among those with room. `None` when a position cannot be
/// reached within [`TRIES`] games (more moves than a game without four can hold, in
/// practice).
pub fn random_positions(
    seed: u64,
    count: usize,
    moves: RangeInclusive<usize>,
) -> Option<Vec<String>> {
    random_positions_on::<WIDTH, HEIGHT>(seed, count, moves)
}

/// [`random_positions`] on a board of `W` columns of `H` cells.
pub fn random_positions_on<const W: usize, const H: usize>(
    seed: u64,
    count: usize,
    moves: RangeInclusive<usize>,
) -> Option<Vec<String>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let length = rng.random_range(moves.clone());
            (0..TRIES).find_map(|_| random_game::<W, H>(&mut rng, length))
        })
        .collect()
}

/// One random game of `length` moves, if it keeps the game going and leaves no four to
/// make at once.
fn random_game<const W: usize, const H: usize>(
    rng: &mut ChaCha8Rng,
    length: usize,
) -> Option<String> {
    let mut board = Grid::<W, H>::new();
    let mut written = String::with_capacity(length);
    for _ in 0..length {
        let open: Vec<usize> = (0..W).filter(|&c| board.can_play(c)).collect();
        let column = *open.get(rng.random_range(0..open.len().max(1)))?;
        board = board.play(column);
        if board.is_over() {
            return None;
        }
        written.push(char::from(b'1' + column as u8));
    }
    (!board.can_win_next()).then_some(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::connect4::Board;

    #[test]
    fn the_positions_are_games_going_on_with_no_four_to_make_and_repeat_by_seed() {
        let set = random_positions(7, 50, 8..=12).unwrap();
        assert_eq!(set.len(), 50);
        for moves in &set {
            let board = Board::parse(moves).unwrap();
            assert!((8..=12).contains(&board.moves()), "{moves}");
            assert!(!board.is_over() && !board.can_win_next(), "{moves}");
        }
        assert_eq!(random_positions(7, 50, 8..=12).unwrap(), set);
        assert_ne!(random_positions(8, 50, 8..=12).unwrap(), set);
        let lengths: std::collections::BTreeSet<usize> = set.iter().map(String::len).collect();
        assert_eq!(lengths.len(), 5, "every length drawn: {lengths:?}");
    }

    #[test]
    fn an_impossible_length_gives_none_rather_than_looping() {
        assert_eq!(random_positions(1, 1, 43..=43), None);
        assert_eq!(random_positions_on::<6, 5>(1, 1, 31..=31), None);
    }

    #[test]
    fn small_positions_are_small_board_games() {
        let set = random_positions_on::<6, 5>(3, 40, 0..=20).unwrap();
        for moves in &set {
            let board = crate::domain::games::connect4::Grid::<6, 5>::parse(moves).unwrap();
            assert!(!board.is_over() && !board.can_win_next(), "{moves}");
        }
        assert!(set.iter().any(|moves| moves.contains('6')));
        assert!(set.iter().all(|moves| !moves.contains('7')));
    }
}
