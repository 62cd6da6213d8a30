//! One thread's search: negamax with alpha-beta on the solver's light positions, bounds
//! kept in the (shared) table, the opening book consulted where it knows the answer, and the
//! exact value narrowed down by null-window searches. Generic over the grid's size; only a
//! 7 × 6 search is ever given a book.

use super::book::Book;
use super::node::{Node, in_column};
use super::table::{Bound, Slots};
use std::sync::atomic::{AtomicBool, Ordering};

/// The columns of a board `W` wide in the order the search tries them among equals: the
/// centre first, then outwards, since central stones take part in the most lines (3, 2, 4,
/// 1, 5, 0, 6 on 7 columns; on an even width the right one of the middle two first).
pub(super) const fn centre_first<const W: usize>() -> [usize; W] {
    let mut order = [0; W];
    let mut i = 0;
    while i < W {
        order[i] = if i % 2 == 0 {
            W / 2 + i / 2
        } else {
            W / 2 - i.div_ceil(2)
        };
        i += 1;
    }
    order
}

/// What one search needs and counts, on a board of `W` columns of `H` cells.
pub(super) struct Search<'a, const W: usize, const H: usize> {
    table: Slots<'a>,
    /// The opening book: for the 7 × 6 board only, whose keys it holds.
    book: Option<&'a Book>,
    /// Raised by whoever no longer needs this search's answer (the other threads' search
    /// finished first).
    stop: Option<&'a AtomicBool>,
    /// The order the columns are tried in among moves of equal promise.
    order: [usize; W],
    /// Positions searched.
    pub(super) nodes: u64,
    /// The node count at which the search gives up.
    budget: u64,
    /// Whether it gave up (out of budget, or stopped): every caller then returns at once
    /// and stores nothing.
    pub(super) gave_up: bool,
}

impl<'a, const W: usize, const H: usize> Search<'a, W, H> {
    /// The columns centre first, computed once for the width.
    pub(super) const CENTRE_FIRST: [usize; W] = centre_first::<W>();

    pub(super) fn new(table: Slots<'a>, book: Option<&'a Book>, budget: u64) -> Self {
        Self {
            table,
            book,
            stop: None,
            order: Self::CENTRE_FIRST,
            nodes: 0,
            budget,
            gave_up: false,
        }
    }

    /// The same search, stopped when `stop` is raised, trying columns in `order` among
    /// equals: a second thread's view of the same position.
    pub(super) fn helper(mut self, stop: &'a AtomicBool, order: [usize; W]) -> Self {
        self.stop = Some(stop);
        self.order = order;
        self
    }

    /// The exact score of `node` for the player to move, who cannot win at once; on giving
    /// up, whatever was narrowed so far (the caller checks [`Search::gave_up`]).
    pub(super) fn solve(&mut self, node: Node<W, H>) -> i32 {
        if let Some(score) = self
            .book
            .and_then(|book| book.score_at(node.moves(), node.key()))
        {
            return score;
        }
        // The score lies in [low, high]; null-window searches halve the gap, trying the
        // small scores (draws and late results, the common ones) before the large.
        let mut low = -node.empty_cells() / 2;
        let mut high = (node.empty_cells() + 1) / 2;
        while low < high {
            let mut middle = low + (high - low) / 2;
            if middle <= 0 && low / 2 < middle {
                middle = low / 2;
            } else if middle >= 0 && high / 2 > middle {
                middle = high / 2;
            }
            let found = self.negamax(node, middle, middle + 1);
            if self.gave_up {
                break;
            }
            if found <= middle {
                high = found;
            } else {
                low = found;
            }
        }
        low
    }

    /// The value of `node` within the window (alpha, beta): exact inside it, a bound at or
    /// outside it. The player to move cannot win at once.
    fn negamax(&mut self, node: Node<W, H>, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget || self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.gave_up = true;
            return alpha;
        }
        let safe = node.safe_cells();
        if safe == 0 {
            // Every move lets the other player four at once: lost with its next stone.
            return -node.empty_cells() / 2;
        }
        if node.empty_cells() <= 2 {
            // Two cells left and no four possible for either: a draw.
            return 0;
        }
        // The player to move cannot lose at once, nor win at once.
        let lowest = -(node.empty_cells() - 2) / 2;
        let highest = (node.empty_cells() - 1) / 2;
        alpha = alpha.max(lowest);
        beta = beta.min(highest);
        if let Some(bound) = node.claimeven_bound() {
            beta = beta.min(bound);
        }
        if alpha >= beta {
            return alpha;
        }
        let key = node.key();
        match self.table.get(key) {
            Some(Bound::Upper(value)) => beta = beta.min(value),
            Some(Bound::Lower(value)) => alpha = alpha.max(value),
            None => {}
        }
        if alpha >= beta {
            return alpha;
        }
        if let Some(score) = self.book.and_then(|book| book.score_at(node.moves(), key)) {
            return score;
        }
        let moves = Ordered::new(node, safe, &self.order);
        if let Some(score) = self.cut_by_a_child(node, moves.clone(), beta) {
            self.table.put(key, Bound::Lower(score));
            return score;
        }
        for cell in moves {
            let score = -self.negamax(node.play(cell), -beta, -alpha);
            if self.gave_up {
                return alpha;
            }
            if score >= beta {
                self.table.put(key, Bound::Lower(score));
                return score;
            }
            alpha = alpha.max(score);
        }
        // Every move searched without reaching beta: alpha bounds the value from above.
        self.table.put(key, Bound::Upper(alpha));
        alpha
    }
}

impl<const W: usize, const H: usize> Search<'_, W, H> {
    /// A score at or above `beta` that one of `node`'s moves is already known to reach, from
    /// the upper bound the table holds on that child's value. Looking at every child's entry
    /// before searching any costs little: the table's memory is what a search waits for,
    /// and the reads go out together, so each child's own look at its entry then finds it
    /// in the cache.
    fn cut_by_a_child(&self, node: Node<W, H>, moves: Ordered<W>, beta: i32) -> Option<i32> {
        let mut cut = None;
        for cell in moves {
            if let Some(Bound::Upper(child)) = self.table.get(node.play(cell).key())
                && -child >= beta
            {
                cut = cut.max(Some(-child));
            }
        }
        cut
    }
}

/// The safe cells of a position, those making the most new threats first, ties in the
/// search's column order: a fixed array sorted as it fills, since this runs at every node.
#[derive(Clone)]
struct Ordered<const W: usize> {
    cells: [u64; W],
    threats: [u32; W],
    len: usize,
}

impl<const W: usize> Ordered<W> {
    fn new<const H: usize>(node: Node<W, H>, safe: u64, order: &[usize; W]) -> Self {
        let mut sorted = Self {
            cells: [0; W],
            threats: [0; W],
            len: 0,
        };
        for &column in order {
            let cell = in_column::<W, H>(safe, column);
            if cell != 0 {
                sorted.insert(cell, node.threats_after(cell));
            }
        }
        sorted
    }

    /// Inserts `cell`, keeping the array in rising promise: by threats, and among equal
    /// threats the column inserted earlier (preferred by the order) nearer the end, where
    /// the iterator takes from.
    fn insert(&mut self, cell: u64, threats: u32) {
        let mut at = self.len;
        while at > 0 && self.threats[at - 1] >= threats {
            self.cells[at] = self.cells[at - 1];
            self.threats[at] = self.threats[at - 1];
            at -= 1;
        }
        self.cells[at] = cell;
        self.threats[at] = threats;
        self.len += 1;
    }
}

impl<const W: usize> Iterator for Ordered<W> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.cells[self.len])
    }
}
