//! `train qlearning` and `train nim-net`: the Multi-pile Nim learners from the command line,
//! with a progress bar on stderr, a report (text or JSON) and the result saved.

use super::args::{Cli, QlearningRecipe, RuleArg, TrainArgs};
use super::exit::fail;
use super::progress::Training;
use super::run::{report, run_seed, training_dir};
use super::saving::{self, Plan};
use crate::config::{self, RecipeChoice};
use crate::domain::games::nim::Piles;
use crate::domain::learn::nim_net::{self, NetEvaluation, NetTrainer};
use crate::domain::learn::qlearning::{EVALUATION_GAMES, QTrainer};
use crate::persist::model_files::{NimNetFile, QTableFile};
use crate::persist::{ModelKind, Store};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// What the command line changes of the Q-learning settings.
pub(super) struct QOverrides<'a> {
    pub games: Option<usize>,
    pub piles: Option<&'a [u8]>,
    pub rule: Option<RuleArg>,
    pub recipe: Option<QlearningRecipe>,
}

fn round(value: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (value * scale).round() / scale
}

pub(super) fn train_qlearning(
    cli: &Cli,
    mut config: config::Config,
    overrides: &QOverrides,
    args: &TrainArgs,
) -> ExitCode {
    let json_out = args.json;
    if let Some(piles) = overrides.piles {
        config.nim.piles = piles.to_vec();
    }
    config.nim.rule = overrides.rule.map_or(config.nim.rule, Into::into);
    config.qlearning.recipe = overrides.recipe.map_or(config.qlearning.recipe, Into::into);
    config.qlearning.games = overrides.games.or(config.qlearning.games);
    let dir = match training_dir(cli, &config) {
        Ok(dir) => dir,
        Err(exit) => return exit,
    };
    let q = &config.qlearning;
    let start = Piles::new(&config.nim.piles).expect("validated");
    let rule = config.nim.rule;
    let (settings, games) = q.recipe();
    let seed = run_seed(cli, q.seed, config.seed);
    let mut trainer = match QTrainer::new(start, rule, settings, games, q.sample_every, seed.value)
    {
        Ok(trainer) => trainer,
        Err(error) => {
            let source = if overrides.piles.is_some() {
                "--piles"
            } else {
                "nim.piles"
            };
            return fail(format!("{source}: {error}"));
        }
    };
    let store = Store::new(dir);
    let kind = QTableFile::new(start, rule, q.sample_every);
    let file = kind.file();
    let plan = match store.load_kind(&kind) {
        Ok(Some(found)) => {
            saving::training(found.model.games as u64, "games").map_or(Plan::New, Plan::Replace)
        }
        Ok(None) | Err(_) => Plan::New,
    };
    if let Err(exit) = saving::before_training(&store, file, &plan, args.yes) {
        return exit;
    }
    let chunk = (games / 100).max(1);
    seed.announce();
    let run = Training::start(games as u64, "games");
    while !trainer.is_done() && !run.stop_requested() {
        trainer.train(chunk);
        run.show(trainer.games as u64, || {
            let optimality = trainer.evaluation().policy_optimality();
            format!("policy {:.1}% optimal", optimality * 100.0)
        });
    }
    if let Err(exit) = run.finish(trainer.games as u64) {
        return exit;
    }
    let saved = match saving::save(&store, &kind, &trainer.saved(), &plan) {
        Ok(path) => path,
        Err(error) => return fail(error),
    };
    report(
        json_out,
        || q_json(&trainer, q.recipe, &saved),
        || q_text(&trainer, q.recipe, &saved),
    )
}

fn q_json(trainer: &QTrainer, recipe: RecipeChoice, saved: &Path) -> serde_json::Value {
    let e = trainer.evaluation();
    let curve: Vec<serde_json::Value> = trainer
        .curve
        .iter()
        .map(|p| {
            json!({
                "games": p.games,
                "policy_optimality": round(p.policy_optimality(), 6),
                "win_rate_vs_random": p.win_rate_vs_random,
                "win_rate_vs_perfect": p.win_rate_vs_perfect,
            })
        })
        .collect();
    let settings = trainer.settings;
    json!({
        "learner": "qlearning",
        "piles": trainer.table.start().sizes(),
        "rule": trainer.table.rule(),
        "recipe": recipe.json_name(),
        "alpha": settings.alpha,
        "epsilon": settings.epsilon,
        "seed": trainer.seed,
        "games": trainer.games,
        "winning_states": e.winning_states,
        "optimal_states": e.optimal_states,
        "policy_optimality": round(e.policy_optimality(), 6),
        "win_rate_vs_random": e.win_rate_vs_random,
        "win_rate_vs_perfect": e.win_rate_vs_perfect,
        "best_possible_vs_perfect": e.best_vs_perfect,
        "evaluation_games": EVALUATION_GAMES,
        "table_entries": trainer.table.entries(),
        "elapsed_ms": round(trainer.training_time.as_secs_f64() * 1000.0, 3),
        "curve": curve,
        "saved_to": saved.display().to_string(),
    })
}

fn q_text(trainer: &QTrainer, recipe: RecipeChoice, saved: &Path) -> String {
    let e = trainer.evaluation();
    let settings = trainer.settings;
    format!(
        "multi-pile nim {}, {} play, Q-learning\n\
         recipe         {}: alpha {}, epsilon {}, seed {}\n\
         games          {}\n\
         policy         {:.1}% optimal: wins at {} of {} winning positions\n\
         vs random      {:.1}% won of {EVALUATION_GAMES} games\n\
         vs perfect     {:.1}% won of {EVALUATION_GAMES} games (at most {:.0}% can be: starts alternate)\n\
         table          {} entries\n\
         time           {:.1} ms (self-play only)\n\
         saved to       {}\n",
        trainer.table.start(),
        trainer.table.rule().name(),
        recipe.name(),
        settings.alpha,
        settings.epsilon,
        trainer.seed,
        trainer.games,
        e.policy_optimality() * 100.0,
        e.optimal_states,
        e.winning_states,
        e.win_rate_vs_random * 100.0,
        e.win_rate_vs_perfect * 100.0,
        e.best_vs_perfect * 100.0,
        trainer.table.entries(),
        trainer.training_time.as_secs_f64() * 1000.0,
        saved.display()
    )
}

pub(super) fn train_nim_net(
    cli: &Cli,
    config: &config::Config,
    epochs: Option<usize>,
    fresh: bool,
    args: &TrainArgs,
) -> ExitCode {
    let json_out = args.json;
    let dir = match training_dir(cli, config) {
        Ok(dir) => dir,
        Err(exit) => return exit,
    };
    let net = &config.nim_net;
    let game = net.game();
    let recipe = net.recipe();
    // Drawn only for a new network: a resumed one keeps its own seed.
    let new_trainer = || {
        let seed = run_seed(cli, net.seed, config.seed).announced();
        NetTrainer::new(game, recipe.clone(), seed.value)
    };
    let store = Store::new(dir);
    let kind = NimNetFile::new(game);
    let file = kind.file();
    let path = store.path(file.name);
    let (mut trainer, plan) = match store.load_kind(&kind) {
        Ok(Some(found)) if !fresh && found.model.recipe == recipe => {
            eprintln!(
                "resuming {} after {} epochs",
                path.display(),
                found.model.epochs()
            );
            (found.model, Plan::Continue(found.stamp))
        }
        Ok(Some(found)) => {
            if !fresh {
                eprintln!(
                    "not resuming {}: it was trained with another recipe",
                    path.display()
                );
            }
            let plan = saving::training(found.model.epochs() as u64, "epochs")
                .map_or(Plan::New, Plan::Replace);
            (new_trainer(), plan)
        }
        Ok(None) => (new_trainer(), Plan::New),
        Err(error) => {
            eprintln!("not resuming: {error}");
            (new_trainer(), Plan::New)
        }
    };
    if let Err(exit) = saving::before_training(&store, file, &plan, args.yes) {
        return exit;
    }
    let run = epochs.unwrap_or(recipe.epochs);
    let first = trainer.epochs();
    let started = Instant::now();
    let training = Training::start(run as u64, "epochs");
    let mut done = 0;
    while done < run && !training.stop_requested() {
        let error = trainer.train_epoch();
        done += 1;
        training.show(done as u64, || format!("error {error:.5}"));
    }
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Err(exit) = training.finish(done as u64) {
        return exit;
    }
    let saved = match saving::save(&store, &kind, &trainer.saved(), &plan) {
        Ok(path) => path,
        Err(error) => return fail(error),
    };
    let summary = NetReport {
        trainer: &trainer,
        recipe: net.recipe,
        first_epoch: first,
        elapsed_ms,
        saved: &saved,
        evaluation: nim_net::evaluate(game, &trainer.network),
    };
    report(json_out, || summary.json(), || summary.text())
}

/// What `train nim-net` prints.
struct NetReport<'a> {
    trainer: &'a NetTrainer,
    recipe: RecipeChoice,
    first_epoch: usize,
    elapsed_ms: f64,
    saved: &'a Path,
    evaluation: NetEvaluation,
}

impl NetReport<'_> {
    fn final_error(&self) -> f64 {
        self.trainer.errors.last().copied().unwrap_or(f64::NAN)
    }

    fn json(&self) -> serde_json::Value {
        let (t, e) = (self.trainer, &self.evaluation);
        json!({
            "learner": "nim-net",
            "piles": t.game.piles,
            "max_pile": t.game.max_pile,
            "rule": t.game.rule,
            "recipe": self.recipe.json_name(),
            "layers": t.network.sizes(),
            "learning_rate": t.recipe.learning_rate,
            "batch_size": t.recipe.batch_size,
            "loss": t.recipe.loss,
            "seed": t.seed,
            "epochs": t.epochs(),
            "epochs_this_run": t.epochs() - self.first_epoch,
            "final_error": self.final_error(),
            "winning_states": e.winning_states,
            "winning_answers": e.winning_answers,
            "winning_accuracy": round(e.winning_accuracy(), 6),
            "legal_rate": round(e.legal_rate(), 6),
            "seed_decoder_accuracy": round(e.original_accuracy(), 6),
            "seed_decoder_legal_rate": round(e.original_legal_rate(), 6),
            "elapsed_ms": round(self.elapsed_ms, 1),
            "saved_to": self.saved.display().to_string(),
        })
    }

    fn text(&self) -> String {
        let (t, e) = (self.trainer, &self.evaluation);
        format!(
            "{}-pile nim up to {}, {} play, recipe {}, seed {}\n\
             network        {}\n\
             epochs         {} ({} in this run)\n\
             final error    {:.6}\n\
             winning moves  {:.2}%: {} of {} winning positions (legal decoder)\n\
             legal moves    {:.0}% (legal decoder)\n\
             seed decoder   {:.2}% right, {:.2}% legal\n\
             time           {:.0} ms (training only)\n\
             saved to       {}\n",
            t.game.piles,
            t.game.max_pile,
            t.game.rule.name(),
            self.recipe.name(),
            t.seed,
            t.network
                .sizes()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("-"),
            t.epochs(),
            t.epochs() - self.first_epoch,
            self.final_error(),
            e.winning_accuracy() * 100.0,
            e.winning_answers,
            e.winning_states,
            e.legal_rate() * 100.0,
            e.original_accuracy() * 100.0,
            e.original_legal_rate() * 100.0,
            self.elapsed_ms,
            self.saved.display()
        )
    }
}
