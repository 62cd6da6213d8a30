//! The update rule, Q(s, a) <- Q(s, a) + alpha (r + max Q(s', .) - Q(s, a)), applied to
//! one cell, and the record of its arithmetic: what the step view shows and what a cell
//! keeps of the update that set its value last.

use super::table::{LastUpdate, QTable};
use crate::domain::games::nim::{NimMove, Piles};

/// One application of the update rule, with every number in it: what the step view shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Update {
    /// The position the move was made in.
    pub state: Piles,
    /// The move.
    pub mv: NimMove,
    /// The position the same player faces next (or the end of the game).
    pub next: Piles,
    /// Q(s, a) before.
    pub old: f64,
    /// The reward r.
    pub reward: f64,
    /// max Q(s', .), 0 at the end of the game.
    pub best_future: f64,
    /// The learning rate used.
    pub alpha: f64,
    /// Q(s, a) after.
    pub new: f64,
}

impl QTable {
    /// The update that set Q(`piles`, `mv`) last, as it was made with learning rate
    /// `alpha`; `None` while the cell was never updated (or its update came from a file
    /// that did not keep it).
    pub fn last_update(&self, piles: &Piles, mv: NimMove, alpha: f64) -> Option<Update> {
        let cell = self.cell(*piles, mv);
        let last = self.last[cell];
        if last.next == LastUpdate::NONE {
            return None;
        }
        Some(Update {
            state: *piles,
            mv,
            next: self.position(last.next as usize),
            old: last.old,
            reward: f64::from(last.reward),
            best_future: last.best_future,
            alpha,
            new: self.values[cell],
        })
    }

    /// Applies the update rule to (state, mv) and returns its arithmetic.
    pub fn update(
        &mut self,
        state: Piles,
        mv: NimMove,
        next: Piles,
        reward: f64,
        alpha: f64,
    ) -> Update {
        let cell = self.cell(state, mv);
        let old = self.values[cell];
        let best_future = self.best_value(&next);
        let new = old + alpha * (reward + best_future - old);
        self.values[cell] = new;
        self.updates[cell] = self.updates[cell].saturating_add(1);
        self.last[cell] = LastUpdate {
            old,
            best_future,
            next: self.row(next) as u32,
            reward: reward as f32,
        };
        Update {
            state,
            mv,
            next,
            old,
            reward,
            best_future,
            alpha,
            new,
        }
    }
}
