//! The Subtraction Nim tab: the pile and the game on the left; on the right the training
//! gauge over one of three views (loss curve, evaluation table, weights).

use super::state::{PaneView, SubtractionTab, Unit};
use super::symbols;
use super::training::loss_name;
use crate::domain::games::subtraction::max_take;
use crate::domain::learn::network::Layer;
use crate::tabkit::side::Side;
use crate::tabkit::tally::Tally;
use crate::tabkit::text_entry::TextEntry;
use crate::widgets::runs::{RunsChart, Scale};
use crate::widgets::symbols::{Symbol, shade};
use crate::widgets::{TabView, Theme, titled};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// Blocks per row of the pile, with a gap after the fifth, as the original program's window draws
/// it.
const ROW: u32 = 10;

impl TabView for SubtractionTab {
    fn render(&self, body: Rect, buf: &mut Buffer, theme: &Theme) {
        render(self, body, buf, theme);
    }

    fn symbols(&self) -> Vec<Symbol> {
        symbols::WEIGHTS.to_vec()
    }

    fn words(&self) -> Vec<crate::widgets::symbols::Gloss> {
        symbols::WORDS.to_vec()
    }
}

fn render(tab: &SubtractionTab, body: Rect, buf: &mut Buffer, theme: &Theme) {
    let [game, network] =
        Layout::horizontal([Constraint::Length(30), Constraint::Fill(1)]).areas(body);
    render_game(tab, game, buf, theme);
    render_network(tab, network, buf, theme);
}

/// The pile as rows of blocks, ten to a row with a gap after five.
fn pile_lines(n: u32, theme: &Theme) -> Vec<Line<'static>> {
    (0..n.div_ceil(ROW))
        .map(|row| {
            let count = (n - row * ROW).min(ROW) as usize;
            let mut text = "■".repeat(count.min(5));
            if count > 5 {
                text.push(' ');
                text.push_str(&"■".repeat(count - 5));
            }
            Line::from(vec![Span::raw(" "), Span::styled(text, theme.key)])
        })
        .collect()
}

fn render_game(tab: &SubtractionTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let widget = titled(" Subtraction Nim ".into(), theme);
    let inner = widget.inner(area);
    widget.render(area, buf);
    let mut lines = vec![Line::styled(" take 1..n/2; 1 block loses", theme.dim)];
    match tab.pile {
        None => {
            lines.push(Line::raw(""));
            lines.push(Line::from(vec![
                Span::raw(format!(" Starting pile (2-{}): ", tab.n_max)),
                Span::styled(format!("{}▏", tab.typed), theme.key),
            ]));
            let who = if tab.human_first {
                "you start"
            } else {
                "the AI starts"
            };
            lines.push(Line::styled(format!(" Enter; {who} (w)"), theme.dim));
        }
        Some(n) => {
            let mut pile = pile_lines(n, theme);
            // Rows beyond the pane (large n_max) give way to the prompt and the last few
            // moves: a count says so.
            let list = if tab.moves.is_empty() {
                0
            } else {
                1 + tab.moves.len().min(MIN_MOVES_SHOWN)
            };
            let room = usize::from(inner.height).saturating_sub(4 + list).max(1);
            if pile.len() > room {
                let hidden = n - (room as u32 - 1) * ROW;
                pile.truncate(room - 1);
                pile.push(Line::styled(format!(" … and {hidden} more"), theme.dim));
            }
            // The count beside the first row, as the original program's window shows it.
            if let Some(first) = pile.first_mut() {
                let width = first.width();
                first
                    .spans
                    .push(Span::raw(" ".repeat(13usize.saturating_sub(width))));
                first.spans.push(Span::styled(format!("{n}"), theme.title));
                first
                    .spans
                    .push(Span::raw(if n == 1 { " block" } else { " blocks" }));
            }
            lines.extend(pile);
            lines.push(turn_line(tab, n, theme));
            // What is left above the footer holds the newest moves.
            let free = usize::from(inner.height).saturating_sub(lines.len() + 1);
            lines.extend(move_list(tab, free, theme));
        }
    }
    if let Some(typed) = tab.ask_entry.as_ref().map(TextEntry::text) {
        let ask = vec![
            Line::from(vec![
                Span::styled(format!(" Ask about (2-{}): ", tab.n_max), theme.title),
                Span::styled(format!("{typed}▏"), theme.key),
            ]),
            Line::styled(" Enter asks, Esc cancels", theme.dim),
        ];
        lines.splice(1..1, ask);
    }
    let Tally { won, lost, .. } = tab.tally;
    let footer = Line::from(format!(" won {won}  lost {lost}"));
    let room = usize::from(inner.height);
    lines.truncate(room.saturating_sub(1));
    while lines.len() + 1 < room {
        lines.push(Line::raw(""));
    }
    lines.push(footer);
    Paragraph::new(lines).render(inner, buf);
}

fn turn_line(tab: &SubtractionTab, n: u32, theme: &Theme) -> Line<'static> {
    if n <= 1 {
        let human_won = tab.moves.last().is_some_and(|m| m.by == Side::Human);
        return if human_won {
            Line::styled(" ★ You won! r: new game", theme.win)
        } else {
            Line::styled(" ✗ The AI won. r: new game", theme.error)
        };
    }
    match tab.turn {
        Side::Human => Line::from(vec![
            Span::raw(match max_take(n) {
                1 => " Take 1: ".to_string(),
                most => format!(" Take (1-{most}): "),
            }),
            Span::styled(format!("{}▏", tab.typed), theme.key),
        ]),
        Side::Ai => Line::styled(" AI to move: Enter", theme.key),
    }
}

/// The moves of the game a list shows at the least, when it has them (the pile gives way).
const MIN_MOVES_SHOWN: usize = 3;

/// The game's newest moves that fit in `room` rows under a heading, oldest first: who, the
/// pile before, the take, the pile after.
fn move_list(tab: &SubtractionTab, room: usize, theme: &Theme) -> Vec<Line<'static>> {
    if tab.moves.is_empty() || room < 2 {
        return Vec::new();
    }
    let shown = tab.moves.len().min(room - 1);
    let earlier = tab.moves.len() - shown;
    let heading = if earlier > 0 {
        format!(" moves ({earlier} earlier):")
    } else {
        " moves:".to_string()
    };
    let mut lines = vec![Line::styled(heading, theme.dim)];
    lines.extend(tab.moves[earlier..].iter().map(|m| {
        let who = if m.by == Side::Human { "you" } else { "AI" };
        Line::raw(format!(
            " {who:<3} {:>4} -{:<3} → {}",
            m.from,
            m.take,
            m.from - m.take
        ))
    }));
    lines
}

fn render_network(tab: &SubtractionTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let view = match tab.view {
        PaneView::Training => "loss curve",
        PaneView::Table => "every pile",
        PaneView::Weights => "weights",
    };
    let widget = titled(format!(" Network: {view} (v) "), theme);
    let inner = widget.inner(area);
    widget.render(area, buf);
    let [status, score, rest] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(inner);
    progress_line(tab, status.width).render(status, buf);
    score_line(tab, theme).render(score, buf);
    if let Some(error) = &tab.load_error {
        let text = vec![
            Line::styled(" Saved weights unusable:", theme.error),
            Line::raw(format!(" {error}")),
            Line::styled(" t retrains (the file is kept aside)", theme.dim),
        ];
        Paragraph::new(text)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .render(rest, buf);
        return;
    }
    match tab.view {
        PaneView::Training => render_chart(tab, rest, buf, theme),
        PaneView::Table => render_table(tab, rest, buf, theme),
        PaneView::Weights => render_weights(tab, rest, buf, theme),
    }
}

fn progress_line(tab: &SubtractionTab, width: u16) -> Line<'static> {
    let (done, total) = (tab.trainer.epoch, tab.trainer.recipe.epochs);
    let state = if tab.waits_for_trainer() {
        crate::tabkit::background::WAITING_FOR_TRAINER
    } else if tab.is_training() {
        "training"
    } else if done >= total {
        "trained"
    } else if done == 0 {
        "untrained"
    } else {
        "paused"
    };
    let speed = if done >= total {
        String::new()
    } else {
        format!("· {} ", tab.speed.name())
    };
    let label = format!(" {state} {done}/{total} {speed}");
    let bar_width = usize::from(width)
        .saturating_sub(label.chars().count() + 1)
        .min(30);
    let filled = bar_width * done.min(total) / total.max(1);
    Line::from(format!(
        "{label}{}{}",
        "█".repeat(filled),
        "░".repeat(bar_width - filled)
    ))
}

fn score_line(tab: &SubtractionTab, theme: &Theme) -> Line<'static> {
    let evaluation = &tab.evaluation;
    let (right, of) = (evaluation.winning_correct(), evaluation.winning_positions());
    let loss = tab
        .trainer
        .losses
        .last()
        .map_or("-".to_string(), |l| format!("{l:.1e}"));
    let mark = if right == of {
        ("✓", theme.positive)
    } else {
        ("✗", theme.negative)
    };
    Line::from(vec![
        Span::raw(format!(" MSE {loss}  wins at ")),
        Span::styled(format!("{right}/{of} {}", mark.0), mark.1),
        Span::raw(format!("  illegal raw {}", evaluation.illegal_raw())),
    ])
}

fn render_chart(tab: &SubtractionTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    if tab.trainer.losses.is_empty() && !tab.runs.open && tab.runs.kept().next().is_none() {
        Paragraph::new(vec![
            Line::raw(" No training yet."),
            Line::styled(
                format!(
                    " p trains in the background, s steps {} epochs",
                    crate::domain::numbers::thousands(tab.step_epochs as u64)
                ),
                theme.dim,
            ),
        ])
        .render(area, buf);
        return;
    }
    let settings = tab.run_settings();
    let curve = tab.curve();
    RunsChart {
        runs: &tab.runs,
        current: (&settings, &curve),
        scale: Scale::Log,
        x_axis: ("epoch", tab.trainer.recipe.epochs as f64),
        y_title: format!(
            "error (MSE); learns by {}",
            loss_name(tab.trainer.recipe.loss)
        ),
        kept_by: "a retrain (t)",
    }
    .render(area, buf, theme);
}

fn render_table(tab: &SubtractionTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    const CELL: u16 = 13;
    let columns = (area.width / CELL).max(1) as usize;
    // A header, the rows, and a legend for the marks.
    let rows = usize::from(area.height.saturating_sub(2));
    let mut lines = vec![Line::styled(
        format!("{:>4} {:>2} {:>2}   ", "pile", "dp", "ai")
            .repeat(columns)
            .chars()
            .take(usize::from(area.width))
            .collect::<String>(),
        theme.dim,
    )];
    let verdicts = &tab.evaluation.verdicts;
    let first = tab.table_scroll.min(verdicts.len().saturating_sub(1));
    let shown = &verdicts[first..];
    for row in 0..rows {
        let mut spans = Vec::new();
        for column in 0..columns {
            let Some(v) = shown.get(column * rows + row) else {
                continue;
            };
            let exact = v.exact.map_or("-".to_string(), |k| k.to_string());
            let (mark, style) = match (v.exact, v.wins) {
                (Some(_), true) => (" ", Style::new()),
                (Some(_), false) => (symbols::MISSES.glyph, theme.negative),
                (None, _) => (" ", theme.dim),
            };
            let illegal = if v.threshold_illegal() {
                symbols::THRESHOLD_ILLEGAL.glyph
            } else {
                " "
            };
            spans.push(Span::styled(
                format!("{:>4} {:>2} {:>2}{mark}{illegal} ", v.n, exact, v.played),
                style,
            ));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::styled(
        format!(
            " {} misses the win  {} original decoder illegal",
            symbols::MISSES.glyph,
            symbols::THRESHOLD_ILLEGAL.glyph
        ),
        theme.dim,
    ));
    Paragraph::new(lines).render(area, buf);
}

/// A weight as a shade and a sign, so strength and sign read without colour.
fn weight_cell(weight: f64, theme: &Theme) -> Span<'static> {
    let shade = shade(weight.abs());
    let sign = if weight >= 0.0 { '+' } else { '-' };
    let style = if weight >= 0.0 {
        theme.positive
    } else {
        theme.negative
    };
    Span::styled(format!("{sign}{shade}"), style)
}

/// Width of the activation column (and of the labels above and below it).
const ACT_WIDTH: usize = 7;

fn render_weights(tab: &SubtractionTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let network = &tab.trainer.network;
    let (Some(hidden), Some(output)) = (network.layers.first(), network.layers.get(1)) else {
        return;
    };
    let [matrix, detail] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(3)]).areas(area);
    // Header, the input/bias row and the output row frame the hidden rows, which scroll to
    // keep the selected unit in view when they do not all fit (the header says how many
    // more there are).
    let room = usize::from(matrix.height).saturating_sub(3).max(1);
    let selected = match tab.unit {
        Unit::Hidden(i) => i,
        Unit::Output(_) => 0,
    };
    let first = selected
        .saturating_sub(room - 1)
        .min(hidden.outputs.saturating_sub(room));
    let more = hidden.outputs.saturating_sub(room);
    let mut lines = vec![
        weights_header(tab, hidden, output, more, theme),
        input_row(tab, hidden, output, theme),
    ];
    for unit in (first..hidden.outputs).take(room) {
        lines.push(hidden_row(tab, unit, theme));
    }
    lines.push(output_row(tab, hidden, theme));
    Paragraph::new(lines).render(matrix, buf);
    Paragraph::new(unit_detail(
        tab,
        hidden,
        output,
        usize::from(detail.width),
        theme,
    ))
    .render(detail, buf);
}

/// Bit indices from the highest down: every bit row and column of the weights view reads
/// as a binary number is written, the most significant bit first, as the why overlay and
/// the take's `bits` column do.
fn high_first(bits: usize) -> impl Iterator<Item = usize> {
    (0..bits).rev()
}

/// The row above the hidden units: the input bits of the AI's last move under their
/// columns (the highest bit first), and the output units' bias weights under theirs.
fn input_row(tab: &SubtractionTab, hidden: &Layer, output: &Layer, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled("  in   ", theme.dim)];
    for bit in high_first(hidden.inputs) {
        let text = tab.trace.as_ref().map_or(" ·".to_string(), |t| {
            format!(" {}", t.activations.layers[0][bit] as u8)
        });
        spans.push(Span::styled(text, theme.key));
    }
    spans.push(Span::styled(format!("{:<ACT_WIDTH$}", " bias"), theme.dim));
    spans.extend(high_first(output.outputs).map(|k| weight_cell(output.incoming(k)[0], theme)));
    Line::from(spans)
}

/// One hidden unit: its incoming weights (bias first), its activation in the AI's last
/// move, and its outgoing weights to each output bit.
fn hidden_row(tab: &SubtractionTab, unit: usize, theme: &Theme) -> Line<'static> {
    let network = &tab.trainer.network;
    let (hidden, output) = (&network.layers[0], &network.layers[1]);
    let selected = tab.unit == Unit::Hidden(unit);
    let mut spans = vec![Span::styled(
        format!("{}h{unit:<3}", if selected { "›" } else { " " }),
        if selected { theme.cursor } else { theme.dim },
    )];
    // Incoming: the bias (column 0), then input bit `bit` in column `bit + 1`.
    let incoming = hidden.incoming(unit);
    spans.push(weight_cell(incoming[0], theme));
    spans.extend(high_first(hidden.inputs).map(|bit| weight_cell(incoming[bit + 1], theme)));
    let activation = tab.trace.as_ref().map(|t| t.activations.layers[1][unit]);
    let activation = activation.map_or(" ·".into(), |a| format!(" {a:.1}"));
    spans.push(Span::styled(format!("{activation:<ACT_WIDTH$}"), theme.dim));
    // Outgoing: column `unit + 1` (after the bias) of every output row.
    spans.extend(
        high_first(output.outputs).map(|k| weight_cell(output.incoming(k)[unit + 1], theme)),
    );
    Line::from(spans)
}

/// The row below: the output activations of the AI's last move and how they decoded.
fn output_row(tab: &SubtractionTab, hidden: &Layer, theme: &Theme) -> Line<'static> {
    let Some(trace) = &tab.trace else {
        return Line::styled("  out: the AI's next move shows here", theme.dim);
    };
    let pad = 5 + 2 * (hidden.inputs + 1);
    // The lab's threshold decoder, when it reads something else (`!` when illegal).
    let lab = match trace.threshold {
        k if k == trace.played => String::new(),
        k if k > max_take(trace.n) => format!(" (lab {k}!)"),
        k => format!(" (lab {k})"),
    };
    let decoded = format!("  {} → k {}{lab}", trace.n, trace.played);
    let mut spans = vec![
        Span::styled(format!("{decoded:<pad$}"), theme.key),
        Span::styled(format!("{:<ACT_WIDTH$}", " out"), theme.dim),
    ];
    let outputs = trace.activations.output();
    for y in high_first(outputs.len()).map(|k| outputs[k]) {
        let style = if y > 0.5 { theme.positive } else { theme.dim };
        spans.push(Span::styled(
            format!("{:>2}", (y * 9.0).round() as u8),
            style,
        ));
    }
    Line::from(spans)
}

/// Column labels, one number over each weight: the bit's index, highest first (`n:` the
/// inputs, bit `i` worth 2^i; `k:` the output bits of the take); the selected output
/// unit's label is reversed, like the selected row. `more`: hidden units scrolled out of
/// view.
fn weights_header(
    tab: &SubtractionTab,
    hidden: &Layer,
    output: &Layer,
    more: usize,
    theme: &Theme,
) -> Line<'static> {
    let inputs: Vec<String> = high_first(hidden.inputs)
        .map(|bit| format!("{bit:>2}"))
        .collect();
    let inputs = inputs.concat();
    let mut spans = vec![Span::raw(format!(
        "  n:  b{inputs}{:<ACT_WIDTH$}",
        " act k:"
    ))];
    spans.extend(high_first(output.outputs).map(|k| {
        let style = if tab.unit == Unit::Output(k) {
            theme.cursor
        } else {
            Style::new()
        };
        Span::styled(format!("{k:>2}"), style)
    }));
    if more > 0 {
        spans.push(Span::styled(format!(" ↕{more} more"), theme.dim));
    }
    Line::from(spans)
}

/// The selected unit's weights in words, packed into lines of `width` by whole pairs, so
/// a name is never parted from its weight.
fn unit_detail(
    tab: &SubtractionTab,
    hidden: &Layer,
    output: &Layer,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let (name, weights, inputs) = match tab.unit {
        Unit::Hidden(i) => (format!("hidden {i}:"), hidden.incoming(i), "n"),
        Unit::Output(k) => (format!("output k{k}:"), output.incoming(k), "h"),
    };
    let mut words = vec![name, format!("bias {:+.1};", weights[0])];
    // Input bits highest first, as the columns; hidden units in their order.
    let from: Vec<usize> = match tab.unit {
        Unit::Hidden(_) => high_first(weights.len() - 1).collect(),
        Unit::Output(_) => (0..weights.len() - 1).collect(),
    };
    words.extend(
        from.into_iter()
            .map(|i| format!("{inputs}{i} {:+.1}", weights[i + 1])),
    );
    let mut lines: Vec<String> = Vec::new();
    for word in words {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(&word);
            }
            _ => lines.push(format!(" {word}")),
        }
    }
    lines
        .into_iter()
        .map(|line| Line::styled(line, theme.title))
        .collect()
}
