//! An MCTS search as text, for any game: the tree as an outline (children sorted by visits,
//! with `N`, `W/N` and the UCB1 value the next selection would give it, and the exact value of each root move beside
//! it), the words that explain the node under the cursor, and what each phase of a stepped
//! search did. Connect Four and the Tic-tac-toe tab both show their MCTS through it, so the
//! two panes explain the same search in the same words; each tab only says how its moves,
//! players and positions are written ([`Names`]) and what the exact value of each root move
//! is ([`Exact`]). Pure text: the views only style it.

use crate::domain::games::{Game, Outcome};
use crate::domain::numbers::thousands;
use crate::domain::search::mcts::{
    Expansion, Mcts, MctsStepper, Node, NodeId, Phase, PhaseRecord, ROOT, Rollout, SelectionStep,
};
use crate::domain::solve::verdict::Verdict;
use std::cell::Cell;
use std::collections::BTreeSet;

/// The mark of a node whose children are listed (the tabs' symbol tables use it too, so the
/// legend shows what the outline draws).
pub const OPEN: &str = "▾";
/// The mark of a node whose children are hidden.
pub const FOLDED: &str = "▸";
/// The mark before the exact solver's answer on a root move's row (`≡ draw`).
pub const SOLVER_MARK: &str = "≡";

/// How a game is written in the outline: the tab knows its game's words, the outline only
/// puts them together.
pub trait Names: Rollout + Game<Move = u8> {
    /// A move from this position, as the tree writes it (`col 4`, `X5`, `+2=3`).
    fn move_name(&self, mv: u8) -> String;
    /// A move of a random game, in the list of the simulation's moves, where shorter reads
    /// better (`4`); the tree's name by default.
    fn rollout_move(&self, mv: u8) -> String {
        self.move_name(mv)
    }
    /// A player, as "… wins the random game" names it (`● red`, `X`, `1st`).
    fn side_name(player: Self::Player) -> String;
    /// The position in a few short lines (the random game's end is drawn with them).
    fn board_lines(&self) -> Vec<String>;
    /// Whether a game can end drawn: then a draw counts ½ in `W`, and the words say so.
    const CAN_DRAW: bool = true;
}

/// How `W` counts a game's end, for a game that `can_draw` or not.
pub const fn win_counting(can_draw: bool) -> &'static str {
    if can_draw { " (a draw ½)" } else { "" }
}

/// The exact value of one root move, as the caller's solver gives it: a few characters for
/// the row (`win 7`, `draw`) and a sentence for the node's explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exact {
    /// The root move.
    pub mv: u8,
    /// Beside the move's row.
    pub short: String,
    /// Under the outline when the cursor is on the move ("Exact: the AI wins in 7 moves
    /// with this column.").
    pub sentence: String,
}

/// `1 iteration`, `12 iterations`: a count and its noun, singular for one.
fn counted(n: u64, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", thousands(n))
}

/// A verdict in a few characters for a crowded row: `win 7`, `draw`, `loss 9` (the mover's
/// own moves, as the verdict counts them).
pub fn short_verdict(verdict: Verdict) -> String {
    match verdict.moves() {
        None => "draw".to_string(),
        Some(moves) if verdict.wins() => format!("win {moves}"),
        Some(moves) => format!("loss {moves}"),
    }
}

/// Which nodes are unfolded, where the cursor is, and how far the pane is scrolled.
#[derive(Debug, Clone, Default)]
pub struct Folds {
    /// Unfolded nodes besides the root.
    open: BTreeSet<usize>,
    /// The cursor's row.
    pub cursor: usize,
    /// The first row shown (the view keeps the cursor in sight).
    pub offset: Cell<usize>,
}

impl Folds {
    /// Whether `node` shows its children (the root always does).
    pub fn is_open(&self, node: usize) -> bool {
        node == 0 || self.open.contains(&node)
    }

    /// Folds (`false`) or unfolds `node`.
    pub fn set(&mut self, node: usize, open: bool) {
        if open {
            self.open.insert(node);
        } else {
            self.open.remove(&node);
        }
    }

    /// Whether any node besides the root is unfolded.
    pub fn any_open(&self) -> bool {
        !self.open.is_empty()
    }

    /// Folds every node back to the root's children.
    pub fn fold_all(&mut self) {
        self.open.clear();
    }
}

/// At most this many rows are listed, so unfolding every node of a tree of 100,000
/// iterations stays cheap to draw; a last row says more were left out.
pub const MAX_ROWS: usize = 20_000;

/// One row of an MCTS outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The node.
    pub node: usize,
    /// Its text, indented.
    pub text: String,
    /// Whether it is marked: the root and the move the AI plays, or the path of the
    /// iteration under way.
    pub chosen: bool,
}

/// The outline of an MCTS tree, children sorted by visits (most first, legal-move order
/// among equals), as far as `folds` opens it; the root's children carry their `exact`
/// values. `marked` nodes (the path a stepped iteration took) are unfolded and carry the
/// mark the chosen move has.
pub fn mcts_rows<G: Names>(
    mcts: &Mcts<G>,
    exact: &[Exact],
    folds: &Folds,
    marked: &[NodeId],
    asked: Option<NodeId>,
) -> Vec<Row> {
    let root = mcts.root();
    let mut rows = vec![Row {
        node: ROOT as usize,
        text: format!(
            "{OPEN} root N {} ({})",
            thousands(root.visits()),
            counted(mcts.iterations(), "iteration")
        ),
        chosen: true,
    }];
    let shown = Shown {
        exact,
        folds,
        marked,
        best: mcts.best_move(),
        asked,
    };
    push_mcts(mcts, &shown, ROOT, *mcts.root_position(), 1, &mut rows);
    capped(rows)
}

/// `rows` cut to [`MAX_ROWS`], a last row saying so when any were left out.
pub fn capped(mut rows: Vec<Row>) -> Vec<Row> {
    if rows.len() > MAX_ROWS {
        rows.truncate(MAX_ROWS);
        rows.push(Row {
            node: ROOT as usize,
            text: "… more rows not shown: fold some (←)".to_string(),
            chosen: false,
        });
    }
    rows
}

/// The mark before a node's move: open, folded, or none for a node without children.
pub const fn fold_mark(has_children: bool, open: bool) -> &'static str {
    match (has_children, open) {
        (false, _) => " ",
        (true, true) => OPEN,
        (true, false) => FOLDED,
    }
}

/// What an MCTS outline shows beside the tree itself.
struct Shown<'a> {
    exact: &'a [Exact],
    folds: &'a Folds,
    marked: &'a [NodeId],
    /// The root move the AI plays.
    best: Option<u8>,
    /// The node a pick question asks about: its children's UCB is the answer, so it is
    /// not shown while the question waits.
    asked: Option<NodeId>,
}

fn push_mcts<G: Names>(
    mcts: &Mcts<G>,
    shown: &Shown<'_>,
    parent: NodeId,
    position: G,
    depth: usize,
    rows: &mut Vec<Row>,
) {
    let mut children: Vec<(NodeId, &Node<u8>)> = mcts
        .children(parent)
        .filter(|(_, n)| n.is_in_tree())
        .collect();
    children.sort_by_key(|(_, n)| std::cmp::Reverse(n.visits()));
    for (id, node) in children {
        if rows.len() > MAX_ROWS {
            return;
        }
        let open = shown.folds.is_open(id as usize) || shown.marked.contains(&id);
        let has_children = mcts.children(id).any(|(_, n)| n.is_in_tree());
        let fold = fold_mark(has_children, open);
        let mv = node.mv().unwrap_or_default();
        // As the next selection would compute it, not as it stood when last compared:
        // a stale value would show a child the selection would not take.
        let ucb = match mcts.ucb_now(id) {
            _ if shown.asked == Some(parent) => "   ?".to_string(),
            Some(u) => format!("{u:.2}"),
            None => "  -".to_string(),
        };
        let mut text = format!(
            "{}{fold} {} N {} W/N {:.2} UCB {ucb}",
            "  ".repeat(depth),
            position.move_name(mv),
            thousands(node.visits()),
            node.mean().unwrap_or(0.0),
        );
        let chosen = if shown.marked.is_empty() {
            depth == 1 && node.mv() == shown.best
        } else {
            shown.marked.contains(&id)
        };
        if let Some(exact) = exact_of(shown.exact, mv).filter(|_| depth == 1) {
            text = format!("{text} {SOLVER_MARK} {}", exact.short);
        }
        rows.push(Row {
            node: id as usize,
            text,
            chosen,
        });
        if open && has_children {
            push_mcts(mcts, shown, id, position.play(mv), depth + 1, rows);
        }
    }
}

/// The exact value of the root move `mv`, if the tab gave one.
pub fn exact_of(exact: &[Exact], mv: u8) -> Option<&Exact> {
    exact.iter().find(|e| e.mv == mv)
}

/// What an MCTS node's numbers mean: `N`, `W`, `W/N`, the UCB1 value the next selection
/// would give it with its arithmetic, and for a root move its exact value.
pub fn explain_mcts<G: Names>(mcts: &Mcts<G>, node: usize, exact: &[Exact]) -> Vec<String> {
    let id = node as NodeId;
    let n = mcts.node(id);
    let Some(mv) = n.mv() else {
        return vec![
            format!(
                "{}: select by UCB1, expand one move, play a random game, back up the result.",
                counted(mcts.iterations(), "iteration")
            ),
            "The AI plays the root move visited most (marked *).".to_string(),
        ];
    };
    let parent = n.parent().unwrap_or(ROOT);
    let mut lines = vec![format!(
        "{}: N {}, W {}{}, W/N {:.3}",
        mcts.position(parent).move_name(mv),
        thousands(n.visits()),
        n.wins(),
        win_counting(G::CAN_DRAW),
        n.mean().unwrap_or(0.0)
    )];
    if let (Some(ucb), Some(mean)) = (mcts.ucb_now(id), n.mean()) {
        // The value the parent's next selection computes from the numbers now, the one
        // the tree's UCB column shows.
        lines.push(format!("UCB1 now: {ucb:.3} = W/N + c·√(ln N_parent / N)"));
        lines.push(format!(
            "  = {mean:.3} + {:.2}·√(ln {} / {})",
            mcts.exploration(),
            mcts.node(parent).visits(),
            n.visits(),
        ));
    }
    if let Some(exact) = exact_of(exact, mv).filter(|_| parent == ROOT) {
        lines.push(exact.sentence.clone());
    }
    lines
}

/// The nodes of the path the last selection took, while its iteration is under way (the
/// tree pane unfolds and marks them).
pub fn selected_path<G: Rollout>(stepper: &MctsStepper<G>) -> Vec<NodeId> {
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

fn path_to<G: Rollout>(mcts: &Mcts<G>, node: NodeId) -> Vec<NodeId> {
    let mut path = vec![node];
    let mut at = node;
    while let Some(parent) = mcts.node(at).parent() {
        path.push(parent);
        at = parent;
    }
    path.reverse();
    path
}

/// A node's move as the pane writes it, `root` for the root.
fn move_of<G: Names>(mcts: &Mcts<G>, node: NodeId) -> String {
    let n = mcts.node(node);
    match (n.parent(), n.mv()) {
        (Some(parent), Some(mv)) => mcts.position(parent).move_name(mv),
        _ => "root".to_string(),
    }
}

/// A phase's name, as the status line and the pane say it.
pub const fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Selection => "selection",
        Phase::Expansion => "expansion",
        Phase::Simulation => "simulation",
        Phase::Backpropagation => "backpropagation",
    }
}

/// Where the stepped search stands, for the status line.
pub fn phase_said<G: Rollout>(stepper: &MctsStepper<G>) -> String {
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
pub fn phase_lines<G: Names>(stepper: &MctsStepper<G>) -> Vec<String> {
    let mcts = stepper.mcts();
    let mut lines = vec![format!(
        "{} done · next: {}",
        counted(mcts.iterations(), "iteration"),
        phase_name(stepper.phase())
    )];
    let Some(record) = stepper.last_phase_record() else {
        lines.push("Space: selection, the first of four phases.".to_string());
        return lines;
    };
    match record {
        PhaseRecord::Selection { path, steps } => lines.extend(selection_lines(mcts, path, steps)),
        PhaseRecord::Expansion(expansion) => lines.push(match expansion {
            Expansion::Added { node, .. } => format!(
                "Expansion: {} added under {}, its first untried move.",
                move_of(mcts, *node),
                move_of(mcts, mcts.node(*node).parent().unwrap_or(ROOT))
            ),
            Expansion::Terminal { node } => {
                format!(
                    "Expansion: the game is over at {}: nothing to add.",
                    move_of(mcts, *node)
                )
            }
            Expansion::NodeLimit { node } => format!(
                "Expansion: the tree is full; the game is played from {}.",
                move_of(mcts, *node)
            ),
        }),
        PhaseRecord::Simulation {
            from,
            moves,
            outcome,
        } => {
            let mut position = mcts.position(*from);
            let mut played = Vec::new();
            for &mv in moves {
                played.push(position.rollout_move(mv));
                position = position.play(mv);
            }
            lines.push(format!(
                "Simulation: {}: {}",
                counted(moves.len() as u64, "random move"),
                played.join(" ")
            ));
            // The random game's last position, drawn small.
            lines.extend(
                position
                    .board_lines()
                    .into_iter()
                    .map(|row| format!("  {row}")),
            );
            lines.push(match outcome {
                Outcome::Winner(player) => {
                    format!("{} wins the random game.", G::side_name(*player))
                }
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
                    move_of(mcts, change.node),
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
fn selection_lines<G: Names>(
    mcts: &Mcts<G>,
    path: &[NodeId],
    steps: &[SelectionStep<u8>],
) -> Vec<String> {
    let mut lines = Vec::new();
    let names: Vec<String> = path.iter().map(|&n| move_of(mcts, n)).collect();
    lines.push(format!("Selection: {}", names.join(" → ")));
    match steps.last() {
        None => lines.push("The root still has untried moves: expand it.".to_string()),
        Some(step) => {
            lines.push(format!(
                "At {}: UCB1 = W/N + {:.2}·√(ln {} / N)",
                move_of(mcts, step.parent),
                mcts.exploration(),
                step.parent_visits
            ));
            let at = mcts.position(step.parent);
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
                    "  {} N {} W {}: {share:.2} + {:.2} = {:.2}{mark}",
                    at.move_name(candidate.mv),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 29 §5: the Game of Eight has no draws, so its MCTS words never count one.
    #[test]
    fn a_game_without_draws_does_not_speak_of_them() {
        use crate::domain::games::eight::Eight;
        use crate::domain::games::tictactoe::{Board, Mark};
        let mut eight = Mcts::new(Eight::start(), 1.4, 7);
        eight.run(50);
        let mut board = Mcts::new(Board::empty(Mark::X), 1.4, 7);
        board.run(50);
        let child = |mcts_children: Vec<NodeId>| mcts_children[0] as usize;
        let eight_words = explain_mcts(
            &eight,
            child(eight.children(ROOT).map(|(id, _)| id).collect()),
            &[],
        );
        let board_words = explain_mcts(
            &board,
            child(board.children(ROOT).map(|(id, _)| id).collect()),
            &[],
        );
        assert!(!eight_words.concat().contains("draw"), "{eight_words:?}");
        assert!(
            board_words.concat().contains("(a draw ½)"),
            "{board_words:?}"
        );
    }

    #[test]
    fn the_ucb_column_shows_the_value_the_next_selection_computes_not_a_stale_one() {
        use crate::domain::games::tictactoe::{Board, Mark};
        let mut mcts = Mcts::new(Board::empty(Mark::X), 1.4, 7);
        mcts.run(12);
        let rows = mcts_rows(&mcts, &[], &Folds::default(), &[], None);
        let mut stale = 0;
        for row in &rows[1..] {
            let id = row.node as NodeId;
            let now = format!("UCB {:.2}", mcts.ucb_now(id).unwrap());
            assert!(row.text.contains(&now), "{} should show {now}", row.text);
            let last = mcts.node(id).last_ucb().map(|u| format!("UCB {u:.2}"));
            stale += usize::from(last.is_some_and(|last| last != now));
        }
        assert!(stale > 0, "some value went stale since it was compared");
    }

    #[test]
    fn an_outline_unfolded_whole_stops_at_its_row_limit_and_says_so() {
        use crate::domain::games::tictactoe::{Board, Mark};
        let mut mcts = Mcts::new(Board::empty(Mark::X), 1.4, 1);
        mcts.run(30_000);
        let mut folds = Folds::default();
        for (id, _) in mcts.nodes() {
            folds.set(id as usize, true);
        }
        let rows = mcts_rows(&mcts, &[], &folds, &[], None);
        assert_eq!(rows.len(), MAX_ROWS + 1);
        assert!(rows[MAX_ROWS].text.starts_with("… more rows not shown"));
        let few = mcts_rows(&mcts, &[], &Folds::default(), &[], None);
        assert_eq!(few.len(), 10, "the root and its nine moves");
        assert!(!few.iter().any(|r| r.text.contains("more rows")));
    }

    #[test]
    fn folding_all_leaves_only_the_root_open() {
        let mut folds = Folds::default();
        folds.set(3, true);
        assert!(folds.any_open() && folds.is_open(3));
        folds.fold_all();
        assert!(!folds.any_open() && !folds.is_open(3) && folds.is_open(0));
    }
}
