//! The tree pane, right: minimax's or alpha-beta's search tree as an outline, one line a
//! node with its value and window, the folds, the cut-offs and the moves still to search;
//! with what predict mode hides of a node while a question waits (the Search pane's notes
//! hide the same).

use super::explain::{bound_tag, node_name, untried_labels};
use super::playable::{Describe, Playable};
use super::symbols;
use super::tree::{LineKind, TreeLine};
use super::view::SearchView;
use crate::domain::games::Game;
use crate::domain::numbers::signed;
use crate::domain::search::predict::Question;
use crate::domain::search::{Algorithm, CutoffKind, MoveOrder, NodeId, Stepper, TreeNode};
use crate::widgets::{Theme, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState, StatefulWidget, Widget, Wrap,
};

/// What a waiting prediction hides of a node, in predict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hide {
    /// Nothing: the node as it stands.
    Nothing,
    /// Its value, and its window as it was before its last child returned: what that child
    /// did to them is the question (a cut-off or a bound question's node).
    BeforeReturn,
    /// Its value and window: the question asks for the value it returns.
    All,
    /// Its moves still to search: the question asks which of them a cut-off skips.
    Pending,
}

/// The node a waiting prediction hides something of, and what, in predict mode.
pub fn hidden_node<G: Describe>(view: &SearchView<G>, predicting: bool) -> Option<(NodeId, Hide)> {
    match view.waiting().filter(|_| predicting)? {
        Question::Value { node } => Some((node, Hide::All)),
        Question::Cutoff { node } | Question::Bound { node } => Some((node, Hide::BeforeReturn)),
        // The cut-off is known by now: the window shows why it comes.
        Question::Pruned { node } => Some((node, Hide::Pending)),
    }
}

/// What `hidden` hides of node `id`.
pub fn hide_of(hidden: Option<(NodeId, Hide)>, id: NodeId) -> Hide {
    match hidden {
        Some((node, hide)) if node == id => hide,
        _ => Hide::Nothing,
    }
}

fn window_text<M>(node: &TreeNode<M>) -> String {
    format!("α {} β {}", signed(node.alpha()), signed(node.beta()))
}

/// The window of node `id` before its last child returned (that child was entered with
/// it), and the child's name: `("α -∞ β +3", "X7")`.
pub fn window_before_return<G: Playable>(stepper: &Stepper<G>, id: NodeId) -> (String, String) {
    let node = stepper.node(id);
    let last = stepper.children(id).last();
    let (alpha, beta) = last.map_or((node.alpha_in, node.beta_in), |child| {
        let child = stepper.node(child);
        (child.alpha_in, child.beta_in)
    });
    let window = format!(
        "α {} β {}",
        signed(i32::from(alpha)),
        signed(i32::from(beta))
    );
    (
        window,
        last.map_or_else(String::new, |c| node_name(stepper, c)),
    )
}

impl Hide {
    /// True when the node's value is hidden.
    pub fn hides_value(self) -> bool {
        matches!(self, Self::All | Self::BeforeReturn)
    }
}

/// A node's value with its bound sign; `?` before it has one, or while a prediction asks
/// for it (`hidden`).
pub fn value_spans<M>(node: &TreeNode<M>, hidden: bool, theme: &Theme) -> Vec<Span<'static>> {
    match node.bound().filter(|_| !hidden) {
        None => vec![Span::styled(symbols::UNKNOWN.glyph, theme.dim)],
        Some((bound, v)) => {
            let mut spans = vec![Span::styled(
                format!("{}{}", bound.sign(), signed(v)),
                theme.value(v),
            )];
            if let Some(tag) = bound_tag(node.bound_cause()) {
                spans.push(Span::styled(format!(" {tag}"), theme.dim));
            }
            spans
        }
    }
}

/// A move order in a few words, for the pane's title.
pub const fn order_name(order: MoveOrder) -> &'static str {
    match order {
        MoveOrder::Listed => "as listed",
        MoveOrder::Static => "static order",
        MoveOrder::Best => "best first",
    }
}

/// The tree pane: the search shown, or, with none yet, `empty` (what will show there).
pub fn render_tree<G: Describe>(
    search: Option<&SearchView<G>>,
    empty: Vec<Line<'static>>,
    focused: bool,
    predicting: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let title = match search {
        Some(view) => {
            let whose = if view.live {
                "Next AI move"
            } else if view.analysis {
                "Your position"
            } else {
                "Last AI move"
            };
            let order = view.stepper.order();
            if order == MoveOrder::Listed {
                format!(" {whose} · {} tree", view.stepper.algorithm())
            } else {
                let order = order_name(order);
                format!(" {whose} · {}, {order}", view.stepper.algorithm())
            }
        }
        None => " Search tree".to_string(),
    };
    let block = pane_block(&title, focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let Some(view) = search else {
        Paragraph::new(empty)
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
pub fn fit(line: Line<'_>, width: usize) -> Line<'_> {
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
pub fn scroll_offset(previous: usize, cursor: usize, height: usize, total: usize) -> usize {
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
            let moves = untried_labels(stepper, id);
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
                    untried_labels(stepper, id)
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
    if node.horizon {
        spans.push(Span::styled(
            format!("{} ", symbols::HORIZON.glyph),
            theme.dim,
        ));
    } else if node.terminal {
        let outcome = stepper.position(id).outcome();
        let text = outcome.map_or_else(String::new, G::result_text);
        spans.push(Span::styled(
            format!("{} {text} ", symbols::LEAF.glyph),
            theme.dim,
        ));
    } else if node.parent().is_none() {
        // Who MAX is changes (the AI for its move, you for `t`): the root says it.
        let max = G::player_name(stepper.root().to_move());
        spans.push(Span::raw(format!("MAX={max} ")));
    } else {
        spans.push(Span::raw(if node.maximizing { "MAX " } else { "MIN " }));
    }
    spans.extend(value_spans(node, hide.hides_value(), theme));
    if stepper.algorithm() == Algorithm::AlphaBeta && !node.terminal && hide != Hide::All {
        let window = if hide == Hide::BeforeReturn {
            let (window, child) = window_before_return(stepper, id);
            format!("{window} (before {child})")
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

#[cfg(test)]
mod hide_tests {
    use super::*;
    use crate::domain::games::tictactoe::{Board, Mark};

    fn row_text<G: Describe>(view: &SearchView<G>, id: NodeId, hide: Hide) -> String {
        let theme = Theme::new(false);
        node_spans(view, id, hide, &theme)
            .iter()
            .map(|span| span.content.as_ref())
            .collect()
    }

    /// §4 of the screens issue: while a question waits, the asked node's row shows no
    /// value, and for a cut-off or bound question the window as it was before the child
    /// returned (labelled so), never the window the return made, which is the answer.
    #[test]
    fn no_question_s_answer_is_on_the_asked_node_s_row_while_it_waits() {
        let mut asked = 0;
        for cells in ["O.X.X....", "X...O....", "XO..X....", "........."] {
            let root = Board::parse(cells, Some(Mark::O)).unwrap();
            let mut view = SearchView::new(root, Algorithm::AlphaBeta, MoveOrder::Listed, true);
            loop {
                if let Some(question) = view.waiting() {
                    let (id, hide) = hidden_node(&view, true).expect("a waiting question hides");
                    if let Question::Pruned { .. } = question {
                        // Its moves still to search are hidden instead (a line of its own).
                        assert_eq!(hide, Hide::Pending);
                        view.mark_answered();
                        continue;
                    }
                    let row = row_text(&view, id, hide);
                    let node = *view.stepper.node(id);
                    assert!(
                        row.contains(" ?"),
                        "{cells}: {question:?} shows a value: {row}"
                    );
                    if let Some((bound, v)) = node.bound() {
                        let shown = format!("{}{}", bound.sign(), signed(v));
                        assert!(!row.contains(&shown), "{cells}: {question:?}: {row}");
                    }
                    if let Question::Value { .. } = question {
                        assert!(!row.contains('α'), "{row}");
                    } else {
                        let (before, child) = window_before_return(&view.stepper, id);
                        assert!(row.contains(&format!("{before} (before {child})")), "{row}");
                        let now = window_text(&node);
                        if now != before {
                            assert!(!row.contains(&now), "{cells}: the answer {now}: {row}");
                        }
                    }
                    asked += 1;
                    view.mark_answered();
                    continue;
                }
                if view.stepper.step().is_none() || view.stepper.at_node_limit() {
                    break;
                }
            }
        }
        assert!(asked > 100, "{asked} questions checked");
    }
}
