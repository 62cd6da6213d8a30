//! The search tree's arena: one flat `Vec` of nodes, indexed by [`NodeId`], so two million
//! nodes are one allocation and a node's children sit side by side in memory, which is
//! what makes the selection loop fast.
//!
//! A node's children are reserved together, one slot per legal move, the first time one of
//! them is expanded; a slot joins the tree when its move is expanded, in legal-move order.
//! The slots not yet in the tree are the node's untried moves, so they need no list of
//! their own.

/// Index of a node (or child slot) in the arena; the root is 0.
pub type NodeId = u32;

/// The root's index.
pub const ROOT: NodeId = 0;

/// The `parent` of the root: a sentinel keeps the node small.
const NO_PARENT: NodeId = NodeId::MAX;

/// One node of the tree: the move into it and what the iterations through it found.
///
/// `W` counts from the point of view of the player who made the move into the node (for
/// the root, whoever is not to move there): a win 1, a draw ½. It is kept in halves, so it
/// is exact and shown as e.g. 12.5.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Node<M> {
    /// The move from the parent; `None` for the root.
    mv: Option<M>,
    parent: NodeId,
    /// The first child slot, once the children are reserved.
    first_child: NodeId,
    /// Legal moves here: the child slots reserved (0 until the first expansion here).
    child_slots: u16,
    /// Children in the tree: the first `expanded` slots.
    expanded: u16,
    /// Whether the slots were reserved (a node without legal moves has none).
    opened: bool,
    /// True once the slot's move was expanded (the root always).
    in_tree: bool,
    /// The game is over here.
    terminal: bool,
    visits: u64,
    /// `W`, in halves: 2 per win, 1 per draw.
    half_wins: u64,
    /// The UCB value of the edge into this node the last time its parent's selection
    /// compared it.
    last_ucb: Option<f64>,
}

impl<M: Copy> Node<M> {
    /// The root of a new tree.
    pub(super) const fn root(terminal: bool) -> Self {
        Self {
            mv: None,
            parent: NO_PARENT,
            first_child: 0,
            child_slots: 0,
            expanded: 0,
            opened: false,
            in_tree: true,
            terminal,
            visits: 0,
            half_wins: 0,
            last_ucb: None,
        }
    }

    /// A reserved child slot for `mv`, not yet in the tree.
    pub(super) const fn slot(mv: M, parent: NodeId) -> Self {
        Self {
            mv: Some(mv),
            parent,
            first_child: 0,
            child_slots: 0,
            expanded: 0,
            opened: false,
            in_tree: false,
            terminal: false,
            visits: 0,
            half_wins: 0,
            last_ucb: None,
        }
    }

    /// The move from the parent; `None` for the root.
    pub const fn mv(&self) -> Option<M> {
        self.mv
    }

    /// The parent node; `None` for the root.
    pub const fn parent(&self) -> Option<NodeId> {
        if self.parent == NO_PARENT {
            None
        } else {
            Some(self.parent)
        }
    }

    /// `N`: the iterations that passed through this node.
    pub const fn visits(&self) -> u64 {
        self.visits
    }

    /// `W`: wins of the player who moved into the node, a draw counting ½.
    pub fn wins(&self) -> f64 {
        self.half_wins as f64 / 2.0
    }

    /// `W` in halves (2 per win, 1 per draw): the exact count behind [`Node::wins`].
    pub const fn half_wins(&self) -> u64 {
        self.half_wins
    }

    /// `W/N`, the node's mean result for the player who moved into it; `None` unvisited.
    pub fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| self.wins() / self.visits as f64)
    }

    /// The UCB1 value this edge had the last time its parent's selection compared it;
    /// `None` if it never was (its parent still had untried moves every time).
    pub const fn last_ucb(&self) -> Option<f64> {
        self.last_ucb
    }

    /// True when the game is over at this node: it never gets children.
    pub const fn is_terminal(&self) -> bool {
        self.terminal
    }

    /// True once the node is part of the tree (false for an untried move's slot).
    pub const fn is_in_tree(&self) -> bool {
        self.in_tree
    }

    /// Whether the node has children slots reserved (its legal moves are known).
    pub(super) const fn is_opened(&self) -> bool {
        self.opened
    }

    /// True when every legal move here has a child in the tree, so selection goes on
    /// through it.
    pub(super) const fn is_fully_expanded(&self) -> bool {
        self.opened && self.expanded == self.child_slots && self.child_slots > 0
    }

    /// The ids of the children in the tree, in legal-move order.
    pub const fn children(&self) -> std::ops::Range<NodeId> {
        self.first_child..self.first_child + self.expanded as NodeId
    }

    /// The ids of the slots of the untried moves, in legal-move order (empty before the
    /// node is opened: see [`super::Mcts::untried_moves`]).
    pub(super) const fn untried_slots(&self) -> std::ops::Range<NodeId> {
        let end = self.first_child + self.child_slots as NodeId;
        self.first_child + self.expanded as NodeId..end
    }

    /// Reserves `count` child slots from `first`.
    pub(super) const fn open(&mut self, first: NodeId, count: u16) {
        self.opened = true;
        self.first_child = first;
        self.child_slots = count;
    }

    /// Takes the next untried slot into the tree and gives its id.
    pub(super) const fn expand_next(&mut self) -> NodeId {
        let child = self.first_child + self.expanded as NodeId;
        self.expanded += 1;
        child
    }

    /// Marks a slot as in the tree, with whether the game is over there.
    pub(super) const fn join_tree(&mut self, terminal: bool) {
        self.in_tree = true;
        self.terminal = terminal;
    }

    /// Sets the UCB value its parent just compared.
    pub(super) const fn compared(&mut self, ucb: f64) {
        self.last_ucb = Some(ucb);
    }

    /// One more iteration through the node, with its result in halves for the player who
    /// moved into it.
    pub(super) const fn visit(&mut self, half_wins: u64) {
        self.visits += 1;
        self.half_wins += half_wins;
    }
}
