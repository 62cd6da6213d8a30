//! The tree pane's content as rows of text: the AI's last search as an outline, folded to
//! the root's children at first, each node with its move, level, window and value, and the
//! words that explain the node under the cursor. Pure text: the view only styles it.

use super::ai::{Searched, Thought, Verdicts, board_lines, bounded, disc_glyph, leaf_arithmetic};
use super::symbols;
use crate::domain::games::Outcome;
use crate::domain::games::connect4::{Board, Disc};
use crate::domain::numbers::thousands;
use crate::domain::search::Bound;
use crate::domain::search::limited::{Limited, Node, NodeKind};
use crate::domain::search::mcts::{
    Expansion, Mcts, MctsStepper, Node as MctsNode, NodeId, Phase, PhaseRecord, ROOT,
};
use crate::domain::solve::verdict::Verdict;
use std::cell::Cell;
use std::collections::BTreeSet;

/// Values at or beyond this are the search's infinite window ends.
const SHOWN_INFINITY: i32 = 10_000;

/// Which nodes are unfolded, where the cursor is, and how far the pane is scrolled.
#[derive(Debug, Clone, Default)]
pub(crate) struct Folds {
    /// Unfolded nodes besides the root.
    open: BTreeSet<usize>,
    /// The cursor's row.
    pub(crate) cursor: usize,
    /// The first row shown (the view keeps the cursor in sight).
    pub(crate) offset: Cell<usize>,
}

impl Folds {
    /// Whether `node` shows its children (the root always does).
    pub(crate) fn is_open(&self, node: usize) -> bool {
        node == 0 || self.open.contains(&node)
    }

    /// Folds (`false`) or unfolds `node`.
    pub(crate) fn set(&mut self, node: usize, open: bool) {
        if open {
            self.open.insert(node);
        } else {
            self.open.remove(&node);
        }
    }
}

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
    let level = if node.maximizing { "MAX" } else { "MIN" };
    let window = format!("[{},{}]", end(node.alpha), end(node.beta));
    let value = match node.bound {
        Bound::Exact => format!("= {}", signed(node.value)),
        other => format!("{} {}", other.sign(), signed(node.value)),
    };
    let mark = match node.kind {
        NodeKind::Horizon(_) => format!(" {}", symbols::HORIZON.glyph),
        NodeKind::Finished => format!(" {}", symbols::FINISHED.glyph),
        NodeKind::TableHit => format!(" {}", symbols::TABLE_HIT.glyph),
        NodeKind::Inner if node.pruned > 0 => format!(" {}{}", symbols::CUT.glyph, node.pruned),
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

/// The outline of an MCTS tree, children sorted by visits (most first), as far as `folds`
/// opens it; the root's children carry the solver's verdicts.
/// `marked` nodes (the path a stepped selection took) carry the mark the chosen line has.
pub(crate) fn mcts_rows(
    mcts: &Mcts<Board>,
    verdicts: &Verdicts,
    folds: &Folds,
    marked: &[NodeId],
) -> Vec<Row> {
    let mut rows = Vec::new();
    let best = mcts.best_move();
    let root = mcts.root();
    rows.push(Row {
        node: ROOT as usize,
        text: format!(
            "{} root N {} ({} iterations)",
            symbols::OPEN.glyph,
            thousands(root.visits()),
            thousands(mcts.iterations())
        ),
        kind: RowKind::Inner,
        value: 0,
        chosen: true,
    });
    let shown = Shown {
        verdicts,
        folds,
        marked,
    };
    push_mcts(mcts, &shown, ROOT, 1, best, &mut rows);
    rows
}

/// What an MCTS outline shows beside the tree itself.
struct Shown<'a> {
    verdicts: &'a Verdicts,
    folds: &'a Folds,
    marked: &'a [NodeId],
}

/// Rows kept for one fold of an MCTS tree: a node with thousands of children lists its
/// most visited ones.
const MCTS_CHILDREN_SHOWN: usize = 7;

fn push_mcts(
    mcts: &Mcts<Board>,
    shown: &Shown<'_>,
    parent: NodeId,
    depth: usize,
    best: Option<u8>,
    rows: &mut Vec<Row>,
) {
    let mut children: Vec<(NodeId, &MctsNode<u8>)> = mcts
        .children(parent)
        .filter(|(_, n)| n.is_in_tree())
        .collect();
    children.sort_by_key(|(_, n)| std::cmp::Reverse(n.visits()));
    for (id, node) in children.into_iter().take(MCTS_CHILDREN_SHOWN) {
        let open = shown.folds.is_open(id as usize) || shown.marked.contains(&id);
        let has_children = mcts.children(id).any(|(_, n)| n.is_in_tree());
        let fold = match (has_children, open) {
            (false, _) => " ",
            (true, true) => symbols::OPEN.glyph,
            (true, false) => symbols::FOLDED.glyph,
        };
        let mv = node.mv().map_or(0, |m| m + 1);
        let ucb = node
            .last_ucb()
            .map_or_else(|| "  -".to_string(), |u| format!("{u:.2}"));
        let mut text = format!(
            "{}{fold} col {mv} N {} W/N {:.2} UCB {ucb}",
            "  ".repeat(depth),
            thousands(node.visits()),
            node.mean().unwrap_or(0.0),
        );
        let chosen = if shown.marked.is_empty() {
            depth == 1 && node.mv() == best
        } else {
            shown.marked.contains(&id)
        };
        if let Some(verdict) = node
            .mv()
            .filter(|_| depth == 1)
            .and_then(|m| shown.verdicts.of(usize::from(m)))
        {
            text = format!("{text} {}", short_verdict(verdict));
        }
        rows.push(Row {
            node: id as usize,
            text,
            kind: RowKind::Inner,
            value: 0,
            chosen,
        });
        if open && has_children {
            push_mcts(mcts, shown, id, depth + 1, None, rows);
        }
    }
}

/// A verdict in a few characters for a crowded row: `win 7`, `draw`, `loss 9`.
fn short_verdict(verdict: Verdict) -> String {
    match verdict.moves() {
        None => "draw".to_string(),
        Some(moves) if verdict.wins() => format!("win {moves}"),
        Some(moves) => format!("loss {moves}"),
    }
}

/// What an MCTS node's numbers mean, with the UCB arithmetic of its last selection.
pub(crate) fn explain_mcts(mcts: &Mcts<Board>, node: usize, thought: &Thought) -> Vec<String> {
    let id = node as NodeId;
    let n = mcts.node(id);
    let Some(mv) = n.mv() else {
        return vec![
            format!(
                "{} iterations: select by UCB1, expand one move, play a random game, back up the result.",
                thousands(mcts.iterations())
            ),
            "The AI plays the root move visited most (marked *).".to_string(),
        ];
    };
    let mut lines = vec![format!(
        "col {}: N {}, W {} (a draw ½), W/N {:.3}",
        mv + 1,
        thousands(n.visits()),
        n.wins(),
        n.mean().unwrap_or(0.0)
    )];
    if let Some(ucb) = n.last_ucb() {
        lines.push(format!("UCB1 when last compared: {ucb:.3}"));
        lines.push(format!(
            "  = W/N + c·√(ln N_parent / N), c = {:.2}",
            mcts.exploration()
        ));
    }
    if let Some(verdict) = thought
        .verdicts
        .of(usize::from(mv))
        .filter(|_| n.parent() == Some(ROOT))
    {
        lines.push(format!("Exact: the AI {verdict} with this column."));
    }
    lines
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
                "{level} child value; window [{}, {}] on entry.",
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
        Searched::Solved { nodes, .. } => vec![format!(
            "Exact solver: column {}, {} positions.",
            thought.column + 1,
            crate::domain::numbers::thousands(*nodes)
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

/// The nodes of the path the last selection took, while its iteration is under way (the
/// tree pane unfolds and marks them).
pub(crate) fn selected_path(stepper: &MctsStepper<Board>) -> Vec<NodeId> {
    match stepper.last_phase_record() {
        Some(PhaseRecord::Selection { path, .. }) => path.clone(),
        Some(PhaseRecord::Expansion(Expansion::Added { node, .. })) => {
            path_to(stepper.mcts(), *node)
        }
        Some(PhaseRecord::Simulation { from, .. }) => path_to(stepper.mcts(), *from),
        Some(PhaseRecord::Backpropagation { changes }) => changes.iter().map(|c| c.node).collect(),
        _ => Vec::new(),
    }
}

fn path_to(mcts: &Mcts<Board>, node: NodeId) -> Vec<NodeId> {
    let mut path = vec![node];
    let mut at = node;
    while let Some(parent) = mcts.node(at).parent() {
        path.push(parent);
        at = parent;
    }
    path.reverse();
    path
}

/// A node's move as the pane writes it.
fn column_of(mcts: &Mcts<Board>, node: NodeId) -> String {
    mcts.node(node)
        .mv()
        .map_or_else(|| "root".to_string(), |mv| format!("col {}", mv + 1))
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Selection => "selection",
        Phase::Expansion => "expansion",
        Phase::Simulation => "simulation",
        Phase::Backpropagation => "backpropagation",
    }
}

/// Where the stepped search stands, for the status line.
pub(crate) fn phase_said(stepper: &MctsStepper<Board>) -> String {
    let done = stepper.mcts().iterations();
    match stepper.last_phase_record() {
        None => "The search has not started: Space runs its first phase".to_string(),
        Some(record) => format!(
            "Iteration {}: {} done; next: {}",
            done + u64::from(record.phase() != Phase::Backpropagation),
            phase_name(record.phase()),
            phase_name(stepper.phase())
        ),
    }
}

/// What the last phase of a stepped search did, in words: the comparison that chose each
/// step of the path, the node added, the random game, the numbers backed up.
pub(crate) fn phase_lines(stepper: &MctsStepper<Board>) -> Vec<String> {
    let mcts = stepper.mcts();
    let mut lines = vec![format!(
        "{} iterations done · next: {}",
        thousands(mcts.iterations()),
        phase_name(stepper.phase())
    )];
    let Some(record) = stepper.last_phase_record() else {
        lines.push("Space: selection, the first of four phases.".to_string());
        return lines;
    };
    match record {
        PhaseRecord::Selection { path, steps } => lines.extend(selection_lines(mcts, path, steps)),
        PhaseRecord::Expansion(expansion) => lines.push(match expansion {
            Expansion::Added { node, mv } => format!(
                "Expansion: col {} added under {}, its first untried move.",
                mv + 1,
                column_of(mcts, mcts.node(*node).parent().unwrap_or(ROOT))
            ),
            Expansion::Terminal { node } => {
                format!(
                    "Expansion: the game is over at {}: nothing to add.",
                    column_of(mcts, *node)
                )
            }
            Expansion::NodeLimit { node } => format!(
                "Expansion: the tree is full; the game is played from {}.",
                column_of(mcts, *node)
            ),
        }),
        PhaseRecord::Simulation {
            from,
            moves,
            outcome,
        } => {
            let played: Vec<String> = moves.iter().map(|m| (m + 1).to_string()).collect();
            lines.push(format!(
                "Simulation: {} random moves: {}",
                moves.len(),
                played.join(" ")
            ));
            // The random game's last position, as a small board.
            let end = moves.iter().fold(mcts.position(*from), |board, &mv| {
                board.play(usize::from(mv))
            });
            lines.extend(board_lines(&end).into_iter().map(|row| format!("  {row}")));
            lines.push(match outcome {
                Outcome::Winner(disc) => format!(
                    "{} {} wins the random game.",
                    disc_glyph(*disc),
                    disc.name()
                ),
                Outcome::Draw => "The random game is a draw.".to_string(),
            });
        }
        PhaseRecord::Backpropagation { changes } => {
            lines.push(
                "Backpropagation: N +1 on the path, W +1 for the winner's moves (½ a draw):"
                    .to_string(),
            );
            for change in changes {
                lines.push(format!(
                    "  {}: N {}→{}, W {}→{}",
                    column_of(mcts, change.node),
                    change.visits.0,
                    change.visits.1,
                    change.half_wins.0 as f64 / 2.0,
                    change.half_wins.1 as f64 / 2.0
                ));
            }
        }
    }
    lines
}

/// The selection phase: the path it took, and the comparison of the last step down, each
/// child's UCB1 value written as its share of wins plus its exploration bonus.
fn selection_lines(
    mcts: &Mcts<Board>,
    path: &[NodeId],
    steps: &[crate::domain::search::mcts::SelectionStep<u8>],
) -> Vec<String> {
    let mut lines = Vec::new();
    let names: Vec<String> = path.iter().map(|&n| column_of(mcts, n)).collect();
    lines.push(format!("Selection: {}", names.join(" → ")));
    match steps.last() {
        None => lines.push("The root still has untried moves: expand it.".to_string()),
        Some(step) => {
            lines.push(format!(
                "At {}: UCB1 = W/N + {:.2}·√(ln {} / N)",
                column_of(mcts, step.parent),
                mcts.exploration(),
                step.parent_visits
            ));
            let best = step
                .candidates
                .iter()
                .map(|c| c.ucb)
                .fold(f64::MIN, f64::max);
            let tied = step
                .candidates
                .iter()
                .filter(|c| (c.ucb - best).abs() < 1e-12)
                .count()
                > 1;
            for candidate in &step.candidates {
                let mark = match (candidate.node == step.chosen, tied) {
                    (true, true) => " ◀ max, first",
                    (true, false) => " ◀ max",
                    _ => "",
                };
                let share = candidate.wins / candidate.visits.max(1) as f64;
                lines.push(format!(
                    "  col {} N {} W {}: {share:.2} + {:.2} = {:.2}{mark}",
                    candidate.mv + 1,
                    candidate.visits,
                    candidate.wins,
                    candidate.ucb - share,
                    candidate.ucb
                ));
            }
        }
    }
    lines
}
