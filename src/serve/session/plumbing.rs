//! The plumbing between a connection and its arcade: the bounded queue of input events and
//! how an event waits for room in it, the output timeout, the end of a connection after a
//! last line, the idle timer (which also carries the server's notices and its shutdown),
//! and the window size clamped to what the arcade will draw.

use crate::shell::LoopEvent;
use russh::server::Handle;
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Input events a session may have waiting. When they are not taken in as fast as they
/// come, the connection stops reading (and TCP slows the client down) instead of queueing
/// without bound: a client pasting megabytes cannot grow the server's memory.
pub(super) const INPUT_QUEUE: usize = 256;

/// How long one frame may wait for a client that stopped reading before the session is
/// given up (keepalives alone would keep such a connection open for ever).
pub(super) const OUTPUT_TIMEOUT: Duration = Duration::from_secs(30);

/// Hands `event` to the arcade, waiting (without blocking the runtime) while its queue is
/// full. `false` once the arcade is gone.
pub(super) async fn send_waiting(events: &SyncSender<LoopEvent>, mut event: LoopEvent) -> bool {
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
pub(super) fn disconnect_after(
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

/// Wakes the arcade with an ending once no input came for `idle`, or when the server shuts
/// down (SIGTERM's number, as the local TUI gets it), and with the server's notices (a
/// drain's warning, also to a session that starts while one is in force).
pub(super) fn spawn_idle_timer(
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

/// The largest window accepted; bigger requests are clamped (ratatui's buffers grow with
/// the area, so a hostile size must not cost memory).
const MAX_COLUMNS: u32 = 500;
const MAX_ROWS: u32 = 200;

/// A window size the arcade can draw: at least 1x1, at most [`MAX_COLUMNS`] x [`MAX_ROWS`]
/// (a client that sends 0x0 gets the "too small" screen, not a crash).
pub(super) fn clamp_size(columns: u32, rows: u32) -> (u16, u16) {
    (
        columns.clamp(1, MAX_COLUMNS) as u16,
        rows.clamp(1, MAX_ROWS) as u16,
    )
}

/// Locks a mutex whose holder may have panicked; the data here stays valid across that.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
