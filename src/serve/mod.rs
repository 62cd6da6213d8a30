//! `ai-arcade serve`: the arcade over SSH, one private arcade per connection, built on
//! russh. This file starts and stops the server: the host key, the listening socket, who
//! may start logging in ([`gate`]), the login deadlines, and the log. What one connection
//! does lives in [`session`]; the pieces it is made of (keys, limits, input parsing, the
//! session's terminal) in their own files, and, with the `bench-tools` feature only, what
//! `ai-arcade bench ssh` and `bench room` measure in `bench`, `slowloris` and `bench_room`.
//! Nothing here knows the command line: the `serve` and `bench` flags, their checks and exit
//! statuses are in `cli/`, which hands the server a resolved [`Settings`].

pub mod addresses;
#[cfg(feature = "bench-tools")]
pub mod bench;
#[cfg(feature = "bench-tools")]
pub mod bench_room;
#[cfg(feature = "bench-tools")]
pub mod bench_session;
pub mod class_code;
pub mod client;
pub mod clock;
pub mod collect;
mod course;
pub mod gate;
pub mod health;
pub mod input;
pub mod kex_watch;
pub mod keys;
pub mod limits;
#[cfg(feature = "bench-tools")]
pub mod lockout_bench;
pub mod log_format;
pub mod named_class;
pub mod progress;
pub mod proxy;
pub mod report;
pub mod room;
pub mod seats;
pub mod session;
pub mod session_caps;
mod shared;
#[cfg(feature = "bench-tools")]
pub mod slowloris;
pub mod terminal;
pub mod web;

use crate::config::{Config, HumanDuration, LogFormat};
use crate::tabs::Models;
use class_code::ClassCode;
use gate::{Admissions, Gate};
use russh::SshId;
use russh::keys::PrivateKey;
use session::{Progress, Stage};
use shared::{Current, Shared, lesson_words, to_stderr};
pub use shared::{Log, REFUSAL_LOG_EVERY, RefusalLog, Settings, Unsaid, stderr_log};
use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tracing::{Dispatch, info};

/// The longest a client may take to send its half of the key exchange (its version line
/// and key exchange message, `kex_watch`): programs do it alone, in well under a second, so
/// a silent connection is closed after this. The rest of the handshake may wait for a
/// person (the host key question, the class code prompt) until the login grace time.
pub const KEX_DEADLINE: Duration = Duration::from_secs(10);

/// A connection that logged in but has not started an arcade this long after its login
/// grace time is closed: a login must not hold a place for nothing.
pub const ARCADE_GRACE: Duration = Duration::from_secs(60);

/// How long a shutdown waits for sessions to restore their clients' terminals.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(3);

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
    /// The tokio runtime could not be made.
    #[error("cannot start the server: {0}")]
    Runtime(std::io::Error),
    /// The collect folder cannot be used.
    #[error("collect folder: {0}")]
    Collect(String),
}

/// A running server.
pub struct Server {
    /// The address it listens on for SSH (with the real port when 0 was asked for); the
    /// page's when SSH is off.
    pub local_addr: SocketAddr,
    /// The address the page and its WebSocket are served on, if any (the real port when
    /// 0 was asked for).
    pub web_addr: Option<SocketAddr>,
    /// The host key's SHA-256 fingerprint, for the operator to hand to users (empty when
    /// SSH is off).
    pub fingerprint: String,
    /// Whether the host key was made at this start.
    pub host_key_created: bool,
    /// When the class code expires, if there is one that does.
    pub class_code_expires_at: Option<SystemTime>,
    /// The address health checks are answered on, if any (the real port when 0 was
    /// asked for).
    pub health_addr: Option<SocketAddr>,
    shared: Arc<Shared>,
    /// The accept loops: SSH's and the page's.
    accepts: Vec<tokio::task::JoinHandle<()>>,
    health: Option<tokio::task::JoinHandle<()>>,
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
        let host_key = if !settings.ssh {
            None
        } else if settings.host_key_required {
            Some((keys::required_host_key(&settings.host_key)?, false))
        } else {
            Some(keys::host_key(&settings.host_key)?)
        };
        let log = log_format::dispatch(settings.log_format, log);
        let key_note = check_key_files(&settings, &log)?;
        let listeners = Listeners::bind(&settings).await?;
        let web_addr = listeners.web.as_ref().and_then(|l| l.local_addr().ok());
        let local_addr = (listeners.ssh.as_ref().or(listeners.web.as_ref()))
            .and_then(|l| l.local_addr().ok())
            .unwrap_or(settings.listen);
        let host_key_created = host_key.as_ref().is_some_and(|(_, created)| *created);
        let fingerprint = (host_key.as_ref())
            .map(|(key, _)| keys::fingerprint(key.public_key()))
            .unwrap_or_default();
        let russh_config = host_key.map(|(key, _)| Arc::new(russh_config(&settings, key)));
        let gate = Gate::new(
            settings.max_startups,
            settings.per_source_max_startups,
            settings.max_failures_per_minute,
            seed.unwrap_or_else(clock_seed),
        );
        let collector = match &settings.collect {
            Some(dir) => Some(
                collect::Collector::open(dir, settings.clock.clone())
                    .map_err(ServeError::Collect)?,
            ),
            None => None,
        };
        let shared = Arc::new(Shared {
            collector,
            logged_in: Arc::default(),
            session_caps: Arc::default(),
            admissions: Admissions::new(gate),
            refusals: Mutex::new(RefusalLog::default()),
            current: RwLock::new(Arc::new(Current::new(config, settings.course.clone()))),
            settings,
            models,
            seed,
            slots: Arc::default(),
            log,
            shutdown: watch::channel(false).0,
            sessions_started: AtomicU64::new(0),
            room: Arc::default(),
            reload: OnceLock::new(),
            started: Instant::now(),
            key_note: Mutex::new(key_note),
            draining: AtomicBool::new(false),
            notice: watch::channel(None).0,
        });
        if let Some(dir) = &shared.settings.seats {
            shared.room.set_store(seats::SeatStore::new(dir));
        }
        (shared.room).set_files(Box::new(course::ServerFiles::new(Arc::downgrade(&shared))));
        shared.room.set_progress(Arc::new(open_progress(&shared)));
        let class_code_expires_at = (shared.settings.class_code.as_ref())
            .and_then(ClassCode::expires_after)
            .map(|after| SystemTime::now() + after);
        let health_addr = (listeners.health.as_ref()).and_then(|l| l.local_addr().ok());
        let (accepts, health) = listeners.spawn(&shared, russh_config);
        Ok(Self {
            local_addr,
            web_addr,
            fingerprint,
            host_key_created,
            class_code_expires_at,
            health_addr,
            shared,
            accepts,
            health,
        })
    }

    /// Sessions that start from now on run what `reload` reads; those running keep
    /// theirs, so nobody's game is cut short. A file it refuses leaves everything as it
    /// was. The `[serve]` settings (addresses, limits) stay as they are until a restart.
    /// What was done, in words, as the log says it.
    ///
    /// # Errors
    /// Why the reload was refused.
    pub fn reload(&self, reload: &Reload) -> Result<String, String> {
        self.shared.reload(reload)
    }

    /// Lets the teacher's room reload as SIGHUP does (`r` in the room), with `reload`. (The
    /// room moves the class through the course, `n` and `p`, without it.)
    pub fn reload_from_the_room(&self, reload: Arc<Reload>) {
        let _ = self.shared.reload.set(reload);
    }

    /// Arcades running now.
    pub fn sessions(&self) -> usize {
        self.shared.slots.used()
    }

    /// What a health check hears now.
    pub fn health(&self) -> health::Health {
        self.shared.health()
    }

    /// Tells the operator `line` (the banner's, the shutdown's): `ai-arcade: …` on stderr
    /// in text, as the command line's other messages are, or a `server` event in the JSON
    /// log, where every line must be an object.
    fn announce(&self, line: &str) {
        match self.shared.settings.log_format {
            LogFormat::Text => to_stderr(&format!("ai-arcade: {line}")),
            LogFormat::Json => self.shared.log(|| info!(event = "server", "{line}")),
        }
    }

    /// SIGTERM's drain: stops accepting (health checks say 503 from now on), tells every
    /// player the server restarts, and returns once they have all left or `grace` is up,
    /// whichever is first. [`Server::shutdown`] ends the sessions left, saying the server
    /// is restarting.
    pub async fn drain(&self, grace: Duration) {
        for accept in &self.accepts {
            accept.abort();
        }
        self.shared.draining.store(true, Ordering::SeqCst);
        let sessions = self.shared.slots.used();
        self.shared.log(|| {
            info!(
                event = "draining",
                sessions,
                grace = %HumanDuration(grace),
                "new connections refused"
            );
        });
        // Short enough for an 80-column status line with its hint.
        let notice = format!(
            "Server restarting: this session ends in {}, then reconnect.",
            HumanDuration(grace)
        );
        self.shared.notice.send_replace(Some(notice));
        let deadline = Instant::now() + grace;
        while self.shared.slots.used() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Stops accepting, ends every arcade (each restores its client's terminal and says
    /// why), and waits up to `wait` for them to finish.
    pub async fn shutdown(self, wait: Duration) {
        for accept in &self.accepts {
            accept.abort();
        }
        if let Some(health) = &self.health {
            health.abort();
        }
        self.shared.shutdown.send_replace(true);
        let deadline = Instant::now() + wait;
        // Until the connections are gone too, not only the arcades: an arcade's farewell
        // and the channel's close are still on their way to the client when its slot is
        // freed, and they would be lost with the process.
        let busy = || self.shared.slots.used() > 0 || self.shared.logged_in.used() > 0;
        while busy() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The class's record over time: a named class's, read from its folder (a file that
/// cannot be read is logged, and set aside at the first write), else one in memory.
fn open_progress(shared: &Shared) -> progress::ProgressStore {
    let clock = shared.settings.clock.clone();
    let Some(class) = &shared.settings.class else {
        return progress::ProgressStore::in_memory(clock);
    };
    let (progress, problem) = progress::ProgressStore::open(&class.dir, &class.name, clock);
    if let Some(why) = problem {
        shared.log(|| {
            info!(
                event = "class progress not read",
                "{why}; a new record begins"
            );
        });
    }
    progress
}

/// Checks that the key files let someone in (a file with no usable key refuses the
/// start) and logs the lines of `authorized_keys` that were skipped; that note is returned,
/// so later re-reads log it only when it changed.
fn check_key_files(settings: &Settings, log: &Dispatch) -> Result<Option<String>, ServeError> {
    let mut key_note = None;
    if let Some(path) = &settings.authorized_keys {
        if let Ok(Some(note)) = keys::read_authorized_keys(path).map(|f| f.skipped_note()) {
            tracing::dispatcher::with_default(log, || shared::log_skipped_keys(path, &note));
            key_note = Some(note);
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
    if let Some(path) = &settings.teacher_keys {
        match keys::authorized_keys(path) {
            Ok(teachers) if teachers.is_empty() => {
                return Err(ServeError::NoKeys(format!(
                    "{} lists no teacher keys",
                    path.display()
                )));
            }
            Ok(_) => {}
            Err(error) => return Err(ServeError::NoKeys(error.to_string())),
        }
    }
    Ok(key_note)
}

/// Answers health checks on `listener` with the server's state, for as long as the server
/// is there (the task holds it weakly).
fn spawn_health(listener: TcpListener, shared: &Arc<Shared>) -> tokio::task::JoinHandle<()> {
    let weak = Arc::downgrade(shared);
    let health = Arc::new(move || {
        weak.upgrade()
            .map_or(health::Health::Draining, |shared| shared.health())
    });
    let weak = Arc::downgrade(shared);
    let log = Arc::new(move |error: &std::io::Error| {
        if let Some(shared) = weak.upgrade() {
            shared.log(|| info!(event = "health check accept failed", "{error}"));
        }
    });
    tokio::spawn(health::serve(listener, health, log))
}

/// russh's settings for these: public keys (and "none" when open), keyboard-interactive
/// for a class code, refused logins answered after the configured delay, keepalives to
/// find dead clients.
fn russh_config(settings: &Settings, host_key: PrivateKey) -> russh::server::Config {
    russh::server::Config {
        server_id: SshId::Standard(Cow::Owned(format!(
            "SSH-2.0-ai-arcade_{}",
            env!("CARGO_PKG_VERSION")
        ))),
        methods: settings.methods(),
        auth_rejection_time: settings.auth_failure_delay,
        // OpenSSH first asks with "none" to learn the methods: no need to slow that down.
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        keys: vec![host_key],
        inactivity_timeout: Some(settings.idle_timeout + settings.login_grace_time + ARCADE_GRACE),
        // A dropped network is found within about 75 s, so its student, logging in
        // again, finds their seat free rather than taken by the dead connection. russh
        // counts missed keepalives before the key exchange ends too (it sends none
        // then): 5 x 15 s outlasts the 60 s login grace a student has to read the host
        // key question.
        keepalive_interval: Some(Duration::from_secs(15)),
        keepalive_max: 4,
        nodelay: true,
        ..Default::default()
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
                shared.log(|| info!(event = "accept failed", "{error}"));
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
/// and the deadlines: the client's half of the key exchange within [`KEX_DEADLINE`]
/// (`Settings::kex_deadline`), the login within the login grace time (both counted from
/// connecting; the time between is the host key question's, which a person may be
/// reading), an arcade within [`ARCADE_GRACE`] after.
async fn serve_connection(
    mut stream: tokio::net::TcpStream,
    peer: SocketAddr,
    shared: Arc<Shared>,
    config: Arc<russh::server::Config>,
) {
    let connected = tokio::time::Instant::now();
    let Some(peer) = shared.client_address(&mut stream, peer).await else {
        return;
    };
    let grace = shared.settings.login_grace_time;
    if let Some(limit) = shared.admissions.slowed(peer.ip()) {
        shared.refused(|| {
            info!(
                event = "slowed connection",
                addr = %peer,
                "its address ended over {limit} connections a minute without logging in: \
                 one login at a time from it until one succeeds"
            );
        });
    }
    let pending = match shared.admissions.enter(peer.ip(), grace).await {
        Ok(pending) => pending,
        Err(refusal) => {
            shared.refused(|| info!(event = "refused connection", addr = %peer, "{refusal}"));
            return;
        }
    };
    // A second handle on the socket, to cut a connection that misses a deadline whatever
    // state its handshake is in.
    let Ok((stream, cutter)) = with_cutter(stream) else {
        return;
    };
    let progress = Arc::new(Progress::default());
    let cut = pending.cut_signal();
    let connection =
        session::Connection::new(Arc::clone(&shared), peer, pending, Arc::clone(&progress));
    let login_deadline = connected + grace;
    let kex_deadline =
        (tokio::time::Instant::now() + shared.settings.kex_deadline).min(login_deadline);
    let sent = Arc::clone(&progress);
    let stream = kex_watch::Watched::new(stream, move || sent.reach(Stage::KeyExchangeSent));
    let handshake = russh::server::run_stream(config, stream, connection);
    let started = tokio::select! {
        started = tokio::time::timeout_at(kex_deadline, handshake) => started,
        () = cut.notified() => {
            shared.log_cut(peer);
            return;
        }
    };
    let Ok(Ok(running)) = started else {
        return;
    };
    tokio::pin!(running);
    let deadlines = [
        (kex_deadline, Stage::KeyExchangeSent),
        (login_deadline, Stage::LoggedIn),
        (login_deadline + ARCADE_GRACE, Stage::Playing),
    ];
    for (deadline, stage) in deadlines {
        tokio::select! {
            _ = &mut running => return,
            () = tokio::time::sleep_until(deadline) => {}
            // The gate gave its place to an address holding fewer: only while it has not
            // logged in, as the gate forgets it then.
            () = cut.notified() => {
                shared.log_cut(peer);
                let _ = cutter.shutdown(std::net::Shutdown::Both);
                break;
            }
        }
        if !progress.reached(stage) {
            let _ = cutter.shutdown(std::net::Shutdown::Both);
            break;
        }
    }
    let _ = running.await;
}

/// The server's listening sockets: SSH's, the page's and the health checks', each when
/// asked for.
struct Listeners {
    ssh: Option<TcpListener>,
    web: Option<TcpListener>,
    health: Option<TcpListener>,
}

impl Listeners {
    /// Listens where `settings` say, before anything is served: a port taken stops the
    /// start.
    async fn bind(settings: &Settings) -> Result<Self, ServeError> {
        Ok(Self {
            ssh: if settings.ssh {
                Some(bind(settings.listen).await?)
            } else {
                None
            },
            web: match settings.web {
                Some(addr) => Some(bind(addr).await?),
                None => None,
            },
            health: match settings.health_listen {
                Some(addr) => Some(bind(addr).await?),
                None => None,
            },
        })
    }

    /// Starts accepting on each: the accept loops, and the health checks' task.
    fn spawn(
        self,
        shared: &Arc<Shared>,
        russh_config: Option<Arc<russh::server::Config>>,
    ) -> (
        Vec<tokio::task::JoinHandle<()>>,
        Option<tokio::task::JoinHandle<()>>,
    ) {
        let mut accepts = Vec::new();
        if let (Some(listener), Some(config)) = (self.ssh, russh_config) {
            let shared = Arc::clone(shared);
            accepts.push(tokio::spawn(accept_loop(listener, shared, config)));
        }
        if let Some(listener) = self.web {
            let shared = Arc::clone(shared);
            accepts.push(tokio::spawn(web::accept_loop(listener, shared)));
        }
        let health = (self.health).map(|listener| spawn_health(listener, shared));
        (accepts, health)
    }
}

/// A listener on `addr`.
async fn bind(addr: SocketAddr) -> Result<TcpListener, ServeError> {
    TcpListener::bind(addr)
        .await
        .map_err(|reason| ServeError::Listen { addr, reason })
}

/// The stream, and a second handle on its socket that can shut it down.
fn with_cutter(
    stream: tokio::net::TcpStream,
) -> std::io::Result<(tokio::net::TcpStream, std::net::TcpStream)> {
    let stream = stream.into_std()?;
    let cutter = stream.try_clone()?;
    Ok((tokio::net::TcpStream::from_std(stream)?, cutter))
}

pub use shared::Reload;

/// Raises this process's limit on open files to its hard limit: the gate's pools hold up
/// to a few hundred sockets under attack, past a default soft limit of 1,024 with the
/// sessions and their files. Nothing is said when it cannot: the soft limit stands.
fn raise_file_limit() {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current < limit.maximum {
            limit.current = limit.maximum;
            let _ = setrlimit(Resource::Nofile, limit);
        }
    }
}

/// Runs the server with `settings` until SIGINT or SIGTERM, printing its banner and log on
/// stderr (as `settings.log_format` says), then ends every session cleanly. SIGHUP runs
/// `reload`: new sessions start from what it read, and a file it refuses leaves everything
/// as it was, saying why. SIGTERM drains first: no one new is let in, players are warned,
/// and their sessions end after the drain grace time (or once all have left); SIGINT, or
/// a second SIGTERM, ends them at once. The models are loaded by the caller once; each
/// session starts from its own copy.
pub fn run(
    settings: Settings,
    config: Config,
    models: Models,
    seed: Option<u64>,
    reload: Reload,
) -> Result<(), ServeError> {
    raise_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let mut signals = Signals::listen();
        let server = Server::start(settings.clone(), config, models, seed, stderr_log()).await?;
        print_banner(&server, &settings, &|line| server.announce(line));
        let reload = Arc::new(reload);
        server.reload_from_the_room(Arc::clone(&reload));
        let mut signal = signals.next().await;
        while signal == Signal::Reload {
            // The outcome is logged either way.
            let _ = server.reload(&reload);
            signal = signals.next().await;
        }
        if signal == Signal::Terminate {
            tokio::select! {
                () = server.drain(settings.drain_grace) => {}
                () = async { while signals.next().await == Signal::Reload {} } => {}
            }
        }
        server.announce(&format!(
            "shutting down, ending {} sessions",
            server.sessions()
        ));
        server.shutdown(SHUTDOWN_WAIT).await;
        Ok(())
    })
}

/// The banner's first lines: where SSH listens and its host key, where the page is.
fn say_addresses(server: &Server, settings: &Settings, say: &dyn Fn(&str)) {
    if settings.ssh {
        let created = if server.host_key_created {
            " (made now)"
        } else {
            ""
        };
        say(&format!("serving on {}", server.local_addr));
        say(&format!(
            "host key {}{created}: ED25519 key fingerprint is {}",
            settings.host_key.display(),
            server.fingerprint
        ));
    }
    if let Some(addr) = server.web_addr {
        let also = if settings.ssh {
            ""
        } else {
            " (no SSH: give --listen for it too)"
        };
        let host = if addr.ip().is_unspecified() {
            connect_host(addr, &|_| {})
        } else {
            addr.ip().to_string()
        };
        let host = if host.contains(':') {
            format!("[{host}]")
        } else {
            host
        };
        say(&format!(
            "the arcade in a browser at http://{host}:{}/{also}",
            addr.port()
        ));
    }
}

/// The banner: where the server listens, its host key, who may log in, the limits.
fn print_banner(server: &Server, settings: &Settings, say: &dyn Fn(&str)) {
    say_addresses(server, settings, say);
    if settings.ssh && keys::readable_by_others(&settings.host_key) {
        say(&format!(
            "warning: {} can be read by others; chmod 600 it",
            settings.host_key.display()
        ));
    }
    if let Some(addr) = server.health_addr {
        say(&format!(
            "health checks on http://{addr}/ (200 taking sessions, 503 full or draining)"
        ));
    }
    if settings.proxies.enabled() {
        say(&format!(
            "PROXY protocol: connections only from {}, each with a header naming its client",
            settings.proxies.listed()
        ));
    }
    if let Some(path) = &settings.teacher_keys {
        say(&format!(
            "keys in {} log in as the teacher, on the room (R)",
            path.display()
        ));
    }
    if let Some(class) = &settings.class {
        say(&format!(
            "class {}: its seats, results and progress are kept in {} (back it up there); \
             give each sitting a new --class-code",
            class.name,
            class.dir.display()
        ));
    }
    if let Some(dir) = &settings.collect {
        say(&format!(
            "students' exports and graded predictions go into {} (results.csv)",
            dir.display()
        ));
    }
    match settings.course.as_slice() {
        [] => {}
        [one] => say(&format!(
            "every session runs the {}",
            lesson_words(one.lesson.as_deref())
        )),
        course => {
            say(&format!(
                "a course of {} lessons; every session starts on the first (n in the room \
                 moves the class on):",
                course.len()
            ));
            for (at, setup) in course.iter().enumerate() {
                say(&format!(
                    "  {}. {}",
                    at + 1,
                    lesson_words(setup.lesson.as_deref())
                ));
            }
        }
    }
    if let Some(path) = &settings.authorized_keys {
        say(&format!("keys in {} may log in", path.display()));
    }
    if let Some(code) = &settings.class_code {
        say(&class_code_line(code, server.class_code_expires_at));
    }
    if settings.is_open() {
        say("open: anyone may log in, with or without a key");
        let listened = (settings.ssh.then_some(server.local_addr)).into_iter();
        for addr in listened.chain(server.web_addr) {
            if !addr.ip().is_loopback() {
                say(&format!("warning: open to everyone who can reach {addr}"));
            }
        }
    }
    if !settings.ssh {
        say(&format!(
            "{} sessions at most, closed after {} idle",
            settings.max_sessions,
            HumanDuration(settings.idle_timeout),
        ));
        return;
    }
    let port = server.local_addr.port();
    let host = connect_host(server.local_addr, say);
    let with_key = format!("ssh -p {port} {host}");
    let students =
        format!("ssh -o PreferredAuthentications=keyboard-interactive NAME@{host} -p {port}");
    let connect = match (&settings.class_code, &settings.authorized_keys) {
        (None, _) => with_key,
        (Some(_), None) => students,
        (Some(_), Some(_)) => format!("{students} (with a key: {with_key})"),
    };
    say(&format!(
        "{} sessions at most, closed after {} idle; connect with: {connect}",
        settings.max_sessions,
        HumanDuration(settings.idle_timeout),
    ));
}

/// The banner's line on the class code: the code itself when it was made here (a given
/// one is on the teacher's command line already, and stays out of logs), how students
/// use it, and when it expires.
fn class_code_line(code: &ClassCode, expires_at: Option<SystemTime>) -> String {
    let which = if code.generated() {
        format!("class code {} (made now)", code.shown())
    } else {
        "the class code given with --class-code".to_string()
    };
    let until = match (code.expires_after(), expires_at) {
        (Some(after), Some(at)) => format!(
            "until {} ({} after start)",
            humantime::format_rfc3339_seconds(at),
            HumanDuration(after)
        ),
        _ => "until the server stops".to_string(),
    };
    format!("{which} lets students in with any name, {until}")
}

/// The host to put in the `ssh` line: the address listened on; for a wildcard one, this
/// machine's first address students can use, the others said in a line of their own
/// (with their interfaces, so the teacher picks the one on the class's network), or
/// `HOST` when the interfaces cannot be read.
fn connect_host(addr: SocketAddr, say: &dyn Fn(&str)) -> String {
    if !addr.ip().is_unspecified() {
        return addr.ip().to_string();
    }
    match addresses::of_this_machine(addr.ip()) {
        Ok(found) if !found.is_empty() => {
            if found.len() > 1 {
                let listed: Vec<String> = (found.iter())
                    .map(|r| format!("{} ({})", r.ip, r.interface))
                    .collect();
                say(&format!(
                    "students reach this machine at {}: give them the one on their network",
                    listed.join(", ")
                ));
            }
            found[0].ip.to_string()
        }
        Ok(_) => {
            say("this machine has no address to give students: use its name for HOST");
            "HOST".into()
        }
        Err(error) => {
            say(&format!(
                "cannot list this machine's addresses ({error}): use its name or address for HOST"
            ));
            "HOST".into()
        }
    }
}

/// What a signal asks of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    /// SIGINT (Ctrl-C at the operator's terminal): end every session now and exit.
    Interrupt,
    /// SIGTERM (a service manager, Kubernetes): drain, then exit.
    Terminate,
    /// SIGHUP: read the config and the lesson again.
    Reload,
}

/// The signals the server acts on, listened for from before the banner is printed (a
/// signal that came between the banner and the first wait would otherwise end the process
/// by default, without a drain).
struct Signals {
    #[cfg(unix)]
    unix: Option<(
        tokio::signal::unix::Signal,
        tokio::signal::unix::Signal,
        tokio::signal::unix::Signal,
    )>,
}

impl Signals {
    fn listen() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listened = (
                signal(SignalKind::interrupt()),
                signal(SignalKind::terminate()),
                signal(SignalKind::hangup()),
            );
            let unix = match listened {
                (Ok(int), Ok(term), Ok(hup)) => Some((int, term, hup)),
                _ => None,
            };
            Self { unix }
        }
        #[cfg(not(unix))]
        Self {}
    }

    async fn next(&mut self) -> Signal {
        #[cfg(unix)]
        if let Some((int, term, hup)) = &mut self.unix {
            return tokio::select! {
                _ = int.recv() => Signal::Interrupt,
                _ = term.recv() => Signal::Terminate,
                _ = hup.recv() => Signal::Reload,
            };
        }
        let _ = tokio::signal::ctrl_c().await;
        Signal::Interrupt
    }
}
