//! Connect Four players as data: which AI, with which strength, written the way a user
//! names it on the command line (`alphabeta:6`, `mcts:20000`, `perfect`, `random`). One
//! value says everything a player needs, so the arena and a tab can pit any two against
//! each other and a game replays exactly from its seeds.
//!
//! Choosing is pure: the position, a seed for the random draws, and the solver (whose table
//! the caller keeps between moves, so the perfect player does not relearn the same
//! positions every move) give the column.

use super::limited::{Options, search_limited};
use super::mcts::{DEFAULT_EXPLORATION, Mcts};
use crate::domain::games::connect4::{Board, CELLS};
use crate::domain::solve::connect4::Solver;
use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// The deepest alpha-beta a player may ask for: depth 12 already takes seconds a move on
/// open positions.
pub const MAX_DEPTH: u8 = 12;
/// The most MCTS iterations a player may ask for: about a second a move, and a tree within
/// the search's node limit.
pub const MAX_ITERATIONS: u64 = 1_000_000;
/// The perfect player's node budget when none is written: the tab's default, about 0.7 s.
pub const DEFAULT_BUDGET: u64 = 5_000_000;
/// The depth alpha-beta searches when the perfect player's solver gives up: the tab's
/// default, a few thousand nodes a move.
pub const FALLBACK_DEPTH: u8 = 6;
/// What `parse` accepts, for error messages and help.
pub const SPELLINGS: &str = "alphabeta:DEPTH (1-12), mcts:ITERATIONS (1-1000000), \
perfect or perfect:BUDGET (solver nodes, 5000000 by default), random";

/// A Connect Four player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// Depth-limited alpha-beta with iterative deepening, move ordering and the
    /// transposition table all on (they change the work, never the move's value).
    AlphaBeta {
        /// Plies to look ahead, 1 to [`MAX_DEPTH`].
        depth: u8,
    },
    /// Monte Carlo tree search (UCT, exploration √2, random rollouts): the most visited
    /// root move after `iterations` iterations.
    Mcts {
        /// Iterations, 1 to [`MAX_ITERATIONS`].
        iterations: u64,
    },
    /// The exact solver, within `budget` nodes: the first column, centre first, that keeps
    /// the position's exact value; alpha-beta at [`FALLBACK_DEPTH`] when it gives up (a
    /// node count rather than a clock, so a game replays exactly).
    Perfect {
        /// Nodes the solver may search for one move, 1 or more.
        budget: u64,
    },
    /// A column drawn uniformly from the open ones: the floor every AI should beat.
    Random,
}

/// A player's move, and whether it came from the player's own method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The column, 0-based.
    pub column: u8,
    /// Whether the perfect player's solver ran out of budget and alpha-beta chose instead
    /// (always false for the other players).
    pub fell_back: bool,
}

/// Why a written player was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Not one of the four names.
    #[error("{spec:?} is no player: write {SPELLINGS}")]
    Unknown {
        /// What was written.
        spec: String,
    },
    /// A name that needs a number without one.
    #[error("{spec:?} needs its {what} after a colon, as {example}")]
    MissingNumber {
        /// What was written.
        spec: String,
        /// What the number is.
        what: &'static str,
        /// A spelling that works.
        example: &'static str,
    },
    /// A number that is no number or out of its range.
    #[error("{spec:?}: the {what} must be a whole number from {allowed}")]
    BadNumber {
        /// What was written.
        spec: String,
        /// What the number is.
        what: &'static str,
        /// Its range in words.
        allowed: &'static str,
    },
    /// `random` with a number.
    #[error("{spec:?}: random takes no number; write random")]
    UnexpectedNumber {
        /// What was written.
        spec: String,
    },
}

impl Player {
    /// The player `spec` names: `alphabeta:DEPTH`, `mcts:ITERATIONS`, `perfect`,
    /// `perfect:BUDGET` or `random` (surrounding spaces ignored).
    pub fn parse(spec: &str) -> Result<Self, SpecError> {
        let trimmed = spec.trim();
        let (name, number) = match trimmed.split_once(':') {
            Some((name, number)) => (name, Some(number)),
            None => (trimmed, None),
        };
        let owned = || trimmed.to_string();
        let number_in = |what: &'static str, example: &'static str, allowed, range: (u64, u64)| {
            let Some(number) = number else {
                return Err(SpecError::MissingNumber {
                    spec: owned(),
                    what,
                    example,
                });
            };
            number
                .parse::<u64>()
                .ok()
                .filter(|n| (range.0..=range.1).contains(n))
                .ok_or_else(|| SpecError::BadNumber {
                    spec: owned(),
                    what,
                    allowed,
                })
        };
        match name {
            "alphabeta" => {
                let depth = number_in("depth", "alphabeta:6", "1 to 12", (1, MAX_DEPTH.into()))?;
                Ok(Self::AlphaBeta { depth: depth as u8 })
            }
            "mcts" => {
                let iterations = number_in(
                    "iterations",
                    "mcts:20000",
                    "1 to 1000000",
                    (1, MAX_ITERATIONS),
                )?;
                Ok(Self::Mcts { iterations })
            }
            "perfect" if number.is_none() => Ok(Self::Perfect {
                budget: DEFAULT_BUDGET,
            }),
            "perfect" => {
                let budget = number_in("budget", "perfect:5000000", "1 up", (1, u64::MAX))?;
                Ok(Self::Perfect { budget })
            }
            "random" if number.is_none() => Ok(Self::Random),
            "random" => Err(SpecError::UnexpectedNumber { spec: owned() }),
            _ => Err(SpecError::Unknown { spec: owned() }),
        }
    }

    /// The player as [`Player::parse`] reads it (`perfect` alone for the default budget).
    pub fn name(&self) -> String {
        match *self {
            Self::AlphaBeta { depth } => format!("alphabeta:{depth}"),
            Self::Mcts { iterations } => format!("mcts:{iterations}"),
            Self::Perfect {
                budget: DEFAULT_BUDGET,
            } => "perfect".to_string(),
            Self::Perfect { budget } => format!("perfect:{budget}"),
            Self::Random => "random".to_string(),
        }
    }

    /// The column this player plays on `board`, a game still on. `seed` feeds MCTS's
    /// rollouts and the random draw; the perfect player searches with `solver` (its node
    /// count is reset first, so the budget is this move's), the others leave it alone.
    ///
    /// # Panics
    ///
    /// When the game on `board` is over: there is no move to choose.
    pub fn choose(&self, board: &Board, seed: u64, solver: &mut Solver) -> Choice {
        assert!(
            !board.is_over(),
            "a player was asked to move in a finished game"
        );
        let chosen = |column: u8| Choice {
            column,
            fell_back: false,
        };
        match *self {
            Self::AlphaBeta { depth } => chosen(alpha_beta(board, depth)),
            Self::Mcts { iterations } => {
                let mut mcts = Mcts::new(*board, DEFAULT_EXPLORATION, seed);
                mcts.run(iterations);
                chosen(mcts.best_move().unwrap_or_else(|| first_open(board)))
            }
            Self::Perfect { budget } => {
                solver.reset_nodes();
                match solver.best_move_within(board, budget) {
                    Some((column, _)) => chosen(column as u8),
                    None => Choice {
                        column: alpha_beta(board, FALLBACK_DEPTH),
                        fell_back: true,
                    },
                }
            }
            Self::Random => chosen(random_column(board, &mut ChaCha8Rng::seed_from_u64(seed))),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Alpha-beta's column at `depth` with every improvement on.
fn alpha_beta(board: &Board, depth: u8) -> u8 {
    let options = Options {
        depth,
        deepening: true,
        ordering: true,
        table: true,
    };
    search_limited(board, options, 0)
        .best_move()
        .unwrap_or_else(|| first_open(board))
}

fn first_open(board: &Board) -> u8 {
    board.open_columns().next().map_or(0, |c| c as u8)
}

/// A column drawn uniformly from the open ones (the tab's random AI draws the same way, so
/// a seed gives the same column in both).
pub fn random_column(board: &Board, rng: &mut ChaCha8Rng) -> u8 {
    let open: Vec<usize> = board.open_columns().collect();
    open[rng.random_range(0..open.len())] as u8
}

/// A position of `moves` moves (fewer than 42) reached by random play, where no four was
/// made and the game is still on, drawn from `seed`: a game that ends sooner is played
/// again with the next draws. `None` only if 1,000 games in a row ended early. The
/// arena's quality check and the solver's benchmark take their positions from here, so
/// both are fixed by a seed.
pub fn random_opening(seed: u64, moves: usize) -> Option<Board> {
    assert!(moves < CELLS, "a game on has fewer than {CELLS} moves");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..1_000).find_map(|_| {
        let mut position = Board::new();
        while position.moves() < moves {
            position = position.play(usize::from(random_column(&position, &mut rng)));
            if position.is_over() {
                return None;
            }
        }
        Some(position)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::connect4::{Disc, WIDTH};

    fn board(moves: &str) -> Board {
        Board::parse(moves).unwrap()
    }

    fn solver() -> Solver {
        Solver::with_table_bits(16)
    }

    #[test]
    fn every_searching_player_takes_a_win_in_one() {
        // Red has three in column 1 and is to move: column 1 (0-based 0) wins.
        let position = board("121212");
        assert_eq!(position.player_to_move(), Disc::Red);
        for spec in [
            "alphabeta:1",
            "alphabeta:2",
            "alphabeta:6",
            "mcts:200",
            "mcts:20000",
            "perfect",
            "perfect:1",
        ] {
            let player = Player::parse(spec).unwrap();
            for seed in 0..5 {
                let choice = player.choose(&position, seed, &mut solver());
                assert_eq!(choice.column, 0, "{spec}, seed {seed}");
                assert!(!choice.fell_back, "{spec}");
            }
        }
    }

    #[test]
    fn random_draws_every_open_column_and_never_a_full_one() {
        // Column 1 is full.
        let position = board("111111");
        let mut drawn = [0; WIDTH];
        for seed in 0..700 {
            let choice = Player::Random.choose(&position, seed, &mut solver());
            drawn[usize::from(choice.column)] += 1;
        }
        assert_eq!(drawn[0], 0);
        // Each of the six open columns about 700 / 6 ≈ 117 times.
        assert!(
            drawn[1..].iter().all(|&n| (70..170).contains(&n)),
            "{drawn:?}"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_choice() {
        let position = board("4453");
        for spec in ["mcts:300", "random"] {
            let player = Player::parse(spec).unwrap();
            let choices: Vec<u8> = (0..20)
                .map(|seed| player.choose(&position, seed, &mut solver()).column)
                .collect();
            let again: Vec<u8> = (0..20)
                .map(|seed| player.choose(&position, seed, &mut solver()).column)
                .collect();
            assert_eq!(choices, again, "{spec}");
            // The seed is used: twenty seeds do not all give one column.
            assert!(
                choices.iter().any(|&c| c != choices[0]),
                "{spec}: {choices:?}"
            );
        }
    }

    #[test]
    fn the_perfect_player_falls_back_to_alpha_beta_and_says_so() {
        let empty = Board::new();
        let choice = Player::Perfect { budget: 1_000 }.choose(&empty, 0, &mut solver());
        assert!(choice.fell_back);
        assert_eq!(choice.column, alpha_beta(&empty, FALLBACK_DEPTH));
        // A position near the end is solved within the default budget.
        let late = random_opening(3, 30).unwrap();
        let choice = Player::parse("perfect")
            .unwrap()
            .choose(&late, 0, &mut solver());
        assert!(!choice.fell_back);
    }

    #[test]
    fn the_perfect_player_keeps_the_exact_value() {
        for seed in 0..10 {
            let position = random_opening(seed, 20).unwrap();
            let scores = solver().scores(&position);
            let best = scores.iter().flatten().max().copied();
            let choice = Player::parse("perfect")
                .unwrap()
                .choose(&position, seed, &mut solver());
            assert!(!choice.fell_back, "seed {seed}");
            assert_eq!(scores[usize::from(choice.column)], best, "seed {seed}");
        }
    }

    #[test]
    fn names_parse_back_to_the_same_player() {
        let players = [
            Player::AlphaBeta { depth: 1 },
            Player::AlphaBeta { depth: 12 },
            Player::Mcts { iterations: 1 },
            Player::Mcts {
                iterations: 1_000_000,
            },
            Player::Perfect {
                budget: DEFAULT_BUDGET,
            },
            Player::Perfect { budget: 77 },
            Player::Random,
        ];
        for player in players {
            assert_eq!(Player::parse(&player.name()), Ok(player), "{player}");
        }
        assert_eq!(
            Player::parse("alphabeta:6"),
            Ok(Player::AlphaBeta { depth: 6 })
        );
        assert_eq!(
            Player::parse("mcts:20000"),
            Ok(Player::Mcts { iterations: 20_000 })
        );
        assert_eq!(
            Player::parse("perfect"),
            Ok(Player::Perfect { budget: 5_000_000 })
        );
        assert_eq!(Player::parse(" random "), Ok(Player::Random));
        assert_eq!(Player::Perfect { budget: 5_000_000 }.name(), "perfect");
    }

    #[test]
    fn bad_spellings_are_refused_with_what_would_work() {
        let refused = |spec: &str| Player::parse(spec).unwrap_err().to_string();
        for spec in ["", "minimax:3", "alpha-beta:6", "Random", "mcts20000"] {
            assert!(
                refused(spec).contains("is no player: write alphabeta:DEPTH"),
                "{spec}"
            );
        }
        assert!(refused("alphabeta").contains("needs its depth after a colon, as alphabeta:6"));
        assert!(refused("mcts").contains("as mcts:20000"));
        for spec in [
            "alphabeta:0",
            "alphabeta:13",
            "alphabeta:-1",
            "alphabeta:six",
        ] {
            assert!(
                refused(spec).contains("the depth must be a whole number from 1 to 12"),
                "{spec}"
            );
        }
        for spec in ["mcts:0", "mcts:1000001", "mcts:", "mcts:1e4"] {
            assert!(refused(spec).contains("from 1 to 1000000"), "{spec}");
        }
        for spec in ["perfect:0", "perfect:x", "perfect:"] {
            assert!(refused(spec).contains("the budget must be"), "{spec}");
        }
        assert!(refused("random:3").contains("random takes no number"));
    }

    #[test]
    fn random_openings_have_their_moves_and_go_on() {
        for seed in 0..50 {
            for moves in [0, 8, 12, 16, 30] {
                let position = random_opening(seed, moves).unwrap();
                assert_eq!(position.moves(), moves);
                assert!(!position.is_over());
                assert_eq!(random_opening(seed, moves), Some(position));
            }
        }
        assert_ne!(random_opening(1, 12), random_opening(2, 12));
    }
}
