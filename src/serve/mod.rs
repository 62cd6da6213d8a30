//! `ai-arcade serve`: the arcade over SSH, one private arcade per connection, built on
//! russh. This file starts and stops the server: the host key, the listening socket, who
//! may start logging in ([`gate`]), the login deadlines, and the log. What one connection
//! does lives in [`session`]; the pieces it is made of (keys, limits, input parsing, the
//! session's terminal) in their own files, and `ai-arcade bench ssh` in [`bench`] and
//! [`slowloris`].

pub mod bench;
pub mod gate;
pub mod input;
pub mod keys;
pub mod limits;
pub mod session;
pub mod slowloris;
pub mod terminal;

use crate::config::{Config, HumanDuration, Startups};
use crate::store::Store;
use crate::tabs::Models;
use clap::Args;
use gate::{Admissions, Gate};
use limits::Slots;
use russh::keys::PrivateKey;
use russh::{MethodKind, MethodSet, SshId};
use session::{Progress, Stage};
use std::borrow::Cow;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::net::TcpListener;
use tokio::sync::watch;

/// The longest the key exchange may take (up to the first login request): programs do it
/// alone, in well under a second, so a silent connection is closed after this.
pub const KEX_DEADLINE: Duration = Duration::from_secs(10);

/// A connection that logged in but has not started an arcade this long after its login
/// grace time is closed: a login must not hold a place for nothing.
pub const ARCADE_GRACE: Duration = Duration::from_secs(60);

/// How often at most a refusal of a connection is logged (with a count of the others).
pub const REFUSAL_LOG_EVERY: Duration = Duration::from_secs(10);

/// How long a shutdown waits for sessions to restore their clients' terminals.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(3);

/// `serve`'s flags; each overrides the config key of the same name in `[serve]`. (The doc
/// comments are the `--help` text, shown as written: hence no backticks.)
#[allow(clippy::doc_markdown)]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on [default: 127.0.0.1:2222].
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<SocketAddr>,
    /// The Ed25519 host key, made there on first start [default: ssh_host_ed25519_key in
    /// the data dir].
    #[arg(long, value_name = "PATH")]
    pub host_key: Option<PathBuf>,
    /// Public keys allowed in [default: ~/.ssh/authorized_keys of the serving user].
    #[arg(long, value_name = "PATH", conflicts_with = "open")]
    pub authorized_keys: Option<PathBuf>,
    /// Let anyone in, with or without a key.
    #[arg(long)]
    pub open: bool,
    /// Arcades running at once [default: 64].
    #[arg(long, value_name = "N")]
    pub max_sessions: Option<usize>,
    /// Close a session after this long without input, e.g. 15m, 90s [default: 15m].
    #[arg(long, value_name = "DURATION")]
    pub idle_timeout: Option<HumanDuration>,
    /// Connections one address may end without logging in per minute (failed logins,
    /// silent handshakes), 0 for no limit [default: 20].
    #[arg(long, value_name = "N", alias = "max-connections-per-minute")]
    pub max_failures_per_minute: Option<u32>,
    /// Wait before telling a client its login was refused [default: 1s].
    #[arg(long, value_name = "DURATION")]
    pub auth_failure_delay: Option<HumanDuration>,
    /// Connections not logged in yet, all together, as OpenSSH's MaxStartups
    /// (random early drop from start, rate percent, to full) [default: 64:30:128].
    #[arg(long, value_name = "START:RATE:FULL")]
    pub max_startups: Option<Startups>,
    /// Connections not logged in yet from one address at once; more wait [default: 4].
    #[arg(long, value_name = "N")]
    pub per_source_max_startups: Option<u32>,
    /// Time from connecting to being logged in, key exchange included [default: 1m].
    #[arg(long, value_name = "DURATION")]
    pub login_grace_time: Option<HumanDuration>,
}

/// Everything the server runs with, resolved from the config, the flags and the data dir.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where to listen.
    pub listen: SocketAddr,
    /// The host key file.
    pub host_key: PathBuf,
    /// The `authorized_keys` file; `None` lets anyone in (`--open`).
    pub authorized_keys: Option<PathBuf>,
    /// Arcades at once.
    pub max_sessions: usize,
    /// Input-less time after which a session ends.
    pub idle_timeout: Duration,
    /// Connections per address per minute that may end without logging in (0: no limit).
    pub max_failures_per_minute: u32,
    /// The wait before a refused login is answered.
    pub auth_failure_delay: Duration,
    /// The random early drop of connections not logged in yet.
    pub max_startups: Startups,
    /// Connections not logged in yet from one address at once.
    pub per_source_max_startups: u32,
    /// Time from connecting to being logged in.
    pub login_grace_time: Duration,
}

/// Where log lines go: stderr for `serve`, a buffer in tests.
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// A log that prints to stderr.
pub fn stderr_log() -> Log {
    Arc::new(|line| eprintln!("{line}"))
}

/// What every connection shares, read-only but for the counters.
pub struct Shared {
    settings: Settings,
    config: Config,
    /// Loaded once at start; each session starts from its own copy.
    models: Models,
    seed: Option<u64>,
    slots: Arc<Slots>,
    /// Connections logged in, playing or about to: a budget of their own, which
    /// connections still logging in cannot use up.
    logged_in: Arc<Slots>,
    /// Who may start logging in.
    admissions: Arc<Admissions>,
    /// Refused connections, logged at most every [`REFUSAL_LOG_EVERY`].
    refusals: Mutex<RefusalLog>,
    log: Log,
    shutdown: watch::Sender<bool>,
    sessions_started: AtomicU64,
    /// The last note on skipped `authorized_keys` lines, so each re-read at a login logs
    /// it only when it changed.
    key_note: Mutex<Option<String>>,
}

impl Shared {
    /// Writes one log line, stamped with the UTC time.
    fn log(&self, line: &str) {
        (self.log)(&format!("{} {line}", utc_timestamp(SystemTime::now())));
    }

    /// Logs a refused connection, or counts it when one was logged less than
    /// [`REFUSAL_LOG_EVERY`] ago; the count is logged when that time is up, so it appears
    /// even when the refusals stop.
    fn refused(self: &Arc<Self>, line: &str) {
        let now = Instant::now();
        let mut refusals = self.refusals.lock().unwrap_or_else(PoisonError::into_inner);
        match refusals.note(now) {
            Some(summary) => {
                drop(refusals);
                if let Some(summary) = summary {
                    self.log(&summary);
                }
                self.log(line);
            }
            None if refusals.unsaid == 1 => {
                drop(refusals);
                let shared = Arc::clone(self);
                tokio::spawn(async move {
                    tokio::time::sleep(REFUSAL_LOG_EVERY).await;
                    let summary = (shared.refusals.lock())
                        .unwrap_or_else(PoisonError::into_inner)
                        .flush(Instant::now());
                    if let Some(summary) = summary {
                        shared.log(&summary);
                    }
                });
            }
            None => {}
        }
    }

    /// The most connections logged in at once: room for every arcade and as many again
    /// about to start one or just ended.
    fn logged_in_cap(&self) -> usize {
        connection_cap(self.settings.max_sessions)
    }

    /// Logs a note on skipped `authorized_keys` lines unless it is the one logged last.
    fn note_skipped_keys(&self, note: Option<String>) {
        let mut last = self.key_note.lock().unwrap_or_else(PoisonError::into_inner);
        if *last != note
            && let Some(line) = &note
        {
            self.log(line);
        }
        *last = note;
    }

    /// A fresh seed for a session when none was fixed: the clock and a counter, so two
    /// sessions started in the same instant still differ. The help overlay shows it.
    fn session_seed(&self) -> u64 {
        let count = self.sessions_started.fetch_add(1, Ordering::SeqCst);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        (nanos ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % 1_000_000
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The host key could not be read or made.
    #[error("host key: {0}")]
    HostKey(#[from] keys::KeyError),
    /// Nobody could log in.
    #[error(
        "no one could log in: {0}; add public keys there, pass --authorized-keys FILE, or --open to let anyone in"
    )]
    NoKeys(String),
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {reason}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// What the system said.
        reason: std::io::Error,
    },
}

/// A running server.
pub struct Server {
    /// The address it listens on (with the real port when 0 was asked for).
    pub local_addr: SocketAddr,
    /// The host key's SHA-256 fingerprint, for the operator to hand to users.
    pub fingerprint: String,
    /// Whether the host key was made at this start.
    pub host_key_created: bool,
    shared: Arc<Shared>,
    accept: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Reads or makes the host key, checks who can log in, listens, and accepts connections
    /// on the current tokio runtime until [`Server::shutdown`].
    pub async fn start(
        settings: Settings,
        config: Config,
        models: Models,
        seed: Option<u64>,
        log: Log,
    ) -> Result<Self, ServeError> {
        let (host_key, host_key_created) = keys::host_key(&settings.host_key)?;
        let mut key_note = None;
        if let Some(path) = &settings.authorized_keys {
            if let Ok(Some(note)) = keys::read_authorized_keys(path).map(|f| f.skipped_note()) {
                let line = format!("{}: {note}", path.display());
                log(&format!("{} {line}", utc_timestamp(SystemTime::now())));
                key_note = Some(line);
            }
            match keys::authorized_keys(path) {
                Ok(allowed) if allowed.is_empty() => {
                    return Err(ServeError::NoKeys(format!(
                        "{} lists no keys",
                        path.display()
                    )));
                }
                Ok(_) => {}
                Err(error) => return Err(ServeError::NoKeys(error.to_string())),
            }
        }
        let listener =
            TcpListener::bind(settings.listen)
                .await
                .map_err(|reason| ServeError::Listen {
                    addr: settings.listen,
                    reason,
                })?;
        let local_addr = listener.local_addr().map_err(|reason| ServeError::Listen {
            addr: settings.listen,
            reason,
        })?;
        let fingerprint = keys::fingerprint(host_key.public_key());
        let russh_config = Arc::new(russh_config(&settings, host_key));
        let gate = Gate::new(
            settings.max_startups,
            settings.per_source_max_startups,
            settings.max_failures_per_minute,
            seed.unwrap_or_else(clock_seed),
        );
        let shared = Arc::new(Shared {
            logged_in: Arc::default(),
            admissions: Admissions::new(gate),
            refusals: Mutex::new(RefusalLog::default()),
            settings,
            config,
            models,
            seed,
            slots: Arc::default(),
            log,
            shutdown: watch::channel(false).0,
            sessions_started: AtomicU64::new(0),
            key_note: Mutex::new(key_note),
        });
        let accept = tokio::spawn(accept_loop(listener, Arc::clone(&shared), russh_config));
        Ok(Self {
            local_addr,
            fingerprint,
            host_key_created,
            shared,
            accept,
        })
    }

    /// Arcades running now.
    pub fn sessions(&self) -> usize {
        self.shared.slots.used()
    }

    /// Stops accepting, ends every arcade (each restores its client's terminal and says
    /// why), and waits up to `wait` for them to finish.
    pub async fn shutdown(self, wait: Duration) {
        self.accept.abort();
        self.shared.shutdown.send_replace(true);
        let deadline = Instant::now() + wait;
        while self.shared.slots.used() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// russh's settings for these: only public keys (and "none" when open), refused logins
/// answered after the configured delay, keepalives to find dead clients.
fn russh_config(settings: &Settings, host_key: PrivateKey) -> russh::server::Config {
    let methods: &[MethodKind] = if settings.authorized_keys.is_some() {
        &[MethodKind::PublicKey]
    } else {
        &[MethodKind::None, MethodKind::PublicKey]
    };
    russh::server::Config {
        server_id: SshId::Standard(Cow::Owned(format!(
            "SSH-2.0-ai-arcade_{}",
            env!("CARGO_PKG_VERSION")
        ))),
        methods: MethodSet::from(methods),
        auth_rejection_time: settings.auth_failure_delay,
        // OpenSSH first asks with "none" to learn the methods: no need to slow that down.
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        keys: vec![host_key],
        inactivity_timeout: Some(settings.idle_timeout + settings.login_grace_time + ARCADE_GRACE),
        keepalive_interval: Some(Duration::from_secs(30)),
        keepalive_max: 3,
        nodelay: true,
        ..Default::default()
    }
}

/// Logged-in connections at once, arcades or not: room for every arcade and as many again
/// (plus a few) about to start one or just ended.
fn connection_cap(max_sessions: usize) -> usize {
    max_sessions.saturating_mul(2).saturating_add(16)
}

/// Refusals of connections for the log: one line at most every [`REFUSAL_LOG_EVERY`],
/// then a count of those not logged, so a flood of refused connections cannot flood the
/// log too. Pure bookkeeping, with the time passed in.
#[derive(Debug, Default)]
pub struct RefusalLog {
    last: Option<Instant>,
    unsaid: u64,
}

impl RefusalLog {
    /// A refusal at `now`: `Some` when it is to be logged (with, first, the count of those
    /// not logged since the last line, if any), `None` when it is only counted.
    pub fn note(&mut self, now: Instant) -> Option<Option<String>> {
        if self.last.is_some_and(|at| now - at < REFUSAL_LOG_EVERY) {
            self.unsaid += 1;
            return None;
        }
        self.last = Some(now);
        Some(self.flush(now))
    }

    /// The count of refusals not logged, as a line, if there were any; counting starts
    /// again.
    pub fn flush(&mut self, now: Instant) -> Option<String> {
        let unsaid = std::mem::take(&mut self.unsaid);
        (unsaid > 0).then(|| {
            let since = self.last.map_or(0, |at| now.duration_since(at).as_secs());
            self.last = Some(now);
            format!(
                "refused {unsaid} more connection(s) in the last {since}s (not logged one by one)"
            )
        })
    }

    /// Refusals counted and not yet logged.
    pub fn unsaid(&self) -> u64 {
        self.unsaid
    }
}

/// A seed from the clock, for the random early drop when no seed was given.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

async fn accept_loop(
    listener: TcpListener,
    shared: Arc<Shared>,
    config: Arc<russh::server::Config>,
) {
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors and the like: say so, breathe, go on.
                shared.log(&format!("accept failed: {error}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        tokio::spawn(serve_connection(
            stream,
            peer,
            Arc::clone(&shared),
            Arc::clone(&config),
        ));
    }
}

/// One connection from accept to end: its turn to log in (or a refusal), the handshake,
/// and the deadlines: the key exchange within [`KEX_DEADLINE`], the login within the login
/// grace time (both counted from connecting), an arcade within [`ARCADE_GRACE`] after.
async fn serve_connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    shared: Arc<Shared>,
    config: Arc<russh::server::Config>,
) {
    let connected = tokio::time::Instant::now();
    let grace = shared.settings.login_grace_time;
    let pending = match shared.admissions.enter(peer.ip(), grace).await {
        Ok(pending) => pending,
        Err(refusal) => {
            shared.refused(&format!("refused connection, {refusal}: addr={peer}"));
            return;
        }
    };
    // A second handle on the socket, to cut a connection that misses a deadline whatever
    // state its handshake is in.
    let Ok((stream, cutter)) = with_cutter(stream) else {
        return;
    };
    let progress = Arc::new(Progress::default());
    let connection =
        session::Connection::new(Arc::clone(&shared), peer, pending, Arc::clone(&progress));
    let login_deadline = connected + grace;
    let kex_deadline = (tokio::time::Instant::now() + KEX_DEADLINE).min(login_deadline);
    let handshake = russh::server::run_stream(config, stream, connection);
    let Ok(Ok(running)) = tokio::time::timeout_at(kex_deadline, handshake).await else {
        return;
    };
    tokio::pin!(running);
    let deadlines = [
        (kex_deadline, Stage::Authenticating),
        (login_deadline, Stage::LoggedIn),
        (login_deadline + ARCADE_GRACE, Stage::Playing),
    ];
    for (deadline, stage) in deadlines {
        tokio::select! {
            _ = &mut running => return,
            () = tokio::time::sleep_until(deadline) => {}
        }
        if !progress.reached(stage) {
            let _ = cutter.shutdown(std::net::Shutdown::Both);
            break;
        }
    }
    let _ = running.await;
}

/// The stream, and a second handle on its socket that can shut it down.
fn with_cutter(
    stream: tokio::net::TcpStream,
) -> std::io::Result<(tokio::net::TcpStream, std::net::TcpStream)> {
    let stream = stream.into_std()?;
    let cutter = stream.try_clone()?;
    Ok((tokio::net::TcpStream::from_std(stream)?, cutter))
}

/// `2026-11-21T11:20:05Z`: the UTC time of `at`, to the second.
pub fn utc_timestamp(at: SystemTime) -> String {
    let secs = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The settings `serve` runs with: the config's `[serve]` with the flags over it, checked
/// as the config is (errors name the key), and the data dir for the host key.
pub fn settings(
    config: &mut Config,
    args: &ServeArgs,
    data_dir: Result<PathBuf, String>,
) -> Result<Settings, String> {
    let serve = &mut config.serve;
    serve.listen = args.listen.unwrap_or(serve.listen);
    if args.host_key.is_some() {
        serve.host_key.clone_from(&args.host_key);
    }
    if args.authorized_keys.is_some() {
        serve.authorized_keys.clone_from(&args.authorized_keys);
        serve.open = false;
    }
    if args.open {
        // `--open` wins over the config's key file, as `--authorized-keys` wins over its
        // `open` (the config alone may not set both).
        serve.open = true;
        serve.authorized_keys = None;
    }
    serve.max_sessions = args.max_sessions.unwrap_or(serve.max_sessions);
    serve.idle_timeout = args.idle_timeout.unwrap_or(serve.idle_timeout);
    serve.max_failures_per_minute = args
        .max_failures_per_minute
        .unwrap_or(serve.max_failures_per_minute);
    serve.auth_failure_delay = args.auth_failure_delay.unwrap_or(serve.auth_failure_delay);
    serve.max_startups = args.max_startups.unwrap_or(serve.max_startups);
    serve.per_source_max_startups = args
        .per_source_max_startups
        .unwrap_or(serve.per_source_max_startups);
    serve.login_grace_time = args.login_grace_time.unwrap_or(serve.login_grace_time);
    config.validate().map_err(|error| {
        error
            .to_string()
            .replace("merged settings", "the command line")
    })?;
    let serve = &config.serve;
    let host_key = match &serve.host_key {
        Some(path) => path.clone(),
        None => data_dir
            .map_err(|why| format!("no place for the host key ({why}); or pass --host-key"))?
            .join(keys::HOST_KEY_FILE),
    };
    let authorized_keys = if serve.open {
        None
    } else {
        Some(
            serve
                .authorized_keys
                .clone()
                .or_else(keys::default_authorized_keys)
                .ok_or("no home directory for ~/.ssh/authorized_keys: pass --authorized-keys")?,
        )
    };
    Ok(Settings {
        listen: serve.listen,
        host_key,
        authorized_keys,
        max_sessions: serve.max_sessions,
        idle_timeout: serve.idle_timeout.0,
        max_failures_per_minute: serve.max_failures_per_minute,
        auth_failure_delay: serve.auth_failure_delay.0,
        max_startups: serve.max_startups,
        per_source_max_startups: serve.per_source_max_startups,
        login_grace_time: serve.login_grace_time.0,
    })
}

/// The `serve` command: resolves the settings, loads the models once, runs until SIGINT or
/// SIGTERM, then ends every session cleanly. Bad settings exit with status 2.
pub fn command(
    mut config: Config,
    args: &ServeArgs,
    data_dir: &Result<PathBuf, String>,
    seed: Option<u64>,
) -> ExitCode {
    let fail = |message: String| {
        eprintln!("ai-arcade: {message}");
        ExitCode::from(crate::cli::EXIT_USAGE)
    };
    let seed = seed.or(config.seed);
    let settings = match settings(&mut config, args, data_dir.clone()) {
        Ok(settings) => settings,
        Err(message) => return fail(message),
    };
    let models = match data_dir {
        Ok(dir) => Models::load(&config, &Store::new(dir)),
        Err(_) => Models::default(),
    };
    for problem in models.problems() {
        eprintln!("ai-arcade: a saved model is not used: {problem}");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return fail(format!("cannot start the server: {error}")),
    };
    runtime.block_on(async move {
        let log = stderr_log();
        let server = match Server::start(settings.clone(), config, models, seed, log).await {
            Ok(server) => server,
            Err(error) => return fail(error.to_string()),
        };
        print_banner(&server, &settings);
        wait_for_signal().await;
        eprintln!(
            "ai-arcade: shutting down, ending {} sessions",
            server.sessions()
        );
        server.shutdown(SHUTDOWN_WAIT).await;
        ExitCode::SUCCESS
    })
}

fn print_banner(server: &Server, settings: &Settings) {
    let created = if server.host_key_created {
        " (made now)"
    } else {
        ""
    };
    eprintln!("ai-arcade: serving on {}", server.local_addr);
    eprintln!(
        "ai-arcade: host key {}{created}: ED25519 key fingerprint is {}",
        settings.host_key.display(),
        server.fingerprint
    );
    if keys::readable_by_others(&settings.host_key) {
        eprintln!(
            "ai-arcade: warning: {} can be read by others; chmod 600 it",
            settings.host_key.display()
        );
    }
    match &settings.authorized_keys {
        Some(path) => eprintln!("ai-arcade: keys in {} may log in", path.display()),
        None => eprintln!("ai-arcade: open: anyone may log in, with or without a key"),
    }
    if settings.authorized_keys.is_none() && !server.local_addr.ip().is_loopback() {
        eprintln!(
            "ai-arcade: warning: open to everyone who can reach {}",
            server.local_addr
        );
    }
    let port = server.local_addr.port();
    eprintln!(
        "ai-arcade: {} sessions at most, closed after {} idle; connect with: ssh -p {port} {}",
        settings.max_sessions,
        HumanDuration(settings.idle_timeout),
        connect_host(server.local_addr)
    );
}

/// The host to put in the `ssh` line: the address, or a placeholder for a wildcard one.
fn connect_host(addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        "HOST".into()
    } else {
        addr.ip().to_string()
    }
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let term = signal(SignalKind::terminate());
        let hup = signal(SignalKind::hangup());
        if let (Ok(mut term), Ok(mut hup)) = (term, hup) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
                _ = hup.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn refusals_are_logged_once_per_ten_seconds_and_the_count_follows() {
        let mut log = RefusalLog::default();
        let start = Instant::now();
        assert_eq!(log.note(start), Some(None), "the first is logged");
        for second in 1..=5 {
            assert_eq!(log.note(start + Duration::from_secs(second)), None);
        }
        assert_eq!(log.unsaid(), 5);
        let summary = log.flush(start + Duration::from_secs(10)).unwrap();
        assert_eq!(
            summary,
            "refused 5 more connection(s) in the last 10s (not logged one by one)"
        );
        assert_eq!(log.flush(start + Duration::from_secs(11)), None);
        assert_eq!(
            log.note(start + Duration::from_secs(12)),
            None,
            "still within 10 s"
        );
        let later = log.note(start + Duration::from_secs(21)).unwrap();
        assert!(later.unwrap().starts_with("refused 1 more"));
    }

    #[test]
    fn timestamps_are_utc_dates() {
        assert_eq!(utc_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(utc_timestamp(leap), "2000-02-29T12:34:56Z");
    }

    #[test]
    fn flags_win_over_the_config() {
        let mut config = Config::default();
        config.serve.open = true;
        let args = ServeArgs {
            listen: Some("127.0.0.1:0".parse().unwrap()),
            host_key: None,
            authorized_keys: Some("/tmp/keys".into()),
            open: false,
            max_sessions: Some(3),
            idle_timeout: Some("2s".parse().unwrap()),
            max_failures_per_minute: None,
            auth_failure_delay: None,
            max_startups: Some("10:30:100".parse().unwrap()),
            per_source_max_startups: None,
            login_grace_time: None,
        };
        let settings = settings(&mut config, &args, Ok("/data".into())).unwrap();
        assert_eq!(settings.authorized_keys, Some(PathBuf::from("/tmp/keys")));
        assert_eq!(
            settings.host_key,
            Path::new("/data").join(keys::HOST_KEY_FILE)
        );
        assert_eq!(settings.max_sessions, 3);
        assert_eq!(settings.idle_timeout, Duration::from_secs(2));
        assert_eq!(settings.max_failures_per_minute, 20);
        assert_eq!(settings.max_startups.to_string(), "10:30:100");
        assert_eq!(settings.per_source_max_startups, 4);
        assert_eq!(settings.login_grace_time, Duration::from_secs(60));

        let args = ServeArgs {
            max_sessions: Some(0),
            ..args
        };
        let error = super::settings(&mut Config::default(), &args, Ok("/d".into())).unwrap_err();
        assert!(
            error.contains("the command line: serve.max_sessions = 0"),
            "{error}"
        );
    }
}
