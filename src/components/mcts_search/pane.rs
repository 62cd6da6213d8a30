//! The tree pane while the search shown is MCTS: stepped, the last phase's lines over the
//! tree as it stands; a record, the tree sorted by visits with the node under the cursor
//! explained; with the outline row a click lands on.

use super::outline;
use super::search::SteppedSearch;
use super::view::SteppedView;
use crate::components::tree_search::pane::{fit, scroll_offset};
use crate::components::tree_search::symbols::TREE_CURSOR;
use crate::widgets::symbols::{Gloss, Symbol, gloss, symbol};
use crate::widgets::{Theme, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

/// The mark of the move played, or of the path being stepped.
pub const CHOSEN: Symbol = symbol("*", "MCTS: move played or path");

/// The exact solver's answer beside a root move: what perfect play gives, which MCTS does
/// not know.
pub const SOLVER: Symbol = symbol(outline::SOLVER_MARK, "exact solver's, not MCTS's");

/// Where the MCTS pane puts its parts: the phase lines (while stepped), the outline, the
/// node explained (a record), each with a rule between.
struct MctsAreas {
    phase: Rect,
    rows: Rect,
    explain: Rect,
}

/// The text the MCTS pane shows beside the outline: the last phase's lines while the
/// search is stepped, else the explanation of the node under the cursor.
fn mcts_words<S: SteppedSearch>(view: &SteppedView<S>) -> Vec<String> {
    if view.live {
        view.stepper.phase_lines()
    } else {
        view.stepper.explain(view.cursor_node(), &view.exact)
    }
}

/// The MCTS pane's layout in `inner`: stepped, the phase's lines on top (all of them, so a
/// comparison is never cut, the outline keeping at least three rows); a record, the
/// outline on top and the node's explanation under it.
fn mcts_areas(words: &[String], live: bool, inner: Rect) -> MctsAreas {
    let wanted = wrapped_rows(words, inner.width);
    if live {
        let phase = wanted.min(inner.height.saturating_sub(4));
        let [phase, _, rows] = Layout::vertical([
            Constraint::Length(phase),
            Constraint::Length(1),
            Constraint::Fill(1),
        ])
        .areas(inner);
        MctsAreas {
            phase,
            rows,
            explain: Rect::default(),
        }
    } else {
        let explain = wanted.min(inner.height / 2);
        let [rows, _, explain] = Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(1),
            Constraint::Length(explain),
        ])
        .areas(inner);
        MctsAreas {
            phase: Rect::default(),
            rows,
            explain,
        }
    }
}

/// Rows `lines` take word-wrapped at `width`, as `Paragraph` with `Wrap` lays them out
/// (greedy, a word longer than a row cut across rows), to size the parts of a pane.
fn wrapped_rows(lines: &[String], width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let rows: usize = lines
        .iter()
        .map(|line| {
            let mut rows = 1;
            let mut used = 0;
            for (i, word) in line.split(' ').enumerate() {
                let w = word.chars().count();
                let need = if i == 0 { w } else { used + 1 + w };
                if need <= width {
                    used = need;
                } else {
                    rows += 1 + w.saturating_sub(1) / width;
                    used = w % width;
                }
            }
            rows
        })
        .sum();
    u16::try_from(rows).unwrap_or(u16::MAX)
}

/// The pane's title: what the search is, with `counter` (the go-to step counter) while
/// it is stepped.
pub fn pane_title<S: SteppedSearch>(view: &SteppedView<S>, counter: Option<&str>) -> String {
    let name = S::NAME;
    match (view.live, counter) {
        // Short, so the counter stays whole in a narrow pane.
        (true, Some(counter)) => format!(" {name}, stepped · {counter}"),
        (true, None) => format!(" Next AI move · {name}, stepped"),
        (false, _) => format!(" Last AI move · {name} tree"),
    }
}

/// The MCTS tree pane under `title`: stepped, what the last phase did over the tree as
/// it stands (the iteration's path unfolded and marked); a record, the tree sorted by
/// visits with the exact value of each root move, and the node under the cursor explained.
pub fn render_mcts<S: SteppedSearch>(
    view: &SteppedView<S>,
    title: &str,
    (focused, predicting): (bool, bool),
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let block = pane_block(title, focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let words = mcts_words(view);
    let areas = mcts_areas(&words, view.live, inner);
    let rule = |above: Rect, buf: &mut Buffer| {
        let at = Rect::new(inner.x, above.bottom(), inner.width, 1).intersection(inner);
        Block::new()
            .borders(ratatui::widgets::Borders::TOP)
            .border_style(theme.border)
            .render(at, buf);
    };
    let styled: Vec<Line> = words
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            if view.live && i == 0 {
                Line::styled(text, theme.dim)
            } else {
                Line::from(text)
            }
        })
        .collect();
    if view.live {
        Paragraph::new(styled)
            .wrap(Wrap { trim: false })
            .render(areas.phase, buf);
        rule(areas.phase, buf);
    } else {
        rule(areas.rows, buf);
        Paragraph::new(styled)
            .wrap(Wrap { trim: false })
            .render(areas.explain, buf);
    }
    render_mcts_rows(view, (focused, predicting), areas.rows, buf, theme);
}

/// The MCTS outline, scrolled so the cursor stays in sight: `*` marks the move played (or
/// the path being stepped), `›` the cursor while the pane has the focus.
fn render_mcts_rows<S: SteppedSearch>(
    view: &SteppedView<S>,
    (focused, predicting): (bool, bool),
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let rows = view.rows_for(predicting);
    let height = usize::from(area.height);
    let cursor = view.folds.cursor.min(rows.len().saturating_sub(1));
    let offset = scroll_offset(view.folds.offset.get(), cursor, height, rows.len());
    view.folds.offset.set(offset);
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(index, row)| {
            let is_cursor = index == cursor && focused;
            let gutter = if is_cursor { TREE_CURSOR.glyph } else { " " };
            let mark = if row.chosen { CHOSEN.glyph } else { " " };
            let mut line = Line::from(vec![
                Span::styled(gutter, theme.key),
                Span::styled(mark, theme.title),
                Span::raw(row.text.clone()),
            ]);
            if is_cursor {
                line = line.patch_style(theme.cursor);
            }
            fit(line, usize::from(area.width))
        })
        .collect();
    Paragraph::new(lines).render(area, buf);
}

/// The outline row a click at `at` in the MCTS pane lands on, if any.
pub fn mcts_click<S: SteppedSearch>(
    view: &SteppedView<S>,
    tree_pane: Rect,
    at: Position,
) -> Option<usize> {
    let inner = Block::bordered().inner(tree_pane);
    let areas = mcts_areas(&mcts_words(view), view.live, inner);
    areas
        .rows
        .contains(at)
        .then(|| view.folds.offset.get() + usize::from(at.y - areas.rows.y))
}

/// UCT's sum, as the tree's UCB column and the pick questions use it.
pub const UCT_WORD: Gloss = gloss(
    "UCB, UCT",
    "How MCTS picks a child on its way down: W/N + c·√(ln N_parent / N), the share of \
     random games won plus a bonus for the rarely tried; the largest is taken. The UCB \
     column shows it as the next selection computes it.",
);
/// The rule before UCT.
pub const UNTRIED_WORD: Gloss = gloss(
    "untried move",
    "A move with no node yet. While a node has one, UCT does not compare: the search takes \
     the first untried move (expansion) and plays a random game from it.",
);
/// N and W/N.
pub const VISITS_WORD: Gloss = gloss(
    "N, W/N",
    "N: the iterations that went through a node. W/N: the share of their random games the \
     side that moved there won. The AI plays the root move with the largest N.",
);

/// The words of a tab with the tree-search and MCTS steppers, for its help.
pub const SEARCH_WORDS: [Gloss; 6] = [
    crate::components::tree_search::symbols::MAX_WORD,
    crate::components::tree_search::symbols::ALPHA_WORD,
    crate::components::tree_search::symbols::BOUND_WORD,
    UCT_WORD,
    UNTRIED_WORD,
    VISITS_WORD,
];
