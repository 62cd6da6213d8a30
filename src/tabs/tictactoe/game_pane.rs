//! The game pane, top left: the tic-tac-toe board with the moves beside it, the Game of
//! Eight's sum and number buttons, or the position editor in the board's place; with the
//! cell and button rectangles a click is read against.

use super::describe::mark_span;
use super::editor::Editor;
use super::game::{Match, Tally};
use crate::components::tree_search::Playable;
use crate::domain::games::eight::{Eight, TARGET};
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::games::{Game, Outcome};
use crate::tabkit::side::Side;
use crate::widgets::{Theme, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

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
pub(super) fn board_cells(origin: Position) -> [Rect; 9] {
    std::array::from_fn(|i| {
        let (row, col) = (i as u16 / 3, i as u16 % 3);
        Rect::new(origin.x + col * 6, origin.y + row * 2, 5, 1)
    })
}

pub(super) fn board_origin(game_pane: Rect) -> Position {
    Position::new(game_pane.x + 2, game_pane.y + 3)
}

pub(super) fn render_tictactoe(
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
    // X need not open here (`x` chooses who does), so the header says which side did.
    let opens = |mark| {
        Span::styled(
            if game.opener() == mark {
                " (opens)"
            } else {
                ""
            },
            theme.dim,
        )
    };
    let header = Line::from(vec![
        Span::raw(" You "),
        Span::styled(
            human.to_string(),
            if human == Mark::X { theme.x } else { theme.o },
        ),
        opens(human),
        Span::raw("  vs  AI "),
        Span::styled(
            human.other().to_string(),
            if human == Mark::X { theme.o } else { theme.x },
        ),
        opens(human.other()),
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
pub(super) fn render_editor(editor: &Editor, area: Rect, buf: &mut Buffer, theme: &Theme) {
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
pub(super) fn eight_buttons(game_pane: Rect) -> [Rect; 3] {
    std::array::from_fn(|i| Rect::new(game_pane.x + 11 + i as u16 * 5, game_pane.y + 5, 3, 1))
}

pub(super) fn render_eight(
    game: &Match<Eight>,
    focused: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
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
