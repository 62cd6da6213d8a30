//! `ai-arcade bench ssh --attack MIX`: does a class of 40 behind one address get in while
//! strangers, and a misbehaving classmate, try to lock it out? Starts `ai-arcade serve`
//! with a class code and the built-in limits on a loopback port, runs the attacks of issue
//! 35, then lets [`STUDENTS`] students arrive at once from [`CLASS`], each typing the code
//! (in [`TYPING`]) and starting an arcade, and counts those in within [`WITHIN`]. Bounded
//! in count and time; it only ever talks to 127.0.0.0/8.
//!
//! The attacks, each alone or all at once:
//!
//! - `queue`: 68 silent TCP connections from each of two addresses (the waiting pool);
//! - `prompt`: 64 connections from each of two addresses parked at the class code prompt;
//! - `addresses`: 32 addresses holding 4 handshakes each that stall after `auth none`;
//! - `churn`: from the class's own address, 20 connect-and-close, 20 connections that
//!   mistype the code three times, and 20 closed at the host key question;
//! - `seats`: a classmate with the code takes every seat it can under one name, from the
//!   class's address, and sends a NUL byte a second to each;
//! - `health` (alone, not in `all`): 200 silent sockets held on `--health-listen`, and
//!   [`CHECKS`] health checks timed, as a balancer makes them.

use super::bench::spawn_server;
use super::client::{Client, answer_prompts, open_session};
use super::report::{LoginTimes, json_ms, text_ms};
use super::slowloris::connect_from;
use serde_json::json;
use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The class code the server is started with.
pub const CODE: &str = "maths-club-42";
/// The class's one address (its school's NAT).
pub const CLASS: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 10);
/// Students arriving at once.
pub const STUDENTS: usize = 40;
/// A student counts as in when their arcade shows within this long of connecting.
pub const WITHIN: Duration = Duration::from_secs(60);
/// How long a student takes to type the class code at its prompt.
pub const TYPING: Duration = Duration::from_secs(5);
/// How long the attacks run before the class arrives.
const SETTLE: Duration = Duration::from_secs(4);
/// A connection the server closed is reopened after this pause, as a patient attacker's.
const REOPEN_PAUSE: Duration = Duration::from_millis(500);
/// The most seats the misbehaving classmate tries for.
const HOG_TRIES: usize = 64;

/// Which attacks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Attack {
    /// None: the class alone.
    None,
    /// Silent connections filling the waiting pool.
    Queue,
    /// Connections parked at the class code prompt.
    Prompt,
    /// Many addresses, each holding handshakes stalled after `auth none`.
    Addresses,
    /// Connect-and-close, wrong codes and host key refusals from the class's address.
    Churn,
    /// One classmate taking every seat it can.
    Seats,
    /// Silent sockets on the health port, and health checks timed.
    Health,
    /// All of them at once.
    All,
}

impl Attack {
    fn runs(self, attack: Self) -> bool {
        self == attack || (self == Self::All && attack != Self::Health)
    }

    fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Queue => "queue",
            Self::Prompt => "prompt",
            Self::Addresses => "addresses",
            Self::Churn => "churn",
            Self::Seats => "seats",
            Self::Health => "health",
            Self::All => "all",
        }
    }
}

/// What a run measured.
#[derive(Debug)]
pub struct Report {
    attack: Attack,
    /// Time to an arcade of each student who got in, in order.
    logged_in: Vec<Duration>,
    /// Why the others did not.
    failures: Vec<String>,
    /// Attackers' connections open when the class arrived.
    held: usize,
    /// Seats the misbehaving classmate got.
    hog_seats: usize,
    /// The time each health check took (`health` only).
    checks: Vec<Result<Duration, String>>,
}

impl Report {
    /// Students whose arcade showed within [`WITHIN`].
    pub fn in_time(&self) -> usize {
        self.logged_in.iter().filter(|&&t| t <= WITHIN).count()
    }

    fn times(&self) -> LoginTimes {
        LoginTimes::of(&self.logged_in)
    }
}

impl Report {
    /// The `health` attack's report: each check's time.
    fn health_text(&self) -> String {
        let shown: Vec<String> = (self.checks.iter())
            .map(|check| match check {
                Ok(took) => format!("{:.1} ms", took.as_secs_f64() * 1000.0),
                Err(why) => why.clone(),
            })
            .collect();
        format!(
            "lock-out bench: attack health, 200 silent sockets from 127.0.0.5 on the health \
             port, loopback\n\
             held           {} silent sockets open when the checks began\n\
             health checks  {}\n",
            self.held,
            shown.join(", ")
        )
    }
}

impl super::report::Printable for Report {
    fn json(&self) -> serde_json::Value {
        let times = self.times();
        json!({
            "attack": self.attack.name(),
            "students": STUDENTS,
            "students_in_within_60s": self.in_time(),
            "login_median_ms": json_ms(times.median),
            "login_max_ms": json_ms(times.max),
            "attack_connections_held": self.held,
            "hog_seats": self.hog_seats,
            "failures": self.failures,
            "health_checks_ms": self.checks.iter().map(|c| json_ms(c.as_ref().ok().copied())).collect::<Vec<_>>(),
        })
    }

    fn text(&self) -> String {
        let times = self.times();
        if self.attack == Attack::Health {
            return self.health_text();
        }
        let mut text = format!(
            "lock-out bench: attack {}, {STUDENTS} students from {CLASS} with the class code, \
             loopback\n\
             students in    {} of {STUDENTS} within {} s, median {}, max {}\n\
             attackers      {} connections held when the class arrived, {} seats taken \
             by one classmate\n",
            self.attack.name(),
            self.in_time(),
            WITHIN.as_secs(),
            text_ms(times.median),
            text_ms(times.max),
            self.held,
            self.hog_seats,
        );
        for failure in self.failures.iter().take(5) {
            let _ = writeln!(text, "failed         {failure}");
        }
        text
    }
}

/// Runs `attack` against a server (this executable, or `server`) with a class code and
/// the built-in limits.
pub fn run(attack: Attack, server: Option<&PathBuf>) -> Result<Report, String> {
    // A free port for the health checks: taken and let go (a bench, not a server).
    let health = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map_err(|e| format!("a free port: {e}"))?;
    let health_flag = health.to_string();
    let (process, addr) = spawn_server(
        server,
        &["--class-code", CODE, "--health-listen", &health_flag],
    )?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let report = if attack == Attack::Health {
        runtime.block_on(measure_health(health))
    } else {
        runtime.block_on(measure(attack, addr))
    };
    runtime.shutdown_timeout(Duration::from_secs(1));
    drop(process);
    Ok(report)
}

/// Everything the attackers share: where to, when to stop, what they hold.
#[derive(Clone)]
struct Attackers {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    held: Arc<AtomicUsize>,
}

impl Attackers {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Runs `hold` again and again from `from` until the stop, counting it held while it
    /// runs, with a pause between.
    fn keep<F, Fut>(&self, from: IpAddr, hold: F) -> tokio::task::JoinHandle<()>
    where
        F: Fn(Self, IpAddr) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send,
    {
        let attackers = self.clone();
        tokio::spawn(async move {
            while !attackers.stopped() {
                attackers.held.fetch_add(1, Ordering::SeqCst);
                hold(attackers.clone(), from).await;
                attackers.held.fetch_sub(1, Ordering::SeqCst);
                tokio::time::sleep(REOPEN_PAUSE).await;
            }
        })
    }
}

fn loopback(third: u8, last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, third, last))
}

/// Starts the attacks, lets them settle, times the class's arrival, and ends them.
async fn measure(attack: Attack, addr: SocketAddr) -> Report {
    let attackers = Attackers {
        addr,
        stop: Arc::new(AtomicBool::new(false)),
        held: Arc::new(AtomicUsize::new(0)),
    };
    let mut tasks = start_attacks(attack, &attackers);
    let mut hog_seats = 0;
    if attack.runs(Attack::Churn) {
        churn(addr).await;
    }
    if attack.runs(Attack::Seats) {
        let (seats, task) = hog(attackers.clone()).await;
        hog_seats = seats;
        tasks.push(task);
    }
    tokio::time::sleep(SETTLE).await;
    let held = attackers.held.load(Ordering::SeqCst);
    let students: Vec<_> = (0..STUDENTS)
        .map(|n| tokio::spawn(student(addr, n)))
        .collect();
    let mut report = Report {
        attack,
        logged_in: Vec::new(),
        failures: Vec::new(),
        held,
        hog_seats,
        checks: Vec::new(),
    };
    let mut in_class = Vec::new();
    for student in students {
        match student.await {
            Ok(Ok((took, connection))) => {
                report.logged_in.push(took);
                in_class.push(connection);
            }
            Ok(Err(why)) => report.failures.push(why),
            Err(error) => report.failures.push(error.to_string()),
        }
    }
    attackers.stop.store(true, Ordering::SeqCst);
    for task in tasks {
        task.abort();
    }
    report
}

/// Health checks timed, one every quarter second.
pub const CHECKS: usize = 8;

/// Holds 200 silent sockets from 127.0.0.5 on the health port (reopened when closed), and
/// times [`CHECKS`] checks from 127.0.0.1.
async fn measure_health(health: SocketAddr) -> Report {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let attackers = Attackers {
        addr: health,
        stop: Arc::new(AtomicBool::new(false)),
        held: Arc::new(AtomicUsize::new(0)),
    };
    let tasks: Vec<_> = (0..200)
        .map(|_| {
            attackers.keep(loopback(0, 5), |a, from| async move {
                silent(&a, from).await;
            })
        })
        .collect();
    tokio::time::sleep(SETTLE).await;
    let held = attackers.held.load(Ordering::SeqCst);
    let mut checks = Vec::new();
    for _ in 0..CHECKS {
        let started = Instant::now();
        let check = async {
            let mut stream = tokio::net::TcpStream::connect(health).await?;
            stream
                .write_all(b"GET /health HTTP/1.1\r\nHost: replica\r\n\r\n")
                .await?;
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).await?;
            Ok::<_, std::io::Error>(answer.starts_with(b"HTTP/1.1 200"))
        };
        checks.push(
            match tokio::time::timeout(Duration::from_secs(10), check).await {
                Ok(Ok(true)) => Ok(started.elapsed()),
                Ok(Ok(false)) => Err("not 200".into()),
                Ok(Err(error)) => Err(error.to_string()),
                Err(_) => Err("no answer in 10 s".into()),
            },
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    attackers.stop.store(true, Ordering::SeqCst);
    for task in tasks {
        task.abort();
    }
    Report {
        attack: Attack::Health,
        logged_in: Vec::new(),
        failures: Vec::new(),
        held,
        hog_seats: 0,
        checks,
    }
}

fn start_attacks(attack: Attack, attackers: &Attackers) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    if attack.runs(Attack::Queue) {
        for last in [2, 3] {
            for _ in 0..68 {
                tasks.push(attackers.keep(loopback(0, last), |a, from| async move {
                    silent(&a, from).await;
                }));
            }
        }
    }
    if attack.runs(Attack::Prompt) {
        for last in [4, 5] {
            for _ in 0..64 {
                tasks.push(attackers.keep(loopback(0, last), |a, from| async move {
                    park(&a, from, Park::AtPrompt).await;
                }));
            }
        }
    }
    if attack.runs(Attack::Addresses) {
        for last in 1..=32 {
            for _ in 0..4 {
                tasks.push(attackers.keep(loopback(1, last), |a, from| async move {
                    park(&a, from, Park::AfterNone).await;
                }));
            }
        }
    }
    tasks
}

/// One silent TCP connection, held until the server closes it or the stop.
async fn silent(attackers: &Attackers, from: IpAddr) {
    use tokio::io::AsyncReadExt as _;
    let Ok(mut stream) = connect_from(from, attackers.addr).await else {
        return;
    };
    let mut buffer = [0u8; 1024];
    while !attackers.stopped() {
        let read = tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buffer));
        if let Ok(Ok(0) | Err(_)) = read.await {
            return;
        }
    }
}

/// Where a parked connection stops.
#[derive(Clone, Copy)]
enum Park {
    /// Shown the class code prompt, never answers.
    AtPrompt,
    /// Asks to log in with "none", then nothing.
    AfterNone,
}

/// One connection parked at `park`, held until the server closes it or the stop.
async fn park(attackers: &Attackers, from: IpAddr, park: Park) {
    let Ok(stream) = connect_from(from, attackers.addr).await else {
        return;
    };
    let config = Arc::new(russh::client::Config::default());
    let Ok(mut handle) = russh::client::connect_stream(config, stream, Client::default()).await
    else {
        return;
    };
    match park {
        Park::AtPrompt => {
            let _ = handle
                .authenticate_keyboard_interactive_start("parked", None)
                .await;
        }
        Park::AfterNone => {
            let _ = handle.authenticate_none("stalled").await;
        }
    }
    while !attackers.stopped() && !handle.is_closed() {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The class's own address misbehaving for a moment: connect-and-close, three wrong codes,
/// and connections closed at the host key question, 20 of each.
async fn churn(addr: SocketAddr) {
    let class = IpAddr::V4(CLASS);
    for _ in 0..20 {
        drop(connect_from(class, addr).await);
    }
    for _ in 0..20 {
        if let Ok(stream) = connect_from(class, addr).await {
            let config = Arc::new(russh::client::Config::default());
            let connected = russh::client::connect_stream(config, stream, Client::default());
            if let Ok(mut handle) = connected.await {
                let wrong = ["maths-club-24", "maths-club-4", "maths-clu-42"];
                let _ = answer_prompts(&mut handle, "typo", &wrong, Duration::ZERO).await;
            }
        }
    }
    for _ in 0..20 {
        if let Ok(stream) = connect_from(class, addr).await {
            let config = Arc::new(russh::client::Config::default());
            let _ = russh::client::connect_stream(config, stream, SaysNo).await;
        }
    }
}

/// A client whose person answers "no" to the host key question.
struct SaysNo;

impl russh::client::Handler for SaysNo {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }
}

type Connection = (
    russh::client::Handle<Client>,
    russh::Channel<russh::client::Msg>,
);

/// One classmate from the class's address taking every seat it can under one name
/// ("come in as another"), then sending a NUL byte a second to each: the seats it got, and
/// the task that keeps them.
async fn hog(attackers: Attackers) -> (usize, tokio::task::JoinHandle<()>) {
    let mut seats: Vec<Connection> = Vec::new();
    for _ in 0..HOG_TRIES {
        match log_in(attackers.addr, "hog", &[CODE, ""], Duration::ZERO).await {
            Ok(connection) => seats.push(connection),
            Err(_) => break,
        }
    }
    let count = seats.len();
    let task = tokio::spawn(async move {
        while !attackers.stopped() {
            for (_, channel) in &seats {
                let _ = channel.data(&b"\0"[..]).await;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
    (count, task)
}

/// One student from the class's address: the time from connecting to their arcade's
/// first screen, and the connection (kept open until the run ends).
async fn student(addr: SocketAddr, number: usize) -> Result<(Duration, Connection), String> {
    let started = Instant::now();
    let name = format!("student{number}");
    let connection = tokio::time::timeout(WITHIN, log_in(addr, &name, &[CODE], TYPING))
        .await
        .map_err(|_| format!("{name}: not in within {} s", WITHIN.as_secs()))??;
    Ok((started.elapsed(), connection))
}

/// Logs in from the class's address as `name`, answering the prompts with `answers`, and
/// waits for the arcade's first screen.
async fn log_in(
    addr: SocketAddr,
    name: &str,
    answers: &[&str],
    typing: Duration,
) -> Result<Connection, String> {
    let stream = connect_from(IpAddr::V4(CLASS), addr)
        .await
        .map_err(|e| format!("{name}: connect: {e}"))?;
    let config = Arc::new(russh::client::Config::default());
    let mut handle = russh::client::connect_stream(config, stream, Client::default())
        .await
        .map_err(|e| format!("{name}: handshake: {e}"))?;
    if !answer_prompts(&mut handle, name, answers, typing).await? {
        return Err(format!("{name}: login refused"));
    }
    let mut channel = open_session(&handle).await?;
    // The arcade's first frame enters the alternate screen; a refusal is a line of text.
    let mut seen = Vec::new();
    loop {
        match channel.wait().await {
            Some(russh::ChannelMsg::Data { data }) => {
                seen.extend_from_slice(&data);
                if seen.windows(8).any(|w| w == b"\x1b[?1049h") {
                    break;
                }
                if seen.len() > 64 * 1024 {
                    return Err(format!("{name}: no arcade in 64 KB of output"));
                }
            }
            Some(
                russh::ChannelMsg::WindowAdjusted { .. }
                | russh::ChannelMsg::Success
                | russh::ChannelMsg::Failure,
            ) => {}
            Some(other) => return Err(format!("{name}: {other:?} before the arcade")),
            None => {
                let said = String::from_utf8_lossy(&seen);
                return Err(format!("{name}: closed before the arcade: {}", said.trim()));
            }
        }
    }
    Ok((handle, channel))
}
