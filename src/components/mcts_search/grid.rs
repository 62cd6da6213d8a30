//! Four-in-a-row boards of any size as the MCTS outline writes them: `col 4`, a random
//! game's columns as bare numbers, the discs by glyph and name, the board as the why
//! overlay draws it. The Connect Four tab and the self-play learner's boards share it.

use super::outline::Names;
use crate::domain::games::connect4::{Disc, Grid};
use crate::widgets::discs::{board_lines, disc_glyph};

impl<const W: usize, const H: usize> Names for Grid<W, H> {
    fn move_name(&self, mv: u8) -> String {
        format!("col {}", mv + 1)
    }

    fn rollout_move(&self, mv: u8) -> String {
        (mv + 1).to_string()
    }

    fn side_name(disc: Disc) -> String {
        format!("{} {}", disc_glyph(disc), disc.name())
    }

    fn board_lines(&self) -> Vec<String> {
        board_lines(self)
    }
}

/// A column typed from 1, checked: the move from 0, or why it is refused (the
/// four-in-a-row boards' `Playable::check_choice`).
pub fn check_column<const W: usize, const H: usize>(
    board: &Grid<W, H>,
    column: u8,
) -> Result<u8, String> {
    if !(1..=W).contains(&usize::from(column)) {
        return Err(format!("there is no column {column}: columns are 1-{W}"));
    }
    board
        .played(usize::from(column - 1))
        .map(|_| column - 1)
        .map_err(|refused| refused.to_string())
}

/// A move as the tree and move lists write it: the disc and its column (`●4`).
pub fn column_label<const W: usize, const H: usize>(board: &Grid<W, H>, column: u8) -> String {
    format!("{}{}", disc_glyph(board.player_to_move()), column + 1)
}

/// Why a four-in-a-row game is over, the players named by `name`; `None` while it goes on.
pub fn why_four_over<const W: usize, const H: usize>(
    board: &Grid<W, H>,
    name: &dyn Fn(Disc) -> String,
) -> Option<String> {
    use crate::domain::games::{Game as _, Outcome};
    match board.outcome()? {
        Outcome::Winner(winner) => Some(format!("{} got four in a row", name(winner))),
        Outcome::Draw => Some("the board is full".into()),
    }
}
