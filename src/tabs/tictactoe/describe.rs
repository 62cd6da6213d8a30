//! How each game draws itself in the panes beyond what the game itself says: a small
//! picture of a position for the node under the tree cursor, a move in words, how a
//! finished game is told, and the label of a node in the empty tree pane's example. The
//! search, tree and MCTS panes draw both games through it.

use super::symbols;
use crate::components::tree_search::{Describe, Playable};
use crate::domain::games::Game;
use crate::domain::games::eight::{Eight, TARGET};
use crate::domain::games::tictactoe::{Board, Mark};
use crate::widgets::Theme;
use crate::widgets::symbols::Symbol;
use ratatui::text::{Line, Span};

pub(super) fn mark_span(mark: Option<Mark>, empty: String, theme: &Theme) -> Span<'static> {
    match mark {
        Some(Mark::X) => Span::styled("X", theme.x),
        Some(Mark::O) => Span::styled("O", theme.o),
        None => Span::styled(empty, theme.dim),
    }
}

impl Describe for Board {
    const NODE_LABEL: Symbol = symbols::NODE_LABEL;

    fn mini(&self, theme: &Theme) -> Vec<Line<'static>> {
        (0..3u8)
            .map(|row| {
                let mut spans = vec![Span::raw(" ")];
                for col in 0..3u8 {
                    spans.push(mark_span(self.cell(row * 3 + col), "·".into(), theme));
                    spans.push(Span::raw(" "));
                }
                Line::from(spans)
            })
            .collect()
    }

    fn after(&self, cell: u8) -> String {
        format!("after {} plays {}", self.to_move(), cell + 1)
    }
}

impl Describe for Eight {
    const NODE_LABEL: Symbol = symbols::EIGHT_NODE_LABEL;

    fn mini(&self, theme: &Theme) -> Vec<Line<'static>> {
        let barred = self.last().map_or(" none".into(), |l| l.to_string());
        vec![
            Line::from(format!(" sum {} of {TARGET}", self.sum())),
            Line::from(vec![Span::raw(" ✗"), Span::styled(barred, theme.dim)]),
        ]
    }

    fn after(&self, n: u8) -> String {
        format!("after {} adds {n}", Self::player_name(self.to_move()))
    }
}
