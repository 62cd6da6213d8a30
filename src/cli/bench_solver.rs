//! `ai-arcade bench solver`: the exact Connect Four solver timed on a set of positions, each
//! with its table cleared first (as Pascal Pons' benchmark resets his), so every figure is
//! one position's whole search. The set is drawn from the seed, or read from a file, and can
//! be written out so that other solvers are measured on the same positions.

use crate::domain::games::connect4::Board;
use crate::domain::numbers::thousands;
use crate::domain::solve::connect4::positions::random_positions;
use crate::domain::solve::connect4::{Book, Solver};
use crate::serve::report::Printable;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most positions one run solves.
pub const MAX_POSITIONS: usize = 10_000;
/// The table sizes allowed, in bits (2^bits slots of 8 bytes: 8 KiB to 8 GiB).
pub const TABLE_BITS: std::ops::RangeInclusive<u32> = 10..=30;
/// The most threads a search may use.
pub const MAX_THREADS: usize = 64;

/// What `bench solver` was asked.
pub struct Plan {
    /// The positions, as column lists.
    pub positions: Vec<String>,
    /// Where they came from, in words.
    pub source: String,
    /// The table's size in bits.
    pub table_bits: u32,
    /// Threads searching each position.
    pub threads: usize,
    /// Every column's score (as the tab asks), not only the position's.
    pub all: bool,
    /// Whether the table is kept from one position to the next.
    pub keep_table: bool,
    /// The opening book, if it is to be used.
    pub book: Option<&'static Book>,
}

/// The flags of `bench solver`, checked.
pub struct Flags<'a> {
    pub positions: usize,
    pub moves: (usize, usize),
    pub from: Option<&'a Path>,
    pub emit: Option<&'a PathBuf>,
    pub seed: u64,
}

/// The positions the flags ask for, checked, and written to `--emit` if given.
pub fn positions(flags: &Flags) -> Result<(Vec<String>, String), String> {
    let (positions, source) = if let Some(path) = flags.from {
        (read_positions(path)?, format!("from {}", path.display()))
    } else {
        random_set(flags)?
    };
    if let Some(path) = flags.emit {
        if path.exists() {
            return Err(format!(
                "--emit {}: the file exists; remove it or name another",
                path.display()
            ));
        }
        let text = positions.join("\n") + "\n";
        crate::persist::write_whole(path, text.as_bytes())
            .map_err(|e| format!("--emit {}: {e}", path.display()))?;
    }
    Ok((positions, source))
}

/// `--positions` random positions as the flags ask, and how they were drawn, in words.
fn random_set(flags: &Flags) -> Result<(Vec<String>, String), String> {
    let (low, high) = flags.moves;
    if low > high || high >= crate::domain::games::connect4::CELLS {
        return Err(format!(
            "--min-moves {low} --max-moves {high}: allowed 0 <= min <= max <= 41"
        ));
    }
    if !(1..=MAX_POSITIONS).contains(&flags.positions) {
        return Err(format!(
            "--positions {}: allowed 1..={MAX_POSITIONS}",
            flags.positions
        ));
    }
    let set = random_positions(flags.seed, flags.positions, low..=high)
        .ok_or_else(|| format!("no random game of {low}-{high} moves keeps going"))?;
    let words = format!(
        "random games of {low}-{high} moves from seed {} (every column equally likely; no four \
         made, and the side to move cannot make one at once)",
        flags.seed
    );
    Ok((set, words))
}

/// The positions in `path`: one column list a line; blank lines and `#` comments skipped,
/// and anything after the first word of a line (a score, as solvers' test files have).
fn read_positions(path: &Path) -> Result<Vec<String>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("--from {}: {e}", path.display()))?;
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let Some(moves) = line
            .split_whitespace()
            .next()
            .filter(|w| !w.starts_with('#'))
        else {
            continue;
        };
        let board = Board::parse(moves).map_err(|(at, refused)| {
            format!("{}:{}: move {at}: {refused}", path.display(), number + 1)
        })?;
        if board.is_over() {
            return Err(format!(
                "{}:{}: the game is over: nothing to solve",
                path.display(),
                number + 1
            ));
        }
        if positions.len() == MAX_POSITIONS {
            return Err(format!(
                "--from {}: more than {MAX_POSITIONS} positions",
                path.display()
            ));
        }
        positions.push(moves.to_string());
    }
    if positions.is_empty() {
        return Err(format!("--from {}: no positions", path.display()));
    }
    Ok(positions)
}

/// One position's result.
struct Timed {
    moves: String,
    score: i32,
    nodes: u64,
    seconds: f64,
    from_book: bool,
}

/// What a run measured.
pub struct Report {
    plan_words: String,
    timed: Vec<Timed>,
    threads: usize,
    table_bytes: usize,
}

/// Solves every position of `plan`, each with the table cleared first.
pub fn run(plan: &Plan) -> Report {
    let mut solver = Solver::with_table_bits(plan.table_bits).with_threads(plan.threads);
    if let Some(book) = plan.book {
        solver = solver.with_book(book);
    }
    let timed = plan
        .positions
        .iter()
        .map(|moves| {
            let board = Board::parse(moves).expect("checked when read");
            if !plan.keep_table {
                solver.clear();
            }
            solver.reset_nodes();
            let started = Instant::now();
            let score = if plan.all {
                let scores = solver.scores(&board);
                scores.into_iter().flatten().max().unwrap_or(0)
            } else {
                solver.solve(&board)
            };
            let seconds = started.elapsed().as_secs_f64();
            Timed {
                moves: moves.clone(),
                score,
                nodes: solver.nodes,
                seconds,
                from_book: solver.from_book > 0 && solver.nodes == 0,
            }
        })
        .collect();
    Report {
        plan_words: plan_words(plan),
        timed,
        threads: plan.threads,
        table_bytes: solver.table_bytes(),
    }
}

fn plan_words(plan: &Plan) -> String {
    format!(
        "{} positions, {}; {}; table {} MiB {}; {} thread{}; {}",
        plan.positions.len(),
        plan.source,
        if plan.all {
            "every column's score (as the tab asks)"
        } else {
            "the position's score"
        },
        (8usize << plan.table_bits) >> 20,
        if plan.keep_table {
            "kept from one position to the next"
        } else {
            "cleared before each"
        },
        plan.threads,
        if plan.threads == 1 { "" } else { "s" },
        match plan.book {
            Some(book) => format!(
                "the opening book ({} positions)",
                thousands(book.len() as u64)
            ),
            None => "no opening book".to_string(),
        }
    )
}

impl Report {
    fn total_seconds(&self) -> f64 {
        self.timed.iter().map(|t| t.seconds).sum()
    }

    fn total_nodes(&self) -> u64 {
        self.timed.iter().map(|t| t.nodes).sum()
    }

    fn max_seconds(&self) -> f64 {
        self.timed.iter().map(|t| t.seconds).fold(0.0, f64::max)
    }

    fn per_second(&self, count: f64) -> f64 {
        count / self.total_seconds().max(1e-9)
    }
}

impl Printable for Report {
    fn text(&self) -> String {
        let mut text = format!("connect4 solver: {}\n", self.plan_words);
        let _ = writeln!(
            text,
            "{:<16} {:>5} {:>14} {:>10}",
            "moves", "score", "nodes", "ms"
        );
        for t in &self.timed {
            let _ = writeln!(
                text,
                "{:<16} {:>+5} {:>14} {:>10.1}{}",
                t.moves,
                t.score,
                thousands(t.nodes),
                t.seconds * 1e3,
                if t.from_book { "  (book)" } else { "" }
            );
        }
        let count = self.timed.len() as f64;
        let _ = writeln!(
            text,
            "total {:.3} s · mean {:.1} ms · max {:.1} ms · {:.2} positions/s · {} nodes · {:.2} M nodes/s",
            self.total_seconds(),
            self.total_seconds() * 1e3 / count,
            self.max_seconds() * 1e3,
            self.per_second(count),
            thousands(self.total_nodes()),
            self.per_second(self.total_nodes() as f64) / 1e6,
        );
        text
    }

    fn json(&self) -> serde_json::Value {
        let count = self.timed.len() as f64;
        serde_json::json!({
            "plan": self.plan_words,
            "threads": self.threads,
            "table_bytes": self.table_bytes,
            "positions": self.timed.iter().map(|t| serde_json::json!({
                "moves": t.moves,
                "score": t.score,
                "nodes": t.nodes,
                "seconds": t.seconds,
                "from_book": t.from_book,
            })).collect::<Vec<_>>(),
            "total_seconds": self.total_seconds(),
            "mean_ms": self.total_seconds() * 1e3 / count,
            "max_ms": self.max_seconds() * 1e3,
            "positions_per_second": self.per_second(count),
            "nodes": self.total_nodes(),
            "nodes_per_second": self.per_second(self.total_nodes() as f64),
        })
    }
}

/// Checks the numeric flags.
pub fn check(table_bits: u32, threads: usize) -> Result<(), String> {
    if !TABLE_BITS.contains(&table_bits) {
        return Err(format!(
            "--table-bits {table_bits}: allowed {}..={}",
            TABLE_BITS.start(),
            TABLE_BITS.end()
        ));
    }
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(format!("--threads {threads}: allowed 1..={MAX_THREADS}"));
    }
    Ok(())
}
