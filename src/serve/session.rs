//! One SSH connection: who it is (public-key login, a student's name and the class code,
//! or anyone on an open server), its one session channel with a PTY, and the arcade that
//! runs on it. The arcade is the local
//! TUI's own event loop with its own `App`, on a thread of its own, fed parsed input and
//! drawing through a [`SessionBackend`] at the client's window size.

use super::class_code::{self, ClassCode, Verdict};
use super::gate::Pending;
use super::input::{ESCAPE_WAIT, InputParser};
use super::keys;
use super::limits::Slot;
use super::shared::Shared;
use super::terminal::{FrameSink, SessionBackend, SharedSize};
use crate::app::App;
use crate::shell::{self, Ending, LoopEvent};
use crossterm::event::Event;
use ratatui::Terminal;
use russh::keys::PublicKey;
use russh::server::{Auth, Handle, Msg, PublicKeyOffer, Response, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, Pty};
use std::borrow::Cow;
use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// What a client without a PTY is told before the channel closes.
pub const NEEDS_PTY: &str = "ai-arcade: this server runs a full-screen arcade and needs a terminal; connect with `ssh -t` and without a command.";

/// What the client over the session limit is told.
pub const FULL: &str = "ai-arcade: the server is full; try again in a few minutes.";

/// Input events a session may have waiting. When they are not taken in as fast as they
/// come, the connection stops reading (and TCP slows the client down) instead of queueing
/// without bound: a client pasting megabytes cannot grow the server's memory.
const INPUT_QUEUE: usize = 256;

/// How long one frame may wait for a client that stopped reading before the session is
/// given up (keepalives alone would keep such a connection open for ever).
const OUTPUT_TIMEOUT: Duration = Duration::from_secs(30);

/// Hands `event` to the arcade, waiting (without blocking the runtime) while its queue is
/// full. `false` once the arcade is gone.
async fn send_waiting(events: &SyncSender<LoopEvent>, mut event: LoopEvent) -> bool {
    loop {
        match events.try_send(event) {
            Ok(()) => return true,
            Err(TrySendError::Disconnected(_)) => return false,
            Err(TrySendError::Full(back)) => {
                event = back;
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    }
}

/// Asks russh to end the whole connection, not only the channel, after `delay` (time for
/// the last line to reach the client); a client that stays connected costs a socket.
fn disconnect_after(
    runtime: &tokio::runtime::Handle,
    handle: Handle,
    delay: Duration,
    why: &'static str,
) {
    runtime.spawn(async move {
        tokio::time::sleep(delay).await;
        let _ = tokio::time::timeout(
            OUTPUT_TIMEOUT,
            handle.disconnect(russh::Disconnect::ByApplication, why.into(), "en".into()),
        )
        .await;
    });
}

/// The largest window accepted; bigger requests are clamped (ratatui's buffers grow with
/// the area, so a hostile size must not cost memory).
const MAX_COLUMNS: u32 = 500;
const MAX_ROWS: u32 = 200;

/// Locks a mutex whose holder may have panicked; the data here stays valid across that.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How far a connection got, for its deadlines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Stage {
    /// Connected, key exchange under way.
    Connected,
    /// The key exchange is done: it asked to log in.
    Authenticating,
    /// Logged in.
    LoggedIn,
    /// Its arcade started.
    Playing,
}

/// The furthest [`Stage`] a connection reached, shared with the task that keeps its
/// deadlines.
#[derive(Debug, Default)]
pub struct Progress(AtomicU8);

impl Progress {
    /// Notes that `stage` was reached (never goes back).
    pub fn reach(&self, stage: Stage) {
        self.0.fetch_max(stage as u8, Ordering::SeqCst);
    }

    /// Whether `stage` (or a later one) was reached.
    pub fn reached(&self, stage: Stage) -> bool {
        self.0.load(Ordering::SeqCst) >= stage as u8
    }
}

/// The terminal the client asked for.
struct PtyRequest {
    term: String,
    size: Arc<SharedSize>,
}

/// A running arcade, as the connection sees it.
struct Running {
    events: SyncSender<LoopEvent>,
    parser: Arc<Mutex<InputParser>>,
    last_input: Arc<Mutex<Instant>>,
    ended: Arc<Notify>,
}

/// How a connection logged in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// Anyone may, on an open server.
    Open,
    /// A key listed in the `authorized_keys` file: its fingerprint.
    Key(String),
    /// A student's name and the class code.
    ClassCode,
    /// A key listed in the teacher keys: its fingerprint. The session shows the room.
    Teacher(String),
}

/// Who a logged-in connection is, kept for its log lines (and whatever shows the teacher
/// who is in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    /// The SSH user name; with the class code, the student's checked name, trimmed.
    pub name: String,
    /// How it got in.
    pub via: Via,
}

/// The log's fields for a login: `user="ada" key=SHA256:...` (`key=-` on an open server),
/// or `user="Ada" via=class-code`.
impl fmt::Display for Login {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let user = quoted(&self.name);
        match &self.via {
            Via::Open => write!(f, "user={user} key=-"),
            Via::Key(fingerprint) => write!(f, "user={user} key={fingerprint}"),
            Via::ClassCode => write!(f, "user={user} via=class-code"),
            Via::Teacher(fingerprint) => write!(f, "user={user} teacher key={fingerprint}"),
        }
    }
}

/// What the connection's last keyboard-interactive request was answered with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// The class code prompt.
    Code,
    /// Only why the class code cannot let it in (its name, the code expired): no prompt.
    Told,
}

/// The per-connection state russh calls back into.
pub struct Connection {
    shared: Arc<Shared>,
    peer: SocketAddr,
    /// Who it logged in as, once it has.
    login: Option<Login>,
    channel: Option<ChannelId>,
    pty: Option<PtyRequest>,
    no_color: bool,
    running: Option<Running>,
    /// Its place among the connections logging in, until it has logged in.
    pending: Option<Pending>,
    /// Its place among the connections logged in, once it has.
    login_slot: Option<Slot>,
    /// The keyboard-interactive request under way.
    asked: Option<Asked>,
    /// Whether it was told why the class code cannot let it in: clients try again (OpenSSH
    /// three times), and are refused without being told, or logged, again.
    told: bool,
    progress: Arc<Progress>,
}

impl Connection {
    /// A connection from `peer`, holding its place among those logging in, and reporting
    /// how far it got to `progress`.
    pub fn new(
        shared: Arc<Shared>,
        peer: SocketAddr,
        pending: Pending,
        progress: Arc<Progress>,
    ) -> Self {
        Self {
            shared,
            peer,
            login: None,
            channel: None,
            pty: None,
            no_color: false,
            running: None,
            pending: Some(pending),
            login_slot: None,
            asked: None,
            told: false,
            progress,
        }
    }

    /// The user name it logged in as (empty before).
    fn user(&self) -> &str {
        self.login.as_ref().map_or("", |login| &login.name)
    }

    /// Lets `login` in if there is room among the logged-in connections (which those still
    /// logging in never use up); its place among those logging in goes to the next.
    fn log_in(&mut self, login: Login) -> Auth {
        let Some(slot) = self.shared.logged_in.take(self.shared.logged_in_cap()) else {
            self.shared.refused(&format!(
                "refused login, server full ({} connections logged in): addr={} user={}",
                self.shared.logged_in_cap(),
                self.peer,
                quoted(&login.name)
            ));
            return Auth::reject();
        };
        self.login_slot = Some(slot);
        if let Some(pending) = self.pending.take() {
            pending.logged_in();
        }
        self.progress.reach(Stage::LoggedIn);
        self.login = Some(login);
        Auth::Accept
    }

    /// The answer to a keyboard-interactive request: the class code prompt for a good
    /// name while the code holds, else only why not, for the client to show (once).
    fn ask_for_code(&mut self, user: &str, code: &ClassCode, elapsed: Duration) -> Auth {
        if self.told {
            return Auth::reject();
        }
        let why = match class_code::student_name(user) {
            Err(why) => {
                self.shared.log(&format!(
                    "refused name: addr={} user={} ({why})",
                    self.peer,
                    quoted(user)
                ));
                why.to_string()
            }
            Ok(_) if code.expired(elapsed) => {
                self.log_expired(user);
                format!("{}; ask for a new one", class_code::EXPIRED)
            }
            Ok(_) => {
                // A person types from here on: its handshake place goes to the next.
                if let Some(pending) = self.pending.as_mut() {
                    pending.at_prompt();
                }
                self.asked = Some(Asked::Code);
                return Auth::Partial {
                    name: Cow::Borrowed(""),
                    instructions: Cow::Borrowed(""),
                    prompts: Cow::Owned(vec![(Cow::Borrowed(class_code::PROMPT), false)]),
                };
            }
        };
        self.asked = Some(Asked::Told);
        self.told = true;
        Auth::Partial {
            name: Cow::Borrowed(""),
            instructions: Cow::Owned(format!("ai-arcade: {why}")),
            prompts: Cow::Borrowed(&[]),
        }
    }

    /// Checks the code typed at the prompt: a right one logs the student in; a wrong one
    /// may be typed again (at most six tries a connection, each refusal answered after
    /// the failure delay; a connection that ends without logging in counts against its
    /// address, as one with refused keys does).
    fn check_code(
        &mut self,
        user: &str,
        code: &ClassCode,
        answer: &[u8],
        elapsed: Duration,
    ) -> Auth {
        match code.check(answer, elapsed) {
            Verdict::Right => {
                let Ok(name) = class_code::student_name(user) else {
                    // Asked only for a good name; russh answers with the same one.
                    return Auth::reject();
                };
                let login = Login {
                    name: name.to_string(),
                    via: Via::ClassCode,
                };
                let auth = self.log_in(login);
                if auth == Auth::Accept {
                    self.shared.log(&format!(
                        "login: addr={} name={} via class code",
                        self.peer,
                        quoted(name)
                    ));
                }
                auth
            }
            Verdict::Wrong => {
                self.shared.log(&format!(
                    "refused class code: addr={} user={}",
                    self.peer,
                    quoted(user)
                ));
                Auth::reject()
            }
            // Expired while it was typed: the next try is told so.
            Verdict::Expired => {
                self.log_expired(user);
                Auth::reject()
            }
        }
    }

    fn log_expired(&self, user: &str) {
        self.shared.log(&format!(
            "refused class code, {}: addr={} user={}",
            class_code::EXPIRED,
            self.peer,
            quoted(user)
        ));
    }

    /// Logs a refused forwarding request (the arcade forwards nothing).
    fn refuse_forwarding(&self, what: &str) {
        self.shared.log(&format!(
            "refused {what}: addr={} user={}",
            self.peer,
            quoted(self.user())
        ));
    }

    /// Whether `key` may log in: every key on an open server, else those listed in the
    /// `authorized_keys` file, read again each time so a key added is let in without a
    /// restart. With a class code and no key file, no key.
    /// Whether `key` is one of the teacher keys (read again at each login, as the
    /// `authorized_keys` file is, so a key added during class works at once).
    fn teacher_key(&self, key: &PublicKey) -> bool {
        let Some(path) = &self.shared.settings.teacher_keys else {
            return false;
        };
        match keys::read_authorized_keys(path) {
            Ok(found) => keys::is_allowed(key, &found.keys),
            Err(error) => {
                self.shared.log(&format!("no teacher logins: {error}"));
                false
            }
        }
    }

    fn key_allowed(&self, key: &PublicKey) -> bool {
        let Some(path) = &self.shared.settings.authorized_keys else {
            return self.shared.settings.is_open();
        };
        match keys::read_authorized_keys(path) {
            Ok(found) if !found.keys.is_empty() => {
                let note = found
                    .skipped_note()
                    .map(|note| format!("{}: {note}", path.display()));
                self.shared.note_skipped_keys(note);
                keys::is_allowed(key, &found.keys)
            }
            Ok(_) => {
                self.shared.log(&format!(
                    "refusing logins: {} lists no usable key",
                    path.display()
                ));
                false
            }
            Err(error) => {
                self.shared.log(&format!("refusing logins: {error}"));
                false
            }
        }
    }

    fn refuse(
        &self,
        session: &mut Session,
        channel: ChannelId,
        what: &str,
    ) -> Result<(), russh::Error> {
        self.shared.log(&format!(
            "refused {what}: addr={} user={}",
            self.peer,
            quoted(self.user())
        ));
        session.channel_failure(channel)
    }

    /// Shows `line` and closes the channel (the client's `ssh` then exits with status 1).
    fn tell_and_close(
        session: &mut Session,
        channel: ChannelId,
        line: &str,
    ) -> Result<(), russh::Error> {
        session.data(channel, format!("{line}\r\n").into_bytes())?;
        session.exit_status_request(channel, 1)?;
        session.eof(channel)?;
        session.close(channel)?;
        disconnect_after(
            &tokio::runtime::Handle::current(),
            session.handle(),
            Duration::from_secs(2),
            "refused",
        );
        Ok(())
    }

    /// Starts the arcade's thread; `false` when it could not be started.
    fn start_arcade(&mut self, channel: ChannelId, slot: Slot, handle: Handle) -> bool {
        let Some(pty) = &self.pty else { return false };
        let (events, receiver) = mpsc::sync_channel(INPUT_QUEUE);
        let running = Running {
            events: events.clone(),
            parser: Arc::default(),
            last_input: Arc::new(Mutex::new(Instant::now())),
            ended: Arc::new(Notify::new()),
        };
        let Some(login) = self.login.clone() else {
            return false;
        };
        let info = SessionInfo {
            peer: self.peer,
            login,
            term: pty.term.clone(),
        };
        let wake = events.clone();
        spawn_idle_timer(
            self.shared.settings.idle_timeout,
            Arc::clone(&running.last_input),
            Arc::clone(&running.ended),
            (
                self.shared.shutdown.subscribe(),
                self.shared.notice.subscribe(),
            ),
            events,
        );
        let arcade = Arcade {
            shared: Arc::clone(&self.shared),
            info,
            size: Arc::clone(&pty.size),
            color: !self.no_color,
            handle,
            channel,
            runtime: tokio::runtime::Handle::current(),
            ended: Arc::clone(&running.ended),
            slot,
            wake,
        };
        let spawned = std::thread::Builder::new()
            .name(format!("session {}", self.peer))
            .spawn(move || arcade.run(&receiver));
        if let Err(error) = spawned {
            // The closure, and with it the slot, is dropped: the place is free again.
            self.shared
                .log(&format!("could not start a session thread: {error}"));
            running.ended.notify_one();
            return false;
        }
        self.progress.reach(Stage::Playing);
        self.running = Some(running);
        true
    }

    async fn send(&self, event: LoopEvent) {
        if let Some(running) = &self.running {
            send_waiting(&running.events, event).await;
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // No waiting here: if the queue is full the arcade is busy with it, and its next
        // frame finds the connection gone.
        if let Some(running) = &self.running {
            let _ = running
                .events
                .try_send(LoopEvent::InputClosed("connection closed".into()));
        }
    }
}

/// Wakes the arcade with an ending once no input came for `idle`, or when the server shuts
/// down (SIGTERM's number, as the local TUI gets it), and with the server's notices (a
/// drain's warning, also to a session that starts while one is in force).
fn spawn_idle_timer(
    idle: Duration,
    last_input: Arc<Mutex<Instant>>,
    ended: Arc<Notify>,
    (mut shutdown, mut notice): (
        tokio::sync::watch::Receiver<bool>,
        tokio::sync::watch::Receiver<Option<String>>,
    ),
    events: SyncSender<LoopEvent>,
) {
    if notice.borrow().is_some() {
        notice.mark_changed();
    }
    tokio::spawn(async move {
        loop {
            let deadline = *lock(&last_input) + idle;
            let shutting_down = tokio::select! {
                () = ended.notified() => return,
                _ = shutdown.wait_for(|&down| down) => true,
                Ok(()) = notice.changed() => {
                    let said = notice.borrow_and_update().clone();
                    if let Some(text) = said {
                        let _ = events.try_send(LoopEvent::Notice(text));
                    }
                    continue;
                }
                () = tokio::time::sleep_until(deadline.into()) => false,
            };
            if shutting_down {
                send_waiting(&events, LoopEvent::Signal(15)).await;
                return;
            }
            let idle_for = lock(&last_input).elapsed();
            if idle_for >= idle {
                let why = format!("idle for {}", crate::config::HumanDuration(idle));
                send_waiting(&events, LoopEvent::InputClosed(why)).await;
                return;
            }
        }
    });
}

/// What a player reads when a drain ends their session.
pub const RESTARTING: &str = "ai-arcade: the server is restarting; reconnect to continue.";

/// The most characters of a client-supplied field a log line shows.
pub const LOG_FIELD_MAX: usize = 64;

/// `"name"` for the log, so odd user names cannot forge log fields: escaped, and cut to
/// [`LOG_FIELD_MAX`] characters (with the length it had) so they cannot flood it either.
pub fn quoted(text: &str) -> String {
    let escaped = format!("{text:?}");
    if escaped.chars().count() <= LOG_FIELD_MAX + 2 {
        return escaped;
    }
    let cut: String = escaped.chars().take(LOG_FIELD_MAX + 1).collect();
    format!("{cut}...\"({} bytes)", text.len())
}

impl russh::server::Handler for Connection {
    type Error = russh::Error;

    async fn auth_none(&mut self, user: &str) -> Result<Auth, Self::Error> {
        self.progress.reach(Stage::Authenticating);
        if self.shared.settings.is_open() {
            return Ok(self.log_in(Login {
                name: user.to_string(),
                via: Via::Open,
            }));
        }
        Ok(Auth::Reject {
            proceed_with_methods: Some(self.shared.settings.methods()),
            partial_success: false,
        })
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        response: Option<Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        self.progress.reach(Stage::Authenticating);
        let shared = Arc::clone(&self.shared);
        let Some(code) = &shared.settings.class_code else {
            return Ok(Auth::reject());
        };
        let elapsed = shared.started.elapsed();
        Ok(match (response, self.asked.take()) {
            (None, _) => self.ask_for_code(user, code, elapsed),
            (Some(mut answers), Some(Asked::Code)) => {
                let answer = answers.next().unwrap_or_default();
                self.check_code(user, code, &answer, elapsed)
            }
            // The answer to a reason given without a prompt (or to nothing asked).
            (Some(_), _) => Auth::reject(),
        })
    }

    async fn auth_publickey_offered(
        &mut self,
        user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        self.progress.reach(Stage::Authenticating);
        if self.teacher_key(offer.public_key) || self.key_allowed(offer.public_key) {
            return Ok(Auth::Accept);
        }
        self.shared.log(&format!(
            "refused key: addr={} user={} key={}",
            self.peer,
            quoted(user),
            keys::fingerprint(offer.public_key)
        ));
        Ok(Auth::reject())
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        self.progress.reach(Stage::Authenticating);
        let fingerprint = keys::fingerprint(key.public_key);
        if self.teacher_key(key.public_key) {
            return Ok(self.log_in(Login {
                name: user.to_string(),
                via: Via::Teacher(fingerprint),
            }));
        }
        if self.key_allowed(key.public_key) {
            return Ok(self.log_in(Login {
                name: user.to_string(),
                via: Via::Key(fingerprint),
            }));
        }
        self.shared.log(&format!(
            "refused login: addr={} user={} key={fingerprint}",
            self.peer,
            quoted(user)
        ));
        Ok(Auth::reject())
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // One arcade per connection: a second channel would dodge the session limit.
        if self.channel.is_some() {
            reply
                .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
                .await;
            return Ok(());
        }
        self.channel = Some(channel.id());
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.running.is_some() {
            return session.channel_failure(channel);
        }
        let (columns, rows) = clamp_size(col_width, row_height);
        self.pty = Some(PtyRequest {
            term: term.to_string(),
            size: Arc::new(SharedSize::new(columns, rows)),
        });
        session.channel_success(channel)
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        variable_name: &str,
        variable_value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Only what changes the drawing is taken; nothing reaches a process environment.
        if variable_name == "NO_COLOR" {
            self.no_color = !variable_value.is_empty();
            return session.channel_success(channel);
        }
        session.channel_failure(channel)
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.running.is_some() {
            return session.channel_failure(channel);
        }
        session.channel_success(channel)?;
        if self.pty.is_none() {
            self.shared.log(&format!(
                "refused session without a terminal: addr={} user={}",
                self.peer,
                quoted(self.user())
            ));
            return Self::tell_and_close(session, channel, NEEDS_PTY);
        }
        if self.shared.is_draining() {
            // Logged in while the drain began: no new arcade to end in a moment.
            self.shared.refused(&format!(
                "refused session, draining: addr={} user={}",
                self.peer,
                quoted(self.user())
            ));
            return Self::tell_and_close(session, channel, RESTARTING);
        }
        let Some(slot) = self.shared.slots.take(self.shared.settings.max_sessions) else {
            self.shared.refused(&format!(
                "refused session, server full ({} sessions): addr={} user={}",
                self.shared.settings.max_sessions,
                self.peer,
                quoted(self.user())
            ));
            return Self::tell_and_close(session, channel, FULL);
        };
        if !self.start_arcade(channel, slot, session.handle()) {
            return Self::tell_and_close(
                session,
                channel,
                "ai-arcade: the server could not start an arcade; try again later.",
            );
        }
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse(session, channel, "exec request")
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse(session, channel, &format!("subsystem {}", quoted(name)))
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse(session, channel, "X11 forwarding")
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.refuse_forwarding("agent forwarding");
        Ok(false)
    }

    async fn channel_open_direct_tcpip(
        &mut self,
        _channel: Channel<Msg>,
        host_to_connect: &str,
        port_to_connect: u32,
        _originator_address: &str,
        _originator_port: u32,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let target = quoted(&format!("{host_to_connect}:{port_to_connect}"));
        self.refuse_forwarding(&format!("port forwarding (-L, -D, -W) to {target}"));
        reply
            .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn channel_open_direct_streamlocal(
        &mut self,
        _channel: Channel<Msg>,
        socket_path: &str,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let target = quoted(socket_path);
        self.refuse_forwarding(&format!("UNIX socket forwarding to {target}"));
        reply
            .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn tcpip_forward(
        &mut self,
        address: &str,
        port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        let target = quoted(&format!("{address}:{port}"));
        self.refuse_forwarding(&format!("remote port forwarding (-R) of {target}"));
        Ok(false)
    }

    async fn streamlocal_forward(
        &mut self,
        socket_path: &str,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        let target = quoted(socket_path);
        self.refuse_forwarding(&format!("remote UNIX socket forwarding of {target}"));
        Ok(false)
    }

    async fn window_change_request(
        &mut self,
        _channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let (columns, rows) = clamp_size(col_width, row_height);
        if let Some(pty) = &self.pty {
            pty.size.set(columns, rows);
        }
        self.send(LoopEvent::Input(Event::Resize(columns, rows)))
            .await;
        Ok(())
    }

    async fn data(
        &mut self,
        _channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(running) = &self.running else {
            return Ok(());
        };
        *lock(&running.last_input) = Instant::now();
        let (events, waiting, reads) = {
            let mut parser = lock(&running.parser);
            let events = parser.feed(data);
            (events, parser.waiting(), parser.reads())
        };
        for event in events {
            if !send_waiting(&running.events, LoopEvent::Input(event)).await {
                return Ok(());
            }
        }
        if waiting {
            // A lone ESC: the Esc key, unless the rest of a sequence follows soon.
            let parser = Arc::clone(&running.parser);
            let events = running.events.clone();
            tokio::spawn(async move {
                tokio::time::sleep(ESCAPE_WAIT).await;
                let flushed = {
                    let mut parser = lock(&parser);
                    if parser.reads() == reads {
                        parser.flush()
                    } else {
                        Vec::new()
                    }
                };
                for event in flushed {
                    send_waiting(&events, LoopEvent::Input(event)).await;
                }
            });
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.send(LoopEvent::InputClosed("client sent end of input".into()))
            .await;
        Ok(())
    }

    async fn channel_close(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.send(LoopEvent::InputClosed("client closed the channel".into()))
            .await;
        Ok(())
    }
}

/// A window size the arcade can draw: at least 1x1, at most [`MAX_COLUMNS`] x [`MAX_ROWS`]
/// (a client that sends 0x0 gets the "too small" screen, not a crash).
fn clamp_size(columns: u32, rows: u32) -> (u16, u16) {
    (
        columns.clamp(1, MAX_COLUMNS) as u16,
        rows.clamp(1, MAX_ROWS) as u16,
    )
}

/// Who a session is, for its log lines.
struct SessionInfo {
    peer: SocketAddr,
    login: Login,
    term: String,
}

/// What the arcade's thread needs.
struct Arcade {
    shared: Arc<Shared>,
    info: SessionInfo,
    size: Arc<SharedSize>,
    color: bool,
    handle: Handle,
    channel: ChannelId,
    runtime: tokio::runtime::Handle,
    ended: Arc<Notify>,
    /// Held while the arcade runs: dropping it frees the place for the next client.
    slot: Slot,
    /// Wakes the arcade's loop (a teacher's, when the room changes).
    wake: mpsc::SyncSender<LoopEvent>,
}

impl Arcade {
    /// Runs the arcade until it ends, logs the start and the end, and closes the channel.
    fn run(self, events: &mpsc::Receiver<LoopEvent>) {
        let started = Instant::now();
        let size = self.size.get();
        let info = &self.info;
        self.shared.log(&format!(
            "session start: addr={} {} term={} size={}x{} sessions={}",
            info.peer,
            info.login,
            quoted(&info.term),
            size.width,
            size.height,
            self.shared.slots.used()
        ));
        // A panic in one arcade ends that session, not the server: the client's terminal
        // is restored and the connection closed like any other ending.
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.play(events)));
        let reason = match played {
            Ok(Ok(Ending::Quit)) => "quit".to_string(),
            Ok(Ok(Ending::Signal(_))) if self.shared.is_draining() => "server restarting".into(),
            Ok(Ok(Ending::Signal(_))) => "server shutting down".to_string(),
            Ok(Ok(Ending::InputClosed(why))) => why,
            Ok(Err(error)) => format!("output failed: {error}"),
            Err(_) => {
                self.restore_after_panic();
                "the arcade failed (a bug: please report it)".to_string()
            }
        };
        let runtime = &self.runtime;
        let (handle, channel) = (&self.handle, self.channel);
        runtime.block_on(async {
            let closing = async {
                let _ = handle.exit_status_request(channel, 0).await;
                let _ = handle.eof(channel).await;
                let _ = handle.close(channel).await;
            };
            let _ = tokio::time::timeout(OUTPUT_TIMEOUT, closing).await;
        });
        disconnect_after(
            &self.runtime,
            self.handle.clone(),
            Duration::from_secs(1),
            "the arcade ended",
        );
        self.ended.notify_one();
        let size = self.size.get();
        drop(self.slot);
        self.shared.log(&format!(
            "session end: addr={} {} term={} size={}x{} duration={:.1}s reason={}",
            info.peer,
            info.login,
            quoted(&info.term),
            size.width,
            size.height,
            started.elapsed().as_secs_f64(),
            quoted(&reason)
        ));
    }

    /// Puts the client's terminal back after a panic left the arcade's screen up.
    fn restore_after_panic(&self) {
        let mut restore = Vec::new();
        let _ = crossterm::queue!(
            restore,
            crossterm::event::DisableMouseCapture,
            crossterm::terminal::LeaveAlternateScreen,
            crossterm::cursor::Show
        );
        restore.extend_from_slice(b"ai-arcade: the arcade failed; sorry.\r\n");
        let (handle, channel) = (&self.handle, self.channel);
        // The timer is made inside the runtime: tokio's timers need its context.
        let _ = self.runtime.block_on(async {
            tokio::time::timeout(OUTPUT_TIMEOUT, handle.data(channel, restore)).await
        });
    }

    /// The local TUI's loop, with this session's app, input and screen.
    fn play(&self, events: &mpsc::Receiver<LoopEvent>) -> io::Result<Ending> {
        let shared = &self.shared;
        let seed = shared.seed.unwrap_or_else(|| shared.session_seed());
        let current = shared.current();
        let mut app = App::with_models(&current.config, seed, &shared.models);
        app.color = self.color;
        if let Some(lesson) = &current.lesson {
            app.start_lesson(Arc::clone(lesson));
        }
        // A teacher's session opens on the room; a student's takes a seat in it.
        // The teacher's loop is woken at every change of the room, so the view is never a
        // second behind; the handles leave the room when the session ends.
        let _in_room: Box<dyn std::any::Any> = if matches!(self.info.login.via, Via::Teacher(_)) {
            app.become_teacher(Arc::clone(&shared.room) as Arc<dyn crate::app::room::Room>);
            Box::new(shared.room.watch(self.wake.clone()))
        } else {
            if let Some(collector) = &shared.collector {
                app.collect = Some(Arc::new(collector.student(&self.info.login.name)));
            }
            let seat = Arc::new(shared.room.sit(
                &self.info.login.name,
                app.tab,
                Some(self.wake.clone()),
            ));
            app.seat = Some(Arc::clone(&seat) as Arc<dyn crate::app::room::SeatReport>);
            // The room shows the lesson step before the student's first key.
            app.report_seat();
            Box::new(seat)
        };
        let (handle, channel, runtime) = (self.handle.clone(), self.channel, self.runtime.clone());
        let sink: FrameSink = Box::new(move |frame| {
            let sent = runtime.block_on(async {
                tokio::time::timeout(OUTPUT_TIMEOUT, handle.data(channel, frame)).await
            });
            match sent {
                Ok(Ok(())) => Ok(()),
                Ok(Err(_)) => Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the client went away",
                )),
                Err(_) => Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the client stopped reading",
                )),
            }
        });
        let mut backend =
            SessionBackend::new(sink, Arc::clone(&self.size), current.config.ui.mouse);
        backend.enter()?;
        let mut terminal = Terminal::new(backend)?;
        terminal.clear()?;
        let ending = shell::event_loop(&mut terminal, &mut app, events)?;
        let farewell = match &ending {
            Ending::InputClosed(why) if why.starts_with("idle") => Some(format!(
                "ai-arcade: closed after {}",
                why.replace("idle for", "being idle for")
            )),
            Ending::Signal(_) if shared.is_draining() => Some(RESTARTING.to_string()),
            Ending::Signal(_) => Some("ai-arcade: the server is shutting down.".to_string()),
            _ => None,
        };
        // A client that is gone cannot be restored; that is not an error of the session.
        let _ = terminal.backend_mut().leave(farewell.as_deref());
        Ok(ending)
    }
}
