//! A learner whose saved file could not be used says why in the view that shows it, until
//! it is retrained: the Q-table's in the edges view, the network's in its outputs view.

use crate::widgets::Theme;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// Why a saved file was not used, wrapped to the pane's width, while the learner it held
/// has not been replaced yet: a path does not fit the one-line message.
pub(super) fn unusable_file(
    problem: Option<&String>,
    retrain_key: &str,
    theme: &Theme,
) -> Option<Paragraph<'static>> {
    let problem = problem?;
    Some(
        Paragraph::new(vec![
            Line::styled(" The saved file was not used (left as it is):", theme.error),
            Line::raw(format!(" {problem}")),
            Line::styled(
                format!(" {retrain_key} trains a new one; the old file is then kept as .broken"),
                theme.dim,
            ),
        ])
        .wrap(ratatui::widgets::Wrap { trim: false }),
    )
}
