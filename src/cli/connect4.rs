//! `ai-arcade solve connect4 --moves 4453 [--all] [--json]`: a Connect Four position solved
//! exactly, with its score (0 a draw, else ±(22 − the winner's stones when it wins), positive
//! when the side to move wins), the best column, the nodes searched and the time taken.

use super::exit::{board_echo, fail};
use super::run::report;
use crate::domain::games::connect4::{Board, WIDTH};
use crate::domain::solve::connect4::book::builtin;
use crate::domain::solve::connect4::{Book, Solver};
use serde_json::json;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

/// How to solve.
pub(super) struct How {
    /// Every column's score too.
    pub all: bool,
    /// Whether the opening book may answer.
    pub book: bool,
    /// Threads searching.
    pub threads: usize,
}

/// What was found.
struct Solved {
    moves: String,
    score: i32,
    best: usize,
    scores: Option<[Option<i32>; WIDTH]>,
    nodes: u64,
    seconds: f64,
    /// Positions the book answered (the position's own score, or columns').
    from_book: u64,
    /// The book's depth, if one was used.
    book_depth: Option<i32>,
    threads: usize,
}

/// A score in words, for the side to move.
fn words(score: i32) -> String {
    match score {
        0 => "a draw with best play".into(),
        s if s > 0 => format!(
            "the side to move wins, with its stone {} at the latest",
            22 - s
        ),
        s => format!(
            "the side to move loses: the other wins with its stone {} at the latest",
            22 + s
        ),
    }
}

/// Solves the position after `moves` (its best column from the score of every column).
pub(super) fn solve(moves: &str, how: &How, json_out: bool) -> ExitCode {
    let all = how.all;
    if !(1..=super::bench_solver::MAX_THREADS).contains(&how.threads) {
        return fail(format!(
            "--threads {}: allowed 1..={}",
            how.threads,
            super::bench_solver::MAX_THREADS
        ));
    }
    let board = match Board::parse(moves) {
        Ok(board) => board,
        Err((at, refused)) => {
            return fail(format!(
                "--moves {}: move {at}: {refused}",
                board_echo(moves)
            ));
        }
    };
    if board.is_over() {
        return fail(format!(
            "--moves {}: the game is over ({}): nothing to solve",
            board_echo(moves),
            if board.is_won() {
                "four in a row"
            } else {
                "the board is full"
            }
        ));
    }
    let mut solver = Solver::default().with_threads(how.threads);
    let book = if how.book { builtin() } else { None };
    if let Some(book) = book {
        solver = solver.with_book(book);
    }
    let started = Instant::now();
    let score = solver.solve(&board);
    let (best, scores) = if all {
        let scores = solver.scores(&board);
        (best_of(&scores).0, Some(scores))
    } else {
        (solver.best_move(&board, score) + 1, None)
    };
    let seconds = started.elapsed().as_secs_f64();
    let solved = Solved {
        moves: moves.chars().filter(|c| !c.is_whitespace()).collect(),
        score,
        best,
        scores,
        nodes: solver.nodes,
        seconds,
        from_book: solver.from_book,
        book_depth: book.map(Book::depth),
        threads: how.threads,
    };
    report(json_out, || as_json(&solved), || as_text(&solved))
}

/// The best column (1-based) and its score; ties go to the centre-most column.
fn best_of(scores: &[Option<i32>; WIDTH]) -> (usize, i32) {
    [3, 2, 4, 1, 5, 0, 6]
        .into_iter()
        .filter_map(|column| scores[column].map(|score| (column, score)))
        .fold(
            None,
            |best: Option<(usize, i32)>, (column, score)| match best {
                Some((_, kept)) if kept >= score => best,
                _ => Some((column, score)),
            },
        )
        .map_or((0, 0), |(column, score)| (column + 1, score))
}

fn as_json(s: &Solved) -> serde_json::Value {
    let mut value = json!({
        "game": "connect4",
        "moves": s.moves,
        "score": s.score,
        "best_move": s.best,
        "nodes": s.nodes,
        "seconds": s.seconds,
        "from_book": s.from_book,
        "book_depth": s.book_depth,
        "threads": s.threads,
    });
    if let Some(scores) = &s.scores {
        value["scores"] = json!(scores);
    }
    value
}

fn as_text(s: &Solved) -> String {
    let mut text = format!(
        "connect4 after \"{}\"\nscore      {:+} ({})\nbest move  {}\nnodes      {}\ntime       {:.3} s\n",
        s.moves,
        s.score,
        words(s.score),
        s.best,
        s.nodes,
        s.seconds
    );
    let source = match (s.nodes, s.from_book, s.book_depth) {
        (0, 0, _) => "no search: a four, made or allowed, decides it".to_string(),
        (0, _, _) => "the opening book, no search".to_string(),
        (_, 0, Some(depth)) => format!("search (past the opening book of {depth} moves)"),
        (_, 0, None) => "search alone (--no-book)".to_string(),
        (_, _, _) => "the opening book and a search".to_string(),
    };
    let _ = writeln!(text, "answered   by {source}");
    if let Some(scores) = &s.scores {
        let cells: Vec<String> = scores
            .iter()
            .map(|score| score.map_or("full".into(), |v| format!("{v:+}")))
            .collect();
        let _ = writeln!(text, "columns    {}", cells.join(" "));
    }
    text
}
