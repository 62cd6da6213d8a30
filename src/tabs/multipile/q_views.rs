//! The Q-learning agent's views in the right-hand pane: the edges out of a position with
//! their Q-values (the game's position, or one walked to), one self-play game's updates
//! with predict mode's question and grade, and the learned Q-table.

use super::notice::unusable_file;
use super::state::MultiPileTab;
use super::symbols;
use super::why::{mv_text, transition_text};
use crate::domain::games::nim::{Piles, Rule};
use crate::domain::learn::qlearning::Update;
use crate::domain::numbers::thousands;
use crate::domain::solve::nim as solver;
use crate::tabkit::side::Side;
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

// ---- edges ------------------------------------------------------------------------

pub(super) fn render_edges(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
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

pub(super) fn render_updates(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let updates = &tab.q.last_game;
    let alpha = updates.first().map_or(0.5, |u| u.alpha);
    let mut lines = vec![
        Line::styled(
            format!(" Q ← Q + α·(r + max Q(s′,·) − Q), α = {alpha}"),
            theme.dim,
        ),
        Line::styled(" s′: the mover's next turn, after the reply", theme.dim),
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
    let head = Line::styled(format!(" {:>2}. {}", i + 1, transition_text(u)), style);
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

// ---- the Q-table ------------------------------------------------------------------

pub(super) fn render_table(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
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
                "›"
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
