//! What the server and every connection share: the resolved [`Settings`], the config and
//! models each arcade starts from, the slot counters, the admission gate, and the log with
//! its rate-limited refusals. Its own file so that the server (`mod.rs`) and one connection
//! (`session.rs`) both use it without importing each other.

use super::class_code::ClassCode;
use super::gate::Admissions;
use super::health::Health;
use super::limits::Slots;
use super::proxy::TrustedProxies;
use crate::app::room::{Course, Setup};
use crate::config::{Config, LogFormat, Startups};
use crate::lesson::Lesson;
use crate::tabs::Models;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;
use tracing::{Dispatch, info};

/// Reads the config and the lessons again, as they were given at start: what SIGHUP (and
/// the teacher's `r`) runs. The config, and the course: each lesson with the config its
/// sections make (none: no lesson).
pub type Reload = Box<dyn Fn() -> Result<(Config, Vec<Setup>), String> + Send + Sync>;

/// How often at most a refusal of a connection is logged (with a count of the others).
pub const REFUSAL_LOG_EVERY: Duration = Duration::from_secs(10);

/// Everything the server runs with, resolved from the config, the flags and the data dir
/// (by the command line, or by a test).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where to listen for SSH.
    pub listen: SocketAddr,
    /// Whether SSH is served (`serve --web` without `--listen` serves only the page).
    pub ssh: bool,
    /// Where the page and its WebSocket are served (`--web`), if anywhere.
    pub web: Option<SocketAddr>,
    /// The host key file.
    pub host_key: PathBuf,
    /// The `authorized_keys` file; `None` (and no class code) lets anyone in (`--open`).
    pub authorized_keys: Option<PathBuf>,
    /// The class join code: with it, any name and the code log in (keyboard-interactive),
    /// besides the teacher keys and the keys in `authorized_keys` if that is set too.
    pub class_code: Option<ClassCode>,
    /// Arcades at once.
    pub max_sessions: usize,
    /// Sessions logged in at once under one name (teachers aside).
    pub max_sessions_per_name: usize,
    /// Sessions logged in at once from one address (an IPv6 /64).
    pub max_sessions_per_address: usize,
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
    /// Time from connecting to the client's half of the key exchange:
    /// [`KEX_DEADLINE`](super::KEX_DEADLINE) (shorter in tests; no flag sets it).
    pub kex_deadline: Duration,
    /// The lessons of the class, in the order the teacher gave them, each with the config
    /// its sections make; the first is in force at the start. Empty: no lesson.
    pub course: Vec<Setup>,
    /// Keys (`authorized_keys` format) that log in as a teacher: the view of the room.
    pub teacher_keys: Option<PathBuf>,
    /// The teacher's collect folder: students' exports and graded predictions.
    pub collect: Option<PathBuf>,
    /// Where students' seats are kept across restarts (the data dir's `seats/`, or the
    /// named class's); `None`: only while the server runs.
    pub seats: Option<PathBuf>,
    /// The named class (`--class`) whose folder keeps its seats, results and record over
    /// time; `None`: a class for one sitting.
    pub class: Option<super::named_class::ClassFolders>,
    /// What stamps days (a student seen, an answer's time): the system's, or a test's.
    pub clock: super::clock::Clock,
    /// The load balancers that send a PROXY header (none: the protocol is off).
    pub proxies: TrustedProxies,
    /// Never make a host key: refuse to start without the one given.
    pub host_key_required: bool,
    /// Where the HTTP health check is answered, if anywhere.
    pub health_listen: Option<SocketAddr>,
    /// How long players may finish after SIGTERM.
    pub drain_grace: Duration,
    /// How the log is written on stderr.
    pub log_format: LogFormat,
}

impl Settings {
    /// Whether anyone gets in, key or not: neither a key file nor a class code.
    pub fn is_open(&self) -> bool {
        self.authorized_keys.is_none() && self.class_code.is_none()
    }

    /// Whether an open server must hear a client's keys before letting it in: with teacher
    /// keys it must, or a client that asks for "none" first (OpenSSH, dropbear) would come
    /// in as a student before it offered the teacher's key. Such a server lets anyone in
    /// by keyboard-interactive instead, which clients try after their keys.
    pub fn keys_before_open(&self) -> bool {
        self.is_open() && self.teacher_keys.is_some()
    }

    /// The login methods offered: "none" on an open server (keyboard-interactive instead
    /// when teacher keys come first, see [`Settings::keys_before_open`]), public keys
    /// unless only a class code lets anyone in, keyboard-interactive with a class code.
    pub fn methods(&self) -> russh::MethodSet {
        use russh::MethodKind;
        let mut methods = Vec::new();
        if self.is_open() && !self.keys_before_open() {
            methods.push(MethodKind::None);
        }
        if self.is_open() || self.authorized_keys.is_some() || self.teacher_keys.is_some() {
            methods.push(MethodKind::PublicKey);
        }
        if self.class_code.is_some() || self.keys_before_open() {
            methods.push(MethodKind::KeyboardInteractive);
        }
        russh::MethodSet::from(&methods[..])
    }
}

/// Where the log's lines go, each rendered whole (`log_format`): stderr for `serve`, a
/// buffer in tests.
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// A log that prints to stderr.
pub fn stderr_log() -> Log {
    Arc::new(to_stderr)
}

/// Writes a line to stderr, or drops it when stderr is gone (closed by whoever read it):
/// `eprintln!` would panic there, ending the connection or the server over a log line.
pub fn to_stderr(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// What a new session starts from: the course and the lesson of it in force, which the
/// teacher moves on (`n` in the room) and a reload reads again.
#[derive(Debug)]
pub struct Current {
    /// The lessons, each with its config; without lessons, one setup of the config alone.
    course: Vec<Setup>,
    /// Which one is in force.
    at: usize,
}

impl Current {
    /// The course of `lessons` over `config` (the config alone without lessons), at its
    /// first lesson.
    pub fn new(config: Config, lessons: Vec<Setup>) -> Self {
        let course = if lessons.is_empty() {
            vec![Setup {
                config: Arc::new(config),
                lesson: None,
            }]
        } else {
            lessons
        };
        Self { course, at: 0 }
    }

    /// What is in force: its config and lesson.
    pub fn setup(&self) -> &Setup {
        &self.course[self.at]
    }

    /// The config in force.
    pub fn config(&self) -> &Config {
        &self.setup().config
    }

    /// The lesson in force, if any.
    pub fn lesson(&self) -> Option<&Arc<Lesson>> {
        self.setup().lesson.as_ref()
    }

    /// The course's lessons, in order (none without lessons), and which is in force.
    pub fn course(&self) -> Course {
        Course {
            titles: (self.course.iter())
                .filter_map(|setup| setup.lesson.as_ref().map(|l| l.title.clone()))
                .collect(),
            at: self.at,
        }
    }

    /// The setup of the course's lesson titled `title`, if the course has it.
    pub fn lesson_titled(&self, title: &str) -> Option<&Setup> {
        (self.course.iter()).find(|setup| setup.lesson.as_ref().is_some_and(|l| l.title == title))
    }
}

/// A lesson in words, as the log and the teacher read it.
pub fn lesson_words(lesson: Option<&Lesson>) -> String {
    lesson.map_or_else(
        || "no lesson".to_string(),
        |l| {
            format!(
                "lesson \"{}\" from {} ({} steps)",
                l.title,
                l.origin,
                l.steps.len()
            )
        },
    )
}

/// What every connection shares, read-only but for the counters and [`Current`].
pub struct Shared {
    /// Reads the files again (SIGHUP, the teacher's `r`), once the server is given it.
    pub(super) reload: OnceLock<Arc<Reload>>,
    pub(super) settings: Settings,
    pub(super) current: RwLock<Arc<Current>>,
    /// Loaded once at start; each session starts from its own copy.
    pub(super) models: Models,
    pub(super) seed: Option<u64>,
    pub(super) slots: Arc<Slots>,
    /// Connections logged in, playing or about to: a budget of their own, which
    /// connections still logging in cannot use up.
    pub(super) logged_in: Arc<Slots>,
    /// Sessions logged in by name and by address, against their caps.
    pub(super) session_caps: Arc<super::session_caps::SessionCaps>,
    /// Who may start logging in.
    pub(super) admissions: Arc<Admissions>,
    /// Refused connections, logged at most every [`REFUSAL_LOG_EVERY`].
    pub(super) refusals: Mutex<RefusalLog>,
    /// This server's log: its own subscriber, entered around each log call.
    pub(super) log: Dispatch,
    pub(super) shutdown: watch::Sender<bool>,
    pub(super) sessions_started: AtomicU64,
    /// The students in, for a teacher's view.
    pub(super) room: Arc<super::room::Classroom>,
    /// The teacher's collect folder, opened at start.
    pub(super) collector: Option<Arc<super::collect::Collector>>,
    /// When the server started: a class code's expiry counts from here.
    pub(super) started: Instant,
    /// The last note on skipped `authorized_keys` lines, so each re-read at a login logs
    /// it only when it changed.
    pub(super) key_note: Mutex<Option<String>>,
    /// Set by SIGTERM: no one new is taken, health checks say 503, and the sessions that
    /// end say the server is restarting.
    pub(super) draining: AtomicBool,
    /// A sentence every running session shows in its status line (the drain's warning).
    pub(super) notice: watch::Sender<Option<String>>,
}

impl Shared {
    /// What a health check hears: draining, full, or accepting with the count.
    pub(super) fn health(&self) -> Health {
        let max = self.settings.max_sessions;
        let sessions = self.slots.used();
        if self.draining.load(Ordering::SeqCst) {
            Health::Draining
        } else if sessions >= max {
            Health::Full(max)
        } else {
            Health::Accepting { sessions, max }
        }
    }

    /// Whether the server is draining after SIGTERM.
    pub(super) fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// The config and lesson a session starting now runs.
    pub(super) fn current(&self) -> Arc<Current> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Reads the config and lesson again with `reload`; sessions that start from now on
    /// run them. What was done, or why it was refused; logged either way.
    pub(super) fn reload(&self, reload: &Reload) -> Result<String, String> {
        let (config, lessons) = match reload() {
            Ok(read) => read,
            Err(why) => {
                self.log(|| {
                    info!(
                        event = "reload refused",
                        "keeping the lesson and config in force: {why}"
                    );
                });
                return Err(why);
            }
        };
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        // The lesson in force stays in force: by its title, else by its place.
        let title = current.lesson().map(|lesson| lesson.title.clone());
        let mut read = Current::new(config, lessons);
        read.at = (read.course.iter())
            .position(|setup| setup.lesson.as_ref().map(|l| &l.title) == title.as_ref())
            .unwrap_or(current.at.min(read.course.len() - 1));
        let words = lesson_words(read.lesson().map(AsRef::as_ref));
        let words = match read.course.len() {
            1 => words,
            n => format!("{words}, lesson {} of {n}", read.at + 1),
        };
        *current = Arc::new(read);
        drop(current);
        self.log(|| {
            info!(
                event = "reloaded",
                "{words}; new sessions start from it, running ones keep theirs"
            );
        });
        Ok(words)
    }

    /// Puts lesson `at` (0-based) of the course in force: sessions that start from now on
    /// run it. What it is, in words.
    ///
    /// # Errors
    /// The course has no such lesson.
    pub(super) fn go_to(&self, at: usize) -> Result<String, String> {
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        if current.lesson().is_none() {
            return Err("this server runs no lesson (serve --lesson FILE or FOLDER)".into());
        }
        if at >= current.course.len() {
            return Err(match current.course.len() {
                1 => "this server runs one lesson, no course".to_string(),
                n => format!("the course has {n} lessons"),
            });
        }
        *current = Arc::new(Current {
            course: current.course.clone(),
            at,
        });
        let words = format!(
            "{}, lesson {} of {}",
            lesson_words(current.lesson().map(AsRef::as_ref)),
            at + 1,
            current.course.len()
        );
        drop(current);
        self.log(|| info!(event = "lesson", "the class moves on to the {words}"));
        Ok(words)
    }

    /// Logs the `tracing` events `emit` makes (`info!(event = "…", key = value, …)`) in
    /// this server's log. Its subscriber is entered for the call only: the server's lines
    /// go to its own log, never to another server's in the same process (as in tests), and
    /// events from elsewhere never reach it. See `log_format` for how a field is shown.
    pub(super) fn log(&self, emit: impl FnOnce()) {
        tracing::dispatcher::with_default(&self.log, emit);
    }

    /// Logs that the gate cut `peer`'s connection to give its place to another address.
    pub(super) fn log_cut(self: &Arc<Self>, peer: SocketAddr) {
        self.refused(|| {
            info!(
                event = "cut connection",
                addr = %peer,
                "its place went to an address holding fewer"
            );
        });
    }

    /// The client's address: the connection's own, or with `--proxy-protocol` the one its
    /// trusted proxy's header gives. `None` (logged) when the connection must be closed: not
    /// from a trusted proxy, or without a good header.
    pub(super) async fn client_address(
        self: &Arc<Self>,
        stream: &mut tokio::net::TcpStream,
        peer: SocketAddr,
    ) -> Option<SocketAddr> {
        let proxies = &self.settings.proxies;
        if !proxies.enabled() {
            return Some(peer);
        }
        if !proxies.trusts(peer.ip()) {
            self.refused(|| {
                info!(
                    event = "refused connection",
                    addr = %peer,
                    "not from a trusted proxy (--proxy-protocol)"
                );
            });
            return None;
        }
        match super::proxy::read_header(stream, super::proxy::HEADER_DEADLINE).await {
            Ok(super::proxy::Origin::Client(client)) => Some(client),
            Ok(super::proxy::Origin::Proxy) => Some(peer),
            Err(error) => {
                self.refused(|| info!(event = "refused connection", via = %peer, "{error}"));
                None
            }
        }
    }

    /// Logs a refused connection (the events `emit` makes), or counts it when one was
    /// logged less than [`REFUSAL_LOG_EVERY`] ago; the count is logged when that time is
    /// up, so it appears even when the refusals stop.
    pub(super) fn refused(self: &Arc<Self>, emit: impl FnOnce()) {
        let now = Instant::now();
        let mut refusals = self.refusals.lock().unwrap_or_else(PoisonError::into_inner);
        match refusals.note(now) {
            Some(unsaid) => {
                drop(refusals);
                self.log(|| {
                    if let Some(unsaid) = unsaid {
                        unsaid.log();
                    }
                    emit();
                });
            }
            None if refusals.unsaid == 1 => {
                drop(refusals);
                let shared = Arc::clone(self);
                tokio::spawn(async move {
                    tokio::time::sleep(REFUSAL_LOG_EVERY).await;
                    let unsaid = (shared.refusals.lock())
                        .unwrap_or_else(PoisonError::into_inner)
                        .flush(Instant::now());
                    if let Some(unsaid) = unsaid {
                        shared.log(|| unsaid.log());
                    }
                });
            }
            None => {}
        }
    }

    /// The most connections logged in at once: room for every arcade and as many again
    /// about to start one or just ended.
    pub(super) fn logged_in_cap(&self) -> usize {
        connection_cap(self.settings.max_sessions)
    }

    /// Logs a note on the skipped lines of the `authorized_keys` file at `path` unless it
    /// is the one logged last.
    pub(super) fn note_skipped_keys(&self, path: &Path, note: Option<String>) {
        let mut last = self.key_note.lock().unwrap_or_else(PoisonError::into_inner);
        if *last != note
            && let Some(note) = &note
        {
            self.log(|| log_skipped_keys(path, note));
        }
        *last = note;
    }

    /// A fresh seed for a session when none was fixed: the clock and a counter, so two
    /// sessions started in the same instant still differ. The help overlay shows it.
    pub(super) fn session_seed(&self) -> u64 {
        let count = self.sessions_started.fetch_add(1, Ordering::SeqCst);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        (nanos ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % 1_000_000
    }
}

/// Logs `note`, on the lines skipped in the `authorized_keys` file at `path`.
pub(super) fn log_skipped_keys(path: &Path, note: &str) {
    info!(event = "skipped keys", file = %path.display(), "{note}");
}

/// Logged-in connections at once, arcades or not: room for every arcade and as many again
/// (plus a few) about to start one or just ended.
pub(super) fn connection_cap(max_sessions: usize) -> usize {
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
    pub fn note(&mut self, now: Instant) -> Option<Option<Unsaid>> {
        if self.last.is_some_and(|at| now - at < REFUSAL_LOG_EVERY) {
            self.unsaid += 1;
            return None;
        }
        self.last = Some(now);
        Some(self.flush(now))
    }

    /// The refusals not logged, if there were any; counting starts again.
    pub fn flush(&mut self, now: Instant) -> Option<Unsaid> {
        let count = std::mem::take(&mut self.unsaid);
        (count > 0).then(|| {
            let seconds = self.last.map_or(0, |at| now.duration_since(at).as_secs());
            self.last = Some(now);
            Unsaid { count, seconds }
        })
    }

    /// Refusals counted and not yet logged.
    pub fn unsaid(&self) -> u64 {
        self.unsaid
    }
}

/// Refusals counted but not logged one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsaid {
    /// How many.
    pub count: u64,
    /// Over how many seconds since the last refusal logged.
    pub seconds: u64,
}

impl Unsaid {
    /// The log's line for them: `refused more: count=25 seconds=10`.
    fn log(self) {
        info!(
            event = "refused more",
            count = self.count,
            seconds = self.seconds
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_logged_once_per_ten_seconds_and_the_count_follows() {
        let mut log = RefusalLog::default();
        let start = Instant::now();
        assert_eq!(log.note(start), Some(None), "the first is logged");
        for second in 1..=5 {
            assert_eq!(log.note(start + Duration::from_secs(second)), None);
        }
        assert_eq!(log.unsaid(), 5);
        let unsaid = log.flush(start + Duration::from_secs(10)).unwrap();
        assert_eq!(
            unsaid,
            Unsaid {
                count: 5,
                seconds: 10
            }
        );
        assert_eq!(log.flush(start + Duration::from_secs(11)), None);
        assert_eq!(
            log.note(start + Duration::from_secs(12)),
            None,
            "still within 10 s"
        );
        let later = log.note(start + Duration::from_secs(21)).unwrap();
        assert_eq!(later.unwrap().count, 1);
    }
}
