//! The Q-table itself: one value, one update count and the last update's numbers per
//! (position, move), for every position a game from the start can reach. Dense, so a
//! lookup is an index computation; how a position and a move become a cell lives here,
//! and the other files of `qlearning/` read and write the cells through it.

use crate::domain::games::nim::{NimMove, Piles, Rule};

/// The most (position, move) cells a table may hold: 2 million cells are 16 MB of values,
/// 8 MB of counts and 48 MB of the last update's arithmetic (what "why" shows), the most
/// an arcade session should spend on one learner.
pub const MAX_TABLE_CELLS: usize = 2_000_000;

/// Why a game cannot have a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Too many positions times moves.
    #[error(
        "piles {piles} have {states} positions x {moves} moves = {cells} table cells; a Q-table holds at most {max}: use fewer or smaller piles",
        max = crate::domain::numbers::thousands(MAX_TABLE_CELLS as u64)
    )]
    TooLarge {
        /// The starting piles.
        piles: String,
        /// Positions.
        states: String,
        /// Moves per position.
        moves: usize,
        /// Their product.
        cells: String,
    },
}

/// The Q-table: one value and one update count per (position, move), for every position a
/// game from `start` can reach. Dense, so a lookup is an index computation.
#[derive(Debug, Clone, PartialEq)]
pub struct QTable {
    pub(super) start: Piles,
    pub(super) rule: Rule,
    /// First move index of each pile: a move (p, k) is column `offsets[p] + k - 1`.
    offsets: Vec<usize>,
    width: usize,
    pub(super) values: Vec<f64>,
    pub(super) updates: Vec<u32>,
    /// Per cell, the numbers of the update that set its value last.
    pub(super) last: Vec<LastUpdate>,
}

/// What a cell keeps of the update that set its value last, so a decision can show the
/// arithmetic behind a Q-value (the value after it is the cell's value). `next` is the
/// next position's row, [`NONE`](LastUpdate::NONE) while the cell was never updated. The
/// reward is kept as `f32`, which holds the -1, 0 and +1 self-play gives exactly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LastUpdate {
    pub(super) old: f64,
    pub(super) best_future: f64,
    pub(super) next: u32,
    pub(super) reward: f32,
}

impl LastUpdate {
    pub(super) const NONE: u32 = u32::MAX;
    pub(super) const EMPTY: Self = Self {
        old: 0.0,
        best_future: 0.0,
        next: Self::NONE,
        reward: 0.0,
    };
}

impl QTable {
    /// An all-zero table for games from `start`, or why the game is too large for one.
    pub fn new(start: Piles, rule: Rule) -> Result<Self, TableError> {
        let states = start
            .sizes()
            .iter()
            .try_fold(1usize, |acc, &s| acc.checked_mul(usize::from(s) + 1));
        let width = start.total() as usize;
        let cells = states.and_then(|s| s.checked_mul(width.max(1)));
        let (Some(states), Some(cells)) = (states, cells) else {
            return Err(Self::too_large(start, None, width));
        };
        if cells > MAX_TABLE_CELLS {
            return Err(Self::too_large(start, Some(states), width));
        }
        let mut offsets = Vec::with_capacity(start.len());
        let mut next = 0;
        for &size in start.sizes() {
            offsets.push(next);
            next += usize::from(size);
        }
        Ok(Self {
            start,
            rule,
            offsets,
            width,
            values: vec![0.0; cells],
            updates: vec![0; cells],
            last: vec![LastUpdate::EMPTY; cells],
        })
    }

    fn too_large(start: Piles, states: Option<usize>, width: usize) -> TableError {
        let states_exact: u128 = start.sizes().iter().map(|&s| u128::from(s) + 1).product();
        let _ = states;
        TableError::TooLarge {
            piles: start.to_string(),
            states: crate::domain::numbers::thousands(states_exact.min(u128::from(u64::MAX)) as u64),
            moves: width,
            cells: crate::domain::numbers::thousands(
                (states_exact * width as u128).min(u128::from(u64::MAX)) as u64,
            ),
        }
    }

    /// The starting position the table covers.
    pub fn start(&self) -> Piles {
        self.start
    }

    /// The rule it learns.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Whether `piles` is a position of this table's game.
    pub fn covers(&self, piles: &Piles) -> bool {
        piles.len() == self.start.len()
            && piles
                .sizes()
                .iter()
                .zip(self.start.sizes())
                .all(|(a, b)| a <= b)
    }

    /// The first cell of `piles`' row: the table is `width` cells per position.
    fn row_start(&self, piles: Piles) -> usize {
        self.row(piles) * self.width
    }

    /// The index of `piles` among the table's positions, in [`Piles::below`] order.
    pub(super) fn row(&self, piles: Piles) -> usize {
        let mut state = 0;
        for (&size, &max) in piles.sizes().iter().zip(self.start.sizes()) {
            state = state * (usize::from(max) + 1) + usize::from(size);
        }
        state
    }

    pub(super) fn cell(&self, piles: Piles, mv: NimMove) -> usize {
        self.row_start(piles) + self.offsets[usize::from(mv.pile)] + usize::from(mv.take) - 1
    }

    /// Every legal move of `piles` with its cell, without allocating: the hot loop of
    /// self-play walks these.
    pub(super) fn legal_cells(&self, piles: Piles) -> impl Iterator<Item = (NimMove, usize)> + '_ {
        let row = self.row_start(piles);
        let sizes = piles.sizes;
        (0..piles.len()).flat_map(move |pile| {
            let first = row + self.offsets[pile];
            (1..=sizes[pile]).map(move |take| {
                (
                    NimMove {
                        pile: pile as u8,
                        take,
                    },
                    first + usize::from(take) - 1,
                )
            })
        })
    }

    /// Q(s, a); 0 for a pair never updated, as in the original program.
    pub fn q(&self, piles: &Piles, mv: NimMove) -> f64 {
        self.values[self.cell(*piles, mv)]
    }

    /// How many times Q(s, a) was updated.
    pub fn updates(&self, piles: &Piles, mv: NimMove) -> u32 {
        self.updates[self.cell(*piles, mv)]
    }

    /// The (position, move) pairs updated at least once: the original program's dictionary size.
    pub fn entries(&self) -> usize {
        self.updates.iter().filter(|&&n| n > 0).count()
    }

    /// Q(s, a) as the greedy choice ranks it: a value that is not a number (only a table
    /// trained with settings no check lets through could hold one) ranks lowest, so a move
    /// is always found while objects remain.
    pub(super) fn rank(&self, cell: usize) -> f64 {
        let value = self.values[cell];
        if value.is_nan() {
            f64::NEG_INFINITY
        } else {
            value
        }
    }

    /// max Q(s, .), 0 when no move is left.
    pub fn best_value(&self, piles: &Piles) -> f64 {
        self.legal_cells(*piles)
            .map(|(_, cell)| self.rank(cell))
            .max_by(f64::total_cmp)
            .unwrap_or(0.0)
    }

    /// The position of row `row` (the inverse of the row index of [`QTable::row_start`]).
    pub(super) fn position(&self, mut row: usize) -> Piles {
        let mut piles = self.start;
        for pile in (0..self.start.len()).rev() {
            let radix = usize::from(self.start.sizes()[pile]) + 1;
            piles.sizes[pile] = (row % radix) as u8;
            row /= radix;
        }
        piles
    }
}
