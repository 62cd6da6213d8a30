//! The overlays besides help: the message log (every message whole, newest last) and
//! exported text shown for copying (plain lines with no border beside them, so a terminal
//! selection copies the text as it is).

use crate::app::ShownText;
use crate::app::{App, Message, MessageKind};
use crate::domain::numbers::thousands;
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};
use std::cell::Cell;

/// The glyph before a message: errors are marked by more than colour.
pub fn glyph(kind: MessageKind) -> &'static str {
    match kind {
        MessageKind::Info => "· ",
        MessageKind::Error => "✗ ",
    }
}

/// The first line to show of `total` lines in `height` rows, from the wanted `scroll`,
/// clamped to the end; remembered so scrolling back starts from what is shown.
pub(super) fn clamp_scroll(scroll: &Cell<u16>, total: usize, height: u16) -> u16 {
    let most = u16::try_from(total.saturating_sub(usize::from(height))).unwrap_or(u16::MAX);
    let shown = scroll.get().min(most);
    scroll.set(shown);
    shown
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word is
/// broken where it must be); every line after the first starts with `indent`.
pub fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let width = width.max(indent.chars().count() + 1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        loop {
            let used = line.chars().count();
            let needed = word.chars().count() + usize::from(used > 0 && !line.ends_with(' '));
            if used + needed <= width {
                if used > 0 && !line.ends_with(' ') {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            let fresh = line.chars().count() <= indent.chars().count();
            if fresh {
                // The word alone is wider than the line: break it.
                let room = width - line.chars().count();
                let head: String = word.chars().take(room).collect();
                let tail: String = word.chars().skip(room).collect();
                line.push_str(&head);
                word = tail;
            }
            lines.push(std::mem::replace(&mut line, indent.to_string()));
            if word.is_empty() {
                break;
            }
        }
    }
    if line.chars().count() > indent.chars().count() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The frame of an overlay that scrolls: a double border, `title` at the top and how to
/// close and scroll it at the bottom (help, a tab's card).
pub(super) fn framed(title: String, theme: &Theme) -> Block<'static> {
    Block::bordered()
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(title, theme.title))
        .title_bottom(Line::from(" Esc closes · ↑↓ scroll ").right_aligned())
}

/// The log's lines at `width`: each message wrapped whole under its glyph.
fn log_lines<'a>(
    messages: impl Iterator<Item = (&'a Message, u32)>,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for (message, times) in messages {
        let style = match message.kind {
            MessageKind::Info => theme.info,
            MessageKind::Error => theme.error,
        };
        let again = if times > 1 {
            format!(" (×{times})")
        } else {
            String::new()
        };
        let text = format!("{}{}{again}", glyph(message.kind), message.logged_text());
        lines.extend(
            wrap(&text, width, "  ")
                .into_iter()
                .map(|line| Line::styled(line, style)),
        );
    }
    lines
}

/// Draws the message log over `area` (the body of the screen).
pub fn render_log(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let title = format!(" Messages: the last {}, newest last ", app.log.len());
    let block = Block::bordered()
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(title, theme.title))
        .title_bottom(Line::from(" Esc closes · ↑↓ PgUp PgDn scroll ").right_aligned());
    let inner = block.inner(area);
    Clear.render(area, buf);
    block.render(area, buf);
    let mut lines = log_lines(app.log.entries(), usize::from(inner.width), theme);
    if lines.is_empty() {
        lines.push(Line::styled("No messages yet", theme.dim));
    }
    let scroll = clamp_scroll(&app.overlay_scroll, lines.len(), inner.height);
    Paragraph::new(lines).scroll((scroll, 0)).render(inner, buf);
}

/// Draws exported `text` over `area`: one title row, then the text's lines from the left
/// edge with nothing beside them, so selecting them copies the text alone. Only the rows
/// shown are laid out: a long text costs a frame no more than a short one.
pub fn render_text(app: &App, text: &ShownText, area: Rect, buf: &mut Buffer, theme: &Theme) {
    Clear.render(area, buf);
    if area.height == 0 {
        return;
    }
    let heading = Rect::new(area.x, area.y, area.width, 1);
    let body = Rect::new(area.x, area.y + 1, area.width, area.height - 1);
    // A text that was cut ends with a row that says so.
    let rows = text.lines() + usize::from(text.cut_from().is_some());
    let scroll = clamp_scroll(&app.overlay_scroll, rows, body.height);
    let shown_to = (usize::from(scroll) + usize::from(body.height)).min(text.lines());
    let of = match text.cut_from() {
        Some(whole) => format!(
            "the first {} of {}",
            thousands(text.lines() as u64),
            thousands(whole as u64)
        ),
        None => thousands(text.lines() as u64),
    };
    // Where the view is comes first: at 80 columns a long title is what gets cut.
    Line::from(vec![
        Span::styled(
            format!("Lines {}-{shown_to} of {of} · ", usize::from(scroll) + 1),
            theme.dim,
        ),
        Span::styled(text.title.clone(), theme.title),
        Span::styled(" · select to copy, Esc closes", theme.dim),
    ])
    .render(heading, buf);
    let mut shown: Vec<Line> = text
        .text()
        .lines()
        .skip(usize::from(scroll))
        .take(usize::from(body.height))
        .map(Line::raw)
        .collect();
    if let Some(whole) = text.cut_from()
        && shown.len() < usize::from(body.height)
    {
        shown.push(Line::styled(
            format!(
                "(cut here: {} lines in all; where exports are kept, the file has them all)",
                thousands(whole as u64)
            ),
            theme.dim,
        ));
    }
    Paragraph::new(shown).render(body, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Overlay;
    use crate::config::Config;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn screen(app: &App) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal
            .draw(|frame| crate::ui::render(app, frame))
            .unwrap();
        let buffer = terminal.backend().buffer();
        (0..24)
            .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn a_cut_text_says_so_at_its_top_and_at_its_end() {
        let mut app = App::new(&Config::default(), 1);
        let lines: Vec<String> = (1..=100_000).map(|n| format!("line {n}")).collect();
        let text = lines.join("\n");
        app.overlays.open(Overlay::Text(ShownText::new(
            "The search tree (65,536 nodes) as Graphviz DOT".into(),
            &text,
        )));
        let top = screen(&app);
        assert!(
            top.iter()
                .any(|row| row.starts_with("Lines 1-20 of the first 5,000 of 100,000 · The search")),
            "{top:#?}"
        );
        app.overlay_scroll.set(u16::MAX);
        let end = screen(&app);
        assert!(end.iter().any(|row| row.contains("line 5000")), "{end:#?}");
        assert!(
            end.iter().any(|row| row.contains(
                "(cut here: 100,000 lines in all; where exports are kept, the file has them all)"
            )),
            "{end:#?}"
        );
        assert!(!end.iter().any(|row| row.contains("line 5001")), "{end:#?}");
    }

    #[test]
    fn wrapping_keeps_every_word_and_the_width() {
        let text = "· Entered the root at depth 0, a MAX node: it keeps the largest value its children return";
        let lines = wrap(text, 30, "  ");
        assert!(lines.iter().all(|l| l.chars().count() <= 30), "{lines:?}");
        assert!(lines[1..].iter().all(|l| l.starts_with("  ")));
        let words: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
        assert_eq!(words, text.split_whitespace().collect::<Vec<_>>());
        let long = wrap("x".repeat(25).as_str(), 10, "  ");
        assert_eq!(long.concat().replace(' ', ""), "x".repeat(25));
        assert!(long.iter().all(|l| l.chars().count() <= 10), "{long:?}");
    }
}
