//! One set of named styles. Named ANSI colours only (over SSH often only TERM arrives), and
//! every meaning also carried by a glyph, a label or a modifier, so `NO_COLOR` loses nothing.

use ratatui::style::{Color, Modifier, Style};

/// The styles the widgets use, by meaning.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    /// Block titles and headings.
    pub title: Style,
    /// The selected tab.
    pub tab_active: Style,
    /// Other tabs.
    pub tab: Style,
    /// Key names in hints and help.
    pub key: Style,
    /// Secondary text.
    pub dim: Style,
    /// Error messages.
    pub error: Style,
    /// Informational messages.
    pub info: Style,
    /// Borders of unfocused panes.
    pub border: Style,
    /// Border of the focused pane.
    pub border_focused: Style,
    /// The node being searched.
    pub current: Style,
    /// The tree cursor when the tree has the focus.
    pub cursor: Style,
    /// Pruned branches.
    pub pruned: Style,
    /// Positive values (good for MAX).
    pub positive: Style,
    /// Negative values.
    pub negative: Style,
    /// The X mark.
    pub x: Style,
    /// The O mark.
    pub o: Style,
    /// Red pieces (Connect Four's first player); the glyph tells them apart without colour.
    pub red: Style,
    /// Yellow pieces.
    pub yellow: Style,
    /// Cells of the winning line.
    pub win: Style,
    /// The board cursor.
    pub board_cursor: Style,
}

impl Theme {
    /// The theme, with colours or (for `NO_COLOR`) modifiers only.
    pub fn new(color: bool) -> Self {
        let fg = |c: Color| {
            if color {
                Style::new().fg(c)
            } else {
                Style::new()
            }
        };
        let bold = Modifier::BOLD;
        Self {
            title: Style::new().add_modifier(bold),
            tab_active: fg(Color::Yellow).add_modifier(bold | Modifier::REVERSED),
            tab: Style::new(),
            key: fg(Color::Cyan).add_modifier(bold),
            dim: if color {
                Style::new().fg(Color::DarkGray)
            } else {
                Style::new().add_modifier(Modifier::DIM)
            },
            error: fg(Color::Red).add_modifier(bold),
            info: fg(Color::Green),
            border: fg(Color::DarkGray),
            border_focused: fg(Color::Cyan).add_modifier(bold),
            current: fg(Color::Yellow).add_modifier(bold | Modifier::REVERSED),
            cursor: Style::new().add_modifier(Modifier::REVERSED),
            pruned: fg(Color::Red).add_modifier(Modifier::CROSSED_OUT),
            positive: fg(Color::Green),
            negative: fg(Color::Red),
            x: fg(Color::Cyan).add_modifier(bold),
            o: fg(Color::Magenta).add_modifier(bold),
            red: fg(Color::Red).add_modifier(bold),
            yellow: fg(Color::Yellow).add_modifier(bold),
            win: fg(Color::Yellow).add_modifier(bold | Modifier::UNDERLINED),
            board_cursor: Style::new().add_modifier(Modifier::REVERSED),
        }
    }

    /// The style of a value: by sign (the sign is always printed too).
    pub fn value(&self, value: i32) -> Style {
        match value.signum() {
            1 => self.positive,
            -1 => self.negative,
            _ => Style::new(),
        }
    }
}
