//! The drawing kit every tab's view uses: the theme, the glyph type, the pane blocks, and the
//! `TabView` half of the tab contract (draw into an area, hit-test a click).

pub mod discs;
pub mod runs;
pub mod symbols;
mod theme;

pub use theme::Theme;

use crate::tabkit::tab::Tab;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::symbols::border;
use ratatui::text::Span;
use ratatui::widgets::Block;
use symbols::{Gloss, Symbol};

/// The drawing half of a tab: a pure function of its state into the body of the screen,
/// and the same layout read backwards for the mouse.
pub trait TabView: Tab {
    /// Draws the tab into `area` (the screen between the tab bar and the status line).
    fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme);

    /// What a click at `at` in `area` asks of the tab.
    fn click(&self, _area: Rect, _at: Position) -> Option<Self::Action> {
        None
    }

    /// What a mouse wheel turn (`down` or up) at `at` asks of the tab.
    fn scroll(&self, _area: Rect, _at: Position, _down: bool) -> Option<Self::Action> {
        None
    }

    /// The glyphs the tab draws, for the help's "Symbols" section.
    fn symbols(&self) -> Vec<Symbol>;

    /// The words and numbers the tab shows that need a gloss, for the help's "Words"
    /// section.
    fn words(&self) -> Vec<Gloss> {
        Vec::new()
    }
}

/// A bordered pane with a bold title, as every tab draws its panes.
pub fn titled<'a>(title: String, theme: &Theme) -> Block<'a> {
    Block::bordered()
        .border_style(theme.border)
        .title(Span::styled(title, theme.title))
}

/// A pane of a tab whose keys can go to one pane or another: the focused one has a thick
/// border and a `»` before its title, so focus shows without colour. `title` starts with a
/// space.
pub fn pane_block<'a>(title: &str, focused: bool, theme: &Theme) -> Block<'a> {
    let (marker, style, set) = if focused {
        (symbols::FOCUS.glyph, theme.border_focused, border::THICK)
    } else {
        (" ", theme.border, border::PLAIN)
    };
    Block::bordered()
        .border_set(set)
        .border_style(style)
        .title(Span::styled(format!("{marker}{title} "), theme.title))
}
