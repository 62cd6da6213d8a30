//! The settings panel over the tab: one row per setting (the selected one marked `›`), its
//! value (`*` when changed and not applied yet, `▏` while typed), what the config allows and
//! when a change takes effect, then a line naming the changes that wait for a retrain. It
//! reads `tabkit::settings::Panel` only; the keys are the footer's, from the app's table.

use super::overlay::wrap;
use crate::tabkit::settings::{Panel, Setting, Takes};
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

/// Columns: the marker and label, the value, the allowed values; "applies" takes the rest.
const LABEL: usize = 17;
const VALUE: usize = 12;

/// The value as the row shows it: what is typed with a cursor, else the draft, starred when
/// it differs from the value in force.
fn value_text(panel: &Panel, index: usize, row: &Setting) -> String {
    if index == panel.selected
        && let Some(typed) = &panel.typing
    {
        return format!("{typed}▏");
    }
    let shown = row.draft.shown(&row.spec.allowed);
    if row.draft == row.value {
        shown
    } else {
        format!("{shown} *")
    }
}

/// The panel's lines for an inner width of `width`.
/// The panel's lines; `compact` (a tall panel on a short screen) leaves out the blank line
/// and the note on what applies now, which the "applies" column already says.
fn lines<'a>(panel: &Panel, width: usize, theme: &Theme, compact: bool) -> Vec<Line<'a>> {
    let allowed_width = panel
        .settings
        .iter()
        .map(|row| row.spec.allowed.describe().chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    let mut lines = vec![Line::styled(
        format!(
            "  {:<label$}{:<value$}{:<allowed_width$}applies",
            "setting",
            "value",
            "allowed",
            label = LABEL - 2,
            value = VALUE,
        ),
        theme.dim,
    )];
    for (index, row) in panel.settings.iter().enumerate() {
        let selected = index == panel.selected;
        let marker = if selected { "› " } else { "  " };
        let text = format!(
            "{marker}{:<label$}{:<value$}{:<allowed_width$}{}",
            row.spec.label,
            value_text(panel, index, row),
            row.spec.allowed.describe(),
            row.spec.takes.words(),
            label = LABEL - 2,
            value = VALUE,
        );
        let style = if selected {
            theme.current
        } else {
            ratatui::style::Style::default()
        };
        lines.push(Line::from(Span::styled(text, style)));
    }
    if !compact {
        lines.push(Line::raw(""));
    }
    let waiting = panel.waiting_for_retrain();
    let labels = |takes: Takes| -> Vec<&str> {
        panel
            .settings
            .iter()
            .filter(|row| row.spec.takes == takes)
            .map(|row| row.spec.label)
            .filter(|label| !waiting.contains(label))
            .collect()
    };
    let now = labels(Takes::Now);
    let next_move = labels(Takes::NextMove);
    let mut notes = Vec::new();
    if !now.is_empty() && !compact {
        notes.push(format!(
            "Applies now, even to a run in progress: {}.",
            now.join(", ")
        ));
    }
    if !next_move.is_empty() && !compact {
        notes.push(format!(
            "Applies from the AI's next move: {}.",
            next_move.join(", ")
        ));
    }
    if !waiting.is_empty() {
        notes.push(format!(
            "Wait for a retrain ({}): {}.",
            panel.retrain,
            waiting.join(", ")
        ));
    }
    if panel.has_drafts() {
        notes.push("* changed, not applied: Enter applies, Esc drops the changes.".into());
    }
    for note in notes {
        lines.extend(
            wrap(&note, width.saturating_sub(2), "  ")
                .into_iter()
                .map(|line| Line::raw(format!("  {line}"))),
        );
    }
    lines
}

/// Draws `panel` over `area` (the body of the screen), as tall as it needs and no taller.
pub fn render(panel: &Panel, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = Block::bordered()
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(format!(" {} ", panel.title), theme.title))
        .title_bottom(Line::from(" Enter applies · Esc closes ").right_aligned());
    let width = usize::from(area.width.saturating_sub(2));
    let mut text = lines(panel, width, theme, false);
    if text.len() + 2 > usize::from(area.height) {
        text = lines(panel, width, theme, true);
    }
    let height = u16::try_from(text.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let boxed = Rect::new(area.x, area.y, area.width, height);
    Clear.render(boxed, buf);
    let inner = block.inner(boxed);
    block.render(boxed, buf);
    Paragraph::new(text).render(inner, buf);
}
