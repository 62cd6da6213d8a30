//! `ai-arcade bench` on the command line: its flags, their bounds (a value out of bounds
//! exits with status 2 before anything runs), and the report printed with the exit status.
//! `bench mcts` is here whole, since it only times the domain's search (the clock lives in
//! the command line, never in the domain). The load and attack tools against a server,
//! `bench ssh` (with `--slowloris`) and `bench room`, exist only in a build with the
//! `bench-tools` feature: what they do is in `crate::serve::bench`, `slowloris` and
//! `bench_room`.

use super::bench_solver;
use super::exit::fail;
use super::watch;
use crate::config::Config;
use crate::domain::games::{connect4, tictactoe};
use crate::domain::numbers::thousands;
use crate::domain::search::mcts::{DEFAULT_EXPLORATION, Mcts, Rollout};
use crate::serve::report::Printable;
#[cfg(feature = "bench-tools")]
use crate::serve::{
    bench::{self, MAX_SECONDS, MAX_SESSIONS, MAX_WARMUP_KEYS, Plan},
    bench_room, lockout_bench, slowloris,
};
use crate::tabkit::speed::Speed;
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The most iterations `bench mcts` runs: about half a minute at the measured speed, and a
/// tree within the node limit's memory.
pub const MAX_MCTS_ITERATIONS: u64 = 10_000_000;

/// `bench` and what it measures.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// What to measure.
    #[command(subcommand)]
    pub what: BenchWhat,
}

/// The benchmarks.
#[derive(Debug, Subcommand)]
pub enum BenchWhat {
    /// N SSH clients against a server started for the run, on loopback.
    #[cfg(feature = "bench-tools")]
    Ssh {
        /// Concurrent clients (1-1000).
        #[arg(long, default_value_t = 100)]
        sessions: usize,
        /// Seconds to measure (1-600).
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Instead: hold 144 silent connections from 127.0.0.2..=127.0.0.9 against a server
        /// with the built-in limits, and time 20 logins from 127.0.0.10.
        #[arg(long)]
        slowloris: bool,
        /// Instead: start a server with a class code, run these attacks (issue 35) and time
        /// 40 students arriving at once from 127.0.0.10: none, queue, prompt, addresses,
        /// churn, seats or all; or health: time 8 health checks past 200 silent sockets.
        #[arg(long, value_name = "MIX")]
        attack: Option<lockout_bench::Attack>,
        /// How many of the sessions train a network (Subtraction Nim) instead of pressing
        /// keys.
        #[arg(long, default_value_t = 0)]
        training: usize,
        /// Random Tic-tac-toe keys each key-pressing session plays before the measurement
        /// (0-10000; seeded by the session's number).
        #[arg(long, default_value_t = 0)]
        warmup_keys: usize,
        /// The warm-up's keys come from every tab (all printable keys but q, the function
        /// keys, Tab, Enter, Esc, arrows), as a hostile client floods them.
        #[arg(long, requires = "warmup_keys")]
        hostile: bool,
        /// How many of the sessions (after the training ones) flood random hostile keys
        /// from every tab, ten every 5 ms, until the end; the others are timed bystanders.
        #[arg(long, default_value_t = 0)]
        flooding: usize,
        /// Run this executable as the server instead of this one (to measure another build
        /// the same way); it must accept the same `serve` options.
        #[arg(long, value_name = "PATH")]
        server: Option<PathBuf>,
        /// The sessions are browsers' pages: the server serves --web too, and each client
        /// opens the page's WebSocket and types its name at the prompt, as the page does.
        #[arg(long)]
        web: bool,
    },
    /// A teacher's view of a room of N students (an open server on loopback): the time
    /// from a student's tab switch to the teacher's frame showing it, over 100 switches.
    #[cfg(feature = "bench-tools")]
    Room {
        /// Students seated (1-200).
        #[arg(long, default_value_t = 40)]
        students: usize,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The Subtraction tab training its network while it is watched (headless, 80x24), at
    /// a speed, beside the same training as `train subtraction` runs it.
    Watch {
        /// The training speed: slow (every epoch drawn), normal or fast.
        #[arg(long, default_value = "fast", value_parser = ["slow", "normal", "fast"])]
        speed: String,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The exact Connect Four solver on a set of positions, each with its table cleared:
    /// time and nodes a position. The set: --positions random games of --min-moves to
    /// --max-moves moves from --seed (the config's seed, or 7), where the game goes on and
    /// the side to move cannot win at once; or --from FILE. --emit FILE writes the set, for
    /// other solvers.
    Solver(SolverArgs),
    /// Monte Carlo tree search (UCT, random rollouts) from the empty board on one thread:
    /// iterations per second, the tree's size and the move it chose. Seeded by --seed, the
    /// config's seed, or 7.
    Mcts {
        /// The game searched.
        #[arg(long, value_enum)]
        game: MctsGame,
        /// Iterations to run (1-10000000).
        #[arg(long, default_value_t = 100_000)]
        iterations: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// The flags of `bench solver`: each bool is a switch on the command line.
#[derive(Debug, Args)]
#[allow(clippy::struct_excessive_bools)]
pub struct SolverArgs {
    /// The board: Connect Four's 7x6, or a smaller 6x5 or 5x4 (which have no opening book).
    #[arg(long, value_enum, default_value_t)]
    board: bench_solver::BoardSize,
    /// How many random positions (1-10000).
    #[arg(long, default_value_t = 20)]
    positions: usize,
    /// The fewest moves of a random position.
    #[arg(long, default_value_t = 8)]
    min_moves: usize,
    /// The most moves of a random position (at most 41; 29 on 6x5, 19 on 5x4).
    #[arg(long, default_value_t = 12)]
    max_moves: usize,
    /// Read the positions from this file instead (one column list a line, as "4453").
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Write the positions to this file too, one a line, for other solvers.
    #[arg(long, value_name = "FILE")]
    emit: Option<PathBuf>,
    /// Threads searching each position, sharing the table.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The table's size: 2^BITS slots of 8 bytes (10-30; 23 is 64 MiB).
    #[arg(long, default_value_t = crate::domain::solve::connect4::DEFAULT_TABLE_BITS)]
    table_bits: u32,
    /// Every column's score, as the tab asks, rather than the position's alone.
    #[arg(long)]
    all: bool,
    /// Let the opening book answer the positions it holds and stop the searches there.
    #[arg(long)]
    book: bool,
    /// Keep the table from one position to the next (as a player does through a game)
    /// instead of clearing it before each.
    #[arg(long)]
    keep_table: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The games `bench mcts` searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MctsGame {
    /// Connect Four, 7 columns of 6.
    Connect4,
    /// Tic-tac-toe, X to move.
    Tictactoe,
}

impl MctsGame {
    /// The name the flag takes.
    const fn name(self) -> &'static str {
        match self {
            Self::Connect4 => "connect4",
            Self::Tictactoe => "tictactoe",
        }
    }
}

/// The `bench` command.
pub fn command(args: &BenchArgs, config: &Config, seed: u64) -> ExitCode {
    match args.what {
        #[cfg(feature = "bench-tools")]
        BenchWhat::Ssh {
            sessions,
            seconds,
            json,
            slowloris,
            attack,
            training,
            warmup_keys,
            hostile,
            flooding,
            ref server,
            web,
        } => {
            if slowloris {
                return print_report(slowloris::run(), json, "bench ssh --slowloris");
            }
            if let Some(attack) = attack {
                let report = lockout_bench::run(attack, server.as_ref());
                return print_report(report, json, "bench ssh --attack");
            }
            if !(1..=MAX_SESSIONS).contains(&sessions) {
                return fail(format!("--sessions {sessions}: allowed 1..={MAX_SESSIONS}"));
            }
            if !(1..=MAX_SECONDS).contains(&seconds) {
                return fail(format!("--seconds {seconds}: allowed 1..={MAX_SECONDS}"));
            }
            if training > sessions {
                return fail(format!(
                    "--training {training}: at most --sessions ({sessions})"
                ));
            }
            if training + flooding >= sessions && flooding > 0 {
                return fail(format!(
                    "--flooding {flooding}: leave at least one of --sessions ({sessions}) to time"
                ));
            }
            if warmup_keys > MAX_WARMUP_KEYS {
                return fail(format!(
                    "--warmup-keys {warmup_keys}: allowed 0..={MAX_WARMUP_KEYS}"
                ));
            }
            let plan = Plan {
                sessions,
                training,
                warmup_keys,
                hostile,
                flooding,
                window: Duration::from_secs(seconds),
                server: server.clone(),
                web,
            };
            print_report(bench::run(&plan), json, "bench ssh")
        }
        #[cfg(feature = "bench-tools")]
        BenchWhat::Room { students, json } => {
            if !(1..=bench_room::MAX_STUDENTS).contains(&students) {
                return fail(format!(
                    "--students {students}: allowed 1..={}",
                    bench_room::MAX_STUDENTS
                ));
            }
            print_report(bench_room::run(students), json, "bench room")
        }
        BenchWhat::Watch { ref speed, json } => {
            let speed = Speed::ALL
                .into_iter()
                .find(|s| s.name() == speed)
                .unwrap_or_default();
            let report = watch::measure(config, seed, speed);
            print_report(Ok::<_, String>(report), json, "bench watch")
        }
        BenchWhat::Mcts {
            game,
            iterations,
            json,
        } => mcts_command(game, iterations, seed, json),
        BenchWhat::Solver(ref args) => solver_command(args, seed),
    }
}

/// `bench solver`: checks the flags, draws or reads the positions, and times the solver.
fn solver_command(args: &SolverArgs, seed: u64) -> ExitCode {
    if let Err(refused) = bench_solver::check(args.table_bits, args.threads) {
        return fail(refused);
    }
    if args.book && args.board != bench_solver::BoardSize::Standard {
        return fail("--book: the opening book is for the 7x6 board only");
    }
    let flags = bench_solver::Flags {
        board: args.board,
        positions: args.positions,
        moves: (args.min_moves, args.max_moves),
        from: args.from.as_deref(),
        emit: args.emit.as_ref(),
        seed,
    };
    let (positions, source) = match bench_solver::positions(&flags) {
        Ok(found) => found,
        Err(refused) => return fail(refused),
    };
    let plan = bench_solver::Plan {
        board: args.board,
        positions,
        source,
        table_bits: args.table_bits,
        threads: args.threads,
        all: args.all,
        keep_table: args.keep_table,
        book: if args.book {
            crate::domain::solve::connect4::book::builtin()
        } else {
            None
        },
    };
    print_report(
        Ok::<_, String>(bench_solver::run(&plan)),
        args.json,
        "bench solver",
    )
}

/// `bench mcts`: checks `--iterations`, then runs and times the search.
fn mcts_command(game: MctsGame, iterations: u64, seed: u64, json: bool) -> ExitCode {
    if !(1..=MAX_MCTS_ITERATIONS).contains(&iterations) {
        return fail(format!(
            "--iterations {iterations}: allowed 1..={MAX_MCTS_ITERATIONS}"
        ));
    }
    let report = match game {
        MctsGame::Connect4 => time_mcts(game, connect4::Board::new(), iterations, seed, |column| {
            format!("column {}", column + 1)
        }),
        MctsGame::Tictactoe => time_mcts(
            game,
            tictactoe::Board::empty(tictactoe::Mark::X),
            iterations,
            seed,
            |cell| format!("cell {}", cell + 1),
        ),
    };
    print_report(Ok::<_, String>(report), json, "bench mcts")
}

/// What one `bench mcts` run measured.
pub struct MctsReport {
    game: MctsGame,
    seed: u64,
    exploration: f64,
    iterations: u64,
    elapsed: Duration,
    nodes: usize,
    slots: usize,
    node_limit: usize,
    /// The chosen move (1-based, as people number columns and cells), in words ("column
    /// 4"), its `N` and `W/N`; `None` if nothing was chosen (no game here ends before its
    /// first move).
    chosen: Option<Chosen>,
}

/// The move a `bench mcts` run chose, with its numbers.
struct Chosen {
    number: u8,
    words: String,
    visits: u64,
    mean: f64,
}

/// Runs `iterations` of MCTS from `root` on this thread and times them; `name` words a
/// move for people.
fn time_mcts<G: Rollout<Move = u8>>(
    game: MctsGame,
    root: G,
    iterations: u64,
    seed: u64,
    name: impl Fn(u8) -> String,
) -> MctsReport {
    let mut mcts = Mcts::new(root, DEFAULT_EXPLORATION, seed);
    let started = Instant::now();
    mcts.run(iterations);
    let elapsed = started.elapsed();
    let chosen = mcts.best_move().and_then(|mv| {
        let stats = mcts.root_moves().into_iter().find(|stats| stats.mv == mv)?;
        Some(Chosen {
            number: mv + 1,
            words: name(mv),
            visits: stats.visits,
            mean: stats.mean,
        })
    });
    MctsReport {
        game,
        seed,
        exploration: DEFAULT_EXPLORATION,
        iterations: mcts.iterations(),
        elapsed,
        nodes: mcts.node_count(),
        slots: mcts.slot_count(),
        node_limit: mcts.node_limit(),
        chosen,
    }
}

impl MctsReport {
    fn per_second(&self) -> f64 {
        self.iterations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl Printable for MctsReport {
    fn text(&self) -> String {
        let chosen = self.chosen.as_ref().map_or_else(
            || "none".to_string(),
            |chosen| {
                format!(
                    "{}, N {}, W/N {:.3}",
                    chosen.words,
                    thousands(chosen.visits),
                    chosen.mean
                )
            },
        );
        format!(
            "mcts on {} from the empty board, one thread, seed {}, exploration {:.3}\n\
             iterations   {}\nseconds      {:.3}\nper second   {}\ntree nodes   {} ({} node \
             slots reserved, at most {})\nchosen move  {chosen}\n",
            self.game.name(),
            self.seed,
            self.exploration,
            thousands(self.iterations),
            self.elapsed.as_secs_f64(),
            thousands(self.per_second().round() as u64),
            thousands(self.nodes as u64),
            thousands(self.slots as u64),
            thousands(self.node_limit as u64),
        )
    }

    fn json(&self) -> serde_json::Value {
        let chosen = self.chosen.as_ref();
        serde_json::json!({
            "game": self.game.name(),
            "seed": self.seed,
            "exploration": self.exploration,
            "iterations": self.iterations,
            "seconds": self.elapsed.as_secs_f64(),
            "iterations_per_second": self.per_second(),
            "nodes": self.nodes,
            "slots": self.slots,
            "node_limit": self.node_limit,
            "move": chosen.map(|c| c.number),
            "move_visits": chosen.map(|c| c.visits),
            "move_mean": chosen.map(|c| c.mean),
        })
    }
}

/// Prints a bench's report (or why it could not run, naming the `command`) and gives the
/// exit status.
fn print_report(outcome: Result<impl Printable, String>, json: bool, command: &str) -> ExitCode {
    match outcome {
        Ok(report) if json => println!("{}", report.json()),
        Ok(report) => print!("{}", report.text()),
        Err(error) => {
            eprintln!("ai-arcade: {command}: {error}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
