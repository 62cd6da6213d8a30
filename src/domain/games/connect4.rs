//! Connect Four on a grid of columns, 7 of 6 for the game everyone knows, a smaller one for a
//! learner that wants every position solved exactly: the rules as bitboards, the shape an
//! exact solver and a Monte Carlo search both need to run fast.
//!
//! The board is one `u64` per question: `mine` holds the stones of the player to move and
//! `filled` every stone. Each column takes `H + 1` bits, its `H` cells from the bottom and one
//! spare bit on top that is never set, so a shift by `H + 1` moves one column right without
//! wrapping, a shift by 1 one cell up, by `H` and `H + 2` along the two diagonals (7, 6 and 8
//! on the 7 × 6 board). Playing column `c` is `filled + bottom(c)`: the carry lands on the
//! column's lowest empty cell. The grid's size is a const generic, so each size compiles to
//! code with its own shifts and masks as constants, as fast as code written for it alone.
//!
//! A position is written as the columns played in order, 1 to the width ("4453"), the
//! notation of the best-known open-source solver and its test sets.

use super::{Game, MoveList, Outcome};
use std::fmt;

/// Columns of the board.
pub const WIDTH: usize = 7;
/// Cells in a column.
pub const HEIGHT: usize = 6;
/// Cells on the board: a game ends at the latest when all are filled.
pub const CELLS: usize = WIDTH * HEIGHT;

/// The Connect Four everyone plays: 7 columns of 6.
pub type Board = Grid<WIDTH, HEIGHT>;

/// Connect Four on 5 columns of 4, small enough that the solver answers every position,
/// the empty board included, in a few milliseconds (6 × 5 takes about 0.4 s on its empty
/// board, every column's score twice that): a board to learn on where every position's exact
/// value can be checked. Allis' follow-up keeps the first player from winning on any board of
/// an even height and at most 6 columns; the solver finds the empty board a draw.
pub type SmallBoard = Grid<5, 4>;

/// Every column's cells of `column_bits` bits each, from the bottom: the lowest cells of
/// `width` columns.
const fn bottom_row(width: usize, column_bits: usize) -> u64 {
    let mut mask = 0;
    let mut column = 0;
    while column < width {
        mask |= 1 << (column * column_bits);
        column += 1;
    }
    mask
}

/// Why a move or a written position was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// A column outside the board (or a character that is no column).
    NoSuchColumn {
        /// What was given, as written.
        what: String,
        /// The board's columns, so the message names the ones there are.
        width: usize,
    },
    /// A column already full.
    ColumnFull(usize),
    /// The game was over before this move.
    GameOver,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSuchColumn { what, width } => {
                write!(f, "{what} is no column: columns are 1 to {width}")
            }
            Self::ColumnFull(column) => write!(f, "column {column} is full"),
            Self::GameOver => write!(f, "the game is over: no more moves"),
        }
    }
}

impl std::error::Error for Refused {}

/// A Connect Four position on `W` columns of `H` cells: whose stones are where, and how many
/// moves were played. `W` is 4 to 9 (a column is one digit when written), `H` at least 4
/// (a four fits every way), and the columns' bits, `(H + 1) × W`, fit in 56 (the solver's
/// table keeps a key of that many bits beside its bound): checked when the code is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid<const W: usize, const H: usize> {
    /// The stones of the player to move.
    mine: u64,
    /// Every stone.
    filled: u64,
    /// Moves played so far.
    moves: usize,
    /// Whether the last move made four in a row.
    won: bool,
}

impl<const W: usize, const H: usize> Default for Grid<W, H> {
    fn default() -> Self {
        const {
            assert!(W >= 4 && W <= 9 && H >= 4 && (H + 1) * W <= 56);
        }
        Self {
            mine: 0,
            filled: 0,
            moves: 0,
            won: false,
        }
    }
}

impl<const W: usize, const H: usize> Grid<W, H> {
    /// Columns of the board.
    pub const WIDTH: usize = W;
    /// Cells in a column.
    pub const HEIGHT: usize = H;
    /// Cells on the board: a game ends at the latest when all are filled.
    pub const CELLS: usize = W * H;
    /// Bits a column takes: its cells and a spare bit above them.
    pub(crate) const COLUMN_BITS: usize = H + 1;
    /// The lowest cell of every column.
    pub(crate) const BOTTOM: u64 = bottom_row(W, H + 1);
    /// Every cell of the board (no spare bit).
    pub(crate) const BOARD: u64 = Self::BOTTOM * ((1 << H) - 1);

    /// The lowest cell of column `column` (0-based).
    const fn bottom(column: usize) -> u64 {
        1 << (column * Self::COLUMN_BITS)
    }

    /// The highest cell of column `column`.
    const fn top(column: usize) -> u64 {
        1 << (H - 1 + column * Self::COLUMN_BITS)
    }

    /// Every cell of column `column`.
    pub const fn column_cells(column: usize) -> u64 {
        ((1 << H) - 1) << (column * Self::COLUMN_BITS)
    }

    /// The bit of the cell at `column`, `row` (0 the bottom), as [`Grid::discs`] numbers them.
    pub const fn cell(column: usize, row: usize) -> u64 {
        1 << (column * Self::COLUMN_BITS + row)
    }

    /// The empty board.
    pub fn new() -> Self {
        Self::default()
    }

    /// The position after the columns in `written`, 1 to the width each ("4453"); spaces
    /// are ignored. Refuses a character that is no column, a full column, and a move after
    /// the game ended, saying which move (1-based) was refused.
    pub fn parse(written: &str) -> Result<Self, (usize, Refused)> {
        let mut board = Self::new();
        for (index, c) in written.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let column = c
                .to_digit(10)
                .filter(|d| (1..=W as u32).contains(d))
                .ok_or_else(|| {
                    let what = format!("'{c}'");
                    (index + 1, Refused::NoSuchColumn { what, width: W })
                })?;
            board = board
                .played(column as usize - 1)
                .map_err(|refused| (index + 1, refused))?;
        }
        Ok(board)
    }

    /// `columns` (0-based) written as [`Grid::parse`] reads them: how a game is logged so
    /// that it can be replayed, or given to another solver.
    pub fn written(columns: impl IntoIterator<Item = usize>) -> String {
        columns
            .into_iter()
            .map(|column| {
                debug_assert!(column < W, "column {column} of {W}");
                char::from(b'1' + column as u8)
            })
            .collect()
    }

    /// Moves played so far.
    pub const fn moves(&self) -> usize {
        self.moves
    }

    /// True when the last move made four in a row.
    pub const fn is_won(&self) -> bool {
        self.won
    }

    /// True when the game is over: four in a row, or the board full.
    pub const fn is_over(&self) -> bool {
        self.won || self.moves == Self::CELLS
    }

    /// Whether column `column` (0-based) has room.
    pub const fn can_play(&self, column: usize) -> bool {
        column < W && self.filled & Self::top(column) == 0
    }

    /// The position after dropping a stone in `column` (0-based), or why not.
    pub fn played(&self, column: usize) -> Result<Self, Refused> {
        if self.is_over() {
            return Err(Refused::GameOver);
        }
        if column >= W {
            let what = (column + 1).to_string();
            return Err(Refused::NoSuchColumn { what, width: W });
        }
        if !self.can_play(column) {
            return Err(Refused::ColumnFull(column + 1));
        }
        Ok(self.play_cell(self.cell_in(column)))
    }

    /// The cell a stone dropped in `column` lands on (a playable column).
    pub const fn cell_in(&self, column: usize) -> u64 {
        (self.filled + Self::bottom(column)) & Self::column_cells(column)
    }

    /// The position after the player to move takes `cell` (one playable cell).
    #[must_use]
    pub fn play_cell(&self, cell: u64) -> Self {
        let stones = self.mine | cell;
        Self {
            mine: self.mine ^ self.filled,
            filled: self.filled | cell,
            moves: self.moves + 1,
            won: Self::lines_through(stones),
        }
    }

    /// The position after `column` for a caller that knows it is playable and the game is
    /// on (the searches).
    #[must_use]
    pub fn play(&self, column: usize) -> Self {
        self.play_cell(self.cell_in(column))
    }

    /// Every cell a stone may be dropped on now.
    pub const fn playable(&self) -> u64 {
        (self.filled + Self::BOTTOM) & Self::BOARD
    }

    /// Whether the player to move makes four in a row with `column` (a playable column).
    pub fn wins_with(&self, column: usize) -> bool {
        self.winning_cells() & self.playable() & Self::column_cells(column) != 0
    }

    /// Whether the player to move can make four in a row with its next stone.
    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.playable() != 0
    }

    /// The empty cells that would complete four in a row for the player to move.
    pub fn winning_cells(&self) -> u64 {
        Self::open_fours(self.mine, self.filled)
    }

    /// The empty cells that would complete four in a row for the other player.
    pub fn threats_against(&self) -> u64 {
        Self::open_fours(self.mine ^ self.filled, self.filled)
    }

    /// The playable cells the player to move may take without handing the other player an
    /// immediate win: the one cell that blocks its only threat, nothing when it has two,
    /// and never the cell under one of its winning cells. Meant for a position where the
    /// player to move cannot win at once.
    pub fn safe_cells(&self) -> u64 {
        Self::safe_cells_of(self.mine, self.filled)
    }

    /// How many cells would complete a four for the player to move after taking `cell`:
    /// the move ordering's measure of a move's threats.
    pub fn threats_after(&self, cell: u64) -> u32 {
        Self::open_fours(self.mine | cell, self.filled).count_ones()
    }

    /// A number unique to the position (the stones of the player to move, and every stone
    /// one place up: the lowest empty cell of each column tells the columns' heights).
    pub const fn key(&self) -> u64 {
        self.mine + self.filled
    }

    /// The stones of the player to move and every stone, as bitboards: what a search that
    /// keeps its own lighter position starts from.
    pub const fn bitboards(&self) -> (u64, u64) {
        (self.mine, self.filled)
    }

    /// The stone in column `column`, row `row` (0 the bottom): 0 none, 1 the first player's,
    /// 2 the second's.
    pub fn stone(&self, column: usize, row: usize) -> u8 {
        let cell = Self::cell(column, row);
        if self.filled & cell == 0 {
            return 0;
        }
        let first_to_move = self.moves.is_multiple_of(2);
        let mine = self.mine & cell != 0;
        if mine == first_to_move { 1 } else { 2 }
    }
}

/// The two players: red drops the first disc.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Disc {
    /// The player who moves first.
    Red,
    /// The player who moves second.
    Yellow,
}

impl Disc {
    /// The other player.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::Red => Self::Yellow,
            Self::Yellow => Self::Red,
        }
    }

    /// The player's name, as the tab and the commands write it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Red => "red",
            Self::Yellow => "yellow",
        }
    }
}

impl<const W: usize, const H: usize> Grid<W, H> {
    /// The player whose turn it is.
    pub const fn player_to_move(&self) -> Disc {
        if self.moves.is_multiple_of(2) {
            Disc::Red
        } else {
            Disc::Yellow
        }
    }

    /// The player of the disc at `column`, `row` (0 the bottom), if any.
    pub fn disc(&self, column: usize, row: usize) -> Option<Disc> {
        match self.stone(column, row) {
            1 => Some(Disc::Red),
            2 => Some(Disc::Yellow),
            _ => None,
        }
    }

    /// The columns (0-based) the player to move may play, left to right; none once the game
    /// is over.
    pub fn open_columns(&self) -> impl Iterator<Item = usize> + '_ {
        (0..W).filter(move |&column| !self.is_over() && self.can_play(column))
    }

    /// The discs of `player`, one bit per cell (bit `(H + 1) × column + row`).
    pub const fn discs(&self, player: Disc) -> u64 {
        let to_move = self.player_to_move();
        if matches!(
            (player, to_move),
            (Disc::Red, Disc::Red) | (Disc::Yellow, Disc::Yellow)
        ) {
            self.mine
        } else {
            self.mine ^ self.filled
        }
    }

    /// The cells of a four in a row, if the last move made one (every four it made).
    pub fn winning_line(&self) -> u64 {
        if !self.won {
            return 0;
        }
        Self::fours_of(self.mine ^ self.filled)
    }

    /// Every cell that is part of a four in a row of `stones`.
    pub(crate) fn fours_of(stones: u64) -> u64 {
        let mut cells = 0;
        for step in [1, Self::COLUMN_BITS, H, H + 2] {
            let starts =
                stones & (stones >> step) & (stones >> (2 * step)) & (stones >> (3 * step));
            for offset in 0..4 {
                cells |= starts << (offset * step);
            }
        }
        cells
    }

    /// The safe cells (see [`Grid::safe_cells`]) for the player holding `mine` of `filled`.
    pub(crate) fn safe_cells_of(mine: u64, filled: u64) -> u64 {
        let mut playable = (filled + Self::BOTTOM) & Self::BOARD;
        let threats = Self::open_fours(mine ^ filled, filled);
        let forced = playable & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(threats >> 1)
    }

    /// Whether `stones` hold four in a row in any direction.
    fn lines_through(stones: u64) -> bool {
        // Vertical, horizontal, and the two diagonals: a shift of 1, H + 1, H and H + 2.
        [1, Self::COLUMN_BITS, H, H + 2].iter().any(|&step| {
            let pairs = stones & (stones >> step);
            pairs & (pairs >> (2 * step)) != 0
        })
    }

    /// The empty cells (of `filled`'s complement on the board) that complete four in a row
    /// for `stones`: three stones and the gap, at either end or inside, in every direction.
    pub(crate) fn open_fours(stones: u64, filled: u64) -> u64 {
        // Vertical: only the cell above three.
        let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
        for step in [Self::COLUMN_BITS, H, H + 2] {
            let pair_left = (stones << step) & (stones << (2 * step));
            cells |= pair_left & (stones << (3 * step));
            cells |= pair_left & (stones >> step);
            let pair_right = (stones >> step) & (stones >> (2 * step));
            cells |= pair_right & (stones << step);
            cells |= pair_right & (stones >> (3 * step));
        }
        cells & (Self::BOARD ^ filled)
    }
}

/// Every cell of column `column` of the 7 × 6 board.
pub const fn column_cells(column: usize) -> u64 {
    Board::column_cells(column)
}

/// The bit of the cell at `column`, `row` (0 the bottom) of the 7 × 6 board, as
/// [`Grid::discs`] numbers them.
pub const fn cell(column: usize, row: usize) -> u64 {
    Board::cell(column, row)
}

/// Every line of four cells on the 7 × 6 board (69 of them), as masks of their cells: what
/// an evaluation counts.
pub const FOURS: [u64; 69] = {
    let mut fours = [0; 69];
    let mut count = 0;
    // (column step, row step): up, right, up-right, down-right.
    let steps: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut s = 0;
    while s < steps.len() {
        let (dc, dr) = steps[s];
        let mut column = 0;
        while column < WIDTH as i32 {
            let mut row = 0;
            while row < HEIGHT as i32 {
                let end_column = column + 3 * dc;
                let end_row = row + 3 * dr;
                if end_column >= 0
                    && end_column < WIDTH as i32
                    && end_row >= 0
                    && end_row < HEIGHT as i32
                {
                    let mut mask = 0;
                    let mut k = 0;
                    while k < 4 {
                        mask |= cell((column + k * dc) as usize, (row + k * dr) as usize);
                        k += 1;
                    }
                    fours[count] = mask;
                    count += 1;
                }
                row += 1;
            }
            column += 1;
        }
        s += 1;
    }
    assert!(count == 69);
    fours
};

impl<const W: usize, const H: usize> Game for Grid<W, H> {
    type Player = Disc;
    type Move = u8;
    type Moves = MoveList<W>;

    fn to_move(&self) -> Disc {
        self.player_to_move()
    }

    fn legal_moves(&self) -> MoveList<W> {
        let mut moves = MoveList::new();
        for column in self.open_columns() {
            moves.push(column as u8);
        }
        moves
    }

    fn play(&self, column: u8) -> Self {
        Grid::play(self, usize::from(column))
    }

    fn outcome(&self) -> Option<Outcome<Disc>> {
        if self.won {
            Some(Outcome::Winner(self.player_to_move().other()))
        } else if self.moves == Self::CELLS {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Centre first, then outwards: a centre disc lies on the most lines of four. On an
    /// even width the two middle columns share rank 0.
    fn static_rank(&self, column: u8) -> u8 {
        (2 * column).abs_diff(W as u8 - 1) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &str) -> Board {
        Board::parse(moves).unwrap()
    }

    #[test]
    fn four_in_a_row_wins_in_every_direction_and_at_the_edges() {
        assert!(board("1212121").is_won(), "vertical, left edge");
        assert!(board("7676767").is_won(), "vertical, right edge");
        assert!(board("1122334").is_won(), "horizontal, bottom left");
        assert!(board("7766554").is_won(), "horizontal, bottom right");
        assert!(board("1223733474644").is_won(), "diagonal up to the right");
        assert!(board("7665155414244").is_won(), "diagonal up to the left");
        assert!(!board("121212").is_won(), "three are not four");
        assert!(!board("1234567").is_won(), "alternate colours");
    }

    #[test]
    fn the_diagonals_are_found_exactly() {
        // The first player holds (1,0) (2,1) (3,2) and is to move: column 4 lands on (4,3).
        let up_right = board("122373347464");
        assert!(!up_right.is_won());
        assert_eq!(up_right.moves() % 2, 0, "the first player to move");
        assert!(up_right.wins_with(3), "column 4 completes the diagonal");
        assert!(!up_right.wins_with(4));
        assert!(up_right.played(3).unwrap().is_won());
        let up_left = board("766515541424");
        assert!(up_left.wins_with(3));
        assert!(up_left.played(3).unwrap().is_won());
    }

    #[test]
    fn a_full_board_without_four_is_a_draw() {
        use rand::{RngExt as _, SeedableRng};
        // Seeded random games until one fills the board without four in a row.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let drawn = (0..10_000)
            .find_map(|_| {
                let mut position = Board::new();
                while !position.is_over() {
                    let columns: Vec<usize> =
                        (0..WIDTH).filter(|&c| position.can_play(c)).collect();
                    position = position.play(columns[rng.random_range(0..columns.len())]);
                }
                (!position.is_won()).then_some(position)
            })
            .expect("a drawn game among 10,000");
        assert_eq!(drawn.moves(), CELLS);
        assert!(drawn.is_over() && !drawn.is_won());
        assert_eq!(drawn.played(0), Err(Refused::GameOver));
    }

    #[test]
    fn bad_columns_are_refused_with_the_move_that_was_refused() {
        let no_such = |what: &str| Refused::NoSuchColumn {
            what: what.into(),
            width: 7,
        };
        assert_eq!(Board::parse("448").unwrap_err(), (3, no_such("'8'")));
        assert_eq!(Board::parse("40").unwrap_err(), (2, no_such("'0'")));
        assert_eq!(
            Board::parse("1111111").unwrap_err(),
            (7, Refused::ColumnFull(1))
        );
        assert_eq!(
            Board::parse("12121213").unwrap_err(),
            (8, Refused::GameOver)
        );
        let before = board("444");
        assert_eq!(before.played(7), Err(no_such("8")));
        assert_eq!(
            no_such("'8'").to_string(),
            "'8' is no column: columns are 1 to 7"
        );
        assert_eq!(before, board("444"), "a refusal changes nothing");
    }

    #[test]
    fn the_game_trait_agrees_with_the_board() {
        let position = board("4453");
        assert_eq!(Game::to_move(&position), Disc::Red);
        assert_eq!(position.legal_moves().as_ref(), &[0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(position.outcome(), None);
        let won = board("1212121");
        assert_eq!(won.outcome(), Some(Outcome::Winner(Disc::Red)));
        assert!(won.legal_moves().as_ref().is_empty());
        let full_column = board("444444");
        assert!(!full_column.legal_moves().as_ref().contains(&3));
        assert_eq!(position.static_rank(3), 0);
        assert_eq!(position.static_rank(0), 3);
    }

    #[test]
    fn the_winning_line_marks_exactly_the_four() {
        let won = board("1122334");
        let cells: Vec<(usize, usize)> = (0..WIDTH)
            .flat_map(|c| (0..HEIGHT).map(move |r| (c, r)))
            .filter(|&(c, r)| won.winning_line() & cell(c, r) != 0)
            .collect();
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 0), (3, 0)]);
        assert_eq!(board("112233").winning_line(), 0);
        let diagonal = board("1223733474644");
        assert_eq!(diagonal.winning_line().count_ones(), 4);
    }

    #[test]
    fn stones_are_where_they_were_dropped() {
        let position = board("4453");
        assert_eq!(position.stone(3, 0), 1);
        assert_eq!(position.stone(3, 1), 2);
        assert_eq!(position.stone(4, 0), 1);
        assert_eq!(position.stone(2, 0), 2);
        assert_eq!(position.stone(0, 0), 0);
    }

    #[test]
    fn safe_cells_block_a_single_threat_and_give_up_on_two() {
        // The second player has three in column 4; the first cannot win at once.
        let position = board("141424");
        assert!(!position.can_win_next());
        assert_eq!(position.safe_cells(), position.cell_in(3));
        // An open three on the bottom row (columns 3-5): two threats, nothing is safe.
        let two = board("131475");
        assert!(!two.can_win_next());
        assert_eq!((two.threats_against() & two.playable()).count_ones(), 2);
        assert_eq!(two.safe_cells(), 0);
    }

    fn small(moves: &str) -> SmallBoard {
        SmallBoard::parse(moves).unwrap()
    }

    /// A board of an odd height, which the rules handle as well.
    fn six_by_five(moves: &str) -> Grid<6, 5> {
        Grid::parse(moves).unwrap()
    }

    /// Whether `player` holds four in a row on `board`, found cell by cell from the discs:
    /// the plain rule the bitboards' shifts must agree with.
    fn has_four<const W: usize, const H: usize>(board: &Grid<W, H>, player: Disc) -> bool {
        let holds = |c: i32, r: i32| {
            (0..W as i32).contains(&c)
                && (0..H as i32).contains(&r)
                && board.disc(c as usize, r as usize) == Some(player)
        };
        (0..W as i32).any(|c| {
            (0..H as i32).any(|r| {
                [(0, 1), (1, 0), (1, 1), (1, -1)]
                    .iter()
                    .any(|&(dc, dr)| (0..4).all(|k| holds(c + k * dc, r + k * dr)))
            })
        })
    }

    #[test]
    fn four_in_a_row_wins_in_every_direction_on_the_small_board() {
        assert_eq!(
            (SmallBoard::WIDTH, SmallBoard::HEIGHT, SmallBoard::CELLS),
            (5, 4, 20)
        );
        assert!(small("1212121").is_won(), "vertical, left edge");
        assert!(small("5454545").is_won(), "vertical, right edge");
        assert!(small("1122334").is_won(), "horizontal, bottom left");
        assert!(small("5544332").is_won(), "horizontal, bottom right");
        // Red takes (0,0) (1,1) (2,2) and (3,3), the top row; its mirror image, (4,0) (3,1)
        // (2,2) (1,3).
        let before = small("1223533444");
        assert!(!before.is_won() && before.wins_with(3) && !before.wins_with(4));
        assert!(small("12235334444").is_won(), "diagonal up to the right");
        assert!(small("54431332222").is_won(), "diagonal up to the left");
        assert!(!small("121212").is_won(), "three are not four");
        assert!(!small("12345").is_won(), "alternate colours");
    }

    #[test]
    fn four_in_a_row_wins_in_every_direction_on_an_odd_height() {
        assert!(six_by_five("1212121").is_won(), "vertical, left edge");
        assert!(six_by_five("6565656").is_won(), "vertical, right edge");
        assert!(six_by_five("6655443").is_won(), "horizontal, bottom right");
        let before = six_by_five("1223633444");
        assert!(!before.is_won() && before.wins_with(3) && !before.wins_with(4));
        assert!(
            six_by_five("12236334444").is_won(),
            "diagonal up to the right"
        );
        assert!(
            six_by_five("65541443333").is_won(),
            "diagonal up to the left"
        );
        // The top row of a column of 5: red's four (0,1) (1,2) (2,3) (3,4) ends on the
        // highest cell.
        let top = six_by_five("221444332332144");
        assert!(
            has_four(&top, Disc::Red) && top.is_won(),
            "diagonal to the top row"
        );
        assert!(!six_by_five("123456").is_won(), "alternate colours");
    }

    #[test]
    fn the_small_board_refuses_its_sixth_column_and_a_full_column() {
        let no_such = |what: &str| Refused::NoSuchColumn {
            what: what.into(),
            width: 5,
        };
        assert_eq!(SmallBoard::parse("446").unwrap_err(), (3, no_such("'6'")));
        assert_eq!(
            SmallBoard::parse("446").unwrap_err().1.to_string(),
            "'6' is no column: columns are 1 to 5"
        );
        assert_eq!(small("44").played(5), Err(no_such("6")));
        // Four stones fill a column of the small board (no four: the colours alternate).
        let full = small("1111");
        assert!(!full.can_play(0) && full.can_play(1));
        assert_eq!(full.played(0), Err(Refused::ColumnFull(1)));
        assert_eq!(
            SmallBoard::parse("11111").unwrap_err(),
            (5, Refused::ColumnFull(1))
        );
        assert!(!full.legal_moves().as_ref().contains(&0));
        assert_eq!(small("3344").legal_moves().as_ref(), &[0, 1, 2, 3, 4]);
        let ranks: Vec<u8> = (0..5).map(|c| full.static_rank(c)).collect();
        assert_eq!(ranks, [2, 1, 0, 1, 2]);
        // On an even width the two middle columns come first together.
        let ranks: Vec<u8> = (0..6).map(|c| six_by_five("").static_rank(c)).collect();
        assert_eq!(ranks, [2, 1, 0, 0, 1, 2]);
        assert_eq!(
            Grid::<6, 5>::parse("447").unwrap_err().1.to_string(),
            "'7' is no column: columns are 1 to 6"
        );
    }

    /// Random games on the small board (and on 6 × 5 and 7 × 6): every move's four is the one
    /// the plain rule finds, `wins_with` foresees it, a game written out parses back to the
    /// same board, and some games fill the board without a four (a draw).
    #[test]
    fn random_small_games_agree_with_the_plain_rule_and_survive_being_written() {
        fn games<const W: usize, const H: usize>(seed: u64) -> usize {
            use rand::{RngExt as _, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut draws = 0;
            for _ in 0..2_000 {
                let mut board = Grid::<W, H>::new();
                let mut columns = Vec::new();
                while !board.is_over() {
                    let open: Vec<usize> = board.open_columns().collect();
                    let column = open[rng.random_range(0..open.len())];
                    let wins = board.wins_with(column);
                    let mover = board.player_to_move();
                    board = board.played(column).unwrap();
                    columns.push(column);
                    assert_eq!(board.is_won(), has_four(&board, mover), "{columns:?}");
                    assert_eq!(board.is_won(), wins, "{columns:?}");
                    assert!(!has_four(&board, mover.other()), "{columns:?}");
                    assert_eq!(board.winning_line() != 0, board.is_won());
                }
                let written = Grid::<W, H>::written(columns.iter().copied());
                assert_eq!(Grid::<W, H>::parse(&written), Ok(board), "{written}");
                assert_eq!(board.played(0), Err(Refused::GameOver));
                if !board.is_won() {
                    assert_eq!(board.moves(), W * H);
                    assert_eq!(board.outcome(), Some(Outcome::Draw));
                    draws += 1;
                }
            }
            draws
        }
        assert!(games::<5, 4>(4) > 0, "a drawn game on 5 x 4");
        assert!(games::<6, 5>(3) > 0, "a drawn game on 6 x 5");
        games::<7, 6>(5);
        assert_eq!(SmallBoard::written([0, 4, 2]), "153");
    }
}
