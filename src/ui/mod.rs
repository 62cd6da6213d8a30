//! Drawing: pure functions of the [`App`] into a ratatui frame, plus the hit-testing that
//! maps a mouse position back to an action using the same layout.

mod about;
mod class_summary;
mod course;
mod explain;
mod help;
mod overlay;
mod room;
mod settings;
mod why;

use crate::app::{Action, App, MessageKind, Overlay, TabId};
use crate::lesson::pane;
use crate::tabkit::keymap::Command;
use crate::widgets::Theme;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Below this width the layout cannot fit; a notice is shown instead.
pub const MIN_WIDTH: u16 = 80;
/// Below this height the layout cannot fit.
pub const MIN_HEIGHT: u16 = 24;
/// What a key other than `q` says while the screen is too small (the sizes are
/// [`MIN_WIDTH`] and [`MIN_HEIGHT`]; a test keeps them in step).
pub const TOO_SMALL_KEYS: &str =
    "Keys wait until the window is at least 80x24: the tab is not shown (q quits)";

/// The most rows a message may take. The status line is one row; a longer message (a
/// step's sentence, a verdict with its reason) is drawn up over the rows above it, the
/// lesson pane moving up with it, until the next message, so it is read whole without the
/// layout moving. Longer still, it ends with [`MESSAGE_CONTINUES`].
pub const MESSAGE_ROWS_MAX: u16 = 3;

/// The screen split into its fixed regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    /// The tab bar (one row).
    pub tabs: Rect,
    /// The tab's content.
    pub body: Rect,
    /// The lesson pane (no rows without a lesson's steps).
    pub lesson: Rect,
    /// The last message (one row; a longer one covers the rows above, see
    /// [`MESSAGE_ROWS_MAX`]).
    pub message: Rect,
    /// The key hints (one row).
    pub hints: Rect,
}

impl Screen {
    /// The regions for a terminal of `area`, or `None` when it is too small.
    pub fn new(area: Rect) -> Option<Self> {
        Self::with_lesson(area, 0)
    }

    /// The regions with `lesson_rows` rows for the lesson pane above the status line.
    pub fn with_lesson(area: Rect, lesson_rows: u16) -> Option<Self> {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return None;
        }
        let [tabs, body, lesson, message, hints] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(lesson_rows),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        Some(Self {
            tabs,
            body,
            lesson,
            message,
            hints,
        })
    }

    /// The regions for `app`: the lesson pane while its lesson has steps, as many rows as
    /// the step's words take at this width, from [`pane::PANE_ROWS_MIN`] to
    /// [`pane::PANE_ROWS_MAX`] (the lesson's check keeps every step within them at 80
    /// columns).
    pub fn of(app: &App, area: Rect) -> Option<Self> {
        let rows = lesson_rows(app, area.width).map_or(0, |(_, rows)| {
            rows.len().clamp(pane::PANE_ROWS_MIN, pane::PANE_ROWS_MAX)
        });
        Self::with_lesson(area, rows as u16)
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
    let Some(screen) = Screen::of(app, area) else {
        render_too_small(app, area, buf, &theme);
        return;
    };
    render_tab_bar(app, screen.tabs, buf, &theme);
    app.tabs.render(app.tab, screen.body, buf, &theme);
    render_hints(&app.hints(), screen.hints, buf, &theme);
    match app.overlays.top() {
        Some(Overlay::Help) => help::render(app, screen.body, buf, &theme),
        Some(Overlay::Log) => overlay::render_log(app, screen.body, buf, &theme),
        Some(Overlay::Text(text)) => overlay::render_text(app, text, screen.body, buf, &theme),
        Some(Overlay::Why(why)) => why::render(app, why, screen.body, buf, &theme),
        Some(Overlay::Settings(panel)) => settings::render(panel, screen.body, buf, &theme),
        Some(Overlay::Room) => {
            if let Some(room) = &app.room {
                room::render(app, room.as_ref(), screen.body, buf, &theme);
            }
        }
        Some(Overlay::ClassSummary(class)) => {
            class_summary::render_class(app, class, screen.body, buf, &theme);
        }
        Some(Overlay::Progress(progress)) => {
            class_summary::render_student(app, progress, screen.body, buf, &theme);
        }
        Some(Overlay::Course(cursor)) => course::render(app, *cursor, screen.body, buf, &theme),
        Some(Overlay::Explain) => explain::render(app, screen.body, buf, &theme),
        Some(Overlay::About { tab, about }) => {
            about::render(app, *tab, about, screen.body, buf, &theme);
        }
        None => {}
    }
    render_status(app, &screen, buf, &theme);
}

/// How many of the body's last rows a message of `lines` lines covers on `screen`.
fn rows_covered(lines: usize, screen: &Screen) -> u16 {
    (lines as u16)
        .saturating_sub(screen.message.height)
        .min(screen.body.height)
}

/// The lesson pane and the message, last: a message longer than its row takes the rows
/// above it, and the lesson pane moves up with it, over the tab or an overlay.
fn render_status(app: &App, screen: &Screen, buf: &mut Buffer, theme: &Theme) {
    let lines = message_lines(app, screen.message.width);
    let extra = rows_covered(lines.len(), screen);
    let up = |area: Rect| Rect::new(area.x, area.y - extra, area.width, area.height);
    let lesson = up(screen.lesson);
    let message = Rect::new(
        screen.message.x,
        lesson.bottom(),
        screen.message.width,
        screen.message.bottom() - lesson.bottom(),
    );
    if extra > 0 {
        ratatui::widgets::Clear.render(lesson.union(message), buf);
    }
    render_lesson(app, lesson, buf, theme);
    render_message(app, lines, message, buf, theme);
}

fn render_too_small(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let mut text = vec![
        Line::styled(
            format!("terminal too small: need at least {MIN_WIDTH}x{MIN_HEIGHT}"),
            theme.error,
        ),
        Line::from(format!(
            "now {}x{}; enlarge the window, or q to quit",
            area.width, area.height
        )),
    ];
    // The status line is not shown: its message (a refused key, a question) is.
    if let Some(message) = &app.message {
        let style = match message.kind {
            MessageKind::Info => theme.info,
            MessageKind::Error => theme.error,
        };
        text.push(Line::styled(
            format!("{}{}", overlay::glyph(message.kind), message.text),
            style,
        ));
    }
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .render(area, buf);
}

/// The title cells of the tab bar, left to right: the text and where it is drawn. Only
/// the tabs in `tabs` are on the bar (a lesson may show fewer), each with its own F-key.
/// Titles lose their padding when the bar is narrow, and then, while it is still too
/// narrow, the longest title of a tab not shown loses its last word ("Multi-pile Nim" →
/// "Multi-pile"), so every F-key stays on the bar with a name to recognise it by.
fn tab_titles(area: Rect, tabs: &[TabId], shown: TabId) -> Vec<(TabId, String, Rect)> {
    let titles = fitted_titles(usize::from(area.width), tabs, shown);
    let padded: usize = titles.iter().map(|t| t.len() + 7).sum::<usize>() + 1;
    let pad = if usize::from(area.width) >= padded {
        " "
    } else {
        ""
    };
    let mut x = area.x + u16::from(!pad.is_empty());
    tabs.iter()
        .zip(titles)
        .map(|(&tab, title)| {
            let text = format!("{pad}F{} {title}{pad}", tab.index() + 1);
            let width = text.chars().count() as u16;
            let rect = Rect::new(x, area.y, width, 1).intersection(area);
            x += width + 1;
            (tab, text, rect)
        })
        .collect()
}

/// Each tab's title as the bar writes it at `width` columns, `shown` whole when it can be.
fn fitted_titles(width: usize, tabs: &[TabId], shown: TabId) -> Vec<&'static str> {
    let mut titles: Vec<&'static str> = tabs.iter().map(|t| t.title()).collect();
    let bar = |titles: &[&str]| -> usize {
        tabs.iter()
            .zip(titles)
            .map(|(tab, t)| format!("F{} {t}", tab.index() + 1).chars().count() + 1)
            .sum::<usize>()
            .saturating_sub(1)
    };
    // The tab shown keeps its whole title while the others can give words up; only when
    // they have none left does it give up its own, so no F-key is cut off the bar's end.
    for spare_shown in [true, false] {
        while bar(&titles) > width {
            let longest = tabs
                .iter()
                .zip(&titles)
                .enumerate()
                .filter(|(_, (tab, title))| (!spare_shown || **tab != shown) && title.contains(' '))
                .max_by_key(|(i, (_, title))| (title.chars().count(), std::cmp::Reverse(*i)));
            let Some((index, _)) = longest else { break };
            let title = titles[index];
            titles[index] = &title[..title.rfind(' ').unwrap_or(title.len())];
        }
    }
    titles
}

fn render_tab_bar(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let titles = tab_titles(area, &app.shown_tabs(), app.tab);
    let end = titles.last().map_or(area.x, |(_, _, rect)| rect.right());
    for (tab, text, rect) in titles {
        let style = if tab == app.tab {
            theme.tab_active
        } else {
            theme.tab
        };
        buf.set_stringn(rect.x, rect.y, &text, usize::from(rect.width), style);
    }
    // Right-aligned where the tabs leave room: whether the student follows the teacher,
    // the lesson's title and the predictions graded right, the most that fits.
    for words in bar_words(app) {
        let width = words.chars().count() as u16;
        if end + 2 + width <= area.right() {
            buf.set_string(area.right() - width, area.y, &words, theme.key);
            break;
        }
    }
}

/// What the tab bar's right end may say, longest first.
fn bar_words(app: &App) -> Vec<String> {
    let following = app.following.as_ref().map(|_| "● following the teacher");
    let score = app.predictions();
    let right = (score.asked > 0).then(|| format!("{}/{} right", score.right, score.asked));
    let title = app
        .lesson
        .as_ref()
        .map(|progress| format!("Lesson: {}", progress.lesson.title));
    let choices = [
        vec![following, title.as_deref(), right.as_deref()],
        vec![following, right.as_deref()],
        vec![following],
    ];
    choices
        .iter()
        .map(|parts| {
            let parts: Vec<&str> = parts.iter().flatten().copied().collect();
            format!("{} ", parts.join(" · "))
        })
        .filter(|words| words.len() > 1)
        .collect()
}

/// The lesson pane at `width` columns: the step's heading (its counter and the keys that
/// move through it) and the rows of the heading and its words, wrapped as the lesson's
/// check wraps them; `None` without a lesson with steps.
fn lesson_rows(app: &App, width: u16) -> Option<(String, Vec<String>)> {
    let progress = app.lesson.as_ref()?;
    let counter = progress.counter(app.following.is_some())?;
    let step = progress.lesson.steps.get(progress.step)?;
    let heading = pane::heading(&counter, app.following.is_some(), progress.waits());
    let mut rows = pane::rows(&heading, &step.text, usize::from(width));
    if let Some((question, state)) = app.answering_words() {
        rows.extend(pane::question_rows(&question, &state, usize::from(width)));
    }
    Some((heading, rows))
}

/// The lesson pane: the step's heading and words over its rows, the heading in the keys'
/// style.
fn render_lesson(app: &App, area: Rect, buf: &mut Buffer, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let Some((heading, rows)) = lesson_rows(app, area.width) else {
        return;
    };
    let heading = heading.trim_end();
    let lines: Vec<Line> = rows
        .into_iter()
        .enumerate()
        .map(|(i, row)| match row.strip_prefix(heading) {
            Some(words) if i == 0 => Line::from(vec![
                Span::styled(heading.to_owned(), theme.key),
                Span::styled(words.to_owned(), theme.info),
            ]),
            // The step's question stands out from its words, as the heading does.
            _ if row.starts_with(pane::QUESTION_LABEL) => Line::from(vec![
                Span::styled(pane::QUESTION_LABEL.to_owned(), theme.key),
                Span::styled(row[pane::QUESTION_LABEL.len()..].to_owned(), theme.info),
            ]),
            _ => Line::styled(row, theme.info),
        })
        .collect();
    Paragraph::new(lines).render(area, buf);
}

/// How the status line ends a message too long for it: where to read it whole.
pub const MESSAGE_CONTINUES: &str = "… L: whole";

/// The status line's message wrapped to `width` columns, at most [`MESSAGE_ROWS_MAX`] lines:
/// the glyph, then the words. Paths stay whole when they fit, else shrink (home as `~`, then
/// file names); a message still too long ends with where to read it whole (the log, `L`).
fn message_lines(app: &App, width: u16) -> Vec<String> {
    let Some(message) = &app.message else {
        return Vec::new();
    };
    let width = usize::from(width).max(MESSAGE_CONTINUES.chars().count() + 1);
    let rows = usize::from(MESSAGE_ROWS_MAX);
    let glyph = overlay::glyph(message.kind);
    let home = crate::persist::Store::home_dir();
    let room = (width * rows).saturating_sub(glyph.chars().count() + rows * 8);
    let text = crate::app::log::fit_paths(&message.text, room, home.as_deref());
    let mut lines: Vec<String> = textwrap::wrap(&format!("{glyph}{text}"), width)
        .into_iter()
        .map(std::borrow::Cow::into_owned)
        .collect();
    if lines.len() > rows {
        lines.truncate(rows);
        let last = &mut lines[rows - 1];
        let keep = width.saturating_sub(MESSAGE_CONTINUES.chars().count());
        *last = last
            .chars()
            .take(keep)
            .chain(MESSAGE_CONTINUES.chars())
            .collect();
    }
    lines
}

fn render_message(app: &App, lines: Vec<String>, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let Some(message) = &app.message else { return };
    let style = match message.kind {
        MessageKind::Info => theme.info,
        MessageKind::Error => theme.error,
    };
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|line| Line::styled(line, style))
        .collect();
    Paragraph::new(lines).render(area, buf);
}

fn render_hints(hints: &[&dyn Command<Action>], area: Rect, buf: &mut Buffer, theme: &Theme) {
    let mut spans = Vec::new();
    // Whole hints only: a hint cut in the middle would name a key that seems to do nothing.
    let mut room = usize::from(area.width);
    for binding in hints {
        let text = format!(" {}", binding.hint());
        let width = binding.label().chars().count() + text.chars().count();
        if width > room {
            break;
        }
        room = room.saturating_sub(width + 2);
        spans.push(Span::styled(binding.label(), theme.key));
        spans.push(Span::raw(text));
        spans.push(Span::raw("  "));
    }
    Line::from(spans).render(area, buf);
}

/// What a mouse click at (`column`, `row`) on a screen of `area` means now.
pub fn click(app: &App, area: Rect, column: u16, row: u16) -> Action {
    let Some(screen) = Screen::of(app, area) else {
        return Action::Noop;
    };
    let at = Position::new(column, row);
    match app.overlays.top() {
        // A click anywhere closes help.
        Some(Overlay::Help) => return Action::CloseOverlay,
        // A click may start a selection of the text to copy: it closes nothing.
        Some(_) => return Action::Noop,
        None => {}
    }
    if screen.tabs.contains(at) {
        return tab_titles(screen.tabs, &app.shown_tabs(), app.tab)
            .into_iter()
            .find(|(_, _, rect)| rect.contains(at))
            .map_or(Action::Noop, |(tab, _, _)| Action::SelectTab(tab));
    }
    // The rows a long message covers show the message: a click there is not the tab's.
    let covered = rows_covered(message_lines(app, area.width).len(), &screen);
    if screen.body.contains(at) && row < screen.body.bottom() - covered {
        return app
            .tabs
            .click(app.tab, screen.body, at)
            .map_or(Action::Noop, Action::Tab);
    }
    Action::Noop
}

/// What a mouse wheel turn (`down` or up) at (`column`, `row`) means now.
pub fn scroll(app: &App, area: Rect, column: u16, row: u16, down: bool) -> Action {
    let Some(screen) = Screen::of(app, area) else {
        return Action::Noop;
    };
    match app.overlays.top() {
        Some(Overlay::Help) => return Action::Noop,
        Some(_) => return Action::ScrollOverlay(if down { 3 } else { -3 }),
        None => {}
    }
    app.tabs
        .scroll(app.tab, screen.body, Position::new(column, row), down)
        .map_or(Action::Noop, Action::Tab)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, FirstMover};
    use crate::tabs::tictactoe;

    /// A click on a row a long message covers is not the tab's: the student sees the
    /// message there, not what the tab drew.
    #[test]
    fn a_click_on_rows_a_long_message_covers_does_nothing() {
        let mut config = Config::default();
        config.tictactoe.first = FirstMover::Human;
        config.search.step = true;
        let mut app = App::new(&config, 1);
        for key in "5".chars().chain(std::iter::repeat_n(' ', 40)) {
            app.handle_key(crate::tabkit::keymap::Key::Char(key));
        }
        let area = Rect::new(0, 0, 80, 24);
        let screen = Screen::of(&app, area).unwrap();
        // The tree pane's last row of content, just above its bottom border.
        let (column, row) = (40, screen.body.bottom() - 2);
        app.say(crate::tabkit::message::Message::info("short"));
        assert_ne!(
            click(&app, area, column, row),
            Action::Noop,
            "the tree's row"
        );
        app.say(crate::tabkit::message::Message::info(
            "a long sentence ".repeat(12),
        ));
        assert_eq!(
            click(&app, area, column, row),
            Action::Noop,
            "covered by the message"
        );
    }

    fn app() -> App {
        let mut config = Config::default();
        config.tictactoe.first = FirstMover::Human;
        App::new(&config, 1)
    }

    fn find(buf: &Buffer, text: &str) -> Option<(u16, u16)> {
        let area = buf.area;
        (area.top()..area.bottom()).find_map(|y| {
            let row: String = (area.left()..area.right())
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            row.find(text)
                .map(|byte| (row[..byte].chars().count() as u16, y))
        })
    }

    fn rendered(app: &App, area: Rect) -> Buffer {
        let mut buf = Buffer::empty(area);
        render_app(app, area, &mut buf);
        buf
    }

    #[test]
    fn clicking_a_tab_title_selects_it() {
        let app = app();
        let area = Rect::new(0, 0, 80, 24);
        let buf = rendered(&app, area);
        let (x, y) = find(&buf, "Multi-pile").expect("tab title drawn");
        assert_eq!(
            click(&app, area, x, y),
            Action::SelectTab(TabId::MultiPileNim)
        );
        let (x, y) = find(&buf, "Subtraction").unwrap();
        assert_eq!(
            click(&app, area, x + 3, y),
            Action::SelectTab(TabId::SubtractionNim)
        );
    }

    #[test]
    fn clicking_a_cell_plays_it_where_it_is_drawn() {
        let app = app();
        for area in [Rect::new(0, 0, 80, 24), Rect::new(0, 0, 120, 40)] {
            let buf = rendered(&app, area);
            for cell in 1..=9u8 {
                let (x, y) =
                    find(&buf, &format!("  {cell}  ")).expect("empty cell shows its number");
                assert_eq!(
                    click(&app, area, x + 2, y),
                    Action::from(tictactoe::Action::PlayCell(cell)),
                    "cell {cell} at {area:?}"
                );
            }
        }
    }

    #[test]
    fn the_too_small_sentence_names_the_minimum() {
        assert!(TOO_SMALL_KEYS.contains(&format!("{MIN_WIDTH}x{MIN_HEIGHT}")));
    }

    #[test]
    fn clicks_on_a_too_small_screen_do_nothing() {
        let app = app();
        assert_eq!(click(&app, Rect::new(0, 0, 20, 5), 3, 0), Action::Noop);
    }

    #[test]
    fn every_size_renders_without_panicking() {
        let app = app();
        for (w, h) in [
            (0, 0),
            (1, 1),
            (2, 1),
            (69, 24),
            (79, 24),
            (70, 20),
            (80, 24),
            (300, 100),
        ] {
            let _ = rendered(&app, Rect::new(0, 0, w, h));
        }
    }
}
