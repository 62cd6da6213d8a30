//! The position the solver searches: the two bitboards and the move count, without the
//! game's "was the last move a four" flag, which the search never asks (it never plays a
//! move that makes four; a win with the next stone is seen before).

use crate::domain::games::connect4::{
    BOARD, BOTTOM, Board, CELLS, COLUMN_BITS, WIDTH, column_cells, fours_of, open_fours, safe_cells,
};

/// A position inside the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Node {
    /// The stones of the player to move.
    mine: u64,
    /// Every stone.
    filled: u64,
    /// Stones played.
    moves: u32,
}

impl From<&Board> for Node {
    fn from(board: &Board) -> Self {
        let (mine, filled) = board.bitboards();
        Self {
            mine,
            filled,
            moves: board.moves() as u32,
        }
    }
}

impl Node {
    /// Stones played.
    pub(super) const fn moves(self) -> i32 {
        self.moves as i32
    }

    /// Cells still empty.
    pub(super) const fn empty_cells(self) -> i32 {
        CELLS as i32 - self.moves as i32
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
    /// (see [`Board::safe_cells`]).
    pub(super) fn safe_cells(self) -> u64 {
        safe_cells(self.mine, self.filled)
    }

    /// How many cells would make four for the player to move once it holds `cell`: the
    /// move ordering's measure of a move.
    pub(super) fn threats_after(self, cell: u64) -> u32 {
        open_fours(self.mine | cell, self.filled).count_ones()
    }

    /// A bound on the value from Allis' claimeven, when the first player is to move and
    /// every column has an even number of empty cells. The second player can then answer
    /// every stone with one on top of it, which ends the game with the first player holding
    /// the empty cells of the 1st, 3rd and 5th rows and the second those of the 2nd, 4th
    /// and 6th. If that leaves the first player no four, it cannot win (at most 0); if it
    /// also gives the second player one, the first player loses (at most −1). `None` when
    /// the rule does not apply or proves nothing.
    pub(super) fn claimeven_bound(self) -> Option<i32> {
        let first_to_move = self.moves.is_multiple_of(2);
        // A column's lowest empty cell is on an odd row (0-based) when its height is odd.
        if !first_to_move || (self.filled + BOTTOM) & ODD_ROWS != 0 {
            return None;
        }
        let empty = BOARD & !self.filled;
        if fours_of(self.mine | (empty & EVEN_ROWS)) != 0 {
            return None;
        }
        let other = (self.mine ^ self.filled) | (empty & ODD_ROWS);
        Some(if fours_of(other) != 0 { -1 } else { 0 })
    }

    /// The position's key, the same for a position and its mirror image (equal in value):
    /// the smaller of the two [`Board::key`]s.
    pub(super) fn key(self) -> u64 {
        let key = self.mine + self.filled;
        key.min(mirrored(key))
    }
}

/// `bits` with the columns in reverse order. Each column's 7 bits stay apart in a key
/// (`mine + filled` never carries out of a column: a column's stones fill it from the
/// bottom), so the mirror image's key is the key's columns reversed.
pub(super) const fn mirrored(bits: u64) -> u64 {
    let mut mirror = 0;
    let mut column = 0;
    while column < WIDTH {
        let bits_of_column = (bits >> (column * COLUMN_BITS)) & COLUMN_MASK;
        mirror |= bits_of_column << ((WIDTH - 1 - column) * COLUMN_BITS);
        column += 1;
    }
    mirror
}

/// The cells of rows 0, 2 and 4 (0-based: the 1st, 3rd and 5th from the bottom).
const EVEN_ROWS: u64 = BOTTOM * 0b01_0101;

/// The cells of rows 1, 3 and 5.
const ODD_ROWS: u64 = BOTTOM * 0b10_1010;

/// The bits of the lowest column, spare bit included.
const COLUMN_MASK: u64 = (1 << COLUMN_BITS) - 1;

/// The cell of `column` in `cells`, if any.
pub(super) const fn in_column(cells: u64, column: usize) -> u64 {
    cells & column_cells(column)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(mirrored(mirrored(0x1234_5678_9ABC)), 0x1234_5678_9ABC);
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

    /// The claimeven bound is never below the exact value, on every position of 26-34
    /// moves where it applies among random games in which the second player mostly answers
    /// on top of the first (plain alpha-beta, checked against plain negamax elsewhere, gives
    /// the exact value), and it proves a draw or a loss on some of them.
    #[test]
    fn the_claimeven_bound_holds_the_exact_value() {
        use crate::domain::solve::connect4::plain_alphabeta;
        use crate::domain::solve::connect4::score::{MAX_SCORE, MIN_SCORE};
        use rand::{RngExt as _, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut applied, mut losses) = (0, 0);
        'games: for _ in 0..20_000 {
            let mut board = Board::new();
            let stop = 2 * rng.random_range(13..=17);
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
            let exact = plain_alphabeta(&board, MIN_SCORE - 1, MAX_SCORE + 1);
            assert!(exact <= bound, "{board:?}: {exact} above {bound}");
            applied += 1;
            losses += usize::from(bound < 0);
        }
        assert!(
            applied >= 20 && losses >= 1,
            "{applied} applied, {losses} losses"
        );
    }
}
