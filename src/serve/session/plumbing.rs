//! The plumbing between a connection and its arcade: the bounded queue of input events (a
//! flume channel: awaited on the connection's side, received with a timeout on the arcade's
//! thread) and how an event waits for room in it, the output timeout, the end of a connection after a
//! last line, the idle timer (which also carries the server's notices and its shutdown),
//! and the window size clamped to what the arcade will draw.

use crate::shell::LoopEvent;
use russh::server::Handle;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Input events a session may have waiting. When they are not taken in as fast as they
/// come, the connection stops reading (and TCP slows the client down) instead of queueing
/// without bound: a client pasting megabytes cannot grow the server's memory.
pub(super) const INPUT_QUEUE: usize = 256;

/// How long one frame may wait for a client that stopped reading before the session is
/// given up (keepalives alone would keep such a connection open for ever).
pub(crate) const OUTPUT_TIMEOUT: Duration = Duration::from_secs(30);

/// Hands `event` to the arcade, waiting while its queue is full: the task sleeps until the
/// arcade takes an event out (flume wakes it then), so nothing polls, and the connection's
/// reads wait with it. `false` once the arcade is gone.
pub(super) async fn send_waiting(events: &flume::Sender<LoopEvent>, event: LoopEvent) -> bool {
    events.send_async(event).await.is_ok()
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

/// Wakes the arcade with an ending once its screen has not changed for `idle` (a frame
/// drawn is activity; input that changes nothing is not), or when the server shuts
/// down (SIGTERM's number, as the local TUI gets it), and with the server's notices (a
/// drain's warning, also to a session that starts while one is in force).
pub(super) fn spawn_idle_timer(
    idle: Duration,
    last_activity: Arc<Mutex<Instant>>,
    ended: Arc<Notify>,
    (mut shutdown, mut notice): (
        tokio::sync::watch::Receiver<bool>,
        tokio::sync::watch::Receiver<Option<String>>,
    ),
    events: flume::Sender<LoopEvent>,
) {
    if notice.borrow().is_some() {
        notice.mark_changed();
    }
    tokio::spawn(async move {
        loop {
            let deadline = *lock(&last_activity) + idle;
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
            let idle_for = lock(&last_activity).elapsed();
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
pub(crate) fn clamp_size(columns: u32, rows: u32) -> (u16, u16) {
    (
        columns.clamp(1, MAX_COLUMNS) as u16,
        rows.clamp(1, MAX_ROWS) as u16,
    )
}

/// Locks a mutex whose holder may have panicked; the data here stays valid across that.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::pin;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::{Context, Poll, Wake, Waker};

    /// Counts how often a waiting send is woken.
    #[derive(Default)]
    struct Wakes(AtomicUsize);

    impl Wake for Wakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn key(n: usize) -> LoopEvent {
        LoopEvent::Notice(n.to_string())
    }

    fn number(event: LoopEvent) -> usize {
        match event {
            LoopEvent::Notice(text) => text.parse().unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_send_to_a_full_queue_sleeps_until_the_arcade_takes_one() {
        let (events, arcade) = flume::bounded(INPUT_QUEUE);
        for n in 0..INPUT_QUEUE {
            events.try_send(key(n)).unwrap();
        }
        let wakes = Arc::new(Wakes::default());
        let waker = Waker::from(Arc::clone(&wakes));
        let mut context = Context::from_waker(&waker);
        let mut send = pin!(send_waiting(&events, key(INPUT_QUEUE)));
        assert!(send.as_mut().poll(&mut context).is_pending());
        // Nothing wakes it while the queue stays full: no timer, no polling.
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(wakes.0.load(Ordering::SeqCst), 0);
        assert_eq!(number(arcade.recv().unwrap()), 0);
        assert_eq!(wakes.0.load(Ordering::SeqCst), 1, "woken by the room made");
        assert_eq!(send.as_mut().poll(&mut context), Poll::Ready(true));
    }

    #[test]
    fn events_waiting_for_room_arrive_in_order_once_the_arcade_drains_the_queue() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (events, arcade) = flume::bounded(INPUT_QUEUE);
        let total = INPUT_QUEUE * 3;
        let sender = std::thread::spawn(move || {
            runtime.block_on(async {
                for n in 0..total {
                    assert!(send_waiting(&events, key(n)).await);
                }
            });
        });
        // The arcade's side, as its loop takes them: blocking, with a timeout.
        let taken: Vec<usize> = (0..total)
            .map(|_| number(arcade.recv_timeout(Duration::from_secs(20)).unwrap()))
            .collect();
        sender.join().unwrap();
        assert_eq!(taken, (0..total).collect::<Vec<_>>());
    }

    #[test]
    fn a_send_fails_once_the_arcade_is_gone() {
        let (events, arcade) = flume::bounded(1);
        drop(arcade);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        assert!(!runtime.block_on(send_waiting(&events, key(0))));
    }
}
