//! The teacher's view of the room: one row per student with their name, the tab on their
//! screen, their lesson step and how long since their last key, in a table that scrolls
//! so thirty and more fit at 80x24. Read again every second while open.

use super::overlay::clamp_scroll;
use crate::app::App;
use crate::frame::room::{Room, Seat, idle_words};
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};
use std::time::Duration;

/// A student idle this long is marked: likely lost, or away.
const IDLE_MARK: Duration = Duration::from_secs(120);

/// Columns of the name; longer names are cut with `…` (the log has them whole).
const NAME_WIDTH: usize = 20;

/// Draws the room over `area` (the body of the screen).
pub fn render(app: &App, room: &dyn Room, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let seats = room.seats();
    let idle = seats.iter().filter(|s| s.idle >= IDLE_MARK).count();
    let title = format!(
        " The room: {} student{}, {idle} idle 2m or more ",
        seats.len(),
        if seats.len() == 1 { "" } else { "s" }
    );
    let inner = Block::bordered().inner(area);
    let header = Rect::new(inner.x, inner.y, inner.width, inner.height.min(1));
    let body = Rect::new(
        inner.x,
        inner.y + header.height,
        inner.width,
        inner.height - header.height,
    );
    let scroll = clamp_scroll(&app.overlay_scroll, seats.len(), body.height);
    let shown_to = (usize::from(scroll) + usize::from(body.height)).min(seats.len());
    let rows = if seats.is_empty() {
        String::new()
    } else {
        format!(
            " rows {}-{shown_to} of {} ·",
            usize::from(scroll) + 1,
            seats.len()
        )
    };
    let block = Block::bordered()
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(title, theme.title))
        .title_bottom(
            Line::from(format!("{rows} Esc closes · ↑↓ PgUp PgDn scroll ")).right_aligned(),
        );
    Clear.render(area, buf);
    block.render(area, buf);
    if body.height == 0 {
        return;
    }
    Line::styled(row_text("name", "tab", "step", "idle"), theme.dim).render(header, buf);
    if seats.is_empty() {
        Line::styled("No students yet: they appear as they log in", theme.dim).render(body, buf);
        return;
    }
    let lines: Vec<Line> = seats
        .iter()
        .skip(usize::from(scroll))
        .map(|seat| seat_line(seat, theme))
        .collect();
    Paragraph::new(lines).render(body, buf);
}

fn seat_line<'a>(seat: &Seat, theme: &Theme) -> Line<'a> {
    let step = seat
        .step
        .map_or_else(|| "-".to_string(), |(at, of)| format!("{at}/{of}"));
    let idle = idle_words(seat.idle);
    let text = row_text(&cut(&seat.name), seat.tab.title(), &step, &idle);
    if seat.idle >= IDLE_MARK {
        Line::styled(format!("{text} ◀"), theme.error)
    } else {
        Line::raw(text)
    }
}

fn row_text(name: &str, tab: &str, step: &str, idle: &str) -> String {
    format!("{name:<NAME_WIDTH$} {tab:<16} {step:>6} {idle:>7}")
}

/// `name` in at most [`NAME_WIDTH`] characters.
fn cut(name: &str) -> String {
    if name.chars().count() <= NAME_WIDTH {
        return name.to_string();
    }
    let mut short: String = name.chars().take(NAME_WIDTH - 1).collect();
    short.push('…');
    short
}
