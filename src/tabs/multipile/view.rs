//! The Multi-pile Nim tab: the piles and the game on the left; on the right one of five
//! views (edges with Q-values, a self-play game's updates, training charts, the Q-table,
//! the network's outputs); the opponent menu over both while it is open.
//!
//! This file lays the tab out and draws the game pane, the right-hand pane's frame and the
//! menu; the views inside that pane are drawn by `q_views` (the Q-learning agent's),
//! `training_view` and `net_views` (the network's).

use super::net_views::{render_network, render_weights};
use super::q_views::{render_edges, render_table, render_updates};
use super::state::{MultiPileTab, OPPONENTS, Pane, Typed, opponent_name};
use super::symbols;
use super::training_view::render_training;
use super::why::mv_text;
use crate::domain::games::nim::Rule;
use crate::tabkit::side::Side;
use crate::tabkit::text_entry::TextEntry;
use crate::widgets::symbols::{FOCUS, Symbol};
use crate::widgets::{TabView, Theme, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

/// Width of the game pane.
const GAME_WIDTH: u16 = 32;

impl TabView for MultiPileTab {
    fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        render(self, body, buf, theme);
    }

    fn symbols(&self) -> Vec<Symbol> {
        [symbols::NIM, &[FOCUS][..]].concat()
    }

    fn words(&self) -> Vec<crate::widgets::symbols::Gloss> {
        symbols::WORDS.to_vec()
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
            let marker = if chosen { "›" } else { " " };
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
    if let Some(text) = tab.ask_entry.as_ref().map(TextEntry::text) {
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
                if i == cursor { "›" } else { " " },
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
