//! The Self-play tab on screen: the board and who plays, what the learner makes of the
//! position (every move's prior, visits, Q and U beside the exact verdict), and how its
//! learning goes (games, losses, and the curve of positions whose value it keeps).

use super::settings::PlayMode;
use super::state::SelfPlayTab;
use super::symbols;
use crate::components::mcts_search::outline::short_verdict;
use crate::components::mcts_search::pane::{pane_title, render_mcts};
use crate::domain::games::Game as _;
use crate::domain::numbers::thousands;
use crate::tabkit::tab::Training;
use crate::widgets::runs::{RunsChart, Scale};
use crate::widgets::symbols::{Gloss, Symbol};
use crate::widgets::{TabView, Theme, titled};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The board pane's width.
const BOARD_WIDTH: u16 = 26;
/// The learning pane's height.
const LEARNING_HEIGHT: u16 = 7;
/// The curve's levels, lowest first.
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

impl TabView for SelfPlayTab {
    fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        let [board, right] =
            Layout::horizontal([Constraint::Length(BOARD_WIDTH), Constraint::Fill(1)]).areas(body);
        // A short body (a lesson's pane below) keeps the table of moves whole: the learning
        // pane gives up its curve first.
        let learning_height = if body.height >= 21 {
            LEARNING_HEIGHT
        } else {
            LEARNING_HEIGHT - 2
        };
        render_board(self, board, buf, theme);
        if self.runs.open {
            render_runs(self, right, buf, theme);
            return;
        }
        // The stepped search takes the whole column: a selection's comparison and the tree
        // under it need the rows.
        if let Some(view) = &self.stepping {
            let counter = self
                .step_count()
                .map(|(at, total)| crate::tabkit::goto::counter(at, total));
            let title = pane_title(view, counter.as_deref());
            let shown = (true, self.predict.is_some());
            render_mcts(view, &title, shown, right, buf, theme);
            return;
        }
        let [thinks, learning] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(learning_height)])
                .areas(right);
        render_thinking(self, thinks, buf, theme);
        render_learning(self, learning, buf, theme);
    }

    fn click(&self, body: Rect, at: Position) -> Option<super::action::Action> {
        let inner = Rect::new(body.x + 1, body.y + 1, 11, 5);
        if !inner.contains(at) || (at.y - inner.y) % 2 == 1 {
            return None;
        }
        let row = (at.y - inner.y) / 2;
        let column = (at.x - inner.x) / 4;
        Some(super::action::Action::Place(
            u8::try_from(row * 3 + column + 1).ok()?,
        ))
    }

    fn symbols(&self) -> Vec<Symbol> {
        symbols::ALL.to_vec()
    }

    fn words(&self) -> Vec<Gloss> {
        symbols::words()
    }
}

fn render_board(tab: &SelfPlayTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let mut lines = Vec::new();
    for row in 0..3u8 {
        if row > 0 {
            lines.push(Line::styled("───┼───┼───", theme.dim));
        }
        let mut spans = Vec::new();
        for column in 0..3u8 {
            let cell = row * 3 + column;
            if column > 0 {
                spans.push(Span::styled("│", theme.dim));
            }
            spans.push(match tab.board.cell(cell) {
                Some(mark) => {
                    let style = if mark.letter() == 'X' {
                        theme.x
                    } else {
                        theme.o
                    };
                    Span::styled(format!(" {} ", mark.letter()), style)
                }
                None => Span::styled(format!(" {} ", cell + 1), theme.dim),
            });
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(format!(
        "You: {}{}",
        tab.human.letter(),
        if tab.human.letter() == 'X' {
            " (opens)"
        } else {
            ""
        }
    )));
    let ai = tab.ai_mark();
    lines.push(Line::from(format!(
        "It:  {} {}",
        ai.letter(),
        mode_short(tab)
    )));
    lines.push(Line::from(""));
    lines.push(turn_line(tab, theme));
    let t = &tab.tally;
    lines.push(Line::styled(
        format!("You {} · it {} · draws {}", t.won, t.lost, t.drawn),
        theme.dim,
    ));
    lines.push(Line::from(""));
    for line in [
        "P   the network's prior",
        "N   the search's visits",
        "Q   their mean value",
        "U   exploration bonus",
        "exact  perfect play",
    ] {
        lines.push(Line::styled(line, theme.dim));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(titled(" Board ".to_string(), theme))
        .render(area, buf);
}

/// How the learner plays, short enough for the board pane.
fn mode_short(tab: &SelfPlayTab) -> String {
    match tab.config.mode {
        PlayMode::Search => format!("net+{} sims", tab.config.simulations),
        PlayMode::Network => "network alone".to_string(),
    }
}

fn turn_line(tab: &SelfPlayTab, theme: &Theme) -> Line<'static> {
    match tab.board.outcome() {
        Some(crate::domain::games::Outcome::Winner(mark)) if mark == tab.human => {
            Line::styled("Three in a row: you win!", theme.title)
        }
        Some(crate::domain::games::Outcome::Winner(_)) => {
            Line::styled("Three in a row: it wins.", theme.title)
        }
        Some(crate::domain::games::Outcome::Draw) => Line::styled("A draw.", theme.title),
        None if tab.stepping.is_some() => Line::from(vec![
            Span::styled("Its move: ", theme.title),
            Span::raw("step it"),
        ]),
        None => Line::from(vec![
            Span::styled("Your move: ", theme.title),
            Span::raw("1-9"),
        ]),
    }
}

fn render_thinking(tab: &SelfPlayTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = titled(" What it thinks of this position ".to_string(), theme);
    let Some(analysis) = &tab.analysis else {
        let said = "The game is over: r starts a new one. y shows why it played each move.";
        Paragraph::new(Line::styled(said, theme.dim))
            .wrap(Wrap { trim: true })
            .block(block)
            .render(area, buf);
        return;
    };
    let plays = match tab.config.mode {
        PlayMode::Search => analysis.search_move,
        PlayMode::Network => analysis.network_move,
    };
    let mut lines = vec![Line::styled(
        "  cell  prior P  visits N      Q     U  exact",
        theme.title,
    )];
    for row in &analysis.rows {
        let mark = if row.cell == plays {
            symbols::CHOSEN.glyph
        } else if row.cell == analysis.network_move {
            symbols::FAVOURITE.glyph
        } else {
            " "
        };
        let q_style = if row.q > 0.0 {
            theme.positive
        } else if row.q < 0.0 {
            theme.negative
        } else {
            theme.dim
        };
        lines.push(Line::from(vec![
            Span::raw(format!(
                "{mark}  {:>3}    {:>5.2}  {:>8}  ",
                row.cell + 1,
                row.prior,
                row.visits
            )),
            Span::styled(format!("{:>+5.2}", row.q), q_style),
            Span::raw(format!("  {:>4.2}  ", row.u)),
            Span::styled(short_verdict(row.exact), theme.dim),
        ]));
    }
    let mover = analysis.position.to_move().letter();
    lines.push(Line::from(format!(
        "Network: value {:+.2} for {mover}, favourite {}.",
        analysis.value,
        analysis.network_move + 1
    )));
    lines.push(Line::from(format!(
        "Search of {} simulations: visits {} most.",
        analysis.simulations,
        analysis.search_move + 1
    )));
    Paragraph::new(lines).block(block).render(area, buf);
}

fn render_learning(tab: &SelfPlayTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let shown = &tab.shown;
    let state = match tab.training() {
        Training::Running => "training",
        Training::Waiting => crate::tabkit::background::WAITING_FOR_TRAINER,
        Training::Idle => "resting",
    };
    let mut lines = vec![Line::from(format!(
        "{} games · {:.0} s of training · buffer {}",
        thousands(shown.progress.games),
        shown.seconds,
        thousands(shown.buffered as u64)
    ))];
    let last = shown.curve.last();
    lines.push(Line::from(if shown.progress.batches == 0 {
        "loss: none yet".to_string()
    } else {
        format!(
            "loss: policy {:.3} value {:.3}",
            shown.progress.losses.policy, shown.progress.losses.value
        )
    }));
    if let Some(point) = last {
        lines.push(Line::from(format!(
            "keeps the value: network {:.1}% · search {:.1}%",
            point.network_kept, point.searched_kept
        )));
    } else {
        lines.push(Line::styled(
            "Not trained yet: t starts games against itself.",
            theme.info,
        ));
    }
    let width = usize::from(area.width.saturating_sub(12));
    let curve = |pick: fn(&crate::domain::learn::selfplay::saved::CurvePoint) -> f64| {
        let points: Vec<f64> = shown.curve.iter().map(pick).collect();
        sparkline(&points[points.len().saturating_sub(width)..])
    };
    lines.push(Line::from(vec![
        Span::styled("network  ", theme.dim),
        Span::raw(curve(|p| p.network_kept)),
    ]));
    lines.push(Line::from(vec![
        Span::styled("search   ", theme.dim),
        Span::raw(curve(|p| p.searched_kept)),
    ]));
    Paragraph::new(lines)
        .block(titled(format!(" Learning by self-play: {state} "), theme))
        .render(area, buf);
}

/// The runs compared: the run in force and the kept runs drawn, with the legend.
fn render_runs(tab: &SelfPlayTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = titled(
        " Runs: positions the network alone keeps ".to_string(),
        theme,
    );
    let inner = block.inner(area);
    block.render(area, buf);
    let settings = tab.run_words();
    let curve = tab.run_curve();
    RunsChart {
        runs: &tab.runs,
        current: (&settings, &curve),
        scale: Scale::Share,
        x_axis: ("games", tab.run_games()),
        y_title: "kept".into(),
        kept_by: "a new learner (T)",
    }
    .render(inner, buf, theme);
}

/// Percentages as one character each, 50% and below lowest, 100% highest.
pub(crate) fn sparkline(points: &[f64]) -> String {
    points
        .iter()
        .map(|&p| {
            let level = ((p - 50.0) / 50.0 * 7.0).round().clamp(0.0, 7.0) as usize;
            LEVELS[level]
        })
        .collect()
}
