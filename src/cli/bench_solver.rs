//! `ai-arcade bench solver`: the exact Connect Four solver timed on a set of positions, each
//! with its table cleared first (as Pascal Pons' benchmark resets his), so every figure is
//! one position's whole search. The set is drawn from the seed, or read from a file, and can
//! be written out so that other solvers are measured on the same positions. `--board 6x5`
//! (or `5x4`) times a smaller board's solver instead, which has no book.

use crate::domain::games::connect4::Grid;
use crate::domain::numbers::thousands;
use crate::domain::solve::connect4::positions::random_positions_on;
use crate::domain::solve::connect4::{Book, GridSolver};
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

/// The boards `bench solver` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum BoardSize {
    /// Connect Four's own 7 columns of 6.
    #[default]
    #[value(name = "7x6")]
    Standard,
    /// 6 columns of 5 (no opening book).
    #[value(name = "6x5")]
    SixByFive,
    /// 5 columns of 4 (no opening book).
    #[value(name = "5x4")]
    FiveByFour,
}

impl BoardSize {
    /// Its cells: the most moves a game has.
    const fn cells(self) -> usize {
        match self {
            Self::Standard => 42,
            Self::SixByFive => 30,
            Self::FiveByFour => 20,
        }
    }

    /// As the flag writes it.
    const fn name(self) -> &'static str {
        match self {
            Self::Standard => "7x6",
            Self::SixByFive => "6x5",
            Self::FiveByFour => "5x4",
        }
    }
}

/// What `bench solver` was asked.
pub struct Plan {
    /// The board the positions are on.
    pub board: BoardSize,
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
    pub board: BoardSize,
    pub positions: usize,
    pub moves: (usize, usize),
    pub from: Option<&'a Path>,
    pub emit: Option<&'a PathBuf>,
    pub seed: u64,
}

/// The positions the flags ask for, checked, and written to `--emit` if given.
pub fn positions(flags: &Flags) -> Result<(Vec<String>, String), String> {
    let (positions, source) = if let Some(path) = flags.from {
        let positions = match flags.board {
            BoardSize::Standard => read_positions::<7, 6>(path)?,
            BoardSize::SixByFive => read_positions::<6, 5>(path)?,
            BoardSize::FiveByFour => read_positions::<5, 4>(path)?,
        };
        (positions, format!("from {}", path.display()))
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
    let cells = flags.board.cells();
    if low > high || high >= cells {
        return Err(format!(
            "--min-moves {low} --max-moves {high}: allowed 0 <= min <= max <= {}",
            cells - 1
        ));
    }
    if !(1..=MAX_POSITIONS).contains(&flags.positions) {
        return Err(format!(
            "--positions {}: allowed 1..={MAX_POSITIONS}",
            flags.positions
        ));
    }
    let set = match flags.board {
        BoardSize::Standard => random_positions_on::<7, 6>(flags.seed, flags.positions, low..=high),
        BoardSize::SixByFive => {
            random_positions_on::<6, 5>(flags.seed, flags.positions, low..=high)
        }
        BoardSize::FiveByFour => {
            random_positions_on::<5, 4>(flags.seed, flags.positions, low..=high)
        }
    }
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
fn read_positions<const W: usize, const H: usize>(path: &Path) -> Result<Vec<String>, String> {
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
        let board = Grid::<W, H>::parse(moves).map_err(|(at, refused)| {
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
    match plan.board {
        BoardSize::Standard => {
            let mut solver = GridSolver::<7, 6>::with_table_bits(plan.table_bits);
            if let Some(book) = plan.book {
                solver = solver.with_book(book);
            }
            run_with(plan, solver)
        }
        BoardSize::SixByFive => {
            run_with(plan, GridSolver::<6, 5>::with_table_bits(plan.table_bits))
        }
        BoardSize::FiveByFour => {
            run_with(plan, GridSolver::<5, 4>::with_table_bits(plan.table_bits))
        }
    }
}

/// [`run`] with `solver`, for the board its size is.
fn run_with<const W: usize, const H: usize>(plan: &Plan, solver: GridSolver<W, H>) -> Report {
    let mut solver = solver.with_threads(plan.threads);
    let timed = plan
        .positions
        .iter()
        .map(|moves| {
            let board = Grid::<W, H>::parse(moves).expect("checked when read");
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
        "{} positions{}, {}; {}; table {} MiB {}; {} thread{}; {}",
        plan.positions.len(),
        match plan.board {
            BoardSize::Standard => String::new(),
            small => format!(" on {}", small.name()),
        },
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
