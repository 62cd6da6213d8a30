//! `ai-arcade train selfplay` and `ai-arcade play selfplay`: the AlphaZero-style learner
//! trained for a time (with its curve measured on the way and written as CSV), and asked
//! for its move in a position with every number behind it.

use super::args::{Cli, SelfPlayGame, TrainArgs};
use super::exit::{board_echo, fail};
use super::progress::Training;
use super::run::{report, run_seed, training_dir};
use super::saving::{self, Plan};
use crate::config;
use crate::domain::games::connect4::{Board as Connect4, Grid, SmallBoard};
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::learn::selfplay::judge::curve_point;
use crate::domain::learn::selfplay::learnable::Learnable;
use crate::domain::learn::selfplay::net::PolicyValueNet;
use crate::domain::learn::selfplay::puct::{Puct, PuctSettings, ROOT};
use crate::domain::learn::selfplay::referee::Refereed;
use crate::domain::learn::selfplay::saved::{CurvePoint, SavedLearner, Versus};
use crate::domain::learn::selfplay::trainer::{SelfPlaySettings, Trainer};
use crate::domain::learn::selfplay::versus::versus_fixed_opponents;
use crate::persist::ModelKind as _;
use crate::persist::Store;
use crate::persist::model_files::SelfPlayFile;
use rand::SeedableRng as _;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What `train selfplay` was asked.
pub(super) struct TrainRequest<'a> {
    pub(super) game: SelfPlayGame,
    pub(super) minutes: Option<f64>,
    pub(super) games: Option<u64>,
    pub(super) fresh: bool,
    pub(super) curve: Option<&'a Path>,
    pub(super) threads: usize,
    /// Measurements on the way: the curve gains this many points (and one at the start
    /// of a new learner).
    pub(super) points: u32,
    /// Simulations of the search that grades the curve (none: the self-play search's).
    pub(super) grade_simulations: Option<u32>,
}

/// When a run stops: a time, and perhaps a number of games.
#[derive(Debug, Clone, Copy)]
struct Budget {
    time: Duration,
    games: Option<u64>,
}

impl Budget {
    /// The share of the budget used (0 to 1), by whichever limit is nearer.
    fn used(&self, trained: Duration, games: u64) -> f64 {
        let by_time = trained.as_secs_f64() / self.time.as_secs_f64();
        let by_games = self.games.map_or(0.0, |n| games as f64 / n as f64);
        by_time.max(by_games).min(1.0)
    }
}

pub(super) fn train_selfplay(
    cli: &Cli,
    config: &config::Config,
    args: &TrainArgs,
    request: &TrainRequest,
) -> ExitCode {
    match request.game {
        SelfPlayGame::Tictactoe => train_game(
            cli,
            config,
            args,
            request,
            Board::empty(Mark::X),
            SelfPlaySettings::tictactoe,
        ),
        SelfPlayGame::Connect4Small => train_game(
            cli,
            config,
            args,
            request,
            SmallBoard::new(),
            SelfPlaySettings::small_board,
        ),
        SelfPlayGame::Connect4 => train_game(
            cli,
            config,
            args,
            request,
            Connect4::new(),
            SelfPlaySettings::connect4,
        ),
    }
}

/// Trains the learner of `G` from `start` (settings from `settings(seed)` for a new one).
fn train_game<G: Learnable + Judged>(
    cli: &Cli,
    config: &config::Config,
    args: &TrainArgs,
    request: &TrainRequest,
    start: G,
    settings: fn(u64) -> SelfPlaySettings,
) -> ExitCode {
    let dir = match training_dir(cli, config) {
        Ok(dir) => dir,
        Err(exit) => return exit,
    };
    let store = Store::new(dir);
    let kind = SelfPlayFile::<G>::default();
    let path = store.path(kind.file().name);
    let seed = run_seed(cli, None, config.seed);
    let (mut trainer, plan, mut curve, seconds_before) = match store.load_kind(&kind) {
        Ok(Some(found)) if !request.fresh => {
            eprintln!(
                "resuming {} after {} games",
                path.display(),
                found.model.games
            );
            let saved = found.model;
            let (curve, seconds) = (saved.curve.clone(), saved.seconds);
            let trainer = Trainer::resume(start, saved).with_threads(request.threads);
            (trainer, Plan::Continue(found.stamp), curve, seconds)
        }
        found => {
            if let Err(error) = &found {
                eprintln!("not resuming: {error}");
            }
            let plan = match found {
                Ok(Some(found)) => saving::training(found.model.games, "self-play games")
                    .map_or(Plan::New, Plan::Replace),
                _ => Plan::New,
            };
            seed.announce();
            let trainer = Trainer::new(start, settings(seed.value)).with_threads(request.threads);
            (trainer, plan, Vec::new(), 0.0)
        }
    };
    if let Err(exit) = saving::before_training(&store, kind.file(), &plan, args.yes) {
        return exit;
    }
    let budget = Budget {
        time: Duration::from_secs_f64(request.minutes.unwrap_or(1.0) * 60.0),
        games: request.games,
    };
    let first_games = trainer.progress().games;
    let graded_with = request
        .grade_simulations
        .unwrap_or(trainer.settings().simulations);
    let run = Training::start(budget.time.as_secs(), "s");
    let mut trained = Duration::ZERO;
    let mut measuring = Duration::ZERO;
    if curve.is_empty() {
        curve.push(measure(&trainer, 0.0, graded_with, &mut measuring));
    }
    for checkpoint in 1..=request.points {
        let until = f64::from(checkpoint) / f64::from(request.points);
        while budget.used(trained, trainer.progress().games - first_games) < until
            && !run.stop_requested()
        {
            let started = Instant::now();
            trainer.step();
            trained += started.elapsed();
            let progress = trainer.progress();
            run.show(trained.as_secs(), || {
                format!(
                    "{} games, loss {:.3}+{:.3}",
                    progress.games, progress.losses.policy, progress.losses.value
                )
            });
        }
        if run.stop_requested() {
            break;
        }
        let seconds = seconds_before + trained.as_secs_f64();
        curve.push(measure(&trainer, seconds, graded_with, &mut measuring));
    }
    if let Err(exit) = run.finish(trained.as_secs()) {
        return exit;
    }
    let seconds = seconds_before + trained.as_secs_f64();
    let saved = trainer.saved(seconds, curve);
    let saved_to = match saving::save(&store, &kind, &saved, &plan) {
        Ok(path) => path,
        Err(error) => return fail(error),
    };
    let curve_path = request.curve.map_or_else(
        || store.path(&format!("selfplay-{}-curve.csv", G::NAME)),
        Path::to_path_buf,
    );
    if let Err(error) = crate::persist::write_whole(&curve_path, curve_csv(&saved.curve).as_bytes())
    {
        return fail(format!("could not write {}: {error}", curve_path.display()));
    }
    let summary = TrainReport {
        saved: &saved,
        graded_with,
        games_this_run: saved.games - first_games,
        trained,
        measuring,
        saved_to,
        curve_path,
    };
    report(args.json, || summary.json(), || summary.text())
}

/// The curve as CSV, a header and a row a point.
fn curve_csv(curve: &[CurvePoint]) -> String {
    let mut text = format!("{}\n", CurvePoint::CSV_HEADER);
    for point in curve {
        text.push_str(&point.csv_row());
        text.push('\n');
    }
    text
}

/// One point of the curve, graded with a search of `simulations`, its time added to
/// `measuring`.
fn measure<G: Learnable + Judged>(
    trainer: &Trainer<G>,
    seconds: f64,
    simulations: u32,
    measuring: &mut Duration,
) -> CurvePoint {
    let started = Instant::now();
    let point = CurvePoint {
        versus: G::versus(&trainer.net, trainer.settings()),
        ..curve_point(trainer, G::graded(), seconds, simulations)
    };
    *measuring += started.elapsed();
    point
}

/// A game the command line trains and asks: its exact answer (the domain's [`Refereed`]),
/// its fixed opponents where it has them, and its moves as the command line writes them.
pub(super) trait Judged: Refereed {
    /// Its scores against the fixed opponents, where the game has them.
    fn versus(_net: &PolicyValueNet, _settings: &SelfPlaySettings) -> Option<Versus> {
        None
    }
    /// The move at `index` as the command line writes it.
    fn move_words(index: usize) -> String {
        (index + 1).to_string()
    }
}

impl Judged for Board {}

impl Judged for SmallBoard {}

impl Judged for Connect4 {
    fn versus(net: &PolicyValueNet, settings: &SelfPlaySettings) -> Option<Versus> {
        Some(versus_fixed_opponents(net, settings))
    }
}

/// What `train selfplay` prints.
struct TrainReport<'a> {
    saved: &'a SavedLearner,
    /// Simulations of the search that graded the curve.
    graded_with: u32,
    games_this_run: u64,
    trained: Duration,
    measuring: Duration,
    saved_to: PathBuf,
    curve_path: PathBuf,
}

impl TrainReport<'_> {
    fn last(&self) -> CurvePoint {
        self.saved
            .curve
            .last()
            .copied()
            .expect("the curve has its first point")
    }

    fn per_second(&self, count: f64) -> f64 {
        count / self.trained.as_secs_f64().max(1e-9)
    }

    fn json(&self) -> serde_json::Value {
        let last = self.last();
        let moves_this_run =
            self.saved.moves as f64 * self.games_this_run as f64 / self.saved.games.max(1) as f64;
        json!({
            "learner": "selfplay",
            "game": self.saved.game,
            "seed": self.saved.settings.seed,
            "parameters": self.saved.net.parameter_count(),
            "simulations": self.saved.settings.simulations,
            "grade_simulations": self.graded_with,
            "games": self.saved.games,
            "games_this_run": self.games_this_run,
            "seconds": (self.saved.seconds * 100.0).round() / 100.0,
            "seconds_this_run": (self.trained.as_secs_f64() * 100.0).round() / 100.0,
            "measuring_seconds": (self.measuring.as_secs_f64() * 100.0).round() / 100.0,
            "games_per_second": self.per_second(self.games_this_run as f64).round(),
            "moves_per_second": self.per_second(moves_this_run).round(),
            "policy_loss": last.policy_loss,
            "value_loss": last.value_loss,
            "network_kept_percent": last.network_kept,
            "searched_kept_percent": last.searched_kept,
            "curve": self.curve_path.display().to_string(),
            "saved_to": self.saved_to.display().to_string(),
        })
    }

    fn text(&self) -> String {
        let last = self.last();
        format!(
            "self-play learner of {}, seed {}\n\
             network        {} parameters, trunk {:?}\n\
             games          {} ({} this run, {:.0} a second)\n\
             training       {:.1} s this run ({:.1} s measuring besides), {:.1} s in all\n\
             losses         policy {:.4}, value {:.4}\n\
             keeps value    {:.2}% network alone, {:.2}% with {} simulations\n\
             curve          {}\n\
             saved to       {}\n",
            self.saved.game,
            self.saved.settings.seed,
            self.saved.net.parameter_count(),
            self.saved.settings.widths,
            self.saved.games,
            self.games_this_run,
            self.per_second(self.games_this_run as f64),
            self.trained.as_secs_f64(),
            self.measuring.as_secs_f64(),
            self.saved.seconds,
            last.policy_loss,
            last.value_loss,
            last.network_kept,
            last.searched_kept,
            self.graded_with,
            self.curve_path.display(),
            self.saved_to.display()
        )
    }
}

/// `play selfplay`: the learner's move in a position, with every number behind it.
pub(super) fn play_selfplay(
    cli: &Cli,
    json_out: bool,
    game: SelfPlayGame,
    position: &Written,
    simulations: Option<u32>,
) -> ExitCode {
    match game {
        SelfPlayGame::Tictactoe => match Board::parse(position.board, None) {
            Ok(board) => play_position(cli, json_out, board, board.to_string(), simulations),
            Err(error) => fail(format!("--board {}: {error}", board_echo(position.board))),
        },
        SelfPlayGame::Connect4Small => {
            play_grid::<5, 4>(cli, json_out, position.moves, simulations)
        }
        SelfPlayGame::Connect4 => play_grid::<7, 6>(cli, json_out, position.moves, simulations),
    }
}

/// The position `play selfplay` was given: `--board` for tic-tac-toe, `--moves` for the
/// four-in-a-row boards.
pub(super) struct Written<'a> {
    pub(super) board: &'a str,
    pub(super) moves: &'a str,
}

fn play_grid<const W: usize, const H: usize>(
    cli: &Cli,
    json_out: bool,
    moves: &str,
    simulations: Option<u32>,
) -> ExitCode
where
    Grid<W, H>: Judged,
{
    match Grid::<W, H>::parse(moves) {
        Ok(position) => {
            let columns: String = moves.chars().filter(|c| !c.is_whitespace()).collect();
            let written = if columns.is_empty() {
                "the empty board".to_string()
            } else {
                columns
            };
            play_position(cli, json_out, position, written, simulations)
        }
        Err((index, refused)) => fail(format!(
            "--moves {}: move {index}: {refused}",
            board_echo(moves)
        )),
    }
}

fn play_position<G: Learnable + Judged>(
    cli: &Cli,
    json_out: bool,
    position: G,
    written: String,
    simulations: Option<u32>,
) -> ExitCode {
    if position.result().is_some() {
        return fail(format!("the game is over at {written}: no move to play"));
    }
    let dir = match super::run::data_dir(cli) {
        Ok(dir) => dir,
        Err(error) => return fail(error),
    };
    let store = Store::new(dir);
    let kind = SelfPlayFile::<G>::default();
    let saved = match store.load_kind(&kind) {
        Ok(Some(found)) => found.model,
        Ok(None) => {
            return fail(format!(
                "no trained learner of {} in {}: `ai-arcade train selfplay --game {}` trains \
                 one",
                G::NAME,
                store.dir().display(),
                G::NAME
            ));
        }
        Err(error) => return fail(error),
    };
    let answer = Answer::of(
        &saved,
        position,
        written,
        simulations.unwrap_or(saved.settings.simulations),
    );
    report(json_out, || answer.json(), || answer.text())
}

/// One move of a position: what the network and the search make of it, and the truth.
struct MoveFigures {
    name: String,
    prior: f32,
    visits: u32,
    q: f32,
    u: f32,
    exact: String,
}

/// The learner's answer in a position.
struct Answer {
    game: String,
    position: String,
    value: f32,
    network_move: String,
    chosen: String,
    simulations: u32,
    moves: Vec<MoveFigures>,
}

impl Answer {
    fn of<G: Learnable + Judged>(
        saved: &SavedLearner,
        position: G,
        written: String,
        simulations: u32,
    ) -> Self {
        let net = &saved.net;
        let evaluation = net.evaluate(&position.encode(), &position.legal());
        let settings = PuctSettings {
            c_puct: saved.settings.c_puct,
            noise: None,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(saved.settings.seed);
        let mut evaluator = net;
        let mut tree = Puct::new(position, settings, &mut evaluator, &mut rng);
        tree.run(simulations, &mut evaluator);
        let favourite = (0..G::MOVES)
            .filter(|&i| position.legal()[i])
            .max_by(|&a, &b| {
                evaluation.priors[a]
                    .total_cmp(&evaluation.priors[b])
                    .then(b.cmp(&a))
            })
            .unwrap_or(0);
        let chosen = if simulations == 0 {
            favourite
        } else {
            tree.choose(0.0, &mut rng)
        };
        let verdicts = position.verdicts(&mut G::referee());
        let moves = tree
            .edges(ROOT)
            .iter()
            .map(|edge| MoveFigures {
                name: G::move_words(edge.index),
                prior: edge.prior,
                visits: edge.visits,
                q: edge.mean,
                u: edge.explore,
                exact: verdicts[edge.index]
                    .map_or_else(|| "not legal".to_string(), |verdict| verdict.to_string()),
            })
            .collect();
        Self {
            game: G::NAME.to_string(),
            position: written,
            value: evaluation.value,
            network_move: G::move_words(favourite),
            chosen: G::move_words(chosen),
            simulations,
            moves,
        }
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "game": self.game,
            "position": self.position,
            "network_value": self.value,
            "network_move": self.network_move,
            "simulations": self.simulations,
            "move": self.chosen,
            "moves": self.moves.iter().map(|m| json!({
                "move": m.name,
                "prior": m.prior,
                "visits": m.visits,
                "q": m.q,
                "u": m.u,
                "exact": m.exact,
            })).collect::<Vec<_>>(),
        })
    }

    fn text(&self) -> String {
        let mut text = format!(
            "{} {}: plays {} ({} simulations); the network alone would play {}, \
             valuing the position {:+.3} for the player to move\n\
             move  prior  visits       Q       U  exact\n",
            self.game, self.position, self.chosen, self.simulations, self.network_move, self.value
        );
        for m in &self.moves {
            let _ = writeln!(
                text,
                "{:>4}  {:>5.3}  {:>6}  {:>+6.3}  {:>6.3}  {}",
                m.name, m.prior, m.visits, m.q, m.u, m.exact
            );
        }
        text
    }
}
