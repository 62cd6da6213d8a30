//! The room of a served class: every student's seat (name, tab, lesson step, last input),
//! kept in the server so a teacher's session can read them all. A seat outlives its
//! session: when a student's connection ends, for whatever reason, the seat stays in the
//! room marked away with the student's whole app parked in it, and the next login under
//! the same name takes both back, exactly where they were (issue 30 §1). One name is one
//! seat: a second login under a name already here gets a name of its own (`sam-2`).
//! Bounded: at most [`MAX_SEATS`] seats and [`MAX_PARKED`] parked apps, the longest away
//! going first.

use crate::app::App;
use crate::app::journal::Position;
use crate::app::room::{Course, Door, Order, Room, Seat, SeatReport, Setup, Whereabouts, Whom};
use crate::app::saved::SavedSession;
use crate::persist::Stamp;
use crate::serve::progress::ProgressStore;
use crate::serve::seats::SeatStore;
use crate::shell::LoopEvent;
use crate::tabs::TabId;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// The most orders waiting for one student's session; the oldest go first. A session takes
/// its orders at every wake-up, so only a stuck one fills its queue.
const MAX_ORDERS: usize = 16;

/// The most seats a room keeps, present and away: a term's class list and then some. A
/// new name past it takes the place of the seat away longest.
pub const MAX_SEATS: usize = 256;

/// The most apps parked for students (and teachers) who are away; each holds a session's
/// tabs. Past it the app away longest is let go: its seat stays, and its student comes
/// back at the lesson step the seat last reported.
pub const MAX_PARKED: usize = 64;

/// One student's entry.
struct Occupant {
    name: String,
    whereabouts: Whereabouts,
    last_input: Instant,
    /// The student follows the teacher: the teacher's pushes reach them.
    follows: bool,
    /// Whose position the student follows (the teacher's app number).
    leader: Option<u64>,
    /// The teacher the student followed when that teacher left: following again when
    /// a teacher comes back.
    rejoin: bool,
    /// The teacher's orders not yet taken.
    orders: VecDeque<Order>,
    /// Wakes the student's loop to take them (`None` while away).
    wake: Option<flume::Sender<LoopEvent>>,
    /// Whether the student's session is running.
    present: bool,
    /// The student's app while they are away.
    parked: Option<Box<App>>,
    /// The stamp of the seat's file as last read or written, so a save continues it.
    stamp: Option<Stamp>,
    /// How the student came in the last time.
    door: Door,
}

impl Occupant {
    fn new(name: &str, tab: TabId, wake: Option<flume::Sender<LoopEvent>>) -> Self {
        Self {
            name: name.to_string(),
            whereabouts: Whereabouts::on(tab),
            last_input: Instant::now(),
            follows: false,
            leader: None,
            rejoin: false,
            orders: VecDeque::new(),
            wake,
            present: true,
            parked: None,
            stamp: None,
            door: Door::Ssh,
        }
    }

    /// Queues `order` and wakes the session. A newer position replaces one not yet taken.
    fn give(&mut self, order: Order) {
        match &order {
            Order::Follow(position) => {
                self.follows = true;
                self.leader = Some(position.source.0);
                self.rejoin = false;
            }
            Order::Release | Order::LeaderLeft => {
                self.follows = false;
                self.leader = None;
            }
            Order::Reset | Order::Setup(_) => {}
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

/// A teacher's app parked while they are away, by login name.
struct ParkedTeacher {
    app: Box<App>,
    since: Instant,
}

/// The students in the room, by session number (the order they came in).
#[derive(Default)]
pub struct Classroom {
    seats: Mutex<BTreeMap<u64, Occupant>>,
    next_id: AtomicU64,
    /// The teachers' loops, woken at every change.
    watchers: Mutex<BTreeMap<u64, flume::Sender<LoopEvent>>>,
    /// Teachers' apps while they are away.
    teachers: Mutex<BTreeMap<String, ParkedTeacher>>,
    /// The server's files: the course, read again as SIGHUP does (set by the server).
    files: OnceLock<Box<dyn Files>>,
    /// Where seats are kept on disk (set by the server when it has a data dir).
    store: OnceLock<SeatStore>,
    /// The class's record over time: lessons done, answers, days seen (set by the server).
    progress: OnceLock<Arc<ProgressStore>>,
    /// What the last reload read.
    setup: Mutex<Option<Setup>>,
    /// The position a teacher leads from, while one leads: a student who comes back to a
    /// seat that follows takes it at once.
    lead: Mutex<Option<Position>>,
}

/// The server's lessons and config, as the teacher's room keys move and reload them.
pub trait Files: Send + Sync {
    /// Reads the config and the lessons again: what was read, in words, and the setup
    /// now in force.
    ///
    /// # Errors
    /// Why the files were refused (everything stays as it was).
    fn reload(&self) -> Result<(String, Setup), String>;

    /// Puts lesson `at` (0-based) of the course in force: what it is, in words, and its
    /// setup.
    ///
    /// # Errors
    /// The course has no such lesson.
    fn go_to(&self, at: usize) -> Result<(String, Setup), String>;

    /// The course's lessons and which is in force.
    fn course(&self) -> Course;

    /// The last bound a student's exports reached in the collect folder, if any.
    fn collect_note(&self) -> Option<String>;
}

impl std::fmt::Debug for Classroom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Classroom")
            .field("seats", &self.lock().len())
            .finish_non_exhaustive()
    }
}

/// A student taking a seat: the seat, the name it has in the class, and the app they left
/// behind if they were here before.
pub struct Arrival {
    /// The seat, held by the session.
    pub seat: SeatHandle,
    /// The student's name in this class: the name they logged in with, or, when that
    /// was taken by a student logged in now, the same with a number (`sam-2`).
    pub name: String,
    /// Whether the student had a seat already (they are back).
    pub back: bool,
    /// The app they left, exactly as they left it (`None`: new, or let go since).
    pub app: Option<Box<App>>,
    /// Where the seat was when they left.
    pub whereabouts: Whereabouts,
    /// Their session as the data dir kept it, when the app itself is not here (the
    /// server restarted): to replay on a fresh app.
    pub saved: Option<SavedSession>,
    /// Why the seat kept on disk could not be read (the file is left as it is).
    pub unreadable: Option<String>,
}

/// The teacher's names for a room's rows: `sam`, then `sam-2`, `sam-3`, …
fn numbered(name: &str, n: usize) -> String {
    if n == 1 {
        name.to_string()
    } else {
        format!("{name}-{n}")
    }
}

impl Classroom {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Occupant>> {
        self.seats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn teachers(&self) -> MutexGuard<'_, BTreeMap<String, ParkedTeacher>> {
        self.teachers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps seats on disk in `store`: saved when a session ends, read when its student
    /// comes back to a server that no longer holds their app.
    pub fn set_store(&self, store: SeatStore) {
        let _ = self.store.set(store);
    }

    /// Keeps the class's record over time in `progress`: a login is a day seen, a
    /// lesson's last step reached is a lesson done, a graded answer is counted.
    pub fn set_progress(&self, progress: Arc<ProgressStore>) {
        let _ = self.progress.set(progress);
    }

    /// The seat `id`'s student's name, if the seat is here.
    fn name_of(&self, id: u64) -> Option<String> {
        self.lock().get(&id).map(|seat| seat.name.clone())
    }

    fn lead(&self) -> MutexGuard<'_, Option<Position>> {
        self.lead.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Lets the teacher move the class through the course and reload it with `files`.
    pub fn set_files(&self, files: Box<dyn Files>) {
        let _ = self.files.set(files);
    }

    /// Orders everyone in the room onto `setup`, kept for the teacher's own session.
    fn everyone_onto(&self, setup: Setup) {
        *self.setup.lock().unwrap_or_else(PoisonError::into_inner) = Some(setup.clone());
        self.order(Whom::Everyone, Order::Setup(setup));
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

    /// Seats `name` on `tab` as a new student (tests); see [`Classroom::arrive`].
    pub fn sit(
        self: &Arc<Self>,
        name: &str,
        tab: TabId,
        wake: Option<flume::Sender<LoopEvent>>,
    ) -> SeatHandle {
        self.arrive(name, tab, wake).seat
    }

    /// Whether a session is logged in under `name` now (in any case).
    pub fn present(&self, name: &str) -> bool {
        let name = name.to_lowercase();
        (self.lock().values()).any(|seat| seat.present && seat.name.to_lowercase() == name)
    }

    /// Ends the session logged in under `name` (its student logged in again, and said it
    /// was theirs, cut off) and waits up to `wait` for its app to be parked, so the new
    /// login finds it. Whether a session was ended and its seat is free now.
    pub fn take_over(&self, name: &str, wait: Duration) -> bool {
        let name = name.to_lowercase();
        let find = |seats: &BTreeMap<u64, Occupant>| {
            (seats.iter())
                .find(|(_, seat)| seat.present && seat.name.to_lowercase() == name)
                .map(|(&id, seat)| (id, seat.wake.clone()))
        };
        let Some((id, wake)) = find(&self.lock()) else {
            return false;
        };
        let deadline = Instant::now() + wait;
        if let Some(wake) = wake {
            // The other session's queue may be full (a flood of keys): the close waits
            // its turn there rather than being dropped, which would leave that session on.
            let why = "taken over: the same student logged in again".to_string();
            // A session gone already (disconnected) frees its seat: the wait below sees it.
            if let Err(flume::SendTimeoutError::Timeout(_)) =
                wake.send_deadline(LoopEvent::InputClosed(why), deadline)
            {
                return false;
            }
        }
        while self.lock().get(&id).is_some_and(|seat| seat.present) {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }

    /// Seats a student who logged in as `name`: back in their own seat (with the app they
    /// left) when a seat of that name is away, else in a new one, named apart from every
    /// student logged in now. The teacher's orders wake `wake` (`None`: nobody to wake, as
    /// in tests). The seat is away again when the handle is dropped.
    pub fn arrive(
        self: &Arc<Self>,
        name: &str,
        tab: TabId,
        wake: Option<flume::Sender<LoopEvent>>,
    ) -> Arrival {
        let mut seats = self.lock();
        let same =
            |seat: &Occupant, wanted: &str| seat.name.to_lowercase() == wanted.to_lowercase();
        // The first of sam, sam-2, sam-3, … that is away or free.
        let mut n = 1;
        let (id, name, back) = loop {
            let wanted = numbered(name, n);
            match seats.iter().find(|(_, seat)| same(seat, &wanted)) {
                Some((_, seat)) if seat.present => n += 1,
                Some((&id, seat)) => break (id, seat.name.clone(), true),
                None => break (self.new_id(), wanted, false),
            }
        };
        if !back {
            make_room(&mut seats);
            seats.insert(id, Occupant::new(&name, tab, None));
        }
        let seat = seats.get_mut(&id).expect("seated above");
        seat.present = true;
        seat.wake = wake;
        seat.last_input = Instant::now();
        let app = seat.parked.take();
        let whereabouts = seat.whereabouts.clone();
        drop(seats);
        // The file is read with the room unlocked: other sessions report meanwhile.
        let (mut saved, mut unreadable, mut stamp) = (None, None, None);
        if app.is_none()
            && let Some(store) = self.store.get()
        {
            match store.load(&name) {
                Ok(Some((file, read))) => {
                    stamp = Some(read);
                    saved = Some(file.session);
                }
                Ok(None) => {}
                Err(why) => unreadable = Some(why),
            }
        }
        let back = back || saved.is_some();
        if let Some(progress) = self.progress.get() {
            progress.seen(&name);
        }
        if let Some(seat) = self.lock().get_mut(&id) {
            seat.stamp = stamp.or(seat.stamp);
            seat.rejoin |= saved.as_ref().is_some_and(|saved| saved.following);
            // A student who followed finds the teacher's position waiting, if one leads.
            let follows = seat.rejoin || (app.is_none() && seat.follows);
            if follows && let Some(position) = self.lead().clone() {
                seat.give(Order::Follow(position));
            }
        }
        self.changed();
        Arrival {
            seat: SeatHandle {
                registry: Arc::clone(self),
                id,
            },
            name,
            back,
            app,
            whereabouts,
            saved,
            unreadable,
        }
    }

    /// A teacher's session ended: their app is kept for their return, and the students
    /// following them are freed at once (told why), to follow again when a teacher
    /// comes back.
    pub fn teacher_left(&self, name: &str, app: App) {
        let leader = app.id();
        *self.lead() = None;
        let mut teachers = self.teachers();
        if teachers.len() >= MAX_PARKED && !teachers.contains_key(name) {
            let oldest = teachers
                .iter()
                .min_by_key(|(_, parked)| parked.since)
                .map(|(name, _)| name.clone());
            if let Some(oldest) = oldest {
                teachers.remove(&oldest);
            }
        }
        teachers.insert(
            name.to_string(),
            ParkedTeacher {
                app: Box::new(app),
                since: Instant::now(),
            },
        );
        drop(teachers);
        for seat in self.lock().values_mut() {
            if seat.follows && seat.leader == Some(leader) {
                seat.give(Order::LeaderLeft);
                seat.rejoin = true;
            }
        }
        self.changed();
    }

    /// A teacher logged in as `name`: the app they left, if the room kept it.
    pub fn teacher_back(&self, name: &str) -> Option<Box<App>> {
        self.teachers().remove(name).map(|parked| parked.app)
    }

    /// A teacher is here with `position`: the students freed when their teacher left
    /// follow again from it.
    pub fn lead_again(&self, position: &Position) {
        *self.lead() = Some(position.clone());
        for seat in self.lock().values_mut().filter(|seat| seat.rejoin) {
            seat.give(Order::Follow(position.clone()));
        }
        self.changed();
    }

    /// How many apps are parked, for tests and the log.
    pub fn parked(&self) -> usize {
        self.lock()
            .values()
            .filter(|seat| seat.parked.is_some())
            .count()
            + self.teachers().len()
    }
}

/// Frees a place for one more seat: past [`MAX_SEATS`], the seat away longest goes.
fn make_room(seats: &mut BTreeMap<u64, Occupant>) {
    if seats.len() < MAX_SEATS {
        return;
    }
    let oldest = seats
        .iter()
        .filter(|(_, seat)| !seat.present)
        .min_by_key(|(_, seat)| seat.last_input)
        .map(|(&id, _)| id);
    if let Some(id) = oldest {
        seats.remove(&id);
    }
}

/// Lets go of parked apps past [`MAX_PARKED`], the one away longest first.
fn limit_parked(seats: &mut BTreeMap<u64, Occupant>) {
    loop {
        let parked: Vec<(u64, Instant)> = seats
            .iter()
            .filter(|(_, seat)| seat.parked.is_some())
            .map(|(&id, seat)| (id, seat.last_input))
            .collect();
        if parked.len() <= MAX_PARKED {
            return;
        }
        if let Some(&(id, _)) = parked.iter().min_by_key(|(_, at)| *at)
            && let Some(seat) = seats.get_mut(&id)
        {
            seat.parked = None;
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
                away: !entry.present,
                door: entry.door,
            })
            .collect();
        // By name, as a class list is read; equal names keep the order they came in.
        seats.sort_by_key(|seat| seat.name.to_lowercase());
        seats
    }

    fn order(&self, whom: Whom, order: Order) {
        if let Order::Follow(position) = &order {
            *self.lead() = Some(position.clone());
        }
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
        let files = self
            .files
            .get()
            .ok_or("this server reads its files only at start")?;
        let (words, setup) = files.reload()?;
        self.everyone_onto(setup);
        Ok(words)
    }

    fn course(&self) -> Course {
        self.files
            .get()
            .map(|files| files.course())
            .unwrap_or_default()
    }

    fn collect_note(&self) -> Option<String> {
        self.files.get()?.collect_note()
    }

    fn go_to(&self, at: usize) -> Result<String, String> {
        let files = self.files.get().ok_or("this server runs no course")?;
        let (words, setup) = files.go_to(at)?;
        self.everyone_onto(setup);
        Ok(words)
    }

    fn setup(&self) -> Option<Setup> {
        self.setup
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn progress(&self) -> Option<crate::app::progress::ClassProgress> {
        self.progress.get().map(|progress| progress.class())
    }

    fn push(&self, position: &Position) {
        *self.lead() = Some(position.clone());
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

impl SeatHandle {
    /// Notes how the student came in this time, for the teacher's room.
    pub fn came_by(&self, door: Door) {
        if let Some(entry) = self.registry.lock().get_mut(&self.id) {
            entry.door = door;
        }
        self.registry.changed();
    }

    /// The student's session ended: their app waits in the seat for their return, and
    /// the session is kept on disk (when the server keeps seats) for a return after a
    /// restart.
    ///
    /// # Errors
    /// Why the seat or the class's record could not be kept on disk (its app is parked
    /// all the same).
    pub fn park(&self, app: App) -> Result<(), String> {
        let kept = self.park_app(app);
        let recorded = self.registry.progress.get().map_or(Ok(()), |p| p.save());
        kept.and(recorded)
    }

    fn park_app(&self, app: App) -> Result<(), String> {
        let saved = self.registry.store.get().map(|_| app.saved());
        let mut seats = self.registry.lock();
        let Some(entry) = seats.get_mut(&self.id) else {
            return Ok(());
        };
        entry.parked = Some(Box::new(app));
        limit_parked(&mut seats);
        drop(seats);
        saved.map_or(Ok(()), |saved| self.write(saved))
    }

    /// Writes `saved` as this seat's file, continuing the stamp last written.
    fn write(&self, saved: SavedSession) -> Result<(), String> {
        let Some(store) = self.registry.store.get() else {
            return Ok(());
        };
        let seat = (self.registry.lock().get(&self.id)).map(|e| (e.name.clone(), e.stamp));
        let Some((name, stamp)) = seat else {
            return Ok(());
        };
        let written = store.save(&name, saved, stamp)?;
        if let Some(entry) = self.registry.lock().get_mut(&self.id) {
            entry.stamp = Some(written);
        }
        Ok(())
    }
}

impl SeatReport for SeatHandle {
    fn report(&self, whereabouts: Whereabouts) {
        // The last step of a lesson reached is the lesson done.
        let done = match (&whereabouts.lesson, whereabouts.step) {
            (Some(title), Some((at, of))) if at == of => Some(title.clone()),
            _ => None,
        };
        let mut name = None;
        if let Some(entry) = self.registry.lock().get_mut(&self.id) {
            entry.whereabouts = whereabouts;
            entry.last_input = Instant::now();
            name = Some(entry.name.clone());
        }
        if let (Some(progress), Some(name), Some(title)) =
            (self.registry.progress.get(), name, done)
        {
            progress.lesson_done(&name, &title);
        }
        self.registry.changed();
    }

    fn keeps_on_disk(&self) -> bool {
        self.registry.store.get().is_some()
    }

    fn keep(&self, saved: SavedSession) -> Result<(), String> {
        self.write(saved)
    }

    fn graded(&self, graded: &crate::app::room::Graded) {
        if let (Some(progress), Some(name)) =
            (self.registry.progress.get(), self.registry.name_of(self.id))
        {
            progress.graded(&name, graded);
        }
    }

    fn progress(&self) -> Option<crate::app::progress::StudentProgress> {
        let progress = self.registry.progress.get()?;
        let name = self.registry.name_of(self.id)?;
        Some(
            progress
                .student(&name)
                .unwrap_or_else(|| crate::app::progress::StudentProgress::new(&name)),
        )
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
    /// The student is away: the seat stays, with whatever was parked in it.
    fn drop(&mut self) {
        if let Some(entry) = self.registry.lock().get_mut(&self.id) {
            entry.present = false;
            entry.wake = None;
            entry.last_input = Instant::now();
        }
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
        let seats = room.seats();
        assert_eq!(seats.len(), 2, "a seat outlives its session");
        assert!(seats[0].away && !seats[1].away);
    }

    /// The session taken over has a full queue (its student's terminal flooded it): the
    /// close waits its turn there, and the take-over succeeds once the session reads it.
    #[test]
    fn a_take_over_waits_behind_a_full_queue_instead_of_dropping_the_close() {
        let room = Arc::new(Classroom::default());
        let (wake, events) = flume::bounded(1);
        wake.send(LoopEvent::Changed).unwrap();
        let seat = room.sit("ada", TabId::TicTacToe, Some(wake));
        let session = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            while let Ok(event) = events.recv() {
                if matches!(event, LoopEvent::InputClosed(_)) {
                    drop(seat);
                    return;
                }
            }
        });
        assert!(room.take_over("Ada", Duration::from_secs(10)));
        session.join().unwrap();
        assert!(!room.present("ada"));
    }

    #[test]
    fn a_name_present_gets_a_number_and_an_away_seat_is_taken_back() {
        let room = Arc::new(Classroom::default());
        let first = room.arrive("sam", TabId::TicTacToe, None);
        assert_eq!((first.name.as_str(), first.back), ("sam", false));
        let second = room.arrive("Sam", TabId::TicTacToe, None);
        assert_eq!((second.name.as_str(), second.back), ("Sam-2", false));
        second.seat.report(Whereabouts {
            step: Some((4, 9)),
            ..Whereabouts::on(TabId::ConnectFour)
        });
        drop(second);
        // The second sam comes back as sam while the first is still here: their own seat.
        let again = room.arrive("sam", TabId::TicTacToe, None);
        assert_eq!((again.name.as_str(), again.back), ("Sam-2", true));
        assert_eq!(again.whereabouts.step, Some((4, 9)));
        assert_eq!(room.seats().len(), 2);
    }

    #[test]
    fn a_teacher_who_leaves_frees_their_followers_who_follow_again_on_return() {
        let room = Arc::new(Classroom::default());
        let ada = room.sit("ada", TabId::TicTacToe, None);
        let mut pos = position(1);
        pos.source = (7, 0);
        room.order(Whom::Everyone, Order::Follow(pos.clone()));
        assert!(matches!(ada.orders()[..], [Order::Follow(_)]));
        let teacher = App::new(&crate::config::Config::default(), 1);
        let mut other = pos.clone();
        other.source = (teacher.id(), 0);
        room.order(Whom::Everyone, Order::Follow(other));
        let _ = ada.orders();
        room.teacher_left("teacher", teacher);
        assert!(matches!(ada.orders()[..], [Order::LeaderLeft]));
        assert!(!room.seats()[0].at.following);
        assert!(room.teacher_back("teacher").is_some());
        room.lead_again(&pos);
        assert!(matches!(ada.orders()[..], [Order::Follow(_)]));
        assert!(room.seats()[0].at.following);
    }

    #[test]
    fn parked_apps_are_bounded_the_longest_away_going_first() {
        let room = Arc::new(Classroom::default());
        for n in 0..=MAX_PARKED {
            let arrival = room.arrive(&format!("s{n}"), TabId::TicTacToe, None);
            arrival
                .seat
                .park(App::new(&crate::config::Config::default(), 1))
                .unwrap();
        }
        assert_eq!(room.parked(), MAX_PARKED);
        assert!(
            room.arrive("s0", TabId::TicTacToe, None).app.is_none(),
            "s0 let go"
        );
        assert!(room.arrive("s1", TabId::TicTacToe, None).app.is_some());
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
            shown: None,
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
    fn a_login_a_lesson_s_last_step_and_a_graded_answer_go_on_the_student_s_record() {
        use crate::app::room::Graded;
        use crate::serve::clock::Clock;
        let room = Arc::new(Classroom::default());
        let day = std::time::UNIX_EPOCH + std::time::Duration::from_secs(20_000 * 86_400);
        room.set_progress(Arc::new(ProgressStore::in_memory(Clock::set_to(day))));
        let ada = room.sit("ada", TabId::TicTacToe, None);
        let lesson = |step| Whereabouts {
            lesson: Some("Alpha-beta".into()),
            step: Some((step, 8)),
            ..Whereabouts::on(TabId::TicTacToe)
        };
        ada.report(lesson(7));
        assert!(
            ada.progress().unwrap().lessons_done.is_empty(),
            "step 7 of 8"
        );
        ada.report(lesson(8));
        ada.graded(&Graded {
            tab: TabId::TicTacToe,
            question: "cut-off at X7?".into(),
            answer: "n".into(),
            right: false,
        });
        let record = ada.progress().unwrap();
        assert_eq!(record.lessons_done, ["Alpha-beta"]);
        assert_eq!((record.days_seen, record.wrong), (1, 1));
        let class = room.progress().unwrap();
        assert_eq!(class.students, [record]);
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
