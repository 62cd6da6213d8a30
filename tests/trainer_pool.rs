//! The process's trainer pool seen from the tabs: with every place taken, a network asked
//! to train waits, says so in the status line and on its progress line, and starts when a
//! place is free. Its own test binary, so no other test's training shares the pool.

use ai_arcade::app::{App, TabId};
use ai_arcade::config::Config;
use ai_arcade::domain::learn::Chunked;
use ai_arcade::tabkit::background::{Job, TrainerPool, WAITING_FOR_TRAINER};
use ai_arcade::tabkit::keymap::Key;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

/// A job that holds its place until released.
struct Hold {
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
        let _ = self.release.recv();
        self.done = true;
    }
}

fn take_every_place() -> (Vec<Job<Hold>>, Vec<Sender<()>>) {
    let pool = TrainerPool::global();
    let mut jobs = Vec::new();
    let mut releases = Vec::new();
    for _ in 0..pool.capacity() {
        let (release, held) = mpsc::channel();
        releases.push(release);
        jobs.push(Job::start(Hold {
            release: held,
            done: false,
        }));
    }
    assert!(jobs.iter().all(|job| !job.is_waiting()));
    (jobs, releases)
}

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| ai_arcade::ui::render(app, f)).unwrap();
    terminal.backend().to_string()
}

#[test]
fn training_waits_for_a_free_trainer_and_says_so() {
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

    for release in &releases {
        release.send(()).unwrap();
    }
    drop(held);
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
    assert_eq!(
        app.message.clone().unwrap().text,
        "A trainer is free: training started"
    );
    assert!(!screen(&app).contains(WAITING_FOR_TRAINER));
}
