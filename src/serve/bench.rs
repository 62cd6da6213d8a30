//! `ai-arcade bench ssh`: starts `ai-arcade serve` as a child process on a loopback port,
//! connects N russh clients with 80x24 PTYs, has each press a key every 100 ms for S
//! seconds, and reports the time from a keystroke to the first bytes of the frame it
//! caused (p50/p99), the server's CPU and peak memory (from /proc), and the bytes sent per
//! keystroke. Bounded in count and time; it only ever talks to 127.0.0.1.

use clap::{Args, Subcommand};
use russh::ChannelMsg;
use russh::keys::PrivateKeyWithHashAlg;
use serde_json::json;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, ExitCode, Stdio};
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

/// `bench` and what it measures.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// What to measure.
    #[command(subcommand)]
    pub what: BenchWhat,
}

/// The benchmarks.
#[derive(Debug, Subcommand)]
pub enum BenchWhat {
    /// N SSH clients against a server started for the run, on loopback.
    Ssh {
        /// Concurrent clients (1-1000).
        #[arg(long, default_value_t = 100)]
        sessions: usize,
        /// Seconds to measure (1-600).
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Instead: hold 144 silent connections from 127.0.0.2..=127.0.0.9 against a server
        /// with the built-in limits, and time 20 logins from 127.0.0.10.
        #[arg(long)]
        slowloris: bool,
    },
}

/// A client that trusts any host key: the bench talks only to the server it started.
pub struct TrustingClient;

impl russh::client::Handler for TrustingClient {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// Connects to `addr` as `user`, with `key` or without one, and opens a session with an
/// 80x24 `xterm-256color` PTY and a shell, as `ssh` would.
pub async fn connect(
    addr: SocketAddr,
    user: &str,
    key: Option<Arc<russh::keys::PrivateKey>>,
) -> Result<
    (
        russh::client::Handle<TrustingClient>,
        russh::Channel<russh::client::Msg>,
    ),
    String,
> {
    let config = Arc::new(russh::client::Config {
        nodelay: true,
        ..Default::default()
    });
    let mut handle = russh::client::connect(config, addr, TrustingClient)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let auth = match key {
        Some(key) => {
            handle
                .authenticate_publickey(user, PrivateKeyWithHashAlg::new(key, None))
                .await
        }
        None => handle.authenticate_none(user).await,
    }
    .map_err(|e| format!("authenticate: {e}"))?;
    if !auth.success() {
        return Err("login refused".into());
    }
    let channel = handle
        .channel_open_session()
        .await
        .map_err(|e| format!("open a session: {e}"))?;
    channel
        .request_pty(true, "xterm-256color", 80, 24, 0, 0, &[])
        .await
        .map_err(|e| format!("pty: {e}"))?;
    channel
        .request_shell(true)
        .await
        .map_err(|e| format!("shell: {e}"))?;
    Ok((handle, channel))
}

/// What one client measured.
#[derive(Debug, Default)]
struct ClientReport {
    latencies: Vec<Duration>,
    sent: usize,
    bytes: usize,
    error: Option<String>,
}

/// The `bench` command.
pub fn command(args: &BenchArgs) -> ExitCode {
    let BenchWhat::Ssh {
        sessions,
        seconds,
        json,
        slowloris,
    } = args.what;
    if slowloris {
        return super::slowloris::command(json);
    }
    if !(1..=MAX_SESSIONS).contains(&sessions) {
        eprintln!("ai-arcade: --sessions {sessions}: allowed 1..={MAX_SESSIONS}");
        return ExitCode::from(crate::cli::EXIT_USAGE);
    }
    if !(1..=MAX_SECONDS).contains(&seconds) {
        eprintln!("ai-arcade: --seconds {seconds}: allowed 1..={MAX_SECONDS}");
        return ExitCode::from(crate::cli::EXIT_USAGE);
    }
    match run(sessions, Duration::from_secs(seconds)) {
        Ok(report) => {
            if json {
                println!("{}", report.json());
            } else {
                print!("{}", report.text());
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("ai-arcade: bench ssh: {error}");
            ExitCode::FAILURE
        }
    }
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
fn start_server(sessions: usize) -> Result<(ServerProcess, SocketAddr), String> {
    let sessions = sessions.to_string();
    spawn_server(&[
        "--max-connections-per-minute",
        "0",
        "--idle-timeout",
        "1h",
        "--max-sessions",
        &sessions,
    ])
}

/// Starts `ai-arcade serve --open` on a loopback port in a fresh data dir, with the
/// built-in config and `flags` over it, and reads the port it got from its first lines.
pub(super) fn spawn_server(flags: &[&str]) -> Result<(ServerProcess, SocketAddr), String> {
    let dir = std::env::temp_dir().join(format!("ai-arcade-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let config = dir.join("config.toml");
    std::fs::write(&config, crate::config::DEFAULT_TOML)
        .map_err(|e| format!("{}: {e}", config.display()))?;
    let exe = std::env::current_exe().map_err(|e| format!("own executable: {e}"))?;
    let child = std::process::Command::new(exe)
        .args(["--seed", "1", "--config"])
        .arg(&config)
        .arg("--data-dir")
        .arg(&dir)
        .args(["serve", "--open", "--listen", "127.0.0.1:0"])
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
        if let Some(addr) = line.strip_prefix("ai-arcade: serving on ") {
            break addr
                .trim()
                .parse::<SocketAddr>()
                .map_err(|e| format!("{line}: {e}"))?;
        }
    };
    // Keep reading its log so it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
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
    sessions: usize,
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

    fn cpu_share(&self, cpu: Option<Duration>) -> Option<f64> {
        cpu.map(|c| (c.as_secs_f64() / self.seconds * 1000.0).round() / 10.0)
    }

    fn json(&self) -> serde_json::Value {
        let sorted = self.sorted();
        json!({
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
            "ssh bench: {} sessions ({} connected in {:.1} s), 80x24, one '?' every {} ms each, {:.0} s, loopback\n\
             keystrokes     {} sent, {} answered\n\
             latency        p50 {}  p99 {}  max {}  (keystroke sent -> first bytes of its frame)\n\
             bytes          {} per keystroke (channel data, server to client)\n\
             server CPU     {} while measuring\n\
             client CPU     {} (this process, the {} clients)\n\
             server memory  {} before the clients, {} peak, {} per session\n",
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
            pct(self.cpu_share(self.server_cpu)),
            pct(self.cpu_share(self.client_cpu)),
            self.sessions,
            mb(self.rss_before),
            mb(self.rss_peak),
            mb(self.per_session_bytes()),
        );
        for error in self.errors.iter().take(5) {
            let _ = writeln!(text, "error          {error}");
        }
        text
    }
}

/// Runs the whole benchmark.
pub fn run(sessions: usize, window: Duration) -> Result<Report, String> {
    let (server, addr) = start_server(sessions)?;
    let pid = server.child.id().to_string();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let rss_before = memory(&pid, "VmRSS:");
    let report = runtime.block_on(async {
        let connecting = Instant::now();
        let gate = Arc::new(tokio::sync::Semaphore::new(16));
        let mut connects = Vec::new();
        for _ in 0..sessions {
            let gate = Arc::clone(&gate);
            connects.push(tokio::spawn(async move {
                let _permit = gate.acquire().await;
                let (handle, mut channel) = connect(addr, "bench", None).await?;
                // The first frame: the arcade is up.
                loop {
                    match channel.wait().await {
                        Some(ChannelMsg::Data { .. }) => break,
                        Some(_) => {}
                        None => return Err("closed before the first frame".to_string()),
                    }
                }
                Ok((handle, channel))
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
        let connect_time = connecting.elapsed();
        let connected = clients.len();
        let start = Instant::now() + Duration::from_millis(200);
        let (cpu_before, own_before) = (cpu_time(&pid), cpu_time("self"));
        let mut tasks = Vec::new();
        for (i, (handle, channel)) in clients.into_iter().enumerate() {
            let offset = KEY_INTERVAL.mul_f64(i as f64 / connected.max(1) as f64);
            tasks.push(tokio::spawn(drive(
                handle,
                channel,
                start + offset,
                start + window,
            )));
        }
        tokio::time::sleep_until((start + window).into()).await;
        let (cpu_after, own_after) = (cpu_time(&pid), cpu_time("self"));
        let mut report = Report {
            sessions,
            seconds: window.as_secs_f64(),
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
        };
        for task in tasks {
            if let Ok(Ok(client)) = tokio::time::timeout(Duration::from_secs(10), task).await {
                report.sent += client.sent;
                report.bytes += client.bytes;
                report.latencies.extend(client.latencies);
                report.errors.extend(client.error);
            }
        }
        report.rss_peak = memory(&pid, "VmHWM:");
        report
    });
    drop(server);
    Ok(report)
}

/// One client's run: a key every [`KEY_INTERVAL`] from `first` until `end`, each answer
/// timed against the oldest unanswered key; then a last half second for late answers, and
/// `q` to end the arcade.
async fn drive(
    handle: russh::client::Handle<TrustingClient>,
    mut channel: russh::Channel<russh::client::Msg>,
    first: Instant,
    end: Instant,
) -> ClientReport {
    let mut report = ClientReport::default();
    let mut waiting = VecDeque::new();
    let mut ticks = tokio::time::interval_at(first.into(), KEY_INTERVAL);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let drain_until = end + Duration::from_millis(500);
    loop {
        let now = Instant::now();
        if now >= drain_until || (now >= end && waiting.is_empty()) {
            break;
        }
        tokio::select! {
            _ = ticks.tick(), if now < end => {
                if let Err(error) = channel.data_bytes(KEY).await {
                    report.error = Some(format!("send: {error}"));
                    break;
                }
                waiting.push_back(Instant::now());
                report.sent += 1;
            }
            message = channel.wait() => match message {
                Some(ChannelMsg::Data { data }) => {
                    report.bytes += data.len();
                    if let Some(sent) = waiting.pop_front() {
                        report.latencies.push(sent.elapsed());
                    }
                }
                Some(_) => {}
                None => {
                    report.error = Some("the server closed the session".into());
                    break;
                }
            },
            () = tokio::time::sleep_until(drain_until.into()) => break,
        }
    }
    let _ = channel.data_bytes(&b"q"[..]).await;
    let _ = handle
        .disconnect(russh::Disconnect::ByApplication, "", "en")
        .await;
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
