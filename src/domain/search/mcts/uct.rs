//! [`Mcts`]: UCT over any [`Rollout`] game, one whole iteration at a time ([`Mcts::iterate`],
//! [`Mcts::run`]) or, for the stepper, one phase at a time through the same functions, so
//! both build the same tree.

use super::record::{Candidate, Change, Expansion, Phase, SelectionStep};
use super::rollout::{Rollout, SplitMix64};
use super::tree::{Node, NodeId, ROOT};
use crate::domain::games::Outcome;

/// The exploration constant `c` of UCB1 by default: √2, the value of Kocsis and
/// Szepesvári's analysis for results in [0, 1].
pub const DEFAULT_EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// The most node slots a tree holds by default (about 96 MB of nodes). A node's children
/// are reserved together when its first child is expanded, so the limit counts reserved
/// slots; once the next reservation would pass it, no node gains a new set of children, but
/// iterations go on: selection, a rollout from where it stopped, and backpropagation, so
/// `N` and `W` keep sharpening for the moves already in the tree.
pub const MAX_NODES: usize = 2_000_000;

/// A node on the path of the iteration under way, with the player who made the move into
/// it (`None` for the root), whose point of view its `W` takes.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PathStep<P> {
    node: NodeId,
    mover: Option<P>,
}

/// One root move as the search sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub mv: M,
    /// Its node.
    pub node: NodeId,
    /// `N`.
    pub visits: u64,
    /// `W`, for the player to move at the root.
    pub wins: f64,
    /// `W/N`.
    pub mean: f64,
    /// The UCB1 value it had when the root's selection last compared it.
    pub last_ucb: Option<f64>,
}

/// Monte Carlo tree search with UCB1 (UCT): each iteration selects a path from the root by
/// the highest `W/N + c·√(ln N_parent / N)` through nodes whose moves all have children,
/// expands one untried move (in legal-move order) of the node it stops at, plays uniformly
/// random moves from there to the end of the game, and adds the result to `N` and `W` of
/// every node on the path. Deterministic: the only random draws are the rollouts', from
/// the seed; ties in selection go to the first child in legal-move order.
#[derive(Debug, Clone, PartialEq)]
pub struct Mcts<G: Rollout> {
    root_position: G,
    exploration: f64,
    seed: u64,
    node_limit: usize,
    nodes: Vec<Node<G::Move>>,
    /// Nodes in the tree (the root and every expanded child).
    tree_size: usize,
    iterations: u64,
    rng: SplitMix64,
    /// The iteration under way; reused, so an iteration allocates nothing once the path
    /// has grown to the tree's depth.
    path: Vec<PathStep<G::Player>>,
    /// The position at the end of `path`, then after expansion.
    leaf: G,
    /// The rollout's result, between simulation and backpropagation.
    outcome: Outcome<G::Player>,
    next_phase: Phase,
}

impl<G: Rollout> Mcts<G> {
    /// A search from `root` with exploration constant `exploration` (finite, at least 0)
    /// whose rollouts draw from `seed`.
    pub fn new(root: G, exploration: f64, seed: u64) -> Self {
        assert!(
            exploration.is_finite() && exploration >= 0.0,
            "the exploration constant must be finite and not negative, not {exploration}"
        );
        Self {
            root_position: root,
            exploration,
            seed,
            node_limit: MAX_NODES,
            nodes: vec![Node::root(root.outcome().is_some())],
            tree_size: 1,
            iterations: 0,
            rng: SplitMix64::new(seed),
            path: Vec::new(),
            leaf: root,
            outcome: Outcome::Draw,
            next_phase: Phase::Selection,
        }
    }

    /// The same search with at most `limit` node slots instead of [`MAX_NODES`] (at least
    /// 1: the root). Meant for a fresh search.
    #[must_use]
    pub fn with_node_limit(mut self, limit: usize) -> Self {
        self.node_limit = limit.max(1);
        self
    }

    /// Runs `iterations` whole iterations.
    pub fn run(&mut self, iterations: u64) {
        for _ in 0..iterations {
            self.iterate();
        }
    }

    /// One whole iteration: selection, expansion, simulation, backpropagation.
    pub fn iterate(&mut self) {
        debug_assert_eq!(self.next_phase, Phase::Selection, "between iterations");
        self.select(None);
        self.expand();
        self.simulate(None);
        self.backpropagate(None);
    }

    /// Whole iterations done.
    pub const fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The position searched.
    pub const fn root_position(&self) -> &G {
        &self.root_position
    }

    /// The exploration constant `c`.
    pub const fn exploration(&self) -> f64 {
        self.exploration
    }

    /// The seed of the rollouts.
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The most node slots this tree may hold.
    pub const fn node_limit(&self) -> usize {
        self.node_limit
    }

    /// The root node (its id is [`ROOT`]).
    pub fn root(&self) -> &Node<G::Move> {
        &self.nodes[ROOT as usize]
    }

    /// The node (or untried move's slot) `id`.
    pub fn node(&self, id: NodeId) -> &Node<G::Move> {
        &self.nodes[id as usize]
    }

    /// The UCB1 value the next selection would give node `id` if it compared it now, from
    /// the visits and wins as they stand: what a student reads beside the node (the value
    /// from when it was last compared goes stale as soon as a sibling is visited). `None`
    /// for the root and for a node never visited.
    pub fn ucb_now(&self, id: NodeId) -> Option<f64> {
        let node = self.node(id);
        let parent = self.node(node.parent()?);
        (node.visits() > 0).then(|| {
            ucb1(
                node.half_wins(),
                node.visits(),
                parent.visits(),
                self.exploration,
            )
        })
    }

    /// Every node in the tree with its id, in the order they were reserved (a parent before
    /// its children).
    pub fn nodes(&self) -> impl Iterator<Item = (NodeId, &Node<G::Move>)> {
        (0..).zip(&self.nodes).filter(|(_, node)| node.is_in_tree())
    }

    /// Nodes in the tree: the root and every expanded child.
    pub const fn node_count(&self) -> usize {
        self.tree_size
    }

    /// Node slots reserved (the tree's nodes and the untried moves' slots): what the node
    /// limit bounds.
    pub fn slot_count(&self) -> usize {
        self.nodes.len()
    }

    /// The children of `id` in the tree, with their ids, in legal-move order.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = (NodeId, &Node<G::Move>)> {
        let range = self.node(id).children();
        range
            .clone()
            .zip(&self.nodes[range.start as usize..range.end as usize])
    }

    /// The legal moves at `id` that have no child yet, in the order they will be expanded.
    pub fn untried_moves(&self, id: NodeId) -> Vec<G::Move> {
        let node = self.node(id);
        if node.is_terminal() || !node.is_in_tree() {
            Vec::new()
        } else if node.is_opened() {
            node.untried_slots()
                .filter_map(|slot| self.node(slot).mv())
                .collect()
        } else {
            self.position(id).legal_moves().as_ref().to_vec()
        }
    }

    /// The position at `id`: the root's with the moves down to it played.
    pub fn position(&self, id: NodeId) -> G {
        let mut moves = Vec::new();
        let mut at = id;
        while let Some(parent) = self.node(at).parent() {
            moves.extend(self.node(at).mv());
            at = parent;
        }
        moves
            .iter()
            .rev()
            .fold(self.root_position, |position, &mv| position.play(mv))
    }

    /// The root child with the most visits, the first in legal-move order on a tie; `None`
    /// before the first iteration or when the game is over.
    pub fn best_move(&self) -> Option<G::Move> {
        let mut best: Option<&Node<G::Move>> = None;
        for (_, child) in self.children(ROOT) {
            if best.is_none_or(|b| child.visits() > b.visits()) {
                best = Some(child);
            }
        }
        best.and_then(Node::mv)
    }

    /// Every root child, in legal-move order: its move, `N`, `W`, `W/N` and last UCB1 value.
    pub fn root_moves(&self) -> Vec<MoveStats<G::Move>> {
        self.children(ROOT)
            .filter_map(|(id, child)| {
                Some(MoveStats {
                    mv: child.mv()?,
                    node: id,
                    visits: child.visits(),
                    wins: child.wins(),
                    mean: child.mean().unwrap_or(0.0),
                    last_ucb: child.last_ucb(),
                })
            })
            .collect()
    }

    /// The phase the next step runs.
    pub(super) const fn next_phase(&self) -> Phase {
        self.next_phase
    }

    /// The nodes of the iteration's path so far, the root first.
    pub(super) fn path_nodes(&self) -> Vec<NodeId> {
        self.path.iter().map(|step| step.node).collect()
    }

    /// Selection: from the root, while the node is not over and every legal move has a
    /// child, go to the child with the highest UCB1 value (the first on a tie), setting each
    /// child's `last_ucb`. With `steps`, records every comparison.
    pub(super) fn select(&mut self, mut steps: Option<&mut Vec<SelectionStep<G::Move>>>) {
        self.path.clear();
        self.path.push(PathStep {
            node: ROOT,
            mover: None,
        });
        let mut position = self.root_position;
        let mut at = ROOT;
        loop {
            let node = self.nodes[at as usize];
            if node.is_terminal() || !node.is_fully_expanded() {
                break;
            }
            let children = node.children();
            let mut chosen = children.start;
            let mut highest = f64::NEG_INFINITY;
            let mut candidates = Vec::new();
            for id in children {
                let child = &mut self.nodes[id as usize];
                let ucb = ucb1(
                    child.half_wins(),
                    child.visits(),
                    node.visits(),
                    self.exploration,
                );
                child.compared(ucb);
                if ucb > highest {
                    highest = ucb;
                    chosen = id;
                }
                if steps.is_some() {
                    candidates.push(Candidate {
                        node: id,
                        mv: child.mv().expect("a child has a move"),
                        visits: child.visits(),
                        wins: child.wins(),
                        ucb,
                    });
                }
            }
            if let Some(steps) = steps.as_deref_mut() {
                steps.push(SelectionStep {
                    parent: at,
                    parent_visits: node.visits(),
                    candidates,
                    chosen,
                });
            }
            let mover = position.to_move();
            position = position.play(self.nodes[chosen as usize].mv().expect("a child's move"));
            self.path.push(PathStep {
                node: chosen,
                mover: Some(mover),
            });
            at = chosen;
        }
        self.leaf = position;
        self.next_phase = Phase::Expansion;
    }

    /// Expansion: the first untried move of the node selection stopped at becomes a child
    /// (its children's slots reserved first if this is its first), unless the game is over
    /// there or the node limit leaves no room for the slots.
    pub(super) fn expand(&mut self) -> Expansion<G::Move> {
        self.next_phase = Phase::Simulation;
        let at = self.path.last().expect("selection made a path").node;
        let node = self.nodes[at as usize];
        if node.is_terminal() {
            return Expansion::Terminal { node: at };
        }
        if !node.is_opened() {
            let legal = self.leaf.legal_moves();
            let legal = legal.as_ref();
            if self.nodes.len() + legal.len() > self.node_limit {
                return Expansion::NodeLimit { node: at };
            }
            let first = self.nodes.len() as NodeId;
            self.nodes
                .extend(legal.iter().map(|&mv| Node::slot(mv, at)));
            self.nodes[at as usize].open(first, legal.len() as u16);
        }
        if self.nodes[at as usize].is_fully_expanded() {
            // Only a node without legal moves and without an outcome gets here: treated as
            // the end of the game (its rollout is a draw).
            return Expansion::Terminal { node: at };
        }
        let child = self.nodes[at as usize].expand_next();
        let mv = self.nodes[child as usize].mv().expect("a slot has a move");
        let mover = self.leaf.to_move();
        self.leaf = self.leaf.play(mv);
        self.nodes[child as usize].join_tree(self.leaf.outcome().is_some());
        self.tree_size += 1;
        self.path.push(PathStep {
            node: child,
            mover: Some(mover),
        });
        Expansion::Added { node: child, mv }
    }

    /// Simulation: uniformly random moves from the end of the path to the end of the game.
    /// Gives the node it started from and the outcome; with `moves`, records the moves.
    pub(super) fn simulate(
        &mut self,
        moves: Option<&mut Vec<G::Move>>,
    ) -> (NodeId, Outcome<G::Player>) {
        self.next_phase = Phase::Backpropagation;
        self.outcome = self.leaf.playout(&mut self.rng, moves);
        (
            self.path.last().expect("selection made a path").node,
            self.outcome,
        )
    }

    /// Backpropagation: every node on the path gets one more visit and, for the player
    /// who moved into it, 1 for a win or ½ for a draw. With `changes`, records them from
    /// the deepest node up.
    pub(super) fn backpropagate(&mut self, mut changes: Option<&mut Vec<Change>>) {
        let root_mover = self.root_position.to_move();
        for step in self.path.iter().rev() {
            let half_wins = match self.outcome {
                Outcome::Draw => 1,
                Outcome::Winner(winner) => {
                    let credited = match step.mover {
                        Some(mover) => winner == mover,
                        None => winner != root_mover,
                    };
                    if credited { 2 } else { 0 }
                }
            };
            let node = &mut self.nodes[step.node as usize];
            let before = (node.visits(), node.half_wins());
            node.visit(half_wins);
            if let Some(changes) = changes.as_deref_mut() {
                changes.push(Change {
                    node: step.node,
                    visits: (before.0, node.visits()),
                    half_wins: (before.1, node.half_wins()),
                });
            }
        }
        self.iterations += 1;
        self.next_phase = Phase::Selection;
    }
}

/// UCB1 of a child with `half_wins` (a draw counts one half, a win two) over `visits`,
/// under a parent visited `parent_visits` times: its share of wins plus the exploration
/// bonus `c·√(ln N_parent / N)`. The one formula selection uses and the screen shows.
fn ucb1(half_wins: u64, visits: u64, parent_visits: u64, exploration: f64) -> f64 {
    let visits = visits as f64;
    half_wins as f64 * 0.5 / visits + exploration * ((parent_visits as f64).ln() / visits).sqrt()
}
