//! `ai-arcade bench ssh`: starts `ai-arcade serve` as a child process on a loopback port,
//! connects N russh clients with 80x24 PTYs, has each press a key every 100 ms for S
//! seconds, and reports the time from a keystroke to the first bytes of the frame it
//! caused (p50/p99), the server's CPU and peak memory (from /proc), and the bytes sent per
//! keystroke. Bounded in count and time; it only ever talks to 127.0.0.1.
//!
//! With `--training N` the first N sessions open Subtraction Nim (F1), whose network then
//! trains (the bench's data dir has no saved one; `t` restarts it every second, so it
//! trains throughout), and only the others press keys; with
//! `--warmup-keys K` each key-pressing session first plays K seeded random Tic-tac-toe keys
//! (searches, the stepper, the tree pane), so the memory measured holds what such sessions
//! keep. The report then gives the server's memory at the end with every session open and
//! again after they have all ended.

use super::bench_session::BenchSession;
use super::report::Printable;
use serde_json::json;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most sessions a run may open.
pub const MAX_SESSIONS: usize = 1000;
/// The longest a run may measure.
pub const MAX_SECONDS: u64 = 600;
/// Time between two keystrokes of one client.
pub const KEY_INTERVAL: Duration = Duration::from_millis(100);
/// The key pressed: `?` opens and closes the help overlay, so every press redraws.
pub const KEY: &[u8] = b"?";

/// The most warm-up keys a session may play.
pub const MAX_WARMUP_KEYS: usize = 10_000;

/// Time between two warm-up keys of one session: 83 keys a second, under the rate past
/// which a served session counts as flooding (`shell::budget::FLOOD_RATE`), so the
/// warm-up is taken in as fast as it is sent.
const WARMUP_INTERVAL: Duration = Duration::from_millis(12);

/// Time between two bursts of a flooding session's keys.
const FLOOD_INTERVAL: Duration = Duration::from_millis(5);

/// How long a session must stay quiet after its warm-up before the measurement starts.
const SETTLE: Duration = Duration::from_millis(500);

/// The keys a warm-up draws from: everything the Tic-tac-toe tab reacts to but quitting,
/// leaving the tab, autoplay (it would draw by itself) and the help overlay.
const WARMUP_KEYS: &[&[u8]] = &[
    b"g", b"r", b"a", b"m", b"t", b"x", b"f", b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9",
    b" ", b"s", b"n", b"u", b"b", b"c", b"\r", b"e", b".", b"h", b"j", b"k", b"l", b"\x1b[A",
    b"\x1b[B", b"\x1b[C", b"\x1b[D", b"\x1b[5~", b"\x1b[6~", b"\x1b[H", b"\x1b[F",
];

/// The keys a hostile warm-up draws from (`--hostile`): every printable key but `q` and
/// `Q` (a hostile client does not quit), the function keys to every tab, Tab, Enter, Esc,
/// Backspace and the arrows: whatever grows in a session that someone floods with keys.
fn hostile_keys() -> Vec<Vec<u8>> {
    let mut keys: Vec<Vec<u8>> = (b' '..=b'~')
        .filter(|&byte| byte != b'q' && byte != b'Q')
        .map(|byte| vec![byte])
        .collect();
    let special: [&[u8]; 15] = [
        b"\x1bOP",
        b"\x1bOQ",
        b"\x1bOR",
        b"\x1bOS",
        b"\x1b[15~",
        b"\t",
        b"\x1b[Z",
        b"\r",
        b"\x1b",
        b"\x7f",
        b"\x1b[A",
        b"\x1b[B",
        b"\x1b[C",
        b"\x1b[D",
        b"\x1b[6~",
    ];
    keys.extend(special.iter().map(|key| key.to_vec()));
    keys
}

/// How often a training session retrains from fresh weights (`t`), so it trains for the
/// whole run however fast one run ends.
const RETRAIN_INTERVAL: Duration = Duration::from_secs(1);

/// F1 as an xterm sends it: the Subtraction Nim tab, which starts training its network.
const F1: &[u8] = b"\x1bOP";

/// What one run does.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Sessions in all.
    pub sessions: usize,
    /// Of which this many train.
    pub training: usize,
    /// Random keys each key-pressing session plays first.
    pub warmup_keys: usize,
    /// Whether those keys come from every tab ([`hostile_keys`]) rather than Tic-tac-toe's.
    pub hostile: bool,
    /// Of the sessions, this many (after the training ones) flood [`hostile_keys`] from
    /// their first frame to the end of the measurement, while the others are timed: what a
    /// bystander feels of hostile sessions on the same server.
    pub flooding: usize,
    /// How long the measurement lasts.
    pub window: Duration,
    /// The server's executable (this one when `None`).
    pub server: Option<PathBuf>,
    /// The sessions are browsers' pages (`serve --web`) instead of SSH clients.
    pub web: bool,
}

/// What one client measured.
#[derive(Debug, Default)]
struct ClientReport {
    latencies: Vec<Duration>,
    sent: usize,
    bytes: usize,
    error: Option<String>,
}

/// The server child, killed when dropped so a failed run leaves nothing behind.
pub(super) struct ServerProcess {
    pub(super) child: Child,
    dir: PathBuf,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts `ai-arcade serve` for `sessions` clients in a fresh data dir, with the built-in
/// config, and reads the port it got from its first lines.
fn start_server(
    sessions: usize,
    server: Option<&PathBuf>,
    web: bool,
) -> Result<(ServerProcess, SocketAddr), String> {
    let sessions = sessions.to_string();
    // The old name of --max-failures-per-minute, so `--server` can measure older builds.
    let mut flags = vec![
        "--open",
        "--max-connections-per-minute",
        "0",
        "--idle-timeout",
        "1h",
        "--max-sessions",
        &sessions,
    ];
    // Every client logs in as "student" from one address; builds older than these caps
    // (measured with `--server`) have none.
    if server.is_none() {
        flags.extend([
            "--max-sessions-per-name",
            &sessions,
            "--max-sessions-per-address",
            &sessions,
        ]);
    }
    if web {
        flags.extend(["--web", "127.0.0.1:0"]);
        return spawn_server_at(server, &flags, WEB_BANNER);
    }
    spawn_server(server, &flags)
}

/// The banner's line that gives the page's address.
const WEB_BANNER: &str = "ai-arcade: the arcade in a browser at http://";

/// Starts `ai-arcade serve` (this executable, or `server`) on a loopback port in a fresh
/// data dir, with the built-in config and `flags` over it (`--open`, or a class code: who
/// may log in), and reads the port it got from its first lines.
pub(super) fn spawn_server(
    server: Option<&PathBuf>,
    flags: &[&str],
) -> Result<(ServerProcess, SocketAddr), String> {
    spawn_server_at(server, flags, "ai-arcade: serving on ")
}

/// [`spawn_server`], reading the address from the banner line that starts with `banner`.
fn spawn_server_at(
    server: Option<&PathBuf>,
    flags: &[&str],
    banner: &str,
) -> Result<(ServerProcess, SocketAddr), String> {
    let dir = std::env::temp_dir().join(format!("ai-arcade-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let config = dir.join("config.toml");
    // Empty: the built-in settings of whichever build runs (an older build measured with
    // `--server` would refuse keys it does not know).
    std::fs::write(&config, "").map_err(|e| format!("{}: {e}", config.display()))?;
    let exe = match server {
        Some(path) => path.clone(),
        None => std::env::current_exe().map_err(|e| format!("own executable: {e}"))?,
    };
    let child = std::process::Command::new(exe)
        .args(["--seed", "1", "--config"])
        .arg(&config)
        .arg("--data-dir")
        .arg(&dir)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("start the server: {e}"))?;
    let mut server = ServerProcess { child, dir };
    let stderr = server.child.stderr.take().ok_or("no server stderr")?;
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .ok_or("the server ended before it listened")?
            .map_err(|e| e.to_string())?;
        if let Some(addr) = line.strip_prefix(banner) {
            break addr
                .trim()
                .trim_end_matches('/')
                .parse::<SocketAddr>()
                .map_err(|e| format!("{line}: {e}"))?;
        }
    };
    // Keep reading its log so it never blocks on a full pipe; a panic in a session is
    // worth seeing beside the figures.
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if line.contains("panic") || line.contains("ai_arcade::") {
                eprintln!("server: {line}");
            }
        }
    });
    Ok((server, addr))
}

/// CPU time (user + system) of a process, from /proc (clock ticks of 10 ms).
fn cpu_time(pid: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// A `VmRSS`/`VmHWM` line of /proc/PID/status, in bytes.
fn memory(pid: &str, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// What a run measured.
#[derive(Debug)]
pub struct Report {
    /// The sessions were browsers' pages.
    web: bool,
    sessions: usize,
    training: usize,
    warmup_keys: usize,
    hostile: bool,
    flooding: usize,
    seconds: f64,
    connected: usize,
    errors: Vec<String>,
    sent: usize,
    latencies: Vec<Duration>,
    bytes: usize,
    connect_time: Duration,
    server_cpu: Option<Duration>,
    client_cpu: Option<Duration>,
    rss_before: Option<u64>,
    rss_peak: Option<u64>,
    /// With every session still open, at the end of the measurement.
    rss_end: Option<u64>,
    /// After every session has ended.
    rss_after: Option<u64>,
}

fn percentile(sorted: &[Duration], p: f64) -> Option<Duration> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

fn ms(d: Option<Duration>) -> Option<f64> {
    d.map(|d| (d.as_secs_f64() * 1e5).round() / 100.0)
}

impl Report {
    fn sorted(&self) -> Vec<Duration> {
        let mut sorted = self.latencies.clone();
        sorted.sort();
        sorted
    }

    fn per_session_bytes(&self) -> Option<u64> {
        let (before, peak) = (self.rss_before?, self.rss_peak?);
        Some(peak.saturating_sub(before) / self.connected.max(1) as u64)
    }

    /// What each open session holds at the end: the growth over the idle server, shared
    /// out.
    fn per_session_at_end(&self) -> Option<u64> {
        let (before, end) = (self.rss_before?, self.rss_end?);
        Some(end.saturating_sub(before) / self.connected.max(1) as u64)
    }

    fn cpu_share(&self, cpu: Option<Duration>) -> Option<f64> {
        cpu.map(|c| (c.as_secs_f64() / self.seconds * 1000.0).round() / 10.0)
    }
}

impl Printable for Report {
    fn json(&self) -> serde_json::Value {
        let sorted = self.sorted();
        json!({
            "door": if self.web { "web" } else { "ssh" },
            "sessions": self.sessions,
            "connected": self.connected,
            "seconds": self.seconds,
            "keystrokes_sent": self.sent,
            "keystrokes_answered": self.latencies.len(),
            "latency_p50_ms": ms(percentile(&sorted, 50.0)),
            "latency_p99_ms": ms(percentile(&sorted, 99.0)),
            "latency_max_ms": ms(sorted.last().copied()),
            "bytes_per_keystroke": self.bytes / self.latencies.len().max(1),
            "server_cpu_percent_of_one_core": self.cpu_share(self.server_cpu),
            "client_cpu_percent_of_one_core": self.cpu_share(self.client_cpu),
            "server_rss_before_bytes": self.rss_before,
            "server_rss_peak_bytes": self.rss_peak,
            "server_bytes_per_session": self.per_session_bytes(),
            "training_sessions": self.training,
            "warmup_keys": self.warmup_keys,
            "hostile": self.hostile,
            "flooding_sessions": self.flooding,
            "server_rss_end_bytes": self.rss_end,
            "server_bytes_per_session_at_end": self.per_session_at_end(),
            "server_rss_after_sessions_ended_bytes": self.rss_after,
            "connect_ms": (self.connect_time.as_secs_f64() * 1000.0).round(),
            "errors": self.errors,
        })
    }

    fn text(&self) -> String {
        let sorted = self.sorted();
        let show = |d: Option<Duration>| ms(d).map_or("-".into(), |v| format!("{v:.2} ms"));
        let mb = |b: Option<u64>| b.map_or("-".into(), |b| format!("{:.1} MB", b as f64 / 1e6));
        let pct = |c: Option<f64>| c.map_or("-".into(), |c| format!("{c:.1}% of one core"));
        let mut text = format!(
            "{} bench: {} sessions ({} connected in {:.1} s), 80x24, one '?' every {} ms each, {:.0} s, loopback\n\
             keystrokes     {} sent, {} answered\n\
             latency        p50 {}  p99 {}  max {}  (keystroke sent -> first bytes of its frame)\n\
             bytes          {} per keystroke ({}, server to client)\n\
             server CPU     {} while measuring\n\
             client CPU     {} (this process, the {} clients)\n\
             server memory  {} before the clients, {} peak, {} per session\n\
             at the end     {} with the sessions open ({} per session), {} after they ended\n",
            if self.web { "web" } else { "ssh" },
            self.sessions,
            self.connected,
            self.connect_time.as_secs_f64(),
            KEY_INTERVAL.as_millis(),
            self.seconds,
            self.sent,
            self.latencies.len(),
            show(percentile(&sorted, 50.0)),
            show(percentile(&sorted, 99.0)),
            show(sorted.last().copied()),
            self.bytes / self.latencies.len().max(1),
            if self.web {
                "WebSocket binary messages' payload"
            } else {
                "channel data"
            },
            pct(self.cpu_share(self.server_cpu)),
            pct(self.cpu_share(self.client_cpu)),
            self.sessions,
            mb(self.rss_before),
            mb(self.rss_peak),
            mb(self.per_session_bytes()),
            mb(self.rss_end),
            mb(self.per_session_at_end()),
            mb(self.rss_after),
        );
        if self.flooding > 0 {
            let _ = writeln!(
                text,
                "flooding       {} sessions sent {} random hostile keys (every tab) every {} ms throughout; the timed ones are bystanders",
                self.flooding,
                FLOOD_BURST,
                FLOOD_INTERVAL.as_millis()
            );
        }
        if self.training > 0 || self.warmup_keys > 0 {
            let keys = if self.hostile {
                "hostile keys (every tab)"
            } else {
                "Tic-tac-toe keys"
            };
            let _ = writeln!(
                text,
                "mix            {} sessions training (Subtraction Nim), the other {} timed; {} random {keys} each first",
                self.training,
                self.connected.saturating_sub(self.training),
                self.warmup_keys
            );
        }
        for error in self.errors.iter().take(5) {
            let _ = writeln!(text, "error          {error}");
        }
        text
    }
}

/// Runs the whole benchmark.
pub fn run(plan: &Plan) -> Result<Report, String> {
    let (server, addr) = start_server(plan.sessions, plan.server.as_ref(), plan.web)?;
    let pid = server.child.id().to_string();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let rss_before = memory(&pid, "VmRSS:");
    let report = runtime.block_on(measure(plan, addr, &pid, rss_before));
    drop(server);
    Ok(report)
}

/// Connects `sessions` clients, 16 at a time, each up to its first frame.
async fn connect_all(
    addr: SocketAddr,
    sessions: usize,
    web: bool,
) -> (Vec<BenchSession>, Vec<String>) {
    let gate = Arc::new(tokio::sync::Semaphore::new(16));
    let mut connects = Vec::new();
    for _ in 0..sessions {
        let gate = Arc::clone(&gate);
        connects.push(tokio::spawn(async move {
            let _permit = gate.acquire().await;
            if web {
                BenchSession::web(addr).await
            } else {
                BenchSession::ssh(addr).await
            }
        }));
    }
    let mut clients = Vec::new();
    let mut errors = Vec::new();
    for connect in connects {
        match tokio::time::timeout(Duration::from_secs(60), connect).await {
            Ok(Ok(Ok(client))) => clients.push(client),
            Ok(Ok(Err(error))) => errors.push(error),
            Ok(Err(error)) => errors.push(error.to_string()),
            Err(_) => errors.push("no first frame within 60 s".into()),
        }
    }
    (clients, errors)
}

async fn measure(plan: &Plan, addr: SocketAddr, pid: &str, rss_before: Option<u64>) -> Report {
    let connecting = Instant::now();
    let (mut clients, errors) = connect_all(addr, plan.sessions, plan.web).await;
    let connect_time = connecting.elapsed();
    let connected = clients.len();
    let mut key_clients = clients.split_off(plan.training.min(connected));
    let timed_clients = key_clients.split_off(plan.flooding.min(key_clients.len()));
    let flooding = key_clients.len();
    // The trainers and the flooders start first, so they run through the warm-up and the
    // measurement.
    let (stop_trainers, stop) = tokio::sync::watch::channel(false);
    let mut trainers = Vec::new();
    for session in clients {
        trainers.push(tokio::spawn(train(session, stop.clone())));
    }
    for (i, session) in key_clients.into_iter().enumerate() {
        let seed = (plan.sessions + i) as u64;
        trainers.push(tokio::spawn(flood(session, seed, stop.clone())));
    }
    let key_clients = timed_clients;
    let mut warming = Vec::new();
    for (i, session) in key_clients.into_iter().enumerate() {
        let keys = if plan.hostile {
            hostile_keys()
        } else {
            WARMUP_KEYS.iter().map(|key| key.to_vec()).collect()
        };
        warming.push(tokio::spawn(warm_up(
            session,
            i as u64,
            (plan.warmup_keys, keys),
        )));
    }
    let mut key_clients = Vec::new();
    let mut errors = errors;
    for task in warming {
        match task.await {
            Ok(Ok(client)) => key_clients.push(client),
            Ok(Err(error)) => errors.push(error),
            Err(error) => errors.push(error.to_string()),
        }
    }
    let timed = key_clients.len();
    let start = Instant::now() + Duration::from_millis(200);
    let end = start + plan.window;
    let (cpu_before, own_before) = (cpu_time(pid), cpu_time("self"));
    let mut tasks = Vec::new();
    for (i, session) in key_clients.into_iter().enumerate() {
        let offset = KEY_INTERVAL.mul_f64(i as f64 / timed.max(1) as f64);
        tasks.push(tokio::spawn(drive(session, start + offset, end)));
    }
    tokio::time::sleep_until(end.into()).await;
    let (cpu_after, own_after) = (cpu_time(pid), cpu_time("self"));
    let rss_end = memory(pid, "VmRSS:");
    let mut report = Report {
        web: plan.web,
        sessions: plan.sessions,
        training: plan.training.min(connected),
        warmup_keys: plan.warmup_keys,
        hostile: plan.hostile,
        flooding,
        seconds: plan.window.as_secs_f64(),
        connected,
        errors,
        sent: 0,
        latencies: Vec::new(),
        bytes: 0,
        connect_time,
        server_cpu: cpu_after.zip(cpu_before).map(|(a, b)| a.saturating_sub(b)),
        client_cpu: own_after.zip(own_before).map(|(a, b)| a.saturating_sub(b)),
        rss_before,
        rss_peak: None,
        rss_end,
        rss_after: None,
    };
    for task in tasks {
        if let Ok(Ok(client)) = tokio::time::timeout(Duration::from_secs(10), task).await {
            report.sent += client.sent;
            report.bytes += client.bytes;
            report.latencies.extend(client.latencies);
            report.errors.extend(client.error);
        }
    }
    let _ = stop_trainers.send(true);
    for task in trainers {
        if let Ok(Ok(Some(error))) = tokio::time::timeout(Duration::from_secs(10), task).await {
            report.errors.push(error);
        }
    }
    report.rss_peak = memory(pid, "VmHWM:");
    report.rss_after = memory_once_sessions_ended(pid).await;
    report
}

/// The server's resident memory once its session threads have all ended (at most 10 s
/// after the clients left), measured a second later so freed memory has had time to go.
async fn memory_once_sessions_ended(pid: &str) -> Option<u64> {
    let baseline = threads(pid)?;
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut last = baseline;
    while Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now = threads(pid)?;
        if now == last && now < baseline {
            break;
        }
        last = now;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    memory(pid, "VmRSS:")
}

/// The number of threads of a process, from /proc.
fn threads(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("Threads:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Reads frames until the session has sent nothing for [`SETTLE`] (at most 30 s).
async fn settle(session: &mut BenchSession) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        match tokio::time::timeout(SETTLE, session.next()).await {
            Err(_) => return Ok(()),
            Ok(None) => return Err("the server closed the session".into()),
            Ok(Some(_)) => {}
        }
    }
    Err("still drawing 30 s after its warm-up".into())
}

/// Plays `keys` seeded random Tic-tac-toe keys (seed `seed`), reading every frame, then
/// waits until the session is quiet so its late frames are not timed as answers.
async fn warm_up(
    mut session: BenchSession,
    seed: u64,
    (count, keys): (usize, Vec<Vec<u8>>),
) -> Result<BenchSession, String> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut ticks = tokio::time::interval(WARMUP_INTERVAL);
    let mut sent = 0;
    while sent < count {
        tokio::select! {
            _ = ticks.tick() => {
                let key = keys[rng.random_range(0..keys.len())].clone();
                session
                    .send(key)
                    .await
                    .map_err(|e| format!("warm-up send: {e}"))?;
                sent += 1;
            }
            message = session.next() => {
                if message.is_none() {
                    return Err("the server closed the session in its warm-up".into());
                }
            }
        }
    }
    settle(&mut session).await?;
    Ok(session)
}

/// A training session: F1 (Subtraction Nim trains its network), then `t` (retrain) every
/// [`RETRAIN_INTERVAL`], reading its frames until the measurement ends; then it quits. `Some(error)` if the session broke.
async fn train(
    mut session: BenchSession,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Option<String> {
    if let Err(error) = session.send(F1.to_vec()).await {
        return Some(format!("trainer send: {error}"));
    }
    let mut error = None;
    let mut retrain =
        tokio::time::interval_at((Instant::now() + RETRAIN_INTERVAL).into(), RETRAIN_INTERVAL);
    loop {
        tokio::select! {
            message = session.next() => if message.is_none() {
                error = Some("the server closed a training session".into());
                break;
            },
            _ = retrain.tick() => {
                if let Err(e) = session.send(b"t".to_vec()).await {
                    error = Some(format!("trainer send: {e}"));
                    break;
                }
            }
            _ = stop.changed() => break,
        }
    }
    session.leave(true).await;
    error
}

/// Keys a flooding session sends together, every [`FLOOD_INTERVAL`]: 2,000 keys a second,
/// as a client pasting or replaying keys without pause would.
const FLOOD_BURST: usize = 10;

/// A flooding session: [`FLOOD_BURST`] seeded random hostile keys every
/// [`FLOOD_INTERVAL`], reading its frames, until the measurement ends. `Some(error)` if
/// the session broke.
async fn flood(
    mut session: BenchSession,
    seed: u64,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Option<String> {
    use rand::{RngExt, SeedableRng};
    let keys = hostile_keys();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut ticks = tokio::time::interval(FLOOD_INTERVAL);
    let mut error = None;
    loop {
        tokio::select! {
            _ = ticks.tick() => {
                let burst: Vec<u8> = (0..FLOOD_BURST)
                    .flat_map(|_| keys[rng.random_range(0..keys.len())].clone())
                    .collect();
                if let Err(e) = session.send(burst).await {
                    error = Some(format!("flooder send: {e}"));
                    break;
                }
            }
            message = session.next() => {
                if message.is_none() {
                    error = Some("the server closed a flooding session".into());
                    break;
                }
            }
            _ = stop.changed() => break,
        }
    }
    session.leave(false).await;
    error
}

/// The longest a key waits for its frame before it counts as unanswered.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(2);

/// One client's run: from `first` until `end`, a key every [`KEY_INTERVAL`] (later if its
/// frame is late), each timed to the first bytes of the frame it caused. One key is in
/// flight at a time, so keys the server takes in together (drawn as one frame) cannot make
/// every later key look late. Then `q` ends the arcade.
async fn drive(mut session: BenchSession, first: Instant, end: Instant) -> ClientReport {
    let mut report = ClientReport::default();
    let mut next = first;
    'keys: while next < end {
        tokio::time::sleep_until(next.into()).await;
        // The rest of the last frame, if it came in pieces, is not this key's answer.
        while let Ok(message) = tokio::time::timeout(Duration::ZERO, session.next()).await {
            match message {
                Some(Some(data)) => report.bytes += data.len(),
                Some(None) => {}
                None => {
                    report.error = Some("the server closed the session".into());
                    break 'keys;
                }
            }
        }
        if let Err(error) = session.send(KEY.to_vec()).await {
            report.error = Some(format!("send: {error}"));
            break;
        }
        let sent = Instant::now();
        report.sent += 1;
        loop {
            match tokio::time::timeout_at((sent + ANSWER_TIMEOUT).into(), session.next()).await {
                Ok(Some(Some(data))) => {
                    report.bytes += data.len();
                    report.latencies.push(sent.elapsed());
                    break;
                }
                Ok(Some(None)) => {}
                Ok(None) => {
                    report.error = Some("the server closed the session".into());
                    break 'keys;
                }
                Err(_) => break,
            }
        }
        next = (next + KEY_INTERVAL).max(Instant::now());
    }
    session.leave(true).await;
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let sorted: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&sorted, 50.0), Some(Duration::from_millis(50)));
        assert_eq!(percentile(&sorted, 99.0), Some(Duration::from_millis(99)));
        assert_eq!(percentile(&[], 99.0), None);
    }
}
