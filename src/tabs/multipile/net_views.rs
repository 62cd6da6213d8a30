//! The network's views in the right-hand pane: its outputs for its last move (or the move
//! it would make now) read against the solver, and its weights one unit at a time, drawn
//! as sign-and-shade cells with the strongest named.

use super::notice::unusable_file;
use super::state::MultiPileTab;
use super::why::leave_words;
use crate::domain::learn::nim_net::{self, NetGame, PILE_BITS};
use crate::domain::solve::nim as solver;
use crate::widgets::Theme;
use crate::widgets::symbols::shade;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

// ---- the network ------------------------------------------------------------------

/// The network's shape, rule, epochs and score, above its outputs.
fn network_heading(tab: &MultiPileTab, theme: &Theme) -> Line<'static> {
    let sizes: Vec<String> = tab
        .net
        .trainer
        .network
        .sizes()
        .iter()
        .map(usize::to_string)
        .collect();
    Line::styled(
        format!(
            " {} · {} · epoch {} · wins {:.1}%",
            sizes.join("-"),
            tab.net.game().rule.name(),
            tab.net.trainer.epochs(),
            tab.net.evaluation().winning_accuracy() * 100.0
        ),
        theme.dim,
    )
}

pub(super) fn render_network(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let game = tab.net.game();
    let (trace, label) = if let Some(trace) = &tab.net_move {
        (Some(trace.clone()), "its last move")
    } else {
        let position = if game.fits(&tab.piles) && !tab.piles.is_over() {
            tab.piles
        } else {
            tab.network_start()
        };
        (
            nim_net::choose(game, &tab.net.trainer.network, &position),
            "if it moved now",
        )
    };
    let area = match unusable_file(tab.net.load_error.as_ref(), "T", theme)
        .filter(|_| tab.net.trainer.epochs() == 0)
    {
        Some(notice) => {
            let [top, rest] =
                Layout::vertical([Constraint::Length(6), Constraint::Fill(1)]).areas(area);
            notice.render(top, buf);
            rest
        }
        None => area,
    };
    let mut lines = vec![network_heading(tab, theme)];
    let hidden = tab.net_move.is_none() && !tab.hints_shown(tab.piles);
    if hidden {
        lines.push(Line::raw(" Hints hidden on your turn: the network's"));
        lines.push(Line::raw(" reading shows after your move (i shows it)"));
        Paragraph::new(lines).render(area, buf);
        return;
    }
    let Some(trace) = trace else {
        lines.push(Line::raw(" The game is over: no move to show"));
        Paragraph::new(lines).render(area, buf);
        return;
    };
    lines.push(Line::from(vec![
        Span::raw(" at "),
        Span::styled(trace.piles.to_string(), theme.title),
        Span::styled(format!(" ({label})"), theme.dim),
    ]));
    let output = trace.activations.output();
    let width = usize::from(area.width).saturating_sub(16).clamp(4, 20);
    for (i, &value) in output.iter().enumerate() {
        if i == game.piles {
            // The bits spell the size the pile is left with, not the take: say so.
            lines.push(Line::styled(" bits of the pile size to leave:", theme.dim));
        }
        let name = if i < game.piles {
            format!("pile {}", i + 1)
        } else {
            format!("bit {:>2}", 1 << (PILE_BITS - 1 - (i - game.piles)))
        };
        let filled = ((value * width as f64).round() as usize).min(width);
        lines.push(Line::from(vec![
            Span::raw(format!(" {name:<7}{value:.3} ")),
            Span::styled("█".repeat(filled), theme.key),
            Span::styled("░".repeat(width - filled), theme.dim),
        ]));
    }
    let solver = trace.solver;
    let played_wins = solver::is_winning_move(&trace.piles, game.rule, trace.played);
    lines.push(Line::raw(format!(
        " reads    pile {}: {}",
        trace.played.pile + 1,
        leave_words(trace.piles, trace.played)
    )));
    lines.push(Line::from(vec![
        Span::raw(" plays    "),
        Span::styled(
            format!("{} {}", trace.played, if played_wins { "✓" } else { "✗" }),
            if played_wins {
                theme.positive
            } else {
                theme.negative
            },
        ),
    ]));
    lines.push(Line::raw(format!(
        " lab's    {}",
        trace
            .original_reading
            .map_or("no legal move (illegal reading)".to_string(), |m| m
                .to_string())
    )));
    lines.push(Line::raw(format!(
        " solver   {}",
        solver.map_or("no winning move: every move loses".to_string(), |m| m
            .to_string())
    )));
    lines.truncate(usize::from(area.height));
    Paragraph::new(lines).render(area, buf);
}

// ---- the weights ------------------------------------------------------------------

/// Weights drawn per row of the weights view.
const WEIGHTS_PER_ROW: usize = 16;

/// The name of unit `unit` of the units feeding layer `layer + 1` (0: the inputs).
fn unit_name(game: NetGame, layers: usize, layer: usize, unit: usize) -> String {
    if layer == 0 {
        let pile = unit / PILE_BITS + 1;
        let bit = 1 << (PILE_BITS - 1 - unit % PILE_BITS);
        format!("in{unit}(p{pile}:{bit})")
    } else if layer == layers {
        if unit < game.piles {
            format!("out{unit}(pile {})", unit + 1)
        } else {
            format!(
                "out{unit}(bit {})",
                1 << (PILE_BITS - 1 - (unit - game.piles))
            )
        }
    } else {
        format!("h{layer}.{unit}")
    }
}

/// Rows of sign-and-shade cells, `WEIGHTS_PER_ROW` a row, each headed by its first index.
fn weight_rows(weights: &[f64], theme: &Theme) -> Vec<Line<'static>> {
    weights
        .chunks(WEIGHTS_PER_ROW)
        .enumerate()
        .map(|(row, chunk)| {
            let mut spans = vec![Span::styled(
                format!(" {:>3} ", row * WEIGHTS_PER_ROW),
                theme.dim,
            )];
            spans.extend(chunk.iter().map(|&w| weight_cell(w, theme)));
            Line::from(spans)
        })
        .collect()
}

/// A weight as a sign and a shade, so strength and sign read without colour.
fn weight_cell(weight: f64, theme: &Theme) -> Span<'static> {
    let shade = shade(weight.abs());
    let (sign, style) = if weight >= 0.0 {
        ('+', theme.positive)
    } else {
        ('-', theme.negative)
    };
    Span::styled(format!("{sign}{shade}"), style)
}

/// The strongest few of `weights` by size, with the names of their other ends.
fn strongest(weights: &[f64], name: impl Fn(usize) -> String, count: usize) -> String {
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| {
        weights[b]
            .abs()
            .total_cmp(&weights[a].abs())
            .then(a.cmp(&b))
    });
    order
        .iter()
        .take(count)
        .map(|&i| format!("{} {:+.2}", name(i), weights[i]))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn render_weights(tab: &MultiPileTab, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let game = tab.net.game();
    let network = &tab.net.trainer.network;
    let layers = network.layers.len();
    let (at, unit) = tab.weights_at;
    let Some(layer) = network.layers.get(at) else {
        return;
    };
    let unit = unit.min(layer.outputs.saturating_sub(1));
    let name = unit_name(game, layers, at + 1, unit);
    let incoming = layer.incoming(unit);
    let mut lines = vec![Line::styled(
        format!(
            " layer {} of {layers} ({}→{}) · {name} {}/{}",
            at + 1,
            layer.inputs,
            layer.outputs,
            unit + 1,
            layer.outputs
        ),
        theme.title,
    )];
    let activation = tab.net_move.as_ref().map_or_else(
        || " activation: after the network's next move".to_string(),
        |m| {
            format!(
                " activation {:.3} at {} (its last move)",
                m.activations.layers[at + 1][unit],
                m.piles
            )
        },
    );
    lines.push(Line::styled(activation, theme.dim));
    let source = if at == 0 {
        "inputs".to_string()
    } else {
        format!("units h{at}.*")
    };
    lines.push(Line::from(vec![
        Span::styled(
            format!(" in from {} {source}; bias ", layer.inputs),
            theme.dim,
        ),
        weight_cell(incoming[0], theme),
    ]));
    lines.extend(weight_rows(&incoming[1..], theme));
    let outgoing: Vec<f64> = network.layers.get(at + 1).map_or_else(Vec::new, |next| {
        (0..next.outputs)
            .map(|k| next.incoming(k)[unit + 1])
            .collect()
    });
    if outgoing.is_empty() {
        lines.push(Line::styled(" out: the network's output", theme.dim));
    } else {
        let target = if at + 2 == layers {
            "outputs".to_string()
        } else {
            format!("units h{}.*", at + 2)
        };
        lines.push(Line::styled(
            format!(" out to {} {target}", outgoing.len()),
            theme.dim,
        ));
        lines.extend(weight_rows(&outgoing, theme));
    }
    let mut numbers = format!(
        " {name}: bias {:+.2}; strongest in: {}",
        incoming[0],
        strongest(&incoming[1..], |i| unit_name(game, layers, at, i), 3)
    );
    if !outgoing.is_empty() {
        numbers.push_str("; out: ");
        numbers.push_str(&strongest(
            &outgoing,
            |k| unit_name(game, layers, at + 2, k),
            3,
        ));
    }
    let [grid, detail] = Layout::vertical([Constraint::Fill(1), Constraint::Length(4)]).areas(area);
    lines.truncate(usize::from(grid.height));
    Paragraph::new(lines).render(grid, buf);
    Paragraph::new(Line::styled(numbers, theme.key))
        .wrap(ratatui::widgets::Wrap { trim: true })
        .render(detail, buf);
}
