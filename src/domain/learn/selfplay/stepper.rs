//! [`PuctStepper`]: the PUCT search one phase at a time, so a student sees what each
//! simulation does: the walk down by `Q + U` (every edge's `P`, `N`, `Q` and `U` at each
//! step), the leaf valued by the network (no random game, unlike MCTS), and the value
//! backed up with its sign flipping at every level.
//!
//! Stepping back replays, as the MCTS stepper does: with the same root, settings, evaluator
//! and seed the search is deterministic, so the state after `p` phases is rebuilt by
//! running the whole simulations before the last fast and stepping the rest. Each phase
//! runs the same tree operations `Puct::simulate` runs, so `k` simulations stepped leave
//! the tree `run(k)` leaves (a test pins it).

use super::learnable::Learnable;
use super::puct::{EdgeStats, Evaluator, NodeId, Puct, PuctSettings, ROOT};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The three phases of a simulation, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PuctPhase {
    /// From the root down, by the highest `Q + U`, to a node not yet valued.
    Selection,
    /// The leaf valued by the network and its moves given their priors (a finished game:
    /// its result instead).
    Evaluation,
    /// The value added to `N` and `W` of every node on the path, its sign flipping.
    Backup,
}

impl PuctPhase {
    /// The phases of one simulation, in order.
    pub const ALL: [Self; 3] = [Self::Selection, Self::Evaluation, Self::Backup];

    /// The phase at `phases` phases since the start.
    const fn at(phases: u64) -> Self {
        Self::ALL[(phases % 3) as usize]
    }
}

/// One step down the walk: every edge of `parent` as the walk weighed it, and the one taken.
#[derive(Debug, Clone, PartialEq)]
pub struct PuctStep {
    /// The node whose edges were compared.
    pub parent: NodeId,
    /// Its `N` then (the `N_parent` of `U`).
    pub parent_visits: u32,
    /// Every edge, in policy-index order, with the figures the walk used.
    pub edges: Vec<EdgeStats>,
    /// The child taken: the highest `Q + U`, the lowest index among equals.
    pub chosen: NodeId,
}

/// How the leaf of a simulation was valued.
#[derive(Debug, Clone, PartialEq)]
pub enum Valued {
    /// By the network: its value for the player to move at the leaf, and the priors it gave
    /// the leaf's moves (policy index, prior), which become new edges.
    Network {
        /// The leaf.
        node: NodeId,
        /// The network's value, for the leaf's player to move.
        value: f32,
        /// The new edges' priors, by policy index.
        priors: Vec<(usize, f32)>,
    },
    /// The game is over at the leaf: the rules give its result, no network is asked.
    Finished {
        /// The leaf.
        node: NodeId,
        /// The result for the leaf's player to move (−1, 0).
        result: f32,
    },
}

impl Valued {
    /// The leaf valued.
    pub const fn node(&self) -> NodeId {
        match self {
            Self::Network { node, .. } | Self::Finished { node, .. } => *node,
        }
    }

    /// The value backed up, for the leaf's player to move.
    pub const fn value(&self) -> f32 {
        match self {
            Self::Network { value, .. } => *value,
            Self::Finished { result, .. } => *result,
        }
    }
}

/// How the backup changed one node on the path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BackupChange {
    /// The node.
    pub node: NodeId,
    /// `N` before and after.
    pub visits: (u32, u32),
    /// `W`, the sum of values for the player who moved into the node, before and after.
    pub value_sum: (f32, f32),
}

/// What one phase did.
#[derive(Debug, Clone, PartialEq)]
pub enum PuctRecord {
    /// The path from the root (the root first) and each step's comparison.
    Selection {
        /// The nodes of the path.
        path: Vec<NodeId>,
        /// One comparison per step down.
        steps: Vec<PuctStep>,
    },
    /// The leaf's value.
    Evaluation(Valued),
    /// The changes, from the leaf up to the root.
    Backup {
        /// One per node on the path.
        changes: Vec<BackupChange>,
    },
}

impl PuctRecord {
    /// Which phase this records.
    pub const fn phase(&self) -> PuctPhase {
        match self {
            Self::Selection { .. } => PuctPhase::Selection,
            Self::Evaluation(_) => PuctPhase::Evaluation,
            Self::Backup { .. } => PuctPhase::Backup,
        }
    }
}

/// A PUCT search driven one phase at a time, with its own evaluator (the network as it
/// was when the search started).
#[derive(Debug, Clone)]
pub struct PuctStepper<G, E> {
    tree: Puct<G>,
    evaluator: E,
    seed: u64,
    /// Phases done since the start: three per whole simulation.
    phases: u64,
    /// The leaf of the simulation under way, once selected, and its value once valued.
    leaf: Option<(NodeId, Option<f32>)>,
    last: Option<PuctRecord>,
}

impl<G: Learnable, E: Evaluator<G> + Clone> PuctStepper<G, E> {
    /// A stepper over a fresh [`Puct::new`] search of `root`, its root noise (if the
    /// settings ask for it) drawn from `seed`.
    pub fn new(root: G, settings: PuctSettings, mut evaluator: E, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let tree = Puct::new(root, settings, &mut evaluator, &mut rng);
        Self {
            tree,
            evaluator,
            seed,
            phases: 0,
            leaf: None,
            last: None,
        }
    }

    /// The search as it stands.
    pub const fn tree(&self) -> &Puct<G> {
        &self.tree
    }

    /// Phases done since the start.
    pub const fn phases(&self) -> u64 {
        self.phases
    }

    /// Whole simulations done.
    pub const fn simulations(&self) -> u64 {
        self.phases / 3
    }

    /// The phase the next [`Self::step`] runs.
    pub const fn phase(&self) -> PuctPhase {
        PuctPhase::at(self.phases)
    }

    /// What the last phase did; `None` before the first step.
    pub const fn last_phase_record(&self) -> Option<&PuctRecord> {
        self.last.as_ref()
    }

    /// The walk the next selection takes, read without changing the tree (selection
    /// only reads): the path from the root and each step's comparison.
    pub fn walk(&self) -> (Vec<NodeId>, Vec<PuctStep>) {
        let mut at = ROOT;
        let mut path = vec![ROOT];
        let mut steps = Vec::new();
        // The loop of `Puct::simulate`: down while the node is valued and has moves.
        while self.tree.node(at).evaluated.is_some() && !self.tree.node(at).children.is_empty() {
            let edges = self.tree.edges(at);
            let Some(chosen) = self.tree.select(at) else {
                break;
            };
            steps.push(PuctStep {
                parent: at,
                parent_visits: self.tree.node(at).visits,
                edges,
                chosen: chosen.child,
            });
            at = chosen.child;
            path.push(at);
        }
        (path, steps)
    }

    /// Runs the next phase and records it.
    pub fn step(&mut self) {
        let record = match self.phase() {
            PuctPhase::Selection => {
                let (path, steps) = self.walk();
                self.leaf = Some((*path.last().unwrap_or(&ROOT), None));
                PuctRecord::Selection { path, steps }
            }
            PuctPhase::Evaluation => {
                let node = self.leaf.map_or(ROOT, |(node, _)| node);
                // A finished game reached again was valued when first reached.
                let valued = if let Some(result) = self.tree.node(node).evaluated {
                    Valued::Finished { node, result }
                } else {
                    self.evaluate_leaf(node)
                };
                self.leaf = Some((node, Some(valued.value())));
                PuctRecord::Evaluation(valued)
            }
            PuctPhase::Backup => {
                let Some((leaf, Some(value))) = self.leaf.take() else {
                    unreachable!("a backup follows an evaluation")
                };
                let before = self.path_figures(leaf);
                self.tree.back_up(leaf, value);
                let changes = before
                    .into_iter()
                    .map(|(node, visits, value_sum)| {
                        let after = self.tree.node(node);
                        BackupChange {
                            node,
                            visits: (visits, after.visits),
                            value_sum: (value_sum, after.value_sum),
                        }
                    })
                    .collect();
                PuctRecord::Backup { changes }
            }
        };
        self.phases += 1;
        self.last = Some(record);
    }

    /// Values `node`, reached for the first time: by the network, its moves given their
    /// priors; by the rules, if the game is over there.
    fn evaluate_leaf(&mut self, node: NodeId) -> Valued {
        let value = self.tree.evaluate(node, &mut self.evaluator);
        let leaf = self.tree.node(node);
        if leaf.position.result().is_some() {
            return Valued::Finished {
                node,
                result: value,
            };
        }
        let priors = leaf
            .children
            .iter()
            .map(|&c| (self.tree.node(c).index, self.tree.node(c).prior))
            .collect();
        Valued::Network {
            node,
            value,
            priors,
        }
    }

    /// `N` and `W` of every node from `leaf` up to the root.
    fn path_figures(&self, leaf: NodeId) -> Vec<(NodeId, u32, f32)> {
        let mut figures = Vec::new();
        let mut at = Some(leaf);
        while let Some(id) = at {
            let node = self.tree.node(id);
            figures.push((id, node.visits, node.value_sum));
            at = node.parent;
        }
        figures
    }

    /// Takes the last phase back: the state is exactly the one before it, its record
    /// included. False at the start.
    pub fn step_back(&mut self) -> bool {
        if self.phases == 0 {
            return false;
        }
        self.go_to(self.phases - 1);
        true
    }

    /// Goes to `target` phases since the start: forward by stepping, back by replaying
    /// from a fresh search, so a phase number always shows the same tree and record.
    pub fn go_to(&mut self, target: u64) {
        if target < self.phases {
            *self = Self::new(
                self.tree.root().position,
                self.tree.settings(),
                self.evaluator.clone(),
                self.seed,
            );
        }
        self.advance_to(target);
    }

    /// Runs until `simulations` more simulations are complete (the one under way counting
    /// as one), the last phase by phase so its records are kept.
    pub fn run_simulations(&mut self, simulations: u64) {
        if simulations == 0 {
            return;
        }
        self.advance_to((self.simulations() + simulations) * 3);
    }

    /// Forward to `target` phases: the simulation under way stepped to its end, whole
    /// simulations fast, the one holding the target stepped.
    fn advance_to(&mut self, target: u64) {
        while self.phases < target && !self.phases.is_multiple_of(3) {
            self.step();
        }
        let last_whole = target.saturating_sub(1) / 3 * 3;
        while self.phases < last_whole {
            self.tree.simulate(&mut self.evaluator);
            self.phases += 3;
        }
        while self.phases < target {
            self.step();
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::super::net::PolicyValueNet;
    use super::*;
    use crate::domain::games::tictactoe::{Board, Mark};

    fn net() -> std::sync::Arc<PolicyValueNet> {
        std::sync::Arc::new(PolicyValueNet::new(Board::INPUTS, &[16], Board::MOVES, 3))
    }

    fn settings() -> PuctSettings {
        PuctSettings {
            c_puct: 1.5,
            noise: None,
        }
    }

    #[test]
    fn simulations_stepped_phase_by_phase_leave_the_tree_run_leaves() {
        for moves in ["", "5", "159", "1425"] {
            let root = Board::from_moves(moves).unwrap();
            for k in [0, 1, 2, 7, 30] {
                let mut stepper = PuctStepper::new(root, settings(), net(), 1);
                for _ in 0..k * 3 {
                    stepper.step();
                }
                let mut evaluator = net();
                let mut rng = ChaCha8Rng::seed_from_u64(1);
                let mut tree = Puct::new(root, settings(), &mut evaluator, &mut rng);
                tree.run(k as u32, &mut evaluator);
                assert_eq!(stepper.tree(), &tree, "{moves:?} after {k}");
            }
        }
    }

    #[test]
    fn stepping_back_and_going_to_a_phase_match_a_fresh_stepper() {
        let root = Board::empty(Mark::X);
        let mut stepper = PuctStepper::new(root, settings(), net(), 4);
        stepper.run_simulations(5);
        for target in (0..15).rev() {
            assert!(stepper.step_back());
            let mut fresh = PuctStepper::new(root, settings(), net(), 4);
            for _ in 0..target {
                fresh.step();
            }
            assert_eq!(stepper.tree(), fresh.tree());
            assert_eq!(stepper.last_phase_record(), fresh.last_phase_record());
            assert_eq!(stepper.phases(), target);
        }
        assert!(!stepper.step_back());
        stepper.go_to(8);
        assert_eq!(stepper.phase(), PuctPhase::Backup);
        assert!(matches!(
            stepper.last_phase_record(),
            Some(PuctRecord::Evaluation(Valued::Network { .. }))
        ));
    }

    #[test]
    fn a_finished_game_is_valued_by_its_result_not_the_network() {
        // X has 1 and 2, O 4 and 5: X's cell 3 wins.
        let root = Board::from_moves("1425").unwrap();
        let mut stepper = PuctStepper::new(root, settings(), net(), 1);
        let mut finished = 0;
        for _ in 0..60 {
            stepper.step();
            if let Some(PuctRecord::Evaluation(Valued::Finished { node, result })) =
                stepper.last_phase_record()
            {
                assert!(stepper.tree().node(*node).position.result().is_some());
                assert_eq!(*result, -1.0, "the player to move there has lost");
                finished += 1;
            }
        }
        assert!(finished > 0, "the win was reached and valued by the rules");
    }

    #[test]
    fn the_backup_flips_the_value_s_sign_at_every_level() {
        let root = Board::empty(Mark::X);
        let mut stepper = PuctStepper::new(root, settings(), net(), 1);
        stepper.run_simulations(3);
        stepper.step();
        stepper.step();
        let value = match stepper.last_phase_record() {
            Some(PuctRecord::Evaluation(valued)) => valued.value(),
            other => panic!("{other:?}"),
        };
        stepper.step();
        let Some(PuctRecord::Backup { changes }) = stepper.last_phase_record() else {
            panic!("a backup");
        };
        let mut expected = -value;
        for change in changes {
            assert_eq!(change.visits.1, change.visits.0 + 1);
            assert!((change.value_sum.1 - change.value_sum.0 - expected).abs() < 1e-6);
            expected = -expected;
        }
        assert_eq!(changes.last().unwrap().node, ROOT);
    }
}
