//! What the SSH test files share: a client that remembers the host key it was shown (and
//! logs in and opens a session as `ssh` would), the settings of a server on an ephemeral loopback port, and a log kept in memory that a test
//! waits on. Each test file uses part of it.
#![allow(dead_code)]

use ai_arcade::serve::{Settings, keys};

use russh::keys::PrivateKey;
use std::io::BufRead as _;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// The longest any step may take before the test fails (a safety limit, not a measure).
/// 45 s: on two cores beside thirty Chromium windows (`browser.rs`), a served student's
/// redraw after the teacher's return once took past 20 s.
pub const LIMIT: Duration = Duration::from_secs(45);

pub use ai_arcade::serve::client::{Client, connect, connect_stream};

/// A drawn screen's rows without the first, the tab bar, when `area` is big enough to
/// have one: what a tab's snapshots show, so adding a tab (which changes the bar) changes
/// none of them. A few snapshots keep the whole screen to cover the bar.
/// The app's screen at 80x24, as text, one line a row.
pub fn screen_80x24(app: &ai_arcade::app::App) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    (0..24)
        .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn without_tab_bar(screen: &str, area: ratatui::layout::Rect) -> String {
    if ai_arcade::ui::Screen::new(area).is_none() {
        return screen.to_string();
    }
    screen
        .split_once('\n')
        .map_or_else(String::new, |(_, rest)| rest.to_string())
}

/// A server on an ephemeral loopback port in `dir`: open to anyone without `authorized`,
/// else to those keys (written to `dir/authorized_keys`); 4 sessions, no rate limits.
pub fn settings(dir: &Path, authorized: Option<&[&PrivateKey]>) -> Settings {
    let defaults = ai_arcade::config::ServeConfig::default();
    let authorized_keys = authorized.map(|keys| {
        let path = dir.join("authorized_keys");
        let lines: Vec<String> = keys
            .iter()
            .map(|k| k.public_key().to_openssh().unwrap())
            .collect();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        path
    });
    Settings {
        listen: "127.0.0.1:0".parse().unwrap(),
        host_key: dir.join("data").join(keys::HOST_KEY_FILE),
        authorized_keys,
        class_code: None,
        max_sessions: 4,
        max_sessions_per_name: defaults.max_sessions_per_name,
        max_sessions_per_address: defaults.max_sessions_per_address,
        idle_timeout: Duration::from_secs(60),
        max_failures_per_minute: 0,
        auth_failure_delay: Duration::ZERO,
        max_startups: defaults.max_startups,
        per_source_max_startups: defaults.per_source_max_startups,
        login_grace_time: defaults.login_grace_time.0,
        kex_deadline: ai_arcade::serve::KEX_DEADLINE,
        course: Vec::new(),
        teacher_keys: None,
        collect: None,
        seats: Some(dir.join("seats")),
        class: None,
        clock: ai_arcade::serve::clock::Clock::system(),
        proxies: ai_arcade::serve::proxy::TrustedProxies::default(),
        host_key_required: false,
        ssh: true,
        web: None,
        health_listen: None,
        drain_grace: Duration::ZERO,
        log_format: ai_arcade::config::LogFormat::Text,
    }
}

/// Log lines as they come, from a server in the test or a child's stderr.
pub type Lines = Arc<Mutex<Vec<String>>>;

/// Whether a line has every one of `words`.
pub fn has_line(lines: &Lines, words: &[&str]) -> bool {
    (lines.lock().unwrap().iter()).any(|line| words.iter().all(|w| line.contains(w)))
}

/// Waits for a line with every one of `words`, and returns it.
pub async fn line_with(lines: &Lines, words: &[&str]) -> String {
    let deadline = tokio::time::Instant::now() + LIMIT;
    loop {
        let found = (lines.lock().unwrap().iter())
            .find(|line| words.iter().all(|w| line.contains(w)))
            .cloned();
        if let Some(line) = found {
            return line;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no line with {words:?}:\n{}",
            lines.lock().unwrap().join("\n")
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A child process killed however the test ends, with its stderr kept line by line.
pub struct Process {
    /// The process.
    pub child: Child,
    /// Its stderr, line by line.
    pub lines: Lines,
}

impl Process {
    pub fn spawn(command: &mut Command) -> Self {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{command:?}: {e}"));
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                sink.lock().unwrap().push(line);
            }
        });
        Self { child, lines }
    }

    pub fn text(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }

    /// Waits for a line with every one of `words`.
    pub async fn logged(&self, words: &[&str]) -> String {
        line_with(&self.lines, words).await
    }

    pub fn has(&self, words: &[&str]) -> bool {
        has_line(&self.lines, words)
    }

    /// Sends `signal` to the process.
    pub fn signal(&self, signal: rustix::process::Signal) {
        rustix::process::kill_process(rustix::process::Pid::from_child(&self.child), signal)
            .unwrap();
    }

    /// Waits (within the limit) for the process to exit by itself.
    pub async fn exit_status(&mut self) -> std::process::ExitStatus {
        let deadline = tokio::time::Instant::now() + LIMIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "still running:\n{}",
                self.text()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The health check's answer: the status code and the body.
pub async fn health_check(addr: SocketAddr) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: replica\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    tokio::time::timeout(LIMIT, stream.read_to_string(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let code = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_string();
    (code, body)
}

/// A collect folder that keeps the graded answers it is handed, in order.
#[derive(Default)]
pub struct Kept(pub Mutex<Vec<ai_arcade::app::room::Graded>>);

impl ai_arcade::app::room::Collect for Kept {
    fn export(&self, _file: &str, _text: &str) -> Result<String, String> {
        Err("not kept in this test".into())
    }

    fn graded(&self, graded: &ai_arcade::app::room::Graded) {
        self.0.lock().unwrap().push(graded.clone());
    }
}

/// The binary run to its end with `args` (colour off), as a user's shell runs it.
pub fn run_cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ai-arcade"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// The JSON object the binary prints for `args`, which must succeed.
pub fn run_cli_json(args: &[&str]) -> serde_json::Value {
    let output = run_cli(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}
