//! The room of a served class: every student session's seat (name, tab, lesson step, last
//! input), kept in the server so a teacher's session can read them all. A seat leaves the
//! room when its session ends. Bounded by the sessions the server allows.

use crate::app::journal::Position;
use crate::app::room::{Order, Room, Seat, SeatReport, Whereabouts, Whom};
use crate::shell::LoopEvent;
use crate::tabs::TabId;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Instant;

/// The most orders waiting for one student's session; the oldest go first. A session takes
/// its orders at every wake-up, so only a stuck one fills its queue.
const MAX_ORDERS: usize = 16;

/// One student's entry.
#[derive(Debug)]
struct Occupant {
    name: String,
    whereabouts: Whereabouts,
    last_input: Instant,
    /// The student follows the teacher: the teacher's pushes reach them.
    follows: bool,
    /// The teacher's orders not yet taken.
    orders: VecDeque<Order>,
    /// Wakes the student's loop to take them.
    wake: Option<flume::Sender<LoopEvent>>,
}

impl Occupant {
    /// Queues `order` and wakes the session. A newer position replaces one not yet taken.
    fn give(&mut self, order: Order) {
        match order {
            Order::Follow(_) => self.follows = true,
            Order::Release => self.follows = false,
            Order::Reset => {}
        }
        if matches!(order, Order::Follow(_)) && matches!(self.orders.back(), Some(Order::Follow(_)))
        {
            self.orders.pop_back();
        }
        if self.orders.len() == MAX_ORDERS {
            self.orders.pop_front();
        }
        self.orders.push_back(order);
        if let Some(wake) = &self.wake {
            let _ = wake.try_send(LoopEvent::Changed);
        }
    }
}

/// The students in the room, by session number (the order they came in).
#[derive(Default)]
pub struct Classroom {
    seats: Mutex<BTreeMap<u64, Occupant>>,
    next_id: AtomicU64,
    /// The teachers' loops, woken at every change.
    watchers: Mutex<BTreeMap<u64, flume::Sender<LoopEvent>>>,
    /// Reads the lesson and config again, as SIGHUP does (set by the server).
    reloader: OnceLock<Reloader>,
}

/// What the teacher's reload key runs.
type Reloader = Box<dyn Fn() -> Result<String, String> + Send + Sync>;

impl std::fmt::Debug for Classroom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Classroom")
            .field("seats", &self.lock().len())
            .finish_non_exhaustive()
    }
}

impl Classroom {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Occupant>> {
        self.seats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Lets the teacher reload the lesson and config with `reloader`.
    pub fn set_reloader(&self, reloader: Reloader) {
        let _ = self.reloader.set(reloader);
    }

    /// Wakes `wake` at every change of the room until the handle is dropped.
    pub fn watch(self: &Arc<Self>, wake: flume::Sender<LoopEvent>) -> WatchHandle {
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
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Tells every watcher the room changed. A watcher whose queue is full is busy
    /// drawing anyway; it is skipped rather than waited for.
    fn changed(&self) {
        let watchers = self.watchers.lock().unwrap_or_else(PoisonError::into_inner);
        for wake in watchers.values() {
            let _ = wake.try_send(LoopEvent::Changed);
        }
    }

    /// Seats `name` on `tab`; the teacher's orders wake `wake` (`None`: nobody to wake,
    /// as in tests). The seat leaves when the handle is dropped.
    pub fn sit(
        self: &Arc<Self>,
        name: &str,
        tab: TabId,
        wake: Option<flume::Sender<LoopEvent>>,
    ) -> SeatHandle {
        let id = self.new_id();
        self.lock().insert(
            id,
            Occupant {
                name: name.to_string(),
                whereabouts: Whereabouts::on(tab),
                last_input: Instant::now(),
                follows: false,
                orders: VecDeque::new(),
                wake,
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
    registry: Arc<Classroom>,
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

impl Room for Classroom {
    fn seats(&self) -> Vec<Seat> {
        let now = Instant::now();
        let mut seats: Vec<Seat> = self
            .lock()
            .iter()
            .map(|(&id, entry)| Seat {
                id,
                name: entry.name.clone(),
                at: Whereabouts {
                    following: entry.follows,
                    ..entry.whereabouts.clone()
                },
                idle: now.saturating_duration_since(entry.last_input),
            })
            .collect();
        // By name, as a class list is read; equal names keep the order they came in.
        seats.sort_by_key(|seat| seat.name.to_lowercase());
        seats
    }

    fn order(&self, whom: Whom, order: Order) {
        let mut seats = self.lock();
        match whom {
            Whom::Everyone => seats.values_mut().for_each(|e| e.give(order.clone())),
            Whom::Seat(id) => {
                if let Some(entry) = seats.get_mut(&id) {
                    entry.give(order);
                }
            }
        }
        drop(seats);
        self.changed();
    }

    fn reload(&self) -> Result<String, String> {
        let reloader = self
            .reloader
            .get()
            .ok_or("this server reads its files only at start")?;
        reloader()
    }

    fn push(&self, position: &Position) {
        for entry in self.lock().values_mut().filter(|e| e.follows) {
            entry.give(Order::Follow(position.clone()));
        }
    }
}

/// A student's seat, held by the student's session.
#[derive(Debug)]
pub struct SeatHandle {
    registry: Arc<Classroom>,
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

    fn orders(&self) -> Vec<Order> {
        self.registry
            .lock()
            .get_mut(&self.id)
            .map(|entry| entry.orders.drain(..).collect())
            .unwrap_or_default()
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
        let room = Arc::new(Classroom::default());
        let zoe = room.sit("Zoe", TabId::TicTacToe, None);
        let ada = room.sit("ada", TabId::TicTacToe, None);
        zoe.report(Whereabouts {
            step: Some((3, 5)),
            ..Whereabouts::on(TabId::MultiPileNim)
        });
        let seats = room.seats();
        let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ada", "Zoe"]);
        assert_eq!(seats[1].at.tab, TabId::MultiPileNim);
        assert_eq!(seats[1].at.step, Some((3, 5)));
        drop(ada);
        assert_eq!(room.seats().len(), 1);
    }

    #[test]
    fn a_watcher_is_woken_at_every_change_until_it_stops_watching() {
        let room = Arc::new(Classroom::default());
        let (wake, woken) = flume::bounded(8);
        let watch = room.watch(wake);
        let ada = room.sit("ada", TabId::TicTacToe, None);
        ada.report(Whereabouts::on(TabId::ConnectFour));
        drop(ada);
        assert_eq!(woken.try_iter().count(), 3, "joined, moved, left");
        drop(watch);
        let _grace = room.sit("grace", TabId::TicTacToe, None);
        assert_eq!(woken.try_iter().count(), 0);
    }

    fn position(len: usize) -> Position {
        Position {
            seed: 1,
            source: (0, 0),
            entries: Arc::new(vec![
                crate::app::journal::Entry::Show(TabId::TicTacToe);
                len
            ]),
            config: Arc::new(crate::config::Config::default()),
            lesson: None,
        }
    }

    #[test]
    fn orders_reach_whom_they_are_for_and_pushes_only_those_following() {
        let room = Arc::new(Classroom::default());
        let (wake, woken) = flume::bounded(8);
        let ada = room.sit("ada", TabId::TicTacToe, Some(wake));
        let bob = room.sit("bob", TabId::TicTacToe, None);
        let bob_seat = room.seats()[1].id;
        room.order(Whom::Seat(bob_seat), Order::Follow(position(1)));
        assert!(ada.orders().is_empty());
        assert_eq!(
            woken.try_iter().count(),
            0,
            "ada is not woken for bob's order"
        );
        room.push(&position(2));
        room.push(&position(3));
        let orders = bob.orders();
        assert_eq!(orders.len(), 1, "a newer position replaces one not taken");
        assert!(matches!(&orders[0], Order::Follow(p) if p.entries.len() == 3));
        assert!(room.seats()[1].at.following && !room.seats()[0].at.following);

        room.order(Whom::Everyone, Order::Release);
        room.push(&position(4));
        assert!(matches!(ada.orders()[..], [Order::Release]));
        assert!(
            matches!(bob.orders()[..], [Order::Release]),
            "released: no push"
        );
        assert!(woken.try_iter().count() >= 1);
    }

    #[test]
    fn a_session_that_takes_no_orders_holds_only_the_last_few() {
        let room = Arc::new(Classroom::default());
        let ada = room.sit("ada", TabId::TicTacToe, None);
        for _ in 0..100 {
            room.order(Whom::Everyone, Order::Reset);
        }
        assert_eq!(ada.orders().len(), MAX_ORDERS);
    }
}
