//! `ai-arcade train`: a learner trained from the command line, with a progress bar, and its
//! model saved to the data dir.

use super::args::{Cli, TrainArgs, TrainLearner};
use super::exit::fail;
use super::nim;
use super::progress;
use super::run::{RunSeed, report, run_seed, training_dir};
use super::saving;
use super::selfplay;
use crate::config;
use crate::domain::learn::state_graph::{self, StateGraph};
use crate::domain::learn::subtraction::{self, Evaluation, Trainer};
use crate::domain::solve::subtraction::Solution;
use crate::persist::Store;
use crate::persist::model_files::{
    STATE_GRAPH as GRAPH, SUBTRACTION_NET as MODEL, StateGraphFile, SubtractionNetFile,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

pub(super) fn train(cli: &Cli, args: &TrainArgs) -> ExitCode {
    let mut config = match config::load(cli.config.as_deref()) {
        Ok(loaded) => loaded.config,
        Err(error) => return fail(error),
    };
    match &args.learner {
        TrainLearner::Subtraction {
            epochs,
            hidden,
            lr,
            recipe,
        } => {
            let nim = &mut config.subtraction;
            nim.epochs = epochs.unwrap_or(nim.epochs);
            nim.hidden = hidden.unwrap_or(nim.hidden);
            nim.learning_rate = lr.unwrap_or(nim.learning_rate);
            nim.recipe = recipe.map_or(nim.recipe, Into::into);
            train_subtraction(cli, &config, args)
        }
        TrainLearner::Graph {
            games,
            tokens,
            max_take,
            dot,
        } => {
            let graph = &mut config.graph;
            graph.games = games.unwrap_or(graph.games);
            graph.tokens = tokens.unwrap_or(graph.tokens);
            graph.max_take = max_take.unwrap_or(graph.max_take);
            train_graph(cli, &config, dot.as_deref(), args)
        }
        TrainLearner::Qlearning {
            games,
            piles,
            rule,
            recipe,
        } => {
            let overrides = nim::QOverrides {
                games: *games,
                piles: piles.as_ref().map(|list| list.0.as_slice()),
                rule: *rule,
                recipe: *recipe,
            };
            nim::train_qlearning(cli, config, &overrides, args)
        }
        TrainLearner::NimNet {
            epochs,
            rule,
            recipe,
            fresh,
        } => {
            let net = &mut config.nim_net;
            net.rule = rule.map_or(net.rule, Into::into);
            net.recipe = recipe.map_or(net.recipe, Into::into);
            nim::train_nim_net(cli, &config, *epochs, *fresh, args)
        }
        TrainLearner::Selfplay {
            game,
            minutes,
            games,
            fresh,
            curve,
            threads,
            points,
            grade_simulations,
        } => {
            let request = selfplay::TrainRequest {
                grade_simulations: *grade_simulations,
                threads: *threads,
                points: *points,
                game: *game,
                minutes: *minutes,
                games: *games,
                fresh: *fresh,
                curve: curve.as_deref(),
            };
            selfplay::train_selfplay(cli, &config, args, &request)
        }
    }
}

pub(super) fn train_subtraction(cli: &Cli, config: &config::Config, args: &TrainArgs) -> ExitCode {
    let json_out = args.json;
    let dir = match training_dir(cli, config) {
        Ok(dir) => dir,
        Err(exit) => return exit,
    };
    let nim = &config.subtraction;
    let store = Store::new(dir);
    let plan = match store.load(MODEL, subtraction::usable(nim.n_max)) {
        Ok(Some(found)) => saving::training(found.model.epochs as u64, "epochs")
            .map_or(saving::Plan::New, saving::Plan::Replace),
        Ok(None) | Err(_) => saving::Plan::New,
    };
    if let Err(exit) = saving::before_training(&store, MODEL, &plan, args.yes) {
        return exit;
    }
    // The seed of the initial weights and the labels at losing piles.
    let seed = run_seed(cli, nim.seed, config.seed);
    let recipe = nim.recipe();
    let mut trainer = Trainer::new(nim.n_max, recipe, seed.value);
    let started = Instant::now();
    let step = (recipe.epochs / 100).max(1);
    seed.announce();
    let run = progress::Training::start(recipe.epochs as u64, "epochs");
    while !trainer.is_done() && !run.stop_requested() {
        let loss = trainer.train_epochs(step).unwrap_or(f64::NAN);
        run.show(trainer.epoch as u64, || format!("loss {loss:.6}"));
    }
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Err(exit) = run.finish(trainer.epoch as u64) {
        return exit;
    }
    let solution = Solution::new(nim.n_max);
    let evaluation = Evaluation::new(&trainer.network, trainer.encoding, &solution);
    let kind = SubtractionNetFile { n_max: nim.n_max };
    let saved = match saving::save(&store, &kind, &trainer.saved(), &plan) {
        Ok(path) => path,
        Err(error) => return fail(error),
    };
    let summary = SubtractionReport {
        settings: nim,
        recipe,
        seed: seed.value,
        trainer: &trainer,
        evaluation: &evaluation,
        elapsed_ms,
        saved: &saved,
    };
    report(json_out, || summary.json(), || summary.text())
}

/// What `train subtraction` prints.
pub(super) struct SubtractionReport<'a> {
    settings: &'a config::SubtractionConfig,
    recipe: crate::domain::learn::subtraction::Recipe,
    seed: u64,
    trainer: &'a Trainer,
    evaluation: &'a Evaluation,
    elapsed_ms: f64,
    saved: &'a Path,
}

impl SubtractionReport<'_> {
    fn final_loss(&self) -> f64 {
        self.trainer.losses.last().copied().unwrap_or(f64::NAN)
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "learner": "subtraction",
            "n_max": self.settings.n_max,
            "recipe": self.settings.recipe.json_name(),
            "hidden": self.recipe.hidden,
            "learning_rate": self.recipe.learning_rate,
            "seed": self.seed,
            "epochs": self.trainer.epoch,
            "final_loss": self.final_loss(),
            "winning_positions": self.evaluation.winning_positions(),
            "winning_correct": self.evaluation.winning_correct(),
            "threshold_correct": self.evaluation.threshold_correct(),
            "illegal_raw": self.evaluation.illegal_raw(),
            "elapsed_ms": (self.elapsed_ms * 10.0).round() / 10.0,
            "saved_to": self.saved.display().to_string(),
        })
    }

    fn text(&self) -> String {
        let evaluation = self.evaluation;
        format!(
            "subtraction nim, piles 2..={}, recipe {}, seed {}\n\
             network        {} hidden, learning rate {}\n\
             epochs         {}\n\
             final loss     {:.6}\n\
             winning moves  {} of {} winning piles (the AI's legal decoder)\n\
             seed decoder   {} of {} right; {} piles decode to an illegal move\n\
             time           {:.1} ms (training only)\n\
             saved to       {}\n",
            self.settings.n_max,
            self.settings.recipe.name(),
            self.seed,
            self.recipe.hidden,
            self.recipe.learning_rate,
            self.trainer.epoch,
            self.final_loss(),
            evaluation.winning_correct(),
            evaluation.winning_positions(),
            evaluation.threshold_correct(),
            evaluation.winning_positions(),
            evaluation.illegal_raw(),
            self.elapsed_ms,
            self.saved.display()
        )
    }
}

pub(super) fn train_graph(
    cli: &Cli,
    config: &config::Config,
    dot: Option<&Path>,
    args: &TrainArgs,
) -> ExitCode {
    let json_out = args.json;
    let dir = match training_dir(cli, config) {
        Ok(dir) => dir,
        Err(exit) => return exit,
    };
    let settings = &config.graph;
    let store = Store::new(dir);
    let usable = state_graph::usable(settings.tokens, settings.max_take);
    let plan = match store.load(GRAPH, &usable) {
        Ok(Some(found)) => saving::training(found.model.games, "games")
            .map_or(saving::Plan::New, saving::Plan::Replace),
        Ok(None) | Err(_) => saving::Plan::New,
    };
    if let Err(exit) = saving::before_training(&store, GRAPH, &plan, args.yes) {
        return exit;
    }
    let RunSeed { value: seed, .. } = run_seed(cli, settings.seed, config.seed).announced();
    let mut graph = StateGraph::new(settings.tokens, settings.max_take);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let started = Instant::now();
    // Chunks of a thousandth: the bar moves and Ctrl-C is heard within a fraction of a
    // second even for 100,000,000 games on 100 tokens.
    let chunk = (settings.games / 1000).max(1);
    let run = progress::Training::start(settings.games, "games");
    while graph.games < settings.games && !run.stop_requested() {
        graph.train(chunk.min(settings.games - graph.games), &mut rng);
        run.show(graph.games, || {
            format!("optimal {:.1}%", graph.optimal_share() * 100.0)
        });
    }
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Err(exit) = run.finish(graph.games) {
        return exit;
    }
    let kind = StateGraphFile {
        tokens: settings.tokens,
        max_take: settings.max_take,
    };
    let saved = match saving::save(&store, &kind, &graph, &plan) {
        Ok(path) => path,
        Err(error) => return fail(error),
    };
    if let Some(path) = dot
        && let Err(error) = crate::persist::write_whole(path, graph.to_dot().as_bytes())
    {
        return fail(format!("--dot {}: {error}", path.display()));
    }
    let json = || {
        let weights: Vec<serde_json::Value> = graph
            .edges()
            .iter()
            .map(|e| json!({"from": e.from.name(), "to": e.to.name(), "weight": graph.weight(e)}))
            .collect();
        json!({
            "learner": "graph",
            "tokens": graph.tokens,
            "max_take": graph.max_take,
            "seed": seed,
            "vertices": graph.vertices().len(),
            "edges": graph.edges().len(),
            "winning_vertices": graph.winning_vertices(),
            "optimal_share": graph.optimal_share(),
            "games": graph.games,
            "elapsed_ms": (elapsed_ms * 1000.0).round() / 1000.0,
            "weights": weights,
            "saved_to": saved.display().to_string(),
        })
    };
    let text = || graph_text(&graph, seed, elapsed_ms, &saved, dot);
    report(json_out, json, text)
}

/// Widest line of a `train` report: the 80 columns of the terminal it is made for.
pub(super) const REPORT_WIDTH: usize = 80;

/// `  p1-10 -> p2-9 +3, p2-8 -1`: a vertex and its out-edges, continued on indented lines
/// when they would pass [`REPORT_WIDTH`] (five edges with large weights do).
pub(super) fn edge_lines(vertex: &str, edges: &[String]) -> String {
    let mut text = format!("{vertex:>6} ->");
    let mut line_start = 0;
    for (i, edge) in edges.iter().enumerate() {
        let piece = if i + 1 < edges.len() {
            format!(" {edge},")
        } else {
            format!(" {edge}")
        };
        if text.len() - line_start + piece.len() > REPORT_WIDTH {
            text.push('\n');
            line_start = text.len();
            text.push_str("         ");
        }
        text.push_str(&piece);
    }
    text
}

/// What `train graph` prints without `--json`.
pub(super) fn graph_text(
    graph: &StateGraph,
    seed: u64,
    elapsed_ms: f64,
    saved: &Path,
    dot: Option<&Path>,
) -> String {
    use std::fmt::Write;
    let mut text = format!(
        "Nim({}) state graph, takes 1-{}, {} random games, seed {seed}\n",
        graph.tokens, graph.max_take, graph.games
    );
    for vertex in graph.vertices() {
        let out: Vec<String> = graph
            .out_edges(vertex)
            .iter()
            .map(|e| format!("{} {:+}", e.to.name(), graph.weight(e)))
            .collect();
        if !out.is_empty() {
            let _ = writeln!(text, "{}", edge_lines(&vertex.name(), &out));
        }
    }
    let _ = writeln!(
        text,
        "optimal        {:.1}% of {} reachable vertices with a winning move pick it",
        graph.optimal_share() * 100.0,
        graph.winning_vertices()
    );
    let _ = writeln!(text, "time           {elapsed_ms:.2} ms (training only)");
    let _ = writeln!(text, "saved to       {}", saved.display());
    if let Some(path) = dot {
        let _ = writeln!(text, "dot            {}", path.display());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_edge_lists_continue_on_indented_lines_within_80_columns() {
        let edges: Vec<String> = (95..100)
            .rev()
            .map(|to| format!("p2-{to} -123456789"))
            .collect();
        let text = edge_lines("p1-100", &edges);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines.iter().all(|l| l.chars().count() <= REPORT_WIDTH),
            "{text}"
        );
        assert!(
            lines[0].starts_with("p1-100 -> p2-99 -123456789,"),
            "{text}"
        );
        assert!(lines[1].starts_with("          p2-"), "{text}");
        assert_eq!(text.matches("p2-").count(), 5, "every edge once: {text}");
        let short = edge_lines("p1-10", &["p2-9 +3".into(), "p2-8 -1".into()]);
        assert_eq!(short, " p1-10 -> p2-9 +3, p2-8 -1");
    }
}
