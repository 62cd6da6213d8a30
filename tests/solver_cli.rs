//! The Connect Four solver's commands: `solve connect4` with and without the opening book,
//! `bench solver` and its position sets, and `book connect4` (import, refusals).

use serde_json::Value;

use crate::common::{run_cli as run, run_cli_json as run_json};

fn refused(args: &[&str], says: &str) {
    let output = run(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

#[test]
fn the_empty_board_and_every_first_move_come_from_the_book_at_once() {
    let json = run_json(&["solve", "connect4", "--all", "--json"]);
    assert_eq!(json["score"], 1, "{json}");
    assert_eq!(json["best_move"], 4);
    assert_eq!(json["nodes"], 0, "no search");
    assert_eq!(json["from_book"], 8, "the position and its 7 columns");
    assert_eq!(json["scores"], serde_json::json!([-2, -1, 0, 1, 0, -1, -2]));
    let answered = |args: &[&str]| {
        let text = String::from_utf8(run(args).stdout).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("answered"))
            .map(str::to_string);
        line.unwrap_or_else(|| panic!("no answered line: {text}"))
    };
    let says = answered(&["solve", "connect4", "--moves", "44"]);
    assert_eq!(says, "answered   by the opening book, no search");
    // A four to make at once needs neither the book nor a search.
    let says = answered(&["solve", "connect4", "--moves", "121212"]);
    assert_eq!(
        says,
        "answered   by no search: a four, made or allowed, decides it"
    );
    // The book knows the position, a search its columns (9 moves in).
    let says = answered(&["solve", "connect4", "--moves", "44444432", "--all"]);
    assert_eq!(says, "answered   by the opening book and a search");
    let says = answered(&["solve", "connect4", "--moves", "444444326"]);
    assert_eq!(
        says,
        "answered   by search (past the opening book of 8 moves)"
    );
}

#[test]
fn past_the_book_and_without_it_the_search_answers_the_same() {
    let moves = "444444326";
    let with = run_json(&["solve", "connect4", "--moves", moves, "--all", "--json"]);
    let without = run_json(&[
        "solve",
        "connect4",
        "--moves",
        moves,
        "--all",
        "--no-book",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(with["scores"], without["scores"]);
    assert_eq!(with["score"], -1);
    assert_eq!(without["book_depth"], Value::Null);
    assert!(without["nodes"].as_u64().unwrap() > 0);
    refused(
        &["solve", "connect4", "--moves", "4", "--threads", "0"],
        "--threads 0: allowed 1..=64",
    );
}

#[test]
fn bench_solver_draws_the_same_set_for_a_seed_writes_it_and_reads_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.txt");
    let set_arg = set.to_str().unwrap();
    // Late positions, so the searches are short.
    let args = [
        "--seed",
        "3",
        "bench",
        "solver",
        "--positions",
        "4",
        "--min-moves",
        "26",
        "--max-moves",
        "30",
        "--json",
    ];
    let emitting = [&args[..], &["--emit", set_arg]].concat();
    let drawn = run_json(&emitting);
    refused(&emitting, "the file exists; remove it or name another");
    let again = run_json(&args);
    let moves = |json: &Value| -> Vec<Value> {
        json["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["moves"].clone())
            .collect()
    };
    assert_eq!(moves(&drawn), moves(&again), "the seed decides the set");
    let written = std::fs::read_to_string(&set).unwrap();
    assert_eq!(written.lines().count(), 4);
    let read = run_json(&["bench", "solver", "--from", set_arg, "--all", "--json"]);
    assert_eq!(moves(&read), moves(&drawn));
    let scores = |json: &Value| -> Vec<Value> {
        json["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["score"].clone())
            .collect()
    };
    assert_eq!(scores(&read).len(), 4);
    assert!(drawn["nodes_per_second"].as_f64().unwrap() > 0.0);
    std::fs::write(&set, "4453\n12 4\n1212121\n").unwrap();
    refused(
        &["bench", "solver", "--from", set_arg],
        "set.txt:3: the game is over",
    );
    refused(
        &["bench", "solver", "--min-moves", "12", "--max-moves", "8"],
        "allowed 0 <= min <= max <= 41",
    );
    refused(
        &["bench", "solver", "--table-bits", "40"],
        "--table-bits 40: allowed 10..=30",
    );
}

/// `bench solver --board 5x4` times the small board's solver: its empty board (a draw) and
/// a set read back from a file of 5-column games; a 7-column game, the book, and 7x6 move
/// counts are refused there.
#[test]
fn bench_solver_times_the_small_board_without_a_book() {
    let empty = run_json(&[
        "bench",
        "solver",
        "--board",
        "5x4",
        "--positions",
        "1",
        "--min-moves",
        "0",
        "--max-moves",
        "0",
        "--all",
        "--json",
    ]);
    let positions = empty["positions"].as_array().unwrap();
    assert_eq!(positions[0]["moves"], "", "{empty}");
    assert_eq!(positions[0]["score"], 0, "the empty 5x4 board is a draw");
    assert!(
        empty["plan"].as_str().unwrap().contains("positions on 5x4"),
        "{empty}"
    );
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("small.txt");
    let set_arg = set.to_str().unwrap();
    std::fs::write(&set, "# 5 columns\n3\n1155\n").unwrap();
    let read = run_json(&[
        "bench", "solver", "--board", "5x4", "--from", set_arg, "--json",
    ]);
    assert_eq!(read["positions"].as_array().unwrap().len(), 2, "{read}");
    std::fs::write(&set, "4456\n").unwrap();
    refused(
        &["bench", "solver", "--board", "5x4", "--from", set_arg],
        "move 4: '6' is no column: columns are 1 to 5",
    );
    refused(
        &["bench", "solver", "--board", "5x4", "--book"],
        "--book: the opening book is for the 7x6 board only",
    );
    refused(
        &["bench", "solver", "--board", "5x4", "--max-moves", "20"],
        "allowed 0 <= min <= max <= 19",
    );
}

#[test]
fn book_import_refuses_what_is_not_a_book_and_never_overwrites_unasked() {
    let dir = tempfile::tempdir().unwrap();
    let theirs = dir.path().join("theirs.bin");
    std::fs::write(&theirs, b"not a book").unwrap();
    let out = dir.path().join("ours.book");
    let (theirs, out_arg) = (theirs.to_str().unwrap(), out.to_str().unwrap());
    refused(
        &["book", "connect4", "--import", theirs, "--out", out_arg],
        "not a Connect Four book",
    );
    assert!(!out.exists(), "nothing written");
    // A book of the right shape that lacks positions is refused, naming one.
    let mut one_entry = 1u64.to_le_bytes().to_vec();
    one_entry.extend_from_slice(&[0; 9]);
    std::fs::write(dir.path().join("theirs.bin"), &one_entry).unwrap();
    refused(
        &["book", "connect4", "--import", theirs, "--out", out_arg],
        "is missing",
    );
    std::fs::write(&out, b"kept").unwrap();
    refused(
        &["book", "connect4", "--depth", "2", "--out", out_arg],
        "the file exists; --yes replaces it",
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"kept");
    refused(
        &[
            "book", "connect4", "--depth", "11", "--out", out_arg, "--yes",
        ],
        "--depth 11: allowed 0..=10",
    );
}
