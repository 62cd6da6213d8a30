//! `train selfplay` and `play selfplay` from the command line: a run of so many games
//! repeats exactly, saves the learner and its curve, resumes, and refuses what it must; the
//! learner's move comes with the numbers behind it.

use crate::common::{run_cli as run, run_cli_json as run_json};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fresh_dir(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::Builder::new()
        .prefix(&format!("ai-arcade-selfplay-{tag}-"))
        .tempdir()
        .unwrap();
    let dir = temp.path().to_path_buf();
    (temp, dir)
}

fn train(dir: &Path, extra: &[&str]) -> Value {
    let data = dir.to_str().unwrap();
    let mut args = vec![
        "--data-dir",
        data,
        "--seed",
        "4",
        "train",
        "selfplay",
        "--game",
        "tictactoe",
        "--games",
        "8",
        "--json",
    ];
    args.extend_from_slice(extra);
    run_json(&args)
}

/// The figures that repeat from the seed (times do not).
fn learned(json: &Value) -> Vec<Value> {
    [
        "games",
        "policy_loss",
        "value_loss",
        "network_kept_percent",
        "searched_kept_percent",
    ]
    .iter()
    .map(|key| json[key].clone())
    .collect()
}

#[test]
fn train_selfplay_repeats_from_its_seed_saves_its_curve_and_resumes() {
    let (_a, one) = fresh_dir("one");
    let (_b, two) = fresh_dir("two");
    let first = train(&one, &[]);
    assert_eq!(first["games"], 8);
    assert_eq!(first["game"], "tictactoe");
    assert_eq!(
        first["parameters"], 6_026,
        "18-64-64 trunk, 9 priors and a value"
    );
    assert_eq!(
        learned(&train(&two, &[])),
        learned(&first),
        "same seed, same run"
    );
    let searched = first["searched_kept_percent"].as_f64().unwrap();
    assert!((0.0..=100.0).contains(&searched), "{first}");

    let csv = std::fs::read_to_string(one.join("selfplay-tictactoe-curve.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("games,seconds,policy_loss"), "{csv}");
    assert_eq!(
        lines.len(),
        1 + 11,
        "the start and ten points on the way: {csv}"
    );
    assert!(lines[11].starts_with("8,"), "{csv}");

    let resumed = train(&one, &[]);
    assert_eq!(resumed["games"], 16, "resumed from the saved learner");
    assert_eq!(resumed["games_this_run"], 8);
    let csv = std::fs::read_to_string(one.join("selfplay-tictactoe-curve.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 21, "the curve goes on: {csv}");

    // Starting over would replace 16 games of training: refused without --yes off a
    // terminal, and the file is as it was.
    let data = one.to_str().unwrap();
    let refused = run(&[
        "--data-dir",
        data,
        "train",
        "selfplay",
        "--games",
        "1",
        "--fresh",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("16 self-play games") && said.contains("--yes"),
        "{said}"
    );
    let again = train(&one, &["--fresh", "--yes"]);
    assert_eq!(again["games"], 8);
    assert!(one.join("selfplay-tictactoe.json.prev").exists());
}

#[test]
fn play_selfplay_gives_its_move_with_every_number_behind_it() {
    let (_temp, dir) = fresh_dir("play");
    let data = dir.to_str().unwrap();
    let missing = run(&[
        "--data-dir",
        data,
        "play",
        "selfplay",
        "--board",
        "X........",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("train selfplay --game tictactoe"));
    train(&dir, &[]);
    let answer = run_json(&[
        "--data-dir",
        data,
        "play",
        "selfplay",
        "--board",
        "XO.X..O..",
        "--simulations",
        "30",
        "--json",
    ]);
    assert_eq!(answer["simulations"], 30);
    let moves = answer["moves"].as_array().unwrap();
    let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["3", "5", "6", "8", "9"], "every empty cell, 1-9");
    let visits: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert_eq!(visits, 30, "every simulation went through one root move");
    let priors: f64 = moves.iter().map(|m| m["prior"].as_f64().unwrap()).sum();
    assert!((priors - 1.0).abs() < 1e-4, "{answer}");
    let winning = moves.iter().find(|m| m["move"] == "5").unwrap();
    assert_eq!(winning["exact"], "wins in 2 moves", "{answer}");
    assert!(names.contains(&answer["move"].as_str().unwrap()));

    let alone = run_json(&[
        "--data-dir",
        data,
        "play",
        "selfplay",
        "--board",
        "XO.X..O..",
        "--simulations",
        "0",
        "--json",
    ]);
    assert_eq!(
        alone["move"], alone["network_move"],
        "no search: the highest prior"
    );

    for (board, says) in [
        ("XXX......", "impossible"),
        ("XQ", "9 cells"),
        ("XXXOO....", "over"),
    ] {
        let output = run(&["--data-dir", data, "play", "selfplay", "--board", board]);
        assert_eq!(output.status.code(), Some(2), "{board}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{board}: {stderr}");
    }
}

#[test]
fn a_hand_edited_learner_is_refused_with_its_path_and_reason_and_kept() {
    let (_temp, dir) = fresh_dir("edit");
    train(&dir, &[]);
    let file = dir.join("selfplay-tictactoe.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replacen("\"c_puct\":3.0", "\"c_puct\":-2.0", 1);
    assert_ne!(edited, text, "the file holds c_puct: {text:.200}");
    std::fs::write(&file, &edited).unwrap();
    let data = dir.to_str().unwrap();
    let output = run(&[
        "--data-dir",
        data,
        "play",
        "selfplay",
        "--board",
        ".........",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("selfplay-tictactoe.json") && stderr.contains("settings.c_puct -2"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        edited,
        "never overwritten unseen"
    );
}

/// The small four-in-a-row board trains two games at once and still repeats from its
/// seed; its move comes from `--moves`, graded by the 5 x 4 solver.
#[test]
fn the_small_board_trains_on_two_threads_repeatably_and_plays_from_moves() {
    let (_a, one) = fresh_dir("small-one");
    let (_b, two) = fresh_dir("small-two");
    let small = |dir: &Path| {
        let data = dir.to_str().unwrap();
        run_json(&[
            "--data-dir",
            data,
            "--seed",
            "2",
            "train",
            "selfplay",
            "--game",
            "connect4-5x4",
            "--games",
            "6",
            "--threads",
            "2",
            "--json",
        ])
    };
    let first = small(&one);
    assert_eq!(first["game"], "connect4-5x4");
    assert_eq!(first["games"], 6);
    assert_eq!(
        learned(&small(&two)),
        learned(&first),
        "same seed, same run"
    );
    assert!(one.join("selfplay-connect4-5x4.json").exists());

    let data = one.to_str().unwrap();
    let play = |moves: &str| {
        run(&[
            "--data-dir",
            data,
            "play",
            "selfplay",
            "--game",
            "connect4-5x4",
            "--moves",
            moves,
            "--simulations",
            "40",
            "--json",
        ])
    };
    let output = play("1111");
    assert!(output.status.success(), "{output:?}");
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    let moves = answer["moves"].as_array().unwrap();
    let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["2", "3", "4", "5"], "column 1 is full");
    let visits: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert_eq!(visits, 40);
    assert_eq!(answer["position"], "1111");
    // Every open column has the solver's verdict beside it.
    assert!(
        moves
            .iter()
            .all(|m| m["exact"].as_str().is_some_and(|e| !e.is_empty()))
    );

    for (moves, says) in [("16", "'6'"), ("11111", "full"), ("1x", "'x'")] {
        let output = play(moves);
        assert_eq!(output.status.code(), Some(2), "{moves}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{moves}: {stderr}");
    }
}

/// `--grade-simulations` changes the search that grades the curve, not the training: the
/// same games and network, the share kept with search measured with another search.
#[test]
fn grade_simulations_judges_with_another_search_and_trains_the_same() {
    let (_a, one) = fresh_dir("graded-default");
    let (_b, two) = fresh_dir("graded-one");
    let default = train(&one, &[]);
    let short = train(&two, &["--grade-simulations", "1"]);
    assert_eq!(default["grade_simulations"], default["simulations"]);
    assert_eq!(short["grade_simulations"], 1);
    for key in ["games", "policy_loss", "value_loss", "network_kept_percent"] {
        assert_eq!(short[key], default[key], "{key}");
    }
    assert_ne!(
        short["searched_kept_percent"], default["searched_kept_percent"],
        "one simulation is not fifty"
    );
}
