//! Alpha-beta that stops at a depth and scores what it sees there with an evaluation: how
//! every game too large to search to the end is played. Three improvements can each be
//! turned off, so a student sees what each saves: iterative deepening (search depth 1, then
//! 2, ... and try the previous iteration's best line first), move ordering (that line, then
//! the centre outwards), and a transposition table (a position reached again at the same
//! remaining depth is not searched again). None changes the value found, only the work.
//!
//! Values are from the root mover's side (MAX), as in the Tic-tac-toe tree: a finished game
//! scores `WIN_SCORE - ply` for a win, `ply - WIN_SCORE` for a loss, 0 for a draw; a position
//! at the depth limit scores its evaluation. The search is fail-soft, so a value outside the
//! window it was searched with is only a bound, and each recorded node says which.

use super::heuristic::Evaluate;
use super::score::INFINITY;
use super::stepper::{Bound, Leaves};
use crate::domain::games::Outcome;
use std::collections::HashMap;

/// The score of a win at the root: far above any evaluation, so a found win beats every
/// heuristic hope.
pub const WIN_SCORE: i32 = 1000;
/// The most positions the transposition table keeps: beyond it, new ones are not stored.
pub const TABLE_LIMIT: usize = 1 << 20;

/// Which improvements the search uses, and how deep it looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Plies to look ahead (1 or more).
    pub depth: u8,
    /// Search every depth from 1 up, trying the previous iteration's best line first.
    pub deepening: bool,
    /// Try the best line known so far first, then the moves by the game's static rank
    /// (for Connect Four, the centre outwards); off, the moves in their listed order.
    pub ordering: bool,
    /// Keep what each position's search found, to answer it again at once.
    pub table: bool,
}

/// Counts of one iteration's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Positions visited, the root included.
    pub nodes: u64,
    /// Positions scored by the evaluation at the depth limit.
    pub horizon: u64,
    /// Finished games reached.
    pub finished: u64,
    /// Nodes whose remaining children were pruned.
    pub cutoffs: u64,
    /// Positions answered from the transposition table.
    pub table_hits: u64,
}

impl Stats {
    fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.horizon += other.horizon;
        self.finished += other.finished;
        self.cutoffs += other.cutoffs;
        self.table_hits += other.table_hits;
    }
}

/// One depth of iterative deepening (or the only one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Iteration<M> {
    /// The depth searched.
    pub depth: u8,
    /// The root's value at that depth.
    pub value: i32,
    /// The move that value comes from.
    pub best: Option<M>,
    /// The work it took.
    pub stats: Stats,
}

/// What ended a node's search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind<C> {
    /// Its children were searched.
    Inner,
    /// The depth limit: scored by the evaluation, with what it counted.
    Horizon(C),
    /// A finished game.
    Finished,
    /// Answered by the transposition table.
    TableHit,
}

/// One position of the recorded tree, in preorder: its children follow it up to `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node<M, C> {
    /// The move that led here; `None` at the root.
    pub mv: Option<M>,
    /// Plies below the root.
    pub ply: u8,
    /// Whether the root's mover is to move here (a MAX node).
    pub maximizing: bool,
    /// α on entry.
    pub alpha: i32,
    /// β on entry.
    pub beta: i32,
    /// The value the node returned.
    pub value: i32,
    /// How that value relates to the node's true value at this depth.
    pub bound: Bound,
    /// What ended the node's search.
    pub kind: NodeKind<C>,
    /// The index after the node's last descendant.
    pub end: u32,
    /// Legal moves never searched because of a cut-off.
    pub pruned: u8,
    /// The child that gave the value, if any.
    pub best: Option<M>,
}

/// A root move's value as the last iteration found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootValue<M> {
    /// The move.
    pub mv: M,
    /// Its value, or the bound alpha-beta proved.
    pub value: i32,
    /// Whether the value is exact or a bound.
    pub bound: Bound,
    /// The move's replies a cut-off at it left unsearched: 0 for a bound that comes from
    /// the window (or the table) alone.
    pub skipped: u8,
}

impl<M> RootValue<M> {
    /// Why the value is only a bound; `None` when it is exact.
    pub const fn cause(&self) -> Option<super::BoundCause> {
        super::BoundCause::of_done(self.bound, self.skipped)
    }
}

/// A finished depth-limited search.
#[derive(Debug, Clone, PartialEq)]
pub struct Limited<G: Evaluate> {
    /// The options it ran with.
    pub options: Options,
    /// Each depth searched, shallowest first.
    pub iterations: Vec<Iteration<G::Move>>,
    /// The deepest iteration's tree, as far as the record limit allowed.
    pub tree: Vec<Node<G::Move, G::Counts>>,
    /// Whether the tree holds every node of the deepest iteration.
    pub tree_complete: bool,
    /// The root moves in the order the deepest iteration tried them, with their values.
    pub root: Vec<RootValue<G::Move>>,
}

impl<G: Evaluate> Limited<G> {
    /// The root's value at the deepest depth.
    pub fn value(&self) -> i32 {
        self.iterations.last().map_or(0, |i| i.value)
    }

    /// The move to play.
    pub fn best_move(&self) -> Option<G::Move> {
        self.iterations.last().and_then(|i| i.best)
    }

    /// The work of every iteration together.
    pub fn total(&self) -> Stats {
        let mut total = Stats::default();
        for iteration in &self.iterations {
            total.add(&iteration.stats);
        }
        total
    }

    /// The children of recorded node `index`, in the order they were searched.
    pub fn children(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let end = self.tree.get(index).map_or(index, |n| n.end as usize);
        std::iter::successors(Some(index + 1).filter(|&c| c < end), move |&c| {
            let next = self.tree[c].end as usize;
            (next < end).then_some(next)
        })
    }
}

/// What the table keeps of a searched position.
#[derive(Debug, Clone, Copy)]
struct TableEntry<M> {
    remaining: u8,
    value: i32,
    bound: Bound,
    best: Option<M>,
}

/// The search's working state.
struct Search<'a, G: Evaluate> {
    options: Options,
    max_player: G::Player,
    table: HashMap<u64, TableEntry<G::Move>>,
    /// The previous iteration's best line, tried first on the way down it.
    line: Vec<G::Move>,
    stats: Stats,
    record: Option<&'a mut Vec<Node<G::Move, G::Counts>>>,
    record_limit: usize,
    root: Vec<RootValue<G::Move>>,
    /// The replies the node that returned last left unsearched, for [`RootValue::skipped`].
    last_skipped: u8,
    /// Whether the node that returned last has an exact value, as it is shown.
    last_exact: bool,
}

/// Searches `root` to `options.depth` plies, recording the deepest iteration's tree up to
/// `record_limit` nodes (the search itself goes on past it).
pub fn search_limited<G: Evaluate>(root: &G, options: Options, record_limit: usize) -> Limited<G> {
    let depth = options.depth.max(1);
    let first = if options.deepening { 1 } else { depth };
    let mut iterations = Vec::new();
    let mut tree = Vec::new();
    let mut root_values = Vec::new();
    let mut line = Vec::new();
    let mut table = HashMap::new();
    for current in first..=depth {
        let last = current == depth;
        let mut search = Search {
            options,
            max_player: root.to_move(),
            table: std::mem::take(&mut table),
            line: std::mem::take(&mut line),
            stats: Stats::default(),
            record: last.then_some(&mut tree),
            record_limit,
            root: Vec::new(),
            last_skipped: 0,
            last_exact: true,
        };
        let (value, best) = search.visit(root, None, 0, current, -INFINITY, INFINITY);
        line = search.principal_line(root, best, current);
        table = std::mem::take(&mut search.table);
        root_values = search.root;
        iterations.push(Iteration {
            depth: current,
            value,
            best,
            stats: search.stats,
        });
    }
    let complete = iterations
        .last()
        .is_some_and(|i| i.stats.nodes as usize == tree.len());
    Limited {
        options,
        iterations,
        tree,
        tree_complete: complete,
        root: root_values,
    }
}

impl<G: Evaluate> Search<'_, G> {
    /// The value of `position` within (alpha, beta) and the move it comes from.
    fn visit(
        &mut self,
        position: &G,
        mv: Option<G::Move>,
        ply: u8,
        remaining: u8,
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<G::Move>) {
        self.stats.nodes += 1;
        let maximizing = position.to_move() == self.max_player;
        let recorded = self.enter(mv, ply, maximizing, alpha, beta);
        if let Some(outcome) = position.outcome() {
            self.stats.finished += 1;
            let value = self.finished_value(outcome, ply);
            self.leave(recorded, value, Bound::Exact, NodeKind::Finished, 0, None);
            return (value, None);
        }
        if remaining == 0 {
            self.stats.horizon += 1;
            let counts = position.counts();
            let value = G::score(&counts, self.max_player);
            self.leave(
                recorded,
                value,
                Bound::Exact,
                NodeKind::Horizon(counts),
                0,
                None,
            );
            return (value, None);
        }
        let key = position.key();
        let stored = if self.options.table {
            self.table.get(&key).copied()
        } else {
            None
        };
        if let Some(entry) = stored.filter(|e| e.remaining == remaining && answers(e, alpha, beta))
        {
            self.stats.table_hits += 1;
            self.leave(
                recorded,
                entry.value,
                entry.bound,
                NodeKind::TableHit,
                0,
                entry.best,
            );
            return (entry.value, entry.best);
        }
        let moves = self.ordered(position, ply, stored.and_then(|e| e.best));
        let (value, best, pruned, children_exact) = self.children(
            position,
            moves.as_ref(),
            ply,
            remaining,
            alpha,
            beta,
            maximizing,
        );
        // The table keeps the window's rule, which the search's cut-offs are tuned to; what
        // is shown is exact also when every child was searched and exact (as the stepper
        // shows it), so an exact value is never labelled a bound from the window.
        let bound = if value <= alpha {
            Bound::AtMost
        } else if value >= beta {
            Bound::AtLeast
        } else {
            Bound::Exact
        };
        let shown = if pruned == 0 && children_exact {
            Bound::Exact
        } else {
            bound
        };
        if self.options.table && (self.table.len() < TABLE_LIMIT || self.table.contains_key(&key)) {
            let entry = TableEntry {
                remaining,
                value,
                bound,
                best,
            };
            self.table.insert(key, entry);
        }
        self.leave(recorded, value, shown, NodeKind::Inner, pruned, best);
        (value, best)
    }

    /// Searches the children of an unfinished position: its value, best move, how many
    /// moves a cut-off left unsearched, and whether every child searched returned an exact
    /// value.
    #[allow(clippy::too_many_arguments)]
    fn children(
        &mut self,
        position: &G,
        moves: &[G::Move],
        ply: u8,
        remaining: u8,
        mut alpha: i32,
        mut beta: i32,
        maximizing: bool,
    ) -> (i32, Option<G::Move>, u8, bool) {
        let mut value = if maximizing { -INFINITY } else { INFINITY };
        let mut best = None;
        let mut all_exact = true;
        for (index, &mv) in moves.iter().enumerate() {
            let (child, _) = self.visit(
                &position.play(mv),
                Some(mv),
                ply + 1,
                remaining - 1,
                alpha,
                beta,
            );
            all_exact &= self.last_exact;
            if ply == 0 {
                let (skipped, exact) = (self.last_skipped, self.last_exact);
                self.note_root(mv, child, (alpha, beta), skipped, exact);
            }
            let better = if maximizing {
                child > value
            } else {
                child < value
            };
            if better {
                value = child;
                best = Some(mv);
            }
            if maximizing {
                alpha = alpha.max(child);
            } else {
                beta = beta.min(child);
            }
            if alpha >= beta {
                self.stats.cutoffs += 1;
                return (value, best, (moves.len() - index - 1) as u8, all_exact);
            }
        }
        (value, best, 0, all_exact)
    }

    /// Notes a root move's value: exact inside the window it was searched with, else the
    /// bound fail-soft alpha-beta proved (the root is MAX: a value at or below α is at most).
    fn note_root(
        &mut self,
        mv: G::Move,
        value: i32,
        (alpha, beta): (i32, i32),
        skipped: u8,
        exact: bool,
    ) {
        let bound = if exact {
            Bound::Exact
        } else if value <= alpha && alpha > -INFINITY {
            Bound::AtMost
        } else if value >= beta {
            Bound::AtLeast
        } else {
            Bound::Exact
        };
        self.root.push(RootValue {
            mv,
            value,
            bound,
            skipped,
        });
    }

    /// The moves of `position` in the order to try them: with ordering, the previous
    /// iteration's line and the table's best move first, then by the game's static rank.
    fn ordered(&self, position: &G, ply: u8, table_move: Option<G::Move>) -> G::Moves {
        let mut moves = position.legal_moves();
        if !self.options.ordering {
            return moves;
        }
        let list = moves.as_mut();
        list.sort_by_key(|&mv| position.static_rank(mv));
        let mut front = 0;
        for preferred in [self.line.get(usize::from(ply)).copied(), table_move]
            .into_iter()
            .flatten()
        {
            if let Some(at) = list[front..].iter().position(|&m| m == preferred) {
                list[front..=front + at].rotate_right(1);
                front += 1;
            }
        }
        moves
    }

    /// The previous iteration's best line is only followed while the search walks it: the
    /// first `current` plies of the best moves from the root.
    fn principal_line(&self, root: &G, best: Option<G::Move>, current: u8) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut position = *root;
        let mut next = best;
        while let Some(mv) = next {
            if line.len() >= usize::from(current) {
                break;
            }
            line.push(mv);
            position = position.play(mv);
            next = self.table.get(&position.key()).and_then(|e| e.best);
        }
        line
    }

    fn finished_value(&self, outcome: Outcome<G::Player>, ply: u8) -> i32 {
        let ply = i32::from(ply);
        match outcome {
            Outcome::Draw => 0,
            Outcome::Winner(p) if p == self.max_player => WIN_SCORE - ply,
            Outcome::Winner(_) => ply - WIN_SCORE,
        }
    }

    /// Records a node as the search enters it, while recording and under the limit.
    fn enter(
        &mut self,
        mv: Option<G::Move>,
        ply: u8,
        maximizing: bool,
        alpha: i32,
        beta: i32,
    ) -> Option<usize> {
        let limit = self.record_limit;
        let tree = self.record.as_mut()?;
        if tree.len() >= limit {
            return None;
        }
        tree.push(Node {
            mv,
            ply,
            maximizing,
            alpha,
            beta,
            value: 0,
            bound: Bound::Exact,
            kind: NodeKind::Inner,
            end: 0,
            pruned: 0,
            best: None,
        });
        Some(tree.len() - 1)
    }

    /// Completes a recorded node as the search leaves it.
    fn leave(
        &mut self,
        recorded: Option<usize>,
        value: i32,
        bound: Bound,
        kind: NodeKind<G::Counts>,
        pruned: u8,
        best: Option<G::Move>,
    ) {
        self.last_skipped = pruned;
        self.last_exact = bound == Bound::Exact;
        let (Some(index), Some(tree)) = (recorded, self.record.as_mut()) else {
            return;
        };
        let end = tree.len() as u32;
        let node = &mut tree[index];
        node.value = value;
        node.bound = bound;
        node.kind = kind;
        node.end = end;
        node.pruned = pruned;
        node.best = best;
    }
}

/// Whether a stored entry settles a node searched with (alpha, beta).
fn answers<M>(entry: &TableEntry<M>, alpha: i32, beta: i32) -> bool {
    match entry.bound {
        Bound::Exact => true,
        Bound::AtLeast => entry.value >= beta,
        Bound::AtMost => entry.value <= alpha,
    }
}

impl<G: Evaluate> Leaves<G> {
    /// Stop `depth` plies down and score what is there with the game's evaluation, as the
    /// depth-limited search does (`limited.rs`): a win `WIN_SCORE - ply`.
    pub fn limited(depth: u8) -> Self {
        Self {
            horizon: Some(depth),
            finished: |outcome, max_player, ply| {
                let ply = ply as i32;
                match outcome {
                    Outcome::Draw => 0,
                    Outcome::Winner(p) if &p == max_player => WIN_SCORE - ply,
                    Outcome::Winner(_) => ply - WIN_SCORE,
                }
            },
            evaluate: |position, player| G::score(&position.counts(), player),
            infinity: INFINITY,
        }
    }
}

/// Plain minimax to `depth` plies with the same scores, no pruning, no table: the reference
/// the search is tested against.
pub fn plain_limited<G: Evaluate>(root: &G, depth: u8) -> i32 {
    plain_value(root, root.to_move(), 0, depth)
}

/// The plain minimax value of `position`, `ply` plies below a root whose mover is
/// `max_player`, searched to `depth` plies below that root.
fn plain_value<G: Evaluate>(position: &G, max_player: G::Player, ply: u8, depth: u8) -> i32 {
    if let Some(outcome) = position.outcome() {
        let ply = i32::from(ply);
        return match outcome {
            Outcome::Draw => 0,
            Outcome::Winner(p) if p == max_player => WIN_SCORE - ply,
            Outcome::Winner(_) => ply - WIN_SCORE,
        };
    }
    if ply == depth {
        return G::score(&position.counts(), max_player);
    }
    let moves = position.legal_moves();
    let children = moves
        .as_ref()
        .iter()
        .map(|&mv| plain_value(&position.play(mv), max_player, ply + 1, depth));
    if position.to_move() == max_player {
        children.max().unwrap_or(0)
    } else {
        children.min().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::Game;
    use crate::domain::games::connect4::{Board, Disc};
    use proptest::prelude::*;

    fn board(moves: &str) -> Board {
        Board::parse(moves).unwrap()
    }

    fn options(depth: u8, deepening: bool, ordering: bool, table: bool) -> Options {
        Options {
            depth,
            deepening,
            ordering,
            table,
        }
    }

    /// A random unfinished position of `plies` moves from `seed`'s choices.
    fn position(choices: &[u8]) -> Board {
        let mut position = Board::new();
        for &choice in choices {
            let moves = position.legal_moves();
            let moves = moves.as_ref();
            if moves.is_empty() {
                break;
            }
            let next = Game::play(&position, moves[usize::from(choice) % moves.len()]);
            if next.is_over() {
                break;
            }
            position = next;
        }
        position
    }

    #[test]
    fn it_takes_a_win_in_one_and_blocks_a_loss_in_one() {
        // Red has three in column 1 and is to move.
        let win = search_limited(&board("121212"), options(4, true, true, true), 0);
        assert_eq!(win.best_move(), Some(0));
        assert_eq!(win.value(), WIN_SCORE - 1);
        // Yellow to move must block column 1.
        let block = search_limited(&board("12121"), options(4, true, true, true), 0);
        assert_eq!(block.best_move(), Some(0));
    }

    #[test]
    fn every_combination_of_improvements_finds_the_plain_value() {
        let position = board("4453");
        for depth in 1..=4 {
            let plain = plain_limited(&position, depth);
            for bits in 0..8 {
                let o = options(depth, bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
                let found = search_limited(&position, o, 0);
                assert_eq!(found.value(), plain, "depth {depth} {o:?}");
            }
        }
    }

    #[test]
    fn ordering_and_the_table_save_work_at_depth_6() {
        let position = board("4453");
        let bare = search_limited(&position, options(6, false, false, false), 0);
        let ordered = search_limited(&position, options(6, false, true, false), 0);
        let tabled = search_limited(&position, options(6, true, true, true), 0);
        assert!(ordered.total().nodes < bare.total().nodes);
        assert!(tabled.iterations.last().unwrap().stats.nodes < ordered.total().nodes);
        assert!(tabled.total().table_hits > 0);
        assert_eq!(tabled.iterations.len(), 6);
    }

    #[test]
    fn the_recorded_tree_is_the_search_and_stops_at_its_limit() {
        let position = board("4453");
        let found = search_limited(&position, options(3, true, true, false), 100_000);
        assert!(found.tree_complete);
        assert_eq!(found.tree.len() as u64, found.iterations[2].stats.nodes);
        let root = &found.tree[0];
        assert_eq!(root.value, found.value());
        assert_eq!(root.best, found.best_move());
        let children: Vec<usize> = found.children(0).collect();
        assert_eq!(children.len(), 7 - usize::from(root.pruned));
        for &child in &children {
            assert_eq!(found.tree[child].ply, 1);
            assert!(!found.tree[child].maximizing);
        }
        let horizon = found
            .tree
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Horizon(_)))
            .count() as u64;
        assert_eq!(horizon, found.iterations[2].stats.horizon);
        let cut = search_limited(&position, options(3, true, true, false), 10);
        assert_eq!(cut.tree.len(), 10);
        assert!(!cut.tree_complete);
        assert_eq!(cut.value(), found.value());
    }

    #[test]
    fn root_values_are_exact_for_the_best_and_bounds_for_the_rest() {
        let found = search_limited(&board("4453"), options(4, false, true, false), 0);
        assert_eq!(found.root.len(), 7);
        let best = found
            .root
            .iter()
            .find(|r| Some(r.mv) == found.best_move())
            .unwrap();
        assert_eq!(best.value, found.value());
        assert_eq!(best.bound, Bound::Exact);
        for other in &found.root {
            let root = board("4453");
            let exact = plain_value(&Game::play(&root, other.mv), Disc::Red, 1, 4);
            match other.bound {
                Bound::Exact => assert_eq!(other.value, exact),
                Bound::AtMost => assert!(exact <= other.value),
                Bound::AtLeast => assert!(exact >= other.value),
            }
        }
    }

    /// Issue 29 §2 (review): at depth 1 every root column is a horizon leaf, exact; and for
    /// any options every root value shown exact is the plain depth-limited value, and every
    /// bound holds. Before, depth 1 labelled all but the first column "≤ … window".
    #[test]
    fn root_values_shown_exact_are_exact_at_every_depth_and_option() {
        let root = board("4453");
        for depth in 1..=4 {
            for bits in 0u8..8 {
                let o = options(depth, bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
                let found = search_limited(&root, o, 0);
                for value in &found.root {
                    let exact = plain_value(&Game::play(&root, value.mv), Disc::Red, 1, depth);
                    match value.bound {
                        Bound::Exact => assert_eq!(value.value, exact, "{depth} {bits}"),
                        Bound::AtMost => assert!(exact <= value.value),
                        Bound::AtLeast => assert!(exact >= value.value),
                    }
                }
                if depth == 1 {
                    assert!(found.root.iter().all(|r| r.bound == Bound::Exact), "{bits}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn the_search_agrees_with_plain_minimax(
            choices in proptest::collection::vec(0u8..7, 0..30),
            depth in 1u8..=4,
            bits in 0u8..8,
        ) {
            let position = position(&choices);
            let o = options(depth, bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
            prop_assert_eq!(search_limited(&position, o, 0).value(), plain_limited(&position, depth));
        }
    }
}
