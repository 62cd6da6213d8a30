//! The Multi-pile Nim tab: the piles and the game on the left; on the right one of five
//! views (edges with Q-values, a self-play game's updates, training charts, the Q-table,
//! the network's outputs); the opponent menu over both while it is open.

use super::action::Compared;
use super::state::{MultiPileTab, OPPONENTS, Pane, Typed, opponent_name};
use super::symbols;
use super::why::{leave_words, mv_text};
use crate::domain::games::nim::{Piles, Rule};
use crate::domain::learn::nim_net::{self, NetGame, PILE_BITS};
use crate::domain::learn::qlearning::{QEvaluation, Update};
use crate::domain::numbers::thousands;
use crate::domain::solve::nim as solver;
use crate::frame::entry::Entry;
use crate::frame::side::Side;
use crate::widgets::runs::{RunsChart, Scale};
use crate::widgets::symbols::{FOCUS, Symbol};
use crate::widgets::{TabView, Theme, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Clear, Dataset, GraphType, Paragraph, Widget, Wrap};

/// Width of the game pane.
const GAME_WIDTH: u16 = 32;

impl TabView for MultiPileTab {
    fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        render(self, body, buf, theme);
    }

    fn symbols(&self) -> Vec<Symbol> {
        [symbols::NIM, &[FOCUS][..]].concat()
    }
}

fn render(tab: &MultiPileTab, body: Rect, buf: &mut Buffer, theme: &Theme) {
    let [game, pane] =
        Layout::horizontal([Constraint::Length(GAME_WIDTH), Constraint::Fill(1)]).areas(body);
    render_game(tab, game, buf, theme);
    let block = pane_block(&pane_title(tab), tab.pane_focus, theme);
    let inner = block.inner(pane);
    block.render(pane, buf);
    match tab.pane {
        Pane::Edges => render_edges(tab, inner, buf, theme),
        Pane::Updates => render_updates(tab, inner, buf, theme),
        Pane::Training => render_training(tab, inner, buf, theme),
        Pane::Table => render_table(tab, inner, buf, theme),
        Pane::Network => render_network(tab, inner, buf, theme),
        Pane::Weights => render_weights(tab, inner, buf, theme),
    }
    if let Some(cursor) = tab.menu {
        render_menu(cursor, body, buf, theme);
    }
}

fn pane_title(tab: &MultiPileTab) -> String {
    match tab.pane {
        Pane::Edges => format!(" Moves from {} · Q-values", tab.shown_position()),
        Pane::Updates if tab.has_updates() => format!(
            " Q-learning game: update {} of {}",
            tab.q.steps.at(),
            tab.q.steps.total()
        ),
        Pane::Updates => " Q-learning updates, one game".into(),
        Pane::Training => match tab.compare {
            Some(which) => format!(" Training · {} runs", which.name()),
            None => format!(" Training · speed {}", tab.speed.name()),
        },
        Pane::Table => {
            if tab.wrong_only {
                " Q-table: wrong positions".into()
            } else {
                " Q-table: learned positions".into()
            }
        }
        Pane::Network => " Network outputs".into(),
        Pane::Weights => " Network weights, one unit".into(),
    }
}

// ---- the game ---------------------------------------------------------------------

fn render_game(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let rule = tab.game_rule();
    let title = format!(" Nim · {}", rule.name());
    let block = pane_block(&title, !tab.pane_focus, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines = vec![
        Line::styled(
            format!(" vs the {}", opponent_name(tab.opponent)),
            theme.key,
        ),
        Line::styled(
            match rule {
                Rule::Misere => " taking the last object loses",
                Rule::Normal => " taking the last object wins",
            },
            theme.dim,
        ),
        Line::raw(""),
    ];
    lines.extend(pile_lines(tab, usize::from(inner.width), theme));
    lines.push(Line::raw(""));
    lines.push(turn_line(tab, theme));
    let room = usize::from(inner.height);
    // The game's moves, as many of the last ones as fit above the footer.
    let free = room.saturating_sub(lines.len() + 2);
    if !tab.moves.is_empty() && free > 0 {
        lines.push(Line::styled(" Moves (y why, ⌫ take back):", theme.dim));
        let first = tab
            .moves
            .len()
            .saturating_sub(free - 1)
            .min(tab.moves.len());
        for (i, played) in tab.moves.iter().enumerate().skip(first) {
            let who = if played.by == Side::Human {
                "you"
            } else {
                "AI "
            };
            lines.push(Line::styled(
                format!(
                    " {:>2}. {who} {:<6} → {}",
                    i + 1,
                    mv_text(played.mv),
                    played.before.after(played.mv)
                ),
                theme.dim,
            ));
        }
    }
    let footer = Line::from(format!(
        " won {}  lost {}  (o: opponent)",
        tab.tally.won, tab.tally.lost
    ));
    lines.truncate(room.saturating_sub(1));
    while lines.len() + 1 < room {
        lines.push(Line::raw(""));
    }
    lines.push(footer);
    Paragraph::new(lines).render(inner, buf);
}

/// One row per pile: its number, its objects (those the selection would take hollow), its
/// size.
fn pile_lines(tab: &MultiPileTab, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let room = width.saturating_sub(8).max(4);
    let selecting = tab.human_to_move && !tab.game_over();
    tab.piles
        .sizes()
        .iter()
        .enumerate()
        .map(|(i, &size)| {
            let size = usize::from(size);
            let chosen = selecting && i == tab.pile;
            let taking = if chosen {
                (tab.count as usize).min(size)
            } else {
                0
            };
            let marker = if chosen { "▸" } else { " " };
            let mut spans = vec![Span::styled(
                format!("{marker}{} ", i + 1),
                if chosen { theme.cursor } else { theme.dim },
            )];
            let kept = size - taking;
            let (shown_kept, shown_taking, overflow) = if size > room {
                let taking_shown = taking.min(room - 3);
                (room - 3 - taking_shown, taking_shown, true)
            } else {
                (kept, taking, false)
            };
            spans.push(Span::styled("●".repeat(shown_kept), theme.key));
            spans.push(Span::styled("○".repeat(shown_taking), theme.error));
            if overflow {
                spans.push(Span::styled("…", theme.dim));
            }
            let used = shown_kept + shown_taking + usize::from(overflow);
            spans.push(Span::raw(" ".repeat(room.saturating_sub(used) + 1)));
            spans.push(Span::styled(format!("{size:>2}"), theme.title));
            Line::from(spans)
        })
        .collect()
}

fn turn_line(tab: &MultiPileTab, theme: &Theme) -> Line<'static> {
    if let Some(text) = tab.asking.as_ref().map(Entry::text) {
        return Line::from(vec![
            Span::styled(" Ask about piles: ", theme.title),
            Span::styled(format!("{text}▏"), theme.key),
        ]);
    }
    match tab.winner() {
        Some(Side::Human) => return Line::styled(" ★ You won! n: new game", theme.win),
        Some(Side::Ai) => return Line::styled(" ✗ The AI won. n: new game", theme.error),
        None => {}
    }
    if !tab.human_to_move {
        return Line::styled(" The AI is thinking", theme.dim);
    }
    let count = match &tab.typed {
        Typed::Pile => "_".to_string(),
        Typed::Count(text) => format!("{text}▏"),
        Typed::Nothing => tab.count.to_string(),
    };
    Line::from(vec![
        Span::styled(" Your turn: ", theme.title),
        Span::raw(format!("pile {}, take ", tab.pile + 1)),
        Span::styled(count, theme.key),
    ])
}

// ---- edges ------------------------------------------------------------------------

/// Why a saved file was not used, wrapped to the pane's width, while the learner it held
/// has not been replaced yet: a path does not fit the one-line message.
fn unusable_file(
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

fn render_edges(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let notice = match &tab.q.trainer {
        Err(why) => Some(
            Paragraph::new(vec![
                Line::styled(" The Q-learning agent refuses this game:", theme.error),
                Line::raw(format!(" {why}")),
            ])
            .wrap(ratatui::widgets::Wrap { trim: false }),
        ),
        Ok(_) => tab
            .q
            .untrained()
            .then(|| unusable_file(tab.q.load_error.as_ref(), "p", theme))
            .flatten(),
    };
    let area = match notice {
        Some(notice) => {
            let [list, bottom] =
                Layout::vertical([Constraint::Fill(1), Constraint::Length(6)]).areas(area);
            notice.render(bottom, buf);
            list
        }
        None => area,
    };
    let position = tab.shown_position();
    let rule = tab.game_rule();
    let hints = tab.hints_shown(position);
    let mut edges = tab.edges(position);
    if !hints {
        // Best Q first would point at the AI's pick: in move order instead.
        edges.sort_by_key(|e| (e.mv.pile, e.mv.take));
    }
    let mut lines = vec![position_line(tab, position, rule, hints, theme)];
    lines.push(Line::styled(
        if hints {
            format!(
                "  {} greedy  {} wins (solver)       Q     n",
                symbols::GREEDY.glyph,
                symbols::WINS.glyph
            )
        } else {
            "  hints hidden on your turn (i)     Q     n".to_string()
        },
        theme.dim,
    ));
    if edges.is_empty() {
        lines.push(Line::styled(" No moves: the game is over here", theme.dim));
    }
    let room = usize::from(area.height).saturating_sub(lines.len() + 1);
    let first = tab.edge_cursor.saturating_sub(room.saturating_sub(1));
    for (i, edge) in edges.iter().enumerate().skip(first).take(room) {
        let selected = i == tab.edge_cursor;
        let q = edge
            .q
            .map_or("     —".to_string(), |q| format!("{q:>+6.3}"));
        let text = format!(
            "{}{}{} {:<6} → {:<12} {q} {:>5}",
            if selected {
                symbols::SELECTED.glyph
            } else {
                " "
            },
            if edge.greedy && hints {
                symbols::GREEDY.glyph
            } else {
                " "
            },
            if edge.winning && hints {
                symbols::WINS.glyph
            } else {
                " "
            },
            mv_text(edge.mv),
            edge.next.to_string(),
            edge.updates
        );
        let style = if selected && tab.pane_focus {
            theme.cursor
        } else if edge.winning && hints {
            theme.positive
        } else {
            Style::default()
        };
        lines.push(Line::styled(text, style));
    }
    lines.truncate(usize::from(area.height).saturating_sub(1));
    while lines.len() + 1 < usize::from(area.height) {
        lines.push(Line::raw(""));
    }
    lines.push(q_summary(tab, theme));
    Paragraph::new(lines).render(area, buf);
}

fn position_line(
    tab: &MultiPileTab,
    position: Piles,
    rule: Rule,
    hints: bool,
    theme: &Theme,
) -> Line<'static> {
    let verdict = if position.is_over() {
        "game over"
    } else if !hints {
        "your move"
    } else if solver::mover_wins(&position, rule) {
        "mover wins"
    } else {
        "mover loses"
    };
    let place = if let Some(played) = tab.played_here() {
        let who = if played.by == Side::Human {
            "you"
        } else {
            "AI"
        };
        format!("{who} played {} here", mv_text(played.mv))
    } else if tab.browse.is_empty() {
        "in play".to_string()
    } else {
        format!("{} step(s) in, . back", tab.browse.len())
    };
    Line::from(vec![
        Span::styled(format!(" {position}"), theme.title),
        Span::styled(format!(" {verdict} · {place}"), theme.dim),
    ])
}

fn q_summary(tab: &MultiPileTab, theme: &Theme) -> Line<'static> {
    match &tab.q.trainer {
        Err(_) => Line::styled(" no Q-table for this game", theme.error),
        Ok(trainer) => {
            let e = trainer.evaluation();
            let state = if tab.q.training { "⟳ " } else { "" };
            Line::styled(
                format!(
                    " {state}{} games · {} Q-values · {}/{} ✓",
                    thousands(trainer.games as u64),
                    thousands(trainer.table.entries() as u64),
                    e.optimal_states,
                    e.winning_states
                ),
                theme.dim,
            )
        }
    }
}

// ---- updates ----------------------------------------------------------------------

fn render_updates(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let updates = &tab.q.last_game;
    let alpha = updates.first().map_or(0.5, |u| u.alpha);
    let mut lines = vec![
        Line::styled(
            format!(" Q ← Q + α·(r + max Q(s′,·) − Q), α = {alpha}"),
            theme.dim,
        ),
        Line::styled(" s′: the mover's next position", theme.dim),
    ];
    if updates.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::raw(" s plays one self-play game from the"));
        lines.push(Line::raw(" start; Space shows its updates in order."));
        Paragraph::new(lines).render(area, buf);
        return;
    }
    let shown = tab.q.steps.at();
    // The update after the shown ones, its new value hidden: what predict mode asks.
    let pending = updates.get(shown).map(|u| (shown, u));
    let listed = shown + usize::from(pending.is_some());
    let rows = usize::from(area.height).saturating_sub(lines.len());
    let first = if 2 * listed > rows {
        let first = listed - rows.saturating_sub(1) / 2;
        lines.push(Line::styled(
            format!(" … {first} earlier (a taller terminal shows all)"),
            theme.dim,
        ));
        first
    } else {
        0
    };
    for (i, u) in updates[..shown].iter().enumerate().skip(first) {
        let style = if i + 1 == shown {
            theme.title
        } else {
            Style::default()
        };
        lines.extend(update_lines(i, u, Some(u.new), style, theme));
    }
    if let Some((i, u)) = pending {
        lines.extend(update_lines(i, u, None, theme.dim, theme));
    }
    let used = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    Paragraph::new(lines).render(area, buf);
    // The grade of the answer about the pending update, whole (the status line cuts it).
    if let Some((_, words)) = tab.feedback.as_ref().filter(|(i, _)| *i == shown) {
        let below = Rect {
            x: area.x.saturating_add(1),
            y: area.y.saturating_add(used.saturating_add(1)),
            width: area.width.saturating_sub(1),
            height: area.height.saturating_sub(used.saturating_add(1)),
        };
        Paragraph::new(feedback_lines(words))
            .wrap(Wrap { trim: false })
            .render(below, buf);
    }
}

/// A grade's words as the pane lays them out: the sentence, then the rule's arithmetic a
/// step a line (`Q ← Q + α·(target − Q)`, `= 0 + 0.5·(1 − 0)`, `= 0.5`).
fn feedback_lines(words: &str) -> Vec<Line<'static>> {
    const RULE: &str = "Q ← Q + α·(target − Q) = ";
    let Some((said, arithmetic)) = words.split_once(RULE) else {
        return vec![Line::raw(words.to_string())];
    };
    let said = said.trim_end_matches([' ', ':', ';']);
    let (sum, result) = arithmetic.rsplit_once(" = ").unwrap_or((arithmetic, ""));
    let mut lines = vec![
        Line::raw(said.to_string()),
        Line::raw(RULE.trim_end_matches(" = ").to_string()),
        Line::raw(format!("  = {sum}")),
    ];
    if !result.is_empty() {
        lines.push(Line::raw(format!("  = {result}")));
    }
    lines
}

/// An update's two lines: the move, then its numbers; `new` is `None` for the update not
/// shown yet, whose new value reads `?`.
fn update_lines<'a>(
    i: usize,
    u: &Update,
    new: Option<f64>,
    style: Style,
    theme: &Theme,
) -> [Line<'a>; 2] {
    let next = if u.next.is_over() {
        "end".to_string()
    } else {
        u.next.to_string()
    };
    let head = Line::styled(
        format!(" {:>2}. {} {} → s′ {next}", i + 1, u.state, mv_text(u.mv)),
        style,
    );
    let reward_style = match u.reward {
        r if r > 0.0 => theme.positive,
        r if r < 0.0 => theme.negative,
        _ => theme.dim,
    };
    let new = new.map_or_else(|| "?".to_string(), |v| format!("{v:+.3}"));
    let numbers = Line::from(vec![
        Span::raw("     r "),
        Span::styled(format!("{:+}", u.reward), reward_style),
        Span::raw(format!(
            "  max Q(s′) {:+.3}  Q {:+.3} → ",
            u.best_future, u.old
        )),
        Span::styled(new, theme.key),
    ]);
    [head, numbers]
}

// ---- training ---------------------------------------------------------------------

fn bar(done: usize, total: usize, width: usize) -> String {
    let filled = width * done.min(total) / total.max(1);
    format!("{}{}", "█".repeat(filled), "░".repeat(width - filled))
}

fn render_training(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
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

// ---- the Q-table ------------------------------------------------------------------

fn render_table(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let rows = tab.table_rows();
    let mut lines = vec![
        Line::styled(
            format!(
                " {} {} positions  (e: {})",
                rows.len(),
                if tab.wrong_only { "wrong" } else { "learned" },
                if tab.wrong_only { "all" } else { "wrong only" }
            ),
            theme.dim,
        ),
        Line::styled("   position      greedy      Q    solver", theme.dim),
    ];
    if rows.is_empty() {
        lines.push(Line::raw(if tab.wrong_only {
            " None: every greedy move wins"
        } else {
            " Nothing learned yet: p trains, s plays one game"
        }));
    }
    let room = usize::from(area.height).saturating_sub(lines.len());
    let first = tab.table_scroll.min(rows.len().saturating_sub(room.max(1)));
    for (i, row) in rows.iter().enumerate().skip(first).take(room) {
        let greedy = match row.greedy.as_slice() {
            [one] => mv_text(*one),
            [one, ..] => format!("{}+{}", mv_text(*one), row.greedy.len() - 1),
            [] => "—".into(),
        };
        let solver = row.winning.map_or("loses".to_string(), mv_text);
        let text = format!(
            "{}{} {:<13} {:<9} {:>+6.3}  {}",
            if i == tab.table_scroll && tab.pane_focus {
                "▸"
            } else {
                " "
            },
            if row.wrong { "✗" } else { " " },
            row.piles.to_string(),
            greedy,
            row.best,
            solver
        );
        let style = if row.wrong {
            theme.error
        } else {
            Style::default()
        };
        lines.push(Line::styled(text, style));
    }
    Paragraph::new(lines).render(area, buf);
}

// ---- the network ------------------------------------------------------------------

/// The network's shape, rule, epochs and score, above its outputs.
fn network_heading(tab: &MultiPileTab, theme: &Theme) -> Line<'static> {
    let sizes: Vec<String> = tab
        .net
        .trainer
        .network
        .sizes()
        .iter()
        .map(usize::to_string)
        .collect();
    Line::styled(
        format!(
            " {} · {} · epoch {} · wins {:.1}%",
            sizes.join("-"),
            tab.net.game().rule.name(),
            tab.net.trainer.epochs(),
            tab.net.evaluation().winning_accuracy() * 100.0
        ),
        theme.dim,
    )
}

fn render_network(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let game = tab.net.game();
    let (trace, label) = if let Some(trace) = &tab.net_move {
        (Some(trace.clone()), "its last move")
    } else {
        let position = if game.fits(&tab.piles) && !tab.piles.is_over() {
            tab.piles
        } else {
            tab.network_start()
        };
        (
            nim_net::choose(game, &tab.net.trainer.network, &position),
            "if it moved now",
        )
    };
    let area = match unusable_file(tab.net.load_error.as_ref(), "T", theme)
        .filter(|_| tab.net.trainer.epochs() == 0)
    {
        Some(notice) => {
            let [top, rest] =
                Layout::vertical([Constraint::Length(6), Constraint::Fill(1)]).areas(area);
            notice.render(top, buf);
            rest
        }
        None => area,
    };
    let mut lines = vec![network_heading(tab, theme)];
    let hidden = tab.net_move.is_none() && !tab.hints_shown(tab.piles);
    if hidden {
        lines.push(Line::raw(" Hints hidden on your turn: the network's"));
        lines.push(Line::raw(" reading shows after your move (i shows it)"));
        Paragraph::new(lines).render(area, buf);
        return;
    }
    let Some(trace) = trace else {
        lines.push(Line::raw(" The game is over: no move to show"));
        Paragraph::new(lines).render(area, buf);
        return;
    };
    lines.push(Line::from(vec![
        Span::raw(" at "),
        Span::styled(trace.piles.to_string(), theme.title),
        Span::styled(format!(" ({label})"), theme.dim),
    ]));
    let output = trace.activations.output();
    let width = usize::from(area.width).saturating_sub(16).clamp(4, 20);
    for (i, &value) in output.iter().enumerate() {
        if i == game.piles {
            // The bits spell the size the pile is left with, not the take: say so.
            lines.push(Line::styled(" bits of the pile size to leave:", theme.dim));
        }
        let name = if i < game.piles {
            format!("pile {}", i + 1)
        } else {
            format!("bit {:>2}", 1 << (PILE_BITS - 1 - (i - game.piles)))
        };
        let filled = ((value * width as f64).round() as usize).min(width);
        lines.push(Line::from(vec![
            Span::raw(format!(" {name:<7}{value:.3} ")),
            Span::styled("█".repeat(filled), theme.key),
            Span::styled("░".repeat(width - filled), theme.dim),
        ]));
    }
    let solver = trace.solver;
    let played_wins = solver::is_winning_move(&trace.piles, game.rule, trace.played);
    lines.push(Line::raw(format!(
        " reads    pile {}: {}",
        trace.played.pile + 1,
        leave_words(trace.piles, trace.played)
    )));
    lines.push(Line::from(vec![
        Span::raw(" plays    "),
        Span::styled(
            format!("{} {}", trace.played, if played_wins { "✓" } else { "✗" }),
            if played_wins {
                theme.positive
            } else {
                theme.negative
            },
        ),
    ]));
    lines.push(Line::raw(format!(
        " lab's    {}",
        trace
            .original_reading
            .map_or("no legal move (illegal reading)".to_string(), |m| m
                .to_string())
    )));
    lines.push(Line::raw(format!(
        " solver   {}",
        solver.map_or("no winning move: every move loses".to_string(), |m| m
            .to_string())
    )));
    lines.truncate(usize::from(area.height));
    Paragraph::new(lines).render(area, buf);
}

// ---- the weights ------------------------------------------------------------------

/// Weights drawn per row of the weights view.
const WEIGHTS_PER_ROW: usize = 16;

/// The name of unit `unit` of the units feeding layer `layer + 1` (0: the inputs).
fn unit_name(game: NetGame, layers: usize, layer: usize, unit: usize) -> String {
    if layer == 0 {
        let pile = unit / PILE_BITS + 1;
        let bit = 1 << (PILE_BITS - 1 - unit % PILE_BITS);
        format!("in{unit}(p{pile}:{bit})")
    } else if layer == layers {
        if unit < game.piles {
            format!("out{unit}(pile {})", unit + 1)
        } else {
            format!(
                "out{unit}(bit {})",
                1 << (PILE_BITS - 1 - (unit - game.piles))
            )
        }
    } else {
        format!("h{layer}.{unit}")
    }
}

/// Rows of sign-and-shade cells, `WEIGHTS_PER_ROW` a row, each headed by its first index.
fn weight_rows(weights: &[f64], theme: &Theme) -> Vec<Line<'static>> {
    weights
        .chunks(WEIGHTS_PER_ROW)
        .enumerate()
        .map(|(row, chunk)| {
            let mut spans = vec![Span::styled(
                format!(" {:>3} ", row * WEIGHTS_PER_ROW),
                theme.dim,
            )];
            spans.extend(chunk.iter().map(|&w| weight_cell(w, theme)));
            Line::from(spans)
        })
        .collect()
}

/// A weight as a sign and a shade, so strength and sign read without colour.
fn weight_cell(weight: f64, theme: &Theme) -> Span<'static> {
    let shade = crate::widgets::symbols::shade(weight.abs());
    let (sign, style) = if weight >= 0.0 {
        ('+', theme.positive)
    } else {
        ('-', theme.negative)
    };
    Span::styled(format!("{sign}{shade}"), style)
}

/// The strongest few of `weights` by size, with the names of their other ends.
fn strongest(weights: &[f64], name: impl Fn(usize) -> String, count: usize) -> String {
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| {
        weights[b]
            .abs()
            .total_cmp(&weights[a].abs())
            .then(a.cmp(&b))
    });
    order
        .iter()
        .take(count)
        .map(|&i| format!("{} {:+.2}", name(i), weights[i]))
        .collect::<Vec<_>>()
        .join(", ")
}

fn render_weights(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let game = tab.net.game();
    let network = &tab.net.trainer.network;
    let layers = network.layers.len();
    let (at, unit) = tab.weights_at;
    let Some(layer) = network.layers.get(at) else {
        return;
    };
    let unit = unit.min(layer.outputs.saturating_sub(1));
    let name = unit_name(game, layers, at + 1, unit);
    let incoming = layer.incoming(unit);
    let mut lines = vec![Line::styled(
        format!(
            " layer {} of {layers} ({}→{}) · {name} {}/{}",
            at + 1,
            layer.inputs,
            layer.outputs,
            unit + 1,
            layer.outputs
        ),
        theme.title,
    )];
    let activation = tab.net_move.as_ref().map_or_else(
        || " activation: after the network's next move".to_string(),
        |m| {
            format!(
                " activation {:.3} at {} (its last move)",
                m.activations.layers[at + 1][unit],
                m.piles
            )
        },
    );
    lines.push(Line::styled(activation, theme.dim));
    let source = if at == 0 {
        "inputs".to_string()
    } else {
        format!("units h{at}.*")
    };
    lines.push(Line::from(vec![
        Span::styled(
            format!(" in from {} {source}; bias ", layer.inputs),
            theme.dim,
        ),
        weight_cell(incoming[0], theme),
    ]));
    lines.extend(weight_rows(&incoming[1..], theme));
    let outgoing: Vec<f64> = network.layers.get(at + 1).map_or_else(Vec::new, |next| {
        (0..next.outputs)
            .map(|k| next.incoming(k)[unit + 1])
            .collect()
    });
    if outgoing.is_empty() {
        lines.push(Line::styled(" out: the network's output", theme.dim));
    } else {
        let target = if at + 2 == layers {
            "outputs".to_string()
        } else {
            format!("units h{}.*", at + 2)
        };
        lines.push(Line::styled(
            format!(" out to {} {target}", outgoing.len()),
            theme.dim,
        ));
        lines.extend(weight_rows(&outgoing, theme));
    }
    let mut numbers = format!(
        " {name}: bias {:+.2}; strongest in: {}",
        incoming[0],
        strongest(&incoming[1..], |i| unit_name(game, layers, at, i), 3)
    );
    if !outgoing.is_empty() {
        numbers.push_str("; out: ");
        numbers.push_str(&strongest(
            &outgoing,
            |k| unit_name(game, layers, at + 2, k),
            3,
        ));
    }
    let [grid, detail] = Layout::vertical([Constraint::Fill(1), Constraint::Length(4)]).areas(area);
    lines.truncate(usize::from(grid.height));
    Paragraph::new(lines).render(grid, buf);
    Paragraph::new(Line::styled(numbers, theme.key))
        .wrap(ratatui::widgets::Wrap { trim: true })
        .render(detail, buf);
}

// ---- the menu ---------------------------------------------------------------------

fn render_menu(cursor: usize, body: Rect, buf: &mut Buffer, theme: &Theme) {
    let width = 30.min(body.width);
    let height = (OPPONENTS.len() as u16 + 2).min(body.height);
    let area = Rect::new(
        body.x + (body.width - width) / 2,
        body.y + (body.height - height) / 2,
        width,
        height,
    );
    Clear.render(area, buf);
    let block = Block::bordered()
        .border_style(theme.border_focused)
        .title(Span::styled(" Play against ", theme.title))
        .title_bottom(Span::styled(" Enter · 1-4 · Esc ", theme.dim));
    let inner = block.inner(area);
    block.render(area, buf);
    let lines: Vec<Line> = OPPONENTS
        .iter()
        .enumerate()
        .map(|(i, &o)| {
            let text = format!(
                "{}{} {}",
                if i == cursor { "▸" } else { " " },
                i + 1,
                opponent_name(o)
            );
            Line::styled(
                text,
                if i == cursor {
                    theme.cursor
                } else {
                    Style::default()
                },
            )
        })
        .collect();
    Paragraph::new(lines).render(inner, buf);
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
