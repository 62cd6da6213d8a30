//! How well a table plays: the positions where its greedy moves all win, checked against
//! the exact solver, and its share of wins against a random and a perfect opponent, on
//! games of a fixed seed so two tables are compared on the same games.

use super::table::QTable;
use crate::domain::games::nim::{NimMove, Piles};
use crate::domain::solve::nim as solver;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

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
