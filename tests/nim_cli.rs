//! `train qlearning` and `train nim-net` from the command line: reports, saves, resumes,
//! and refusals.
#![allow(clippy::float_cmp)] // shares computed from integer counts; 1.0 is exact

use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::common::{run_cli as run, run_cli_json as run_json};

/// An empty temporary folder named after `tag`, and its path; the folder is removed, with
/// what the test made in it, when the guard is dropped (a failed test too).
fn fresh_dir(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::Builder::new()
        .prefix(&format!("ai-arcade-nimcli-{tag}-"))
        .tempdir()
        .unwrap();
    let dir = temp.path().to_path_buf();
    (temp, dir)
}

fn share(json: &Value, key: &str) -> f64 {
    let value = json[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} in {json}"));
    assert!((0.0..=1.0).contains(&value), "{key} = {value}");
    value
}

#[test]
fn train_qlearning_reports_every_figure_and_saves_the_table() {
    let (_temp, dir) = fresh_dir("q");
    let data = dir.to_str().unwrap();
    let json = run_json(&[
        "--data-dir",
        data,
        "--seed",
        "4",
        "train",
        "qlearning",
        "--json",
    ]);
    assert_eq!(json["winning_states"], 335);
    assert_eq!(json["games"], 20_000);
    assert_eq!(
        share(&json, "policy_optimality"),
        1.0,
        "the default recipe learns it all"
    );
    assert!(share(&json, "win_rate_vs_random") > 0.9);
    assert!((share(&json, "win_rate_vs_perfect") - 0.5).abs() < 1e-9);
    assert!(json["table_entries"].as_u64().unwrap() > 1000);
    assert!(json["elapsed_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(
        json["curve"].as_array().unwrap().len(),
        41,
        "every 500 games and the start"
    );
    let saved = Path::new(json["saved_to"].as_str().unwrap());
    assert!(saved.ends_with("nim-qtable-misere-1-3-5-7.json") && saved.exists());

    let seed = run_json(&[
        "--data-dir",
        data,
        "--seed",
        "4",
        "train",
        "qlearning",
        "--recipe",
        "seed",
        "--piles",
        "2,3,4",
        "--rule",
        "normal",
        "--json",
    ]);
    assert_eq!(seed["games"], 10_000);
    assert_eq!(seed["piles"], serde_json::json!([2, 3, 4]));
    assert!(dir.join("nim-qtable-normal-2-3-4.json").exists());
    assert!(saved.exists(), "another game's table is kept");
}

#[test]
fn train_qlearning_refuses_bad_piles_and_tables_too_large() {
    for (piles, needle) in [
        ("1,x", "'x'"),
        ("1,2,3,4,5,6,7", "1 to 6"),
        ("31,31,31,31,31,31", "positions"),
        ("0,0", "at least one object"),
    ] {
        let (_temp, dir) = fresh_dir("bad");
        let output = run(&[
            "--data-dir",
            dir.to_str().unwrap(),
            "train",
            "qlearning",
            "--piles",
            piles,
        ]);
        assert_eq!(output.status.code(), Some(2), "{piles}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(needle), "{piles}: {stderr}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing saved");
    }
}

#[test]
fn a_damaged_table_file_is_kept_aside_not_overwritten() {
    let (_temp, dir) = fresh_dir("damaged");
    let file = dir.join("nim-qtable-misere-1-3-5-7.json");
    std::fs::write(&file, "{ not json").unwrap();
    let output = run(&[
        "--data-dir",
        dir.to_str().unwrap(),
        "train",
        "qlearning",
        "--games",
        "100",
    ]);
    assert!(output.status.success());
    let kept = dir.join("nim-qtable-misere-1-3-5-7.json.broken");
    assert_eq!(std::fs::read_to_string(kept).unwrap(), "{ not json");
    assert!(String::from_utf8_lossy(&output.stderr).contains("kept as"));
}

/// Issue 29 §8: `train` over a trained table says what it replaced (its games and how it
/// played, from the file) and where the previous table went.
#[test]
fn a_replacing_train_names_the_table_it_replaced_and_where_it_went() {
    let (_temp, dir) = fresh_dir("replaced");
    let data = dir.to_str().unwrap();
    let train = |games: &str| {
        run(&[
            "--data-dir",
            data,
            "--seed",
            "1",
            "train",
            "qlearning",
            "--games",
            games,
            "--yes",
        ])
    };
    let first = train("1000");
    assert!(first.status.success());
    assert!(
        !String::from_utf8_lossy(&first.stderr).contains("replaced"),
        "nothing was there to replace"
    );
    let second = train("200");
    assert!(second.status.success());
    let stderr = String::from_utf8_lossy(&second.stderr);
    let file = dir.join("nim-qtable-misere-1-3-5-7.json");
    let prev = dir.join("nim-qtable-misere-1-3-5-7.json.prev");
    assert!(
        stderr.contains("replaced the Q-table (1,000 games, wins at ")
            && stderr.contains(&format!(
                "/335 winning positions, saved just now) in {}; it is kept as {}",
                file.display(),
                prev.display()
            )),
        "{stderr}"
    );
    assert!(
        std::fs::read_to_string(&prev)
            .unwrap()
            .contains("\"games\":1000")
    );
}

#[test]
fn train_nim_net_reports_saves_and_resumes() {
    let (_temp, dir) = fresh_dir("net");
    let data = dir.to_str().unwrap();
    let first = run_json(&[
        "--data-dir",
        data,
        "--seed",
        "2",
        "train",
        "nim-net",
        "--epochs",
        "1",
        "--json",
    ]);
    assert_eq!(first["winning_states"], 31_744);
    assert_eq!(first["epochs"], 1);
    assert_eq!(share(&first, "legal_rate"), 1.0);
    share(&first, "winning_accuracy");
    share(&first, "seed_decoder_legal_rate");
    assert_eq!(first["layers"], serde_json::json!([18, 64, 64, 9]));
    assert!(first["elapsed_ms"].as_f64().unwrap() > 0.0);
    let again = run_json(&[
        "--data-dir",
        data,
        "train",
        "nim-net",
        "--epochs",
        "1",
        "--json",
    ]);
    assert_eq!(again["epochs"], 2, "resumed from the saved network");
    assert_eq!(again["seed"], 2, "keeps its own seed");
    let fresh = run_json(&[
        "--data-dir",
        data,
        "train",
        "nim-net",
        "--epochs",
        "1",
        "--fresh",
        "--json",
        "--yes",
    ]);
    assert_eq!(fresh["epochs"], 1);
    assert!(
        dir.join("nim-net-normal-3x31.json.prev").exists(),
        "the replaced one is kept as the backup"
    );
    assert!(
        !dir.join("nim-net-normal-3x31.json.broken").exists(),
        "a good file is never called broken"
    );
}

#[test]
fn bad_piles_state_the_real_limit_of_31() {
    for piles in ["1,2,x", "1,32"] {
        let output = run(&["--data-dir", "/tmp", "train", "qlearning", "--piles", piles]);
        assert_eq!(output.status.code(), Some(2), "{piles}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("--piles") && stderr.contains("0 to 31") && !stderr.contains("63"),
            "{piles}: {stderr}"
        );
    }
}
