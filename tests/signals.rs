//! The terminal is restored whatever the signals and their timing: the binary runs in a real
//! pseudo-terminal, trains the 3-pile network, and is sent two ending signals at seeded random
//! moments (0 to 3 ms apart, as a shell's `kill` twice or a supervisor's TERM then TERM would). After each run the pty must be out of raw mode, off the alternate screen and
//! without mouse capture.
#![cfg(unix)]

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustix::process::{Pid, Signal, kill_process};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Rounds per test: bounded, and enough gaps that some pair lands between the first signal
/// and the restore on every run of the old code.
const ROUNDS: usize = 24;
/// Longest wait for the program to show its first frame or to end.
const PATIENCE: Duration = Duration::from_secs(20);

/// Everything the program wrote to the pty, read on a thread so the child never blocks.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Output {
    fn collect(reader: Box<dyn Read + Send>) -> Self {
        let output = Self::default();
        let sink = output.clone();
        thread::spawn(move || {
            let mut reader = reader;
            let mut chunk = [0u8; 4096];
            while let Ok(n) = reader.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.0.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        output
    }

    fn bytes(&self) -> Vec<u8> {
        self.0.lock().unwrap().clone()
    }

    fn len(&self) -> usize {
        self.0.lock().unwrap().len()
    }

    fn wait_for(&self, text: &str) -> bool {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if String::from_utf8_lossy(&self.bytes()).contains(text) {
                return true;
            }
            thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

/// An empty temporary folder for `round`, and its path; the folder is removed when the guard
/// is dropped (a failed round too).
fn data_dir(round: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let temp = tempfile::Builder::new()
        .prefix(&format!("ai-arcade-signals-{round}-"))
        .tempdir()
        .unwrap();
    let dir = temp.path().to_path_buf();
    (temp, dir)
}

/// The pty's modes as `stty -a` prints them, read by running `stty` on the same pty after the
/// program has ended.
fn stty_modes(pair: &portable_pty::PtyPair, output: &Output) -> Vec<String> {
    let before = output.len();
    let mut stty = CommandBuilder::new("stty");
    stty.arg("-a");
    let mut child = pair.slave.spawn_command(stty).expect("stty runs");
    child.wait().unwrap();
    let deadline = Instant::now() + PATIENCE;
    loop {
        let printed = String::from_utf8_lossy(&output.bytes()[before..]).into_owned();
        if printed.contains("icanon") && printed.contains("echo") {
            return printed.split_whitespace().map(str::to_string).collect();
        }
        assert!(
            Instant::now() < deadline,
            "stty printed nothing: {printed:?}"
        );
        thread::sleep(Duration::from_millis(10));
    }
}

/// The arcade running in an 80x24 pty, its first frame drawn.
struct InPty {
    pair: portable_pty::PtyPair,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    output: Output,
    keys: Box<dyn Write + Send>,
    /// The data dir, removed when the run ends.
    _temp: tempfile::TempDir,
}

/// Starts the arcade in a pty for `round`, with `config` (if any) as its config file, and
/// waits for a first frame showing `shown`.
fn start_in_pty(round: usize, config: Option<&str>, shown: &str) -> InPty {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let (temp, dir) = data_dir(round);
    let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_ai-arcade"));
    command.args(["--seed", "1", "--data-dir"]);
    command.arg(dir.join("data"));
    if let Some(text) = config {
        let path = dir.join("config.toml");
        std::fs::write(&path, text).unwrap();
        command.arg("--config");
        command.arg(&path);
    }
    command.env("TERM", "xterm-256color");
    let child = pair
        .slave
        .spawn_command(command)
        .expect("the arcade starts");
    let output = Output::collect(pair.master.try_clone_reader().unwrap());
    let mut keys = pair.master.take_writer().unwrap();
    // ratatui asks where the cursor is (DSR); answer as a terminal would.
    assert!(output.wait_for("\x1b[6n"), "round {round}: no cursor query");
    keys.write_all(b"\x1b[1;1R").unwrap();
    assert!(
        output.wait_for(shown),
        "round {round}: no first frame: {:?}",
        String::from_utf8_lossy(&output.bytes())
    );
    InPty {
        pair,
        child,
        output,
        keys,
        _temp: temp,
    }
}

fn run_round(round: usize, rng: &mut ChaCha8Rng) {
    let InPty {
        pair,
        mut child,
        output,
        mut keys,
        _temp,
    } = start_in_pty(
        round,
        Some("[ui]\nstart_tab = \"multi-pile-nim\"\n"),
        "Multi-pile",
    );
    // Start the network training: its thread keeps a core busy while the signals come.
    keys.write_all(b"P").unwrap();
    keys.flush().unwrap();
    thread::sleep(Duration::from_millis(rng.random_range(20..300)));

    let pid = Pid::from_raw(child.process_id().expect("a pid") as i32).expect("a pid");
    // The gaps sweep 0 to 3 ms: two signals sent at once arrive as one, and the window the
    // old code lost lies between the first signal's arrival and the restore.
    let gap = Duration::from_micros(round as u64 * 125 + rng.random_range(0..125));
    kill_process(pid, Signal::TERM).unwrap();
    thread::sleep(gap);
    let _ = kill_process(pid, Signal::TERM);

    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("round {round}: the arcade did not end after two SIGTERMs");
        }
        thread::sleep(Duration::from_millis(5));
    };

    // stty writes after everything the arcade wrote, so once its answer is in, so is the rest.
    let modes = stty_modes(&pair, &output);
    let size = |n| std::num::NonZeroU16::new(n).expect("a size");
    let mut screen = vt100::Parser::new(size(24), size(80), 0);
    screen.process(&output.bytes());
    let context = format!("round {round} (gap {gap:?}, exit {status:?})");
    assert!(
        !screen.screen().alternate_screen(),
        "{context}: left on the alternate screen"
    );
    assert_eq!(
        screen.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "{context}: mouse capture left on"
    );
    for mode in ["icanon", "echo", "isig"] {
        assert!(
            modes.iter().any(|m| m == mode),
            "{context}: {mode} is off, the terminal was left in raw mode: {modes:?}"
        );
    }
}

#[test]
fn two_signals_at_any_moment_leave_the_terminal_restored() {
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_123);
    for round in 0..ROUNDS {
        run_round(round, &mut rng);
    }
}

/// Whether the process `pid` is stopped (its state in /proc is `T`).
fn stopped(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rfind(')')
            .and_then(|end| stat[end + 1..].split_whitespace().next())
            .is_some_and(|state| state == "T")
    })
}

/// Issue 35 §6: an external SIGTSTP left the alternate screen, a hidden cursor and mouse
/// capture on. The terminal is put back when the arcade stops and set up again on SIGCONT.
#[test]
fn a_stop_from_outside_puts_the_terminal_back_and_a_continue_sets_it_up_again() {
    // Held whole: the pty and the data dir stay until the test ends.
    let mut arcade = start_in_pty(100, None, "Tic-tac-toe");
    let (child, output) = (&mut arcade.child, &arcade.output);
    let id = child.process_id().expect("a pid");
    let pid = Pid::from_raw(id as i32).expect("a pid");
    let size = |n| std::num::NonZeroU16::new(n).expect("a size");
    let screen_now = || {
        let mut screen = vt100::Parser::new(size(24), size(80), 0);
        screen.process(&output.bytes());
        screen
    };

    kill_process(pid, Signal::TSTP).unwrap();
    let deadline = Instant::now() + PATIENCE;
    while !stopped(id) {
        assert!(Instant::now() < deadline, "the arcade never stopped");
        thread::sleep(Duration::from_millis(10));
    }
    // The stopped arcade's output is all in once the process is stopped; give the reader
    // thread a moment to take it from the pty.
    thread::sleep(Duration::from_millis(100));
    let screen = screen_now();
    assert!(
        !screen.screen().alternate_screen(),
        "left on the alternate screen"
    );
    assert!(!screen.screen().hide_cursor(), "the cursor left hidden");
    assert_eq!(
        screen.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse capture left on"
    );

    let before = output.len();
    kill_process(pid, Signal::CONT).unwrap();
    let deadline = Instant::now() + PATIENCE;
    while !String::from_utf8_lossy(&output.bytes()[before..]).contains("Tic-tac-toe") {
        assert!(Instant::now() < deadline, "not drawn again after SIGCONT");
        thread::sleep(Duration::from_millis(10));
    }
    assert!(screen_now().screen().alternate_screen(), "set up again");

    kill_process(pid, Signal::TERM).unwrap();
    let deadline = Instant::now() + PATIENCE;
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "did not end after SIGTERM");
        thread::sleep(Duration::from_millis(5));
    }
    assert!(
        !screen_now().screen().alternate_screen(),
        "restored at the end"
    );
}
