//! The State Graph tab: the whole graph (a row per player, a column per token count, every
//! edge with its weight in a lane between the rows), the selected state's panel, and the
//! lab's questions answered from the current weights.

use super::state::StateGraphTab;
use super::symbols;
use crate::domain::learn::state_graph::{Edge, Player, Vertex};
use crate::widgets::symbols::Symbol;
use crate::widgets::{TabView, Theme, titled};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

impl TabView for StateGraphTab {
    fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        render(self, body, buf, theme);
    }

    fn symbols(&self) -> Vec<Symbol> {
        symbols::GRAPH.to_vec()
    }

    fn words(&self) -> Vec<crate::widgets::symbols::Gloss> {
        symbols::WORDS.to_vec()
    }
}

fn render(tab: &StateGraphTab, body: Rect, buf: &mut Buffer, theme: &Theme) {
    let lanes = 2 * tab.shown_graph().max_take as u16;
    let [graph, below] =
        Layout::vertical([Constraint::Length(lanes + 4), Constraint::Fill(1)]).areas(body);
    let [vertex, answers] =
        Layout::horizontal([Constraint::Percentage(45), Constraint::Fill(1)]).areas(below);
    render_graph(tab, graph, buf, theme);
    render_vertex(tab, vertex, buf, theme);
    render_answers(tab, answers, buf, theme);
}

/// The arrow for a take: down-right for player 1's moves, up-right for player 2's; a double
/// arrow for a take of 2, the number itself beyond.
fn arrow(player: Player, take: u32) -> String {
    match (player, take) {
        (Player::One, 1) => symbols::P1_TAKES_1.glyph.into(),
        (Player::One, 2) => symbols::P1_TAKES_2.glyph.into(),
        (Player::Two, 1) => symbols::P2_TAKES_1.glyph.into(),
        (Player::Two, 2) => symbols::P2_TAKES_2.glyph.into(),
        (Player::One, n) => format!("{n}{}", symbols::P1_TAKES_1.glyph),
        (Player::Two, n) => format!("{n}{}", symbols::P2_TAKES_1.glyph),
    }
}

/// A weight as the grid writes it: exact, or in thousands (`+3k`) when `compact`.
fn weight_text(weight: i64, compact: bool) -> String {
    if compact && weight.abs() >= 1000 {
        let thousands = (weight as f64 / 1000.0).round() as i64;
        format!("{thousands:+}{}", symbols::THOUSANDS.glyph)
    } else {
        format!("{weight:+}")
    }
}

/// One cell of the grid: its text and style.
type Cell = (String, Style);

/// The cells of the column for `tokens`, top to bottom: player 1's state, player 1's takes,
/// player 2's takes (largest first), player 2's state.
fn column_cells(tab: &StateGraphTab, tokens: u32, compact: bool, theme: &Theme) -> Vec<Cell> {
    let max_take = tab.shown_graph().max_take;
    let mut cells = vec![vertex_cell(
        tab,
        Vertex {
            player: Player::One,
            tokens,
        },
        theme,
    )];
    cells.extend(
        (1..=max_take).map(|take| edge_cell(tab, Player::One, tokens, take, compact, theme)),
    );
    cells.extend(
        (1..=max_take)
            .rev()
            .map(|take| edge_cell(tab, Player::Two, tokens, take, compact, theme)),
    );
    cells.push(vertex_cell(
        tab,
        Vertex {
            player: Player::Two,
            tokens,
        },
        theme,
    ));
    cells
}

/// A column's width: its widest cell and one space, so neighbours never run together.
fn column_width(cells: &[Cell]) -> usize {
    cells
        .iter()
        .map(|(text, _)| text.chars().count())
        .max()
        .unwrap_or(0)
        + 1
}

/// Every column, from the most tokens to none, exact if they all fit in `width` and in
/// thousands otherwise.
fn grid(tab: &StateGraphTab, width: usize, theme: &Theme) -> Vec<Vec<Cell>> {
    let columns = |compact| -> Vec<Vec<Cell>> {
        (0..=tab.shown_graph().tokens)
            .rev()
            .map(|tokens| column_cells(tab, tokens, compact, theme))
            .collect()
    };
    let exact = columns(false);
    if exact.iter().map(|c| column_width(c)).sum::<usize>() <= width {
        exact
    } else {
        columns(true)
    }
}

fn render_graph(tab: &StateGraphTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let graph = &tab.shown_graph();
    let state = if tab.training {
        format!("training · {}", tab.speed.name())
    } else if graph.games >= tab.target_games {
        "trained".into()
    } else {
        format!("paused · {}", tab.speed.name())
    };
    let filled = (graph.games.min(tab.target_games) * 10 / tab.target_games.max(1)) as usize;
    let title = format!(
        " Nim({}) · {state} {}{} {}/{} games · optimal {:.0}% ",
        graph.tokens,
        "█".repeat(filled),
        "░".repeat(10 - filled),
        graph.games,
        tab.target_games,
        graph.optimal_share() * 100.0
    );
    // The rule in one line, as every tab states its own.
    let rule = format!(" {} ", super::about::rule_line(graph.max_take));
    let mut block = titled(title, theme).title_bottom(Line::raw(rule).right_aligned());
    if let Some(game) = &tab.stepped {
        block = block.title_bottom(Line::styled(
            format!(" stepped game: {} ", game.counter()),
            theme.title,
        ));
    }
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width);
    let columns = grid(tab, width, theme);
    let widths: Vec<usize> = columns.iter().map(|c| column_width(c)).collect();
    // Scroll sideways so the cursor's column is in view when the grid is wider than the pane.
    let cursor_column = (graph.tokens - tab.cursor.tokens) as usize;
    let mut first = 0;
    while first < cursor_column && widths[first..=cursor_column].iter().sum::<usize>() > width {
        first += 1;
    }
    let mut rows: Vec<Vec<Span>> = vec![Vec::new(); 2 * graph.max_take as usize + 2];
    let mut used = 0;
    for (cells, &column) in columns.iter().zip(&widths).skip(first) {
        if used + column > width {
            break;
        }
        used += column;
        for (row, (text, style)) in rows.iter_mut().zip(cells) {
            row.push(Span::styled(format!("{text:<column$}"), *style));
        }
    }
    let lines: Vec<Line> = rows.into_iter().map(Line::from).collect();
    Paragraph::new(lines).render(inner, buf);
}

/// A state: its name, `×` before it when its mover loses (exact), `!` after it when its
/// strongest edge is not the winning move (for states a game can reach); coloured by who
/// wins from it too.
///
/// On the person's turn in a game none of that is drawn (nor its colour): it would give
/// the move away.
fn vertex_cell(tab: &StateGraphTab, vertex: Vertex, theme: &Theme) -> Cell {
    let fair = tab.your_turn();
    let wrong = !fair
        && tab.shown_graph().plays_optimally_at(vertex) == Some(false)
        && tab.shown_graph().reachable().contains(&vertex);
    let mark = if wrong { symbols::WRONG.glyph } else { "" };
    let winning = tab.exact(vertex).is_some();
    let lost = if winning || fair {
        ""
    } else {
        symbols::LOST.glyph
    };
    let text = format!("{lost}{}{mark}", vertex.name());
    let mut style = match (fair, winning) {
        (true, _) => Style::default(),
        (false, true) => theme.positive,
        (false, false) => theme.negative,
    };
    if tab.cursor == vertex {
        style = style.patch(theme.cursor);
    }
    if tab.game.as_ref().is_some_and(|g| g.at == vertex) {
        style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
    }
    (text, style)
}

fn edge_cell(
    tab: &StateGraphTab,
    player: Player,
    tokens: u32,
    take: u32,
    compact: bool,
    theme: &Theme,
) -> Cell {
    if take > tokens {
        return (String::new(), Style::new());
    }
    let from = Vertex { player, tokens };
    let edge = Edge {
        from,
        to: Vertex {
            player: player.other(),
            tokens: tokens - take,
        },
    };
    let weight = tab.shown_graph().weight(&edge);
    let strongest = tab.shown_graph().strongest(from).contains(&edge);
    let star = if strongest {
        symbols::STRONGEST.glyph
    } else {
        ""
    };
    let text = format!(
        "{}{}{star}",
        arrow(player, take),
        weight_text(weight, compact)
    );
    let mut style = theme.value(i32::try_from(weight.signum()).unwrap_or(0));
    if strongest {
        style = style.add_modifier(Modifier::BOLD);
    }
    let highlighted = match &tab.stepped {
        Some(game) if game.path == tab.highlight => game.path[..game.moves_shown()].contains(&edge),
        _ => tab.highlight.contains(&edge),
    };
    if highlighted {
        style = style.add_modifier(Modifier::REVERSED);
    }
    (text, style)
}

fn render_vertex(tab: &StateGraphTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let vertex = tab.cursor;
    let block = titled(format!(" {} (arrows move) ", vertex.name()), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines = vec![Line::raw(format!(
        " player {} to move, {} token{} left",
        vertex.player.number(),
        vertex.tokens,
        if vertex.tokens == 1 { "" } else { "s" }
    ))];
    lines.push(match (vertex.tokens, tab.exact(vertex)) {
        (0, _) => Line::styled(
            format!(
                " game over: p{} took the last token",
                vertex.player.other().number()
            ),
            theme.dim,
        ),
        // The answer to the move the student is about to make would give the game away.
        _ if tab.your_turn() => Line::styled(" exact: hidden on your turn", theme.dim),
        (_, Some(take)) => Line::styled(format!(" exact: winning, take {take}"), theme.positive),
        (_, None) => Line::styled(" exact: losing, every move loses", theme.negative),
    });
    let strongest = tab.shown_graph().strongest(vertex);
    for edge in tab.shown_graph().out_edges(vertex) {
        let best = if strongest.contains(&edge) {
            format!(" {}", symbols::STRONGEST.glyph)
        } else {
            String::new()
        };
        let right = if !tab.your_turn() && tab.exact(vertex) == Some(edge.take()) {
            " wins"
        } else {
            ""
        };
        lines.push(Line::from(vec![
            Span::raw(format!(" take {} → {:<6}", edge.take(), edge.to.name())),
            Span::styled(
                format!("{:+6}", tab.shown_graph().weight(&edge)),
                theme.title,
            ),
            Span::raw(format!("{best}{right}")),
        ]));
    }
    if !tab.your_turn()
        && tab.shown_graph().plays_optimally_at(vertex) == Some(false)
        && tab.shown_graph().reachable().contains(&vertex)
    {
        lines.push(Line::styled(
            format!(
                " {} the strongest edge is not the winning move",
                symbols::WRONG.glyph
            ),
            theme.error,
        ));
    }
    if let Some(error) = &tab.load_error {
        lines.push(Line::styled(
            format!(" saved graph unusable: {error}"),
            theme.error,
        ));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}

/// The lab's four questions, answered from the weights as they are now.
fn render_answers(tab: &StateGraphTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let block = titled(" The lab's questions, from the weights ".into(), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let graph = &tab.shown_graph();
    let k = graph.tokens;
    // The strongest edge(s) of a state, or why there is nothing to say.
    let best = |player: Player, tokens: u32| -> String {
        if tokens > k {
            return format!("n/a in Nim({k})");
        }
        let strongest = graph.strongest(Vertex { player, tokens });
        let takes: Vec<String> = strongest.iter().map(|e| e.take().to_string()).collect();
        let weight = strongest.first().map_or(0, |e| graph.weight(e));
        match takes.len() {
            0 => "no move".into(),
            1 => format!("take {} ({weight:+})", takes[0]),
            _ => format!("tie: take {} ({weight:+})", takes.join(" or ")),
        }
    };
    let value = |player: Player, tokens: u32| -> i64 {
        let vertex = Vertex { player, tokens };
        graph
            .out_edges(vertex)
            .iter()
            .map(|e| graph.weight(e))
            .max()
            .unwrap_or(0)
    };
    let (first, second) = (
        value(Player::One, k),
        value(Player::Two, k.saturating_sub(1)),
    );
    let spot = match first.cmp(&second) {
        _ if k < 2 => "n/a".to_string(),
        std::cmp::Ordering::Greater => format!("p1-{k}"),
        std::cmp::Ordering::Less => format!("p2-{}", k - 1),
        std::cmp::Ordering::Equal => "no difference yet".to_string(),
    };
    let order = match first.signum() {
        1 => "go first",
        -1 => "go second",
        _ => "no preference yet",
    };
    let lines = vec![
        Line::raw(format!(" 2 left, p1 should: {}", best(Player::One, 2))),
        Line::raw(format!("   (p2 at 2: {})", best(Player::Two, 2))),
        Line::raw(format!(" 4 left, p2 can: {}", best(Player::Two, 4))),
        Line::raw(format!("   (p1 at 4: {})", best(Player::One, 4))),
        Line::raw(format!(" better spot: {spot}")),
        Line::raw(format!(
            "   (p1-{k} {first:+}, p2-{} {second:+})",
            k.saturating_sub(1)
        )),
        Line::raw(format!(" Nim({k}): {order} (p1-{k} best {first:+})")),
        Line::styled(
            if tab.your_turn() {
                " exact: hidden on your turn".to_string()
            } else {
                format!(
                    " exact: {} wins Nim({k})",
                    if k.is_multiple_of(graph.max_take + 1) {
                        "player 2"
                    } else {
                        "player 1"
                    }
                )
            },
            theme.dim,
        ),
        Line::styled(
            format!(
                " {} strongest edge  {} not the winning move",
                symbols::STRONGEST.glyph,
                symbols::WRONG.glyph
            ),
            Style::new().add_modifier(Modifier::DIM),
        ),
        Line::styled(
            format!(
                " {} state lost for its mover  {}: ×1000",
                symbols::LOST.glyph,
                symbols::THOUSANDS.glyph
            ),
            Style::new().add_modifier(Modifier::DIM),
        ),
    ];
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}
