//! The position editor (`i`): set any tic-tac-toe board and side to move, then play from it,
//! search it, or ask what the AI would play there.
//!
//! The draft may pass through boards no game reaches while it is being set up (a second X
//! before the O); the board is checked when it is used, and an illegal one is refused with
//! the reason, the draft and the game both left as they were.

use crate::domain::games::Game;
use crate::domain::games::Outcome;
use crate::domain::games::tictactoe::{Board, Mark, ParseError};

/// What a key asks of the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EditCommand {
    /// Move the cursor by (columns, rows), wrapping.
    Cursor(i8, i8),
    /// Put the cursor on cell 1-9.
    Cell(u8),
    /// Put X or O under the cursor, or empty it (`None`).
    Put(Option<Mark>),
    /// Switch the side to move (only when the counts leave it open).
    SwitchMover,
    /// Empty every cell.
    Clear,
    /// Play from the board.
    Play,
    /// Play from the board with its search open in the tree pane, to step.
    Search,
    /// What the AI would play here (the why overlay), nothing played.
    Ask,
    /// Close the editor; the game stays as it was.
    Cancel,
}

/// The board being set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Editor {
    /// The nine cells in reading order.
    pub cells: [Option<Mark>; 9],
    /// The cell under the cursor, 0-8.
    pub cursor: u8,
    /// The side to move while X and O have as many marks (either may have opened).
    pub even_mover: Mark,
}

impl Editor {
    /// An editor starting from `board`, the cursor on `cursor`.
    pub fn new(board: &Board, cursor: u8) -> Self {
        Self {
            cells: std::array::from_fn(|i| board.cell(i as u8)),
            cursor: cursor.min(8),
            even_mover: board.to_move(),
        }
    }

    /// How many X and O marks the draft holds.
    pub fn counts(&self) -> (u32, u32) {
        let count = |mark| self.cells.iter().filter(|&&c| c == Some(mark)).count() as u32;
        (count(Mark::X), count(Mark::O))
    }

    /// The side to move: the one with fewer marks, or the one chosen when they are level.
    pub fn to_move(&self) -> Mark {
        let (x, o) = self.counts();
        match x.cmp(&o) {
            std::cmp::Ordering::Less => Mark::X,
            std::cmp::Ordering::Greater => Mark::O,
            std::cmp::Ordering::Equal => self.even_mover,
        }
    }

    /// Whether the counts decide the side to move (they differ), so `s` cannot change it.
    pub fn mover_fixed(&self) -> bool {
        let (x, o) = self.counts();
        x != o
    }

    /// Moves the cursor, wrapping at the edges.
    pub fn move_cursor(&mut self, dx: i8, dy: i8) {
        let cell = self.cursor as i8;
        let col = (cell % 3 + dx).rem_euclid(3);
        let row = (cell / 3 + dy).rem_euclid(3);
        self.cursor = (row * 3 + col) as u8;
    }

    /// Puts `mark` (or nothing) under the cursor.
    pub fn put(&mut self, mark: Option<Mark>) {
        self.cells[usize::from(self.cursor)] = mark;
    }

    /// Switches the side to move; refused with the reason when the counts decide it.
    ///
    /// # Errors
    /// The sentence to show when X and O have different counts.
    pub fn switch_mover(&mut self) -> Result<Mark, String> {
        if self.mover_fixed() {
            let (x, o) = self.counts();
            return Err(format!(
                "With {x} X and {o} O, {} is to move: the counts decide it (s works when they are equal)",
                self.to_move()
            ));
        }
        self.even_mover = self.even_mover.other();
        Ok(self.even_mover)
    }

    /// The draft as a board a game can reach (finished or not).
    ///
    /// # Errors
    /// Why no game reaches it: wrong counts, two winners, a winner who did not move last.
    pub fn board(&self) -> Result<Board, ParseError> {
        Board::from_cells(self.cells, Some(self.to_move()))
    }

    /// The draft as a board to play or search from: reachable and not finished.
    ///
    /// # Errors
    /// Why it cannot be used, as [`Editor::board`] says, or that the game is over on it.
    pub fn playable(&self) -> Result<Board, String> {
        let board = self.board().map_err(|e| e.to_string())?;
        match board.outcome() {
            None => Ok(board),
            Some(Outcome::Winner(mark)) => Err(format!(
                "the game is over on this board ({mark} has three in a row): nothing to play or search"
            )),
            Some(Outcome::Draw) => {
                Err("the game is over on this board (it is full): nothing to play or search".into())
            }
        }
    }

    /// A short line on the draft for the editor pane (28 columns at most): the side to
    /// move, or what is wrong (Enter, `t` and `y` say it whole).
    pub fn status(&self) -> String {
        let board = match self.board() {
            Ok(board) => board,
            Err(ParseError::Counts { x, o }) => return format!("✗ {x} X, {o} O: too far apart"),
            Err(ParseError::TwoWinners) => return "✗ both X and O have a line".into(),
            Err(ParseError::WinnerNotLast { winner, last, .. }) => {
                return format!("✗ {winner} has a line, {last} moved last");
            }
            Err(other) => return format!("✗ {other}"),
        };
        match board.outcome() {
            Some(Outcome::Winner(mark)) => format!("✗ game over: {mark} has a line"),
            Some(Outcome::Draw) => "✗ game over: the board is full".into(),
            None if self.mover_fixed() => format!("{} to move (by the counts)", board.to_move()),
            None => format!(
                "{} to move (s: {})",
                board.to_move(),
                board.to_move().other()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn editor(text: &str) -> Editor {
        let mut editor = Editor::new(&Board::empty(Mark::X), 0);
        for (i, c) in text.chars().enumerate() {
            editor.cells[i] = match c {
                'X' => Some(Mark::X),
                'O' => Some(Mark::O),
                _ => None,
            };
        }
        editor
    }

    #[test]
    fn the_counts_decide_the_side_to_move_where_they_can() {
        assert_eq!(editor("X........").to_move(), Mark::O);
        assert_eq!(editor("O........").to_move(), Mark::X, "O may open");
        let mut level = editor("XO.......");
        assert!(!level.mover_fixed());
        assert_eq!(level.switch_mover(), Ok(Mark::O));
        assert_eq!(level.to_move(), Mark::O);
        let mut fixed = editor("XXO......");
        let before = fixed;
        assert!(
            fixed
                .switch_mover()
                .unwrap_err()
                .contains("the counts decide it")
        );
        assert_eq!(fixed, before);
    }

    #[test]
    fn wrong_counts_are_refused() {
        let err = editor("XXX.O....").playable().unwrap_err();
        assert!(err.contains("3 X and 1 O"), "{err}");
        let err = editor("OO.......").playable().unwrap_err();
        assert!(err.contains("0 X and 2 O"), "{err}");
    }

    #[test]
    fn two_winners_are_refused() {
        let err = editor("XXXOOO...").playable().unwrap_err();
        assert_eq!(
            err,
            "both X and O have three in a row: a game stops at the first line"
        );
    }

    #[test]
    fn a_winner_who_could_not_have_moved_last_is_refused() {
        let err = editor("XXXOO.OO.").playable().unwrap_err();
        assert!(
            err.starts_with("X has three in a row, but O moved last"),
            "{err}"
        );
    }

    #[test]
    fn a_finished_board_is_refused_for_play_and_search() {
        let err = editor("XXXOO....").playable().unwrap_err();
        assert!(
            err.contains("the game is over on this board (X has three in a row)"),
            "{err}"
        );
        let err = editor("XOXXOOOXX").playable().unwrap_err();
        assert!(err.contains("it is full"), "{err}");
        assert_eq!(editor("XXXOO....").status(), "✗ game over: X has a line");
        assert_eq!(
            editor("XOXXOOOXX").status(),
            "✗ game over: the board is full"
        );
        assert_eq!(editor("XXXOOO...").status(), "✗ both X and O have a line");
        assert_eq!(editor("XXXOO.OO.").status(), "✗ X has a line, O moved last");
        assert_eq!(editor("XXX.O....").status(), "✗ 3 X, 1 O: too far apart");
    }

    #[test]
    fn a_legal_board_is_taken_with_its_side_to_move() {
        let board = editor("X...O....").playable().unwrap();
        assert_eq!(board.to_string(), "X...O....");
        assert_eq!(board.to_move(), Mark::X);
        assert_eq!(editor("X...O....").status(), "X to move (s: O)");
        assert_eq!(editor("X........").status(), "O to move (by the counts)");
    }
}
