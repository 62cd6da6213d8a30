//! The course screen ("Start here"): what the arcade is in a sentence, then one row per
//! lesson (its number, what it teaches, about how long, the student's progress), the
//! cursor's row marked, and the keys. Drawn over the tab's area, whole at 80x24.

use super::overlay::wrap;
use super::room::cut;
use crate::app::App;
use crate::app::course::WHAT_IT_IS;
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

/// The columns of a lesson's title at 80 columns: the rest is its number, its minutes and
/// the progress ("at step 10 of 12, 9 done").
const TITLE_WIDTH: usize = 38;

/// Draws the course over `area` with its cursor on row `cursor`.
pub fn render(app: &App, cursor: usize, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border_focused)
        .title(Span::styled(" Start here: the course ", theme.title));
    let inner = block.inner(area);
    let width = usize::from(inner.width);
    let mut lines: Vec<Line> = wrap(WHAT_IT_IS, width, "")
        .into_iter()
        .map(Line::raw)
        .collect();
    lines.push(Line::raw(""));
    for (at, row) in app.course_rows().iter().enumerate() {
        let mark = if at == cursor { "▶" } else { " " };
        let number = row
            .number
            .map_or_else(|| "  ".to_owned(), |n| format!("{n:>2}"));
        let minutes = row.minutes.map_or_else(String::new, |m| format!("{m} min"));
        let title = cut(&row.title, TITLE_WIDTH);
        let pad = " ".repeat(TITLE_WIDTH.saturating_sub(title.width()));
        let text = format!(
            "{mark}{number}  {title}{pad} {minutes:>6}  {}",
            row.progress
        );
        let style = if at == cursor {
            theme.cursor
        } else {
            theme.info
        };
        lines.push(Line::styled(cut(&text, width), style));
    }
    lines.push(Line::raw(""));
    let keys = "↑↓ choose · Enter starts it where you left it · Esc: the arcade · H opens this \
                from every tab";
    lines.extend(
        wrap(keys, width, "")
            .into_iter()
            .map(|l| Line::styled(l, theme.dim)),
    );
    Clear.render(area, buf);
    Paragraph::new(lines).block(block).render(area, buf);
}
