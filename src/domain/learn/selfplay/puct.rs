//! `PUCT`: the tree search `AlphaZero` plays and learns with. Like `UCT`, each simulation
//! walks down the tree, extends it by one position and sends a value back up; unlike it, the
//! walk weighs each move by the network's prior, and the new position is valued by the
//! network rather than by a random game.
//!
//! At a node the walk takes the move with the highest `Q + U`, where `Q = W / N` is the
//! move's mean value so far (0 before its first visit) for the player choosing it, and
//! `U = c_puct · P · √(N_parent) / (1 + N)` the exploration term: large for a move with a
//! high prior `P` and few visits `N`. At the root, Dirichlet noise may be mixed into the
//! priors, so self-play tries moves the network does not yet favour.

use super::learnable::Learnable;
use super::net::{Evaluation, PolicyValueNet};
use rand::RngExt as _;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution as _, Gamma};

/// What values a position: the network, or (for tests and a baseline) anything else.
pub trait Evaluator<G> {
    /// The priors of every move (by policy index; 0 for illegal ones) and the value for
    /// the player to move of `position`, a game still on.
    fn evaluate(&mut self, position: &G) -> Evaluation;
}

impl<G: Learnable> Evaluator<G> for &PolicyValueNet {
    fn evaluate(&mut self, position: &G) -> Evaluation {
        PolicyValueNet::evaluate(self, &position.encode(), &position.legal())
    }
}

/// A network shared, for a search kept across frames (the stepper), which cannot borrow
/// the learner that goes on training, and is copied cheaply when replayed.
impl<G: Learnable> Evaluator<G> for std::sync::Arc<PolicyValueNet> {
    fn evaluate(&mut self, position: &G) -> Evaluation {
        PolicyValueNet::evaluate(self, &position.encode(), &position.legal())
    }
}

/// The search's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PuctSettings {
    /// The weight of exploration against the mean value.
    pub c_puct: f32,
    /// Root noise: the Dirichlet concentration α and the share ε of noise in the priors;
    /// `None` for none (play rather than self-play).
    pub noise: Option<(f32, f32)>,
}

/// Where a node lives in [`Puct`]'s arena.
pub type NodeId = u32;

/// The root's id.
pub const ROOT: NodeId = 0;

/// One position of the tree, reached by `index` (a policy index) from its parent.
#[derive(Debug, Clone, PartialEq)]
pub struct Node<G> {
    /// The position here.
    pub position: G,
    /// The node it was reached from (`None` at the root).
    pub parent: Option<NodeId>,
    /// The move into this node, as a policy index (0 at the root).
    pub index: usize,
    /// The prior the parent's evaluation gave this move (with noise, at the root's
    /// children).
    pub prior: f32,
    /// Visits through this node.
    pub visits: u32,
    /// The sum of the values backed up through this node, for the player who chose the
    /// move into it.
    pub value_sum: f32,
    /// The network's value of this position for its player to move, once evaluated; the
    /// result, for a finished game.
    pub evaluated: Option<f32>,
    /// Its children, once expanded, in policy-index order.
    pub children: Vec<NodeId>,
}

impl<G> Node<G> {
    /// `Q`: the mean backed-up value for the player choosing this move; 0 unvisited.
    pub fn mean(&self) -> f32 {
        if self.visits == 0 {
            0.0
        } else {
            self.value_sum / self.visits as f32
        }
    }
}

/// A PUCT search tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Puct<G> {
    nodes: Vec<Node<G>>,
    settings: PuctSettings,
}

/// One move's figures at a node, as the walk weighs them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeStats {
    /// The move, as a policy index.
    pub index: usize,
    /// The node the move leads to.
    pub child: NodeId,
    /// `P`: the prior of the move.
    pub prior: f32,
    /// `N`: the walks that took it.
    pub visits: u32,
    /// `Q`: its mean value for the player choosing it (0 before its first visit).
    pub mean: f32,
    /// `U = c_puct · P · √(N_parent) / (1 + N)`.
    pub explore: f32,
}

impl EdgeStats {
    /// `Q + U`: what the walk maximises.
    pub fn score(&self) -> f32 {
        self.mean + self.explore
    }
}

impl<G: Learnable> Puct<G> {
    /// A tree of the root `root` (a game still on), evaluated and expanded at once, with
    /// the root's noise drawn from `rng` if the settings ask for it.
    pub fn new(
        root: G,
        settings: PuctSettings,
        evaluator: &mut impl Evaluator<G>,
        rng: &mut ChaCha8Rng,
    ) -> Self {
        let mut tree = Self {
            nodes: vec![Node {
                position: root,
                parent: None,
                index: 0,
                prior: 1.0,
                visits: 0,
                value_sum: 0.0,
                evaluated: None,
                children: Vec::new(),
            }],
            settings,
        };
        tree.evaluate(ROOT, evaluator);
        if let Some((alpha, share)) = settings.noise {
            tree.add_root_noise(alpha, share, rng);
        }
        tree
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node<G> {
        &self.nodes[id as usize]
    }

    /// The root node.
    pub fn root(&self) -> &Node<G> {
        self.node(ROOT)
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never: the root is always there.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The figures of every move at `id` (expanded), as the next walk through it weighs
    /// them.
    pub fn edges(&self, id: NodeId) -> Vec<EdgeStats> {
        let node = self.node(id);
        let root_of_visits = (node.visits as f32).sqrt();
        node.children
            .iter()
            .map(|&child| {
                let c = self.node(child);
                EdgeStats {
                    index: c.index,
                    child,
                    prior: c.prior,
                    visits: c.visits,
                    mean: c.mean(),
                    explore: self.settings.c_puct * c.prior * root_of_visits
                        / (1.0 + c.visits as f32),
                }
            })
            .collect()
    }

    /// The move the walk takes at `id`: the highest `Q + U`, the lowest index among equals.
    pub fn select(&self, id: NodeId) -> Option<EdgeStats> {
        self.edges(id).into_iter().reduce(|best, edge| {
            if edge.score() > best.score() {
                edge
            } else {
                best
            }
        })
    }

    /// One simulation: walk down by [`Puct::select`] to a node not yet evaluated (or a
    /// finished game), value it, and back the value up the path. Returns the leaf.
    pub fn simulate(&mut self, evaluator: &mut impl Evaluator<G>) -> NodeId {
        let mut at = ROOT;
        while self.node(at).evaluated.is_some() && !self.node(at).children.is_empty() {
            at = self.select(at).expect("an expanded node has moves").child;
        }
        let value = match self.node(at).evaluated {
            Some(value) => value,
            None => self.evaluate(at, evaluator),
        };
        self.back_up(at, value);
        at
    }

    /// Runs `simulations` simulations.
    pub fn run(&mut self, simulations: u32, evaluator: &mut impl Evaluator<G>) {
        for _ in 0..simulations {
            self.simulate(evaluator);
        }
    }

    /// The root's visit share of every move (by policy index): the policy target of
    /// self-play.
    pub fn visit_shares(&self) -> Vec<f32> {
        let mut shares = vec![0.0; G::MOVES];
        let total: u32 = self
            .root()
            .children
            .iter()
            .map(|&c| self.node(c).visits)
            .sum();
        if total == 0 {
            return shares;
        }
        for &child in &self.root().children {
            let node = self.node(child);
            shares[node.index] = node.visits as f32 / total as f32;
        }
        shares
    }

    /// What the search makes of the root, for its player to move: the visit-weighted mean
    /// of its moves' `Q` (the network's own value before any visit).
    pub fn root_value(&self) -> f32 {
        let (sum, visits) = self.edges(ROOT).iter().fold((0.0, 0), |(sum, n), e| {
            (sum + e.mean * e.visits as f32, n + e.visits)
        });
        if visits == 0 {
            self.root().evaluated.unwrap_or(0.0)
        } else {
            sum / visits as f32
        }
    }

    /// The move to play: the most visited (the highest prior among equals, then the
    /// lowest index); with `temperature` above 0, drawn in proportion to visits^(1/T).
    pub fn choose(&self, temperature: f32, rng: &mut ChaCha8Rng) -> usize {
        let edges = self.edges(ROOT);
        if temperature > 0.0 {
            let weights: Vec<f64> = edges
                .iter()
                .map(|e| f64::from(e.visits).powf(1.0 / f64::from(temperature)))
                .collect();
            let total: f64 = weights.iter().sum();
            if total > 0.0 {
                let mut draw = rng.random_range(0.0..total);
                for (edge, weight) in edges.iter().zip(&weights) {
                    if draw < *weight {
                        return edge.index;
                    }
                    draw -= weight;
                }
            }
        }
        edges
            .iter()
            .reduce(|best, e| {
                if (e.visits, e.prior) > (best.visits, best.prior) {
                    e
                } else {
                    best
                }
            })
            .map_or(0, |e| e.index)
    }

    /// The search's settings.
    pub const fn settings(&self) -> PuctSettings {
        self.settings
    }

    /// Values `id` (the result, for a finished game; else the evaluator's value) and
    /// expands its moves with the priors; the value is for its player to move. The
    /// stepper runs it as a phase of its own.
    pub(super) fn evaluate(&mut self, id: NodeId, evaluator: &mut impl Evaluator<G>) -> f32 {
        let position = self.node(id).position;
        if let Some(result) = position.result() {
            self.nodes[id as usize].evaluated = Some(result);
            return result;
        }
        let Evaluation { priors, value } = evaluator.evaluate(&position);
        let mut children = Vec::new();
        for &mv in position.legal_moves().as_ref() {
            let index = G::index(mv);
            children.push(self.nodes.len() as NodeId);
            self.nodes.push(Node {
                position: position.play(mv),
                parent: Some(id),
                index,
                prior: priors[index],
                visits: 0,
                value_sum: 0.0,
                evaluated: None,
                children: Vec::new(),
            });
        }
        children.sort_by_key(|&c| self.node(c).index);
        let node = &mut self.nodes[id as usize];
        node.children = children;
        node.evaluated = Some(value);
        value
    }

    /// Adds `value` (for the player to move at `leaf`) along the path to the root: each
    /// node gets it for the player who moved into it, so the sign flips at every step.
    pub(super) fn back_up(&mut self, leaf: NodeId, value: f32) {
        let mut at = Some(leaf);
        let mut for_mover_into = -value;
        while let Some(id) = at {
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            node.value_sum += for_mover_into;
            for_mover_into = -for_mover_into;
            at = node.parent;
        }
    }

    /// Mixes Dirichlet(α) noise into the root's priors: `(1 − ε)·P + ε·η`.
    fn add_root_noise(&mut self, alpha: f32, share: f32, rng: &mut ChaCha8Rng) {
        let children = self.root().children.clone();
        if children.is_empty() || alpha <= 0.0 {
            return;
        }
        let Ok(gamma) = Gamma::new(f64::from(alpha), 1.0) else {
            return;
        };
        let draws: Vec<f64> = children.iter().map(|_| gamma.sample(rng)).collect();
        let total: f64 = draws.iter().sum();
        if total <= 0.0 {
            return;
        }
        for (child, draw) in children.iter().zip(draws) {
            let node = &mut self.nodes[*child as usize];
            node.prior = (1.0 - share) * node.prior + share * (draw / total) as f32;
        }
    }
}

// Values here are copied or exact in binary (0.25, 1.0), so equality is the check.
#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::domain::games::tictactoe::Board;
    use rand::SeedableRng;

    /// An evaluator with fixed answers: the priors it is given for every position (masked
    /// to the legal moves and renormalised) and a value by the number of marks.
    struct Fixed {
        priors: Vec<f32>,
        value: fn(&Board) -> f32,
        calls: usize,
    }

    impl Evaluator<Board> for Fixed {
        fn evaluate(&mut self, position: &Board) -> Evaluation {
            self.calls += 1;
            let legal = position.legal();
            let mut priors: Vec<f32> = self
                .priors
                .iter()
                .zip(&legal)
                .map(|(p, &l)| if l { *p } else { 0.0 })
                .collect();
            let sum: f32 = priors.iter().sum();
            for p in &mut priors {
                *p /= sum;
            }
            Evaluation {
                priors,
                value: (self.value)(position),
            }
        }
    }

    fn settings(c_puct: f32) -> PuctSettings {
        PuctSettings {
            c_puct,
            noise: None,
        }
    }

    /// A hand-worked tree. From the position after X 1, O 5, X 9 (O to move, six empty
    /// cells 2, 3, 4, 6, 7, 8), the evaluator gives cell 2 a prior of 0.5, cell 3 0.3, the
    /// other cells 0.05 each (renormalised over the legal ones), and every position a value
    /// of 0.2 for its player to move. `c_puct` = 1.
    ///
    /// - Simulation 1: the root has no visits, so every U and every Q is 0: the walk takes
    ///   the lowest index, cell 2. Its leaf is valued 0.2 for X (to move there), so the
    ///   edge to cell 2 gets W = −0.2, N = 1. Root N = 1.
    /// - Simulation 2: √1 = 1. Cell 2: Q = −0.2, U = 0.5·1/2 = 0.25, sum 0.05. Cell 3:
    ///   Q = 0, U = 0.3·1/1 = 0.3. Cell 3 is taken (0.3 > 0.05).
    /// - Simulation 3: √2 ≈ 1.4142. Cell 2: −0.2 + 0.5·1.4142/2 = 0.1536. Cell 3:
    ///   −0.2 + 0.3·1.4142/2 = 0.0121. Cell 4: 0 + 0.05·1.4142/1 = 0.0707. Cell 2 again.
    ///   It is expanded (X's replies 3, 4, 6, 7, 8 with priors 0.3, 0.05, …, renormalised
    ///   to 0.75, 0.125, …) and visited once, so there U = P: X's cell 3. That leaf is
    ///   valued 0.2 for O: −0.2 on X's edge, +0.2 on O's edge to cell 2, whose mean
    ///   becomes (−0.2 + 0.2) / 2 = 0.
    #[test]
    fn the_puct_arithmetic_of_a_hand_worked_tree() {
        let root = Board::from_moves("159").unwrap();
        let mut priors = vec![0.05; 9];
        priors[1] = 0.5;
        priors[2] = 0.3;
        let mut evaluator = Fixed {
            priors,
            value: |_| 0.2,
            calls: 0,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut tree = Puct::new(root, settings(1.0), &mut evaluator, &mut rng);
        assert!((tree.edges(ROOT)[0].prior - 0.5).abs() < 1e-6);

        let leaf = tree.simulate(&mut evaluator);
        assert_eq!(tree.node(leaf).index, 1, "cell 2 first");
        let edge = tree.edges(ROOT)[0];
        assert_eq!((edge.visits, edge.mean), (1, -0.2));

        let chosen = tree.select(ROOT).unwrap();
        let by_index = |i| tree.edges(ROOT).into_iter().find(|e| e.index == i).unwrap();
        assert!((by_index(1).score() - 0.05).abs() < 1e-6);
        assert!((by_index(2).explore - 0.3).abs() < 1e-6);
        assert_eq!(chosen.index, 2, "cell 3: U 0.3 beats 0.05");
        tree.simulate(&mut evaluator);

        let root_two = 2f32.sqrt();
        let edges = tree.edges(ROOT);
        let by_index = |i| edges.iter().find(|e| e.index == i).unwrap();
        assert!((by_index(1).score() - (-0.2 + 0.5 * root_two / 2.0)).abs() < 1e-6);
        assert!((by_index(2).score() - (-0.2 + 0.3 * root_two / 2.0)).abs() < 1e-6);
        assert!((by_index(3).score() - 0.05 * root_two).abs() < 1e-6);
        assert_eq!(tree.select(ROOT).unwrap().index, 1, "cell 2 again");
        let leaf = tree.simulate(&mut evaluator);
        let parent = tree.node(leaf).parent.unwrap();
        assert_eq!(tree.node(parent).index, 1);
        assert_eq!(
            tree.node(leaf).index,
            2,
            "X's cell 3, the highest prior there"
        );
        assert_eq!(tree.node(leaf).value_sum, -0.2);
        assert_eq!(tree.node(parent).visits, 2);
        assert!(tree.node(parent).mean().abs() < 1e-6);
        assert_eq!(tree.root().visits, 3);
        assert_eq!(evaluator.calls, 4, "the root and three leaves");
        let shares = tree.visit_shares();
        assert!((shares[1] - 2.0 / 3.0).abs() < 1e-6 && (shares[2] - 1.0 / 3.0).abs() < 1e-6);
    }

    /// A finished game is valued by its result, not the evaluator: one move wins at once
    /// for X, and the search finds it.
    #[test]
    fn a_win_found_in_the_tree_is_valued_by_the_rules() {
        // X has 1 and 2; cell 3 wins. O has 4 and 5.
        let root = Board::from_moves("1425").unwrap();
        let mut evaluator = Fixed {
            priors: vec![1.0 / 9.0; 9],
            value: |_| 0.0,
            calls: 0,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut tree = Puct::new(root, settings(1.5), &mut evaluator, &mut rng);
        tree.run(200, &mut evaluator);
        assert_eq!(tree.choose(0.0, &mut rng), 2);
        let win = tree.edges(ROOT).into_iter().find(|e| e.index == 2).unwrap();
        assert!((win.mean - 1.0).abs() < 1e-6, "every visit a win: {win:?}");
    }

    #[test]
    fn root_noise_keeps_the_priors_a_distribution_and_repeats_by_seed() {
        let root = Board::empty(super::super::learnable::FIRST);
        let noisy = PuctSettings {
            c_puct: 1.0,
            noise: Some((0.3, 0.25)),
        };
        let priors = |seed| {
            let mut evaluator = Fixed {
                priors: vec![1.0; 9],
                value: |_| 0.0,
                calls: 0,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let tree = Puct::new(root, noisy, &mut evaluator, &mut rng);
            tree.edges(ROOT).iter().map(|e| e.prior).collect::<Vec<_>>()
        };
        let first = priors(5);
        assert!((first.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(first, priors(5));
        assert_ne!(first, priors(6));
        assert!(
            first.iter().any(|p| (p - 1.0 / 9.0).abs() > 1e-3),
            "noise moved them"
        );
    }
}
