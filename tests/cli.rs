//! The real binary: `solve` output (text and JSON) against the library's search, exit codes
//! and messages for bad positions and bad config files, `--help` and `--version`.

use ai_arcade::domain::games::eight::Eight;
use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::search::{Algorithm, SearchResult, search};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ai-arcade");

/// Longest a run may take before it is taken for hung: a run that got past the config
/// check into the TUI would wait for keys, so it is killed rather than left to hang the
/// test. A safety limit, not a measure: the arena's quality check (MCTS at 100,000
/// iterations on five positions) takes seconds alone and far longer on a loaded machine.
const TIMEOUT: Duration = Duration::from_secs(180);

/// Runs the binary with `args`, stdin not a terminal, and returns its output.
fn run(args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let started = Instant::now();
    while child.try_wait().expect("wait for the binary").is_none() {
        if started.elapsed() > TIMEOUT {
            child.kill().expect("kill the binary");
            let output = child.wait_with_output().expect("collect output");
            panic!(
                "ai-arcade {args:?} did not finish within {TIMEOUT:?}; stderr: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().expect("collect output")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Asserts a successful run and returns its stdout.
fn run_ok(args: &[&str]) -> String {
    let output = run(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "ai-arcade {args:?} failed; stderr: {}",
        stderr(&output)
    );
    stdout(&output)
}

/// Asserts exit code 2, nothing on stdout and a message on stderr containing every one of
/// `needles`; returns stderr.
fn run_usage_error(args: &[&str], needles: &[&str]) -> String {
    let output = run(args);
    let err = stderr(&output);
    assert_eq!(
        output.status.code(),
        Some(2),
        "ai-arcade {args:?}: expected exit code 2; stderr: {err}"
    );
    assert!(
        output.stdout.is_empty(),
        "ai-arcade {args:?}: stdout should be empty, got {:?}",
        stdout(&output)
    );
    for needle in needles {
        assert!(
            err.contains(needle),
            "ai-arcade {args:?}: stderr should mention {needle:?}, got: {err}"
        );
    }
    err
}

/// The one JSON object on stdout.
fn parse_json(text: &str) -> Value {
    let values: Vec<Value> = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {text}"));
    assert_eq!(values.len(), 1, "exactly one JSON value: {text}");
    assert_eq!(text.trim().lines().count(), 1, "on one line: {text}");
    let value = values.into_iter().next().unwrap();
    assert!(value.is_object(), "a JSON object: {text}");
    value
}

fn json_u64(value: &Value, key: &str) -> u64 {
    value[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is a non-negative integer in {value}"))
}

fn json_i64(value: &Value, key: &str) -> i64 {
    value[key]
        .as_i64()
        .unwrap_or_else(|| panic!("{key} is an integer in {value}"))
}

/// Checks a `solve --json` object against a library search; `best_move` as printed (cells
/// 1-9 for tic-tac-toe, the number itself for Eight).
fn assert_json_matches(json: &Value, expected: &SearchResult<u8>, best_move: Option<u8>) {
    for key in [
        "value",
        "best_move",
        "nodes",
        "leaves",
        "cutoffs",
        "elapsed_us",
    ] {
        assert!(json.get(key).is_some(), "key {key} missing from {json}");
    }
    assert_eq!(json_i64(json, "value"), i64::from(expected.value), "{json}");
    assert_eq!(
        json["best_move"].as_u64(),
        best_move.map(u64::from),
        "{json}"
    );
    assert_eq!(json_u64(json, "nodes"), expected.stats.nodes, "{json}");
    assert_eq!(json_u64(json, "leaves"), expected.stats.leaves, "{json}");
    assert_eq!(json_u64(json, "cutoffs"), expected.stats.cutoffs, "{json}");
    let elapsed = json["elapsed_us"]
        .as_f64()
        .unwrap_or_else(|| panic!("elapsed_us is a number in {json}"));
    assert!(
        elapsed.is_finite() && elapsed >= 0.0,
        "elapsed_us {elapsed} in {json}"
    );
}

/// The text output as (label, value) pairs: every line after the heading is `label  value`.
fn text_fields(text: &str) -> Vec<(String, String)> {
    text.lines()
        .skip(1)
        .map(|line| {
            let (label, rest) = line
                .split_once("  ")
                .unwrap_or_else(|| panic!("`label  value` line: {line:?}"));
            (label.trim().to_owned(), rest.trim().to_owned())
        })
        .collect()
}

fn field<'a>(fields: &'a [(String, String)], label: &str) -> &'a str {
    fields.iter().find(|(l, _)| l == label).map_or_else(
        || panic!("no {label:?} line in {fields:?}"),
        |(_, v)| v.as_str(),
    )
}

fn number<T: std::str::FromStr>(text: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is a number: {e:?}"))
}

#[test]
fn solve_tictactoe_prints_value_move_counts_and_time() {
    let board = Board::parse("X...O....", None).unwrap();
    let expected = search(&board, Algorithm::AlphaBeta);
    let text = run_ok(&["solve", "tictactoe", "--board", "X...O...."]);
    assert!(
        text.starts_with("tictactoe X...O...., X to move, alpha-beta\n"),
        "{text}"
    );
    let fields = text_fields(&text);
    let labels: Vec<&str> = fields.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        labels,
        ["value", "best move", "nodes", "leaves", "cut-offs", "time"]
    );

    // "value      +0 (a draw with best play)"
    let value = field(&fields, "value");
    let (number_part, verdict) = value.split_once(' ').expect("value and verdict");
    assert_eq!(number::<i32>(number_part), expected.value, "{text}");
    assert!(verdict.starts_with('(') && verdict.ends_with(')'), "{text}");
    let cell = number::<u8>(field(&fields, "best move"));
    assert!((1..=9).contains(&cell), "{text}");
    assert_eq!(Some(cell - 1), expected.best_move, "{text}");
    assert_eq!(number::<u64>(field(&fields, "nodes")), expected.stats.nodes);
    assert_eq!(
        number::<u64>(field(&fields, "leaves")),
        expected.stats.leaves
    );
    assert_eq!(
        number::<u64>(field(&fields, "cut-offs")),
        expected.stats.cutoffs
    );
    let time = field(&fields, "time");
    let micros = time.strip_suffix(" µs").expect("time in µs");
    assert!(number::<f64>(micros) >= 0.0, "{text}");
}

#[test]
fn solve_tictactoe_json_is_one_object_agreeing_with_the_library() {
    let cases: &[(&str, Option<Mark>, &[&str])] = &[
        ("X...O....", None, &[]),
        ("X...O....", None, &["--algo", "minimax"]),
        ("XO..X....", Some(Mark::O), &["--to-move", "o"]),
        (".........", Some(Mark::O), &["--to-move", "o"]),
        ("XX.OO....", None, &[]), // X wins at once in cell 3
        ("XOXOXO...", None, &["--algo", "alphabeta"]),
    ];
    for &(text, to_move, extra) in cases {
        let board = Board::parse(text, to_move).unwrap();
        let algorithm = if extra.contains(&"minimax") {
            Algorithm::Minimax
        } else {
            Algorithm::AlphaBeta
        };
        let expected = search(&board, algorithm);
        let mut args = vec!["solve", "tictactoe", "--board", text, "--json"];
        args.extend_from_slice(extra);
        let json = parse_json(&run_ok(&args));
        let cell = json_u64(&json, "best_move");
        assert!((1..=9).contains(&cell), "best_move is a cell 1-9: {json}");
        assert_json_matches(&json, &expected, expected.best_move.map(|m| m + 1));
        assert_eq!(json["position"], text, "{json}");
    }
    let json = parse_json(&run_ok(&[
        "solve",
        "tictactoe",
        "--board",
        "XX.OO....",
        "--json",
    ]));
    assert_eq!(json_u64(&json, "best_move"), 3, "the immediate win");
    assert_eq!(
        json_i64(&json, "value"),
        9,
        "a win in one ply is worth 10 - 1"
    );
}

#[test]
fn solve_minimax_from_the_empty_board_visits_549_946_nodes() {
    let text = run_ok(&["solve", "tictactoe", "--algo", "minimax"]);
    let fields = text_fields(&text);
    assert_eq!(number::<u64>(field(&fields, "nodes")), 549_946, "{text}");
    assert_eq!(number::<u64>(field(&fields, "cut-offs")), 0, "{text}");
    assert!(field(&fields, "value").starts_with("+0 "), "{text}");

    let json = parse_json(&run_ok(&[
        "solve",
        "tictactoe",
        "--algo",
        "minimax",
        "--json",
    ]));
    assert_eq!(json_u64(&json, "nodes"), 549_946);
    assert_eq!(json_u64(&json, "leaves"), 255_168);
    assert_eq!(json_i64(&json, "value"), 0);
    assert_eq!(json_u64(&json, "cutoffs"), 0);
}

#[test]
fn solve_eight_json_works() {
    let json = parse_json(&run_ok(&[
        "solve", "eight", "--sum", "3", "--last", "2", "--json",
    ]));
    let best = json_u64(&json, "best_move");
    assert!(
        (1..=3).contains(&best) && best != 2,
        "best_move {best} is 1 or 3 (2 is barred): {json}"
    );
    let root = Eight::from_parts(3, Some(2)).unwrap();
    let expected = search(&root, Algorithm::AlphaBeta);
    assert_json_matches(&json, &expected, expected.best_move);

    // The start, with minimax: the second player wins (value 5 - 10 for the first).
    let json = parse_json(&run_ok(&["solve", "eight", "--json", "--algo", "minimax"]));
    let expected = search(&Eight::start(), Algorithm::Minimax);
    assert_json_matches(&json, &expected, expected.best_move);
    assert_eq!(json_i64(&json, "value"), -5);

    // Text output too.
    let text = run_ok(&["solve", "eight", "--sum", "6", "--last", "1"]);
    let fields = text_fields(&text);
    let best = number::<u8>(field(&fields, "best move"));
    assert_eq!(best, 2, "reaching 8 exactly wins: {text}");
}

#[test]
fn malformed_boards_exit_2_naming_the_problem() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["--board", "X..."], &["9 cells", "has 4"]),
        (&["--board", "X........."], &["9 cells", "has 10"]),
        (&["--board", ""], &["9 cells", "has 0"]),
        (&["--board", "X..Z....."], &["cell 4", "'Z'"]),
        (&["--board", "X...0...."], &["cell 5", "'0'"]),
        (
            &["--board", "XX......."],
            &["impossible piece counts", "2 X and 0 O"],
        ),
        (
            &["--board", "OOO.X...."],
            &["impossible piece counts", "1 X and 3 O"],
        ),
        (
            &["--board", "X........", "--to-move", "x"],
            &["X cannot be to move", "1 X and 0 O"],
        ),
        (
            &["--board", "XO..O....", "--to-move", "o"],
            &["O cannot be to move", "1 X and 2 O"],
        ),
        (
            &["--board", "XXXOO...."],
            &["already over", "X has three in a row"],
        ),
        (&["--board", "XOXXOOOXX"], &["already over", "full"]),
        (
            &["--board", "OOOXX.X..", "--to-move", "x"],
            &["already over", "O has three in a row"],
        ),
    ];
    for (args, needles) in cases {
        let mut full = vec!["solve", "tictactoe"];
        full.extend_from_slice(args);
        run_usage_error(&full, needles);
        // The same with --json: still a message on stderr, no JSON.
        full.push("--json");
        run_usage_error(&full, needles);
    }
}

#[test]
fn impossible_eight_positions_exit_2_naming_the_problem() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["--sum", "3"], &["needs the last choice"]),
        (&["--sum", "1", "--last", "2"], &["exceeds the sum"]),
        (&["--sum", "2", "--last", "1"], &["no sequence of choices"]),
        (&["--sum", "0", "--last", "2"], &["exceeds the sum"]),
        (
            &["--sum", "5", "--last", "4"],
            &["choose 1, 2 or 3", "not 4"],
        ),
        (
            &["--sum", "2", "--last", "0"],
            &["needs the last choice (1-3)"],
        ),
        (&["--sum", "8", "--last", "2"], &["over"]),
        (&["--sum", "9", "--last", "1"], &["over"]),
    ];
    for (args, needles) in cases {
        let mut full = vec!["solve", "eight"];
        full.extend_from_slice(args);
        run_usage_error(&full, needles);
    }
}

#[test]
fn bad_command_lines_exit_2() {
    for args in [
        &["solve", "tictactoe", "--to-move", "z"][..],
        &["solve", "tictactoe", "--algo", "negamax"],
        &["solve", "eight", "--sum", "300"],
        &["solve", "chess"],
        &["--seed", "minus-one", "solve", "eight"],
        &["--no-such-flag"],
    ] {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}");
    }
}

/// A config file under the temp dir with a name no other test or run uses; removed on drop.
struct TempConfig(tempfile::NamedTempFile);

impl TempConfig {
    fn new(contents: &str) -> Self {
        let file = tempfile::Builder::new()
            .prefix("ai-arcade-cli-test-")
            .suffix(".toml")
            .tempfile()
            .expect("make the temp config");
        std::fs::write(file.path(), contents).expect("write the temp config");
        Self(file)
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

/// A bad `--config` ends with code 2 before the TUI would start (stdin is not a terminal,
/// so reaching the TUI would fail differently, with code 1 and a terminal error), naming
/// the file and the key.
#[test]
fn bad_config_files_exit_2_before_the_tui_naming_file_and_key() {
    let cases: &[(&str, &[&str])] = &[
        // Unknown keys, at the top and inside a table.
        ("bogus = 1\n", &["bogus", "unknown field"]),
        ("[ui]\ncolour = true\n", &["ui.colour", "unknown field"]),
        (
            "[search]\nautoplay_ms = 250\nspeed = 3\n",
            &["search.speed"],
        ),
        // Wrong types.
        (
            "[search]\nautoplay_ms = \"fast\"\n",
            &["search.autoplay_ms", "invalid type"],
        ),
        ("[ui]\nmouse = \"yes\"\n", &["ui.mouse"]),
        ("seed = -1\n", &["seed"]),
        ("[tictactoe]\nfirst = \"nobody\"\n", &["tictactoe.first"]),
        // Out of range.
        (
            "[search]\nautoplay_ms = 5\n",
            &["search.autoplay_ms", "10..=5000"],
        ),
        (
            "[search]\nautoplay_ms = 0\n",
            &["search.autoplay_ms", "10..=5000"],
        ),
        (
            "[search]\nautoplay_ms = 5001\n",
            &["search.autoplay_ms", "5001"],
        ),
    ];
    for (contents, needles) in cases {
        let file = TempConfig::new(contents);
        let path = file.path().display().to_string();
        let err = run_usage_error(&["--config", &path], needles);
        assert!(
            err.contains(&path),
            "stderr names the file {path}: {err} (config {contents:?})"
        );
        assert!(!err.contains("terminal error"), "{err}");
    }
}

#[test]
fn a_missing_config_file_exits_2_naming_it() {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("does-not-exist.toml");
    let path = path.display().to_string();
    run_usage_error(&["--config", &path], &[&path, "cannot read"]);
}

#[test]
fn help_and_version_exit_0() {
    let help = run_ok(&["--help"]);
    assert!(help.contains("solve"), "{help}");
    assert!(help.contains("--config"), "{help}");
    let solve_help = run_ok(&["solve", "--help"]);
    assert!(solve_help.contains("tictactoe") && solve_help.contains("eight"));
    run_ok(&["solve", "tictactoe", "--help"]);
    let version = run_ok(&["--version"]);
    assert!(
        version.contains(env!("CARGO_PKG_VERSION")),
        "--version prints {version:?}"
    );
}

#[test]
fn train_subtraction_reports_json_and_saves_the_weights() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("train");
    let data = dir.to_str().unwrap();
    let args = [
        "--data-dir",
        data,
        "train",
        "subtraction",
        "--epochs",
        "300",
        "--seed",
        "2",
        "--json",
    ];
    let output = run(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: Value = serde_json::from_str(&stdout(&output)).expect("one JSON object");
    for key in [
        "winning_positions",
        "winning_correct",
        "illegal_raw",
        "final_loss",
        "epochs",
        "elapsed_ms",
    ] {
        assert!(json.get(key).is_some(), "missing {key}: {json}");
    }
    assert_eq!(json["winning_positions"], 120);
    assert_eq!(json["epochs"], 300);
    assert!(json["winning_correct"].as_u64().unwrap() <= 120);
    assert!(dir.join("subtraction-mlp.json").exists(), "weights saved");
    assert_no_progress(&stderr(&output));
}

#[test]
fn train_subtraction_rejects_bad_hyperparameters() {
    run_usage_error(
        &["--data-dir", "/tmp", "train", "subtraction", "--lr", "0"],
        &["--lr", "above 0 and at most 10"],
    );
}

#[test]
fn train_graph_reports_json_saves_and_writes_dot() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("graph");
    std::fs::create_dir_all(&dir).unwrap();
    let dot = dir.join("nim.dot");
    let (data, dot_path) = (dir.to_str().unwrap(), dot.to_str().unwrap());
    let out = run_ok(&[
        "--data-dir",
        data,
        "--seed",
        "3",
        "train",
        "graph",
        "--games",
        "10000",
        "--json",
        "--dot",
        dot_path,
    ]);
    let json: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(json["vertices"], 22);
    assert_eq!(json["edges"], 38);
    assert_eq!(json["winning_vertices"], 13);
    assert_eq!(json["games"], 10000);
    let share = json["optimal_share"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&share));
    assert!(json["elapsed_ms"].as_f64().is_some());
    let weights = json["weights"].as_array().unwrap();
    assert_eq!(weights.len(), 38);
    assert!(
        weights
            .iter()
            .all(|w| w["from"].is_string() && w["to"].is_string() && w["weight"].is_i64())
    );
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(text.contains("\"p1-10\" -> \"p2-9\""));
    assert!(dir.join("state-graph.json").exists());
}

/// Asserts that stderr (a pipe, not a terminal) carries no progress bar: no carriage
/// returns, no redrawn line; only the one line that says the run began.
fn assert_no_progress(err: &str) {
    assert!(!err.contains('\r'), "a pipe gets no progress bar: {err:?}");
    let training: Vec<&str> = err.lines().filter(|l| l.contains("training ")).collect();
    assert!(
        training.len() == 1
            && training[0].starts_with("ai-arcade: training ")
            && training[0].ends_with("; Ctrl-C stops it without saving"),
        "a pipe gets one line as the run begins, no bar: {err:?}"
    );
}

/// An empty data dir under the temp dir for one test, named after `tag`, and its path; the
/// dir is removed, with what the test wrote in it, when the guard is dropped (a failed test
/// too).
fn empty_dir(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::Builder::new()
        .prefix(&format!("ai-arcade-cli-{tag}-"))
        .tempdir()
        .expect("create the data dir");
    let dir = temp.path().to_path_buf();
    (temp, dir)
}

/// The files in `dir` with their contents, sorted by name.
fn dir_contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("read the data dir")
        .map(|entry| {
            let entry = entry.expect("a dir entry");
            let bytes = std::fs::read(entry.path()).unwrap_or_default();
            (entry.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn train_flags_are_refused_in_their_own_terms_before_anything_is_written() {
    let (_temp, dir) = empty_dir("flags");
    let data = dir.to_str().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["qlearning", "--games", "0"], &["--games", "1..=10000000"]),
        (
            &["qlearning", "--games", "10000001"],
            &["--games", "1..=10000000"],
        ),
        (&["graph", "--games", "0"], &["--games", "1..=100000000"]),
        (&["graph", "--tokens", "101"], &["--tokens", "1..=100"]),
        (&["graph", "--max-take", "0"], &["--max-take", "1..=5"]),
        (
            &["subtraction", "--epochs", "0"],
            &["--epochs", "1..=1000000"],
        ),
        (
            &["subtraction", "--hidden", "300"],
            &["--hidden", "1..=256"],
        ),
        (&["subtraction", "--lr", "-1"], &["--lr", "above 0"]),
        (&["nim-net", "--epochs", "0"], &["--epochs", "1..=1000000"]),
        (
            &["nim-net", "--epochs", "1000001"],
            &["--epochs", "1..=1000000"],
        ),
        (
            &["nim-net", "--epochs", "many"],
            &["--epochs", "1..=1000000"],
        ),
        (&["graph", "--games", "-5"], &["--games", "1..=100000000"]),
    ];
    for (args, needles) in cases {
        let mut full = vec!["--data-dir", data, "train"];
        full.extend_from_slice(args);
        let err = run_usage_error(&full, needles);
        for config_speak in ["Some(", "qlearning.", "nim_net.", "subtraction.", "graph."] {
            assert!(
                !err.contains(config_speak),
                "{args:?}: the error speaks in flag names, not {config_speak:?}: {err}"
            );
        }
    }
    assert!(dir_contents(&dir).is_empty(), "nothing was written");
}

#[test]
fn train_nim_net_epochs_have_the_bounds_of_train_subtraction() {
    let allowed = |learner: &str, epochs: &str| {
        let err = run_usage_error(
            &["--data-dir", "/tmp", "train", learner, "--epochs", epochs],
            &["--epochs"],
        );
        err.split("--epochs <N>'")
            .nth(1)
            .expect("clap names the flag")
            .lines()
            .next()
            .unwrap()
            .to_owned()
    };
    for epochs in ["0", "1000001"] {
        assert_eq!(
            allowed("nim-net", epochs),
            allowed("subtraction", epochs),
            "--epochs {epochs}"
        );
    }
}

#[test]
fn each_train_command_describes_its_own_recipes() {
    let q = run_ok(&["train", "qlearning", "--help"]);
    assert!(
        !q.contains("cross-entropy") && q.contains("Exploring starts") && q.contains("20000"),
        "{q}"
    );
    let net = run_ok(&["train", "nim-net", "--help"]);
    assert!(
        net.contains("Two hidden layers of 64") && net.contains("14 hidden, squared error"),
        "{net}"
    );
    let sub = run_ok(&["train", "subtraction", "--help"]);
    assert!(
        sub.contains("cross-entropy") && !sub.contains("Exploring"),
        "{sub}"
    );
    for help in [&q, &net, &sub] {
        assert!(!help.contains("The seed's recipe"), "{help}");
    }
}

#[test]
fn train_without_a_seed_draws_one_names_it_and_it_repeats_the_run() {
    let help = run_ok(&["train", "graph", "--help"]);
    assert!(help.contains("drawn from the clock"), "{help}");
    let (_temp, dir) = empty_dir("seed");
    let data = dir.to_str().unwrap();
    let args = [
        "--data-dir",
        data,
        "train",
        "graph",
        "--games",
        "300",
        "--json",
    ];
    let output = run(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let drawn = parse_json(&stdout(&output));
    let seed = json_u64(&drawn, "seed").to_string();
    let err = stderr(&output);
    assert!(
        err.contains(&format!("--seed {seed} repeats this run")),
        "stderr names the seed {seed}: {err}"
    );
    let again = parse_json(&run_ok(&[
        "--data-dir",
        data,
        "--seed",
        &seed,
        "train",
        "graph",
        "--games",
        "300",
        "--json",
        "--yes",
    ]));
    assert_eq!(
        again["weights"], drawn["weights"],
        "the same seed, the same run"
    );
    // A seed that was given is not announced.
    let given = run(&[
        "--data-dir",
        data,
        "--seed",
        "5",
        "train",
        "graph",
        "--games",
        "10",
        "--yes",
    ]);
    assert!(!stderr(&given).contains("drawn from the clock"));
    assert!(stdout(&given).contains("seed 5"), "{}", stdout(&given));
}

#[test]
fn no_progress_bar_goes_to_a_pipe() {
    let (_temp, dir) = empty_dir("pipe");
    let data = dir.to_str().unwrap();
    for args in [
        &["graph", "--games", "5000"][..],
        &["subtraction", "--epochs", "50"],
        &["qlearning", "--games", "500"],
    ] {
        let mut full = vec!["--data-dir", data, "--seed", "1", "train"];
        full.extend_from_slice(args);
        let output = run(&full);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_no_progress(&stderr(&output));
    }
}

/// Runs the binary with stderr on a pseudo-terminal of 80x24 and stdout on a pipe; returns
/// (exit code, stdout, what the terminal received).
#[cfg(unix)]
fn run_with_terminal_stderr(args: &[&str]) -> (Option<i32>, String, String) {
    use nix::pty::{Winsize, openpty};
    use std::io::Read;
    let size = Winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let pty = openpty(&size, None).expect("a pseudo-terminal");
    let child = Command::new(BIN)
        .args(args)
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(pty.slave))
        .spawn()
        .expect("the binary starts");
    // The terminal's other end, read until the binary (its only writer) is gone.
    let mut master = std::fs::File::from(pty.master);
    let reader = thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buffer = [0u8; 4096];
        while let Ok(n) = master.read(&mut buffer) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buffer[..n]);
        }
        String::from_utf8_lossy(&seen).into_owned()
    });
    let output = child.wait_with_output().expect("collect output");
    let terminal = reader.join().expect("the reader ends");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8"),
        terminal,
    )
}

#[cfg(unix)]
#[test]
fn the_progress_bar_draws_on_a_terminal_and_never_on_stdout() {
    let (_temp, dir) = empty_dir("tty");
    let data = dir.to_str().unwrap();
    let (code, out, terminal) = run_with_terminal_stderr(&[
        "--data-dir",
        data,
        "--seed",
        "1",
        "train",
        "graph",
        "--games",
        "200000",
        "--tokens",
        "100",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{terminal}");
    assert!(
        terminal.contains("training ") && terminal.contains("/200000 games"),
        "the bar is drawn on the terminal: {terminal:?}"
    );
    let json = parse_json(&out);
    assert_eq!(json_u64(&json, "games"), 200_000);
    assert!(!out.contains("training"), "{out}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_long_training_run_and_leaves_the_data_dir_as_it_was() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let (_temp, dir) = empty_dir("ctrl-c");
    let data = dir.to_str().unwrap();
    run_ok(&[
        "--data-dir",
        data,
        "--seed",
        "1",
        "train",
        "graph",
        "--games",
        "100",
    ]);
    let before = dir_contents(&dir);
    assert!(
        before.iter().any(|(name, _)| name == "state-graph.json"),
        "one trained graph: {before:?}"
    );
    // 100,000,000 games on 100 tokens take about a minute: far longer than the wait.
    let mut child = Command::new(BIN)
        .args([
            "--data-dir",
            data,
            "--seed",
            "2",
            "train",
            "graph",
            "--games",
            "100000000",
            "--tokens",
            "100",
            "--yes",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Wait for the line that says training began (written once Ctrl-C is listened for).
    let mut err_pipe = BufReader::new(child.stderr.take().expect("stderr piped"));
    let mut started_line = String::new();
    err_pipe.read_line(&mut started_line).expect("read stderr");
    assert!(
        started_line.starts_with("ai-arcade: training 100000000 games"),
        "{started_line}"
    );
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).expect("send SIGINT");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > TIMEOUT {
            child.kill().expect("kill the binary");
            panic!("Ctrl-C did not stop training within {TIMEOUT:?}");
        }
        thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().expect("collect output");
    let mut err = String::new();
    err_pipe.read_to_string(&mut err).expect("read stderr");
    assert_eq!(
        output.status.code(),
        Some(130),
        "128 + SIGINT; stderr: {err}"
    );
    assert!(
        err.contains("interrupted after") && err.contains("nothing was saved"),
        "{err}"
    );
    assert!(output.stdout.is_empty(), "no report: {}", stdout(&output));
    assert_eq!(dir_contents(&dir), before, "the data dir is as it was");
}

#[test]
fn solve_honours_the_config() {
    let minimax = TempConfig::new("[search]\nalgorithm = \"minimax\"\n");
    let path = minimax.path().to_str().unwrap();
    let json = parse_json(&run_ok(&["--config", path, "solve", "eight", "--json"]));
    assert_eq!(json["algorithm"], "minimax", "{json}");
    assert_eq!(json_u64(&json, "cutoffs"), 0, "{json}");
    let json = parse_json(&run_ok(&[
        "--config",
        path,
        "solve",
        "eight",
        "--algo",
        "alphabeta",
        "--json",
    ]));
    assert_eq!(
        json["algorithm"], "alphabeta",
        "--algo wins over the config"
    );

    let bad = TempConfig::new("bogus = 1\n");
    let bad_path = bad.path().to_str().unwrap();
    run_usage_error(
        &["--config", bad_path, "solve", "eight"],
        &[bad_path, "bogus"],
    );
    let temp = tempfile::tempdir().unwrap();
    let missing = temp.path().join("solve-missing.toml");
    let missing = missing.to_str().unwrap();
    run_usage_error(
        &["--config", missing, "solve", "tictactoe"],
        &[missing, "cannot read"],
    );
}

#[test]
fn a_huge_board_is_not_echoed_whole() {
    let board = "X".repeat(100_000);
    let err = run_usage_error(
        &["solve", "tictactoe", "--board", &board],
        &["…", "100000 characters", "has 100000"],
    );
    assert!(err.len() < 300, "{} bytes of error: {err}", err.len());
    // A short one is still quoted whole.
    run_usage_error(
        &["solve", "tictactoe", "--board", "X..Z....."],
        &["\"X..Z.....\""],
    );
}

#[test]
fn solve_eight_takes_last_0_at_sum_0_as_the_start() {
    let without_elapsed = |args: &[&str]| {
        let mut json = parse_json(&run_ok(args));
        json.as_object_mut().unwrap().remove("elapsed_us");
        json
    };
    assert_eq!(
        without_elapsed(&["solve", "eight", "--sum", "0", "--last", "0", "--json"]),
        without_elapsed(&["solve", "eight", "--json"])
    );
}

/// Every line of every `train` text report but the saved path fits the 80 columns the
/// arcade is made for.
#[test]
fn train_reports_fit_80_columns() {
    let (_temp, dir) = empty_dir("width");
    let data = dir.to_str().unwrap();
    for args in [
        &[
            "graph",
            "--games",
            "20000",
            "--tokens",
            "100",
            "--max-take",
            "5",
        ][..],
        &["subtraction", "--epochs", "20"],
        &["qlearning", "--games", "300", "--piles", "1,3,5,7,9,11"],
        &["nim-net", "--epochs", "1"],
    ] {
        let mut full = vec!["--data-dir", data, "--seed", "999999", "train"];
        full.extend_from_slice(args);
        let text = run_ok(&full);
        // A path is as long as the user made it; everything else fits.
        let lines = text.lines().filter(|l| !l.starts_with("saved to"));
        for line in lines {
            assert!(
                line.chars().count() <= 80,
                "{args:?}: a line of {} columns: {line:?}",
                line.chars().count()
            );
        }
    }
}

#[test]
fn solve_connect4_scores_a_position_and_every_column() {
    // The first player has three in column 1 and wins with its 4th stone: 22 - 4 = 18.
    let json = parse_json(&run_ok(&[
        "solve", "connect4", "--moves", "1212123", "--json",
    ]));
    assert_eq!(json_i64(&json, "score"), 18, "{json}");
    assert_eq!(
        json_u64(&json, "best_move"),
        2,
        "column 2 is the second player's four"
    );
    // A position near the end, every column, against plain negamax from the library.
    let moves = "64342642125236167731715341453437";
    let board = ai_arcade::domain::games::connect4::Board::parse(moves).unwrap();
    let json = parse_json(&run_ok(&[
        "solve", "connect4", "--moves", moves, "--all", "--json",
    ]));
    let scores = json["scores"].as_array().expect("scores").clone();
    for (column, score) in scores.iter().enumerate() {
        let expected = board.can_play(column).then(|| {
            let after = board.play(column);
            if after.is_won() {
                ai_arcade::domain::solve::connect4::win_now_score(&board)
            } else {
                -ai_arcade::domain::solve::connect4::plain_negamax(&after)
            }
        });
        assert_eq!(
            score.as_i64().map(|s| s as i32),
            expected,
            "column {}",
            column + 1
        );
    }
}

#[test]
fn solve_connect4_refuses_a_finished_or_malformed_position_with_status_2() {
    for (moves, says) in [
        ("1212121", "the game is over (four in a row)"),
        ("448", "move 3: '8' is no column"),
        ("1111111", "move 7: column 1 is full"),
    ] {
        let output = run(&["solve", "connect4", "--moves", moves]);
        assert_eq!(output.status.code(), Some(2), "{moves}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{moves}: {stderr}");
    }
}

#[test]
fn bench_mcts_reports_speed_tree_and_move_the_same_for_a_seed_and_refuses_bad_iterations() {
    let args = [
        "bench",
        "mcts",
        "--game",
        "connect4",
        "--iterations",
        "2000",
        "--seed",
        "3",
    ];
    let text = run_ok(&args);
    assert!(text.starts_with("mcts on connect4"), "{text}");
    let fields = text_fields(&text);
    assert_eq!(field(&fields, "iterations"), "2,000");
    let seconds: f64 = number(field(&fields, "seconds"));
    assert!(seconds >= 0.0, "{text}");
    let per_second: u64 = number(&field(&fields, "per second").replace(',', ""));
    assert!(per_second > 0, "{text}");
    let nodes: u64 = number(
        &field(&fields, "tree nodes")
            .split(' ')
            .next()
            .unwrap()
            .replace(',', ""),
    );
    assert!((8..=2001).contains(&nodes), "{text}");
    assert!(
        field(&fields, "chosen move").starts_with("column "),
        "{text}"
    );

    let json_args: Vec<&str> = args.iter().copied().chain(["--json"]).collect();
    let json = parse_json(&run_ok(&json_args));
    assert_eq!(json["game"], "connect4");
    assert_eq!(json_u64(&json, "iterations"), 2000);
    assert_eq!(json_u64(&json, "seed"), 3);
    assert_eq!(json_u64(&json, "nodes"), nodes, "one seed, one tree");
    assert!((1..=7).contains(&json_u64(&json, "move")), "{json}");
    assert!(json_u64(&json, "move_visits") <= 2000, "{json}");
    let mean = json["move_mean"].as_f64().expect("move_mean");
    assert!((0.0..=1.0).contains(&mean), "{json}");
    assert!(
        json["iterations_per_second"].as_f64().unwrap() > 0.0,
        "{json}"
    );
    let again = parse_json(&run_ok(&json_args));
    for key in ["nodes", "slots", "move", "move_visits"] {
        assert_eq!(
            json[key], again[key],
            "{key}: the same seed, the same search"
        );
    }

    let tictactoe = parse_json(&run_ok(&[
        "bench",
        "mcts",
        "--game",
        "tictactoe",
        "--iterations",
        "2000",
        "--json",
    ]));
    assert_eq!(tictactoe["game"], "tictactoe");
    assert_eq!(
        json_u64(&tictactoe, "seed"),
        7,
        "a bench's seed without --seed"
    );
    assert!(
        (1..=9).contains(&json_u64(&tictactoe, "move")),
        "{tictactoe}"
    );

    for bad in ["0", "10000001"] {
        run_usage_error(
            &["bench", "mcts", "--game", "connect4", "--iterations", bad],
            &[&format!("--iterations {bad}"), "allowed 1..=10000000"],
        );
    }
    run_usage_error(
        &["bench", "mcts", "--game", "chess", "--iterations", "10"],
        &["chess"],
    );
}

/// A JSON object without its timings, which differ from run to run.
fn without_times(mut value: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|key, _| !key.contains("second") && key != "games_per_second");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

#[test]
fn arena_plays_alternating_sides_and_repeats_with_its_seed() {
    let args = [
        "--seed", "11", "arena", "connect4", "--a", "mcts:200", "--b", "random", "--games", "4",
        "--json",
    ];
    let json = parse_json(&run_ok(&args));
    assert_eq!(json["a"], "mcts:200", "{json}");
    assert_eq!(json["b"], "random", "{json}");
    assert_eq!(json_u64(&json, "games"), 4, "{json}");
    assert_eq!(json_u64(&json, "seed"), 11, "{json}");
    for side in ["a_as_red", "a_as_yellow"] {
        assert_eq!(json_u64(&json[side], "games"), 2, "{side}: {json}");
    }
    let total = &json["a_total"];
    assert_eq!(
        json_u64(total, "wins") + json_u64(total, "draws") + json_u64(total, "losses"),
        4,
        "{json}"
    );
    for side in ["a_moves", "b_moves"] {
        assert!(json_u64(&json[side], "moves") >= 8, "{side}: {json}");
        assert!(json[side]["seconds_per_move"].as_f64().is_some(), "{json}");
        assert_eq!(json_u64(&json[side], "fell_back"), 0, "{json}");
    }
    assert!(json["games_per_second"].as_f64().is_some_and(|g| g > 0.0));
    // Every draw comes from the seed: the same seed plays the same games.
    let again = parse_json(&run_ok(&args));
    assert_eq!(without_times(again), without_times(json.clone()));
    // The text names the players and the three rows.
    let text = run_ok(&args[..args.len() - 1]);
    for needle in [
        "A = mcts:200 against B = random, 4 games, seed 11",
        "as red (2)",
        "as yellow (2)",
        "total (4)",
        "games a second",
    ] {
        assert!(text.contains(needle), "{needle:?} in {text}");
    }
}

#[test]
fn arena_refuses_bad_players_and_counts() {
    run_usage_error(
        &["arena", "connect4", "--a", "minimax:3", "--b", "random"],
        &["--a", "\"minimax:3\" is no player", "alphabeta:DEPTH"],
    );
    run_usage_error(
        &["arena", "connect4", "--a", "random", "--b", "alphabeta:13"],
        &["--b", "depth must be a whole number from 1 to 12"],
    );
    run_usage_error(
        &[
            "arena", "connect4", "--a", "random", "--b", "mcts", "--json",
        ],
        &["\"mcts\" needs its iterations after a colon"],
    );
    for games in ["0", "10001"] {
        run_usage_error(
            &[
                "arena", "connect4", "--a", "random", "--b", "random", "--games", games,
            ],
            &["--games", "play 1 to 10,000 games"],
        );
    }
    // clap's own: a player missing, or --quality with players.
    for args in [
        &["arena", "connect4", "--a", "random"][..],
        &["arena", "connect4", "--quality", "--a", "random"],
        &["arena", "connect4", "--positions", "5"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn arena_quality_weighs_every_ai_on_solved_positions_and_repeats() {
    let args = [
        "--seed",
        "3",
        "arena",
        "connect4",
        "--quality",
        "--positions",
        "5",
        "--json",
    ];
    let json = parse_json(&run_ok(&args));
    assert_eq!(json_u64(&json, "positions"), 5, "{json}");
    let solved = json_u64(&json, "solved");
    assert_eq!(solved + json_u64(&json, "skipped"), 5, "{json}");
    assert!(solved > 0, "{json}");
    let players: Vec<&str> = json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    assert_eq!(
        players,
        [
            "mcts:1000",
            "mcts:10000",
            "mcts:100000",
            "alphabeta:2",
            "alphabeta:4",
            "alphabeta:6",
            "alphabeta:8",
            "random"
        ]
    );
    for player in json["players"].as_array().unwrap() {
        let kept = json_u64(player, "kept");
        assert!(kept <= solved, "{player}");
        let share = player["share"].as_f64().unwrap();
        assert!(
            (share - kept as f64 / solved as f64).abs() < 1e-9,
            "{player}"
        );
    }
    let again = parse_json(&run_ok(&args));
    assert_eq!(without_times(again), without_times(json.clone()));
    let text = run_ok(&args[..args.len() - 1]);
    for needle in [
        "5 random positions of 8-16 moves, seed 3",
        "skipped",
        "alphabeta:8",
        "random",
    ] {
        assert!(text.contains(needle), "{needle:?} in {text}");
    }
    run_usage_error(
        &["arena", "connect4", "--quality", "--positions", "0"],
        &["--positions 0: weigh 1 to 10,000 positions"],
    );
    run_usage_error(
        &["arena", "connect4", "--quality", "--budget", "0"],
        &["--budget 0: give the solver at least one node"],
    );
}

#[test]
fn a_bad_lesson_exits_2_naming_the_file_and_key_before_any_screen() {
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked.toml");
    std::fs::write(&locked, "[lesson]\ntitle = \"x\"\nlocked = [\"?\"]\n").unwrap();
    let path = locked.to_str().unwrap();
    run_usage_error(
        &["--lesson", path],
        &[
            path,
            ", line 3: key `lesson.locked`",
            "cannot be locked: ? opens the help",
        ],
    );
    run_usage_error(
        &[
            "serve",
            "--open",
            "--listen",
            "127.0.0.1:0",
            "--lesson",
            path,
        ],
        &[path, "key `lesson.locked`"],
    );
    let range = dir.path().join("range.toml");
    std::fs::write(
        &range,
        "[lesson]\ntitle = \"x\"\n[search]\nautoplay_ms = 2\n",
    )
    .unwrap();
    let path = range.to_str().unwrap();
    run_usage_error(
        &["--lesson", path],
        &[
            path,
            ", line 4: key `search.autoplay_ms`: found 2, allowed 10..=5000",
        ],
    );
    run_usage_error(&["--lesson", "/no/such/lesson.toml"], &["cannot read file"]);
}

#[cfg(feature = "bench-tools")]
#[test]
fn bench_room_times_the_teacher_s_view_and_refuses_an_empty_room() {
    let json = parse_json(&run_ok(&["bench", "room", "--students", "3", "--json"]));
    assert_eq!(json_u64(&json, "students"), 3);
    assert_eq!(json_u64(&json, "rounds"), 100);
    let p50 = json["p50_ms"].as_f64().unwrap();
    let p99 = json["p99_ms"].as_f64().unwrap();
    assert!(p50 > 0.0 && p50 <= p99, "{json}");
    run_usage_error(
        &["bench", "room", "--students", "0"],
        &["--students 0: allowed 1..=200"],
    );
}

/// The load and attack tools against a server are the `bench-tools` feature's: the default
/// build neither lists nor runs them, and keeps the benches that only time this machine.
#[cfg(not(feature = "bench-tools"))]
#[test]
fn the_default_build_has_no_bench_ssh_or_bench_room() {
    let help = run_ok(&["bench", "--help"]);
    assert!(help.contains("mcts") && help.contains("watch"), "{help}");
    assert!(!help.contains("ssh") && !help.contains("room"), "{help}");
    for tool in ["ssh", "room"] {
        run_usage_error(
            &["bench", tool, "--help"],
            &[&format!("unrecognized subcommand '{tool}'")],
        );
    }
}

/// Issue 31 §1-2: `learn` lists the built-in course with each lesson's steps and title and
/// says how to start one; a lesson that is not in it is refused, naming those that are.
/// `--help` points there.
#[test]
fn learn_lists_the_built_in_course_and_refuses_a_lesson_not_in_it() {
    let list = run_ok(&["learn"]);
    for line in [
        "1. minimax    9 steps, about 15 min  Minimax on tic-tac-toe",
        "2. alphabeta  8 steps, about 15 min  Alpha-beta and pruning",
        "3. move-order 7 steps, about 10 min  Move ordering in alpha-beta",
        "4. mcts       8 steps, about 15 min  MCTS on tic-tac-toe",
        "5. qlearning  6 steps, about 12 min  Q-learning on Nim",
        "6. network    6 steps, about 12 min  A network learns Subtraction Nim",
        "7. connect4   8 steps, about 15 min  MCTS and alpha-beta on Connect Four",
        "8. graph      7 steps, about 12 min  The state graph learns Nim(10)",
        "9. nim-net    6 steps, about 12 min  A network and the XOR rule of Nim",
        "Start one with: ai-arcade learn minimax",
    ] {
        assert!(list.contains(line), "{line:?} in {list}");
    }
    let refused = run(&["learn", "chess"]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("no built-in lesson \"chess\"")
            && said.contains(
                "minimax, alphabeta, move-order, mcts, qlearning, network, connect4, graph, nim-net"
            ),
        "{said}"
    );
    assert!(run_ok(&["--help"]).contains("ai-arcade learn"));
}
