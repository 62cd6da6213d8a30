//! `ai-arcade arena connect4`: two Connect Four players against each other for N games,
//! sides alternating, or (`--quality`) how often each AI's move keeps the exact solver's
//! value on a seeded set of random positions. Every random draw comes from the run's seed
//! mixed with the game (or position) and move numbers, so a run repeats exactly; only the
//! times differ. The players are [`crate::domain::search::players`]; the clock is here.

use super::exit::fail;
use super::run::report;
use crate::domain::games::connect4::{Board, Disc};
use crate::domain::numbers::thousands;
use crate::domain::search::mcts::SplitMix64;
use crate::domain::search::players::{Player, random_opening};
use crate::domain::solve::connect4::Solver;
use crate::domain::solve::connect4::book::builtin;
use serde_json::json;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The most games one run plays.
pub const MAX_GAMES: u64 = 10_000;
/// The most positions `--quality` weighs.
pub const MAX_POSITIONS: u64 = 10_000;
/// The solver's table for a perfect player: 2^23 slots, 64 MiB, as `solve` uses.
const PERFECT_TABLE_BITS: u32 = 23;
/// The smallest table there is, for the players that never ask the solver.
const UNUSED_TABLE_BITS: u32 = 1;
/// The AIs `--quality` weighs, weakest last: MCTS and alpha-beta at three and four
/// strengths, and random as the floor.
const QUALITY_PLAYERS: [Player; 8] = [
    Player::Mcts { iterations: 1_000 },
    Player::Mcts { iterations: 10_000 },
    Player::Mcts {
        iterations: 100_000,
    },
    Player::AlphaBeta { depth: 2 },
    Player::AlphaBeta { depth: 4 },
    Player::AlphaBeta { depth: 6 },
    Player::AlphaBeta { depth: 8 },
    Player::Random,
];

/// A seed for one draw: the run's seed mixed with two numbers (game and move, or position
/// and player) through `SplitMix64`, so neighbouring games get unrelated draws.
fn mixed_seed(seed: u64, first: u64, second: u64) -> u64 {
    let step = |state: u64| SplitMix64::new(state).next_u64();
    step(step(step(seed) ^ first) ^ second)
}

/// Games won, drawn and lost by player A.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    wins: u64,
    draws: u64,
    losses: u64,
}

impl Tally {
    fn games(self) -> u64 {
        self.wins + self.draws + self.losses
    }

    fn plus(self, other: Self) -> Self {
        Self {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }

    fn json(self) -> serde_json::Value {
        json!({
            "games": self.games(),
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        })
    }
}

/// One side's moves and the time they took.
#[derive(Debug, Default, Clone, Copy)]
struct Thinking {
    moves: u64,
    time: Duration,
    fell_back: u64,
}

impl Thinking {
    fn seconds_per_move(self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.time.as_secs_f64() / self.moves as f64
        }
    }
}

/// A finished run of games.
struct Matches {
    a: Player,
    b: Player,
    seed: u64,
    a_red: Tally,
    a_yellow: Tally,
    thinking: [Thinking; 2],
    seconds: f64,
}

/// `arena connect4 --a SPEC --b SPEC`: checks the players and the count, then plays.
pub(super) fn games_command(a: &str, b: &str, games: u64, seed: u64, json_out: bool) -> ExitCode {
    let a = match Player::parse(a) {
        Ok(player) => player,
        Err(error) => return fail(format!("--a: {error}")),
    };
    let b = match Player::parse(b) {
        Ok(player) => player,
        Err(error) => return fail(format!("--b: {error}")),
    };
    if !(1..=MAX_GAMES).contains(&games) {
        return fail(format!(
            "--games {games}: play 1 to {} games",
            thousands(MAX_GAMES)
        ));
    }
    let played = play_games([a, b], games, seed);
    report(json_out, || matches_json(&played), || matches_text(&played))
}

fn solver_for(player: Player) -> Solver {
    if matches!(player, Player::Perfect { .. }) {
        exact_solver()
    } else {
        Solver::with_table_bits(UNUSED_TABLE_BITS)
    }
}

/// The exact solver as the perfect player and the judge use it: the opening book answers
/// the first 8 moves, the search the rest.
fn exact_solver() -> Solver {
    let solver = Solver::with_table_bits(PERFECT_TABLE_BITS);
    match builtin() {
        Some(book) => solver.with_book(book),
        None => solver,
    }
}

/// Plays `games` games between `players` ([A, B]): A is red (moves first) in even games.
/// Each side keeps its own solver, so a perfect player's table lasts the whole run.
fn play_games(players: [Player; 2], games: u64, seed: u64) -> Matches {
    let mut solvers = players.map(solver_for);
    let mut thinking = [Thinking::default(); 2];
    let mut a_red = Tally::default();
    let mut a_yellow = Tally::default();
    let started = Instant::now();
    for game in 0..games {
        let a_is_red = game % 2 == 0;
        let side_of = |disc: Disc| usize::from((disc == Disc::Red) != a_is_red);
        let mut board = Board::new();
        while !board.is_over() {
            let side = side_of(board.player_to_move());
            let move_seed = mixed_seed(seed, game, board.moves() as u64);
            let clock = Instant::now();
            let choice = players[side].choose(&board, move_seed, &mut solvers[side]);
            thinking[side].time += clock.elapsed();
            thinking[side].moves += 1;
            thinking[side].fell_back += u64::from(choice.fell_back);
            board = board.play(usize::from(choice.column));
        }
        let tally = if a_is_red { &mut a_red } else { &mut a_yellow };
        if board.is_won() {
            // The last mover made the four.
            let winner = board.player_to_move().other();
            if side_of(winner) == 0 {
                tally.wins += 1;
            } else {
                tally.losses += 1;
            }
        } else {
            tally.draws += 1;
        }
    }
    Matches {
        a: players[0],
        b: players[1],
        seed,
        a_red,
        a_yellow,
        thinking,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn games_per_second(m: &Matches) -> f64 {
    m.a_red.plus(m.a_yellow).games() as f64 / m.seconds.max(f64::MIN_POSITIVE)
}

fn matches_json(m: &Matches) -> serde_json::Value {
    let side = |t: Thinking| {
        json!({
            "moves": t.moves,
            "seconds_per_move": t.seconds_per_move(),
            "fell_back": t.fell_back,
        })
    };
    json!({
        "game": "connect4",
        "a": m.a.name(),
        "b": m.b.name(),
        "games": m.a_red.plus(m.a_yellow).games(),
        "seed": m.seed,
        "a_as_red": m.a_red.json(),
        "a_as_yellow": m.a_yellow.json(),
        "a_total": m.a_red.plus(m.a_yellow).json(),
        "a_moves": side(m.thinking[0]),
        "b_moves": side(m.thinking[1]),
        "seconds": m.seconds,
        "games_per_second": games_per_second(m),
    })
}

fn matches_text(m: &Matches) -> String {
    let total = m.a_red.plus(m.a_yellow);
    let mut text = format!(
        "connect4 arena: A = {} against B = {}, {} games, seed {}\n\
         A's games        wins  draws  losses\n",
        m.a,
        m.b,
        thousands(total.games()),
        m.seed
    );
    for (label, tally) in [
        ("as red", m.a_red),
        ("as yellow", m.a_yellow),
        ("total", total),
    ] {
        let _ = writeln!(
            text,
            "{:<15} {:>5}  {:>5}  {:>6}",
            format!("{label} ({})", tally.games()),
            tally.wins,
            tally.draws,
            tally.losses
        );
    }
    for (name, player, t) in [("A", m.a, m.thinking[0]), ("B", m.b, m.thinking[1])] {
        let _ = write!(
            text,
            "{name} {player}: {:.6} s a move over {} moves",
            t.seconds_per_move(),
            thousands(t.moves)
        );
        if matches!(player, Player::Perfect { .. }) {
            let _ = write!(
                text,
                "; the solver gave up on {} and alpha-beta (depth 6) chose",
                thousands(t.fell_back)
            );
        }
        text.push('\n');
    }
    let _ = writeln!(
        text,
        "{:.2} games a second ({:.2} s)",
        games_per_second(m),
        m.seconds
    );
    text
}

/// One AI's record on the solved positions.
struct Record {
    player: Player,
    /// Positions where its move kept the exact value.
    kept: u64,
    time: Duration,
}

/// A finished `--quality` run.
struct Quality {
    seed: u64,
    budget: u64,
    positions: u64,
    solved: u64,
    players: Vec<Record>,
    seconds: f64,
}

/// `arena connect4 --quality`: checks the count, then weighs every AI.
pub(super) fn quality_command(positions: u64, budget: u64, seed: u64, json_out: bool) -> ExitCode {
    if !(1..=MAX_POSITIONS).contains(&positions) {
        return fail(format!(
            "--positions {positions}: weigh 1 to {} positions",
            thousands(MAX_POSITIONS)
        ));
    }
    if budget == 0 {
        return fail("--budget 0: give the solver at least one node");
    }
    let weighed = weigh(positions, budget, seed);
    report(
        json_out,
        || quality_json(&weighed),
        || quality_text(&weighed),
    )
}

/// The `index`-th position of the set: 8 to 16 moves of random play, game on.
fn quality_position(seed: u64, index: u64) -> Board {
    let position_seed = mixed_seed(seed, index, u64::MAX);
    let moves = 8 + (position_seed % 9) as usize;
    random_opening(position_seed, moves).expect("random play reaches 16 moves with the game on")
}

fn weigh(positions: u64, budget: u64, seed: u64) -> Quality {
    let started = Instant::now();
    let mut solver = exact_solver();
    let mut unused = solver_for(Player::Random);
    let mut players: Vec<Record> = QUALITY_PLAYERS
        .iter()
        .map(|&player| Record {
            player,
            kept: 0,
            time: Duration::ZERO,
        })
        .collect();
    let mut solved = 0;
    for index in 0..positions {
        let position = quality_position(seed, index);
        solver.reset_nodes();
        let Some(scores) = solver.scores_within(&position, budget) else {
            continue;
        };
        solved += 1;
        let best = scores.iter().flatten().max().copied();
        for (number, record) in players.iter_mut().enumerate() {
            let clock = Instant::now();
            let choice = record.player.choose(
                &position,
                mixed_seed(seed, index, number as u64),
                &mut unused,
            );
            record.time += clock.elapsed();
            record.kept += u64::from(scores[usize::from(choice.column)] == best);
        }
    }
    Quality {
        seed,
        budget,
        positions,
        solved,
        players,
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn share(kept: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        kept as f64 / of as f64
    }
}

fn quality_json(q: &Quality) -> serde_json::Value {
    let players: Vec<serde_json::Value> = q
        .players
        .iter()
        .map(|p| {
            json!({
                "player": p.player.name(),
                "kept": p.kept,
                "share": share(p.kept, q.solved),
                "seconds_per_move": p.time.as_secs_f64() / q.solved.max(1) as f64,
            })
        })
        .collect();
    json!({
        "game": "connect4",
        "seed": q.seed,
        "positions": q.positions,
        "solved": q.solved,
        "skipped": q.positions - q.solved,
        "budget": q.budget,
        "players": players,
        "seconds": q.seconds,
    })
}

fn quality_text(q: &Quality) -> String {
    let mut text = format!(
        "connect4 move quality: {} random positions of 8-16 moves, seed {}\n\
         solved exactly: {} (skipped {}: beyond {} solver nodes)\n\
         a move keeps the value when its exact score equals the best column's\n\
         player        kept   share  s a move\n",
        thousands(q.positions),
        q.seed,
        thousands(q.solved),
        thousands(q.positions - q.solved),
        thousands(q.budget),
    );
    for p in &q.players {
        let _ = writeln!(
            text,
            "{:<12} {:>5}  {:>5.1}%  {:.6}",
            p.player.name(),
            p.kept,
            100.0 * share(p.kept, q.solved),
            p.time.as_secs_f64() / q.solved.max(1) as f64
        );
    }
    let _ = writeln!(text, "{:.1} s in all", q.seconds);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixed_seeds_differ_by_game_and_by_move() {
        let seeds = [
            mixed_seed(7, 0, 0),
            mixed_seed(7, 1, 0),
            mixed_seed(7, 0, 1),
            mixed_seed(8, 0, 0),
        ];
        for (i, x) in seeds.iter().enumerate() {
            for y in &seeds[i + 1..] {
                assert_ne!(x, y);
            }
        }
        assert_eq!(mixed_seed(7, 3, 4), mixed_seed(7, 3, 4));
    }

    #[test]
    fn a_strong_player_beats_random_on_both_sides_and_sides_alternate() {
        let played = play_games([Player::AlphaBeta { depth: 4 }, Player::Random], 6, 1);
        assert_eq!(played.a_red.games(), 3);
        assert_eq!(played.a_yellow.games(), 3);
        assert_eq!(played.a_red.plus(played.a_yellow).wins, 6);
    }

    #[test]
    fn quality_positions_have_8_to_16_moves_and_go_on() {
        let mut lengths = std::collections::BTreeSet::new();
        for index in 0..100 {
            let position = quality_position(7, index);
            assert!((8..=16).contains(&position.moves()));
            assert!(!position.is_over());
            lengths.insert(position.moves());
        }
        assert_eq!(lengths.len(), 9, "{lengths:?}");
    }
}
