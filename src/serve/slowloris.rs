//! `ai-arcade bench ssh --slowloris`: can someone still log in while others hold silent
//! connections? Starts `ai-arcade serve` with the built-in limits on a loopback port, holds
//! [`SILENT_PER_ADDRESS`] silent TCP connections from each of [`ATTACKERS`] loopback
//! addresses (reopening any the server closes, as a patient attacker would), then times
//! [`TRIES`] logins from another loopback address. Bounded in count and time; it only ever
//! talks to 127.0.0.0/8.

use super::bench::spawn_server;
use super::client::Client;
use super::report::{LoginTimes, json_ms, text_ms};
use serde_json::json;
use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::io::AsyncReadExt;

/// The addresses the silent connections come from: 127.0.0.2 to 127.0.0.9.
pub const ATTACKERS: std::ops::RangeInclusive<u8> = 2..=9;
/// Silent connections held from each of them (8 x 18 = 144).
pub const SILENT_PER_ADDRESS: usize = 18;
/// The address the timed logins come from.
pub const CLIENT: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 10);
/// Timed logins.
pub const TRIES: usize = 20;
/// A login counts as in when it succeeds within this long.
pub const WITHIN: Duration = Duration::from_secs(2);
/// The longest one login is waited for.
const GIVE_UP: Duration = Duration::from_secs(10);
/// How long the silent connections are given to settle before the first login.
const SETTLE: Duration = Duration::from_secs(2);
/// A silent connection the server closed is reopened after this pause.
const REOPEN_PAUSE: Duration = Duration::from_millis(500);

/// What a run measured.
#[derive(Debug, Default)]
pub struct Report {
    /// Login times of the tries that got in, in order.
    logged_in: Vec<Duration>,
    /// Why the others did not.
    failures: Vec<String>,
    /// Silent connections open when each try started.
    held: Vec<usize>,
    /// Silent connections opened in all (the first ones and the reopened).
    opened: usize,
}

impl Report {
    /// Tries that logged in within [`WITHIN`].
    pub fn in_time(&self) -> usize {
        self.logged_in.iter().filter(|&&t| t <= WITHIN).count()
    }

    fn times(&self) -> LoginTimes {
        LoginTimes::of(&self.logged_in)
    }
}

impl super::report::Printable for Report {
    fn json(&self) -> serde_json::Value {
        let times = self.times();
        json!({
            "silent_connections_wanted": SILENT_PER_ADDRESS * ATTACKERS.count(),
            "silent_connections_held_min": self.held.iter().min(),
            "silent_connections_held_max": self.held.iter().max(),
            "silent_connections_opened": self.opened,
            "tries": TRIES,
            "logged_in": self.logged_in.len(),
            "logged_in_within_2s": self.in_time(),
            "login_median_ms": json_ms(times.median),
            "login_max_ms": json_ms(times.max),
            "failures": self.failures,
        })
    }

    /// The report as `bench ssh --slowloris` prints it.
    fn text(&self) -> String {
        let times = self.times();
        let mut text = format!(
            "slowloris bench: {} silent connections wanted from 127.0.0.{}..=127.0.0.{}, \
             logins from {CLIENT}, loopback\n\
             held           {}..={} silent connections open while logging in ({} opened in all)\n\
             logged in      {} of {TRIES} within {} s ({} in all), median {}, max {}\n",
            SILENT_PER_ADDRESS * ATTACKERS.count(),
            ATTACKERS.start(),
            ATTACKERS.end(),
            self.held.iter().min().unwrap_or(&0),
            self.held.iter().max().unwrap_or(&0),
            self.opened,
            self.in_time(),
            WITHIN.as_secs(),
            self.logged_in.len(),
            text_ms(times.median),
            text_ms(times.max),
        );
        for failure in self.failures.iter().take(5) {
            let _ = writeln!(text, "failed         {failure}");
        }
        text
    }
}

/// Runs the whole benchmark against a server with the built-in limits.
pub fn run() -> Result<Report, String> {
    let (server, addr) = spawn_server(None, &["--open"])?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let report = runtime.block_on(measure(addr));
    drop(server);
    Ok(report)
}

/// Holds the silent connections while timing the logins; ends them all before returning.
pub async fn measure(addr: SocketAddr) -> Report {
    let stop = Arc::new(AtomicBool::new(false));
    let held = Arc::new(AtomicUsize::new(0));
    let opened = Arc::new(AtomicUsize::new(0));
    let mut holders = Vec::new();
    for last in ATTACKERS {
        let from = IpAddr::V4(Ipv4Addr::new(127, 0, 0, last));
        for _ in 0..SILENT_PER_ADDRESS {
            let (stop, held, opened) = (Arc::clone(&stop), Arc::clone(&held), Arc::clone(&opened));
            holders.push(tokio::spawn(async move {
                hold_silent(addr, from, &stop, &held, &opened).await;
            }));
        }
    }
    tokio::time::sleep(SETTLE).await;
    let mut report = Report::default();
    for _ in 0..TRIES {
        report.held.push(held.load(Ordering::SeqCst));
        match tokio::time::timeout(GIVE_UP, login(addr)).await {
            Ok(Ok(took)) => report.logged_in.push(took),
            Ok(Err(why)) => report.failures.push(why),
            Err(_) => report
                .failures
                .push(format!("no login within {} s", GIVE_UP.as_secs())),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    stop.store(true, Ordering::SeqCst);
    for holder in holders {
        holder.abort();
    }
    report.opened = opened.load(Ordering::SeqCst);
    report
}

/// Keeps one silent connection from `from` open until `stop`: reads what the server sends
/// and never answers; reopens it (after a pause) whenever the server closes it.
async fn hold_silent(
    addr: SocketAddr,
    from: IpAddr,
    stop: &AtomicBool,
    held: &AtomicUsize,
    opened: &AtomicUsize,
) {
    let mut buffer = [0u8; 1024];
    while !stop.load(Ordering::SeqCst) {
        if let Ok(mut stream) = connect_from(from, addr).await {
            opened.fetch_add(1, Ordering::SeqCst);
            held.fetch_add(1, Ordering::SeqCst);
            while matches!(stream.read(&mut buffer).await, Ok(n) if n > 0) {}
            held.fetch_sub(1, Ordering::SeqCst);
        }
        tokio::time::sleep(REOPEN_PAUSE).await;
    }
}

/// A TCP connection to `addr` from the loopback address `from`.
pub(super) async fn connect_from(
    from: IpAddr,
    addr: SocketAddr,
) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(addr).await
}

/// One login from [`CLIENT`] ("none" on the open server): how long from connecting to
/// being in.
async fn login(addr: SocketAddr) -> Result<Duration, String> {
    let started = Instant::now();
    let stream = connect_from(IpAddr::V4(CLIENT), addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let config = Arc::new(russh::client::Config::default());
    let mut handle = russh::client::connect_stream(config, stream, Client::default())
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    let auth = handle
        .authenticate_none("student")
        .await
        .map_err(|e| format!("authenticate: {e}"))?;
    let took = started.elapsed();
    let _ = handle
        .disconnect(russh::Disconnect::ByApplication, "", "en")
        .await;
    if auth.success() {
        Ok(took)
    } else {
        Err("login refused".into())
    }
}
