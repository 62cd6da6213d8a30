//! Tic-tac-toe on two 9-bit masks: cheap to copy, cheap to test for a line, which is what
//! makes a full 549,946-node minimax take milliseconds.

use super::{Game, MoveList, Outcome};
use std::fmt;

/// The eight winning lines as bit masks over cells 0..9 (reading order).
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// For each of the 512 sets of cells, whether it contains a line: one lookup instead of
/// eight tests, in the innermost loop of every search.
static HAS_LINE: [bool; 512] = {
    let mut table = [false; 512];
    let mut marks = 0;
    while marks < 512 {
        let mut i = 0;
        while i < LINES.len() {
            if marks as u16 & LINES[i] == LINES[i] {
                table[marks] = true;
            }
            i += 1;
        }
        marks += 1;
    }
    table
};

/// A player's mark. Either may move first, so a board always records who is to move. The
/// config file (`tictactoe.human_plays`) and `solve tictactoe --to-move` name it `x` / `o`
/// through the serde and clap derives, so there is one mark type, not one per reader.
///
/// Unlike Eight's `Seat` and the state graph's `Player` it does not say who moved first
/// (either mark may open), and unlike the tabs' `tabkit::side::Side` it does not say whether
/// the person or the AI plays it.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// Crosses.
    X,
    /// Noughts.
    O,
}

impl Mark {
    /// The opponent's mark.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::X => Self::O,
            Self::O => Self::X,
        }
    }

    /// The letter shown on the board and accepted in board strings.
    pub const fn letter(self) -> char {
        match self {
            Self::X => 'X',
            Self::O => 'O',
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Why a move was refused; the board is unchanged whenever one of these comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Cells are numbered 1-9 for people, 0-8 inside.
    #[error("there is no cell {0}: cells are 1-9")]
    NoSuchCell(u8),
    /// The cell already holds a mark.
    #[error("cell {cell} is taken by {1}", cell = .0 + 1)]
    Occupied(u8, Mark),
    /// Nobody may move once the game is over.
    #[error("the game is over")]
    GameOver,
}

/// Why a board string (as given to `solve`) is not a position a game can reach.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The string must name all nine cells.
    #[error("a board has 9 cells, this one has {0}")]
    Length(usize),
    /// Only X, O and an empty marker are allowed.
    #[error("cell {cell} is {found:?}: use X, O, or . (or - or space) for empty")]
    Character {
        /// 1-based cell number.
        cell: usize,
        /// The offending character.
        found: char,
    },
    /// Players alternate, so the counts differ by at most one.
    #[error(
        "impossible piece counts: {x} X and {o} O (players alternate, so they differ by at most 1)"
    )]
    Counts {
        /// Number of X marks.
        x: u32,
        /// Number of O marks.
        o: u32,
    },
    /// The given side cannot be the one to move with these counts.
    #[error("{mark} cannot be to move with {x} X and {o} O on the board")]
    WrongSideToMove {
        /// The side asked for.
        mark: Mark,
        /// Number of X marks.
        x: u32,
        /// Number of O marks.
        o: u32,
    },
    /// There is nothing left to search.
    #[error("the game is already over ({0})")]
    GameOver(String),
    /// A move of a move list is no cell.
    #[error("move {at} is {found:?}: a move is a cell 1-9, in reading order")]
    NotACell {
        /// 1-based place of the move in the list.
        at: usize,
        /// What was written.
        found: char,
    },
    /// A move of a move list cannot be played.
    #[error("move {at}: {why}")]
    Move {
        /// 1-based place of the move in the list.
        at: usize,
        /// Why it cannot be played.
        why: MoveError,
    },
    /// A game stops at the first line, so only one side can have one.
    #[error("both X and O have three in a row: a game stops at the first line")]
    TwoWinners,
    /// A line is made by the move that ends the game, so its owner moved last.
    #[error(
        "{winner} has three in a row, but {last} moved last here ({x} X, {o} O{mover}): a game ends on the winner's move"
    )]
    WinnerNotLast {
        /// The side with the line.
        winner: Mark,
        /// The side that made the last move, by the counts (and the side to move).
        last: Mark,
        /// Number of X marks.
        x: u32,
        /// Number of O marks.
        o: u32,
        /// `, X to move` when the side to move decided who moved last, else empty.
        mover: String,
    },
}

/// A tic-tac-toe position: where the marks are and who moves next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    x: u16,
    o: u16,
    to_move: Mark,
}

impl Board {
    /// The empty board with `first` to move.
    pub const fn empty(first: Mark) -> Self {
        Self {
            x: 0,
            o: 0,
            to_move: first,
        }
    }

    /// The mark in cell `index` (0-8), if any.
    pub fn cell(&self, index: u8) -> Option<Mark> {
        let bit = 1u16 << index;
        if self.x & bit != 0 {
            Some(Mark::X)
        } else if self.o & bit != 0 {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// Number of marks placed so far.
    pub const fn marks_placed(&self) -> u32 {
        (self.x | self.o).count_ones()
    }

    /// Places the mover's mark in cell `index` (0-8), refusing illegal moves with a reason.
    pub fn try_play(&self, index: u8) -> Result<Self, MoveError> {
        if index > 8 {
            return Err(MoveError::NoSuchCell(index + 1));
        }
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if let Some(mark) = self.cell(index) {
            return Err(MoveError::Occupied(index, mark));
        }
        Ok(self.play(index))
    }

    /// The completed line, as cell indices, once somebody has won.
    pub fn winning_line(&self) -> Option<[u8; 3]> {
        LINES
            .iter()
            .find(|&&line| self.x & line == line || self.o & line == line)
            .map(|&line| {
                let mut cells = [0u8; 3];
                let mut bits = line;
                for cell in &mut cells {
                    *cell = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                }
                cells
            })
    }

    /// The position after the cells in `moves`, 1-9 in reading order, X first (`"519"`:
    /// X in the centre, O in the top left, X in the bottom right); spaces are ignored.
    /// Refuses a character that is no cell, a taken cell, a move after the game ended, and
    /// a list that ends the game (there would be nothing left to play).
    pub fn from_moves(moves: &str) -> Result<Self, ParseError> {
        let mut board = Self::empty(Mark::X);
        for (i, c) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let refused = |why| ParseError::Move { at: i + 1, why };
            let cell =
                c.to_digit(10)
                    .filter(|d| (1..=9).contains(d))
                    .ok_or(ParseError::NotACell {
                        at: i + 1,
                        found: c,
                    })?;
            board = board.try_play(cell as u8 - 1).map_err(refused)?;
        }
        if let Some(outcome) = board.outcome() {
            return Err(ParseError::GameOver(match outcome {
                Outcome::Winner(mark) => format!("{mark} has three in a row"),
                Outcome::Draw => "the board is full".to_string(),
            }));
        }
        Ok(board)
    }

    /// Parses nine cells in reading order (`X`, `O`, and `.`/`-`/space/`_` for empty),
    /// checking that a real game could reach it and is not over. Without `to_move` the side
    /// to move is X when the counts are equal, else the side with fewer marks.
    pub fn parse(text: &str, to_move: Option<Mark>) -> Result<Self, ParseError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 9 {
            return Err(ParseError::Length(chars.len()));
        }
        let mut cells = [None; 9];
        for (i, c) in chars.iter().enumerate() {
            cells[i] = match c.to_ascii_uppercase() {
                'X' => Some(Mark::X),
                'O' => Some(Mark::O),
                '.' | '-' | ' ' | '_' => None,
                found => {
                    return Err(ParseError::Character { cell: i + 1, found });
                }
            };
        }
        let board = Self::from_cells(cells, to_move)?;
        if let Some(outcome) = board.outcome() {
            let what = match outcome {
                Outcome::Winner(mark) => format!("{mark} has three in a row"),
                Outcome::Draw => "the board is full".to_string(),
            };
            return Err(ParseError::GameOver(what));
        }
        Ok(board)
    }

    /// The board with these nine cells (reading order) if a real game can reach it,
    /// finished or not: the counts differ by at most one, at most one side has a line, and
    /// a side with a line made the last move. Without `to_move` the side to move is X when
    /// the counts are equal, else the side with fewer marks.
    pub fn from_cells(cells: [Option<Mark>; 9], to_move: Option<Mark>) -> Result<Self, ParseError> {
        let (mut x, mut o) = (0u16, 0u16);
        for (i, cell) in cells.iter().enumerate() {
            match cell {
                Some(Mark::X) => x |= 1 << i,
                Some(Mark::O) => o |= 1 << i,
                None => {}
            }
        }
        let (xs, os) = (x.count_ones(), o.count_ones());
        if xs.abs_diff(os) > 1 {
            return Err(ParseError::Counts { x: xs, o: os });
        }
        let fewer = match xs.cmp(&os) {
            std::cmp::Ordering::Less => Some(Mark::X),
            std::cmp::Ordering::Greater => Some(Mark::O),
            std::cmp::Ordering::Equal => None,
        };
        let mover = match (to_move, fewer) {
            (Some(m), Some(f)) if m != f => {
                return Err(ParseError::WrongSideToMove {
                    mark: m,
                    x: xs,
                    o: os,
                });
            }
            (Some(m), _) => m,
            (None, Some(f)) => f,
            (None, None) => Mark::X,
        };
        let winner = match (Self::has_line(x), Self::has_line(o)) {
            (true, true) => return Err(ParseError::TwoWinners),
            (true, false) => Some(Mark::X),
            (false, true) => Some(Mark::O),
            (false, false) => None,
        };
        // The side with more marks moved last; with equal counts, the side not to move.
        let last = match fewer {
            Some(fewer) => fewer.other(),
            None => mover.other(),
        };
        if let Some(winner) = winner.filter(|&w| w != last) {
            let mover = if fewer.is_none() {
                format!(", {mover} to move")
            } else {
                String::new()
            };
            return Err(ParseError::WinnerNotLast {
                winner,
                last,
                x: xs,
                o: os,
                mover,
            });
        }
        Ok(Self {
            x,
            o,
            to_move: mover,
        })
    }

    fn has_line(marks: u16) -> bool {
        HAS_LINE[usize::from(marks & FULL)]
    }
}

impl fmt::Display for Board {
    /// The nine cells in reading order, `.` for empty: the same form `parse` accepts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..9 {
            let c = self.cell(i).map_or('.', Mark::letter);
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Game for Board {
    type Player = Mark;
    type Move = u8;
    type Moves = MoveList<9>;

    fn to_move(&self) -> Mark {
        self.to_move
    }

    fn legal_moves(&self) -> MoveList<9> {
        let mut moves = MoveList::new();
        if self.outcome().is_some() {
            return moves;
        }
        let mut free = !(self.x | self.o) & FULL;
        while free != 0 {
            moves.push(free.trailing_zeros() as u8);
            free &= free - 1;
        }
        moves
    }

    fn play(&self, cell: u8) -> Self {
        let bit = 1u16 << cell;
        let (x, o) = match self.to_move {
            Mark::X => (self.x | bit, self.o),
            Mark::O => (self.x, self.o | bit),
        };
        Self {
            x,
            o,
            to_move: self.to_move.other(),
        }
    }

    /// Centre first, then the corners, then the edges: the centre lies on four lines, a
    /// corner on three, an edge on two.
    fn static_rank(&self, cell: u8) -> u8 {
        match cell {
            4 => 0,
            0 | 2 | 6 | 8 => 1,
            _ => 2,
        }
    }

    fn outcome(&self) -> Option<Outcome<Mark>> {
        if Self::has_line(self.x) {
            Some(Outcome::Winner(Mark::X))
        } else if Self::has_line(self.o) {
            Some(Outcome::Winner(Mark::O))
        } else if (self.x | self.o) == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn reachable(first: Mark) -> HashSet<Board> {
        let mut seen = HashSet::new();
        let mut todo = vec![Board::empty(first)];
        while let Some(board) = todo.pop() {
            if seen.insert(board) {
                todo.extend(board.legal_moves().as_ref().iter().map(|&m| board.play(m)));
            }
        }
        seen
    }

    #[test]
    fn there_are_5478_reachable_positions() {
        assert_eq!(reachable(Mark::X).len(), 5478);
    }

    #[test]
    fn winning_line_is_reported_in_cell_order() {
        let board = Board::parse("OOX.X.X..", None);
        // X has 3-5-7 (cells 2,4,6): the game is over, so parse refuses it...
        assert!(matches!(board, Err(ParseError::GameOver(_))));
        // ...but play reaches it and reports the line.
        let b = Board::parse("OOX.X....", Some(Mark::X)).unwrap().play(6);
        assert_eq!(b.winning_line(), Some([2, 4, 6]));
        assert_eq!(b.outcome(), Some(Outcome::Winner(Mark::X)));
    }

    #[test]
    fn occupied_and_finished_moves_are_refused() {
        let b = Board::empty(Mark::X).play(4);
        assert_eq!(b.try_play(4), Err(MoveError::Occupied(4, Mark::X)));
        assert_eq!(b.try_play(9), Err(MoveError::NoSuchCell(10)));
        let won = Board::parse("XX.OO....", Some(Mark::X)).unwrap().play(2);
        assert_eq!(won.try_play(8), Err(MoveError::GameOver));
        assert!(won.legal_moves().as_ref().is_empty());
    }

    #[test]
    fn a_move_list_is_played_x_first_and_refused_where_it_breaks() {
        let board = Board::from_moves("5 1 9").unwrap();
        assert_eq!(board, Board::parse("O...X...X", None).unwrap());
        assert_eq!(board.to_move, Mark::O);
        assert_eq!(
            Board::from_moves("55"),
            Err(ParseError::Move {
                at: 2,
                why: MoveError::Occupied(4, Mark::X)
            })
        );
        assert_eq!(
            Board::from_moves("5a"),
            Err(ParseError::NotACell { at: 2, found: 'a' })
        );
        assert_eq!(
            Board::from_moves("0"),
            Err(ParseError::NotACell { at: 1, found: '0' })
        );
        assert!(matches!(
            Board::from_moves("14253"),
            Err(ParseError::GameOver(_))
        ));
        assert!(matches!(
            Board::from_moves("142536"),
            Err(ParseError::Move {
                at: 6,
                why: MoveError::GameOver
            })
        ));
    }

    #[test]
    fn parse_rejects_malformed_boards() {
        assert_eq!(Board::parse("X..", None), Err(ParseError::Length(3)));
        assert!(matches!(
            Board::parse("X..Z.....", None),
            Err(ParseError::Character {
                cell: 4,
                found: 'Z'
            })
        ));
        assert_eq!(
            Board::parse("XX.......", None),
            Err(ParseError::Counts { x: 2, o: 0 })
        );
        assert!(matches!(
            Board::parse("X........", Some(Mark::X)),
            Err(ParseError::WrongSideToMove { .. })
        ));
        assert!(matches!(
            Board::parse("XOXXOOOXX", None),
            Err(ParseError::GameOver(_))
        ));
    }

    fn cells(text: &str) -> [Option<Mark>; 9] {
        std::array::from_fn(|i| match text.as_bytes()[i] {
            b'X' => Some(Mark::X),
            b'O' => Some(Mark::O),
            _ => None,
        })
    }

    #[test]
    fn from_cells_refuses_two_winners() {
        assert_eq!(
            Board::from_cells(cells("XXXOOO..."), None),
            Err(ParseError::TwoWinners)
        );
    }

    #[test]
    fn from_cells_refuses_a_winner_who_did_not_move_last() {
        // X has a row, but O has more marks: O moved last.
        let err = Board::from_cells(cells("XXXOO.OO."), None).unwrap_err();
        assert!(matches!(
            err,
            ParseError::WinnerNotLast {
                winner: Mark::X,
                last: Mark::O,
                ..
            }
        ));
        assert_eq!(
            err.to_string(),
            "X has three in a row, but O moved last here (3 X, 4 O): a game ends on the winner's move"
        );
        // Equal counts: the side to move says who moved last.
        let err = Board::from_cells(cells("OOOXX.X.."), Some(Mark::O)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "O has three in a row, but X moved last here (3 X, 3 O, O to move): a game ends on the winner's move"
        );
        // The same board with X to move is a finished game O won.
        let won = Board::from_cells(cells("OOOXX.X.."), Some(Mark::X)).unwrap();
        assert_eq!(won.outcome(), Some(Outcome::Winner(Mark::O)));
    }

    #[test]
    fn from_cells_keeps_a_finished_board_parse_refuses() {
        let won = Board::from_cells(cells("XXXOO...."), None).unwrap();
        assert_eq!(won.to_move(), Mark::O);
        assert_eq!(won.outcome(), Some(Outcome::Winner(Mark::X)));
        assert!(matches!(
            Board::parse("XXXOO....", None),
            Err(ParseError::GameOver(_))
        ));
    }

    #[test]
    fn parse_infers_the_side_to_move_and_round_trips() {
        let b = Board::parse("X...O....", None).unwrap();
        assert_eq!(b.to_move(), Mark::X);
        assert_eq!(b.to_string(), "X...O....");
        assert_eq!(Board::parse("O........", None).unwrap().to_move(), Mark::X);
        assert_eq!(
            Board::parse(".........", Some(Mark::O)).unwrap().to_move(),
            Mark::O
        );
    }
}
