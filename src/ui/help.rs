//! The help overlay: every key of the current tab and the global keys, straight from the
//! key tables that drive them, then the tab's symbols, straight from the table the drawing
//! takes its glyphs from.

use crate::app::App;
use crate::app::keys::Keys;
use crate::widgets::Theme;
use crate::widgets::symbols::{Gloss, Symbol};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

const LABEL_WIDTH: usize = 11;
const COLUMN_WIDTH: u16 = 38;

/// The lines of one or more groups: a heading, then `key  description` rows.
fn group_lines<'a>(groups: &[Keys], theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for group in groups {
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(group.title, theme.title));
        for binding in &group.bindings {
            lines.push(Line::from(vec![
                Span::styled(format!(" {:<LABEL_WIDTH$}", binding.label()), theme.key),
                Span::raw(binding.description()),
            ]));
        }
        if group.bindings.is_empty() {
            lines.push(Line::styled(" no keys of its own yet", theme.dim));
        }
    }
    lines
}

/// The "Symbols" section: a heading, then `glyph  meaning` rows.
fn symbol_lines<'a>(symbols: &[Symbol], theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = vec![Line::raw(""), Line::styled("Symbols", theme.title)];
    lines.extend(symbols.iter().map(|symbol| {
        Line::from(vec![
            Span::raw(format!(" {:<LABEL_WIDTH$}", symbol.glyph)),
            Span::raw(symbol.meaning),
        ])
    }));
    lines
}

/// What a browser does with the arcade's keys, and what the page offers instead.
const IN_A_BROWSER: [Gloss; 2] = [
    Gloss {
        term: "F1-F6 Tab Esc",
        meaning: "the buttons above the terminal send them, for a browser that keeps the key \
                  (F5 may reload the page, F11 fill the screen); a click on a tab's name \
                  works too.",
    },
    Gloss {
        term: "Ctrl-W Ctrl-T",
        meaning: "close or open a browser tab, never the arcade's: the page asks before \
                  it closes. Leave with q.",
    },
];

/// The teacher's room's columns, under its help: a number such as "100%" in `at` told a
/// teacher nothing by itself.
const ROOM_COLUMNS: [Gloss; 7] = [
    Gloss {
        term: "●",
        meaning: "the student follows you.",
    },
    Gloss {
        term: "by",
        meaning: "how they came in: ssh from a terminal, web from the browser page.",
    },
    Gloss {
        term: "step",
        meaning: "L2 3/7: the course's lesson 2, at its step 3 of 7.",
    },
    Gloss {
        term: "at",
        meaning: "the stepper on their screen: 14 steps taken, 14/52 of 52, or how far \
                  through a long search (93%; 100% at its end); - without one.",
    },
    Gloss {
        term: "right",
        meaning: "their predictions graded right, of those graded.",
    },
    Gloss {
        term: "answer",
        meaning: "the answer they locked in to the question waiting (… none yet).",
    },
    Gloss {
        term: "idle",
        meaning: "since their last key; ◀ marks 2 minutes or more; away: they left, and \
                  their place is kept.",
    },
];

/// The "Words" section: a heading, then each term with its meaning wrapped under it to
/// `width` columns.
fn word_lines<'a>(words: &[Gloss], width: u16, theme: &Theme) -> Vec<Line<'a>> {
    glossary("Words", words, width, theme)
}

/// A section of terms: its heading, then each term with its meaning wrapped under it to
/// `width` columns (none when there are no terms).
fn glossary<'a>(heading: &'a str, words: &[Gloss], width: u16, theme: &Theme) -> Vec<Line<'a>> {
    if words.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![Line::raw(""), Line::styled(heading, theme.title)];
    // Three columns of indent, and two of gap before the next column.
    let width = usize::from(width).saturating_sub(5).max(10);
    for word in words {
        lines.push(Line::styled(format!(" {}", word.term), theme.key));
        lines.extend(
            textwrap::wrap(word.meaning, width)
                .into_iter()
                .map(|line| Line::raw(format!("   {line}"))),
        );
    }
    lines
}

/// Draws the overlay over `area` (the body of the screen).
pub fn render(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let groups = app.help_keys();
    let title = format!(" Help: {} · seed {} ", app.tab.title(), app.seed);
    let block = super::overlay::framed(title, theme);
    let inner = block.inner(area);
    Clear.render(area, buf);
    block.render(area, buf);

    let two_columns = inner.width >= 2 * COLUMN_WIDTH && groups.len() > 1;
    let columns: Vec<Vec<Keys>> = if two_columns {
        let split = split_point(&groups);
        vec![groups[..split].to_vec(), groups[split..].to_vec()]
    } else {
        vec![groups]
    };
    let areas = Layout::horizontal(vec![Constraint::Fill(1); columns.len()]).split(inner);
    let mut texts: Vec<Vec<Line>> = columns.iter().map(|c| group_lines(c, theme)).collect();
    // The symbols go under the shorter column.
    if let Some((at, shortest)) = texts
        .iter_mut()
        .enumerate()
        .min_by_key(|(_, lines)| lines.len())
    {
        shortest.extend(symbol_lines(&app.tabs.symbols(app.tab), theme));
        shortest.extend(word_lines(&app.tabs.words(app.tab), areas[at].width, theme));
        if app
            .overlays
            .bottom_first()
            .contains(&crate::app::Overlay::Room)
        {
            shortest.extend(glossary(
                "The room's columns",
                &ROOM_COLUMNS,
                areas[at].width,
                theme,
            ));
        }
        if app.door == crate::app::room::Door::Web {
            shortest.extend(glossary(
                "In a browser",
                &IN_A_BROWSER,
                areas[at].width,
                theme,
            ));
        }
    }
    let mut tallest = 0;
    for (lines, &column_area) in texts.into_iter().zip(areas.iter()) {
        let most = (lines.len() as u16).saturating_sub(column_area.height);
        let scroll = app.help_scroll.get().min(most);
        tallest = tallest.max(most);
        Paragraph::new(lines)
            .scroll((scroll, 0))
            .render(column_area, buf);
    }
    // Remember the reachable end, so scrolling past it does not need undoing key by key.
    app.help_scroll.set(app.help_scroll.get().min(tallest));
}

/// Where to split the groups into two columns so the taller column is as short as it can be.
fn split_point(groups: &[Keys]) -> usize {
    let height =
        |part: &[Keys]| -> usize { part.iter().map(|g| g.bindings.len().max(1) + 2).sum() };
    (1..groups.len())
        .min_by_key(|&split| height(&groups[..split]).max(height(&groups[split..])))
        .unwrap_or(1)
}
