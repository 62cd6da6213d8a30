//! How a Q-table chooses a move: the greedy choice (the highest Q-value, ties broken by
//! one draw from the seeded RNG), the same choice with everything it weighed (what the why
//! view shows), and epsilon-greedy exploration for self-play.

use super::table::QTable;
use crate::domain::games::nim::{NimMove, Piles};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// One legal move as the greedy choice weighed it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QOption {
    /// The move.
    pub mv: NimMove,
    /// Q(s, a) as the table holds it.
    pub q: f64,
    /// Updates Q(s, a) has had.
    pub updates: u32,
}

/// How the greedy choice picked its move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QHow {
    /// One move had the highest Q-value.
    Greedy,
    /// Several moves shared the highest Q-value; one draw from the seeded RNG picked the
    /// `drawn`-th of `among` (0-based).
    Tie {
        /// The tied moves, in move order.
        among: Vec<NimMove>,
        /// The index drawn.
        drawn: usize,
    },
}

/// Everything the greedy choice weighed at one position, and what it chose: what the why
/// view shows. Made by [`QTable::decide`], the choice the tab's Q-learning AI plays.
#[derive(Debug, Clone, PartialEq)]
pub struct QDecision {
    /// The position.
    pub piles: Piles,
    /// Every legal move, in move order, with its Q-value and update count.
    pub options: Vec<QOption>,
    /// The move chosen.
    pub chosen: NimMove,
    /// How.
    pub how: QHow,
}

impl QTable {
    /// Every move with the highest Q-value: the greedy choices. Exact equality is meant:
    /// moves tie only when their values are the same number (untouched zeros, say).
    #[allow(clippy::float_cmp)]
    pub fn greedy_moves(&self, piles: &Piles) -> Vec<NimMove> {
        let best = self.best_value(piles);
        self.legal_cells(*piles)
            .filter(|&(_, cell)| self.rank(cell) == best)
            .map(|(mv, _)| mv)
            .collect()
    }

    /// The greedy move, ties broken by `rng` (not by move order, which would favour the
    /// first pile while nothing is learned): one draw among the tied moves.
    #[allow(clippy::float_cmp)]
    pub fn greedy(&self, piles: &Piles, rng: &mut ChaCha8Rng) -> Option<NimMove> {
        let (best, ties) = self.legal_cells(*piles).fold(
            (f64::NEG_INFINITY, 0usize),
            |(best, ties), (_, cell)| {
                let value = self.rank(cell);
                if value > best {
                    (value, 1)
                } else if value == best {
                    (best, ties + 1)
                } else {
                    (best, ties)
                }
            },
        );
        if ties == 0 {
            return None;
        }
        let pick = if ties == 1 {
            0
        } else {
            rng.random_range(0..ties)
        };
        self.legal_cells(*piles)
            .filter(|&(_, cell)| self.rank(cell) == best)
            .nth(pick)
            .map(|(mv, _)| mv)
    }

    /// The greedy choice with everything it weighed: the same move [`QTable::greedy`] plays
    /// from the same RNG, drawing from it exactly as that does (once, and only for a tie).
    #[allow(clippy::float_cmp)]
    pub fn decide(&self, piles: &Piles, rng: &mut ChaCha8Rng) -> Option<QDecision> {
        let weighed: Vec<(QOption, f64)> = self
            .legal_cells(*piles)
            .map(|(mv, cell)| {
                let option = QOption {
                    mv,
                    q: self.values[cell],
                    updates: self.updates[cell],
                };
                (option, self.rank(cell))
            })
            .collect();
        let best = weighed
            .iter()
            .map(|&(_, rank)| rank)
            .max_by(f64::total_cmp)?;
        let among: Vec<NimMove> = weighed
            .iter()
            .filter(|&&(_, rank)| rank == best)
            .map(|(option, _)| option.mv)
            .collect();
        let (chosen, how) = if among.len() == 1 {
            (among[0], QHow::Greedy)
        } else {
            let drawn = rng.random_range(0..among.len());
            (among[drawn], QHow::Tie { among, drawn })
        };
        Some(QDecision {
            piles: *piles,
            options: weighed.into_iter().map(|(option, _)| option).collect(),
            chosen,
            how,
        })
    }

    /// Epsilon-greedy: a random legal move with probability `epsilon`, else the greedy one.
    pub fn explore(&self, piles: &Piles, epsilon: f64, rng: &mut ChaCha8Rng) -> Option<NimMove> {
        if rng.random::<f64>() < epsilon {
            let total = piles.total();
            if total == 0 {
                return None;
            }
            // The r-th legal move, counted pile by pile: uniform over all moves.
            let mut r = rng.random_range(0..total);
            for (pile, &size) in piles.sizes().iter().enumerate() {
                let size = u32::from(size);
                if r < size {
                    return Some(NimMove {
                        pile: pile as u8,
                        take: (r + 1) as u8,
                    });
                }
                r -= size;
            }
        }
        self.greedy(piles, rng)
    }
}
