//! The "about" card over the tab (`I`): each section's title, then its lines wrapped to the
//! card's width under it. It scrolls as the log does when a lesson pane or a long example
//! leaves it too few rows; at 80x24 with no lesson each tab's card fits whole.

use super::overlay::{clamp_scroll, framed, wrap};
use crate::app::{App, TabId};
use crate::tabkit::about::About;
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget};

/// How far a section's lines sit in from its title.
const INDENT: &str = "  ";

/// The card's lines at `width` columns: each title, then its lines wrapped under it (a
/// wrapped line's rest indented once more).
fn card_lines(about: &About, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for section in &about.sections {
        lines.push(Line::styled(section.title.clone(), theme.title));
        for line in &section.lines {
            let room = width.saturating_sub(INDENT.len());
            lines.extend(
                wrap(line, room, INDENT)
                    .into_iter()
                    .map(|row| Line::raw(format!("{INDENT}{row}"))),
            );
        }
    }
    lines
}

/// Draws `tab`'s card over `area` (the body of the screen).
pub fn render(app: &App, tab: TabId, about: &About, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let title = format!(" About F{} {} ", tab.index() + 1, tab.title());
    let block = framed(title, theme);
    let inner = block.inner(area);
    Clear.render(area, buf);
    block.render(area, buf);
    let lines = card_lines(about, usize::from(inner.width), theme);
    let scroll = clamp_scroll(&app.overlay_scroll, lines.len(), inner.height);
    Paragraph::new(lines).scroll((scroll, 0)).render(inner, buf);
}
