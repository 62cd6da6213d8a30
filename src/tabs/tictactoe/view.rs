//! The Tic-tac-toe tab: the board (or the Game of Eight), the search counters with the
//! position at the tree cursor, and the game-tree outline (minimax's or alpha-beta's tree,
//! or MCTS's with its phases while it is stepped).
//!
//! This file lays the three panes out, draws the move-order comparison over them and reads
//! a click; each pane draws itself in its own file (`game_pane`, `search_pane`,
//! `tree_pane`, `mcts_pane`), the games through `describe`.

use super::action::Action;
use super::game_pane::{
    board_cells, board_origin, eight_buttons, render_editor, render_eight, render_tictactoe,
};
use super::keys;
use super::mcts::SearchKind;
use super::search_pane::{Setting, render_info};
use super::state::{Comparison, Focus, GameKind, TicTacToeTab};
use super::symbols;
use crate::components::mcts_search::pane::{mcts_click, pane_title, render_mcts};
use crate::components::tree_search::Describe;
use crate::components::tree_search::pane::render_tree;
use crate::tabkit::keymap::KeyGroup;
use crate::widgets::symbols::{FOCUS, Symbol};
use crate::widgets::{TabView, Theme};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

/// The three panes of the tab.
struct Panes {
    game: Rect,
    info: Rect,
    tree: Rect,
}

impl Panes {
    fn new(body: Rect) -> Self {
        let left_width = (u32::from(body.width) * 2 / 5).clamp(32, 40) as u16;
        let [left, tree] =
            Layout::horizontal([Constraint::Length(left_width), Constraint::Fill(1)]).areas(body);
        let [game, info] =
            Layout::vertical([Constraint::Length(11), Constraint::Fill(1)]).areas(left);
        Self { game, info, tree }
    }
}

impl TabView for TicTacToeTab {
    fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        render(self, body, buf, theme);
    }

    fn click(&self, body: Rect, at: Position) -> Option<Action> {
        click(self, body, at)
    }

    fn scroll(&self, body: Rect, at: Position, down: bool) -> Option<Action> {
        if self.comparison.is_some() {
            return None;
        }
        Panes::new(body)
            .tree
            .contains(at)
            .then_some(Action::TreeCursor(if down { 3 } else { -3 }))
    }

    fn symbols(&self) -> Vec<Symbol> {
        [&[FOCUS][..], symbols::TREE].concat()
    }

    fn words(&self) -> Vec<crate::widgets::symbols::Gloss> {
        symbols::words()
    }
}

fn render(tab: &TicTacToeTab, body: Rect, buf: &mut Buffer, theme: &Theme) {
    let panes = Panes::new(body);
    let tree_focused = tab.focus == Focus::Tree;
    match tab.game {
        GameKind::TicTacToe if tab.editor.is_some() => {
            if let Some(editor) = &tab.editor {
                render_editor(editor, panes.game, buf, theme);
            }
        }
        GameKind::TicTacToe => {
            render_tictactoe(&tab.tictactoe, !tree_focused, panes.game, buf, theme);
        }
        GameKind::Eight => render_eight(&tab.eight, !tree_focused, panes.game, buf, theme),
    }
    crate::shown!(tab, |game| {
        let autoplay = tab.autoplay.on.then(|| tab.autoplay.speed());
        let setting = Setting {
            algorithm: tab.algorithm,
            step_mode: tab.step_mode,
            autoplay,
            predict: tab.predict.as_ref().map(|p| p.score),
            step: tab.step_count(),
        };
        render_info(game, &setting, panes.info, buf, theme);
        let mcts_on = tab.algorithm == SearchKind::Mcts;
        let predicting = tab.predict.is_some();
        // The tree pane shows MCTS's tree when the search shown is one.
        match &game.mcts {
            Some(view) => {
                let title = pane_title(view, None);
                let predicting = tab.predict.is_some();
                render_mcts(
                    view,
                    &title,
                    (tree_focused, predicting),
                    panes.tree,
                    buf,
                    theme,
                );
            }
            None => render_tree(
                game.search.as_ref(),
                empty_tree_hint(game, mcts_on, theme),
                tree_focused,
                predicting,
                panes.tree,
                buf,
                theme,
            ),
        }
    });
    if let Some(comparison) = &tab.comparison {
        render_comparison(comparison, body, buf, theme);
    }
}

/// The keys of `group` as a footer (`o next order · Esc close`): written from the table
/// that drives them, so a panel names only keys that work in it.
fn key_footer(group: &KeyGroup<Action>) -> String {
    let keys: Vec<String> = group
        .bindings
        .iter()
        .map(|binding| format!("{} {}", binding.label, binding.hint))
        .collect();
    format!(" {} ", keys.join(" · "))
}

/// The move-order comparison over the whole body: every order's counts, its keys below.
fn render_comparison(comparison: &Comparison, body: Rect, buf: &mut Buffer, theme: &Theme) {
    let title = format!(
        " Move order: {} ",
        crate::components::tree_search::pane::order_name(comparison.order)
    );
    let block = Block::bordered()
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(title, theme.title))
        .title_bottom(Line::from(key_footer(&keys::COMPARISON)).right_aligned());
    let inner = block.inner(body);
    Clear.render(body, buf);
    block.render(body, buf);
    let lines: Vec<Line> = comparison.text.lines().map(Line::raw).collect();
    // A column of space inside the border where the widest row (70) still fits beside it.
    let text = if inner.width > 71 {
        inner.inner(Margin::new(1, 0))
    } else {
        inner
    };
    Paragraph::new(lines).render(text, buf);
}

/// What a click in the tab's body means.
fn click(tab: &TicTacToeTab, body: Rect, at: Position) -> Option<Action> {
    if tab.comparison.is_some() {
        // The comparison covers the panes: a click may start a selection, it plays nothing.
        return None;
    }
    let panes = Panes::new(body);
    if panes.game.contains(at) {
        let targets: &[Rect] = match tab.game {
            GameKind::TicTacToe => &board_cells(board_origin(panes.game)),
            GameKind::Eight => &eight_buttons(panes.game),
        };
        // Cells and buttons are numbered from 1 in both games.
        return targets
            .iter()
            .position(|r| r.contains(at))
            .map(|i| Action::PlayCell(i as u8 + 1));
    }
    if let Some(row) = crate::shown!(tab, |game| game
        .mcts
        .as_ref()
        .map(|view| mcts_click(view, panes.tree, at)))
    {
        return row.map(Action::TreeClick);
    }
    let inner = Block::bordered().inner(panes.tree);
    if inner.contains(at) {
        let scroll = crate::shown!(tab, |game| game
            .search
            .as_ref()
            .map(|v| v.tree.scroll.get()));
        if let Some(scroll) = scroll {
            let line = scroll + usize::from(at.y - inner.y);
            return Some(Action::TreeClick(line));
        }
    }
    None
}

/// What the empty tree pane says will show there, for the algorithm picked (`mcts_on`:
/// MCTS's tree, which `t` does not search).
fn empty_tree_hint<G: Describe>(
    _: &super::game::Match<G>,
    mcts_on: bool,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let m_key = Line::from(vec![
        Span::styled(" m", theme.key),
        Span::raw("  step through each AI search"),
    ]);
    if mcts_on {
        return vec![
            Line::raw(" The AI's MCTS tree shows here once it moves:"),
            Line::raw(" each move's visits N, W/N and UCB1, beside"),
            Line::raw(" its exact value with perfect play."),
            Line::raw(""),
            m_key,
        ];
    }
    vec![
        Line::raw(" The AI's search shows here once it moves:"),
        Line::raw(" every node it visits, with its value."),
        Line::raw(format!(
            " A line {}: {}.",
            G::NODE_LABEL.glyph,
            G::NODE_LABEL.meaning
        )),
        Line::raw(""),
        Line::from(vec![
            Span::styled(" t", theme.key),
            Span::raw("  search your own position now"),
        ]),
        m_key,
    ]
}
