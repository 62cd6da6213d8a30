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
