//! The room of a served class: every student session's seat (name, tab, lesson step, last
//! input), kept in the server so a teacher's session can read them all. A seat leaves the
//! room when its session ends. Bounded by the sessions the server allows.

use crate::frame::room::{Room, Seat, SeatReport, Whereabouts};
use crate::shell::LoopEvent;
use crate::tabs::TabId;
use std::collections::BTreeMap;
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// One student's entry.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    whereabouts: Whereabouts,
    last_input: Instant,
}

/// The students in the room, by session number (the order they came in).
#[derive(Debug, Default)]
pub struct Registry {
    seats: Mutex<BTreeMap<u64, Entry>>,
    next_id: std::sync::atomic::AtomicU64,
    /// The teachers' loops, woken at every change.
    watchers: Mutex<BTreeMap<u64, SyncSender<LoopEvent>>>,
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Entry>> {
        self.seats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wakes `wake` at every change of the room until the handle is dropped.
    pub fn watch(self: &Arc<Self>, wake: SyncSender<LoopEvent>) -> WatchHandle {
        let id = self.new_id();
        self.watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, wake);
        WatchHandle {
            registry: Arc::clone(self),
            id,
        }
    }

    fn new_id(&self) -> u64 {
        self.next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// Tells every watcher the room changed. A watcher whose queue is full is busy
    /// drawing anyway; it is skipped rather than waited for.
    fn changed(&self) {
        let watchers = self.watchers.lock().unwrap_or_else(PoisonError::into_inner);
        for wake in watchers.values() {
            let _ = wake.try_send(LoopEvent::Changed);
        }
    }

    /// Seats `name` on `tab`; the seat leaves when the handle is dropped.
    pub fn sit(self: &Arc<Self>, name: &str, tab: TabId) -> SeatHandle {
        let id = self.new_id();
        self.lock().insert(
            id,
            Entry {
                name: name.to_string(),
                whereabouts: Whereabouts { tab, step: None },
                last_input: Instant::now(),
            },
        );
        self.changed();
        SeatHandle {
            registry: Arc::clone(self),
            id,
        }
    }
}

/// A teacher's wake-up call, held by the teacher's session.
#[derive(Debug)]
pub struct WatchHandle {
    registry: Arc<Registry>,
    id: u64,
}

impl Drop for WatchHandle {
    fn drop(&mut self) {
        self.registry
            .watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

impl Room for Registry {
    fn seats(&self) -> Vec<Seat> {
        let now = Instant::now();
        let mut seats: Vec<Seat> = self
            .lock()
            .values()
            .map(|entry| Seat {
                name: entry.name.clone(),
                tab: entry.whereabouts.tab,
                step: entry.whereabouts.step,
                idle: now.saturating_duration_since(entry.last_input),
            })
            .collect();
        // By name, as a class list is read; equal names keep the order they came in.
        seats.sort_by_key(|seat| seat.name.to_lowercase());
        seats
    }
}

/// A student's seat, held by the student's session.
#[derive(Debug)]
pub struct SeatHandle {
    registry: Arc<Registry>,
    id: u64,
}

impl SeatReport for SeatHandle {
    fn report(&self, whereabouts: Whereabouts) {
        if let Some(entry) = self.registry.lock().get_mut(&self.id) {
            entry.whereabouts = whereabouts;
            entry.last_input = Instant::now();
        }
        self.registry.changed();
    }
}

impl Drop for SeatHandle {
    fn drop(&mut self) {
        self.registry.lock().remove(&self.id);
        self.registry.changed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_listed_by_name_report_where_they_are_and_leave_when_dropped() {
        let room = Arc::new(Registry::default());
        let zoe = room.sit("Zoe", TabId::TicTacToe);
        let ada = room.sit("ada", TabId::TicTacToe);
        zoe.report(Whereabouts {
            tab: TabId::MultiPileNim,
            step: Some((3, 5)),
        });
        let seats = room.seats();
        let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ada", "Zoe"]);
        assert_eq!(seats[1].tab, TabId::MultiPileNim);
        assert_eq!(seats[1].step, Some((3, 5)));
        drop(ada);
        assert_eq!(room.seats().len(), 1);
    }

    #[test]
    fn a_watcher_is_woken_at_every_change_until_it_stops_watching() {
        let room = Arc::new(Registry::default());
        let (wake, woken) = std::sync::mpsc::sync_channel(8);
        let watch = room.watch(wake);
        let ada = room.sit("ada", TabId::TicTacToe);
        ada.report(Whereabouts {
            tab: TabId::ConnectFour,
            step: None,
        });
        drop(ada);
        assert_eq!(woken.try_iter().count(), 3, "joined, moved, left");
        drop(watch);
        let _grace = room.sit("grace", TabId::TicTacToe);
        assert_eq!(woken.try_iter().count(), 0);
    }
}
