//! `ai-arcade bench room`: how soon a teacher's view of the room shows what a student did.
//! A server on a loopback port, N students logged in (an open server), and a teacher with a
//! key made for the run; round after round one student switches tab (F5 / F4), and the
//! bench times from the student's keystroke to the first bytes of the teacher's frame that
//! write the new tab's name. Bounded in count and time; it only ever talks to 127.0.0.1.

use super::client::connect;
use super::report::Printable;
use super::shared::{Log, Settings};
use super::{Server, keys};
use crate::config::{Config, ServeConfig};
use crate::tabs::Models;
use russh::ChannelMsg;
use russh::keys::{Algorithm, PrivateKey};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most students a run may seat.
pub const MAX_STUDENTS: usize = 200;
/// Rounds a run measures.
pub const ROUNDS: usize = 100;
/// Students' rows on the teacher's 80x24 screen before it scrolls.
const VISIBLE_ROWS: usize = 18;
/// The longest one round may wait for the teacher's frame.
const ROUND_LIMIT: Duration = Duration::from_secs(10);
/// F5 and F4 as an xterm sends them, and the tab the teacher's table then names.
const MOVES: [(&[u8], &str); 2] = [(b"\x1b[15~", "Connect Four"), (b"\x1bOS", "Tic-tac-toe")];

/// What a run measured.
#[derive(Debug)]
pub struct RoomReport {
    students: usize,
    latencies: Vec<Duration>,
}

impl RoomReport {
    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort();
        let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted.get(at).copied().unwrap_or_default()
    }
}

impl Printable for RoomReport {
    fn json(&self) -> serde_json::Value {
        json!({
            "students": self.students,
            "rounds": self.latencies.len(),
            "p50_ms": self.percentile(0.5).as_secs_f64() * 1e3,
            "p99_ms": self.percentile(0.99).as_secs_f64() * 1e3,
            "max_ms": self.percentile(1.0).as_secs_f64() * 1e3,
        })
    }

    fn text(&self) -> String {
        format!(
            "room of {} students, {} tab switches: the teacher's frame showed each after \
             p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n",
            self.students,
            self.latencies.len(),
            self.percentile(0.5).as_secs_f64() * 1e3,
            self.percentile(0.99).as_secs_f64() * 1e3,
            self.percentile(1.0).as_secs_f64() * 1e3,
        )
    }
}

/// Seats `students` and times [`ROUNDS`] tab switches as the teacher sees them.
///
/// # Errors
/// What failed: the server, a login, or a round past its limit.
pub fn run(students: usize) -> Result<RoomReport, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(measure(students))
}

async fn measure(students: usize) -> Result<RoomReport, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let teacher = Arc::new(
        PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).map_err(|e| e.to_string())?,
    );
    let teacher_keys = dir.path().join("teacher_keys");
    let public = teacher
        .public_key()
        .to_openssh()
        .map_err(|e| e.to_string())?;
    std::fs::write(&teacher_keys, public + "\n").map_err(|e| e.to_string())?;
    let defaults = ServeConfig::default();
    let settings = Settings {
        listen: "127.0.0.1:0".parse().map_err(|e| format!("{e}"))?,
        host_key: dir.path().join(keys::HOST_KEY_FILE),
        authorized_keys: None,
        class_code: None,
        max_sessions: students + 1,
        max_sessions_per_name: students + 1,
        max_sessions_per_address: students + 1,
        idle_timeout: Duration::from_secs(600),
        max_failures_per_minute: 0,
        auth_failure_delay: Duration::ZERO,
        max_startups: defaults.max_startups,
        per_source_max_startups: u32::try_from(students + 1).unwrap_or(u32::MAX),
        login_grace_time: defaults.login_grace_time.0,
        kex_deadline: super::KEX_DEADLINE,
        course: Vec::new(),
        teacher_keys: Some(teacher_keys),
        collect: None,
        seats: None,
        class: None,
        clock: super::clock::Clock::system(),
        proxies: super::proxy::TrustedProxies::default(),
        host_key_required: false,
        ssh: true,
        web: None,
        health_listen: None,
        drain_grace: std::time::Duration::ZERO,
        log_format: crate::config::LogFormat::Text,
    };
    let quiet: Log = Arc::new(|_| {});
    let server = Server::start(
        settings,
        Config::default(),
        Models::default(),
        Some(1),
        quiet,
    )
    .await
    .map_err(|e| e.to_string())?;
    let addr = server.local_addr;
    let mut seated = Vec::new();
    for i in 0..students {
        let (handle, mut channel) = connect(addr, &format!("student{i:03}"), None).await?;
        // Each student's own frames are read and dropped, so the server never waits on them.
        let (sender, mut keys) = tokio::sync::mpsc::channel::<&'static [u8]>(4);
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    key = keys.recv() => match key {
                        Some(key) => { let _ = channel.data(key).await; }
                        None => return,
                    },
                    message = channel.wait() => if message.is_none() { return },
                }
            }
        });
        seated.push((handle, sender));
    }
    let (_teacher_handle, mut view) = connect(addr, "teacher", Some(teacher)).await?;
    let rows = std::num::NonZeroU16::new(24).ok_or("24 rows")?;
    let columns = std::num::NonZeroU16::new(80).ok_or("80 columns")?;
    let mut screen = vt100::Parser::new(rows, columns, 0);
    let all_in = format!("The room: {students} student");
    wait_for(&mut view, &mut screen, |text| text.contains(&all_in)).await?;
    let mut latencies = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        // The students on the teacher's first page switch; every one of them is seated.
        let visible = students.min(VISIBLE_ROWS);
        let (key, words) = MOVES[(round / visible) % 2];
        let name = format!("student{:03}", round % visible);
        let started = Instant::now();
        seated[round % visible]
            .1
            .send(key)
            .await
            .map_err(|_| "a student's session ended".to_string())?;
        wait_for(&mut view, &mut screen, |text| {
            text.lines()
                .any(|line| line.contains(&name) && line.contains(words))
        })
        .await?;
        latencies.push(started.elapsed());
    }
    drop(seated);
    server.shutdown(Duration::from_secs(2)).await;
    Ok(RoomReport {
        students,
        latencies,
    })
}

/// Reads the teacher's frames into `screen` until its text passes `shown`.
async fn wait_for(
    view: &mut russh::Channel<russh::client::Msg>,
    screen: &mut vt100::Parser,
    shown: impl Fn(&str) -> bool,
) -> Result<(), String> {
    let deadline = tokio::time::Instant::now() + ROUND_LIMIT;
    while !shown(&screen.screen().contents()) {
        let message = tokio::time::timeout_at(deadline, view.wait())
            .await
            .map_err(|_| {
                format!(
                    "the teacher's view never showed it:\n{}",
                    screen.screen().contents()
                )
            })?;
        match message {
            Some(ChannelMsg::Data { data }) => screen.process(&data),
            Some(_) => {}
            None => return Err("the teacher's session ended".into()),
        }
    }
    Ok(())
}
