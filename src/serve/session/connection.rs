//! One SSH connection's state, as russh calls back into it: how far it got (for the
//! server's deadlines), the terminal it asked for, who it logged in as, its places among
//! those logging in and logged in, and the arcade it started (the thread, and the queue
//! its input goes into). What russh's calls do with it is in `handler.rs`; logging in is
//! in `login.rs`.

use super::arcade::{Arcade, SessionInfo};
use super::link::{ClientLink, SshLink};
use super::plumbing::{INPUT_QUEUE, lock, send_waiting, spawn_idle_timer};
use super::who::Login;
use crate::app::room::Door;
use crate::serve::gate::Pending;
use crate::serve::input::ESCAPE_WAIT;
use crate::serve::input::InputParser;
use crate::serve::limits::Slot;
use crate::serve::session_caps::Counted;
use crate::serve::shared::Shared;
use crate::serve::terminal::SharedSize;
use crate::shell::LoopEvent;
use russh::ChannelId;
use russh::server::Handle;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::Notify;

/// How far a connection got, for its deadlines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Stage {
    /// Connected: the client's version line and key exchange are on their way.
    Connected,
    /// The client sent its half of the key exchange (`kex_watch`): the server's host key
    /// is on its way, and the client may be asking a person whether to trust it.
    KeyExchangeSent,
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
pub(super) struct PtyRequest {
    pub(super) term: String,
    pub(super) size: Arc<SharedSize>,
}

/// A running arcade, as the connection sees it.
pub(crate) struct Running {
    pub(super) events: flume::Sender<LoopEvent>,
    pub(super) parser: Arc<Mutex<InputParser>>,
    /// When a frame was last drawn: what the idle timer counts from.
    pub(super) last_activity: Arc<Mutex<Instant>>,
    pub(super) ended: Arc<Notify>,
}

impl Running {
    /// Parses the client's `data` into key and mouse events for the arcade, waiting while
    /// its queue is full (the caller reads no more meanwhile). A lone ESC is the Esc key
    /// once [`ESCAPE_WAIT`] passes without the rest of a sequence. `false` once the arcade
    /// is gone.
    pub(crate) async fn feed(&self, data: &[u8]) -> bool {
        // Input is not activity by itself: a frame drawn is (the arcade's sink notes it),
        // so bytes that change nothing on the screen (a NUL a second) cannot keep a
        // session from its idle close.
        let (events, waiting, reads) = {
            let mut parser = lock(&self.parser);
            let events = parser.feed(data);
            (events, parser.waiting(), parser.reads())
        };
        for event in events {
            if !send_waiting(&self.events, LoopEvent::Input(event)).await {
                return false;
            }
        }
        if waiting {
            let parser = Arc::clone(&self.parser);
            let events = self.events.clone();
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
        true
    }

    /// Hands the arcade `event`, waiting for room in its queue; `false` once it is gone.
    pub(crate) async fn send(&self, event: LoopEvent) -> bool {
        send_waiting(&self.events, event).await
    }

    /// Tells the arcade its client went away, without waiting. A full queue (a client
    /// that sent a burst and left) gets the news from a task that waits its turn: an
    /// idle arcade draws no frame that would find the client gone, and would hold the
    /// student's seat until its idle timeout.
    pub(crate) fn closed(&self, why: &str) {
        let event = LoopEvent::InputClosed(why.into());
        if let Err(flume::TrySendError::Full(event)) = self.events.try_send(event)
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            let events = self.events.clone();
            runtime.spawn(async move {
                let _ = events.send_async(event).await;
            });
        }
    }
}

/// Everything an arcade needs from the connection that carries it, SSH or WebSocket.
pub(crate) struct ArcadeStart {
    pub(crate) shared: Arc<Shared>,
    pub(crate) peer: SocketAddr,
    pub(crate) login: Login,
    /// The client's terminal type, for the log.
    pub(crate) term: String,
    pub(crate) size: Arc<SharedSize>,
    pub(crate) color: bool,
    pub(crate) door: Door,
    /// The way back to the client.
    pub(crate) link: Arc<dyn ClientLink>,
    /// The session's place among those running: freed when the arcade ends.
    pub(crate) slot: Slot,
}

/// Starts the arcade's thread, with its idle timer; `None` (logged) when the thread could
/// not be started, and the slot is free again.
pub(crate) fn start_arcade(start: ArcadeStart) -> Option<Running> {
    let (events, receiver) = flume::bounded(INPUT_QUEUE);
    let running = Running {
        events: events.clone(),
        parser: Arc::default(),
        last_activity: Arc::new(Mutex::new(Instant::now())),
        ended: Arc::new(Notify::new()),
    };
    let shared = start.shared;
    let info = SessionInfo {
        peer: start.peer,
        login: start.login,
        term: start.term,
        door: start.door,
    };
    let wake = events.clone();
    spawn_idle_timer(
        shared.settings.idle_timeout,
        Arc::clone(&running.last_activity),
        Arc::clone(&running.ended),
        (shared.shutdown.subscribe(), shared.notice.subscribe()),
        events,
    );
    let peer = start.peer;
    let arcade = Arcade {
        budget: std::cell::RefCell::new(crate::shell::budget::CpuBudget::served()),
        shared: Arc::clone(&shared),
        info,
        size: start.size,
        color: start.color,
        link: start.link,
        ended: Arc::clone(&running.ended),
        slot: start.slot,
        wake,
        activity: Arc::clone(&running.last_activity),
    };
    let spawned = std::thread::Builder::new()
        .name(format!("session {peer}"))
        .spawn(move || arcade.run(&receiver));
    if let Err(error) = spawned {
        // The closure, and with it the slot, is dropped: the place is free again.
        shared.log(|| {
            tracing::info!(event = "session thread failed", "{error}");
        });
        running.ended.notify_one();
        return None;
    }
    Some(running)
}

/// What the connection's last keyboard-interactive request was answered with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Asked {
    /// The class code prompt.
    Code,
    /// Only why the class code cannot let it in (its name, the code expired): no prompt.
    Told,
    /// Whether the session logged in under the student's name is theirs, cut off.
    TakeOver,
}

/// The per-connection state russh calls back into.
pub struct Connection {
    pub(super) shared: Arc<Shared>,
    pub(super) peer: SocketAddr,
    /// Who it logged in as, once it has.
    pub(super) login: Option<Login>,
    pub(super) channel: Option<ChannelId>,
    pub(super) pty: Option<PtyRequest>,
    pub(super) no_color: bool,
    pub(super) running: Option<Running>,
    /// Its place among the connections logging in, until it has logged in.
    pub(super) pending: Option<Pending>,
    /// Its place among the connections logged in, once it has.
    pub(super) login_slot: Option<Slot>,
    /// Its login counted by name and address (not a teacher's).
    pub(super) counted: Option<Counted>,
    /// The keyboard-interactive request under way.
    pub(super) asked: Option<Asked>,
    /// Whether it was told why the class code cannot let it in: clients try again (OpenSSH
    /// three times), and are refused without being told, or logged, again.
    pub(super) told: bool,
    /// Whether a class code typed on this connection was wrong: the next prompt says so
    /// (a client asks again without a word otherwise).
    pub(super) code_refused: bool,
    pub(super) progress: Arc<Progress>,
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
            counted: None,
            asked: None,
            told: false,
            code_refused: false,
            progress,
        }
    }

    /// The user name it logged in as (empty before).
    pub(super) fn user(&self) -> &str {
        self.login.as_ref().map_or("", |login| &login.name)
    }

    /// Starts the arcade's thread on the SSH channel; `false` when it could not be
    /// started.
    pub(super) fn start_arcade(&mut self, channel: ChannelId, slot: Slot, handle: Handle) -> bool {
        let (Some(pty), Some(login)) = (&self.pty, self.login.clone()) else {
            return false;
        };
        let link = SshLink {
            handle,
            channel,
            runtime: tokio::runtime::Handle::current(),
        };
        let started = start_arcade(ArcadeStart {
            shared: Arc::clone(&self.shared),
            peer: self.peer,
            login,
            term: pty.term.clone(),
            size: Arc::clone(&pty.size),
            color: !self.no_color,
            door: Door::Ssh,
            link: Arc::new(link),
            slot,
        });
        let Some(running) = started else {
            return false;
        };
        self.progress.reach(Stage::Playing);
        self.running = Some(running);
        true
    }

    pub(super) async fn send(&self, event: LoopEvent) {
        if let Some(running) = &self.running {
            running.send(event).await;
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(running) = &self.running {
            running.closed("connection closed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client that filled the arcade's queue and left: the news waits its turn rather
    /// than being dropped, so an idle arcade still ends and frees the seat.
    #[tokio::test]
    async fn a_close_behind_a_full_queue_still_reaches_the_arcade() {
        let (events, arcade) = flume::bounded(1);
        let running = Running {
            events,
            parser: Arc::new(Mutex::new(InputParser::new())),
            last_activity: Arc::new(Mutex::new(Instant::now())),
            ended: Arc::new(Notify::new()),
        };
        assert!(running.send(LoopEvent::Changed).await);
        running.closed("connection closed");
        assert!(matches!(arcade.recv_async().await, Ok(LoopEvent::Changed)));
        let next = tokio::time::timeout(std::time::Duration::from_secs(20), arcade.recv_async());
        assert!(matches!(next.await, Ok(Ok(LoopEvent::InputClosed(_)))));
    }
}
