//! Drawing: pure functions of the [`App`] into a ratatui frame, plus the hit-testing that
//! maps a mouse position back to an action using the same layout.

mod help;
mod search;
mod theme;

pub use theme::Theme;

use crate::app::{Action, App, MessageKind, Tab, keys::Binding};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

/// Below this width the layout cannot fit; a notice is shown instead.
pub const MIN_WIDTH: u16 = 70;
/// Below this height the layout cannot fit.
pub const MIN_HEIGHT: u16 = 20;

/// The screen split into its fixed regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// The tab bar (one row).
    pub tabs: Rect,
    /// The tab's content.
    pub body: Rect,
    /// The last message (one row).
    pub message: Rect,
    /// The key hints (one row).
    pub hints: Rect,
}

impl Screen {
    /// The regions for a terminal of `area`, or `None` when it is too small.
    pub fn new(area: Rect) -> Option<Self> {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return None;
        }
        let [tabs, body, message, hints] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        Some(Self {
            tabs,
            body,
            message,
            hints,
        })
    }
}

/// Draws the whole app.
pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    render_app(app, area, frame.buffer_mut());
}

/// Draws the whole app into a buffer (what `render` does; split out for tests).
pub fn render_app(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = Theme::new(app.color);
    let Some(screen) = Screen::new(area) else {
        render_too_small(area, buf, &theme);
        return;
    };
    render_tab_bar(app, screen.tabs, buf, &theme);
    match app.tab {
        Tab::TicTacToe => search::render(app, screen.body, buf, &theme),
        other => render_placeholder(other, screen.body, buf, &theme),
    }
    render_message(app, screen.message, buf, &theme);
    render_hints(&app.hints(), screen.hints, buf, &theme);
    if app.help_open {
        help::render(app, screen.body, buf, &theme);
    }
}

fn render_too_small(area: Rect, buf: &mut Buffer, theme: &Theme) {
    let text = vec![
        Line::styled(
            format!("terminal too small: need at least {MIN_WIDTH}x{MIN_HEIGHT}"),
            theme.error,
        ),
        Line::from(format!(
            "now {}x{}; enlarge the window, or q to quit",
            area.width, area.height
        )),
    ];
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .render(area, buf);
}

/// The title cells of the tab bar, left to right: the text and where it is drawn. Titles
/// lose their padding when the bar is narrow.
fn tab_titles(area: Rect) -> Vec<(Tab, String, Rect)> {
    let padded_width: usize = Tab::ALL.iter().map(|t| t.title().len() + 7).sum::<usize>() + 1;
    let pad = if usize::from(area.width) >= padded_width {
        " "
    } else {
        ""
    };
    let mut x = area.x + u16::from(!pad.is_empty());
    Tab::ALL
        .iter()
        .enumerate()
        .map(|(i, &tab)| {
            let text = format!("{pad}F{} {}{pad}", i + 1, tab.title());
            let width = text.chars().count() as u16;
            let rect = Rect::new(x, area.y, width, 1).intersection(area);
            x += width + 1;
            (tab, text, rect)
        })
        .collect()
}

fn render_tab_bar(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) {
    for (tab, text, rect) in tab_titles(area) {
        let style = if tab == app.tab {
            theme.tab_active
        } else {
            theme.tab
        };
        buf.set_stringn(rect.x, rect.y, &text, usize::from(rect.width), style);
    }
}

fn render_placeholder(tab: Tab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = Block::bordered()
        .border_style(theme.border)
        .title(Span::styled(format!(" {} ", tab.title()), theme.title));
    let inner = block.inner(area);
    block.render(area, buf);
    Paragraph::new(tab.coming())
        .style(theme.dim)
        .wrap(Wrap { trim: true })
        .render(inner, buf);
}

fn render_message(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let Some(message) = &app.message else { return };
    let (glyph, style) = match message.kind {
        MessageKind::Info => ("· ", theme.info),
        MessageKind::Error => ("✗ ", theme.error),
    };
    let line = Line::from(vec![
        Span::styled(glyph, style),
        Span::styled(&message.text, style),
    ]);
    line.render(area, buf);
}

fn render_hints(hints: &[Binding], area: Rect, buf: &mut Buffer, theme: &Theme) {
    let mut spans = Vec::new();
    // Global keys (help, quit) first, so they survive a narrow terminal.
    let (global, local): (Vec<&Binding>, Vec<&Binding>) = hints
        .iter()
        .partition(|b| matches!((b.action)(b.keys[0]), Action::ToggleHelp | Action::Quit));
    for binding in global.iter().chain(local.iter()) {
        spans.push(Span::styled(binding.label, theme.key));
        spans.push(Span::raw(format!(" {}  ", binding.hint)));
    }
    Line::from(spans).render(area, buf);
}

/// What a mouse click at (`column`, `row`) on a screen of `area` means now.
pub fn click(app: &App, area: Rect, column: u16, row: u16) -> Action {
    let Some(screen) = Screen::new(area) else {
        return Action::Noop;
    };
    let at = Position::new(column, row);
    if app.help_open {
        return Action::CloseOverlay;
    }
    if screen.tabs.contains(at) {
        return tab_titles(screen.tabs)
            .into_iter()
            .find(|(_, _, rect)| rect.contains(at))
            .map_or(Action::Noop, |(tab, _, _)| Action::SelectTab(tab));
    }
    if app.tab == Tab::TicTacToe && screen.body.contains(at) {
        return search::click(app, screen.body, at);
    }
    Action::Noop
}

/// What a mouse wheel turn (`down` or up) at (`column`, `row`) means now.
pub fn scroll(app: &App, area: Rect, column: u16, row: u16, down: bool) -> Action {
    let Some(screen) = Screen::new(area) else {
        return Action::Noop;
    };
    if app.help_open || app.tab != Tab::TicTacToe {
        return Action::Noop;
    }
    search::scroll(screen.body, Position::new(column, row), down)
}
