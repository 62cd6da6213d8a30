//! What the self-play learner needs of a game beyond its rules: each move as an index into
//! the policy, the position as the network's input (from the player to move's side, so one
//! network plays both sides), the result for the player to move, and the board's
//! symmetries, which turn one self-play position into several training samples.

use super::net::Sample;
use crate::domain::games::connect4::Grid;
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::games::{Game, Outcome};

/// A game the self-play learner can learn.
pub trait Learnable: Game + Copy + Send + Sync {
    /// The game's name in files and on the command line (`tictactoe`).
    const NAME: &'static str;
    /// Policy outputs: one a move of the game.
    const MOVES: usize;
    /// Numbers in the network's input.
    const INPUTS: usize;

    /// The policy index of `mv`.
    fn index(mv: Self::Move) -> usize;

    /// The move at policy index `index`.
    fn move_at(index: usize) -> Self::Move;

    /// The position as the network's input, from the player to move's side.
    fn encode(&self) -> Vec<f32>;

    /// For each policy index, whether it is a legal move here.
    fn legal(&self) -> Vec<bool> {
        let mut legal = vec![false; Self::MOVES];
        for &mv in self.legal_moves().as_ref() {
            legal[Self::index(mv)] = true;
        }
        legal
    }

    /// Once the game is over, its result for the player to move: −1 lost, 0 drawn (the
    /// player to move never has just won).
    fn result(&self) -> Option<f32> {
        self.outcome().map(|outcome| match outcome {
            Outcome::Winner(winner) if winner == self.to_move() => 1.0,
            Outcome::Winner(_) => -1.0,
            Outcome::Draw => 0.0,
        })
    }

    /// The board's symmetries as permutations of the policy indices (the identity first):
    /// symmetry `s` sends move `m` to `symmetries()[s][m]`.
    fn symmetries() -> Vec<Vec<usize>>;

    /// `sample` seen through symmetry `symmetry`: its input and policy moved alike.
    fn transform(sample: &Sample, symmetry: &[usize]) -> Sample;
}

/// Tic-tac-toe's 8 symmetries (4 rotations, each with and without a mirror) as permutations
/// of the cells 0-8 (row by row).
fn square_symmetries(side: usize) -> Vec<Vec<usize>> {
    let at = |row: usize, column: usize| row * side + column;
    let mut all = Vec::with_capacity(8);
    for mirror in [false, true] {
        for turns in 0..4 {
            let map = (0..side * side)
                .map(|cell| {
                    let (mut row, mut column) = (cell / side, cell % side);
                    if mirror {
                        column = side - 1 - column;
                    }
                    for _ in 0..turns {
                        (row, column) = (column, side - 1 - row);
                    }
                    at(row, column)
                })
                .collect();
            all.push(map);
        }
    }
    all
}

impl Learnable for Board {
    const NAME: &'static str = "tictactoe";
    const MOVES: usize = 9;
    /// Two planes of 9 cells: the player to move's marks, then the other's.
    const INPUTS: usize = 18;

    fn index(mv: u8) -> usize {
        usize::from(mv)
    }

    fn move_at(index: usize) -> u8 {
        index as u8
    }

    fn encode(&self) -> Vec<f32> {
        let mover = self.to_move();
        let mut input = vec![0.0; Self::INPUTS];
        for cell in 0..9u8 {
            match self.cell(cell) {
                Some(mark) if mark == mover => input[usize::from(cell)] = 1.0,
                Some(_) => input[9 + usize::from(cell)] = 1.0,
                None => {}
            }
        }
        input
    }

    fn symmetries() -> Vec<Vec<usize>> {
        square_symmetries(3)
    }

    fn transform(sample: &Sample, symmetry: &[usize]) -> Sample {
        let mut moved = Sample {
            input: vec![0.0; sample.input.len()],
            legal: vec![false; Self::MOVES],
            policy: vec![0.0; Self::MOVES],
            value: sample.value,
        };
        for (from, &to) in symmetry.iter().enumerate() {
            moved.input[to] = sample.input[from];
            moved.input[9 + to] = sample.input[9 + from];
            moved.legal[to] = sample.legal[from];
            moved.policy[to] = sample.policy[from];
        }
        moved
    }
}

/// The name of the `W` x `H` four-in-a-row board in files and on the command line: the
/// standard board is plain `connect4`.
const fn grid_name(width: usize, height: usize) -> &'static str {
    match (width, height) {
        (7, 6) => "connect4",
        (5, 4) => "connect4-5x4",
        (6, 5) => "connect4-6x5",
        _ => "four-in-a-row",
    }
}

impl<const W: usize, const H: usize> Learnable for Grid<W, H> {
    const NAME: &'static str = grid_name(W, H);
    const MOVES: usize = W;
    /// Two planes of `W` x `H` cells, column by column from the bottom: the player to
    /// move's stones, then the other's.
    const INPUTS: usize = 2 * W * H;

    fn index(column: u8) -> usize {
        usize::from(column)
    }

    fn move_at(index: usize) -> u8 {
        index as u8
    }

    fn encode(&self) -> Vec<f32> {
        let (mine, filled) = self.bitboards();
        let theirs = filled & !mine;
        let mut input = vec![0.0; Self::INPUTS];
        for column in 0..W {
            for row in 0..H {
                let bit = Self::cell(column, row);
                let at = column * H + row;
                if mine & bit != 0 {
                    input[at] = 1.0;
                } else if theirs & bit != 0 {
                    input[W * H + at] = 1.0;
                }
            }
        }
        input
    }

    /// The board and its mirror: a column's stones go to the column as far from the
    /// other side.
    fn symmetries() -> Vec<Vec<usize>> {
        vec![(0..W).collect(), (0..W).rev().collect()]
    }

    fn transform(sample: &Sample, symmetry: &[usize]) -> Sample {
        let mut moved = Sample {
            input: vec![0.0; sample.input.len()],
            legal: vec![false; W],
            policy: vec![0.0; W],
            value: sample.value,
        };
        for (from, &to) in symmetry.iter().enumerate() {
            for plane in 0..2 {
                let (source, target) = (plane * W * H + from * H, plane * W * H + to * H);
                moved.input[target..target + H].copy_from_slice(&sample.input[source..source + H]);
            }
            moved.legal[to] = sample.legal[from];
            moved.policy[to] = sample.policy[from];
        }
        moved
    }
}

/// The mark that moves first in the learner's games of tic-tac-toe.
pub const FIRST: Mark = Mark::X;

// Values here are copied or exact in binary (0.25, 1.0), so equality is the check.
#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn board(moves: &str) -> Board {
        Board::from_moves(moves).unwrap()
    }

    /// The position after playing `moves` with every cell sent through `symmetry`.
    fn moved_board(moves: &str, symmetry: &[usize]) -> Board {
        let mut position = Board::empty(FIRST);
        for c in moves.chars() {
            let cell = c.to_digit(10).unwrap() as usize - 1;
            position = position.play(symmetry[cell] as u8);
        }
        position
    }

    #[test]
    fn the_eight_symmetries_are_distinct_permutations_starting_with_the_identity() {
        let all = Board::symmetries();
        assert_eq!(all.len(), 8);
        assert_eq!(all[0], (0..9).collect::<Vec<_>>());
        let distinct: BTreeSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 8);
        for map in &all {
            let cells: BTreeSet<_> = map.iter().collect();
            assert_eq!(cells.len(), 9, "{map:?} is a permutation");
            assert_eq!(map[4], 4, "the centre stays");
        }
        // A quarter turn sends the top-left corner to the top-right.
        assert!(all.iter().any(|map| map[0] == 2 && map[2] == 8));
        // The mirror swaps the left and right columns.
        assert!(
            all.iter()
                .any(|map| map[0] == 2 && map[2] == 0 && map[1] == 1)
        );
    }

    /// Augmenting a sample equals building the sample of the transformed position: input,
    /// legal moves and policy all move together, and the value stays.
    #[test]
    fn a_transformed_sample_is_the_sample_of_the_transformed_position() {
        let moves = "1528";
        let position = board(moves);
        let mut policy = vec![0.0; 9];
        policy[2] = 0.5;
        policy[6] = 0.3;
        policy[8] = 0.2;
        let sample = Sample {
            input: position.encode(),
            legal: position.legal(),
            policy: policy.clone(),
            value: 0.25,
        };
        for symmetry in Board::symmetries() {
            let seen = Board::transform(&sample, &symmetry);
            let other = moved_board(moves, &symmetry);
            assert_eq!(seen.input, other.encode(), "{symmetry:?}");
            assert_eq!(seen.legal, other.legal(), "{symmetry:?}");
            for (from, &to) in symmetry.iter().enumerate() {
                assert_eq!(seen.policy[to], policy[from]);
            }
            assert_eq!(seen.value, 0.25);
        }
    }

    #[test]
    fn the_input_is_from_the_movers_side_and_the_result_for_the_mover() {
        // X took 1 and 2, O took 5: O to move sees its own mark in the first plane.
        let position = board("152");
        let input = position.encode();
        assert_eq!(input[4], 1.0);
        assert_eq!((input[9], input[10]), (1.0, 1.0));
        assert_eq!(position.result(), None);
        // X completes the top row; O, to move, has lost.
        let identity = &Board::symmetries()[0];
        let won = moved_board("14253", identity);
        assert_eq!(won.result(), Some(-1.0));
        assert!(won.legal().iter().all(|l| !l));
        let drawn = moved_board("123546879", identity);
        assert_eq!(drawn.result(), Some(0.0));
    }

    /// The mirror of a four-in-a-row sample is the sample of the mirrored game, on both
    /// boards, and a position seen twice through the mirror is itself again.
    #[test]
    fn a_mirrored_grid_sample_is_the_sample_of_the_mirrored_game() {
        use crate::domain::games::connect4::{Board as Connect4, SmallBoard};
        fn check<const W: usize, const H: usize>(columns: &[usize]) {
            let mut position = Grid::<W, H>::new();
            let mut mirrored = Grid::<W, H>::new();
            for &column in columns {
                position = position.play(column);
                mirrored = mirrored.play(W - 1 - column);
            }
            let mut policy = vec![0.0; W];
            policy[0] = 0.75;
            policy[1] = 0.25;
            let sample = Sample {
                input: position.encode(),
                legal: position.legal(),
                policy,
                value: -0.5,
            };
            let all = Grid::<W, H>::symmetries();
            assert_eq!(all.len(), 2);
            assert_eq!(Grid::<W, H>::transform(&sample, &all[0]), sample);
            let seen = Grid::<W, H>::transform(&sample, &all[1]);
            assert_eq!(seen.input, mirrored.encode());
            assert_eq!(seen.legal, mirrored.legal());
            assert_eq!((seen.policy[W - 1], seen.policy[W - 2]), (0.75, 0.25));
            assert_eq!(seen.value, -0.5);
            assert_eq!(Grid::<W, H>::transform(&seen, &all[1]), sample);
        }
        // Column 1 filled to the top (not legal any more), stones of both players.
        check::<5, 4>(&[0, 0, 0, 0, 1, 3, 2]);
        check::<7, 6>(&[3, 3, 2, 4, 0, 0, 0, 0, 0, 0, 6]);
        assert_eq!(SmallBoard::NAME, "connect4-5x4");
        assert_eq!(Connect4::NAME, "connect4");
        assert_eq!(Connect4::INPUTS, 84);
    }

    #[test]
    fn the_grid_input_is_from_the_movers_side() {
        use crate::domain::games::connect4::SmallBoard;
        // Red in column 1, yellow in column 3: red to move sees its stone first.
        let position = SmallBoard::new().play(0).play(2);
        let input = position.encode();
        assert_eq!(input[0], 1.0, "red's stone at the bottom of column 1");
        assert_eq!(input[20 + 2 * 4], 1.0, "yellow's at the bottom of column 3");
        assert_eq!(input.iter().sum::<f32>(), 2.0);
        let yellow_sees = position.play(4).encode();
        assert_eq!(yellow_sees[2 * 4], 1.0, "yellow's own stone now first");
        assert_eq!(yellow_sees[20], 1.0);
        assert_eq!(yellow_sees[20 + 4 * 4], 1.0);
    }
}
