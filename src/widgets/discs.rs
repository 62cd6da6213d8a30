//! Four-in-a-row boards of any size drawn the same way wherever they appear (the Connect
//! Four tab, the self-play learner's boards, the search outlines and why records): each
//! player's disc by glyph and colour, the board as text lines, row 1 at the bottom.

use super::Theme;
use crate::domain::games::connect4::{Disc, Grid};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The glyph of a player's discs.
pub const fn disc_glyph(disc: Disc) -> &'static str {
    match disc {
        Disc::Red => "●",
        Disc::Yellow => "○",
    }
}

/// The colour of a player's discs.
pub fn disc_style(disc: Disc, theme: &Theme) -> Style {
    match disc {
        Disc::Red => theme.red,
        Disc::Yellow => theme.yellow,
    }
}

/// The position as text lines, the top row first and the column numbers under it (the
/// why overlay and the random game's end draw it so).
pub fn board_lines<const W: usize, const H: usize>(board: &Grid<W, H>) -> Vec<String> {
    let mut lines: Vec<String> = (0..H)
        .rev()
        .map(|row| {
            (0..W)
                .map(|column| board.disc(column, row).map_or("·", disc_glyph))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    lines.push(
        (1..=W)
            .map(|column| column.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    );
    lines
}

/// The position in coloured glyphs, a character a cell, the top row first: small enough
/// for a node of a search tree.
pub fn mini_lines<const W: usize, const H: usize>(
    board: &Grid<W, H>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    (0..H)
        .rev()
        .map(|row| {
            let cells: Vec<Span<'static>> = (0..W)
                .map(|column| match board.disc(column, row) {
                    Some(disc) => Span::styled(disc_glyph(disc), disc_style(disc, theme)),
                    None => Span::styled("·", theme.dim),
                })
                .collect();
            Line::from(cells)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::connect4::SmallBoard;

    #[test]
    fn a_small_board_is_written_row_by_row_with_its_column_numbers() {
        let board = SmallBoard::new().play(2).play(2).play(0);
        assert_eq!(
            board_lines(&board),
            [
                "· · · · ·",
                "· · · · ·",
                "· · ○ · ·",
                "● · ● · ·",
                "1 2 3 4 5",
            ]
            .map(String::from)
        );
    }
}
