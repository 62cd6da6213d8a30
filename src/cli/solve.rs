//! `ai-arcade solve`: a position of tic-tac-toe or Eight searched to the end, with its
//! value, best move and counts.

use super::args::{SolveArgs, SolveGame};
use super::connect4;
use super::exit::{board_echo, fail};
use super::run::report;
use crate::config;
use crate::domain::games::Game;
use crate::domain::games::eight::Eight;
use crate::domain::games::tictactoe::Board;
use crate::domain::search::{Algorithm, SearchResult, search};
use crate::domain::solve::verdict::Verdict;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// What a `solve` found, ready to print.
pub(super) struct Solved {
    game: &'static str,
    position: String,
    to_move: String,
    algorithm: Algorithm,
    result: SearchResult<u8>,
    best_move: Option<u8>,
    elapsed_us: f64,
}

pub(super) fn timed<G: Game<Move = u8>>(root: &G, algorithm: Algorithm) -> (SearchResult<u8>, f64) {
    let started = Instant::now();
    let result = search(root, algorithm);
    (result, started.elapsed().as_secs_f64() * 1e6)
}

pub(super) fn solve(config: &config::Config, args: &SolveArgs) -> ExitCode {
    // MCTS solves nothing: with `search.algorithm = "mcts"` the solver runs alpha-beta.
    let algorithm = args
        .algo
        .or(config.search.algorithm.tree())
        .unwrap_or_default();
    let solved = match &args.game {
        SolveGame::Connect4 {
            moves,
            all,
            no_book,
            threads,
        } => {
            let how = connect4::How {
                all: *all,
                book: !no_book,
                threads: *threads,
            };
            return connect4::solve(moves, &how, args.json);
        }
        SolveGame::Tictactoe { board, to_move } => {
            let root = match Board::parse(board, *to_move) {
                Ok(root) => root,
                Err(error) => return fail(format!("--board {}: {error}", board_echo(board))),
            };
            let (result, elapsed_us) = timed(&root, algorithm);
            Solved {
                game: "tictactoe",
                position: root.to_string(),
                to_move: root.to_move().to_string().to_lowercase(),
                algorithm,
                best_move: result.best_move.map(|cell| cell + 1),
                result,
                elapsed_us,
            }
        }
        SolveGame::Eight { sum, last } => {
            let root = match Eight::from_parts(*sum, *last) {
                Ok(root) => root,
                Err(error) => {
                    let last = last.map_or(String::new(), |l| format!(" --last {l}"));
                    return fail(format!("--sum {sum}{last}: {error}"));
                }
            };
            let (result, elapsed_us) = timed(&root, algorithm);
            Solved {
                game: "eight",
                position: root.to_string(),
                to_move: "first".into(),
                algorithm,
                best_move: result.best_move,
                result,
                elapsed_us,
            }
        }
    };
    report(args.json, || solved_json(&solved), || solved_text(&solved))
}

pub(super) fn solved_json(s: &Solved) -> serde_json::Value {
    json!({
        "game": s.game,
        "position": s.position,
        "to_move": s.to_move,
        "algorithm": match s.algorithm {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
        },
        "value": s.result.value,
        "best_move": s.best_move,
        "nodes": s.result.stats.nodes,
        "leaves": s.result.stats.leaves,
        "cutoffs": s.result.stats.cutoffs,
        "elapsed_us": (s.elapsed_us * 10.0).round() / 10.0,
    })
}

/// The exact answer a search to the end found, in the words the why overlay uses: the side
/// to move wins or loses in so many of its own moves, or a draw.
pub(super) fn verdict(value: i32) -> String {
    let verdict = Verdict::from_search_value(value);
    if verdict.is_draw() {
        "a draw with best play".into()
    } else {
        format!("the side to move {verdict}")
    }
}

pub(super) fn solved_text(s: &Solved) -> String {
    let who = if s.game == "eight" {
        String::new()
    } else {
        format!(", {} to move", s.to_move.to_uppercase())
    };
    let best = s.best_move.map_or("none".into(), |m| m.to_string());
    format!(
        "{} {}{who}, {}\nvalue      {:+} ({})\nbest move  {best}\nnodes      {}\nleaves     {}\ncut-offs   {}\ntime       {:.1} µs\n",
        s.game,
        s.position,
        s.algorithm,
        s.result.value,
        verdict(s.result.value),
        s.result.stats.nodes,
        s.result.stats.leaves,
        s.result.stats.cutoffs,
        s.elapsed_us,
    )
}
