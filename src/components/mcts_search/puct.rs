//! `AlphaZero`'s PUCT stepped through the component: its outline (every edge's `P`, `N`,
//! `Q`, `U` and `Q + U`, as the next walk weighs them), the words for its three phases
//! (the leaf valued by the network, not by a random game), and its picks, graded with the
//! slip a wrong answer makes (`domain::learn::selfplay::predict`).

use super::outline::{
    Exact, Folds, MAX_ROWS, Names, OPEN, Row, SOLVER_MARK, capped, exact_of, fold_mark,
};
use super::search::SteppedSearch;
use crate::domain::learn::selfplay::learnable::Learnable;
use crate::domain::learn::selfplay::predict::{PuctPick, asks_puct_pick, puct_picks};
use crate::domain::learn::selfplay::puct::{EdgeStats, Evaluator, NodeId, Puct, ROOT};
use crate::domain::learn::selfplay::stepper::{
    PuctPhase, PuctRecord, PuctStep, PuctStepper, Valued,
};
use crate::domain::numbers::thousands;
use crate::domain::search::mcts::NodeId as TreeId;

/// An edge's figures as the outline and the selection's lines write them, so the two
/// show the same numbers: `P 0.31 N 4 Q +0.12 U 0.20`.
pub fn edge_figures(edge: &EdgeStats) -> String {
    format!(
        "P {:.2} N {} Q {:+.2} U {:.2}",
        edge.prior,
        thousands(u64::from(edge.visits)),
        edge.mean,
        edge.explore
    )
}

/// `1 simulation`, `12 simulations`.
fn simulations(n: u64) -> String {
    format!(
        "{} simulation{}",
        thousands(n),
        if n == 1 { "" } else { "s" }
    )
}

/// A phase's name, as the status line and the pane say it.
pub const fn puct_phase_name(phase: PuctPhase) -> &'static str {
    match phase {
        PuctPhase::Selection => "selection",
        PuctPhase::Evaluation => "evaluation",
        PuctPhase::Backup => "backup",
    }
}

/// The move into `node`, as the tree writes it, `root` for the root.
fn move_of<G: Learnable + Names>(tree: &Puct<G>, node: NodeId) -> String {
    let n = tree.node(node);
    match n.parent {
        Some(parent) => tree.node(parent).position.move_name(G::move_at(n.index)),
        None => "root".to_string(),
    }
}

/// The path from the root to `node`, the root first.
fn path_to<G>(tree: &Puct<G>, node: NodeId) -> Vec<NodeId>
where
    G: Learnable,
{
    let mut path = vec![node];
    let mut at = node;
    while let Some(parent) = tree.node(at).parent {
        path.push(parent);
        at = parent;
    }
    path.reverse();
    path
}

/// The outline's rows under `parent`, children sorted by visits (most first, index order
/// among equals).
fn push_rows<G: Learnable + Names>(
    tree: &Puct<G>,
    shown: &Shown<'_>,
    parent: NodeId,
    depth: usize,
    rows: &mut Vec<Row>,
) {
    let mut edges = tree.edges(parent);
    edges.sort_by_key(|e| std::cmp::Reverse(e.visits));
    let position = tree.node(parent).position;
    for edge in edges {
        if rows.len() > MAX_ROWS {
            return;
        }
        let id = edge.child;
        let open = shown.folds.is_open(id as usize) || shown.marked.contains(&id);
        let has_children = tree.node(id).visits > 0 && !tree.node(id).children.is_empty();
        let fold = fold_mark(has_children, open);
        let mv = G::move_at(edge.index);
        // The figures the next walk through `parent` weighs; while a question about
        // `parent` waits, U and the sum are its answer.
        let figures = if shown.asked == Some(parent) {
            format!(
                "P {:.2} N {} Q {:+.2} U ?",
                edge.prior,
                thousands(u64::from(edge.visits)),
                edge.mean
            )
        } else {
            format!("{} ={:.2}", edge_figures(&edge), edge.score())
        };
        let mut text = format!(
            "{}{fold} {} {figures}",
            "  ".repeat(depth),
            position.move_name(mv),
        );
        let chosen = if shown.marked.is_empty() {
            depth == 1 && Some(edge.index) == shown.best
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
            push_rows(tree, shown, id, depth + 1, rows);
        }
    }
}

/// What the outline shows beside the tree itself.
struct Shown<'a> {
    exact: &'a [Exact],
    folds: &'a Folds,
    marked: &'a [NodeId],
    /// The root move played: the most visited.
    best: Option<usize>,
    asked: Option<NodeId>,
}

/// The move the search plays: the most visited root edge (the highest prior among equals,
/// then the lowest index), as `Puct::choose` takes it at temperature 0.
fn best_edge(edges: &[EdgeStats]) -> Option<&EdgeStats> {
    edges.iter().reduce(|best, e| {
        if (e.visits, e.prior) > (best.visits, best.prior) {
            e
        } else {
            best
        }
    })
}

impl<G, E> SteppedSearch for PuctStepper<G, E>
where
    G: Learnable + Names,
    E: Evaluator<G> + Clone,
{
    type Game = G;
    type Pick = PuctPick;
    const NAME: &'static str = "PUCT";
    const RULE: &'static str = "PUCT";
    const PHASES: u64 = 3;

    fn phases(&self) -> u64 {
        Self::phases(self)
    }

    fn rounds(&self) -> u64 {
        self.simulations()
    }

    fn at_round_start(&self) -> bool {
        self.phase() == PuctPhase::Selection
    }

    fn step(&mut self) {
        Self::step(self);
    }

    fn step_back(&mut self) -> bool {
        Self::step_back(self)
    }

    fn go_to(&mut self, target: u64) {
        Self::go_to(self, target);
    }

    fn run_rounds(&mut self, rounds: u64) {
        self.run_simulations(rounds);
    }

    fn position(&self, node: TreeId) -> G {
        self.tree().node(node).position
    }

    fn parent(&self, node: TreeId) -> Option<TreeId> {
        self.tree().node(node).parent
    }

    fn has_children(&self, node: TreeId) -> bool {
        // A node evaluated but never walked through (the leaf of the backup under way)
        // has edges no walk has weighed: they are shown once it is visited.
        let n = self.tree().node(node);
        n.visits > 0 && !n.children.is_empty()
    }

    fn inner_nodes(&self) -> Vec<TreeId> {
        (1..self.tree().len() as NodeId)
            .filter(|&id| self.has_children(id))
            .collect()
    }

    fn path(&self) -> Vec<TreeId> {
        match self.last_phase_record() {
            Some(PuctRecord::Selection { path, .. }) => path.clone(),
            Some(PuctRecord::Evaluation(valued)) => path_to(self.tree(), valued.node()),
            Some(PuctRecord::Backup { changes }) => changes.iter().rev().map(|c| c.node).collect(),
            None => Vec::new(),
        }
    }

    fn rows(
        &self,
        exact: &[Exact],
        folds: &Folds,
        marked: &[TreeId],
        asked: Option<TreeId>,
    ) -> Vec<Row> {
        let tree = self.tree();
        let root_edges = tree.edges(ROOT);
        let mut rows = vec![Row {
            node: ROOT as usize,
            text: format!(
                "{OPEN} root N {} ({})",
                thousands(u64::from(tree.root().visits)),
                simulations(self.simulations())
            ),
            chosen: true,
        }];
        let shown = Shown {
            exact,
            folds,
            marked,
            best: best_edge(&root_edges)
                .filter(|e| e.visits > 0)
                .map(|e| e.index),
            asked,
        };
        push_rows(tree, &shown, ROOT, 1, &mut rows);
        capped(rows)
    }

    fn explain(&self, node: TreeId, exact: &[Exact]) -> Vec<String> {
        let tree = self.tree();
        let n = tree.node(node);
        let Some(parent) = n.parent else {
            return vec![
                format!(
                    "{}: walk down by Q + U, the network values the leaf (no random game), \
                     the value backed up.",
                    simulations(self.simulations())
                ),
                "The AI plays the root move visited most (marked *).".to_string(),
            ];
        };
        let Some(edge) = tree.edges(parent).into_iter().find(|e| e.child == node) else {
            return Vec::new();
        };
        let mut lines = vec![
            format!("{}: {}", move_of(tree, node), edge_figures(&edge)),
            format!(
                "U now: c·P·√N_parent/(1+N) = {:.2}·{:.2}·√{}/(1+{}) = {:.3}",
                tree.settings().c_puct,
                edge.prior,
                tree.node(parent).visits,
                edge.visits,
                edge.explore
            ),
            format!("Q + U = {:.3}", edge.score()),
        ];
        let mv = G::move_at(edge.index);
        if let Some(exact) = exact_of(exact, mv).filter(|_| parent == ROOT) {
            lines.push(exact.sentence.clone());
        }
        lines
    }

    fn phase_said(&self) -> String {
        match self.last_phase_record() {
            None => "The search has not started: Space runs its first phase".to_string(),
            Some(record) => format!(
                "Simulation {}: {} done; next: {}",
                self.simulations() + u64::from(record.phase() != PuctPhase::Backup),
                puct_phase_name(record.phase()),
                puct_phase_name(self.phase())
            ),
        }
    }

    fn phase_lines(&self) -> Vec<String> {
        let tree = self.tree();
        let mut lines = vec![format!(
            "{} done · next: {}",
            simulations(self.simulations()),
            puct_phase_name(self.phase())
        )];
        let Some(record) = self.last_phase_record() else {
            lines.push("Space: selection, the first of three phases.".to_string());
            return lines;
        };
        match record {
            PuctRecord::Selection { path, steps } => {
                lines.extend(selection_lines(tree, path, steps));
            }
            PuctRecord::Evaluation(valued) => lines.extend(evaluation_lines(tree, valued)),
            PuctRecord::Backup { changes } => {
                lines.push(
                    "Backup: N +1 on the path, W + the value for the side that moved there \
                     (its sign flips each level):"
                        .to_string(),
                );
                for change in changes {
                    lines.push(format!(
                        "  {}: N {}→{}, W {:+.2}→{:+.2}",
                        move_of(tree, change.node),
                        change.visits.0,
                        change.visits.1,
                        change.value_sum.0,
                        change.value_sum.1
                    ));
                }
            }
        }
        lines
    }

    fn finished_said(&self, planned: u64) -> String {
        let edges = self.tree().edges(ROOT);
        let Some(best) = best_edge(&edges) else {
            return format!("All {} done: no move", simulations(planned));
        };
        let position = self.tree().root().position;
        format!(
            "All {} done: {} visited most (N {}); Enter plays it",
            simulations(planned),
            position.move_name(G::move_at(best.index)),
            thousands(u64::from(best.visits))
        )
    }

    fn asks_pick(&self) -> bool {
        asks_puct_pick(self)
    }

    fn picks(&self) -> Vec<PuctPick> {
        puct_picks(self)
    }

    fn pick_node(pick: &PuctPick) -> TreeId {
        pick.node
    }

    fn pick_chosen(pick: &PuctPick) -> u8 {
        G::move_at(pick.chosen)
    }

    fn pick_question(_pick: &PuctPick, at: &str, noun: &str, choice: &str) -> String {
        format!("Predict: which {noun} does PUCT select at {at}? Type {choice}")
    }

    fn pick_words(&self, pick: &PuctPick, mv: u8) -> (bool, String) {
        let position = self.tree().node(pick.node).position;
        let grade = pick.grade(G::index(mv));
        let words = grade.words(pick, &|index| position.move_name(G::move_at(index)));
        (grade.slip.is_none(), words)
    }

    fn node_name(&self, node: TreeId) -> String {
        let tree = self.tree();
        if node == ROOT {
            return "the root".into();
        }
        path_to(tree, node)
            .into_iter()
            .skip(1)
            .map(|id| move_of(tree, id))
            .collect::<Vec<_>>()
            .join(" → ")
    }
}

/// The selection phase: the path it took, and the comparison of its last step down, each
/// edge's `Q + U` written out.
fn selection_lines<G: Learnable + Names>(
    tree: &Puct<G>,
    path: &[NodeId],
    steps: &[PuctStep],
) -> Vec<String> {
    let names: Vec<String> = path.iter().map(|&n| move_of(tree, n)).collect();
    let mut lines = vec![format!("Selection: {}", names.join(" → "))];
    let Some(step) = steps.last() else {
        return lines;
    };
    lines.push(format!(
        "At {}: Q + U, U = {:.2}·P·√{}/(1+N)",
        move_of(tree, step.parent),
        tree.settings().c_puct,
        step.parent_visits
    ));
    let at = tree.node(step.parent).position;
    let best = step
        .edges
        .iter()
        .map(EdgeStats::score)
        .fold(f32::MIN, f32::max);
    let tied = step
        .edges
        .iter()
        .filter(|e| e.score().total_cmp(&best).is_eq())
        .count()
        > 1;
    for edge in &step.edges {
        let mark = match (edge.child == step.chosen, tied) {
            (true, true) => " ◀ max, first",
            (true, false) => " ◀ max",
            _ => "",
        };
        lines.push(format!(
            "  {} {} ={:.2}{mark}",
            at.move_name(G::move_at(edge.index)),
            edge_figures(edge),
            edge.score()
        ));
    }
    lines
}

/// The evaluation phase: the network's value of the leaf and the priors it gave its moves,
/// or a finished game's result.
fn evaluation_lines<G: Learnable + Names>(tree: &Puct<G>, valued: &Valued) -> Vec<String> {
    let leaf = tree.node(valued.node());
    let at = path_to(tree, valued.node())
        .into_iter()
        .skip(1)
        .map(|id| move_of(tree, id))
        .collect::<Vec<_>>()
        .join(" → ");
    let at = if at.is_empty() { "the root".into() } else { at };
    let mover = G::side_name(leaf.position.to_move());
    match valued {
        Valued::Network { value, priors, .. } => {
            let given: Vec<String> = priors
                .iter()
                .map(|&(index, prior)| {
                    format!("{} {prior:.2}", leaf.position.move_name(G::move_at(index)))
                })
                .collect();
            vec![
                format!(
                    "Evaluation at {at}: no rollout: the network's value is {value:+.2} for \
                     {mover} to move."
                ),
                format!("Its priors for the new edges: {}", given.join(", ")),
            ]
        }
        Valued::Finished { result, .. } => vec![format!(
            "Evaluation at {at}: the game is over, so no network: the result {result:+.0} \
             for {mover} to move."
        )],
    }
}
