//! A lesson step's explanation panel: its few lines in a box over the tab, pointing at the
//! place on screen the step is about. The place is found on the screen as drawn (the text
//! the step names, the first time it appears in the tab, top to bottom), marked, and the
//! panel set above or below it with an arrow at its column, so the student sees which
//! "α" the words mean.

use crate::app::App;
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

/// Draws the step's explanation over `area` (the tab's body, already drawn).
pub fn render(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let Some(step) = (app.lesson.as_ref()).and_then(|p| p.lesson.steps.get(p.step)) else {
        return;
    };
    let pointed = step.point.as_deref().and_then(|text| find(buf, area, text));
    if let Some((at, width)) = pointed {
        for x in at.x..at.x + width {
            let cell = &mut buf[(x, at.y)];
            cell.set_style(
                theme
                    .cursor
                    .add_modifier(Modifier::BOLD | Modifier::REVERSED),
            );
        }
    }
    let widest = step.explain.iter().map(|l| l.width()).max().unwrap_or(0);
    let width = (widest as u16 + 4).clamp(30, area.width);
    let height = (step.explain.len() as u16 + 2).min(area.height);
    let panel = place(area, width, height, pointed.map(|(at, _)| at));
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border_focused)
        .title(Span::styled(" The idea ", theme.title))
        .title_bottom(Span::styled(
            " Esc: do the step · E shows it again ",
            theme.dim,
        ));
    let lines: Vec<Line> = step
        .explain
        .iter()
        .map(|l| Line::raw(format!(" {l}")))
        .collect();
    Clear.render(panel, buf);
    Paragraph::new(lines).block(block).render(panel, buf);
    if let Some((at, _)) = pointed {
        arrow(panel, at, buf, theme);
    }
}

/// Where `text` is first drawn in `area`, top to bottom, and how many columns it takes.
fn find(buf: &Buffer, area: Rect, text: &str) -> Option<(Position, u16)> {
    for y in area.top()..area.bottom() {
        let mut row = String::new();
        let mut columns = Vec::new();
        for x in area.left()..area.right() {
            let symbol = buf[(x, y)].symbol();
            columns.push((row.len(), x));
            row.push_str(symbol);
        }
        if let Some(byte) = row.find(text) {
            let x = columns.iter().rev().find(|(start, _)| *start <= byte)?.1;
            return Some((Position::new(x, y), text.width() as u16));
        }
    }
    None
}

/// The panel's place: below the pointed row if it fits there, else above it, else at the
/// bottom of `area`; without a point, at the bottom.
fn place(area: Rect, width: u16, height: u16, pointed: Option<Position>) -> Rect {
    let x = area.x + (area.width - width) / 2;
    let bottom = Rect::new(x, area.bottom() - height, width, height);
    let Some(at) = pointed else {
        return bottom;
    };
    if at.y + 1 + height <= area.bottom() {
        Rect::new(x, at.y + 1, width, height)
    } else if at.y >= area.y + height {
        Rect::new(x, at.y - height, width, height)
    } else {
        bottom
    }
}

/// An arrow in the panel's border towards the pointed place, at its column.
fn arrow(panel: Rect, at: Position, buf: &mut Buffer, theme: &Theme) {
    let x =
        at.x.clamp(panel.left() + 1, panel.right().saturating_sub(2));
    let (y, symbol) = if at.y < panel.y {
        (panel.y, "▲")
    } else if at.y >= panel.bottom() {
        (panel.bottom() - 1, "▼")
    } else {
        return;
    };
    buf[(x, y)].set_symbol(symbol).set_style(theme.title);
}
