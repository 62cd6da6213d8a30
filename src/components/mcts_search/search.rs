//! [`SteppedSearch`]: what the component needs of a search it steps, so one view, one
//! pane, one set of step keys and one quiz serve both tree searches that grow a tree one
//! walk at a time: MCTS (UCT with random games, [`MctsStepper`]) and `AlphaZero`'s PUCT
//! (the network's priors and value, `PuctStepper`, in [`super::puct`]). Each says how its
//! tree is written (the outline's rows, the words for each phase) and how its picks are
//! asked and graded; the component does the stepping, the folds, the cursor and the
//! drawing once.

use super::outline::{self, Exact, Folds, Names, Row};
use crate::domain::numbers::thousands;
use crate::domain::search::mcts::{MctsStepper, NodeId, Phase, Pick, asks_pick, node_path, picks};

/// A search the component steps, a round (an iteration, a simulation) of a fixed number
/// of phases at a time.
pub trait SteppedSearch {
    /// The game searched, as the outline writes it.
    type Game: Names;
    /// One question of the quiz: what the walk does at one node on its way down.
    type Pick: Clone;
    /// The search's name in the pane's title (`MCTS`, `PUCT`).
    const NAME: &'static str;
    /// The rule its walk picks by, as the questions name it (`UCT`, `PUCT`).
    const RULE: &'static str;
    /// Phases in a round: what "go to step N" counts in.
    const PHASES: u64;

    /// Phases done since the start.
    fn phases(&self) -> u64;
    /// Whole rounds done.
    fn rounds(&self) -> u64;
    /// Whether the next phase starts a round (a selection).
    fn at_round_start(&self) -> bool;
    /// Runs the next phase and records it.
    fn step(&mut self);
    /// Takes the last phase back; false at the start.
    fn step_back(&mut self) -> bool;
    /// Goes to `target` phases since the start.
    fn go_to(&mut self, target: u64);
    /// Runs until `rounds` more rounds are complete (the one under way counting as one).
    fn run_rounds(&mut self, rounds: u64);

    /// The position at `node`.
    fn position(&self, node: NodeId) -> Self::Game;
    /// The parent of `node` (`None` at the root).
    fn parent(&self, node: NodeId) -> Option<NodeId>;
    /// Whether `node` has children in the tree.
    fn has_children(&self, node: NodeId) -> bool;
    /// Every node with children, besides the root (what "unfold all" opens).
    fn inner_nodes(&self) -> Vec<NodeId>;
    /// The path of the round under way, as the last phase left it (empty between rounds).
    fn path(&self) -> Vec<NodeId>;
    /// The outline, as `folds` opens it, `marked` nodes unfolded and marked, the figures
    /// that answer a question about `asked`'s children hidden.
    fn rows(
        &self,
        exact: &[Exact],
        folds: &Folds,
        marked: &[NodeId],
        asked: Option<NodeId>,
    ) -> Vec<Row>;
    /// What a node's numbers mean, with their arithmetic.
    fn explain(&self, node: NodeId, exact: &[Exact]) -> Vec<String>;
    /// Where the stepped search stands, for the status line.
    fn phase_said(&self) -> String;
    /// What the last phase did, in words, for the pane.
    fn phase_lines(&self) -> Vec<String>;
    /// What the status line says once all `planned` rounds are done.
    fn finished_said(&self, planned: u64) -> String;

    /// Whether a question is asked before the next phase (a selection from a root with
    /// moves). Cheap: views ask it every frame.
    fn asks_pick(&self) -> bool;
    /// The questions of the walk next, the root first.
    fn picks(&self) -> Vec<Self::Pick>;
    /// The node a question is about.
    fn pick_node(pick: &Self::Pick) -> NodeId;
    /// The search's own answer to a question.
    fn pick_chosen(pick: &Self::Pick) -> u8;
    /// The question in words, about the node named `at`; a move is a `noun`, typed as
    /// `choice`.
    fn pick_question(pick: &Self::Pick, at: &str, noun: &str, choice: &str) -> String;
    /// Whether `mv` is the search's answer, and the grade in words.
    fn pick_words(&self, pick: &Self::Pick, mv: u8) -> (bool, String);
    /// `node` named by its moves from the root (`X5 → O3`), or `the root`.
    fn node_name(&self, node: NodeId) -> String;
}

impl<G: Names> SteppedSearch for MctsStepper<G> {
    type Game = G;
    type Pick = Pick<u8>;
    const NAME: &'static str = "MCTS";
    const RULE: &'static str = "UCT";
    const PHASES: u64 = 4;

    fn phases(&self) -> u64 {
        Self::phases(self)
    }

    fn rounds(&self) -> u64 {
        self.mcts().iterations()
    }

    fn at_round_start(&self) -> bool {
        self.phase() == Phase::Selection
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
        self.run_iterations(rounds);
    }

    fn position(&self, node: NodeId) -> G {
        self.mcts().position(node)
    }

    fn parent(&self, node: NodeId) -> Option<NodeId> {
        self.mcts().node(node).parent()
    }

    fn has_children(&self, node: NodeId) -> bool {
        self.mcts().children(node).any(|(_, n)| n.is_in_tree())
    }

    fn inner_nodes(&self) -> Vec<NodeId> {
        self.mcts()
            .nodes()
            .filter(|&(id, _)| id != crate::domain::search::mcts::ROOT && self.has_children(id))
            .map(|(id, _)| id)
            .collect()
    }

    fn path(&self) -> Vec<NodeId> {
        outline::selected_path(self)
    }

    fn rows(
        &self,
        exact: &[Exact],
        folds: &Folds,
        marked: &[NodeId],
        asked: Option<NodeId>,
    ) -> Vec<Row> {
        outline::mcts_rows(self.mcts(), exact, folds, marked, asked)
    }

    fn explain(&self, node: NodeId, exact: &[Exact]) -> Vec<String> {
        outline::explain_mcts(self.mcts(), node as usize, exact)
    }

    fn phase_said(&self) -> String {
        outline::phase_said(self)
    }

    fn phase_lines(&self) -> Vec<String> {
        outline::phase_lines(self)
    }

    fn finished_said(&self, planned: u64) -> String {
        let mcts = self.mcts();
        let best = mcts.best_move().map_or_else(
            || "no move".to_string(),
            |mv| mcts.root_position().move_name(mv),
        );
        let visits = mcts
            .root_moves()
            .iter()
            .find(|m| Some(m.mv) == mcts.best_move())
            .map_or(0, |m| m.visits);
        format!(
            "All {} iterations done: {best} visited most (N {}); Enter plays it",
            thousands(planned),
            thousands(visits)
        )
    }

    fn asks_pick(&self) -> bool {
        asks_pick(self)
    }

    fn picks(&self) -> Vec<Pick<u8>> {
        picks(self)
    }

    fn pick_node(pick: &Pick<u8>) -> NodeId {
        pick.node
    }

    fn pick_chosen(pick: &Pick<u8>) -> u8 {
        pick.chosen
    }

    /// At a node with moves never tried there is nothing for UCT to compare: the search
    /// takes the first untried move (expansion), and the question says so rather than
    /// name UCT.
    fn pick_question(pick: &Pick<u8>, at: &str, noun: &str, choice: &str) -> String {
        let untried = pick.untried.len();
        if untried > 0 {
            format!(
                "Predict: {at} has {untried} {noun}{} never tried, so UCT has nothing to \
                 compare: which {noun} is tried next? Type {choice}",
                if untried == 1 { "" } else { "s" },
            )
        } else {
            format!("Predict: which {noun} does UCT select at {at}? Type {choice}")
        }
    }

    fn pick_words(&self, pick: &Pick<u8>, mv: u8) -> (bool, String) {
        let position = self.mcts().position(pick.node);
        let grade = pick.grade(mv);
        let words = grade.words(pick, &|m| position.move_name(m));
        (grade.mistake.is_none(), words)
    }

    fn node_name(&self, node: NodeId) -> String {
        node_path(self, node, &|position, mv| position.move_name(mv))
    }
}
