//! A learner trained on another thread, one chunk at a time, reporting after each chunk so
//! the loop can show progress and stay responsive; stopping hands the learner back.
//!
//! Every background thread (a training run, an AI's search: [`OneShot`]) first waits for a
//! place in the process's [`TrainerPool`]: at most as many jobs run at once as the machine
//! has cores, the others wait their turn in the order they asked, a training run gives its
//! place to those waiting between chunks, and a thread with a place runs at the lowest
//! priority, so on a server where many sessions train, drawing and keystrokes are never
//! starved, and a search is never stuck behind a whole training run.

use crate::domain::learn::Chunked;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// How often the loop takes in training progress while a learner trains.
pub const TRAINING_POLL: Duration = Duration::from_millis(50);

/// What the tabs say while their job waits for a place in the pool.
pub const WAITING_FOR_TRAINER: &str = "waiting for a free trainer";

/// What a tab says while its AI's search waits for a place in the pool.
pub const WAITING_TO_THINK: &str = "waiting for a free place to think";

/// Places for background work, shared by every session of the process: at most `capacity`
/// jobs (training runs, AI searches) run at once; the others wait in the order they asked,
/// and a long training run gives its place up between chunks while others wait, so no job
/// waits for a whole run.
pub struct TrainerPool {
    capacity: usize,
    state: Mutex<PoolState>,
    changed: Condvar,
}

#[derive(Default)]
struct PoolState {
    /// Jobs holding a place now.
    running: usize,
    /// The most that ever held a place at once.
    peak: usize,
    /// Tickets waiting, oldest first.
    queue: VecDeque<u64>,
    next_ticket: u64,
    /// How many times a job gave its place up to one waiting.
    given_way: u64,
}

impl PoolState {
    /// A new ticket's number.
    fn next(&mut self) -> u64 {
        let id = self.next_ticket;
        self.next_ticket += 1;
        id
    }

    /// One more place taken.
    fn take_place(&mut self) {
        self.running += 1;
        self.peak = self.peak.max(self.running);
    }
}

impl TrainerPool {
    /// A pool with `capacity` places (at least one).
    pub fn new(capacity: usize) -> Arc<Self> {
        Arc::new(Self {
            capacity: capacity.max(1),
            state: Mutex::new(PoolState::default()),
            changed: Condvar::new(),
        })
    }

    /// The process's pool: one place per core, shared by the local arcade and by every
    /// session of a server.
    pub fn global() -> &'static Arc<Self> {
        static POOL: OnceLock<Arc<TrainerPool>> = OnceLock::new();
        POOL.get_or_init(|| {
            Self::new(thread::available_parallelism().map_or(1, std::num::NonZero::get))
        })
    }

    /// How many jobs may train at once.
    pub const fn capacity(&self) -> usize {
        self.capacity
    }

    /// Jobs training now.
    pub fn running(&self) -> usize {
        self.lock().running
    }

    /// Jobs waiting for a place now.
    pub fn waiting(&self) -> usize {
        self.lock().queue.len()
    }

    /// The most jobs that ever trained at once.
    pub fn peak(&self) -> usize {
        self.lock().peak
    }

    /// How many times a running job gave its place up to a job waiting (a job alone, or
    /// with a free place for every job waiting, never does).
    pub fn given_way(&self) -> u64 {
        self.lock().given_way
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        // The state is a few counters, consistent after every statement: a panic elsewhere
        // while it was held leaves nothing half-done.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes a free place now, or joins the queue (so jobs get places in the order they
    /// were started): either way the caller knows at once whether its job waits.
    fn ticket(self: &Arc<Self>) -> Ticket {
        let mut state = self.lock();
        let id = state.next();
        let granted = state.queue.is_empty() && state.running < self.capacity;
        if granted {
            state.take_place();
        } else {
            state.queue.push_back(id);
        }
        Ticket {
            pool: Arc::clone(self),
            granted,
            flags: Arc::new(TicketFlags {
                ticket: AtomicU64::new(id),
                waiting: AtomicBool::new(!granted),
                started: AtomicBool::new(false),
                cancelled: AtomicBool::new(false),
            }),
        }
    }

    /// Blocks until the ticket `flags` names is first in line and a place is free (true:
    /// the place is taken), or until its owner gives up (false: it has left the queue).
    fn wait_in_line(&self, mut state: MutexGuard<'_, PoolState>, flags: &TicketFlags) -> bool {
        let id = flags.ticket.load(Ordering::SeqCst);
        loop {
            if flags.cancelled.load(Ordering::SeqCst) {
                state.queue.retain(|&queued| queued != id);
                drop(state);
                self.changed.notify_all();
                return false;
            }
            if state.queue.front() == Some(&id) && state.running < self.capacity {
                state.queue.pop_front();
                state.take_place();
                // Only the first wait is the owner's "waiting for a free trainer"; a job
                // that gave way between chunks has started already.
                if flags.waiting.swap(false, Ordering::SeqCst) {
                    flags.started.store(true, Ordering::SeqCst);
                }
                drop(state);
                // The next in line may find a place free too.
                self.changed.notify_all();
                return true;
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Between two chunks of a job holding a place: when more jobs wait than there are
    /// free places for, gives the place up, queues again at the back and waits its turn,
    /// so a long run cannot keep a short job waiting for its whole length. True when the
    /// job holds a place again (or never gave it up: a job alone pays one lock for the
    /// check); false when its owner gave up while it waited, and it holds none.
    fn give_way(&self, flags: &TicketFlags) -> bool {
        let mut state = self.lock();
        let free = self.capacity.saturating_sub(state.running);
        if state.queue.len() <= free {
            return true;
        }
        state.running -= 1;
        state.given_way += 1;
        let id = state.next();
        flags.ticket.store(id, Ordering::SeqCst);
        state.queue.push_back(id);
        self.changed.notify_all();
        self.wait_in_line(state, flags)
    }

    /// Gives a place back.
    fn release(&self) {
        self.lock().running -= 1;
        self.changed.notify_all();
    }
}

/// What a ticket's owner and its thread share.
struct TicketFlags {
    /// The ticket's number in the queue now (a job that gives way queues with a new one);
    /// changed only under the pool's lock.
    ticket: AtomicU64,
    /// The job has not yet had its first place.
    waiting: AtomicBool,
    /// The job waited, then got its first place, and its owner has not been told yet.
    started: AtomicBool,
    cancelled: AtomicBool,
}

/// A place asked for in the queue, not yet granted.
struct Ticket {
    pool: Arc<TrainerPool>,
    /// The place was free when asked for: it is held already.
    granted: bool,
    flags: Arc<TicketFlags>,
}

impl Ticket {
    /// What the job's owner keeps to see whether it waits and to give up its turn.
    fn watch(&self) -> TicketWatch {
        TicketWatch {
            pool: Arc::clone(&self.pool),
            flags: Arc::clone(&self.flags),
        }
    }

    /// Blocks until this ticket is first in line and a place is free (`Some`), or until
    /// the owner gives up (`None`); either way it leaves the queue.
    fn wait(self) -> Option<Turn> {
        let held = self.granted || self.pool.wait_in_line(self.pool.lock(), &self.flags);
        held.then(|| Turn {
            pool: self.pool,
            flags: self.flags,
            held: true,
        })
    }
}

/// The owner's view of a ticket.
struct TicketWatch {
    pool: Arc<TrainerPool>,
    flags: Arc<TicketFlags>,
}

impl TicketWatch {
    fn is_waiting(&self) -> bool {
        self.flags.waiting.load(Ordering::SeqCst)
    }

    fn started(&self) -> bool {
        self.flags.started.swap(false, Ordering::SeqCst)
    }

    /// Gives up the turn: a ticket still in the queue leaves it at once (so the pool's
    /// count of jobs waiting is right when this returns), and its thread stops waiting.
    fn cancel(&self) {
        let mut state = self.pool.lock();
        self.flags.cancelled.store(true, Ordering::SeqCst);
        let id = self.flags.ticket.load(Ordering::SeqCst);
        state.queue.retain(|&queued| queued != id);
        drop(state);
        self.pool.changed.notify_all();
    }
}

/// A job's place in the pool while its work runs, given back when dropped; between two
/// chunks a long job lets others have it ([`Turn::give_way`]).
pub struct Turn {
    pool: Arc<TrainerPool>,
    flags: Arc<TicketFlags>,
    /// Whether the place is held (not after the owner gave up while it was given away).
    held: bool,
}

impl Turn {
    /// Lets jobs waiting for a place have this one, when no other place is free for them,
    /// and waits for it again behind them; a job alone keeps going at once. False when the
    /// owner gave the job up while it waited: it then holds no place and should stop.
    pub fn give_way(&mut self) -> bool {
        if self.held {
            self.held = self.pool.give_way(&self.flags);
        }
        self.held
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if self.held {
            self.pool.release();
        }
    }
}

/// Runs `work` on a new thread once `pool` has a place for it, at the lowest priority:
/// `work(Some(turn))`, the place held until `work` returns; or `work(None)` at once if the
/// turn is given up while it waits, so the work can hand its learner back without training.
fn spawn_training<W>(pool: &Arc<TrainerPool>, work: W) -> (TicketWatch, JoinHandle<()>)
where
    W: FnOnce(Option<&mut Turn>) + Send + 'static,
{
    let ticket = pool.ticket();
    let watch = ticket.watch();
    let handle = thread::spawn(move || {
        let mut turn = ticket.wait();
        if turn.is_some() {
            lower_this_thread_priority();
        }
        work(turn.as_mut());
    });
    (watch, handle)
}

/// Puts the calling thread at the lowest priority (nice 19 on Linux), so the sessions'
/// drawing threads always come first. Where the system refuses, training simply runs at
/// the normal priority.
pub fn lower_this_thread_priority() {
    let _ = thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min);
}

/// A thread waiting for, or holding, a place in a [`TrainerPool`]: the part of a job its
/// owner keeps, whatever the job does.
pub struct Trainer {
    watch: TicketWatch,
    handle: Option<JoinHandle<()>>,
}

impl Trainer {
    /// Starts `work` on its own thread: `work(Some(turn))` once `pool` has a place (held
    /// until `work` returns; a long job gives way between chunks through `turn`), or
    /// `work(None)` if the job is stopped while it still waits (it should then only hand
    /// its learner back).
    pub fn start<W>(pool: &Arc<TrainerPool>, work: W) -> Self
    where
        W: FnOnce(Option<&mut Turn>) + Send + 'static,
    {
        let (watch, handle) = spawn_training(pool, work);
        Self {
            watch,
            handle: Some(handle),
        }
    }

    /// True while the job waits for its first place (it has done nothing yet). A job that
    /// gave way between chunks has started: it does not wait in this sense.
    pub fn is_waiting(&self) -> bool {
        self.watch.is_waiting()
    }

    /// True once, when first asked after a job that waited got its place: the owner's cue
    /// to say that its work started (a job that never waited never says so, since the
    /// action that started it said it already).
    pub fn started(&self) -> bool {
        self.watch.started()
    }

    /// Gives up a place still waited for; a job already training is stopped by its own
    /// stop signal, which the caller sends.
    pub fn cancel(&self) {
        self.watch.cancel();
    }

    /// True once the thread has ended (or was let go).
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Waits for the thread to end.
    pub fn join(&mut self) {
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }

    /// Gives up a place still waited for and lets the thread end by itself, unwaited for:
    /// work already running finishes and gives its place back then.
    fn let_go(&mut self) {
        self.cancel();
        self.handle = None;
    }
}

impl Drop for Trainer {
    fn drop(&mut self) {
        self.cancel();
        self.join();
    }
}

/// One piece of work run in the pool (an AI's search): on its own thread at the lowest
/// priority, once it holds a place, which it keeps until the work ends. Its owner may walk
/// away (a new game, undo, a tab closed): dropping it gives up a turn still waited for, so
/// the work never runs, and does not wait for work already running, which ends by itself
/// and gives its place back then; a session is never held up by a search it gave up.
pub struct OneShot {
    trainer: Trainer,
}

impl OneShot {
    /// Starts `work` once `pool` has a place for it. Given up before that, `work` is
    /// dropped unrun (what it owns is dropped on its thread).
    pub fn start<W>(pool: &Arc<TrainerPool>, work: W) -> Self
    where
        W: FnOnce() + Send + 'static,
    {
        Self {
            trainer: Trainer::start(pool, move |turn| {
                if turn.is_some() {
                    work();
                }
            }),
        }
    }

    /// True while the work waits for its place.
    pub fn is_waiting(&self) -> bool {
        self.trainer.is_waiting()
    }

    /// True once, when first asked after work that waited got its place.
    pub fn started(&self) -> bool {
        self.trainer.started()
    }

    /// Gives up a turn still waited for: the work will never run.
    pub fn cancel(&self) {
        self.trainer.cancel();
    }

    /// True once the thread has ended.
    pub fn is_finished(&self) -> bool {
        self.trainer.is_finished()
    }

    /// Waits for the thread to end (at once for work given up while it waited).
    pub fn join(&mut self) {
        self.trainer.join();
    }
}

impl Drop for OneShot {
    fn drop(&mut self) {
        self.trainer.let_go();
    }
}

/// The longest a paced job waits before it looks at its pace again, so lifting the pace
/// (slow to fast) takes effect within this.
const PACE_SLICE: Duration = Duration::from_millis(20);

/// Waits the job's pace after a chunk, a slice at a time so a changed pace counts at once;
/// false when a stop request (or the owner's end) came during the wait.
fn wait_between_chunks(pace: &AtomicU64, stop: &Receiver<()>) -> bool {
    let mut waited = Duration::ZERO;
    loop {
        let gap = Duration::from_micros(pace.load(Ordering::Relaxed));
        let Some(left) = gap.checked_sub(waited).filter(|left| !left.is_zero()) else {
            return true;
        };
        let slice = left.min(PACE_SLICE);
        match stop.recv_timeout(slice) {
            Err(RecvTimeoutError::Timeout) => waited += slice,
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return false,
        }
    }
}

/// A duration in whole microseconds, as a paced job keeps it.
fn micros(gap: Duration) -> u64 {
    u64::try_from(gap.as_micros()).unwrap_or(u64::MAX)
}

/// What the thread sends.
pub enum Progress<T: Chunked> {
    /// One more chunk done.
    Chunk(T::Report),
    /// The thread stopped (asked to, or the run ended) and hands the learner back.
    Stopped(Box<T>),
}

/// A training run on another thread; dropping it stops the thread and waits for it.
pub struct Job<T: Chunked> {
    progress: Receiver<Progress<T>>,
    stop: Sender<()>,
    trainer: Trainer,
    /// The owner's latest tuning, not yet taken in: one slot, the latest wins, so it stays
    /// bounded however often the owner changes its mind between two chunks.
    tuning: Arc<Mutex<Option<T::Tuning>>>,
    /// The wait after each chunk, in microseconds (0: none).
    gap: Arc<AtomicU64>,
}

impl<T: Chunked> Job<T> {
    /// Starts training `learner` in the process's pool until it is done or asked to stop.
    pub fn start(learner: T) -> Self {
        Self::start_in(TrainerPool::global(), learner)
    }

    /// Starts training `learner` once `pool` has a place, until it is done or asked to
    /// stop.
    pub fn start_in(pool: &Arc<TrainerPool>, learner: T) -> Self {
        Self::start_paced_in(pool, learner, Duration::ZERO)
    }

    /// Starts training `learner` in the process's pool, waiting `gap` after each chunk.
    pub fn start_paced(learner: T, gap: Duration) -> Self {
        Self::start_paced_in(TrainerPool::global(), learner, gap)
    }

    /// Starts training `learner` once `pool` has a place, waiting `gap` after each chunk
    /// (see [`Job::pace`]).
    pub fn start_paced_in(pool: &Arc<TrainerPool>, mut learner: T, gap: Duration) -> Self {
        let (progress_tx, progress) = mpsc::channel();
        let (stop, stop_rx) = mpsc::channel::<()>();
        let tuning: Arc<Mutex<Option<T::Tuning>>> = Arc::default();
        let tuned = Arc::clone(&tuning);
        let take_tuning = move |learner: &mut T| {
            let latest = tuned.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(latest) = latest {
                learner.retune(latest);
            }
        };
        let gap = Arc::new(AtomicU64::new(micros(gap)));
        let paced = Arc::clone(&gap);
        let trainer = Trainer::start(pool, move |turn| {
            if let Some(turn) = turn {
                while !learner.is_done() && matches!(stop_rx.try_recv(), Err(TryRecvError::Empty)) {
                    take_tuning(&mut learner);
                    if progress_tx
                        .send(Progress::Chunk(learner.train_chunk()))
                        .is_err()
                    {
                        return;
                    }
                    if learner.is_done()
                        || !wait_between_chunks(&paced, &stop_rx)
                        || !turn.give_way()
                    {
                        break;
                    }
                }
            }
            take_tuning(&mut learner);
            let _ = progress_tx.send(Progress::Stopped(Box::new(learner)));
        });
        Self {
            progress,
            stop,
            trainer,
            tuning,
            gap,
        }
    }

    /// Waits `gap` after each chunk from now on (zero: none), so a slow run can be watched
    /// chunk by chunk; a stop request still ends the run at once.
    pub fn pace(&self, gap: Duration) {
        self.gap.store(micros(gap), Ordering::Relaxed);
    }

    /// Changes the run from its next chunk on (a tuning sent before the last one was taken
    /// in replaces it). A learner handed back has taken in every tuning sent before it
    /// stopped, except one sent after its last check: the owner re-applies what it sent to
    /// a learner it gets back.
    pub fn retune(&self, tuning: T::Tuning) {
        *self.tuning.lock().unwrap_or_else(PoisonError::into_inner) = Some(tuning);
    }

    /// True while the job waits for its first place in the pool.
    pub fn is_waiting(&self) -> bool {
        self.trainer.is_waiting()
    }

    /// True once, when first asked after the job waited and got its place (see
    /// [`Trainer::started`]).
    pub fn started(&self) -> bool {
        self.trainer.started()
    }

    /// Asks the thread to stop after its current chunk (or at once if it still waits for a
    /// place); it then sends the learner back.
    pub fn request_stop(&self) {
        let _ = self.stop.send(());
        self.trainer.cancel();
    }

    /// The next report, or why there is none: `Empty` for now, or `Disconnected` once
    /// every report was taken and the thread is gone. A thread that ends well sends the
    /// learner back first, so `Disconnected` before a learner came back means it failed
    /// (a panic). The channel says so in order with the reports.
    pub fn try_report(&self) -> Result<Progress<T>, TryRecvError> {
        self.progress.try_recv()
    }

    /// The next report, if one is waiting.
    pub fn try_next(&self) -> Option<Progress<T>> {
        self.try_report().ok()
    }

    /// Waits until the run ends by itself (the learner is done, or it was asked to stop),
    /// leaving its reports and the learner to be taken: what a test waits on where the
    /// run must have ended before the owner looks.
    pub fn wait_until_ended(&mut self) {
        self.trainer.join();
    }

    /// Waits for the thread to stop and returns the learner, dropping reports on the way.
    pub fn finish(mut self) -> Option<T> {
        self.request_stop();
        let learner = loop {
            match self.progress.recv() {
                Ok(Progress::Stopped(learner)) => break Some(*learner),
                Ok(Progress::Chunk(_)) => {}
                Err(_) => break None,
            }
        };
        self.trainer.join();
        learner
    }
}

impl<T: Chunked> Drop for Job<T> {
    fn drop(&mut self) {
        // Stop a training thread; the trainer, dropped next, gives up a waiting turn and
        // joins the thread.
        let _ = self.stop.send(());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counter {
        done: u32,
        target: u32,
    }

    impl Chunked for Counter {
        type Report = u32;
        type Tuning = ();
        fn is_done(&self) -> bool {
            self.done >= self.target
        }
        fn train_chunk(&mut self) -> u32 {
            self.done += 1;
            self.done
        }
    }

    #[test]
    fn a_job_reports_every_chunk_then_hands_the_learner_back() {
        let job = Job::start(Counter { done: 0, target: 5 });
        let mut reports = Vec::new();
        let learner = loop {
            match job.progress.recv().unwrap() {
                Progress::Chunk(n) => reports.push(n),
                Progress::Stopped(learner) => break learner,
            }
        };
        assert_eq!(reports, [1, 2, 3, 4, 5]);
        assert_eq!(learner.done, 5);
    }

    /// A learner whose second chunk panics.
    struct Fails(u32);

    impl Chunked for Fails {
        type Report = u32;
        type Tuning = ();
        fn is_done(&self) -> bool {
            false
        }
        fn train_chunk(&mut self) -> u32 {
            self.0 += 1;
            assert!(self.0 < 2, "a learner's bug");
            self.0
        }
    }

    /// A thread that fails sends no learner back: its reports end disconnected, with no
    /// learner among them. One that ends well sends its learner before that.
    #[test]
    fn a_failed_thread_ends_its_reports_with_no_learner() {
        let mut job = Job::start(Fails(0));
        job.wait_until_ended();
        assert!(matches!(job.try_report(), Ok(Progress::Chunk(1))));
        assert!(matches!(job.try_report(), Err(TryRecvError::Disconnected)));
        let mut done = Job::start(Counter { done: 0, target: 1 });
        done.wait_until_ended();
        assert!(matches!(done.try_report(), Ok(Progress::Chunk(1))));
        assert!(matches!(done.try_report(), Ok(Progress::Stopped(_))));
        assert!(matches!(done.try_report(), Err(TryRecvError::Disconnected)));
    }

    #[test]
    fn a_paced_job_waits_between_chunks_and_a_stop_ends_the_wait() {
        // An hour between chunks: without the pacing the counter would race to its target.
        let job = Job::start_paced(
            Counter {
                done: 0,
                target: 1000,
            },
            Duration::from_secs(3600),
        );
        assert!(matches!(job.progress.recv().unwrap(), Progress::Chunk(1)));
        let learner = job.finish().expect("handed back");
        assert_eq!(
            learner.done, 1,
            "one chunk, then the wait, cut short by the stop"
        );
    }

    #[test]
    fn lifting_the_pace_lets_a_waiting_job_run_on_by_itself() {
        let job = Job::start_paced(
            Counter {
                done: 0,
                target: 50,
            },
            Duration::from_secs(3600),
        );
        assert!(matches!(job.progress.recv().unwrap(), Progress::Chunk(1)));
        job.pace(Duration::ZERO);
        let mut last = 0;
        let learner = loop {
            match job.progress.recv().unwrap() {
                Progress::Chunk(n) => last = n,
                Progress::Stopped(learner) => break learner,
            }
        };
        assert_eq!(
            (last, learner.done),
            (50, 50),
            "no stop asked: it ran to its end"
        );
    }

    /// A learner whose one chunk blocks until the test releases it, counting how many
    /// chunks run at once.
    struct Gate {
        release: Receiver<()>,
        active: Arc<std::sync::atomic::AtomicUsize>,
        most: Arc<std::sync::atomic::AtomicUsize>,
        done: bool,
    }

    impl Chunked for Gate {
        type Report = ();
        type Tuning = ();
        fn is_done(&self) -> bool {
            self.done
        }
        fn train_chunk(&mut self) {
            let now = self.active.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(now, Ordering::SeqCst);
            let _ = self.release.recv();
            self.active.fetch_sub(1, Ordering::SeqCst);
            self.done = true;
        }
    }

    fn gates(
        pool: &Arc<TrainerPool>,
        count: usize,
    ) -> (
        Vec<Job<Gate>>,
        Vec<Sender<()>>,
        Arc<std::sync::atomic::AtomicUsize>,
    ) {
        let active = Arc::default();
        let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut jobs = Vec::new();
        let mut releases = Vec::new();
        for _ in 0..count {
            let (release, gate) = mpsc::channel();
            releases.push(release);
            jobs.push(Job::start_in(
                pool,
                Gate {
                    release: gate,
                    active: Arc::clone(&active),
                    most: Arc::clone(&most),
                    done: false,
                },
            ));
        }
        (jobs, releases, most)
    }

    fn wait_until(what: impl Fn() -> bool) {
        for _ in 0..1000 {
            if what() {
                return;
            }
            thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("not reached within 5 s");
    }

    fn stopped<T: Chunked>(job: &Job<T>) -> T {
        loop {
            if let Progress::Stopped(learner) = job.progress.recv().unwrap() {
                return *learner;
            }
        }
    }

    #[test]
    fn the_pool_trains_at_most_its_capacity_and_the_rest_wait_in_order() {
        let pool = TrainerPool::new(2);
        let (jobs, releases, most) = gates(&pool, 6);
        assert_eq!(pool.running(), 2);
        assert_eq!(pool.waiting(), 4);
        let waiting: Vec<bool> = jobs.iter().map(Job::is_waiting).collect();
        assert_eq!(
            waiting,
            [false, false, true, true, true, true],
            "first come, first served"
        );
        for release in &releases {
            release.send(()).unwrap();
        }
        for job in &jobs {
            assert!(stopped(job).done, "every queued job trains in its turn");
        }
        // Never more than the capacity trained at once (how many overlapped depends on the
        // machine's timing; the pool's own count of places taken is exact).
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert_eq!(pool.peak(), 2);
        wait_until(|| pool.running() == 0);
    }

    #[test]
    fn stopping_a_waiting_job_hands_its_learner_back_untrained() {
        let pool = TrainerPool::new(1);
        let (mut jobs, releases, _) = gates(&pool, 2);
        let second = jobs.pop().unwrap();
        assert!(second.is_waiting());
        let learner = second.finish().unwrap();
        assert!(!learner.done);
        assert_eq!(pool.waiting(), 0);
        releases[0].send(()).unwrap();
        assert!(stopped(&jobs[0]).done);
    }

    /// A learner of `chunks` chunks, each noted in a shared log under its name as it
    /// starts; with a `hold`, each chunk first says it began, then waits for the test's
    /// go-ahead, so a test decides what happens while it trains.
    struct Scripted {
        name: &'static str,
        chunks: u32,
        trained: u32,
        log: Arc<Mutex<Vec<String>>>,
        hold: Option<(Sender<()>, Receiver<()>)>,
    }

    /// The test's ends of a held learner: told when each chunk begins, and each chunk's
    /// go-ahead.
    struct Controls {
        began: Receiver<()>,
        go: Sender<()>,
    }

    /// A scripted learner, and with `hold` the test's controls of it.
    fn scripted(
        name: &'static str,
        chunks: u32,
        log: &Arc<Mutex<Vec<String>>>,
        hold: bool,
    ) -> (Scripted, Option<Controls>) {
        let (ends, hold) = if hold {
            let (began_tx, began) = mpsc::channel();
            let (go, go_rx) = mpsc::channel();
            (Some(Controls { began, go }), Some((began_tx, go_rx)))
        } else {
            (None, None)
        };
        let learner = Scripted {
            name,
            chunks,
            trained: 0,
            log: Arc::clone(log),
            hold,
        };
        (learner, ends)
    }

    impl Chunked for Scripted {
        type Report = u32;
        type Tuning = ();
        fn is_done(&self) -> bool {
            self.trained >= self.chunks
        }
        fn train_chunk(&mut self) -> u32 {
            self.trained += 1;
            let entry = format!("{} {}", self.name, self.trained);
            self.log.lock().unwrap().push(entry);
            if let Some((began, go)) = &self.hold {
                let _ = began.send(());
                let _ = go.recv();
            }
            self.trained
        }
    }

    #[test]
    fn a_long_run_gives_its_place_between_chunks_to_a_job_that_waits() {
        let pool = TrainerPool::new(1);
        let log = Arc::default();
        let (long, ends) = scripted("long", 3, &log, true);
        let go = ends.unwrap().go;
        let long = Job::start_in(&pool, long);
        assert!(!long.is_waiting(), "the place was free");
        // The long run is inside its first chunk (it waits for the go-ahead) when the short
        // job asks: it must wait.
        let short = Job::start_in(&pool, scripted("short", 1, &log, false).0);
        assert!(short.is_waiting());
        for _ in 0..3 {
            go.send(()).unwrap();
        }
        let short_learner = stopped(&short);
        let long_learner = stopped(&long);
        assert_eq!(
            *log.lock().unwrap(),
            ["long 1", "short 1", "long 2", "long 3"],
            "the short job trained after one chunk of the long run, not after all of it"
        );
        assert_eq!((short_learner.trained, long_learner.trained), (1, 3));
        assert_eq!(
            pool.given_way(),
            1,
            "once, to the short job; alone again, the long run kept its place"
        );
        assert!(short.started(), "the short job waited, then started");
        assert!(!short.started(), "and says so once");
        assert!(!long.started(), "the long run never waited");
    }

    #[test]
    fn a_job_alone_keeps_its_place_between_chunks() {
        let pool = TrainerPool::new(1);
        let mut job = Job::start_in(
            &pool,
            Counter {
                done: 0,
                target: 200,
            },
        );
        assert_eq!(stopped(&job).done, 200);
        job.wait_until_ended();
        assert_eq!(pool.given_way(), 0);
        assert_eq!((pool.running(), pool.waiting()), (0, 0));
    }

    #[test]
    fn a_run_stopped_while_it_waits_to_train_again_hands_its_learner_back_and_no_place() {
        let pool = TrainerPool::new(1);
        let log = Arc::default();
        let (long, long_ends) = scripted("long", 1000, &log, true);
        let long_go = long_ends.unwrap().go;
        let (short, short_ends) = scripted("short", 1, &log, true);
        let Controls {
            began: short_began,
            go: short_go,
        } = short_ends.unwrap();
        let long = Job::start_in(&pool, long);
        let mut short = Job::start_in(&pool, short);
        long_go.send(()).unwrap();
        // The long run gave way after its chunk: the short job trains, and the long run
        // waits in line behind it.
        short_began.recv().unwrap();
        assert_eq!((pool.running(), pool.waiting()), (1, 1));
        assert!(
            !long.is_waiting(),
            "it has started: its owner sees it train"
        );
        let long_learner = long.finish().expect("handed back");
        assert_eq!(long_learner.trained, 1);
        assert_eq!(pool.waiting(), 0, "it left the queue");
        short_go.send(()).unwrap();
        assert_eq!(stopped(&short).trained, 1);
        short.wait_until_ended();
        assert_eq!((pool.running(), pool.waiting()), (0, 0), "no place kept");
    }

    #[test]
    fn one_shot_work_given_up_while_it_waits_never_runs() {
        let pool = TrainerPool::new(1);
        let (release, held) = mpsc::channel::<()>();
        let mut holder = OneShot::start(&pool, move || {
            let _ = held.recv();
        });
        assert!(!holder.is_waiting());
        let ran = Arc::new(AtomicBool::new(false));
        let marked = Arc::clone(&ran);
        let given_up = OneShot::start(&pool, move || marked.store(true, Ordering::SeqCst));
        assert!(given_up.is_waiting());
        drop(given_up);
        assert_eq!(pool.waiting(), 0, "it left the queue when dropped");
        release.send(()).unwrap();
        holder.join();
        // Had the dropped work kept its turn, it would run before this, first come first
        // served.
        let (after_tx, after) = mpsc::channel();
        let mut next = OneShot::start(&pool, move || after_tx.send(()).unwrap());
        after.recv().unwrap();
        next.join();
        assert!(!ran.load(Ordering::SeqCst));
        assert_eq!((pool.running(), pool.waiting()), (0, 0));
    }

    #[test]
    fn one_shot_work_that_waited_runs_once_a_place_is_free_and_says_it_started() {
        let pool = TrainerPool::new(1);
        let (release, held) = mpsc::channel::<()>();
        let mut holder = OneShot::start(&pool, move || {
            let _ = held.recv();
        });
        let (done_tx, done) = mpsc::channel();
        let mut work = OneShot::start(&pool, move || done_tx.send(()).unwrap());
        assert!(work.is_waiting());
        assert!(!work.started());
        release.send(()).unwrap();
        done.recv().unwrap();
        work.join();
        holder.join();
        assert!(!work.is_waiting());
        assert!(work.started());
        assert!(!holder.started(), "the holder never waited");
    }

    /// This thread's nice value, from /proc.
    #[cfg(target_os = "linux")]
    fn own_nice() -> i64 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..]
            .split_whitespace()
            .collect();
        fields[16].parse().unwrap()
    }

    #[cfg(target_os = "linux")]
    struct NiceProbe(Option<i64>);

    #[cfg(target_os = "linux")]
    impl Chunked for NiceProbe {
        type Report = i64;
        type Tuning = ();
        fn is_done(&self) -> bool {
            self.0.is_some()
        }
        fn train_chunk(&mut self) -> i64 {
            let nice = own_nice();
            self.0 = Some(nice);
            nice
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn training_runs_at_the_lowest_priority() {
        let job = Job::start_in(&TrainerPool::new(1), NiceProbe(None));
        assert_eq!(stopped(&job).0, Some(19));
        assert!(own_nice() < 19, "the caller's priority is unchanged");
    }

    /// The learning rate sent to a running job is taken in before a later chunk: every
    /// chunk reports the rate it trained with, the first ones the old, all after the switch
    /// the new, and the weights handed back are a run switched at that chunk.
    #[test]
    fn a_running_subtraction_job_takes_a_new_learning_rate_between_chunks() {
        use crate::domain::learn::subtraction::{CHUNK_EPOCHS, Recipe, Trainer, Tuning};
        let recipe = Recipe {
            epochs: 1_000_000,
            ..Recipe::DEFAULT
        };
        let job = Job::start_in(&TrainerPool::new(1), Trainer::new(127, recipe, 3));
        let mut rates = Vec::new();
        let learner = loop {
            match job.progress.recv().unwrap() {
                Progress::Chunk(done) => {
                    rates.push(done.learning_rate);
                    if rates.len() == 1 {
                        job.retune(Tuning {
                            learning_rate: 0.5,
                            chunk_epochs: CHUNK_EPOCHS,
                        });
                    }
                    if done.learning_rate > 0.3 {
                        job.request_stop();
                    }
                }
                Progress::Stopped(learner) => break *learner,
            }
        };
        let switch = rates
            .iter()
            .position(|&r| r > 0.3)
            .expect("the new rate arrived");
        assert!(switch >= 1, "the first chunk ran before the change");
        assert!(rates[..switch].iter().all(|&r| (r - 0.12).abs() < 1e-15));
        assert!(rates[switch..].iter().all(|&r| (r - 0.5).abs() < 1e-15));
        let mut replay = Trainer::new(127, recipe, 3);
        for _ in 0..switch {
            replay.train_chunk();
        }
        replay.set_learning_rate(0.5);
        for _ in switch..rates.len() {
            replay.train_chunk();
        }
        assert_eq!(replay.epoch, learner.epoch);
        assert_eq!(replay.network, learner.network);
    }

    #[test]
    fn finishing_early_returns_the_learner_part_way() {
        let job = Job::start(Counter {
            done: 0,
            target: u32::MAX,
        });
        let learner = job.finish().unwrap();
        assert!(learner.done < u32::MAX);
    }
}
