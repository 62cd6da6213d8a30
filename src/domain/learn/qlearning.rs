//! The Q-learning agent of original program 003: a table of Q(s, a) for every position and move of
//! a multi-pile Nim game, learned by self-play with the original program's update timing.
//!
//! Q(s, a) <- Q(s, a) + alpha (r + max Q(s', .) - Q(s, a)). A player's move is updated once
//! the opponent has replied, so s' is the position the same player faces next and max Q(s', .)
//! is that player's own best estimate. The move that ends the game gets its reward at once:
//! -1 under misère (it took the last object), +1 under normal play; the other player's last
//! move gets the opposite. Every other reward is 0.

use crate::domain::games::nim::{NimMove, Piles, Rule};
use crate::domain::solve::nim as solver;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The most (position, move) cells a table may hold: 2 million cells are 16 MB of values,
/// 8 MB of counts and 48 MB of the last update's arithmetic (what "why" shows), the most
/// an arcade session should spend on one learner.
pub const MAX_TABLE_CELLS: usize = 2_000_000;

/// The learning settings the original program names, kept with a table so a saved one says how it
/// was made.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QSettings {
    /// Learning rate alpha (original: 0.5).
    pub alpha: f64,
    /// Exploration rate epsilon (original: 0.1).
    pub epsilon: f64,
    /// Where each self-play game starts.
    #[serde(default)]
    pub starts: Starts,
}

/// Where self-play games start: the original program's recipe always plays from the start;
/// exploring starts visit every position evenly, so positions good play rarely reaches are learned
/// too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Starts {
    /// Every game from the starting piles (original program 003). Saved tables spell it
    /// `"seed"`, its name before, so files already written load unchanged.
    #[default]
    #[serde(rename = "seed")]
    Original,
    /// Every game from a uniformly random position a game can reach.
    Exploring,
}

impl Default for QSettings {
    fn default() -> Self {
        Self {
            alpha: 0.5,
            epsilon: 0.1,
            starts: Starts::Original,
        }
    }
}

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
    start: Piles,
    rule: Rule,
    /// First move index of each pile: a move (p, k) is column `offsets[p] + k - 1`.
    offsets: Vec<usize>,
    width: usize,
    values: Vec<f64>,
    updates: Vec<u32>,
    /// Per cell, the numbers of the update that set its value last.
    last: Vec<LastUpdate>,
}

/// What a cell keeps of the update that set its value last, so a decision can show the
/// arithmetic behind a Q-value (the value after it is the cell's value). `next` is the
/// next position's row, [`NONE`](LastUpdate::NONE) while the cell was never updated. The
/// reward is kept as `f32`, which holds the -1, 0 and +1 self-play gives exactly.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LastUpdate {
    old: f64,
    best_future: f64,
    next: u32,
    reward: f32,
}

impl LastUpdate {
    const NONE: u32 = u32::MAX;
    const EMPTY: Self = Self {
        old: 0.0,
        best_future: 0.0,
        next: Self::NONE,
        reward: 0.0,
    };
}

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
    fn row(&self, piles: Piles) -> usize {
        let mut state = 0;
        for (&size, &max) in piles.sizes().iter().zip(self.start.sizes()) {
            state = state * (usize::from(max) + 1) + usize::from(size);
        }
        state
    }

    fn cell(&self, piles: Piles, mv: NimMove) -> usize {
        self.row_start(piles) + self.offsets[usize::from(mv.pile)] + usize::from(mv.take) - 1
    }

    /// Every legal move of `piles` with its cell, without allocating: the hot loop of
    /// self-play walks these.
    fn legal_cells(&self, piles: Piles) -> impl Iterator<Item = (NimMove, usize)> + '_ {
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
    fn rank(&self, cell: usize) -> f64 {
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

    /// The position of row `row` (the inverse of the row index of [`QTable::row_start`]).
    fn position(&self, mut row: usize) -> Piles {
        let mut piles = self.start;
        for pile in (0..self.start.len()).rev() {
            let radix = usize::from(self.start.sizes()[pile]) + 1;
            piles.sizes[pile] = (row % radix) as u8;
            row /= radix;
        }
        piles
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

    /// Plays one self-play game from the start with the original program's update timing, calling
    /// `on_update` with every update in the order made.
    pub fn self_play(
        &mut self,
        settings: QSettings,
        rng: &mut ChaCha8Rng,
        mut on_update: impl FnMut(Update),
    ) {
        let mut piles = match settings.starts {
            Starts::Original => self.start,
            Starts::Exploring => self.random_position(rng),
        };
        let mut last: [Option<(Piles, NimMove)>; 2] = [None, None];
        let mut player = 0;
        while let Some(mv) = self.explore(&piles, settings.epsilon, rng) {
            let state = piles;
            last[player] = Some((state, mv));
            piles = piles.after(mv);
            player ^= 1;
            if piles.is_over() {
                let mover_reward = match self.rule {
                    Rule::Misere => -1.0,
                    Rule::Normal => 1.0,
                };
                on_update(self.update(state, mv, piles, mover_reward, settings.alpha));
                if let Some((s, a)) = last[player] {
                    on_update(self.update(s, a, piles, -mover_reward, settings.alpha));
                }
                return;
            }
            if let Some((s, a)) = last[player] {
                on_update(self.update(s, a, piles, 0.0, settings.alpha));
            }
        }
    }

    /// A uniformly random position with at least one object, each pile at most its start.
    fn random_position(&self, rng: &mut ChaCha8Rng) -> Piles {
        loop {
            let sizes: Vec<u8> = self
                .start
                .sizes()
                .iter()
                .map(|&max| rng.random_range(0..=max))
                .collect();
            let piles = Piles::new(&sizes).expect("no larger than the start");
            if !piles.is_over() || self.start.is_over() {
                return piles;
            }
        }
    }

    /// Every learned entry, position by position: what is saved.
    pub fn learned(&self) -> Vec<QEntry> {
        let mut entries = Vec::new();
        for piles in self.start.below() {
            for mv in piles.moves() {
                let cell = self.cell(piles, mv);
                if self.updates[cell] > 0 {
                    entries.push(QEntry {
                        state: piles.sizes().to_vec(),
                        pile: mv.pile,
                        take: mv.take,
                        value: self.values[cell],
                        updates: self.updates[cell],
                        last: self.last_update(&piles, mv, 0.0).map(|u| SavedUpdate {
                            old: u.old,
                            reward: u.reward,
                            best_future: u.best_future,
                            next: u.next.sizes().to_vec(),
                        }),
                    });
                }
            }
        }
        entries
    }

    /// Puts a saved entry back; `Err` names what does not fit this table.
    pub fn restore(&mut self, entry: &QEntry) -> Result<(), String> {
        let piles = Piles::new(&entry.state)
            .filter(|p| self.covers(p))
            .ok_or_else(|| format!("position {:?} is not one of this game", entry.state))?;
        let mv = piles
            .check(usize::from(entry.pile) + 1, u32::from(entry.take))
            .map_err(|e| format!("position {piles}: {e}"))?;
        // Rewards are -1, 0 or +1 and an update (alpha at most 1) moves Q part of the way
        // towards one of them plus a value of that range: |Q| never exceeds 1.
        if entry.value.is_nan() || entry.value.abs() > 1.0 + 1e-9 {
            return Err(format!(
                "position {piles}: Q-value {} is not one training writes (-1 to 1)",
                entry.value
            ));
        }
        let cell = self.cell(piles, mv);
        self.values[cell] = entry.value;
        self.updates[cell] = entry.updates;
        if let Some(last) = &entry.last {
            self.last[cell] = self.restored_update(piles, mv, last)?;
        }
        Ok(())
    }

    /// A saved last update of (piles, mv) checked against the game: a later position of
    /// this table, a reward self-play gives, values in the range training writes.
    fn restored_update(
        &self,
        piles: Piles,
        mv: NimMove,
        last: &SavedUpdate,
    ) -> Result<LastUpdate, String> {
        let next = Piles::new(&last.next)
            .filter(|p| self.covers(p) && p.total() < piles.total())
            .ok_or_else(|| {
                format!(
                    "position {piles}, move {mv}: the last update's next position {:?} does not follow it",
                    last.next
                )
            })?;
        let in_range = |v: f64| !v.is_nan() && v.abs() <= 1.0 + 1e-9;
        if ![-1.0, 0.0, 1.0].contains(&last.reward)
            || !in_range(last.old)
            || !in_range(last.best_future)
        {
            return Err(format!(
                "position {piles}, move {mv}: the last update holds numbers no training writes"
            ));
        }
        Ok(LastUpdate {
            old: last.old,
            best_future: last.best_future,
            next: self.row(next) as u32,
            reward: last.reward as f32,
        })
    }
}

/// One saved (position, move) value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QEntry {
    /// The pile sizes.
    pub state: Vec<u8>,
    /// The pile, 0-based.
    pub pile: u8,
    /// Objects taken.
    pub take: u8,
    /// Q(s, a).
    pub value: f64,
    /// Updates made to it.
    pub updates: u32,
    /// The update that set the value last (absent in files written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<SavedUpdate>,
}

/// The numbers of a saved value's last update; its new value is the entry's value and its
/// learning rate the table's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedUpdate {
    /// Q(s, a) before it.
    pub old: f64,
    /// The reward.
    pub reward: f64,
    /// max Q(s', .) then.
    pub best_future: f64,
    /// The pile sizes of s'.
    pub next: Vec<u8>,
}

/// How a table plays, measured against the exact solver and two fixed opponents.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QEvaluation {
    /// Games of self-play behind it.
    pub games: usize,
    /// Reachable positions where the mover has a winning move.
    pub winning_states: usize,
    /// Of those, the positions where every greedy move wins (a tie with a losing move
    /// counts as wrong, so luck in tie-breaking never flatters the table).
    pub optimal_states: usize,
    /// Share of games won against the random player.
    pub win_rate_vs_random: f64,
    /// Share of games won against the perfect player.
    pub win_rate_vs_perfect: f64,
    /// The most any player can win against the perfect one from this start, with starts
    /// alternating.
    pub best_vs_perfect: f64,
}

impl QEvaluation {
    /// `optimal_states / winning_states`, 1 when there is no winning position.
    pub fn policy_optimality(&self) -> f64 {
        if self.winning_states == 0 {
            1.0
        } else {
            self.optimal_states as f64 / self.winning_states as f64
        }
    }
}

/// The opponents the agent is measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// A uniformly random legal move.
    Random,
    /// The exact solver.
    Perfect,
}

/// Games per opponent in an evaluation, starts alternating.
pub const EVALUATION_GAMES: usize = 1000;
/// Evaluations use their own fixed seed, so two tables are compared on the same games.
const EVALUATION_SEED: u64 = 0x5eed_0003;

/// Whether every greedy move of `table` in `piles` wins.
pub fn greedy_is_optimal(table: &QTable, piles: &Piles) -> bool {
    let rule = table.rule();
    table
        .greedy_moves(piles)
        .iter()
        .all(|&mv| solver::is_winning_move(piles, rule, mv))
}

/// Plays `games` games of the greedy table against `opponent`, the table moving first in
/// the even-numbered ones; returns the table's share of wins.
pub fn win_rate(table: &QTable, opponent: Opponent, games: usize, seed: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rule = table.rule();
    let mut wins = 0;
    for game in 0..games {
        let mut piles = table.start();
        let mut agent_to_move = game % 2 == 0;
        loop {
            if piles.is_over() {
                let mover_wins = rule.mover_wins_at_end();
                if mover_wins == agent_to_move {
                    wins += 1;
                }
                break;
            }
            let mv = if agent_to_move {
                table.greedy(&piles, &mut rng)
            } else {
                match opponent {
                    Opponent::Perfect => solver::perfect_move(&piles, rule),
                    Opponent::Random => {
                        let moves: Vec<NimMove> = piles.moves().collect();
                        Some(moves[rng.random_range(0..moves.len())])
                    }
                }
            };
            piles = piles.after(mv.expect("a move exists while objects remain"));
            agent_to_move = !agent_to_move;
        }
    }
    wins as f64 / games.max(1) as f64
}

/// Measures `table` after `games` games of training.
pub fn evaluate(table: &QTable, games: usize) -> QEvaluation {
    let rule = table.rule();
    let mut winning_states = 0;
    let mut optimal_states = 0;
    for piles in table.start().below() {
        if solver::has_winning_move(&piles, rule) {
            winning_states += 1;
            if greedy_is_optimal(table, &piles) {
                optimal_states += 1;
            }
        }
    }
    QEvaluation {
        games,
        winning_states,
        optimal_states,
        win_rate_vs_random: win_rate(table, Opponent::Random, EVALUATION_GAMES, EVALUATION_SEED),
        win_rate_vs_perfect: win_rate(table, Opponent::Perfect, EVALUATION_GAMES, EVALUATION_SEED),
        // Starts alternate, and exactly one of the two seats wins against perfect play.
        best_vs_perfect: 0.5,
    }
}

/// The file the table for games from `start` under `rule` is kept in: one per game, so
/// switching rules or piles keeps every table learned so far.
pub fn table_file(start: Piles, rule: Rule) -> String {
    let rule = match rule {
        Rule::Misere => "misere",
        Rule::Normal => "normal",
    };
    let piles: Vec<String> = start.sizes().iter().map(u8::to_string).collect();
    format!("nim-qtable-{rule}-{}.json", piles.join("-"))
}
/// The format name written into a table file.
pub const TABLE_FORMAT: &str = "ai-arcade/nim-qtable";
/// The format version; a file of another version is reported, not read.
pub const TABLE_VERSION: u32 = 1;

/// What is saved of a trained table: the game, how it was trained, its learning curve and
/// every learned value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedTable {
    /// The starting piles.
    pub piles: Vec<u8>,
    /// The rule.
    pub rule: Rule,
    /// The learning settings.
    pub settings: QSettings,
    /// The seed of the training games.
    pub seed: u64,
    /// Games played.
    pub games: usize,
    /// The measurements taken while training.
    pub curve: Vec<QEvaluation>,
    /// Every learned value.
    pub entries: Vec<QEntry>,
}

impl SavedTable {
    /// Why this table cannot play games from `start` under `rule`.
    pub fn problem(&self, start: Piles, rule: Rule) -> Option<String> {
        if self.piles != start.sizes() || self.rule != rule {
            return Some(format!(
                "learned for piles {:?} under {} play, the game is {start} under {} play",
                self.piles,
                self.rule.name(),
                rule.name()
            ));
        }
        self.check_numbers().err()
    }

    /// The settings and curve against the config's own ranges and what training writes.
    fn check_numbers(&self) -> Result<(), String> {
        use crate::domain::learn::field;
        use crate::domain::learn::limits::{
            ALPHA_ALLOWED, EPSILON_ALLOWED, alpha_allowed, epsilon_allowed,
        };
        let QSettings { alpha, epsilon, .. } = self.settings;
        field(alpha_allowed(alpha), "settings.alpha", alpha, ALPHA_ALLOWED)?;
        field(
            epsilon_allowed(epsilon),
            "settings.epsilon",
            epsilon,
            EPSILON_ALLOWED,
        )?;
        let rate = |r: f64| (0.0..=1.0).contains(&r);
        let curve_sane = self.curve.iter().all(|e| {
            e.games <= self.games
                && e.optimal_states <= e.winning_states
                && rate(e.win_rate_vs_random)
                && rate(e.win_rate_vs_perfect)
                && rate(e.best_vs_perfect)
        });
        if !curve_sane {
            return Err("the learning curve holds numbers no training writes".into());
        }
        Ok(())
    }
}

/// The check a table file for games from `start` under `rule` passes to be used, on load
/// and before a save replaces it; what it gives is the trainer holding the table.
pub fn usable(
    start: Piles,
    rule: Rule,
    sample_every: usize,
) -> impl Fn(SavedTable) -> Result<QTrainer, String> {
    move |saved| match saved.problem(start, rule) {
        Some(why) => Err(why),
        None => QTrainer::from_saved(&saved, sample_every),
    }
}

/// A table in training: self-play games in chunks, with a measurement every
/// `sample_every` games for the charts.
#[derive(Debug, Clone)]
pub struct QTrainer {
    /// The table.
    pub table: QTable,
    /// The learning settings.
    pub settings: QSettings,
    /// Games the run aims for.
    pub target: usize,
    /// Games played so far.
    pub games: usize,
    /// Games between measurements.
    pub sample_every: usize,
    /// Measurements so far, the untrained table first.
    pub curve: Vec<QEvaluation>,
    /// The seed of the training games.
    pub seed: u64,
    /// Time spent in self-play, measurements left out.
    pub training_time: Duration,
    rng: ChaCha8Rng,
}

impl QTrainer {
    /// A fresh table, or why the game is too large for one.
    pub fn new(
        start: Piles,
        rule: Rule,
        settings: QSettings,
        target: usize,
        sample_every: usize,
        seed: u64,
    ) -> Result<Self, TableError> {
        let table = QTable::new(start, rule)?;
        let curve = vec![evaluate(&table, 0)];
        Ok(Self {
            table,
            settings,
            target,
            games: 0,
            sample_every: sample_every.max(1),
            curve,
            seed,
            training_time: Duration::ZERO,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    /// True once the target is reached.
    pub fn is_done(&self) -> bool {
        self.games >= self.target
    }

    /// The latest measurement.
    pub fn evaluation(&self) -> QEvaluation {
        *self.curve.last().expect("the untrained table is measured")
    }

    /// Plays up to `count` more games (not past the target), measuring at every
    /// `sample_every` boundary and at the end.
    pub fn train(&mut self, count: usize) {
        let end = (self.games + count).min(self.target);
        while self.games < end {
            let next_sample = (self.games / self.sample_every + 1) * self.sample_every;
            let stop = end.min(next_sample);
            let started = Instant::now();
            while self.games < stop {
                self.table.self_play(self.settings, &mut self.rng, |_| {});
                self.games += 1;
            }
            self.training_time += started.elapsed();
            if self.games.is_multiple_of(self.sample_every) || self.games == self.target {
                self.curve.push(evaluate(&self.table, self.games));
            }
        }
    }

    /// Plays one more game, past the target if need be, and returns its updates: the single-game
    /// step the arithmetic view shows. It always starts from the starting piles (whatever the
    /// recipe), so a student sees the whole game the original program describes.
    pub fn step_game(&mut self) -> Vec<Update> {
        let mut updates = Vec::new();
        let from_start = QSettings {
            starts: Starts::Original,
            ..self.settings
        };
        self.table
            .self_play(from_start, &mut self.rng, |u| updates.push(u));
        self.games += 1;
        self.target = self.target.max(self.games);
        self.curve.push(evaluate(&self.table, self.games));
        updates
    }

    /// What to save.
    pub fn saved(&self) -> SavedTable {
        SavedTable {
            piles: self.table.start().sizes().to_vec(),
            rule: self.table.rule(),
            settings: self.settings,
            seed: self.seed,
            games: self.games,
            curve: self.curve.clone(),
            entries: self.table.learned(),
        }
    }

    /// A trainer holding a saved table; more training draws from the seed and game count,
    /// so a resumed run is reproducible too.
    pub fn from_saved(saved: &SavedTable, sample_every: usize) -> Result<Self, String> {
        let start = Piles::new(&saved.piles).ok_or("the piles are not a Nim position")?;
        // Built field by field rather than with `new`, which would measure the empty table
        // (thousands of games) only for the saved curve to replace the measurement.
        let mut table = QTable::new(start, saved.rule).map_err(|e| e.to_string())?;
        for entry in &saved.entries {
            table.restore(entry)?;
        }
        let curve = if saved.curve.is_empty() {
            vec![evaluate(&table, saved.games)]
        } else {
            saved.curve.clone()
        };
        Ok(Self {
            table,
            settings: saved.settings,
            target: saved.games,
            games: saved.games,
            sample_every: sample_every.max(1),
            curve,
            seed: saved.seed,
            training_time: Duration::ZERO,
            rng: ChaCha8Rng::seed_from_u64(saved.seed ^ saved.games as u64),
        })
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    fn original_game() -> QTable {
        QTable::new(Piles::new(&[1, 3, 5, 7]).unwrap(), Rule::Misere).unwrap()
    }

    #[test]
    fn saved_tables_spell_the_original_starts_as_before() {
        let spelled = serde_json::to_string(&Starts::Original).unwrap();
        assert_eq!(spelled, "\"seed\"");
        let read: Starts = serde_json::from_str("\"seed\"").unwrap();
        assert_eq!(read, Starts::Original);
    }

    #[test]
    fn the_update_rule_is_the_originals_formula() {
        let mut table = original_game();
        let start = table.start();
        let mv = NimMove { pile: 3, take: 7 };
        let next = start.after(mv);
        let later = NimMove { pile: 0, take: 1 };
        table.update(next, later, next.after(later), 0.0, 0.5);
        table.update(next, later, next.after(later), 1.0, 0.5); // Q(next, later) = 0.5
        let update = table.update(start, mv, next, -1.0, 0.5);
        assert_eq!(update.best_future, 0.5);
        assert!((update.new - (0.0 + 0.5 * (-1.0 + 0.5 - 0.0))).abs() < 1e-12);
        assert_eq!(table.q(&start, mv), update.new);
        assert_eq!(table.updates(&start, mv), 1);
        assert_eq!(table.entries(), 2);
    }

    #[test]
    fn a_self_play_game_rewards_its_last_two_moves_and_nothing_else() {
        let mut table = original_game();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut updates = Vec::new();
        table.self_play(QSettings::default(), &mut rng, |u| updates.push(u));
        let n = updates.len();
        assert!(n >= 4);
        assert_eq!(updates[n - 2].reward, -1.0, "misère: the last taker loses");
        assert!(updates[n - 2].next.is_over());
        assert_eq!(updates[n - 1].reward, 1.0);
        assert!(updates[..n - 2].iter().all(|u| u.reward == 0.0));
        // Each non-final update looks two plies ahead: the same player's next position.
        for u in &updates[..n - 2] {
            assert!(u.state.total() - u.next.total() >= 2, "{u:?}");
        }
    }

    #[test]
    fn decide_plays_what_greedy_plays_and_draws_the_same() {
        let mut table = original_game();
        let mut train = ChaCha8Rng::seed_from_u64(4);
        for games in [0, 30, 300] {
            for _ in 0..games {
                table.self_play(QSettings::default(), &mut train, |_| {});
            }
            let mut ties = 0;
            for (i, piles) in table.start().below().filter(|p| !p.is_over()).enumerate() {
                let mut a = ChaCha8Rng::seed_from_u64(i as u64);
                let mut b = a.clone();
                let decision = table.decide(&piles, &mut a).unwrap();
                assert_eq!(
                    Some(decision.chosen),
                    table.greedy(&piles, &mut b),
                    "{piles}"
                );
                assert_eq!(a, b, "the same draws at {piles}");
                assert_eq!(decision.options.len(), piles.moves().count());
                for option in &decision.options {
                    assert_eq!(option.q, table.q(&piles, option.mv));
                    assert_eq!(option.updates, table.updates(&piles, option.mv));
                }
                match &decision.how {
                    QHow::Greedy => {
                        assert_eq!(table.greedy_moves(&piles), vec![decision.chosen]);
                    }
                    QHow::Tie { among, drawn } => {
                        ties += 1;
                        assert_eq!(among, &table.greedy_moves(&piles));
                        assert_eq!(among[*drawn], decision.chosen);
                    }
                }
            }
            if games == 0 {
                assert!(ties > 300, "an empty table ties everywhere");
            }
        }
    }

    #[test]
    fn the_last_update_of_a_cell_is_kept_with_its_arithmetic() {
        let mut table = original_game();
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let mut made = Vec::new();
        for _ in 0..50 {
            table.self_play(QSettings::default(), &mut rng, |u| made.push(u));
        }
        let last = *made.last().unwrap();
        assert_eq!(table.last_update(&last.state, last.mv, 0.5), Some(last));
        // Every cell's kept update is the last one made to it.
        for piles in table.start().below() {
            for mv in piles.moves() {
                let expected = made
                    .iter()
                    .rev()
                    .find(|u| u.state == piles && u.mv == mv)
                    .copied();
                assert_eq!(table.last_update(&piles, mv, 0.5), expected, "{piles} {mv}");
            }
        }
        // Saved and restored, the arithmetic comes back too.
        let mut copy = original_game();
        for entry in table.learned() {
            copy.restore(&entry).unwrap();
        }
        assert_eq!(copy, table);
        let mut entry = table.learned().pop().unwrap();
        entry.last.as_mut().unwrap().next = entry.state.clone();
        let error = copy.restore(&entry).unwrap_err();
        assert!(error.contains("does not follow it"), "{error}");
    }

    #[test]
    fn saved_entries_restore_the_same_table() {
        let mut table = original_game();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..200 {
            table.self_play(QSettings::default(), &mut rng, |_| {});
        }
        let mut copy = original_game();
        for entry in table.learned() {
            copy.restore(&entry).unwrap();
        }
        assert_eq!(copy, table);
        let foreign = QEntry {
            state: vec![2, 3, 5, 7],
            pile: 0,
            take: 1,
            value: 0.0,
            updates: 1,
            last: None,
        };
        assert!(
            copy.restore(&foreign)
                .unwrap_err()
                .contains("not one of this game")
        );
    }

    #[test]
    fn a_trainer_measures_as_it_goes_and_resumes_from_its_save() {
        let start = Piles::new(&[1, 3, 5, 7]).unwrap();
        let mut trainer =
            QTrainer::new(start, Rule::Misere, QSettings::default(), 1000, 250, 3).unwrap();
        trainer.train(600);
        assert_eq!(trainer.games, 600);
        let games: Vec<usize> = trainer.curve.iter().map(|e| e.games).collect();
        assert_eq!(games, [0, 250, 500]);
        trainer.train(10_000);
        assert!(trainer.is_done() && trainer.games == 1000);
        let saved = trainer.saved();
        let resumed = QTrainer::from_saved(&saved, 250).unwrap();
        assert_eq!(resumed.table, trainer.table);
        assert_eq!(resumed.curve, trainer.curve);
        assert!(
            saved
                .problem(start, Rule::Normal)
                .unwrap()
                .contains("normal")
        );
        let other = Piles::new(&[1, 3, 5]).unwrap();
        assert!(saved.problem(other, Rule::Misere).is_some());
        assert_eq!(saved.problem(start, Rule::Misere), None);
    }

    #[test]
    fn the_default_recipe_learns_every_winning_position_of_the_original_game() {
        let start = Piles::new(&[1, 3, 5, 7]).unwrap();
        let settings = QSettings {
            starts: Starts::Exploring,
            ..QSettings::default()
        };
        for seed in [1, 2] {
            let mut trainer =
                QTrainer::new(start, Rule::Misere, settings, 20_000, 20_000, seed).unwrap();
            trainer.train(20_000);
            let evaluation = trainer.evaluation();
            assert_eq!(
                evaluation.optimal_states, evaluation.winning_states,
                "seed {seed}"
            );
            assert!(evaluation.win_rate_vs_random > 0.95);
            assert!((evaluation.win_rate_vs_perfect - 0.5).abs() < 1e-9);
        }
    }

    #[test]
    fn a_table_too_large_is_refused_with_its_size() {
        let big = Piles::new(&[31; 6]).unwrap();
        let error = QTable::new(big, Rule::Misere).unwrap_err().to_string();
        assert!(error.contains("1,073,741,824 positions"), "{error}");
        assert!(error.contains("at most 2,000,000"), "{error}");
    }

    #[test]
    fn an_untrained_table_is_measured_honestly() {
        let table = original_game();
        let evaluation = evaluate(&table, 0);
        assert_eq!(evaluation.winning_states, 384 - evaluation_losing(&table));
        assert_eq!(evaluation.optimal_states, count_single_move_wins(&table));
        assert!(evaluation.win_rate_vs_perfect <= 0.5);
    }

    /// Regression: a table trained with alpha 1e308 (a saved file once carried it) holds
    /// infinities and NaN, and the greedy choice found no move: "a move exists while
    /// objects remain" panicked in the measurement.
    #[test]
    fn a_table_of_nan_still_plays_and_measures_without_panicking() {
        let start = Piles::new(&[1, 3, 5, 7]).unwrap();
        let settings = QSettings {
            alpha: 1e308,
            ..QSettings::default()
        };
        let mut trainer = QTrainer::new(start, Rule::Misere, settings, 200, 100, 1).unwrap();
        trainer.train(200);
        assert!(
            trainer.table.values.iter().any(|v| v.is_nan()),
            "the overflow this test is about happened"
        );
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for piles in start.below().filter(|p| !p.is_over()) {
            assert!(trainer.table.greedy(&piles, &mut rng).is_some(), "{piles}");
            assert!(!trainer.table.greedy_moves(&piles).is_empty(), "{piles}");
        }
    }

    #[test]
    fn a_saved_table_with_settings_the_config_refuses_is_not_used() {
        let start = Piles::new(&[1, 3, 5, 7]).unwrap();
        let trainer = QTrainer::new(start, Rule::Misere, QSettings::default(), 10, 10, 1).unwrap();
        let good = trainer.saved();
        assert_eq!(good.problem(start, Rule::Misere), None);
        for (alpha, epsilon) in [(1e308, 0.1), (0.0, 0.1), (f64::NAN, 0.1), (0.5, 1.5)] {
            let mut bad = good.clone();
            bad.settings.alpha = alpha;
            bad.settings.epsilon = epsilon;
            let why = bad.problem(start, Rule::Misere).expect("refused");
            assert!(why.contains("out of range (allowed: "), "{why}");
        }
        let mut bad = good.clone();
        bad.entries.push(QEntry {
            state: vec![1, 3, 5, 7],
            pile: 0,
            take: 1,
            value: 1e300,
            updates: 1,
            last: None,
        });
        assert!(QTrainer::from_saved(&bad, 10).is_err());
    }

    fn evaluation_losing(table: &QTable) -> usize {
        table
            .start()
            .below()
            .filter(|p| !solver::has_winning_move(p, table.rule()))
            .count()
    }

    /// With every Q at 0 all moves tie, so only positions where every move wins count.
    fn count_single_move_wins(table: &QTable) -> usize {
        table
            .start()
            .below()
            .filter(|p| solver::has_winning_move(p, table.rule()))
            .filter(|p| {
                p.moves()
                    .all(|mv| solver::is_winning_move(p, table.rule(), mv))
            })
            .count()
    }
}
