//! The process's trainer pool seen from the tabs: with every place taken, a network asked
//! to train waits, says so in the status line and on its progress line, and starts when a
//! place is free. Other tests of the suite may train in the same pool at the same time, so
//! these take every place by waiting until their own jobs hold them all.

use ai_arcade::app::{App, TRAINING_STARTED, TabId};
use ai_arcade::config::Config;
use ai_arcade::domain::learn::Chunked;
use ai_arcade::tabkit::background::{Job, TrainerPool, WAITING_FOR_TRAINER};
use ai_arcade::tabkit::keymap::Key;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// A job that says when it holds its place, then holds it until released.
struct Hold {
    holds: Sender<()>,
    release: Receiver<()>,
    done: bool,
}

impl Chunked for Hold {
    type Report = ();
    type Tuning = ();
    fn is_done(&self) -> bool {
        self.done
    }
    fn train_chunk(&mut self) {
        let _ = self.holds.send(());
        let _ = self.release.recv();
        self.done = true;
    }
}

/// Taken by a test while it holds every place: two tests each holding half the places
/// and waiting for the rest would wait for ever.
static EVERY_PLACE: Mutex<()> = Mutex::new(());

/// Jobs holding every place of the process's pool, once each says it holds one (another
/// test's training gives way to them between its chunks), and their releases. The caller
/// holds [`EVERY_PLACE`].
fn take_every_place() -> (Vec<Job<Hold>>, Vec<Sender<()>>) {
    let pool = TrainerPool::global();
    let (holds, held) = mpsc::channel();
    let mut jobs = Vec::new();
    let mut releases = Vec::new();
    for _ in 0..pool.capacity() {
        let (release, released) = mpsc::channel();
        releases.push(release);
        jobs.push(Job::start(Hold {
            holds: holds.clone(),
            release: released,
            done: false,
        }));
    }
    for _ in 0..pool.capacity() {
        held.recv().unwrap();
    }
    (jobs, releases)
}

/// Gives every place back, and waits until they are.
fn release_every_place(held: Vec<Job<Hold>>, releases: &[Sender<()>]) {
    for release in releases {
        release.send(()).unwrap();
    }
    for job in held {
        job.finish();
    }
}

/// How many times the app said `text`.
fn times_said(app: &App, text: &str) -> u32 {
    app.log
        .entries()
        .filter(|(message, _)| message.text == text)
        .map(|(_, times)| times)
        .sum()
}

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| ai_arcade::ui::render(app, f)).unwrap();
    terminal.backend().to_string()
}

#[test]
fn training_waits_for_a_free_trainer_and_says_so() {
    let _every_place = EVERY_PLACE.lock().unwrap_or_else(PoisonError::into_inner);
    let (held, releases) = take_every_place();
    let mut config = Config::default();
    config.subtraction.autotrain = false;
    let mut app = App::new(&config, 7);
    app.handle_key(Key::F(1));
    app.handle_key(Key::Char('p'));
    assert!(app.tabs.waits_for_trainer(TabId::SubtractionNim));
    let message = app.message.clone().unwrap().text;
    assert!(message.ends_with(WAITING_FOR_TRAINER), "{message}");
    assert!(screen(&app).contains(WAITING_FOR_TRAINER));
    // Nothing trains and nothing is redrawn while it waits (after the first tick notes it).
    app.update(ai_arcade::app::Action::Tick);
    assert!(!app.update(ai_arcade::app::Action::Tick));
    assert_eq!(app.tabs.subtraction.epochs_trained(), 0);

    release_every_place(held, &releases);
    let mut started = false;
    for _ in 0..500 {
        if app.update(ai_arcade::app::Action::Tick)
            && !app.tabs.waits_for_trainer(TabId::SubtractionNim)
        {
            started = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(started, "the job starts once a place is free");
    assert_eq!(app.message.clone().unwrap().text, TRAINING_STARTED);
    assert!(!screen(&app).contains(WAITING_FOR_TRAINER));
    // Said once: the ticks after it, while the network trains, say nothing of it again.
    for _ in 0..10 {
        app.update(ai_arcade::app::Action::Tick);
    }
    assert_eq!(times_said(&app, TRAINING_STARTED), 1);
}

/// A wait given up (paused) before its job got a trainer, then training resumed with a
/// trainer free at once: no trainer "came free", and nothing says one did (a comparison of
/// waiting before and after the tick took the resumed run for the waiting one starting).
#[test]
fn training_resumed_with_a_trainer_free_at_once_says_none_came_free() {
    let _every_place = EVERY_PLACE.lock().unwrap_or_else(PoisonError::into_inner);
    let (held, releases) = take_every_place();
    let mut config = Config::default();
    config.subtraction.autotrain = false;
    let mut app = App::new(&config, 7);
    app.handle_key(Key::F(1));
    app.handle_key(Key::Char('p'));
    assert!(app.tabs.waits_for_trainer(TabId::SubtractionNim));
    app.update(ai_arcade::app::Action::Tick);
    app.handle_key(Key::Char('p'));
    assert!(!app.tabs.is_training(TabId::SubtractionNim), "paused");
    release_every_place(held, &releases);
    app.handle_key(Key::Char('p'));
    assert!(app.tabs.is_training(TabId::SubtractionNim), "resumed");
    // Another test's job may have taken the places first: then this run waits, and its
    // start is news when it comes.
    if !app.tabs.waits_for_trainer(TabId::SubtractionNim) {
        app.update(ai_arcade::app::Action::Tick);
        assert_eq!(times_said(&app, TRAINING_STARTED), 0, "{:?}", app.message);
    }
}
