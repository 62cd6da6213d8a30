//! The step machine: the same minimax / alpha-beta as the recursive search, driven one
//! event at a time with an explicit stack, recording the explored tree in an arena so the
//! tree pane can draw it and the user can step back.
//!
//! The arena is in preorder: a node's children follow it, and a finished node records where
//! its subtree ends. Undoing the last event therefore only truncates or rewinds a few fields,
//! and a node's running value and α/β window can always be recomputed from its children.
//! The events taken are kept as their kinds only (one byte each): the node an event was
//! about follows from the state right after it.
//!
//! A stepper may also stop at a depth and score the positions there with an evaluation
//! ([`Leaves::limited`]): the depth-limited alpha-beta that plays games too large to search
//! to the end (Connect Four), stepped and shown with the same events, windows and cuts.
//!
//! A stepper may be given a node limit: it then stops before entering a node beyond it
//! ([`Stepper::at_node_limit`]), so what one recorded search can hold is bounded; stepping
//! back and everything about the nodes recorded keep working.

use super::ordering::MoveOrder;
use super::recursive::{Algorithm, SearchResult, SearchStats};
use super::score::{INFINITY, evaluate};
use crate::domain::games::{Game, Outcome};

/// Index of a node in the stepper's arena; the root is 0.
pub type NodeId = u32;

const OPEN: u32 = u32::MAX;

/// One node of the explored tree, as the tree pane shows it.
#[expect(
    clippy::struct_excessive_bools,
    reason = "four independent facts of a node, each read by name; the node stays 28 bytes"
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeNode<M> {
    /// The parent node; [`NO_PARENT`] for the root (a sentinel keeps the node at 28 bytes).
    parent: NodeId,
    /// The move that led here from the parent; `None` for the root.
    pub mv: Option<M>,
    /// Plies below the root.
    pub depth: u8,
    /// True at MAX levels (the root's player to move).
    pub maximizing: bool,
    /// The α/β window the node was entered with.
    pub alpha_in: i16,
    /// The upper end of that window.
    pub beta_in: i16,
    /// The leaf's evaluation, or the best value returned by a child so far; final once done.
    pub value: Option<i16>,
    /// The move to the child that gave `value`.
    pub best_move: Option<M>,
    /// Children entered so far.
    pub children: u8,
    /// Legal moves at this node: how many children it has in the full tree.
    pub move_count: u8,
    /// Children skipped by a cut-off.
    pub pruned: u8,
    /// True for the leaves: finished games, and positions at the depth limit.
    pub terminal: bool,
    /// True for a leaf at the depth limit: its value is the evaluation's, not a result.
    pub horizon: bool,
    /// True once a child has returned only a bound, so this node's value may be one too.
    bound_below: bool,
    end: u32,
}

/// The `parent` of the root.
const NO_PARENT: NodeId = NodeId::MAX;

impl<M> TreeNode<M> {
    /// The parent node; `None` for the root.
    pub const fn parent(&self) -> Option<NodeId> {
        if self.parent == NO_PARENT {
            None
        } else {
            Some(self.parent)
        }
    }

    /// True once the node has returned its value to its parent.
    pub const fn is_done(&self) -> bool {
        self.end != OPEN
    }

    /// The α bound the node currently searches with (its own improvements included).
    pub fn alpha(&self) -> i32 {
        let alpha = i32::from(self.alpha_in);
        match (self.maximizing, self.value) {
            (true, Some(v)) if !self.terminal => alpha.max(i32::from(v)),
            _ => alpha,
        }
    }

    /// The β bound the node currently searches with.
    pub fn beta(&self) -> i32 {
        let beta = i32::from(self.beta_in);
        match (self.maximizing, self.value) {
            (false, Some(v)) if !self.terminal => beta.min(i32::from(v)),
            _ => beta,
        }
    }

    /// What the node's value says about its true minimax value, or `None` before it has one.
    ///
    /// A finished node that searched every child and got an exact value from each has an
    /// exact value, whatever its window. Otherwise alpha-beta (fail-soft) returns a value
    /// outside the window the node was entered with only as a bound: at or below α an upper
    /// bound, at or above β a lower bound. A node still being searched has a running best: a
    /// lower bound at MAX, an upper bound at MIN.
    pub fn bound(&self) -> Option<(Bound, i32)> {
        let value = i32::from(self.value?);
        let bound = if self.terminal {
            Bound::Exact
        } else if !self.is_done() {
            if self.maximizing {
                Bound::AtLeast
            } else {
                Bound::AtMost
            }
        } else if self.pruned == 0 && !self.bound_below {
            Bound::Exact
        } else if value <= i32::from(self.alpha_in) {
            Bound::AtMost
        } else if value >= i32::from(self.beta_in) {
            Bound::AtLeast
        } else {
            Bound::Exact
        };
        Some((bound, value))
    }

    /// Why the node's value is only a bound; `None` when it is exact or there is none yet.
    pub fn bound_cause(&self) -> Option<BoundCause> {
        let (bound, _) = self.bound()?;
        if self.is_done() {
            BoundCause::of_done(bound, self.pruned)
        } else {
            Some(BoundCause::Searching)
        }
    }

    /// Whether a cut-off at this node came from α ≥ β at a MAX node (a β cut-off) or at a MIN
    /// node (an α cut-off).
    pub const fn cutoff_kind(&self) -> Option<CutoffKind> {
        if self.pruned == 0 {
            None
        } else if self.maximizing {
            Some(CutoffKind::Beta)
        } else {
            Some(CutoffKind::Alpha)
        }
    }
}

/// How a value relates to the true minimax value of its node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The value is the minimax value.
    Exact,
    /// The minimax value is at least this.
    AtLeast,
    /// The minimax value is at most this.
    AtMost,
}

impl Bound {
    /// The relation sign shown before a value: `=`, `≥`, `≤`.
    pub const fn sign(self) -> &'static str {
        match self {
            Self::Exact => "=",
            Self::AtLeast => "≥",
            Self::AtMost => "≤",
        }
    }
}

/// Why a value is only a bound: the difference a student must not miss between "alpha-beta
/// skipped moves here" and "every move was searched, but the window made the answer a bound".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundCause {
    /// The node is still being searched: the value is its best so far.
    Searching,
    /// A cut-off at the node left this many children unsearched.
    Pruned {
        /// How many.
        skipped: u8,
    },
    /// Every child was searched, but a value outside the window the node was entered with
    /// (below them, something was cut) is only known to be at most α or at least β.
    Window,
}

impl BoundCause {
    /// The cause for a finished node with `bound` and `skipped` children cut off.
    pub const fn of_done(bound: Bound, skipped: u8) -> Option<Self> {
        match (bound, skipped) {
            (Bound::Exact, _) => None,
            (_, 0) => Some(Self::Window),
            (_, skipped) => Some(Self::Pruned { skipped }),
        }
    }
}

/// Which bound caused a cut-off, in the usual textbook naming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutoffKind {
    /// At a MIN node: its value fell to α or below, so MAX above will never allow it.
    Alpha,
    /// At a MAX node: its value rose to β or above, so MIN above will never allow it.
    Beta,
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// Entered a node (a new position was reached).
    Enter,
    /// Evaluated a terminal position.
    Leaf,
    /// A finished node handed its value to its parent (or, at the root, ended the search).
    Return,
    /// The node's window closed (α ≥ β): its remaining children are pruned.
    Cutoff,
}

/// One step of the search, about one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// The node it happened to.
    pub node: NodeId,
}

struct Frame<G: Game> {
    node: NodeId,
    position: G,
    moves: G::Moves,
}

/// How a search scores the positions where it stops: finished games always, and, for a
/// depth-limited search, the unfinished positions at its depth limit.
#[derive(Clone, Copy)]
pub struct Leaves<G: Game> {
    /// Plies below the root where an unfinished position becomes a leaf (`None`: only
    /// finished games are leaves).
    pub horizon: Option<u8>,
    /// A finished game's score from the root mover's side, given the plies to it.
    pub finished: fn(Outcome<G::Player>, &G::Player, u32) -> i32,
    /// An unfinished position's score at the horizon, from the given player's side.
    pub evaluate: fn(&G, G::Player) -> i32,
    /// Larger than any score: the window the root is searched with.
    pub infinity: i32,
}

impl<G: Game> Leaves<G> {
    /// Finished games only, scored `10 - depth` as the original program does.
    pub fn to_the_end() -> Self {
        Self {
            horizon: None,
            finished: evaluate,
            evaluate: |_, _| 0,
            infinity: INFINITY,
        }
    }
}

/// Minimax or alpha-beta run one event at a time, with the explored tree recorded.
pub struct Stepper<G: Game> {
    root: G,
    algorithm: Algorithm,
    nodes: Vec<TreeNode<G::Move>>,
    stack: Vec<Frame<G>>,
    events: Vec<EventKind>,
    stats: SearchStats,
    node_limit: usize,
    order: MoveOrder,
    leaves: Leaves<G>,
}

impl<G: Game> Stepper<G> {
    /// A search of `root` that has not taken its first step yet, recording every node.
    pub fn new(root: G, algorithm: Algorithm) -> Self {
        Self::with_node_limit(root, algorithm, usize::MAX)
    }

    /// A search of `root` that records at most `limit` nodes (at least the root): it stops
    /// before entering one more, so its memory stays bounded however large the tree.
    pub fn with_node_limit(root: G, algorithm: Algorithm, limit: usize) -> Self {
        Self {
            root,
            algorithm,
            nodes: Vec::new(),
            stack: Vec::new(),
            events: Vec::new(),
            stats: SearchStats::default(),
            node_limit: limit.clamp(1, NodeId::MAX as usize),
            order: MoveOrder::Listed,
            leaves: Leaves::to_the_end(),
        }
    }

    /// This search with its leaves scored by `leaves` (to the end of the game unless set);
    /// set it before the first step.
    #[must_use]
    pub fn with_leaves(mut self, leaves: Leaves<G>) -> Self {
        debug_assert_eq!(self.events.len(), 0, "the leaves are set before stepping");
        self.leaves = leaves;
        self
    }

    /// How the search scores its leaves.
    pub const fn leaves(&self) -> &Leaves<G> {
        &self.leaves
    }

    /// This search with every node's children tried in `order` (as listed unless set); set
    /// it before the first step.
    #[must_use]
    pub fn with_order(mut self, order: MoveOrder) -> Self {
        debug_assert_eq!(self.events.len(), 0, "the order is set before stepping");
        self.order = order;
        self
    }

    /// The order children are tried in.
    pub const fn order(&self) -> MoveOrder {
        self.order
    }

    /// The most nodes this search records.
    pub const fn node_limit(&self) -> usize {
        self.node_limit
    }

    /// True when the next step would enter a node beyond the limit: the search stops here
    /// (stepping back still works).
    pub fn at_node_limit(&self) -> bool {
        self.nodes.len() >= self.node_limit
            && self
                .peek()
                .is_some_and(|event| event.kind == EventKind::Enter)
    }

    /// The position searched.
    pub const fn root(&self) -> &G {
        &self.root
    }

    /// The algorithm this search runs.
    pub const fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Counts so far.
    pub const fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Every node entered so far, in preorder.
    pub fn nodes(&self) -> &[TreeNode<G::Move>] {
        &self.nodes
    }

    /// One node.
    pub fn node(&self, id: NodeId) -> &TreeNode<G::Move> {
        &self.nodes[id as usize]
    }

    /// Events taken so far.
    pub fn events_taken(&self) -> usize {
        self.events.len()
    }

    /// The event just taken, if any.
    pub fn last_event(&self) -> Option<Event> {
        let kind = *self.events.last()?;
        Some(Event {
            kind,
            node: self.node_of_last(kind),
        })
    }

    /// The node the last event (of `kind`) was about, read from the state right after it:
    /// an entered node is the newest; a leaf and a cut-off are on top of the stack; a node
    /// that returned is the root once the stack is empty, or else the newest child of the
    /// node on top (nothing has been entered since it returned).
    fn node_of_last(&self, kind: EventKind) -> NodeId {
        let newest = self.nodes.len().saturating_sub(1) as NodeId;
        match kind {
            EventKind::Enter => newest,
            EventKind::Leaf | EventKind::Cutoff => self.current().unwrap_or(0),
            EventKind::Return => match self.current() {
                None => 0,
                Some(top) => {
                    let mut at = newest;
                    while let Some(parent) = self.node(at).parent()
                        && parent != top
                    {
                        at = parent;
                    }
                    at
                }
            },
        }
    }

    /// The node being searched (top of the stack), if the search is under way.
    pub fn current(&self) -> Option<NodeId> {
        self.stack.last().map(|frame| frame.node)
    }

    /// Plies from the root to the current node.
    pub fn depth(&self) -> usize {
        self.stack.len().saturating_sub(1)
    }

    /// True once the root has returned its value.
    pub fn is_finished(&self) -> bool {
        self.nodes.first().is_some_and(TreeNode::is_done)
    }

    /// The value and move found, once finished.
    pub fn result(&self) -> Option<SearchResult<G::Move>> {
        let root = self.nodes.first().filter(|n| n.is_done())?;
        Some(SearchResult {
            value: i32::from(root.value?),
            best_move: root.best_move,
            stats: self.stats,
        })
    }

    /// The children of `id` entered so far, in move order.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let end = self.subtree_end(id);
        let mut next = id + 1;
        std::iter::from_fn(move || {
            (next < end).then(|| {
                let child = next;
                next = self.subtree_end(child);
                child
            })
        })
    }

    /// The moves from the root to `id`.
    pub fn path_moves(&self, id: NodeId) -> Vec<G::Move> {
        let mut moves = Vec::new();
        let mut at = id;
        while let Some(parent) = self.node(at).parent() {
            moves.extend(self.node(at).mv);
            at = parent;
        }
        moves.reverse();
        moves
    }

    /// The position at node `id`.
    pub fn position(&self, id: NodeId) -> G {
        self.path_moves(id)
            .into_iter()
            .fold(self.root, |position, mv| position.play(mv))
    }

    /// The moves of `id` not entered: the ones a cut-off skipped, or (while the node is
    /// searched) the ones still to come, in order.
    pub fn moves_not_entered(&self, id: NodeId) -> Vec<G::Move> {
        let tried = usize::from(self.node(id).children);
        self.order.moves(&self.position(id)).as_ref()[tried..].to_vec()
    }

    /// The event the next [`Stepper::step`] will take, or `None` once finished.
    pub fn peek(&self) -> Option<Event> {
        let Some(frame) = self.stack.last() else {
            return (!self.is_finished()).then_some(Event {
                kind: EventKind::Enter,
                node: 0,
            });
        };
        let node = self.node(frame.node);
        let kind = if node.terminal {
            if node.value.is_none() {
                EventKind::Leaf
            } else {
                EventKind::Return
            }
        } else {
            let untried = frame.moves.as_ref().len() - usize::from(node.children);
            let window_closed =
                self.algorithm == Algorithm::AlphaBeta && node.alpha() >= node.beta();
            if untried == 0 || node.pruned > 0 {
                EventKind::Return
            } else if window_closed {
                EventKind::Cutoff
            } else {
                return Some(Event {
                    kind: EventKind::Enter,
                    node: self.nodes.len() as NodeId,
                });
            }
        };
        Some(Event {
            kind,
            node: frame.node,
        })
    }

    /// Takes one event; `None` once the search is finished or at the node limit.
    pub fn step(&mut self) -> Option<Event> {
        if self.at_node_limit() {
            return None;
        }
        let event = self.peek()?;
        match event.kind {
            EventKind::Enter => self.enter(),
            EventKind::Leaf => self.evaluate_leaf(),
            EventKind::Return => self.return_to_parent(),
            EventKind::Cutoff => self.cut_off(),
        }
        self.events.push(event.kind);
        Some(event)
    }

    /// Undoes the last event; `None` at the start.
    pub fn step_back(&mut self) -> Option<Event> {
        let event = self.last_event()?;
        self.events.pop();
        match event.kind {
            EventKind::Enter => self.undo_enter(event.node),
            EventKind::Leaf => {
                self.nodes[event.node as usize].value = None;
                self.stats.leaves -= 1;
            }
            EventKind::Return => self.undo_return(event.node),
            EventKind::Cutoff => {
                self.nodes[event.node as usize].pruned = 0;
                self.stats.cutoffs -= 1;
            }
        }
        Some(event)
    }

    /// Steps until the next child's whole subtree is done (a debugger's "step over"); a
    /// single step when the next event enters no child.
    /// Before the root is entered it is a single step too.
    pub fn step_over(&mut self) {
        let Some(next) = self.peek() else { return };
        let enters_a_child = next.kind == EventKind::Enter && !self.nodes.is_empty();
        // At the node limit nothing is entered, so there is no subtree to finish.
        if self.step().is_some() && enters_a_child {
            self.run_until_done(next.node);
        }
    }

    /// Steps until the current node has returned to its parent ("step out").
    pub fn step_out(&mut self) {
        if let Some(current) = self.current() {
            self.run_until_done(current);
        } else {
            self.step();
        }
    }

    /// Steps to the end of the search (or to the node limit).
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }

    fn run_until_done(&mut self, id: NodeId) {
        while !self.node(id).is_done() && self.step().is_some() {}
    }

    fn subtree_end(&self, id: NodeId) -> u32 {
        match self.node(id).end {
            OPEN => self.nodes.len() as u32,
            end => end,
        }
    }

    fn enter(&mut self) {
        let (position, parent, depth, maximizing, alpha, beta, mv) = match self.stack.last() {
            None => {
                let root = self.root;
                let infinity = self.leaves.infinity;
                (root, None, 0, true, -infinity, infinity, None)
            }
            Some(frame) => {
                let node = self.node(frame.node);
                let mv = frame.moves.as_ref()[usize::from(node.children)];
                let position = frame.position.play(mv);
                let maximizing = position.to_move() == self.root.to_move();
                let parent = Some(frame.node);
                // Plain minimax searches every child with the full window.
                let (alpha, beta) = match self.algorithm {
                    Algorithm::AlphaBeta => (node.alpha(), node.beta()),
                    Algorithm::Minimax => (-self.leaves.infinity, self.leaves.infinity),
                };
                (
                    position,
                    parent,
                    node.depth + 1,
                    maximizing,
                    alpha,
                    beta,
                    Some(mv),
                )
            }
        };
        if let Some(parent) = parent {
            self.nodes[parent as usize].children += 1;
        }
        let id = self.nodes.len() as NodeId;
        let moves = self.order.moves(&position);
        let finished = position.outcome().is_some();
        let horizon = !finished && self.leaves.horizon == Some(depth);
        self.nodes.push(TreeNode {
            parent: parent.unwrap_or(NO_PARENT),
            mv,
            depth,
            maximizing,
            alpha_in: alpha as i16,
            beta_in: beta as i16,
            value: None,
            best_move: None,
            children: 0,
            move_count: if horizon {
                0
            } else {
                moves.as_ref().len() as u8
            },
            pruned: 0,
            terminal: finished || horizon,
            horizon,
            bound_below: false,
            end: OPEN,
        });
        self.stack.push(Frame {
            node: id,
            position,
            moves,
        });
        self.stats.nodes += 1;
    }

    fn undo_enter(&mut self, id: NodeId) {
        self.stack.pop();
        let parent = self.nodes.pop().and_then(|node| node.parent());
        debug_assert_eq!(self.nodes.len(), id as usize);
        if let Some(parent) = parent {
            self.nodes[parent as usize].children -= 1;
        }
        self.stats.nodes -= 1;
    }

    fn evaluate_leaf(&mut self) {
        let frame = self.stack.last().expect("a leaf is on the stack");
        let node = &mut self.nodes[frame.node as usize];
        let max_player = self.root.to_move();
        let value = match frame.position.outcome() {
            Some(outcome) => (self.leaves.finished)(outcome, &max_player, u32::from(node.depth)),
            None => (self.leaves.evaluate)(&frame.position, max_player),
        };
        node.value = Some(value as i16);
        self.stats.leaves += 1;
    }

    fn cut_off(&mut self) {
        let frame = self.stack.last().expect("cut-offs happen on the stack");
        let untried = frame.moves.as_ref().len();
        let node = &mut self.nodes[frame.node as usize];
        node.pruned = (untried - usize::from(node.children)) as u8;
        self.stats.cutoffs += 1;
    }

    fn return_to_parent(&mut self) {
        let frame = self.stack.pop().expect("a node to return");
        let id = frame.node;
        self.nodes[id as usize].end = self.nodes.len() as u32;
        let child = self.nodes[id as usize];
        let Some(parent) = child.parent() else { return };
        let value = child.value.expect("a returning node has a value");
        let child_exact = matches!(child.bound(), Some((Bound::Exact, _)));
        let parent = &mut self.nodes[parent as usize];
        parent.bound_below |= !child_exact;
        let better = parent.value.is_none_or(|best| {
            if parent.maximizing {
                value > best
            } else {
                value < best
            }
        });
        if better {
            parent.value = Some(value);
            parent.best_move = child.mv;
        }
    }

    fn undo_return(&mut self, id: NodeId) {
        self.nodes[id as usize].end = OPEN;
        let position = self.position(id);
        self.stack.push(Frame {
            node: id,
            position,
            moves: self.order.moves(&position),
        });
        if let Some(parent) = self.node(id).parent() {
            self.recompute_best(parent, id);
        }
    }

    /// Restores `parent`'s running best, and whether a child returned only a bound, to what
    /// they were before child `upto` returned.
    fn recompute_best(&mut self, parent: NodeId, upto: NodeId) {
        let maximizing = self.node(parent).maximizing;
        let mut best: Option<(i16, Option<G::Move>)> = None;
        let mut bound_below = false;
        for child in self.children(parent).take_while(|&c| c != upto) {
            let node = self.node(child);
            bound_below |= !matches!(node.bound(), Some((Bound::Exact, _)));
            let value = node.value.expect("earlier siblings are done");
            let better = best.is_none_or(|(b, _)| if maximizing { value > b } else { value < b });
            if better {
                best = Some((value, node.mv));
            }
        }
        let node = &mut self.nodes[parent as usize];
        node.value = best.map(|(v, _)| v);
        node.best_move = best.and_then(|(_, mv)| mv);
        node.bound_below = bound_below;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::search::search;

    fn finished<G: Game>(root: G, algorithm: Algorithm) -> Stepper<G> {
        let mut stepper = Stepper::new(root, algorithm);
        stepper.run_to_end();
        stepper
    }

    fn assert_matches_recursive<G: Game>(root: G, algorithm: Algorithm) {
        let stepper = finished(root, algorithm);
        assert_eq!(
            stepper.result(),
            Some(search(&root, algorithm)),
            "{root:?} {algorithm}"
        );
        assert_eq!(stepper.nodes().len() as u64, stepper.stats().nodes);
    }

    #[test]
    fn agrees_with_the_recursive_search_on_the_game_of_eight() {
        assert_matches_recursive(Eight::start(), Algorithm::Minimax);
        assert_matches_recursive(Eight::start(), Algorithm::AlphaBeta);
    }

    #[test]
    fn agrees_with_the_recursive_search_from_the_empty_board() {
        let empty = Board::empty(Mark::X);
        assert_matches_recursive(empty, Algorithm::AlphaBeta);
        let stepper = finished(empty, Algorithm::Minimax);
        assert_eq!(stepper.stats().nodes, 549_946);
        assert_eq!(stepper.result(), Some(search(&empty, Algorithm::Minimax)));
    }

    #[test]
    fn agrees_on_mid_game_positions() {
        for text in ["X...O....", "XO..X....", "XOX.O....", "O...X...."] {
            for mark in [Mark::X, Mark::O] {
                if let Ok(board) = Board::parse(text, Some(mark)) {
                    assert_matches_recursive(board, Algorithm::Minimax);
                    assert_matches_recursive(board, Algorithm::AlphaBeta);
                }
            }
        }
    }

    #[test]
    fn stepping_back_restores_every_earlier_state() {
        let root = Board::parse("XO..X....", Some(Mark::O)).unwrap();
        let mut stepper = Stepper::new(root, Algorithm::AlphaBeta);
        let mut snapshots = Vec::new();
        loop {
            snapshots.push((stepper.nodes().to_vec(), stepper.stats(), stepper.current()));
            if stepper.step().is_none() {
                break;
            }
        }
        while let Some(_event) = stepper.step_back() {
            let (nodes, stats, current) = snapshots.pop().unwrap();
            let _ = (nodes, stats, current);
            let (nodes, stats, current) = snapshots.last().unwrap();
            assert_eq!(stepper.nodes(), nodes.as_slice());
            assert_eq!(stepper.stats(), *stats);
            assert_eq!(stepper.current(), *current);
        }
        // Stepping forward again reproduces the same search.
        stepper.run_to_end();
        assert_eq!(stepper.result(), Some(search(&root, Algorithm::AlphaBeta)));
    }

    #[test]
    fn step_over_and_step_out_finish_whole_subtrees() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        stepper.step(); // enter the root
        stepper.step_over(); // the whole first child
        let first = stepper.children(0).next().unwrap();
        assert!(stepper.node(first).is_done());
        assert_eq!(stepper.current(), Some(0));
        stepper.step(); // enter the second child
        let second = stepper.current().unwrap();
        stepper.step_out();
        assert!(stepper.node(second).is_done());
        assert_eq!(stepper.current(), Some(0));
    }

    #[test]
    fn alpha_beta_values_outside_the_window_are_shown_as_bounds() {
        let root = Board::parse("XXOXO....", Some(Mark::O)).unwrap();
        let stepper = finished(root, Algorithm::AlphaBeta);
        let exact = finished(root, Algorithm::Minimax);
        for (id, node) in stepper.nodes().iter().enumerate() {
            let (bound, value) = node.bound().unwrap();
            // The same node in the full minimax tree (same path) has the true value.
            let path = stepper.path_moves(id as NodeId);
            let truth = exact
                .nodes()
                .iter()
                .enumerate()
                .find(|(i, _)| exact.path_moves(*i as NodeId) == path)
                .and_then(|(_, n)| n.value)
                .map(i32::from)
                .unwrap();
            match bound {
                Bound::Exact => assert_eq!(value, truth, "{path:?}"),
                Bound::AtLeast => assert!(truth >= value, "{path:?}"),
                Bound::AtMost => assert!(truth <= value, "{path:?}"),
            }
        }
        assert!(
            stepper
                .nodes()
                .iter()
                .any(|n| n.bound().unwrap().0 != Bound::Exact)
        );
        assert_eq!(
            stepper.node(0).bound().unwrap().0,
            Bound::Exact,
            "the root is exact"
        );
    }

    /// Every node of the subtree at `id`, itself included.
    fn subtree<G: Game>(stepper: &Stepper<G>, id: NodeId) -> Vec<NodeId> {
        let mut all = vec![id];
        let mut at = 0;
        while at < all.len() {
            all.extend(stepper.children(all[at]));
            at += 1;
        }
        all
    }

    #[test]
    fn a_bound_says_whether_it_was_cut_short_here_or_comes_from_the_window() {
        let mut windows = 0;
        for cells in ["O.X.X....", "X...O....", "XO..X....", "XXOXO...."] {
            let root = Board::parse(cells, Some(Mark::O)).unwrap();
            let stepper = finished(root, Algorithm::AlphaBeta);
            for id in 0..stepper.nodes().len() as NodeId {
                let node = stepper.node(id);
                let nothing_cut_below = subtree(&stepper, id)
                    .iter()
                    .all(|&n| stepper.node(n).pruned == 0);
                match node.bound_cause() {
                    None => {}
                    Some(BoundCause::Pruned { skipped }) => assert_eq!(skipped, node.pruned),
                    Some(BoundCause::Window) => {
                        windows += 1;
                        assert_eq!(node.pruned, 0, "{cells} {id}");
                        assert!(!nothing_cut_below, "{cells} {id}: nothing was cut below");
                    }
                    Some(BoundCause::Searching) => panic!("a finished search has no running bound"),
                }
                if nothing_cut_below {
                    assert_eq!(node.bound().unwrap().0, Bound::Exact, "{cells} {id}");
                }
            }
        }
        assert!(windows > 0, "the positions show a bound from the window");
    }

    #[test]
    fn every_minimax_value_is_exact() {
        let stepper = finished(Eight::start(), Algorithm::Minimax);
        assert!(
            stepper
                .nodes()
                .iter()
                .all(|n| n.bound().unwrap().0 == Bound::Exact)
        );
    }

    #[test]
    fn the_event_kept_as_a_kind_names_the_same_node_forward_and_back() {
        for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
            let mut stepper =
                Stepper::new(Board::parse("XO..X....", Some(Mark::O)).unwrap(), algorithm);
            let mut taken = Vec::new();
            while let Some(event) = stepper.step() {
                assert_eq!(stepper.last_event(), Some(event));
                taken.push(event);
            }
            while let Some(event) = stepper.step_back() {
                assert_eq!(Some(event), taken.pop());
            }
            assert!(taken.is_empty());
        }
    }

    #[test]
    fn a_node_limit_stops_the_search_before_one_more_node() {
        let empty = Board::empty(Mark::X);
        let mut capped = Stepper::with_node_limit(empty, Algorithm::Minimax, 1000);
        capped.run_to_end();
        assert_eq!(capped.nodes().len(), 1000);
        assert!(capped.at_node_limit());
        assert_eq!(capped.result(), None);
        assert_eq!(capped.step(), None, "no step past the limit");
        assert_eq!(capped.stats().nodes, 1000);
        // The nodes recorded are the unlimited search's first ones.
        let mut full = Stepper::new(empty, Algorithm::Minimax);
        while full.nodes().len() < 1000 || full.peek().is_some_and(|e| e.kind != EventKind::Enter) {
            full.step();
        }
        assert_eq!(full.nodes(), capped.nodes());
        assert_eq!(full.stats(), capped.stats());
        // Every way of stepping on stops there too.
        capped.step_over();
        capped.step_out();
        assert_eq!(capped.nodes().len(), 1000);
        // Stepping back leaves the limit; stepping on comes back to it.
        capped.step_back();
        assert!(!capped.at_node_limit());
        capped.run_to_end();
        assert!(capped.at_node_limit());
    }

    #[test]
    fn a_limit_above_the_tree_changes_nothing() {
        let root = Board::parse("X...O....", Some(Mark::X)).unwrap();
        let limited = {
            let mut stepper = Stepper::with_node_limit(root, Algorithm::Minimax, 8000);
            stepper.run_to_end();
            stepper
        };
        assert!(!limited.at_node_limit());
        assert_eq!(limited.result(), Some(search(&root, Algorithm::Minimax)));
    }

    #[test]
    fn step_over_before_the_root_is_one_step() {
        let mut stepper = Stepper::new(Eight::start(), Algorithm::Minimax);
        stepper.step_over();
        assert_eq!(stepper.events_taken(), 1);
    }

    #[test]
    fn cutoffs_record_how_many_children_were_pruned() {
        let stepper = finished(Board::empty(Mark::X), Algorithm::AlphaBeta);
        let cut: Vec<_> = stepper.nodes().iter().filter(|n| n.pruned > 0).collect();
        assert_eq!(cut.len() as u64, stepper.stats().cutoffs);
        assert!(cut.iter().all(|n| n.alpha() >= n.beta()));
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    #[test]
    fn a_recorded_node_stays_small() {
        // The whole minimax tree of the empty board is 549,946 nodes: keep the record compact.
        assert!(
            std::mem::size_of::<TreeNode<u8>>() <= 28,
            "{}",
            std::mem::size_of::<TreeNode<u8>>()
        );
        assert!(std::mem::size_of::<Event>() <= 8);
        // What is kept per event taken: its kind alone.
        assert_eq!(std::mem::size_of::<EventKind>(), 1);
    }
}
