//! The Tic-tac-toe tab: the board (or the Game of Eight), the search counters with the
//! position at the tree cursor, and the game-tree outline (minimax's or alpha-beta's tree,
//! or MCTS's with its phases while it is stepped).

use super::action::Action;
use super::editor::Editor;
use super::game::{Match, Playable, SearchView, Tally};
use super::keys;
use super::mcts::{MctsView, SearchKind};
use super::state::{Comparison, Focus, GameKind, TicTacToeTab};
use super::symbols;
use super::tree::{LineKind, TreeLine};
use crate::domain::games::eight::{Eight, TARGET};
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::games::{Game, Outcome};
use crate::domain::numbers::{signed, thousands};
use crate::domain::prediction::Score;
use crate::domain::search::predict::Question;
use crate::domain::search::{Algorithm, CutoffKind, NodeId, Stepper, TreeNode};
use crate::frame::goto;
use crate::frame::keymap::KeyGroup;
use crate::frame::mcts_outline;
use crate::frame::side::Side;
use crate::widgets::symbols::{FOCUS, Symbol};
use crate::widgets::{TabView, Theme, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, BorderType, Clear, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState,
    StatefulWidget, Widget, Wrap,
};

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

/// How a game draws itself beyond what [`Playable`] says.
trait Describe: Playable {
    /// How a node of this game's tree is labelled, for the empty tree pane's example.
    const NODE_LABEL: Symbol;
    /// A picture of the position in three lines or fewer, for the node under the tree
    /// cursor (its notes go beside it, so it stays narrow).
    fn mini(&self, theme: &Theme) -> Vec<Line<'static>>;
    /// The move `mv` from `self` in words (`after X plays 2`), for the cursor's notes.
    fn after(&self, mv: u8) -> String;
    /// How a finished game is said in the tree (`X wins`).
    fn result_text(outcome: Outcome<Self::Player>) -> String {
        match outcome {
            Outcome::Winner(p) => format!("{} wins", Self::player_name(p)),
            Outcome::Draw => "draw".into(),
        }
    }
}

fn mark_span(mark: Option<Mark>, empty: String, theme: &Theme) -> Span<'static> {
    match mark {
        Some(Mark::X) => Span::styled("X", theme.x),
        Some(Mark::O) => Span::styled("O", theme.o),
        None => Span::styled(empty, theme.dim),
    }
}

impl Describe for Board {
    const NODE_LABEL: Symbol = symbols::NODE_LABEL;

    fn mini(&self, theme: &Theme) -> Vec<Line<'static>> {
        (0..3u8)
            .map(|row| {
                let mut spans = vec![Span::raw(" ")];
                for col in 0..3u8 {
                    spans.push(mark_span(self.cell(row * 3 + col), "·".into(), theme));
                    spans.push(Span::raw(" "));
                }
                Line::from(spans)
            })
            .collect()
    }

    fn after(&self, cell: u8) -> String {
        format!("after {} plays {}", self.to_move(), cell + 1)
    }
}

impl Describe for Eight {
    const NODE_LABEL: Symbol = symbols::EIGHT_NODE_LABEL;

    fn mini(&self, theme: &Theme) -> Vec<Line<'static>> {
        let barred = self.last().map_or(" none".into(), |l| l.to_string());
        vec![
            Line::from(format!(" sum {} of {TARGET}", self.sum())),
            Line::from(vec![Span::raw(" ✗"), Span::styled(barred, theme.dim)]),
        ]
    }

    fn after(&self, n: u8) -> String {
        format!("after {} adds {n}", Self::player_name(self.to_move()))
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
        let autoplay = tab.autoplay.then(|| tab.autoplay_speed());
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
        render_tree(
            game,
            tree_focused,
            mcts_on,
            predicting,
            panes.tree,
            buf,
            theme,
        );
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
        super::orders::short_name(comparison.order)
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

/// Games won and lost, and drawn for a game that can end in a draw.
fn tally_line<G: Playable>(tally: Tally) -> Line<'static> {
    let drawn = if G::DRAWS {
        format!("  drawn {}", tally.drawn)
    } else {
        String::new()
    };
    Line::from(format!(" won {}  lost {}{drawn}", tally.won, tally.lost))
}

fn turn_line<G: Playable>(game: &Match<G>, theme: &Theme) -> Line<'static> {
    match game.position.outcome() {
        Some(Outcome::Winner(p)) if p == game.human => Line::styled(" ★ You won!", theme.win),
        Some(Outcome::Winner(_)) => Line::styled(" ✗ The AI won", theme.error),
        Some(Outcome::Draw) => Line::styled(" = Draw", theme.title),
        None if game.awaiting_step() => Line::styled(" AI's turn: step its search", theme.key),
        None if game.ai_to_move() => Line::styled(" AI is thinking…", theme.key),
        None => Line::styled(" Your move", theme.info),
    }
}

/// The cell rectangles of the big board drawn at `origin` (top-left of the grid).
fn board_cells(origin: Position) -> [Rect; 9] {
    std::array::from_fn(|i| {
        let (row, col) = (i as u16 / 3, i as u16 % 3);
        Rect::new(origin.x + col * 6, origin.y + row * 2, 5, 1)
    })
}

fn board_origin(game_pane: Rect) -> Position {
    Position::new(game_pane.x + 2, game_pane.y + 3)
}

fn render_tictactoe(
    game: &Match<Board>,
    focused: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let human = game.human;
    let block = pane_block(" Tic-tac-toe", focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let header = Line::from(vec![
        Span::raw(" You "),
        Span::styled(
            human.to_string(),
            if human == Mark::X { theme.x } else { theme.o },
        ),
        Span::raw("  vs  AI "),
        Span::styled(
            human.other().to_string(),
            if human == Mark::X { theme.o } else { theme.x },
        ),
    ]);
    let mut lines = vec![header, Line::raw("")];
    lines.extend(std::iter::repeat_n(Line::raw(""), 5));
    lines.push(turn_line(game, theme));
    lines.push(tally_line::<Board>(game.tally));
    Paragraph::new(lines).render(inner, buf);

    let board = game.position;
    let win = board.winning_line();
    let show_cursor = focused && game.position.outcome().is_none() && !game.ai_to_move();
    let cells = board_cells(board_origin(area));
    for (i, rect) in cells.iter().enumerate() {
        let cell = i as u8;
        let mut span = mark_span(board.cell(cell), (i + 1).to_string(), theme);
        if win.is_some_and(|line| line.contains(&cell)) {
            span = span.patch_style(theme.win);
        }
        let mut style = span.style;
        if show_cursor && game.cursor == cell {
            style = style.patch(theme.board_cursor);
        }
        let text = format!("  {}  ", span.content);
        put(buf, inner, rect.x, rect.y, &text, style);
    }
    render_move_list(game, inner, board_origin(area), buf, theme);
    render_grid(inner, board_origin(area), buf, theme);
}

/// The game's moves to the right of the board, a numbered pair a line (a game of
/// tic-tac-toe has at most nine moves, so the whole game fits beside the board).
fn render_move_list(
    game: &Match<Board>,
    clip: Rect,
    grid: Position,
    buf: &mut Buffer,
    theme: &Theme,
) {
    if game.moves.is_empty() {
        return;
    }
    let x = grid.x + 19;
    put(buf, clip, x, grid.y - 1, "moves", theme.dim);
    for (pair, turns) in game.moves.chunks(2).enumerate() {
        let texts: Vec<&str> = turns.iter().map(|t| t.text.as_str()).collect();
        let line = format!("{}. {}", pair + 1, texts.join(" "));
        put(buf, clip, x, grid.y + pair as u16, &line, Style::default());
    }
}

/// The lines between the cells of the big board drawn at `grid`.
fn render_grid(clip: Rect, grid: Position, buf: &mut Buffer, theme: &Theme) {
    for row in 0..3u16 {
        for sep in 0..2u16 {
            let x = grid.x + 5 + sep * 6;
            put(buf, clip, x, grid.y + row * 2, "│", theme.border);
        }
        if row < 2 {
            put(
                buf,
                clip,
                grid.x,
                grid.y + row * 2 + 1,
                "─────┼─────┼─────",
                theme.border,
            );
        }
    }
}

/// The position editor in place of the board: the draft with its cursor, the counts, and
/// the side to move or what is wrong with the draft.
fn render_editor(editor: &Editor, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = pane_block(" Position editor", true, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let (x, o) = editor.counts();
    let status = editor.status();
    let status_style = if status.starts_with('✗') {
        theme.error
    } else {
        theme.info
    };
    let mut lines = vec![
        Line::from(format!(" Set up a board: {x} X, {o} O")),
        Line::raw(""),
    ];
    lines.extend(std::iter::repeat_n(Line::raw(""), 5));
    lines.push(Line::styled(format!(" {status}"), status_style));
    lines.push(Line::styled(" Space: empty  c: clear all", theme.dim));
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
    let grid = board_origin(area);
    for (i, rect) in board_cells(grid).iter().enumerate() {
        let mark = editor.cells[i];
        let span = mark_span(mark, (i + 1).to_string(), theme);
        let mut style = span.style;
        if editor.cursor as usize == i {
            style = style.patch(theme.board_cursor);
        }
        let text = format!("  {}  ", span.content);
        put(buf, inner, rect.x, rect.y, &text, style);
    }
    render_grid(inner, grid, buf, theme);
    let cursor = editor.cursor;
    let hint = format!("cell {}", cursor + 1);
    put(buf, inner, grid.x + 19, grid.y, &hint, theme.dim);
}

fn put(buf: &mut Buffer, clip: Rect, x: u16, y: u16, text: &str, style: Style) {
    if clip.contains(Position::new(x, y)) {
        let room = usize::from(clip.right() - x);
        buf.set_stringn(x, y, text, room, style);
    }
}

/// Where the three number buttons of Eight are drawn.
fn eight_buttons(game_pane: Rect) -> [Rect; 3] {
    std::array::from_fn(|i| Rect::new(game_pane.x + 11 + i as u16 * 5, game_pane.y + 5, 3, 1))
}

fn render_eight(game: &Match<Eight>, focused: bool, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = pane_block(" Game of Eight", focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let position = game.position;
    let filled = usize::from(position.sum().min(TARGET));
    let over = usize::from(position.sum().saturating_sub(TARGET));
    let bar = format!(
        " [{}{}{}]",
        "█".repeat(filled),
        "·".repeat(usize::from(TARGET) - filled),
        "▲".repeat(over)
    );
    let seat = |s| Eight::player_name(s);
    let history: Vec<String> = game
        .moves
        .iter()
        .map(|turn| {
            let who = if turn.by == Side::Human { "You" } else { "AI" };
            format!("{who} {}", turn.text)
        })
        .collect();
    let lines = vec![
        Line::from(format!(
            " You {} · AI {}",
            seat(game.human),
            seat(game.human.other())
        )),
        Line::from(vec![
            Span::raw(format!(" sum {} ", position.sum())),
            Span::styled(bar, theme.key),
        ]),
        Line::styled(" reach 8 to win, past 8 loses;", theme.dim),
        Line::styled(" the last number is barred", theme.dim),
        match game.why_over() {
            Some(why) => Line::styled(format!(" {why}"), theme.title),
            None => Line::raw(" choose:"),
        },
        Line::raw(""),
        Line::styled(format!(" {}", tail(&history.join(" "), 26)), theme.dim),
        turn_line(game, theme),
        tally_line::<Eight>(game.tally),
    ];
    Paragraph::new(lines).render(inner, buf);
    if position.outcome().is_some() {
        // Once the game is over there is nothing to choose: no buttons.
        return;
    }
    let show_cursor = focused && position.outcome().is_none() && !game.ai_to_move();
    for (i, rect) in eight_buttons(area).iter().enumerate() {
        let n = i as u8 + 1;
        let barred = position.last() == Some(n);
        let mut style = if barred { theme.pruned } else { theme.key };
        if show_cursor && game.cursor == n {
            style = style.patch(theme.board_cursor);
        }
        let text = if barred {
            format!("✗{n} ")
        } else {
            format!("[{n}]")
        };
        put(buf, inner, rect.x, rect.y, &text, style);
    }
}

/// The last `width` characters of `text`, with an ellipsis when cut.
fn tail(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        text.to_string()
    } else {
        let kept: String = text.chars().skip(count - width + 1).collect();
        format!("…{kept}")
    }
}

/// How the tab is set to search, for the Search pane's heading.
struct Setting {
    algorithm: SearchKind,
    step_mode: bool,
    /// Autoplay's speed while it runs.
    autoplay: Option<String>,
    /// Predict mode's score while it is on.
    predict: Option<Score>,
    /// The stepper's step counter, while a search is shown.
    step: Option<(u64, Option<u64>)>,
}

/// The Search pane's heading: the algorithm the counters below belong to, and how the AI
/// is set to search next when `a` changed it since.
fn info_heading<G: Describe>(game: &Match<G>, setting: &Setting, theme: &Theme) -> Line<'static> {
    let shown = match (&game.search, &game.mcts) {
        (Some(view), _) => Some(SearchKind::from_algorithm(view.stepper.algorithm())),
        (None, Some(_)) => Some(SearchKind::Mcts),
        (None, None) => None,
    };
    if let Some(shown) = shown.filter(|&s| s != setting.algorithm) {
        return Line::from(vec![
            Span::styled(format!(" {} search", shown.short()), theme.title),
            Span::styled(format!(" · next: {}", setting.algorithm.short()), theme.dim),
        ]);
    }
    let mode = match &setting.autoplay {
        Some(speed) => format!("auto {speed}"),
        None if setting.step_mode => "step mode".into(),
        None => "instant".into(),
    };
    Line::from(vec![
        Span::styled(format!(" AI: {}", setting.algorithm.name()), theme.title),
        Span::styled(format!(" · {mode}"), theme.dim),
    ])
}

fn render_info<G: Describe>(
    game: &Match<G>,
    setting: &Setting,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let title = match setting.step {
        Some((at, total)) => format!(" Search · {}", goto::counter(at, total)),
        None => " Search".into(),
    };
    let block = pane_block(&title, false, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let [heading, inner] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    info_heading(game, setting, theme).render(heading, buf);
    if let Some(view) = &game.mcts {
        Paragraph::new(mcts_info_lines(view, setting.predict, theme)).render(inner, buf);
        return;
    }
    let Some(view) = &game.search else {
        let text = vec![Line::raw(" No search yet.")];
        Paragraph::new(text).render(inner, buf);
        return;
    };
    Paragraph::new(info_lines(view, setting.predict, theme)).render(inner, buf);
}

/// What a waiting prediction hides of a node, in predict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hide {
    /// Nothing: the node as it stands.
    Nothing,
    /// Its window shows as it was entered: the α or β the child just moved is the next
    /// question's answer (a cut-off question's node).
    Window,
    /// Its value and window: the question asks for one of them.
    All,
    /// Its moves still to search: the question asks which of them a cut-off skips.
    Pending,
}

/// The node a waiting prediction hides something of, and what, in predict mode.
fn hidden_node<G: Describe>(view: &SearchView<G>, predicting: bool) -> Option<(NodeId, Hide)> {
    match view.waiting().filter(|_| predicting)? {
        Question::Value { node } | Question::Bound { node } => Some((node, Hide::All)),
        Question::Cutoff { node } => Some((node, Hide::Window)),
        // The cut-off is known by now: the window shows why it comes.
        Question::Pruned { node } => Some((node, Hide::Pending)),
    }
}

/// What `hidden` hides of node `id`.
fn hide_of(hidden: Option<(NodeId, Hide)>, id: NodeId) -> Hide {
    match hidden {
        Some((node, hide)) if node == id => hide,
        _ => Hide::Nothing,
    }
}

fn info_lines<'a, G: Describe>(
    view: &SearchView<G>,
    predict: Option<Score>,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let stepper = &view.stepper;
    let asking = view.waiting().filter(|_| predict.is_some());
    let hidden = hidden_node(view, predict.is_some());
    let stats = stepper.stats();
    let mut lines = vec![
        Line::from(format!(
            " nodes {}  leaves {}",
            thousands(stats.nodes),
            thousands(stats.leaves)
        )),
        Line::from(format!(
            " cut-offs {}  depth now {}",
            thousands(stats.cutoffs),
            stepper.depth()
        )),
    ];
    let cursor = (!stepper.nodes().is_empty()).then_some(view.tree.cursor);
    let position = cursor.map_or(*stepper.root(), |id| stepper.position(id));
    let notes = cursor
        .map(|id| node_notes(stepper, id, hide_of(hidden, id), theme))
        .unwrap_or_default();
    let mut minis = position.mini(theme);
    minis.resize(notes.len().max(minis.len()), Line::raw(""));
    for (i, mini) in minis.into_iter().enumerate() {
        let mut spans = mini.spans;
        if let Some(note) = notes.get(i) {
            spans.push(Span::raw("  "));
            spans.extend(note.spans.iter().cloned());
        }
        lines.push(Line::from(spans));
    }
    if let Some(result) = stepper.result() {
        let best = result
            .best_move
            .map_or("none".into(), |mv| stepper.root().move_label(mv));
        lines.push(Line::from(vec![
            Span::raw(" root "),
            Span::styled(signed(result.value), theme.value(result.value)),
            Span::raw(format!(", best {best}")),
        ]));
        if stepper.algorithm() == Algorithm::AlphaBeta {
            lines.push(Line::styled(
                format!(" minimax: {} nodes", thousands(view.minimax_nodes)),
                theme.dim,
            ));
        }
    } else if stepper.at_node_limit() {
        // The record stopped at its limit: say so where "next" would be.
        lines.push(Line::styled(
            format!(" tree full: {}", thousands(stepper.node_limit() as u64)),
            theme.dim,
        ));
    } else if asking.is_some() {
        // The next event is the answer: it stays hidden until the prediction is checked.
        lines.push(Line::styled(" next: ? (your prediction)", theme.dim));
    } else if let Some(next) = stepper.peek() {
        lines.push(Line::styled(
            format!(" next: {}", event_name(next.kind)),
            theme.dim,
        ));
    }
    if let Some(Score { right, asked }) = predict {
        lines.push(Line::styled(
            format!(" predict: {right} of {asked} right"),
            theme.title,
        ));
    }
    lines
}

fn event_name(kind: crate::domain::search::EventKind) -> &'static str {
    use crate::domain::search::EventKind;
    match kind {
        EventKind::Enter => "enter a node",
        EventKind::Leaf => "evaluate the leaf",
        EventKind::Return => "return the value",
        EventKind::Cutoff => "cut off the rest",
    }
}

/// Short notes on a node, beside its mini board: its label in words (`after X plays 2`),
/// who moves there and its level and value (`O to move: MIN ≥-2`), its window.
fn node_notes<G: Describe>(
    stepper: &Stepper<G>,
    id: NodeId,
    hide: Hide,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let node = stepper.node(id);
    let played = match (node.parent(), node.mv) {
        (Some(parent), Some(mv)) => stepper.position(parent).after(mv),
        _ => "the root position".into(),
    };
    let level = if node.terminal {
        "leaf".to_string()
    } else {
        let mover = G::player_name(stepper.position(id).to_move());
        let side = if node.maximizing { "MAX" } else { "MIN" };
        format!("{mover} to move: {side}")
    };
    let mut value = vec![Span::raw(format!("{level} "))];
    value.extend(value_spans(node, hide == Hide::All, theme));
    let mut notes = vec![Line::styled(played, theme.dim), Line::from(value)];
    // A hidden value's window would give it away (α or β moved to it).
    if stepper.algorithm() == Algorithm::AlphaBeta && !node.terminal && hide != Hide::All {
        // As entered → as now, so a finished node's final window reads with where it began.
        notes.push(Line::from(if hide == Hide::Window {
            format!("{} as entered", entered_window_text(node))
        } else {
            super::explain::window_moves(node)
        }));
    }
    notes
}

fn window_text<M>(node: &TreeNode<M>) -> String {
    format!("α {} β {}", signed(node.alpha()), signed(node.beta()))
}

/// The window a node was entered with.
fn entered_window_text<M>(node: &TreeNode<M>) -> String {
    format!(
        "α {} β {}",
        signed(i32::from(node.alpha_in)),
        signed(i32::from(node.beta_in))
    )
}

/// A node's value with its bound sign; `?` before it has one, or while a prediction asks
/// for it (`hidden`).
fn value_spans<M>(node: &TreeNode<M>, hidden: bool, theme: &Theme) -> Vec<Span<'static>> {
    match node.bound().filter(|_| !hidden) {
        None => vec![Span::styled(symbols::UNKNOWN.glyph, theme.dim)],
        Some((bound, v)) => vec![Span::styled(
            format!("{}{}", bound.sign(), signed(v)),
            theme.value(v),
        )],
    }
}

/// The tree pane: the search shown, or (none yet) what will show there, for the
/// algorithm picked (`mcts_on`: MCTS's tree, which `t` does not search).
fn render_tree<G: Describe>(
    game: &Match<G>,
    focused: bool,
    mcts_on: bool,
    predicting: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    if let Some(view) = &game.mcts {
        render_mcts(view, focused, area, buf, theme);
        return;
    }
    let title = match &game.search {
        Some(view) => {
            let whose = if view.live {
                "Next AI move"
            } else if view.analysis {
                "Your position"
            } else {
                "Last AI move"
            };
            let order = view.stepper.order();
            if order == crate::domain::search::MoveOrder::Listed {
                format!(" {whose} · {} tree", view.stepper.algorithm())
            } else {
                let order = super::orders::short_name(order);
                format!(" {whose} · {}, {order}", view.stepper.algorithm())
            }
        }
        None => " Search tree".to_string(),
    };
    let block = pane_block(&title, focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let Some(view) = &game.search else {
        if mcts_on {
            let hint = vec![
                Line::raw(" The AI's MCTS tree shows here once it moves:"),
                Line::raw(" each move's visits N, W/N and UCB1, beside"),
                Line::raw(" its exact value with perfect play."),
                Line::raw(""),
                Line::from(vec![
                    Span::styled(" m", theme.key),
                    Span::raw("  step through each AI search"),
                ]),
            ];
            Paragraph::new(hint)
                .wrap(Wrap { trim: false })
                .render(inner, buf);
            return;
        }
        let hint = vec![
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
            Line::from(vec![
                Span::styled(" m", theme.key),
                Span::raw("  step through each AI search"),
            ]),
        ];
        Paragraph::new(hint)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
        return;
    };
    let lines = view.tree.lines(&view.stepper);
    let height = usize::from(inner.height);
    let cursor_line = view.tree.cursor_line(&lines);
    let offset = scroll_offset(view.tree.scroll.get(), cursor_line, height, lines.len());
    view.tree.scroll.set(offset);
    let current = (!view.stepper.is_finished())
        .then(|| view.stepper.current())
        .flatten();
    let hidden = hidden_node(view, predicting);
    let text: Vec<Line> = lines
        .iter()
        .skip(offset)
        .take(height)
        .map(|line| {
            let is_cursor = line.kind == LineKind::Node(view.tree.cursor);
            let is_current = current.is_some_and(|c| line.kind == LineKind::Node(c));
            let marks = Marks {
                is_current,
                is_cursor: is_cursor && focused,
                hidden,
            };
            let line = tree_line(view, line, marks, theme);
            fit(line, usize::from(inner.width))
        })
        .collect();
    Paragraph::new(text).render(inner, buf);
    if lines.len() > height {
        let mut state = ScrollbarState::new(lines.len().saturating_sub(height)).position(offset);
        let track = area.inner(Margin::new(0, 1));
        Scrollbar::new(ScrollbarOrientation::VerticalRight)
            .begin_symbol(None)
            .end_symbol(None)
            .render(track, buf, &mut state);
    }
}

/// `line` cut to `width` columns, ending in `…` when something was cut.
fn fit(line: Line<'_>, width: usize) -> Line<'_> {
    if line.width() <= width || width == 0 {
        return line;
    }
    let style = line.style;
    let mut room = width - 1;
    let mut spans = Vec::new();
    for span in line.spans {
        if room == 0 {
            break;
        }
        let kept: String = span.content.chars().take(room).collect();
        room -= kept.chars().count();
        spans.push(Span::styled(kept, span.style));
    }
    spans.push(Span::raw("…"));
    Line::from(spans).style(style)
}

/// The first visible line: unchanged unless that would hide the cursor.
fn scroll_offset(previous: usize, cursor: usize, height: usize, total: usize) -> usize {
    if height == 0 {
        return 0;
    }
    let most = total.saturating_sub(height);
    let offset = if cursor < previous {
        cursor
    } else if cursor >= previous + height {
        cursor + 1 - height
    } else {
        previous
    };
    offset.min(most)
}

fn prefix(line: &TreeLine) -> String {
    let mut text = String::new();
    for level in 1..line.depth {
        text.push_str(if line.guides & (1 << level) != 0 {
            "│ "
        } else {
            "  "
        });
    }
    if line.depth > 0 {
        text.push_str(if line.last { "└─" } else { "├─" });
    }
    text
}

/// How a tree line is marked: the current node, the cursor, a value a prediction hides.
#[derive(Clone, Copy)]
struct Marks {
    is_current: bool,
    is_cursor: bool,
    hidden: Option<(NodeId, Hide)>,
}

fn tree_line<'a, G: Describe>(
    view: &SearchView<G>,
    line: &TreeLine,
    marks: Marks,
    theme: &Theme,
) -> Line<'a> {
    let Marks {
        is_current,
        is_cursor,
        hidden,
    } = marks;
    let stepper = &view.stepper;
    let gutter = if is_current {
        symbols::CURRENT.glyph
    } else if is_cursor {
        symbols::TREE_CURSOR.glyph
    } else {
        " "
    };
    let mut spans = vec![
        Span::styled(gutter, theme.key),
        Span::styled(prefix(line), theme.border),
    ];
    match line.kind {
        LineKind::Node(id) => spans.extend(node_spans(view, id, hide_of(hidden, id), theme)),
        LineKind::Pruned(id) => {
            let node = stepper.node(id);
            let kind = match node.cutoff_kind() {
                Some(CutoffKind::Alpha) => "α cut-off",
                _ => "β cut-off",
            };
            let moves = move_labels(stepper, id);
            spans.push(Span::styled(
                format!("{} {} pruned: {moves}", symbols::PRUNED.glyph, node.pruned),
                theme.pruned,
            ));
            spans.push(Span::styled(format!(" ({kind})"), theme.dim));
        }
        LineKind::Pending(id) if hide_of(hidden, id) == Hide::Pending => {
            spans.push(Span::styled(
                format!("{} ? pruned (your prediction)", symbols::PENDING.glyph),
                theme.dim,
            ));
        }
        LineKind::Pending(id) => {
            let node = stepper.node(id);
            let left = node.move_count - node.children;
            spans.push(Span::styled(
                format!(
                    "{} {left} to search: {}",
                    symbols::PENDING.glyph,
                    move_labels(stepper, id)
                ),
                theme.dim,
            ));
        }
        LineKind::NotStarted => {
            let root = stepper.root();
            spans.push(Span::styled(
                format!(
                    "root: {} to move · Space enters it",
                    G::player_name(root.to_move())
                ),
                theme.dim,
            ));
        }
        LineKind::Truncated => spans.push(Span::styled(
            "… more lines not shown: fold some subtrees (e)",
            theme.dim,
        )),
    }
    let mut line = Line::from(spans);
    if is_current {
        line = line.patch_style(theme.current);
    } else if is_cursor {
        line = line.patch_style(theme.cursor);
    }
    line
}

fn move_labels<G: Describe>(stepper: &Stepper<G>, id: NodeId) -> String {
    let position = stepper.position(id);
    stepper
        .moves_not_entered(id)
        .iter()
        .map(|&mv| position.move_label(mv))
        .collect::<Vec<_>>()
        .join(" ")
}

fn node_spans<G: Describe>(
    view: &SearchView<G>,
    id: NodeId,
    hide: Hide,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let stepper = &view.stepper;
    let node = stepper.node(id);
    let expanded = view.tree.is_expanded(stepper, id);
    let fold = match (node.children > 0, expanded) {
        (false, _) => "",
        (true, true) => symbols::UNFOLDED.glyph,
        (true, false) => symbols::FOLDED.glyph,
    };
    let label = match (node.parent(), node.mv) {
        (Some(parent), Some(mv)) => stepper.position(parent).move_label(mv),
        _ => "root".into(),
    };
    let mut spans = vec![Span::raw(format!("{fold}{label} "))];
    if node.terminal {
        let outcome = stepper.position(id).outcome();
        let text = outcome.map_or_else(String::new, G::result_text);
        spans.push(Span::styled(
            format!("{} {text} ", symbols::LEAF.glyph),
            theme.dim,
        ));
    } else {
        spans.push(Span::raw(if node.maximizing { "MAX " } else { "MIN " }));
    }
    spans.extend(value_spans(node, hide == Hide::All, theme));
    if stepper.algorithm() == Algorithm::AlphaBeta && !node.terminal && hide != Hide::All {
        let window = if hide == Hide::Window {
            entered_window_text(node)
        } else {
            window_text(node)
        };
        spans.push(Span::styled(format!(" {window}"), theme.dim));
    }
    if !expanded && node.children > 0 {
        let hidden = stepper.children(id).count();
        spans.push(Span::styled(format!(" ({hidden} folded)"), theme.dim));
    }
    let is_best = node.parent().is_some_and(|p| {
        let parent = stepper.node(p);
        parent.is_done() && parent.best_move == node.mv && first_best(stepper, p) == Some(id)
    });
    if is_best {
        spans.push(Span::styled(
            format!(" {}", symbols::BEST.glyph),
            theme.title,
        ));
    }
    spans
}

/// The child of `parent` whose value the parent took (the first one with the best move).
fn first_best<G: Game>(stepper: &Stepper<G>, parent: NodeId) -> Option<NodeId> {
    let best = stepper.node(parent).best_move?;
    stepper
        .children(parent)
        .find(|&c| stepper.node(c).mv == Some(best))
}

/// The MCTS counters and the position at the tree cursor, in the Search pane: the
/// iterations done, the tree's size and `c`, the node's position drawn small with where it
/// came from, who moves and its `N` and `W/N`, then the move the search plays (or, while it
/// is stepped, the next phase).
fn mcts_info_lines<G: Describe>(
    view: &MctsView<G>,
    predict: Option<Score>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mcts = view.stepper.mcts();
    let done = if mcts.iterations() == view.iterations {
        format!(" iterations {}", thousands(mcts.iterations()))
    } else {
        format!(
            " iterations {} of {}",
            thousands(mcts.iterations()),
            thousands(view.iterations)
        )
    };
    let mut lines = vec![
        Line::from(done),
        Line::from(format!(
            " tree {} nodes · c {:.2}",
            thousands(mcts.node_count() as u64),
            mcts.exploration()
        )),
    ];
    let id = view.cursor_node();
    let node = mcts.node(id);
    let position = mcts.position(id);
    let played = match (node.parent(), node.mv()) {
        (Some(parent), Some(mv)) => mcts.position(parent).after(mv),
        _ => "the root position".into(),
    };
    let state = match position.outcome() {
        Some(outcome) => format!("{} {}", symbols::LEAF.glyph, G::result_text(outcome)),
        None => format!("{} to move", G::player_name(position.to_move())),
    };
    let numbers = match node.mean().filter(|_| node.parent().is_some()) {
        Some(mean) => format!("N {} W/N {mean:.2}", thousands(node.visits())),
        None => format!("N {}", thousands(node.visits())),
    };
    let notes = [
        Line::styled(played, theme.dim),
        Line::from(state),
        Line::from(numbers),
    ];
    let mut minis = position.mini(theme);
    minis.resize(notes.len().max(minis.len()), Line::raw(""));
    for (i, mini) in minis.into_iter().enumerate() {
        let mut spans = mini.spans;
        if let Some(note) = notes.get(i) {
            spans.push(Span::raw("  "));
            spans.extend(note.spans.iter().cloned());
        }
        lines.push(Line::from(spans));
    }
    if view.live && !view.is_finished() {
        lines.push(Line::styled(
            format!(" next: {}", mcts_outline::phase_name(view.stepper.phase())),
            theme.dim,
        ));
    } else if let Some(best) = mcts.best_move() {
        let visits = mcts
            .root_moves()
            .iter()
            .find(|m| m.mv == best)
            .map_or(0, |m| m.visits);
        lines.push(Line::from(format!(
            " best {}: N {} of {}",
            mcts.root_position().move_label(best),
            thousands(visits),
            thousands(mcts.iterations())
        )));
    }
    if let Some(Score { right, asked }) = predict {
        lines.push(Line::styled(
            format!(" predict: {right} of {asked} right"),
            theme.title,
        ));
    }
    lines
}

/// Where the MCTS pane puts its parts: the phase lines (while stepped), the outline, the
/// node explained (a record), each with a rule between.
struct MctsAreas {
    phase: Rect,
    rows: Rect,
    explain: Rect,
}

/// The text the MCTS pane shows beside the outline: the last phase's lines while the
/// search is stepped, else the explanation of the node under the cursor.
fn mcts_words<G: Describe>(view: &MctsView<G>) -> Vec<String> {
    if view.live {
        mcts_outline::phase_lines(&view.stepper)
    } else {
        mcts_outline::explain_mcts(
            view.stepper.mcts(),
            view.cursor_node() as usize,
            &view.exact,
        )
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

/// The MCTS tree pane: stepped, what the last phase did over the tree as it stands (the
/// iteration's path unfolded and marked); a record, the tree sorted by visits with the
/// exact value of each root move, and the node under the cursor explained.
fn render_mcts<G: Describe>(
    view: &MctsView<G>,
    focused: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let title = if view.live {
        " Next AI move · MCTS, stepped"
    } else {
        " Last AI move · MCTS tree"
    };
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
    render_mcts_rows(view, focused, areas.rows, buf, theme);
}

/// The MCTS outline, scrolled so the cursor stays in sight: `*` marks the move played (or
/// the path being stepped), `›` the cursor while the pane has the focus.
fn render_mcts_rows<G: Describe>(
    view: &MctsView<G>,
    focused: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let rows = view.rows();
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
            let gutter = if is_cursor {
                symbols::TREE_CURSOR.glyph
            } else {
                " "
            };
            let mark = if row.chosen {
                symbols::MCTS_CHOSEN.glyph
            } else {
                " "
            };
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
fn mcts_click<G: Describe>(view: &MctsView<G>, tree_pane: Rect, at: Position) -> Option<usize> {
    let inner = Block::bordered().inner(tree_pane);
    let areas = mcts_areas(&mcts_words(view), view.live, inner);
    areas
        .rows
        .contains(at)
        .then(|| view.folds.offset.get() + usize::from(at.y - areas.rows.y))
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
