//! The Search pane, bottom left: how the AI is set to search, the counters of the search
//! shown (nodes, leaves, cut-offs, or MCTS's iterations and tree size), the position at the
//! tree cursor drawn small with notes on its node, and what comes next.

use super::game::Match;
use super::mcts::SearchKind;
use super::symbols;
use crate::components::mcts_search::MctsView;
use crate::components::mcts_search::outline;
use crate::components::tree_search::Describe;
use crate::components::tree_search::SearchView;
use crate::components::tree_search::pane::{
    Hide, hidden_node, hide_of, value_spans, window_before_return,
};
use crate::domain::numbers::{signed, thousands};
use crate::domain::prediction::Score;
use crate::domain::search::{Algorithm, NodeId, Stepper};
use crate::tabkit::goto;
use crate::widgets::{Theme, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// How the tab is set to search, for the Search pane's heading.
pub(super) struct Setting {
    pub(super) algorithm: SearchKind,
    pub(super) step_mode: bool,
    /// Autoplay's speed while it runs.
    pub(super) autoplay: Option<String>,
    /// Predict mode's score while it is on.
    pub(super) predict: Option<Score>,
    /// The stepper's step counter, while a search is shown.
    pub(super) step: Option<(u64, Option<u64>)>,
}

/// The Search pane's heading: the algorithm the counters below belong to, and how the AI
/// is set to search next when `a` changed it since.
fn info_heading<G: Describe>(game: &Match<G>, setting: &Setting, theme: &Theme) -> Line<'static> {
    let shown = match (&game.search, &game.mcts) {
        (Some(view), _) => Some(SearchKind::from_algorithm(view.stepper.algorithm().into())),
        (None, Some(_)) => Some(SearchKind::Mcts),
        (None, None) => None,
    };
    if let Some(shown) = shown.filter(|&s| s != setting.algorithm) {
        return Line::from(vec![
            Span::styled(format!(" {} shown", shown.short()), theme.title),
            Span::styled(
                format!(" · AI now {}", setting.algorithm.short()),
                theme.dim,
            ),
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

pub(super) fn render_info<G: Describe>(
    game: &Match<G>,
    setting: &Setting,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let title = match setting.step {
        Some((at, total)) => {
            // The title's room: the pane less its corners, the focus mark's place, the
            // words before the counter and one border cell after it.
            let room = usize::from(area.width).saturating_sub(13);
            format!(" Search · {}", goto::counter_within(at, total, room))
        }
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
    value.extend(value_spans(node, hide.hides_value(), theme));
    let mut notes = vec![Line::styled(played, theme.dim), Line::from(value)];
    // A hidden value's window would give it away (α or β moved to it).
    if stepper.algorithm() == Algorithm::AlphaBeta && !node.terminal && hide != Hide::All {
        // As entered → as now, so a finished node's final window reads with where it began.
        notes.push(Line::from(if hide == Hide::BeforeReturn {
            let (window, child) = window_before_return(stepper, id);
            format!("{window} before {child}")
        } else {
            crate::components::tree_search::explain::window_moves(node)
        }));
    }
    notes
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
            format!(" next: {}", outline::phase_name(view.stepper.phase())),
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
