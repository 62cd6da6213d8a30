//! Model files under hostile conditions: every file the load would not use is kept aside by
//! whoever saves, a trained model is replaced only with consent and backed up as `.prev`,
//! concurrent savers never corrupt a file, special files never hang a reader, and failed
//! saves leave nothing behind.

use ai_arcade::app::{Action, App};
use ai_arcade::config::Config;
use ai_arcade::persist::Store;
use ai_arcade::tabs::state_graph::Action as GraphAction;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ai-arcade");
/// No run here takes more than a few seconds; a hang fails the test instead of blocking it.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the binary with stdin not a terminal and a time limit.
fn run(args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > TIMEOUT {
            child.kill().expect("kill");
            panic!("ai-arcade {args:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().expect("output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// An empty temporary folder named after `tag`, and its path; the folder is removed, with
/// what the test made in it, when the guard is dropped (a failed test too).
fn fresh_dir(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::Builder::new()
        .prefix(&format!("ai-arcade-files-{tag}-"))
        .tempdir()
        .unwrap();
    let dir = temp.path().to_path_buf();
    (temp, dir)
}

/// Every name in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// One `train` command, quick, and the file it writes.
struct Learner {
    args: &'static [&'static str],
    file: &'static str,
}

const SUBTRACTION: Learner = Learner {
    args: &["train", "subtraction", "--epochs", "20"],
    file: "subtraction-mlp.json",
};
const GRAPH: Learner = Learner {
    args: &["train", "graph", "--games", "200"],
    file: "state-graph.json",
};
const QLEARNING: Learner = Learner {
    args: &["train", "qlearning", "--games", "200"],
    file: "nim-qtable-misere-1-3-5-7.json",
};

fn train(dir: &Path, learner: &Learner, extra: &[&str]) -> Output {
    train_seeded(dir, learner, "5", extra)
}

fn train_seeded(dir: &Path, learner: &Learner, seed: &str, extra: &[&str]) -> Output {
    let mut args = vec!["--data-dir", dir.to_str().unwrap(), "--seed", seed];
    args.extend(learner.args);
    args.extend(extra);
    run(&args)
}

/// A good file of `learner`'s, as JSON.
fn good_file(learner: &Learner) -> Value {
    let (_temp, dir) = fresh_dir("good");
    let output = train(&dir, learner, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(dir.join(learner.file)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `good` with `edit` applied, as bytes.
fn edited(good: &Value, edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut value = good.clone();
    edit(&mut value);
    value.to_string().into_bytes()
}

/// A learner, what is wrong with the file, and the file's bytes.
type Case = (&'static Learner, &'static str, Vec<u8>);

fn subtraction_cases() -> Vec<Case> {
    let garbage = b"\xff\xfe".to_vec();
    let mut cases: Vec<Case> = Vec::new();
    let net = good_file(&SUBTRACTION);
    cases.push((&SUBTRACTION, "bytes ff fe", garbage.clone()));
    cases.push((
        &SUBTRACTION,
        "payload null",
        edited(&net, |v| v["payload"] = Value::Null),
    ));
    cases.push((
        &SUBTRACTION,
        "missing weights",
        edited(&net, |v| {
            v["payload"]["network"]["layers"][0]
                .as_object_mut()
                .unwrap()
                .remove("weights");
        }),
    ));
    cases.push((
        &SUBTRACTION,
        "mismatched weights",
        edited(&net, |v| {
            v["payload"]["network"]["layers"][1]["weights"]
                .as_array_mut()
                .unwrap()
                .pop();
        }),
    ));
    cases.push((
        &SUBTRACTION,
        "another n_max",
        edited(&net, |v| v["payload"]["n_max"] = json!(63)),
    ));
    cases.push((
        &SUBTRACTION,
        "learning rate 1e308",
        edited(&net, |v| {
            v["payload"]["recipe"]["learning_rate"] = json!(1e308);
        }),
    ));

    cases
}

fn graph_cases() -> Vec<Case> {
    let garbage = b"\xff\xfe".to_vec();
    let mut cases: Vec<Case> = Vec::new();
    let graph = good_file(&GRAPH);
    cases.push((&GRAPH, "bytes ff fe", garbage.clone()));
    cases.push((
        &GRAPH,
        "payload null",
        edited(&graph, |v| v["payload"] = Value::Null),
    ));
    cases.push((
        &GRAPH,
        "max_take 0",
        edited(&graph, |v| v["payload"]["max_take"] = json!(0)),
    ));
    cases.push((
        &GRAPH,
        "missing weights",
        edited(&graph, |v| {
            v["payload"].as_object_mut().unwrap().remove("weights");
        }),
    ));
    cases.push((
        &GRAPH,
        "mismatched weights",
        edited(&graph, |v| {
            v["payload"]["weights"].as_array_mut().unwrap().pop();
        }),
    ));
    cases.push((
        &GRAPH,
        "a weight above the games",
        edited(&graph, |v| {
            v["payload"]["weights"][0] = json!(1_000_000);
        }),
    ));

    cases
}

fn qlearning_cases() -> Vec<Case> {
    let garbage = b"\xff\xfe".to_vec();
    let mut cases: Vec<Case> = Vec::new();
    let table = good_file(&QLEARNING);
    cases.push((&QLEARNING, "bytes ff fe", garbage));
    cases.push((
        &QLEARNING,
        "payload null",
        edited(&table, |v| v["payload"] = Value::Null),
    ));
    cases.push((
        &QLEARNING,
        "a bad state",
        edited(&table, |v| {
            v["payload"]["entries"][0]["state"] = json!([9, 9, 9, 9]);
        }),
    ));
    cases.push((
        &QLEARNING,
        "a bad pile",
        edited(&table, |v| {
            v["payload"]["entries"][0]["pile"] = json!(7);
        }),
    ));
    cases.push((
        &QLEARNING,
        "a bad take",
        edited(&table, |v| {
            v["payload"]["entries"][0]["take"] = json!(0);
        }),
    ));
    cases.push((
        &QLEARNING,
        "alpha 1e308",
        edited(&table, |v| {
            v["payload"]["settings"]["alpha"] = json!(1e308);
        }),
    ));
    cases.push((
        &QLEARNING,
        "a Q-value of 1e300",
        edited(&table, |v| {
            v["payload"]["entries"][0]["value"] = json!(1e300);
        }),
    ));

    cases
}

/// The kinds of file the issue found `train` overwriting although the tabs refuse them, and
/// a few more: each must be kept aside as `.broken`, byte for byte, without asking.
#[test]
fn every_train_command_keeps_aside_every_file_the_load_would_not_use() {
    let mut cases = subtraction_cases();
    cases.extend(graph_cases());
    cases.extend(qlearning_cases());
    for (learner, what, bytes) in cases {
        let (_temp, dir) = fresh_dir("bad");
        std::fs::write(dir.join(learner.file), &bytes).unwrap();
        let output = train(&dir, learner, &[]);
        assert!(output.status.success(), "{what}: {}", stderr(&output));
        let kept = dir.join(format!("{}.broken", learner.file));
        assert_eq!(
            std::fs::read(&kept).ok(),
            Some(bytes),
            "{} {what}: kept aside byte for byte; {}",
            learner.file,
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("kept as"),
            "{what}: {}",
            stderr(&output)
        );
        assert!(
            !dir.join(format!("{}.prev", learner.file)).exists(),
            "{what}"
        );
    }
}

#[test]
fn replacing_a_trained_model_needs_yes_and_keeps_it_as_prev() {
    for learner in [&SUBTRACTION, &GRAPH, &QLEARNING] {
        let (_temp, dir) = fresh_dir("replace");
        let file = dir.join(learner.file);
        assert!(train(&dir, learner, &[]).status.success());
        let trained = std::fs::read(&file).unwrap();

        let refused = train(&dir, learner, &[]);
        assert_eq!(refused.status.code(), Some(2), "{}", learner.file);
        let why = stderr(&refused);
        assert!(
            why.contains("of training") && why.contains("--yes") && why.contains(".prev"),
            "{why}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), trained, "untouched");
        assert!(
            !why.contains("training ["),
            "refused before any training: {why}"
        );

        // Another seed: the same one would write the same bytes, and nothing is replaced.
        let replaced = train_seeded(&dir, learner, "6", &["--yes"]);
        assert!(replaced.status.success(), "{}", stderr(&replaced));
        let prev = dir.join(format!("{}.prev", learner.file));
        assert_eq!(std::fs::read(&prev).unwrap(), trained, "byte for byte");
        assert!(!dir.join(format!("{}.broken", learner.file)).exists());
    }
}

#[test]
fn resuming_the_network_asks_nothing_and_fresh_keeps_a_prev_not_a_broken() {
    let (_temp, dir) = fresh_dir("net");
    let data = dir.to_str().unwrap();
    let net = ["--data-dir", data, "train", "nim-net", "--epochs", "1"];
    assert!(run(&net).status.success());
    let file = dir.join("nim-net-normal-3x31.json");
    let first = std::fs::read(&file).unwrap();
    let resumed = run(&net);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains("resuming"));
    assert!(
        !dir.join("nim-net-normal-3x31.json.prev").exists(),
        "a resume loses nothing"
    );
    let second = std::fs::read(&file).unwrap();

    let mut fresh = net.to_vec();
    fresh.push("--fresh");
    let refused = run(&fresh);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("2 epochs of training"),
        "{}",
        stderr(&refused)
    );
    fresh.push("--yes");
    assert!(run(&fresh).status.success());
    assert_eq!(
        std::fs::read(dir.join("nim-net-normal-3x31.json.prev")).unwrap(),
        second
    );
    assert_ne!(first, second);
    assert!(!dir.join("nim-net-normal-3x31.json.broken").exists());
}

#[test]
fn an_unwritable_data_dir_is_reported_before_training() {
    let (_temp, dir) = fresh_dir("unwritable");
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let data = blocker.join("data");
    // 100 million games would take a minute: the refusal must come first.
    let output = run(&[
        "--data-dir",
        data.to_str().unwrap(),
        "train",
        "graph",
        "--games",
        "100000000",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let why = stderr(&output);
    assert!(
        why.contains("cannot save in") && why.contains("data"),
        "{why}"
    );
}

#[test]
fn concurrent_trainers_on_one_data_dir_leave_only_valid_files() {
    let (_temp, dir) = fresh_dir("concurrent");
    let data = dir.to_str().unwrap().to_string();
    let trainers: Vec<_> = (0..4)
        .map(|seed| {
            let data = data.clone();
            std::thread::spawn(move || {
                for round in 0..6 {
                    let seed = (seed * 10 + round).to_string();
                    let games = (100 + 37 * round).to_string();
                    let output = run(&[
                        "--data-dir",
                        &data,
                        "--seed",
                        &seed,
                        "train",
                        "graph",
                        "--games",
                        &games,
                        "--yes",
                    ]);
                    assert!(output.status.success(), "{}", stderr(&output));
                }
            })
        })
        .collect();
    for trainer in trainers {
        trainer.join().unwrap();
    }
    let left = names(&dir);
    assert_eq!(
        left,
        [
            ".ai-arcade.lock",
            "state-graph.json",
            "state-graph.json.prev"
        ],
        "no temporary file, nothing set aside"
    );
    for name in ["state-graph.json", "state-graph.json.prev"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let value: Value = serde_json::from_str(&text).expect("one JSON document");
        assert_eq!(value["format"], "ai-arcade/state-graph");
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_or_dev_zero_in_place_of_a_model_never_hangs_and_is_kept_aside() {
    use std::os::unix::fs::FileTypeExt;
    let (_temp, dir) = fresh_dir("fifo");
    let fifo = dir.join("state-graph.json");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("/dev/zero", dir.join("subtraction-mlp.json")).unwrap();

    // The arcade reads every model at start: it must come back, naming both.
    let store = Store::new(&dir);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let app = App::with_store(&Config::default(), 1, Some(store));
        let errors = (
            app.tabs.state_graph.load_error().map(str::to_owned),
            app.tabs.subtraction.load_error().map(str::to_owned),
        );
        sender.send(errors).unwrap();
    });
    let (graph, subtraction) = receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("the arcade starts instead of waiting on the FIFO");
    let graph = graph.expect("reported");
    assert!(
        graph.contains("a FIFO") && graph.contains("state-graph.json"),
        "{graph}"
    );
    let subtraction = subtraction.expect("reported");
    assert!(subtraction.contains("a character device"), "{subtraction}");

    let output = train(&dir, &GRAPH, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let kept = dir.join("state-graph.json.broken");
    assert!(
        std::fs::symlink_metadata(&kept)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    let output = train(&dir, &SUBTRACTION, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let link = std::fs::read_link(dir.join("subtraction-mlp.json.broken")).unwrap();
    assert_eq!(link, Path::new("/dev/zero"), "the symlink itself is kept");
}

#[test]
fn a_failed_dot_export_leaves_no_file_behind() {
    let (_temp, dir) = fresh_dir("dot");
    std::fs::create_dir(dir.join("state-graph.dot")).unwrap();
    let mut app = App::with_store(&Config::default(), 1, Some(Store::new(&dir)));
    app.update(Action::from(GraphAction::Export));
    let message = app.message.clone().expect("the export says how it went");
    assert_eq!(
        message.kind,
        ai_arcade::app::MessageKind::Error,
        "{}",
        message.text
    );
    assert_eq!(names(&dir), ["state-graph.dot"], "no temporary file left");

    let dot = dir.join("state-graph.dot").join("sub");
    std::fs::create_dir(&dot).unwrap();
    let output = train(&dir, &GRAPH, &["--dot", dot.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        names(&dir.join("state-graph.dot")),
        ["sub"],
        "no temporary file left"
    );
}

#[cfg(unix)]
#[test]
fn a_dot_export_on_a_full_disk_leaves_no_cut_off_file() {
    let (_temp, dir) = fresh_dir("full");
    let dot = dir.join("nim.dot");
    // A file size limit (16 blocks) stands in for a full disk: a write past it fails, with the
    // signal that would end the process ignored, as a full disk fails a write with ENOSPC.
    // The model file (a few KB) fits; the DOT export (about 40 KB) does not.
    let output = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 16; exec \"$0\" \"$@\"")
        .arg(BIN)
        .args([
            "--data-dir",
            dir.to_str().unwrap(),
            "--seed",
            "1",
            "train",
            "graph",
        ])
        .args(["--games", "100", "--tokens", "100", "--max-take", "5"])
        .args(["--dot", dot.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--dot"), "{}", stderr(&output));
    assert!(!dot.exists(), "no empty or cut-off DOT file");
    assert!(
        names(&dir).iter().all(|name| !name.contains(".tmp")),
        "no temporary file: {:?}",
        names(&dir)
    );
}
