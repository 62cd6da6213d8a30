//! What the Self-play tab needs of a game beyond what its learner needs (`Refereed`): where
//! a game starts, and how its moves, players and positions are written. Tic-tac-toe's cells and the four-in-a-row boards' columns both count from 1.

use crate::domain::games::Game;
use crate::domain::games::connect4::Grid;
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::learn::selfplay::referee::Refereed;
use crate::widgets::discs::{board_lines, disc_glyph};

/// A game the Self-play tab plays and trains.
pub(crate) trait TabGame: Refereed + Send + Sync {
    /// The position a game starts from.
    fn start() -> Self;
    /// The player to move, as the tab writes it (`X`, `● red`).
    fn mover_words(&self) -> String;
    /// Moves made since the start.
    fn moves_made(&self) -> usize;
    /// The position as text lines, for the why record.
    fn text_lines(&self) -> Vec<String>;
    /// The move at `index` as the tab writes it: cells and columns count from 1.
    fn move_words(index: usize) -> String {
        (index + 1).to_string()
    }
}

impl TabGame for Board {
    fn start() -> Self {
        Board::empty(Mark::X)
    }

    fn mover_words(&self) -> String {
        self.to_move().letter().to_string()
    }

    fn moves_made(&self) -> usize {
        9 - self.legal_moves().as_ref().len()
    }

    /// Three lines, empty cells by their number.
    fn text_lines(&self) -> Vec<String> {
        (0..3u8)
            .map(|row| {
                (0..3u8)
                    .map(|column| {
                        let cell = row * 3 + column;
                        self.cell(cell).map_or_else(
                            || (cell + 1).to_string(),
                            |mark| mark.letter().to_string(),
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }
}

impl<const W: usize, const H: usize> TabGame for Grid<W, H>
where
    Grid<W, H>: Refereed,
{
    fn start() -> Self {
        Grid::new()
    }

    fn mover_words(&self) -> String {
        let disc = self.player_to_move();
        format!("{} {}", disc_glyph(disc), disc.name())
    }

    fn moves_made(&self) -> usize {
        (0..W)
            .flat_map(|column| (0..H).map(move |row| (column, row)))
            .filter(|&(column, row)| self.disc(column, row).is_some())
            .count()
    }

    fn text_lines(&self) -> Vec<String> {
        board_lines(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::connect4::SmallBoard;

    #[test]
    fn each_game_writes_its_mover_and_counts_its_moves() {
        let board = Board::start().play(4);
        assert_eq!((board.mover_words(), board.moves_made()), ("O".into(), 1));
        assert_eq!(board.text_lines()[1], "4 X 6");
        let grid = SmallBoard::start().play(0).play(0).play(3);
        assert_eq!(grid.moves_made(), 3);
        assert_eq!(grid.mover_words(), "○ yellow");
        assert_eq!(SmallBoard::move_words(4), "5");
    }
}
