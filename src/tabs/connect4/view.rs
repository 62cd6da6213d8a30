//! The Connect Four tab on screen: the board (column numbers, the cursor, the discs, the
//! four that won) and who plays, beside the AI's last search: its summary, the tree as an
//! outline, and what the node under the cursor means.

use super::ai::{Searched, Thought};
use super::outline::{self, Row, RowKind};
use super::state::{Connect4Tab, Focus};
use super::symbols;
use crate::components::mcts_search::pane::{CHOSEN, pane_title, render_mcts};
use crate::components::tree_search;
use crate::components::tree_search::pane::scroll_offset;
use crate::domain::games::connect4::{Disc, HEIGHT, WIDTH, cell};
use crate::tabkit::goto;
use crate::tabkit::side::Side;
use crate::widgets::discs::{disc_glyph, disc_style};
use crate::widgets::symbols::Symbol;
use crate::widgets::{TabView, Theme, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

/// The board pane's width: seven cells of three, and room for the words under them.
const BOARD_WIDTH: u16 = 31;
/// Rows the node explanation keeps at the bottom of the search pane.
const EXPLAIN_ROWS: u16 = 5;

impl TabView for Connect4Tab {
    fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        let [board, search] =
            Layout::horizontal([Constraint::Length(BOARD_WIDTH), Constraint::Fill(1)]).areas(body);
        render_board(self, board, buf, theme);
        render_search(self, search, buf, theme);
    }

    fn click(&self, body: Rect, at: Position) -> Option<super::action::Action> {
        let [board, _] =
            Layout::horizontal([Constraint::Length(BOARD_WIDTH), Constraint::Fill(1)]).areas(body);
        let inner = board.inner(ratatui::layout::Margin::new(1, 1));
        if !inner.contains(at) || at.y > inner.y + HEIGHT as u16 {
            return None;
        }
        let column = (at.x - inner.x) / 3;
        (usize::from(column) < WIDTH).then_some(super::action::Action::Drop(column as u8 + 1))
    }

    fn symbols(&self) -> Vec<Symbol> {
        let mut all = symbols::ALL.to_vec();
        let stepped: &[Symbol] = if self.tree_search.is_some() {
            tree_search::symbols::STEPPED_TREE
        } else if self.stepping.is_some() {
            &[tree_search::symbols::TREE_CURSOR, CHOSEN]
        } else {
            &[]
        };
        for symbol in stepped {
            if all.iter().all(|shown| shown.glyph != symbol.glyph) {
                all.push(*symbol);
            }
        }
        all
    }

    fn words(&self) -> Vec<crate::widgets::symbols::Gloss> {
        symbols::words()
    }
}

fn render_board(tab: &Connect4Tab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = pane_block(" Board", tab.focus == Focus::Board, theme);
    let mut lines = Vec::new();
    let picking = tab.focus == Focus::Board && tab.human_to_move();
    lines.push(Line::from(
        (0..WIDTH)
            .map(|column| {
                let style = if picking && column == tab.cursor {
                    theme.board_cursor.add_modifier(Modifier::BOLD)
                } else {
                    theme.dim
                };
                Span::styled(format!(" {} ", column + 1), style)
            })
            .collect::<Vec<_>>(),
    ));
    let four = tab.board.winning_line();
    for row in (0..HEIGHT).rev() {
        let spans: Vec<Span> = (0..WIDTH)
            .map(|column| match tab.board.disc(column, row) {
                None => Span::styled(format!(" {} ", symbols::EMPTY.glyph), theme.dim),
                Some(disc) if four & cell(column, row) != 0 => Span::styled(
                    format!("[{}]", disc_glyph(disc)),
                    disc_style(disc, theme).patch(theme.win),
                ),
                Some(disc) => {
                    Span::styled(format!(" {} ", disc_glyph(disc)), disc_style(disc, theme))
                }
            })
            .collect();
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(""));
    lines.extend(players(tab, theme));
    lines.push(Line::from(""));
    lines.push(turn_line(tab, theme));
    let t = &tab.tally;
    lines.push(Line::styled(
        format!("You {} · AI {} · draws {}", t.won, t.lost, t.drawn),
        theme.dim,
    ));
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block)
        .render(area, buf);
}

/// Who plays which colour.
fn players(tab: &Connect4Tab, theme: &Theme) -> Vec<Line<'static>> {
    let ai = tab.human.other();
    vec![
        Line::from(vec![
            Span::raw("You: "),
            Span::styled(disc_glyph(tab.human), disc_style(tab.human, theme)),
            Span::raw(format!(" {}", tab.human.name())),
            Span::styled(
                if tab.human == Disc::Red {
                    " (opens)"
                } else {
                    ""
                },
                theme.dim,
            ),
        ]),
        Line::from(vec![
            Span::raw("AI:  "),
            Span::styled(disc_glyph(ai), disc_style(ai, theme)),
            Span::raw(format!(" {}", tab.ai_words())),
        ]),
    ]
}

/// Whose turn it is, or how the game ended.
fn turn_line(tab: &Connect4Tab, theme: &Theme) -> Line<'static> {
    let board = &tab.board;
    if board.is_over() {
        let text = if !board.is_won() {
            "A draw: the board is full.".to_string()
        } else if tab.side_of(board.player_to_move().other()) == Side::Human {
            "Four in a row: you win!".to_string()
        } else {
            "Four in a row: the AI wins.".to_string()
        };
        return Line::styled(text, theme.title);
    }
    if tab.stepping.is_some() {
        return Line::styled("MCTS waits: Space steps it", theme.info);
    }
    if tab.tree_search_waits() {
        return Line::styled("Alpha-beta waits: Space steps it", theme.info);
    }
    if let Some(thinking) = &tab.thinking {
        let doing = if tab.waits_for_place() {
            crate::tabkit::background::WAITING_TO_THINK
        } else {
            "thinking"
        };
        return Line::styled(
            format!("The AI ({}) is {doing}…", thinking.ai.shown()),
            theme.info,
        );
    }
    Line::from(vec![
        Span::styled("Your move: ", theme.title),
        Span::raw("1-7, or ←→ Enter"),
    ])
}

fn render_search(tab: &Connect4Tab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let focused = tab.focus == Focus::Tree;
    if tab.stepping.is_some() {
        return render_stepper(tab, area, buf, theme);
    }
    if let Some(view) = &tab.tree_search {
        return tree_search::pane::render_tree(
            Some(view),
            Vec::new(),
            focused,
            tab.predict.is_some(),
            area,
            buf,
            theme,
        );
    }
    let Some((searched_board, thought)) = &tab.last else {
        let block = pane_block(" The AI's last search", focused, theme);
        Paragraph::new(vec![
            Line::from("The AI has not moved yet."),
            Line::from(""),
            Line::styled(
                "When it has, its search shows here: alpha-beta's tree with every node's window and value, the solver's verdict beside each column.",
                theme.dim,
            ),
        ])
        .wrap(Wrap { trim: false })
        .block(block)
        .render(area, buf);
        return;
    };
    let title = format!(" The AI's last search: {}", thought.ai.shown());
    let block = pane_block(&title, focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    // Wrapped, not cut: the summary is the search's result and what it cost.
    let width = usize::from(inner.width).max(1);
    let summary: Vec<Line> = outline::summary(thought)
        .iter()
        .flat_map(|s| textwrap::wrap(s, width))
        .map(|s| Line::styled(s.into_owned(), theme.dim))
        .collect();
    let summary_rows = summary.len() as u16;
    let [top, body] =
        Layout::vertical([Constraint::Length(summary_rows), Constraint::Fill(1)]).areas(inner);
    Paragraph::new(summary).render(top, buf);
    // The outline is built once a frame: the explanation and the tree both read it.
    let rows = tab.tree_rows();
    let node = rows.get(tab.folds.cursor).map_or(0, |r| r.node);
    let explained = match &thought.searched {
        Searched::AlphaBeta(found)
        | Searched::GaveUp {
            fallback: found, ..
        } => outline::explain(found, node, searched_board.player_to_move()),
        Searched::Mcts(mcts) => outline::explain_mcts(mcts, node, thought),
        _ => return render_columns(thought, searched_board, body, buf, theme),
    };
    let [tree, explain] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(EXPLAIN_ROWS)]).areas(body);
    render_tree(tab, &rows, tree, buf, theme);
    Paragraph::new(explained.into_iter().map(Line::from).collect::<Vec<_>>())
        .wrap(Wrap { trim: false })
        .block(
            Block::new()
                .borders(Borders::TOP)
                .border_style(theme.border),
        )
        .render(explain, buf);
}

/// The stepped MCTS, as the component draws it, with the step counter in the title.
fn render_stepper(tab: &Connect4Tab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let Some(view) = &tab.stepping else {
        return;
    };
    let counter = tab.step_count().map(|(at, total)| goto::counter(at, total));
    let title = pane_title(view, counter.as_deref());
    let shown = (tab.focus == Focus::Tree, tab.predict.is_some());
    render_mcts(view, &title, shown, area, buf, theme);
}

/// The outline, scrolled so the cursor stays in sight.
fn render_tree(tab: &Connect4Tab, rows: &[Row], area: Rect, buf: &mut Buffer, theme: &Theme) {
    let height = usize::from(area.height).max(1);
    let cursor = tab.folds.cursor.min(rows.len().saturating_sub(1));
    let offset = scroll_offset(tab.folds.offset.get(), cursor, height, rows.len());
    tab.folds.offset.set(offset);
    let focused = tab.focus == Focus::Tree;
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(index, row)| {
            let mut style = match row.kind {
                RowKind::Inner => Style::new(),
                RowKind::Horizon => theme.dim,
                RowKind::Finished => theme.value(row.value),
                RowKind::TableHit => theme.info,
            };
            if index == cursor && focused {
                style = style.patch(theme.cursor);
            }
            let mark = if row.chosen {
                symbols::CHOSEN.glyph
            } else {
                " "
            };
            Line::from(vec![
                Span::styled(mark, theme.title),
                Span::styled(row.text.clone(), style),
            ])
        })
        .collect();
    Paragraph::new(lines).render(area, buf);
}

/// The solver's or chance's choice: every column with its score and verdict.
fn render_columns(
    thought: &Thought,
    board: &crate::domain::games::connect4::Board,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let mut lines = vec![Line::from("")];
    for column in board.open_columns() {
        let score = match &thought.searched {
            Searched::Solved { scores, .. } => scores[column].map(|s| format!("score {s:+3}")),
            _ => None,
        };
        let verdict = thought
            .verdicts
            .of(column)
            .map_or_else(String::new, |v| v.to_string());
        let chosen = column == usize::from(thought.column);
        let text = format!(
            "{}col {}  {}  {}",
            if chosen { symbols::CHOSEN.glyph } else { " " },
            column + 1,
            score.unwrap_or_default(),
            verdict
        );
        lines.push(Line::styled(
            text,
            if chosen { theme.title } else { Style::new() },
        ));
    }
    if let Searched::Solved { nodes, source, .. } = &thought.searched {
        lines.push(Line::from(""));
        lines.push(Line::styled(
            format!(
                "Score: 0 a draw, else ±(22 − the winner's discs when it wins); {}.",
                super::ai::searched_words(*nodes, *source)
            ),
            theme.dim,
        ));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(area, buf);
}
