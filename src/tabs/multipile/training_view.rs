//! The training view in the right-hand pane: both learners' progress bars and scores over
//! their charts (the Q-table's optimality and win rates by games, the network's error by
//! epochs), or one learner's runs of this session on one chart while that list is open.

use super::action::Compared;
use super::state::MultiPileTab;
use crate::domain::learn::qlearning::QEvaluation;
use crate::domain::numbers::thousands;
use crate::widgets::Theme;
use crate::widgets::runs::{RunsChart, Scale};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget};

fn bar(done: usize, total: usize, width: usize) -> String {
    let filled = width * done.min(total) / total.max(1);
    format!("{}{}", "█".repeat(filled), "░".repeat(width - filled))
}

pub(super) fn render_training(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    if let Some(which) = tab.compare {
        render_compare(tab, which, area, buf, theme);
        return;
    }
    let [q_head, q_chart, net_head, net_chart] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Fill(3),
        Constraint::Length(2),
        Constraint::Fill(2),
    ])
    .areas(area);
    render_q_head(tab, q_head, buf, theme);
    render_q_chart(tab, q_chart, buf, theme);
    render_net_head(tab, net_head, buf, theme);
    render_net_chart(tab, net_chart, buf, theme);
}

/// One learner's runs on one chart: its head line, then the run in force and the kept runs
/// drawn, with the legend.
fn render_compare(
    tab: &MultiPileTab,
    which: Compared,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let [head, chart] = Layout::vertical([Constraint::Length(2), Constraint::Fill(1)]).areas(area);
    match which {
        Compared::QTable => render_q_head(tab, head, buf, theme),
        Compared::Network => render_net_head(tab, head, buf, theme),
    }
    let (settings, curve) = tab.current_run(which);
    let (x_end, y_title) = match which {
        Compared::QTable => (
            tab.q.trainer.as_ref().map_or(1, |t| t.target) as f64,
            "policy optimality",
        ),
        Compared::Network => (tab.net.trainer.target as f64, "winning moves played"),
    };
    RunsChart {
        runs: tab.runs(which),
        current: (&settings, &curve),
        scale: Scale::Share,
        x_axis: (which.x_name(), x_end),
        y_title: y_title.into(),
        kept_by: which.kept_by(),
    }
    .render(chart, buf, theme);
}

fn render_q_head(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let lines = match &tab.q.trainer {
        Err(why) => vec![Line::styled(
            format!(" Q-learning refused: {why}"),
            theme.error,
        )],
        Ok(trainer) => {
            let state = if tab.q.training {
                "training"
            } else if trainer.is_done() {
                "trained"
            } else if trainer.games == 0 {
                "untrained"
            } else {
                "paused"
            };
            let e = trainer.evaluation();
            vec![
                Line::from(format!(
                    " Q {state} {} {}/{}",
                    bar(trainer.games, trainer.target, 12),
                    thousands(trainer.games as u64),
                    thousands(trainer.target as u64)
                )),
                Line::from(vec![
                    Span::styled(
                        format!(" ⠿ optimal {:.1}%", e.policy_optimality() * 100.0),
                        theme.key,
                    ),
                    Span::styled(
                        format!(" • random {:.0}%", e.win_rate_vs_random * 100.0),
                        theme.positive,
                    ),
                    Span::styled(
                        format!(" ▀ perfect {:.0}%", e.win_rate_vs_perfect * 100.0),
                        theme.negative,
                    ),
                ]),
            ]
        }
    };
    Paragraph::new(lines).render(area, buf);
}

fn render_q_chart(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let Ok(trainer) = &tab.q.trainer else { return };
    let curve = &trainer.curve;
    let series = |f: fn(&QEvaluation) -> f64| -> Vec<(f64, f64)> {
        curve.iter().map(|e| (e.games as f64, f(e))).collect()
    };
    let optimal = series(QEvaluation::policy_optimality);
    let random = series(|e| e.win_rate_vs_random);
    let perfect = series(|e| e.win_rate_vs_perfect);
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.key)
            .data(&optimal),
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Line)
            .style(theme.positive)
            .data(&random),
        Dataset::default()
            .marker(Marker::HalfBlock)
            .graph_type(GraphType::Line)
            .style(theme.negative)
            .data(&perfect),
    ];
    let games = trainer.target.max(1);
    Chart::new(datasets)
        .x_axis(Axis::default().bounds([0.0, games as f64]).labels(vec![
            Span::raw("0"),
            Span::raw(format!("{} games", thousands(games as u64))),
        ]))
        .y_axis(
            Axis::default()
                .bounds([0.0, 1.0])
                .labels(vec![Span::raw("0%"), Span::raw("100%")]),
        )
        .render(area, buf);
}

fn render_net_head(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let net = &tab.net;
    let trainer = &net.trainer;
    let state = if net.waits_for_trainer() {
        "waiting for a trainer"
    } else if net.is_training() {
        "training"
    } else if trainer.is_done() {
        "trained"
    } else if trainer.epochs() == 0 {
        "untrained"
    } else {
        "paused"
    };
    let error = trainer
        .errors
        .last()
        .map_or("—".to_string(), |&e| error_text(e));
    let lines = vec![
        Line::from(format!(
            " Net {state} {} {}/{} epochs",
            bar(trainer.epochs(), trainer.target, 12),
            trainer.epochs(),
            trainer.target
        )),
        Line::from(vec![
            Span::styled(
                format!(" wins {:.1}%", net.evaluation().winning_accuracy() * 100.0),
                theme.key,
            ),
            Span::styled(
                format!(
                    "  lab decoder {:.1}%",
                    net.evaluation().original_accuracy() * 100.0
                ),
                theme.dim,
            ),
            Span::raw(format!("  error {error}")),
        ]),
    ];
    Paragraph::new(lines).render(area, buf);
}

/// A network's error with three significant digits, however small it gets (`0.0412`,
/// `3.10e-4`), so the last epochs never read `0.00`.
fn error_text(error: f64) -> String {
    if error == 0.0 || error >= 0.01 {
        format!("{error:.3}")
    } else {
        format!("{error:.2e}")
    }
}

fn render_net_chart(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let errors = &tab.net.trainer.errors;
    if errors.is_empty() {
        Paragraph::new(Line::styled(" No epochs yet: P trains it", theme.dim)).render(area, buf);
        return;
    }
    let points: Vec<(f64, f64)> = errors
        .iter()
        .enumerate()
        .map(|(i, &e)| ((i + 1) as f64, e))
        .collect();
    let high = errors.iter().copied().fold(0.0, f64::max).max(1e-6);
    let epochs = tab.net.trainer.target.max(errors.len());
    Chart::new(vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.key)
            .data(&points),
    ])
    .x_axis(
        Axis::default()
            .bounds([0.0, epochs as f64])
            .labels(vec![Span::raw("0"), Span::raw(format!("{epochs} epochs"))]),
    )
    .y_axis(
        Axis::default()
            .bounds([0.0, high])
            .labels(vec![Span::raw("0"), Span::raw(error_text(high))]),
    )
    .render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::error_text;

    #[test]
    fn a_small_error_keeps_three_significant_digits() {
        assert_eq!(error_text(0.0412), "0.041");
        assert_eq!(error_text(0.000_31), "3.10e-4");
        assert_eq!(error_text(0.004), "4.00e-3");
        assert_eq!(error_text(0.0), "0.000");
    }
}
