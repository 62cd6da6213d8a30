//! The why overlay: what the AI weighed for a move, laid out the same way on every tab. The
//! moves of the game across the top (the open one bracketed), the position, then one row per
//! legal move with the AI's numbers and the exact answer, the chosen row marked by `▶` as
//! well as by style, then how the move was chosen and where its number came from.

use super::overlay::{clamp_scroll, wrap};
use crate::app::App;
use crate::tabkit::side::Side;
use crate::tabkit::why::{Decision, Why};
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

/// Draws `why` over `area` (the body of the screen).
pub fn render(app: &App, why: &Why, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let (place, records) = why.place();
    let title = why
        .decision()
        .map_or("Why the AI moved", |d| d.title.as_str());
    let mut block = Block::bordered()
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(format!(" {title} "), theme.title));
    block = if records > 1 {
        block.title_bottom(
            Line::from(format!(
                " AI move {place} of {records} · ←→ earlier/later · ↑↓ scroll · Esc closes "
            ))
            .right_aligned(),
        )
    } else {
        block.title_bottom(Line::from(" ↑↓ scroll · Esc closes ").right_aligned())
    };
    let inner = block.inner(area);
    Clear.render(area, buf);
    block.render(area, buf);
    let lines = lines(why, usize::from(inner.width), theme);
    let scroll = clamp_scroll(&app.overlay_scroll, lines.len(), inner.height);
    Paragraph::new(lines).scroll((scroll, 0)).render(inner, buf);
}

/// What the exact answer column means, said once under the table on every tab.
const EXACT_ANSWER: &str =
    "Exact answer: perfect play; N counts the mover's own moves, this one included";

/// Every line of the overlay at `width`, before scrolling.
fn lines<'a>(why: &'a Why, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = move_list(why, width, theme);
    let Some(decision) = why.decision() else {
        lines.push(Line::styled(
            "The AI kept no record of this move",
            theme.dim,
        ));
        return lines;
    };
    lines.extend(decision.position.iter().map(|l| Line::raw(l.as_str())));
    lines.push(Line::raw(""));
    lines.extend(table(decision, why.asked, theme));
    if decision.options.iter().any(|o| o.verdict.is_some()) {
        for line in wrap(EXACT_ANSWER, width, "  ") {
            lines.push(Line::styled(line, theme.dim));
        }
    }
    lines.push(Line::raw(""));
    for line in wrap(&format!("How: {}", decision.how), width, "  ") {
        lines.push(Line::raw(line));
    }
    if let Some((first, rest)) = decision.origin.split_first() {
        for line in wrap(&format!("From: {first}"), width, "  ") {
            lines.push(Line::raw(line));
        }
        // Each further origin line under the first, indented (wrap drops leading spaces).
        for more in rest {
            for line in wrap(more, width.saturating_sub(2), "  ") {
                lines.push(Line::raw(format!("  {line}")));
            }
        }
    }
    lines
}

/// The game's moves, the open one in brackets, wrapped at `width`; nothing for a position
/// asked about (one record and no game).
fn move_list<'a>(why: &Why, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    if why.moves.len() < 2 {
        return Vec::new();
    }
    let words: Vec<String> = why
        .moves
        .iter()
        .enumerate()
        .map(|(i, played)| {
            let who = match played.by {
                Side::Human => "you",
                Side::Ai => "AI",
            };
            if i == why.open {
                format!("[{who} {}]", played.text)
            } else {
                format!("{who} {}", played.text)
            }
        })
        .collect();
    let mut lines: Vec<Line> = wrap(&format!("Moves: {}", words.join(" · ")), width, "  ")
        .into_iter()
        .map(|l| Line::styled(l, theme.dim))
        .collect();
    lines.push(Line::raw(""));
    lines
}

/// One row per legal move under a heading: the move, the AI's numbers, the exact answer.
fn table<'a>(decision: &Decision, asked: bool, theme: &Theme) -> Vec<Line<'a>> {
    let marker = if asked {
        "◀ would play"
    } else {
        "◀ played"
    };
    let mut heading = vec!["move".to_string()];
    heading.extend(decision.columns.iter().cloned());
    heading.push("exact answer".to_string());
    let rows: Vec<Vec<String>> = decision
        .options
        .iter()
        .map(|option| {
            let mut row = vec![option.mv.clone()];
            row.extend(option.numbers.iter().cloned());
            row.push(option.verdict.map_or_else(String::new, |v| v.to_string()));
            row
        })
        .collect();
    let widths: Vec<usize> = (0..heading.len())
        .map(|c| {
            std::iter::once(&heading)
                .chain(&rows)
                .filter_map(|row| row.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let layout = |row: &[String]| {
        row.iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                // The move and the exact answer read left to right; numbers line up right.
                if c == 0 || c + 1 == widths.len() {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut lines = vec![Line::styled(format!("  {}", layout(&heading)), theme.dim)];
    for (option, row) in decision.options.iter().zip(&rows) {
        if option.chosen {
            lines.push(Line::styled(
                format!("▶ {}  {marker}", layout(row)),
                theme.current,
            ));
        } else {
            lines.push(Line::raw(format!("  {}", layout(row))));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::solve::verdict::Verdict;
    use crate::tabkit::why::{Played, Weighed};

    fn record() -> Decision {
        let weighed = |mv: &str, q: &str, verdict, chosen| Weighed {
            mv: mv.to_string(),
            numbers: vec![q.to_string(), "3".to_string()],
            verdict: Some(verdict),
            chosen,
        };
        Decision {
            title: "Q-learning AI at piles 1 2".to_string(),
            position: vec!["piles 1 2".to_string()],
            columns: vec!["Q-value".to_string(), "updates".to_string()],
            options: vec![
                weighed("1-1", "-0.25", Verdict::loses_in_plies(3), false),
                weighed("2-1", "+0.9", Verdict::wins_in_plies(1), true),
            ],
            how: "greedy: the highest Q-value".to_string(),
            origin: vec![
                "Q(2-1) = 0.9 after 3 updates".to_string(),
                "last update: 0.8 + 0.5 × (1 - 0.8)".to_string(),
            ],
        }
    }

    fn text(why: &Why, width: usize) -> Vec<String> {
        lines(why, width, &Theme::new(false))
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn a_record_lays_out_every_move_with_its_numbers_and_marks_the_one_played() {
        let why = Why::asked("piles 1 2", record());
        let text = text(&why, 78);
        assert_eq!(text[0], "piles 1 2");
        assert_eq!(text[2], "  move  Q-value  updates  exact answer");
        assert_eq!(text[3], "  1-1     -0.25        3  loses in 2 moves");
        assert_eq!(
            text[4],
            "▶ 2-1      +0.9        3  wins in 1 move  ◀ would play"
        );
        assert_eq!(text[5], EXACT_ANSWER, "what N counts, said once");
        assert!(text.contains(&"How: greedy: the highest Q-value".to_string()));
        let from = text.iter().position(|l| l.starts_with("From:")).unwrap();
        assert_eq!(text[from], "From: Q(2-1) = 0.9 after 3 updates");
        assert_eq!(text[from + 1], "  last update: 0.8 + 0.5 × (1 - 0.8)");
    }

    #[test]
    fn a_game_lists_its_moves_with_the_open_one_in_brackets() {
        let played = |by, text: &str, decision| Played {
            by,
            text: text.to_string(),
            decision,
        };
        let why = Why::last_ai_move(vec![
            played(Side::Human, "2-2", None),
            played(Side::Ai, "2-1", Some(record())),
        ])
        .unwrap();
        let text = text(&why, 60);
        assert_eq!(text[0], "Moves: you 2-2 · [AI 2-1]");
        assert_eq!(
            text[6],
            "▶ 2-1      +0.9        3  wins in 1 move  ◀ played"
        );
    }

    #[test]
    fn a_record_without_exact_answers_does_not_explain_the_column() {
        let mut record = record();
        for option in &mut record.options {
            option.verdict = None;
        }
        let text = text(&Why::asked("piles 1 2", record), 80);
        assert!(!text.iter().any(|l| l.contains("N counts")), "{text:?}");
    }
}
