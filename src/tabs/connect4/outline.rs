//! The tree pane's content as rows of text: the AI's last search as an outline, folded to
//! the root's children at first, each node with its move, level, window and value, and the
//! words that explain the node under the cursor. Pure text: the view only styles it.

use super::ai::{Searched, Thought, Verdicts, bounded, leaf_arithmetic};
use super::symbols;
pub(crate) use crate::components::mcts_search::outline::Folds;
use crate::components::mcts_search::outline::{self, Exact, short_verdict};
use crate::domain::games::connect4::{Board, Disc};
use crate::domain::numbers::thousands;
use crate::domain::search::Bound;
use crate::domain::search::limited::{Limited, Node, NodeKind};
use crate::domain::search::mcts::Mcts;
use crate::widgets::discs::disc_glyph;

/// Values at or beyond this are the search's infinite window ends.
const SHOWN_INFINITY: i32 = 10_000;

/// What a row shows, for its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowKind {
    /// A node whose children were searched.
    Inner,
    /// Scored by the evaluation at the depth limit.
    Horizon,
    /// A finished game.
    Finished,
    /// Answered by the transposition table.
    TableHit,
}

/// One row of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Row {
    /// The recorded node.
    pub(crate) node: usize,
    /// Its text, indented.
    pub(crate) text: String,
    /// What it is.
    pub(crate) kind: RowKind,
    /// The value, for its colour.
    pub(crate) value: i32,
    /// Whether it is on the chosen line (the root's best child, its best child, ...).
    pub(crate) chosen: bool,
}

/// The outline of an alpha-beta search, as far as `folds` opens it. `thought` gives the
/// verdicts written beside the root's children.
pub(crate) fn rows(found: &Limited<Board>, thought: &Thought, folds: &Folds) -> Vec<Row> {
    let mut rows = Vec::new();
    if found.tree.is_empty() {
        return rows;
    }
    let mut chosen_line = vec![0];
    while let Some(&at) = chosen_line.last() {
        let best = found.tree[at].best;
        match found
            .children(at)
            .find(|&c| best.is_some() && found.tree[c].mv == best)
        {
            Some(child) => chosen_line.push(child),
            None => break,
        }
    }
    push_rows(found, thought, folds, 0, &chosen_line, &mut rows);
    rows
}

fn push_rows(
    found: &Limited<Board>,
    thought: &Thought,
    folds: &Folds,
    node: usize,
    chosen_line: &[usize],
    rows: &mut Vec<Row>,
) {
    let n = &found.tree[node];
    let mut text = format!(
        "{}{}",
        "  ".repeat(usize::from(n.ply)),
        node_text(n, folds.is_open(node), has_children(found, node))
    );
    if let Some(verdict) =
        n.mv.filter(|_| n.ply == 1)
            .and_then(|mv| thought.verdicts.of(usize::from(mv)))
    {
        text = format!("{text}  {verdict}");
    }
    rows.push(Row {
        node,
        text,
        kind: kind_of(n),
        value: n.value,
        chosen: chosen_line.contains(&node),
    });
    if folds.is_open(node) {
        for child in found.children(node) {
            push_rows(found, thought, folds, child, chosen_line, rows);
        }
    }
}

fn has_children(found: &Limited<Board>, node: usize) -> bool {
    found.children(node).next().is_some()
}

fn kind_of(
    node: &Node<u8, <Board as crate::domain::search::heuristic::Evaluate>::Counts>,
) -> RowKind {
    match node.kind {
        NodeKind::Inner => RowKind::Inner,
        NodeKind::Horizon(_) => RowKind::Horizon,
        NodeKind::Finished => RowKind::Finished,
        NodeKind::TableHit => RowKind::TableHit,
    }
}

/// A node in one line: fold mark, move, level, window, value and marks.
fn node_text(
    node: &Node<u8, <Board as crate::domain::search::heuristic::Evaluate>::Counts>,
    open: bool,
    children: bool,
) -> String {
    let fold = match (children, open) {
        (false, _) => " ",
        (true, true) => symbols::OPEN.glyph,
        (true, false) => symbols::FOLDED.glyph,
    };
    let mv = node
        .mv
        .map_or_else(|| "root".to_string(), |mv| format!("col {}", mv + 1));
    // The root is the AI's move: MAX is the AI, as the Tic-tac-toe tree writes it.
    let level = match (node.mv, node.maximizing) {
        (None, _) => "MAX=AI",
        (Some(_), true) => "MAX",
        (Some(_), false) => "MIN",
    };
    // The Tic-tac-toe tree's notation: `α -∞ β -4`, `=+3`, `≤-9`, `╳ 6 pruned`.
    let window = format!("α {} β {}", end(node.alpha), end(node.beta));
    let value = format!("{}{}", node.bound.sign(), signed(node.value));
    let mark = match node.kind {
        NodeKind::Horizon(_) => format!(" {}", symbols::HORIZON.glyph),
        NodeKind::Finished => format!(" {}", symbols::FINISHED.glyph),
        NodeKind::TableHit => format!(" {}", symbols::TABLE_HIT.glyph),
        NodeKind::Inner if node.pruned > 0 => {
            format!(" {} {} pruned", symbols::CUT.glyph, node.pruned)
        }
        // Every child searched, yet only a bound: say so, or `≤` reads as "cut short".
        NodeKind::Inner if node.bound != Bound::Exact => " window".to_string(),
        NodeKind::Inner => String::new(),
    };
    format!("{fold} {mv} {level} {window} {value}{mark}")
}

/// A value, or ±∞ for the window's open ends.
fn end(value: i32) -> String {
    if value >= SHOWN_INFINITY {
        "+∞".to_string()
    } else if value <= -SHOWN_INFINITY {
        "-∞".to_string()
    } else {
        signed(value)
    }
}

fn signed(value: i32) -> String {
    format!("{value:+}")
}

/// The solver's verdicts as the outline's exact values: `win 7` beside each column, and the
/// sentence under the outline.
fn exact_values(verdicts: &Verdicts) -> Vec<Exact> {
    (0..crate::domain::games::connect4::WIDTH)
        .filter_map(|column| {
            let verdict = verdicts.of(column)?;
            Some(Exact {
                mv: column as u8,
                short: short_verdict(verdict),
                sentence: format!("Exact: the AI {verdict} with this column."),
            })
        })
        .collect()
}

/// The outline of an MCTS tree (see [`outline::mcts_rows`]), the solver's verdicts
/// beside the root's children.
pub(crate) fn mcts_rows(
    mcts: &Mcts<Board>,
    verdicts: &Verdicts,
    folds: &Folds,
    marked: &[crate::domain::search::mcts::NodeId],
) -> Vec<Row> {
    outline::mcts_rows(mcts, &exact_values(verdicts), folds, marked, None)
        .into_iter()
        .map(|row| Row {
            node: row.node,
            text: row.text,
            kind: RowKind::Inner,
            value: 0,
            chosen: row.chosen,
        })
        .collect()
}

/// What an MCTS node's numbers mean (see [`outline::explain_mcts`]).
pub(crate) fn explain_mcts(mcts: &Mcts<Board>, node: usize, thought: &Thought) -> Vec<String> {
    outline::explain_mcts(mcts, node, &exact_values(&thought.verdicts))
}

/// What the node under the cursor means, in a few lines: the arithmetic of a leaf, the
/// reason for a cut-off, a table hit.
pub(crate) fn explain(found: &Limited<Board>, node: usize, root_mover: Disc) -> Vec<String> {
    let Some(n) = found.tree.get(node) else {
        return Vec::new();
    };
    let side = format!("{} ({})", disc_glyph(root_mover), root_mover.name());
    match &n.kind {
        NodeKind::Horizon(counts) => vec![
            format!("Depth limit: the evaluation for {side}:"),
            format!("{} {}", disc_glyph(Disc::Red), counts.red.written()),
            format!("{} {}", disc_glyph(Disc::Yellow), counts.yellow.written()),
            format!(
                "threes×5 + twos×2 + centre×3: {}",
                leaf_arithmetic(*counts, root_mover)
            ),
        ],
        NodeKind::Finished if n.value == 0 => vec!["The board is full: a draw, 0.".to_string()],
        NodeKind::Finished => vec![format!(
            "Four in a row, {} plies down: {} = {}",
            n.ply,
            if n.value > 0 {
                format!("+1000 - {}", n.ply)
            } else {
                format!("{} - 1000", n.ply)
            },
            signed(n.value)
        )],
        NodeKind::TableHit => vec![format!(
            "Transposition table: this position was searched before at the same depth; its {} came back without a search.",
            bounded(n.value, n.bound)
        )],
        NodeKind::Inner => {
            let level = if n.maximizing {
                "MAX takes the highest"
            } else {
                "MIN takes the lowest"
            };
            let mut lines = vec![format!(
                "{level} child value; window α {} β {} on entry.",
                end(n.alpha),
                end(n.beta)
            )];
            if n.pruned > 0 {
                let why = if n.maximizing {
                    "value ≥ β"
                } else {
                    "value ≤ α"
                };
                lines.push(format!(
                    "{} {} moves pruned: {why}, so the player above never lets the game come here.",
                    symbols::CUT.glyph,
                    n.pruned
                ));
            }
            lines
        }
    }
}

/// The summary lines above the outline: the search's result and the work of each depth.
pub(crate) fn summary(thought: &Thought) -> Vec<String> {
    match &thought.searched {
        Searched::AlphaBeta(found) => limited_summary(found),
        Searched::GaveUp { budget, fallback } => {
            let mut lines = vec![format!(
                "Solver gave up at {} positions: alpha-beta chose.",
                crate::domain::numbers::thousands(*budget)
            )];
            lines.extend(limited_summary(fallback));
            lines
        }
        Searched::Mcts(mcts) => {
            let best = mcts.root_moves().into_iter().max_by_key(|m| m.visits);
            vec![
                format!(
                    "MCTS: {} iterations, c = {:.2}: col {}",
                    thousands(mcts.iterations()),
                    mcts.exploration(),
                    thought.column + 1
                ),
                format!(
                    "visited {} times of {}; tree {} nodes",
                    thousands(best.map_or(0, |b| b.visits)),
                    thousands(mcts.iterations()),
                    thousands(mcts.node_count() as u64)
                ),
            ]
        }
        Searched::Solved { nodes, source, .. } => vec![format!(
            "Exact solver: column {}, {}.",
            thought.column + 1,
            super::ai::searched_words(*nodes, *source)
        )],
        Searched::Random { open } => vec![format!(
            "Random: column {} of {open} open, drawn from the seed.",
            thought.column + 1
        )],
    }
}

fn limited_summary(found: &Limited<Board>) -> Vec<String> {
    let o = found.options;
    let on = |b: bool| if b { "on" } else { "off" };
    let total = found.total();
    let per_depth: Vec<String> = found
        .iterations
        .iter()
        .map(|i| crate::domain::numbers::thousands(i.stats.nodes))
        .collect();
    let mut lines = vec![
        format!(
            "Depth {}: value {} → col {}; {} nodes",
            o.depth,
            signed(found.value()),
            found.best_move().map_or(0, |m| m + 1),
            crate::domain::numbers::thousands(total.nodes)
        ),
        format!(
            "deepening {} · ordering {} · table {}",
            on(o.deepening),
            on(o.ordering),
            on(o.table)
        ),
        format!(
            "cut-offs {} · table hits {}",
            crate::domain::numbers::thousands(total.cutoffs),
            crate::domain::numbers::thousands(total.table_hits)
        ),
    ];
    if per_depth.len() > 1 {
        lines.push(format!("per depth: {}", per_depth.join(" ")));
    }
    if !found.tree_complete {
        lines.push(format!(
            "The pane keeps the first {} nodes of the last depth.",
            crate::domain::numbers::thousands(found.tree.len() as u64)
        ));
    }
    lines
}
