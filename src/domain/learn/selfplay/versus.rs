//! Games against fixed opponents: how the Connect Four learner fares against a player of
//! random moves, plain MCTS of 1,000 random-rollout iterations, and depth-4 alpha-beta with
//! the tab's heuristic, at each point of its curve. Each pair of games starts from a
//! random two-move opening drawn from the seed, once with each side, so a deterministic
//! learner and opponent still meet different games, and a match repeats exactly.

use super::learnable::Learnable;
use super::net::PolicyValueNet;
use super::puct::{Puct, PuctSettings};
use super::saved::Versus;
use super::settings::SelfPlaySettings;
use crate::domain::search::players::{Player, random_opening};
use crate::domain::solve::connect4::Solver;
use rand::SeedableRng as _;
use rand_chacha::ChaCha8Rng;

/// A match's games, from the learner's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Games the learner won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the learner lost.
    pub losses: u32,
}

impl Tally {
    /// The learner's score in percent: a win 1, a draw ½.
    pub fn percent(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        if games == 0 {
            return 0.0;
        }
        100.0 * (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(games)
    }
}

/// How the learner plays in a match: with `simulations` of search (0: the network's
/// highest prior alone), no noise, always the most visited move.
#[derive(Debug, Clone, Copy)]
pub struct LearnerPlay<'a> {
    /// The network.
    pub net: &'a PolicyValueNet,
    /// Simulations a move; 0 for the network alone.
    pub simulations: u32,
    /// Exploration's weight in the search.
    pub c_puct: f32,
}

impl LearnerPlay<'_> {
    /// The policy index the learner plays at `position`, a game still on.
    pub fn choose<G: Learnable>(&self, position: &G) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        if self.simulations == 0 {
            let evaluation = self.net.evaluate(&position.encode(), &position.legal());
            let legal = position.legal();
            return (0..G::MOVES)
                .filter(|&i| legal[i])
                .max_by(|&a, &b| {
                    evaluation.priors[a]
                        .total_cmp(&evaluation.priors[b])
                        .then(b.cmp(&a))
                })
                .unwrap_or(0);
        }
        let settings = PuctSettings {
            c_puct: self.c_puct,
            noise: None,
        };
        let mut evaluator = self.net;
        let mut tree = Puct::new(*position, settings, &mut evaluator, &mut rng);
        tree.run(self.simulations, &mut evaluator);
        tree.choose(0.0, &mut rng)
    }
}

/// `pairs` pairs of games between the learner and `opponent`, each pair from its own
/// random opening, the learner first in one and second in the other.
pub fn play_match(learner: LearnerPlay, opponent: Player, pairs: u32, seed: u64) -> Tally {
    let mut solver = Solver::with_table_bits(12);
    let mut tally = Tally::default();
    for pair in 0..u64::from(pairs) {
        let opening = random_opening(seed.wrapping_add(pair), 2).unwrap_or_default();
        for learner_first in [true, false] {
            let mut position = opening;
            while !position.is_over() {
                let learner_to_move = position.moves().is_multiple_of(2) == learner_first;
                let column = if learner_to_move {
                    learner.choose(&position)
                } else {
                    let draw = seed ^ (pair << 20) ^ position.moves() as u64;
                    usize::from(opponent.choose(&position, draw, &mut solver).column)
                };
                position = position.play(column);
            }
            let last_was_learner = (position.moves() - 1).is_multiple_of(2) == learner_first;
            match (position.is_won(), last_was_learner) {
                (false, _) => tally.draws += 1,
                (true, true) => tally.wins += 1,
                (true, false) => tally.losses += 1,
            }
        }
    }
    tally
}

/// The three fixed matches of a curve point: with search against random (5 pairs) and
/// against MCTS-1000 (10 pairs), and the network alone against depth-4 alpha-beta (10
/// pairs).
pub fn versus_fixed_opponents(net: &PolicyValueNet, settings: &SelfPlaySettings) -> Versus {
    let searched = LearnerPlay {
        net,
        simulations: settings.simulations,
        c_puct: settings.c_puct,
    };
    let alone = LearnerPlay {
        simulations: 0,
        ..searched
    };
    Versus {
        random: play_match(searched, Player::Random, 5, 1).percent(),
        mcts: play_match(searched, Player::Mcts { iterations: 1_000 }, 10, 2).percent(),
        alphabeta: play_match(alone, Player::AlphaBeta { depth: 4 }, 10, 3).percent(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::connect4::Board;

    /// An untrained network with a search still beats random play most of the time (the
    /// search sees the wins and losses at hand), and a match repeats exactly.
    #[test]
    fn a_match_counts_every_game_and_repeats() {
        let net = PolicyValueNet::new(Board::INPUTS, &[8], Board::MOVES, 4);
        let learner = LearnerPlay {
            net: &net,
            simulations: 200,
            c_puct: 2.0,
        };
        let tally = play_match(learner, Player::Random, 3, 7);
        assert_eq!(tally.wins + tally.draws + tally.losses, 6);
        assert!(tally.wins >= 4, "{tally:?}");
        assert_eq!(play_match(learner, Player::Random, 3, 7), tally);
    }

    /// Against a perfect opponent nothing is won: the score counts from the learner's side.
    #[test]
    fn the_network_alone_wins_nothing_against_alpha_beta_that_sees_its_blunders() {
        let net = PolicyValueNet::new(Board::INPUTS, &[8], Board::MOVES, 4);
        let alone = LearnerPlay {
            net: &net,
            simulations: 0,
            c_puct: 2.0,
        };
        let tally = play_match(alone, Player::AlphaBeta { depth: 6 }, 2, 1);
        assert_eq!(tally.wins, 0, "{tally:?}");
        assert!(tally.percent() < 50.0);
    }
}
