//! The position the solver searches: the two bitboards and the move count, without the
//! game's "was the last move a four" flag, which the search never asks (it never plays a
//! move that makes four; a win with the next stone is seen before). Generic over the grid's
//! size like the game's [`Grid`]; `Node` alone is the 7 × 6 board's, the one the opening
//! book knows.

use crate::domain::games::connect4::Grid;
#[cfg(test)]
use crate::domain::solve::connect4::score::{max_score, min_score};

/// A position inside the search, on `W` columns of `H` cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Node<const W: usize = 7, const H: usize = 6> {
    /// The stones of the player to move.
    mine: u64,
    /// Every stone.
    filled: u64,
    /// Stones played.
    moves: u32,
}

impl<const W: usize, const H: usize> From<&Grid<W, H>> for Node<W, H> {
    fn from(board: &Grid<W, H>) -> Self {
        let (mine, filled) = board.bitboards();
        Self {
            mine,
            filled,
            moves: board.moves() as u32,
        }
    }
}

/// The cells of the rows of `parity` (0 or 1, rows counted from 0 at the bottom) in a column
/// of `height` cells.
const fn rows_of_parity(parity: usize, height: usize) -> u64 {
    let mut rows = 0;
    let mut row = parity;
    while row < height {
        rows |= 1 << row;
        row += 2;
    }
    rows
}

impl<const W: usize, const H: usize> Node<W, H> {
    /// Cells on the board.
    const CELLS: i32 = (W * H) as i32;

    /// The rows the player to move fills when every column has an even number of empty
    /// cells and the other player answers each of its stones on top of it: a column with an
    /// even number of empty cells has a height of `H`'s parity, so the player to move takes
    /// the rows of that parity (0, 2, 4 on the 7 × 6 board; 1 and 3 on a board of height 5).
    const MOVER_ROWS: u64 = Grid::<W, H>::BOTTOM * rows_of_parity(H % 2, H);

    /// The rows the answering player fills then: the others.
    const FOLLOWER_ROWS: u64 = Grid::<W, H>::BOTTOM * rows_of_parity(1 - H % 2, H);

    /// The bits of the lowest column, spare bit included.
    const COLUMN_MASK: u64 = (1 << Grid::<W, H>::COLUMN_BITS) - 1;

    /// Stones played.
    pub(super) const fn moves(self) -> i32 {
        self.moves as i32
    }

    /// Cells still empty.
    pub(super) const fn empty_cells(self) -> i32 {
        Self::CELLS - self.moves as i32
    }

    /// The position after the player to move takes `cell` (one playable cell).
    pub(super) const fn play(self, cell: u64) -> Self {
        Self {
            mine: self.mine ^ self.filled,
            filled: self.filled | cell,
            moves: self.moves + 1,
        }
    }

    /// The playable cells that do not hand the other player a four with its next stone
    /// (see [`Grid::safe_cells`]).
    pub(super) fn safe_cells(self) -> u64 {
        Grid::<W, H>::safe_cells_of(self.mine, self.filled)
    }

    /// How many cells would make four for the player to move once it holds `cell`: the
    /// move ordering's measure of a move.
    pub(super) fn threats_after(self, cell: u64) -> u32 {
        Grid::<W, H>::open_fours(self.mine | cell, self.filled).count_ones()
    }

    /// A bound on the value from Allis' claimeven, when every column has an even number of
    /// empty cells. The other player can then answer every stone with one on top of it,
    /// which ends the game with the player to move holding the empty cells of the rows of
    /// [`Node::MOVER_ROWS`] (the 1st, 3rd and 5th on the 7 × 6 board) and the other those of
    /// [`Node::FOLLOWER_ROWS`]. If that leaves the player to move no four, it cannot win (at
    /// most 0); if it also gives the other player one, the player to move loses (at most
    /// −1). Nothing here asks the board's height to be even: an odd height only swaps which
    /// rows each player gets. On a board of an even number of cells (every board the solver
    /// takes), even empty columns add up to an even number of moves: the first player is to
    /// move. `None` when the rule does not apply or proves nothing.
    pub(super) fn claimeven_bound(self) -> Option<i32> {
        // A column's lowest empty cell is on a follower's row when it has an odd number of
        // empty cells (a full column's is the spare bit, on no row).
        if (self.filled + Grid::<W, H>::BOTTOM) & Self::FOLLOWER_ROWS != 0 {
            return None;
        }
        let empty = Grid::<W, H>::BOARD & !self.filled;
        if Grid::<W, H>::fours_of(self.mine | (empty & Self::MOVER_ROWS)) != 0 {
            return None;
        }
        let other = (self.mine ^ self.filled) | (empty & Self::FOLLOWER_ROWS);
        Some(if Grid::<W, H>::fours_of(other) != 0 {
            -1
        } else {
            0
        })
    }

    /// The position's key, the same for a position and its mirror image (equal in value):
    /// the smaller of the two [`Grid::key`]s.
    pub(super) fn key(self) -> u64 {
        let key = self.mine + self.filled;
        key.min(Self::mirrored(key))
    }

    /// `bits` with the columns in reverse order. Each column's `H + 1` bits stay apart in a
    /// key (`mine + filled` never carries out of a column: a column's stones fill it from the
    /// bottom), so the mirror image's key is the key's columns reversed.
    pub(super) const fn mirrored(bits: u64) -> u64 {
        let column_bits = Grid::<W, H>::COLUMN_BITS;
        let mut mirror = 0;
        let mut column = 0;
        while column < W {
            let bits_of_column = (bits >> (column * column_bits)) & Self::COLUMN_MASK;
            mirror |= bits_of_column << ((W - 1 - column) * column_bits);
            column += 1;
        }
        mirror
    }
}

/// The cell of `column` in `cells`, if any (on a board of `H` cells a column).
pub(super) const fn in_column<const W: usize, const H: usize>(cells: u64, column: usize) -> u64 {
    cells & Grid::<W, H>::column_cells(column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::connect4::Board;

    fn node(moves: &str) -> Node {
        Node::from(&Board::parse(moves).unwrap())
    }

    /// The mirror of a column list: column c becomes 8 − c.
    fn mirror_moves(moves: &str) -> String {
        moves
            .chars()
            .map(|c| char::from(b'8' - (c as u8 - b'0')))
            .collect()
    }

    #[test]
    fn a_position_and_its_mirror_share_a_key_and_others_do_not() {
        for moves in ["1", "4453", "1122334", "7766512", "3456221"] {
            let mirror = mirror_moves(moves);
            assert_eq!(node(moves).key(), node(&mirror).key(), "{moves} / {mirror}");
        }
        assert_ne!(node("12").key(), node("21").key());
        assert_ne!(node("1").key(), node("2").key());
        let mirrored = Node::<7, 6>::mirrored;
        assert_eq!(mirrored(mirrored(0x1234_5678_9ABC)), 0x1234_5678_9ABC);
        // On 6 columns of 5, column c becomes 7 − c.
        let small = |moves: &str| Node::from(&Grid::<6, 5>::parse(moves).unwrap()).key();
        assert_eq!(small("1123"), small("6654"));
        assert_ne!(small("1123"), small("1124"));
    }

    #[test]
    fn the_node_agrees_with_the_board_on_safe_cells_and_threats() {
        for moves in ["", "4453", "121212", "12121", "131475", "3344", "4444332"] {
            let board = Board::parse(moves).unwrap();
            let node = Node::from(&board);
            assert_eq!(node.safe_cells(), board.safe_cells(), "{moves}");
            let cell = board.cell_in(3);
            assert_eq!(
                node.threats_after(cell),
                board.threats_after(cell),
                "{moves}"
            );
            let after = board.play(3);
            assert_eq!(node.play(cell), Node::from(&after), "{moves}");
        }
    }

    /// The claimeven bound is never below the exact value on `W` × `H`, on every position of
    /// `plies` (a range of even counts) where it applies among random games in which the
    /// second player mostly answers on top of the first (plain alpha-beta, checked against
    /// plain negamax elsewhere, gives the exact value): how many it applied to, and how
    /// many of those it proved lost.
    fn claimeven_holds<const W: usize, const H: usize>(
        seed: u64,
        games: usize,
        pairs: std::ops::RangeInclusive<usize>,
    ) -> (usize, usize) {
        use crate::domain::solve::connect4::plain_alphabeta;
        use rand::{RngExt as _, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut applied, mut losses) = (0, 0);
        'games: for _ in 0..games {
            let mut board = Grid::<W, H>::new();
            let stop = 2 * rng.random_range(pairs.clone());
            while board.moves() < stop {
                let open: Vec<usize> = board.open_columns().collect();
                let first = open[rng.random_range(0..open.len())];
                let on_top = board.play(first);
                if on_top.is_over() {
                    continue 'games;
                }
                let answer = if on_top.can_play(first) && rng.random_bool(0.8) {
                    first
                } else {
                    let open: Vec<usize> = on_top.open_columns().collect();
                    open[rng.random_range(0..open.len())]
                };
                if on_top.play(answer).is_over() {
                    continue 'games;
                }
                board = on_top.play(answer);
            }
            if board.can_win_next() {
                continue;
            }
            let Some(bound) = Node::from(&board).claimeven_bound() else {
                continue;
            };
            let cells = W * H;
            let (low, high) = (min_score(cells) - 1, max_score(cells) + 1);
            let exact = plain_alphabeta(&board, low, high);
            assert!(exact <= bound, "{W}x{H} {board:?}: {exact} above {bound}");
            applied += 1;
            losses += usize::from(bound < 0);
        }
        (applied, losses)
    }

    /// On the 7 × 6 board (an even height: the first player's rows are the 1st, 3rd and 5th).
    #[test]
    fn the_claimeven_bound_holds_the_exact_value() {
        let (applied, losses) = claimeven_holds::<7, 6>(11, 20_000, 13..=17);
        assert!(
            applied >= 20 && losses >= 1,
            "{applied} applied, {losses} losses"
        );
    }

    /// On boards of an odd height (6 × 5) and of another even one (5 × 4): the rule applies
    /// when every column's height is odd there, and the first player then takes the 2nd and
    /// 4th rows. Positions from 8 moves on, so that it is tested well before the end.
    #[test]
    fn the_claimeven_bound_holds_on_the_small_boards_too() {
        let (applied, losses) = claimeven_holds::<6, 5>(12, 20_000, 4..=11);
        assert!(
            applied >= 20 && losses >= 1,
            "6x5: {applied} applied, {losses} losses"
        );
        let (applied, losses) = claimeven_holds::<5, 4>(13, 20_000, 3..=8);
        assert!(
            applied >= 20 && losses >= 1,
            "5x4: {applied} applied, {losses} losses"
        );
    }

    /// The rows each player takes under the follow-up, on an even height and an odd one.
    #[test]
    fn the_follow_up_rows_swap_with_the_heights_parity() {
        assert_eq!(Node::<7, 6>::MOVER_ROWS & 0x7F, 0b01_0101);
        assert_eq!(Node::<7, 6>::FOLLOWER_ROWS & 0x7F, 0b10_1010);
        assert_eq!(Node::<6, 5>::MOVER_ROWS & 0x3F, 0b0_1010);
        assert_eq!(Node::<6, 5>::FOLLOWER_ROWS & 0x3F, 0b1_0101);
        // The empty 6 × 5 board: 5 empty cells a column, the rule does not apply.
        assert_eq!(Node::from(&Grid::<6, 5>::new()).claimeven_bound(), None);
    }
}
