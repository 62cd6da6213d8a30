//! The arcade of one session, on a thread of its own: the local TUI's event loop with its
//! own `App` (a teacher's opens on the room, a student's takes a seat in it), fed the
//! parsed input and drawing through a [`SessionBackend`] at the client's window size; the
//! session's start and end logged, and the client's terminal restored however it ends.

use super::link::ClientLink;
use super::plumbing::lock;
use super::who::{Login, Via};
use crate::app::App;
use crate::app::course_progress::CourseKeeping;
use crate::app::room::Setup;
use crate::serve::limits::Slot;
use crate::serve::shared::Shared;
use crate::serve::terminal::{FrameSink, SessionBackend, SharedSize};
use crate::shell::budget::CpuBudget;
use crate::shell::{self, Ending, LoopEvent};
use ratatui::Terminal;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use tracing::info;

/// What a player reads when a drain ends their session.
pub const RESTARTING: &str = "ai-arcade: the server is restarting; reconnect to continue.";

/// How long a student who takes their place back waits for the session they left to end
/// and park it (it is on another thread; it ends at its next wake-up, in milliseconds).
const TAKE_OVER_WAIT: Duration = Duration::from_secs(5);

/// Who a session is, for its log lines.
pub(super) struct SessionInfo {
    pub(super) peer: SocketAddr,
    pub(super) login: Login,
    pub(super) term: String,
    /// How the client came in.
    pub(super) door: crate::app::room::Door,
}

/// Where a session sits in the class, held while it runs.
enum Place {
    /// The teacher's: woken at every change of the room.
    Teacher(crate::serve::room::WatchHandle),
    /// A student's seat, and the name it has in the class.
    Student(Arc<crate::serve::room::SeatHandle>, String),
}

/// What the arcade's thread needs.
pub(super) struct Arcade {
    pub(super) shared: Arc<Shared>,
    pub(super) info: SessionInfo,
    pub(super) size: Arc<SharedSize>,
    pub(super) color: bool,
    /// The way back to the client.
    pub(super) link: Arc<dyn ClientLink>,
    pub(super) ended: Arc<Notify>,
    /// Held while the arcade runs: dropping it frees the place for the next client.
    pub(super) slot: Slot,
    /// Wakes the arcade's loop (a teacher's, when the room changes).
    pub(super) wake: flume::Sender<LoopEvent>,
    /// When the session last showed signs of life (a key, a frame drawn), for the idle
    /// timer.
    pub(super) activity: Arc<Mutex<Instant>>,
    /// The session's share of the processor (see [`shell::budget`]).
    pub(super) budget: std::cell::RefCell<CpuBudget>,
}

impl Arcade {
    /// Runs the arcade until it ends, logs the start and the end, and closes the channel.
    pub(super) fn run(self, events: &flume::Receiver<LoopEvent>) {
        let started = Instant::now();
        let size = self.size.get();
        let info = &self.info;
        self.shared.log(|| {
            info!(
                event = "session start",
                addr = %info.peer,
                user = info.login.name.as_str(),
                via = %info.login.via_name(),
                key = info.login.key().map(tracing::field::display),
                term = info.term.as_str(),
                size = %format_args!("{}x{}", size.width, size.height),
                sessions = self.shared.slots.used(),
                door = %info.door.word()
            );
        });
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
        self.link.close();
        self.ended.notify_one();
        let size = self.size.get();
        drop(self.slot);
        self.shared.log(|| {
            info!(
                event = "session end",
                addr = %info.peer,
                user = info.login.name.as_str(),
                via = %info.login.via_name(),
                key = info.login.key().map(tracing::field::display),
                term = info.term.as_str(),
                size = %format_args!("{}x{}", size.width, size.height),
                duration = %format_args!("{:.1}s", started.elapsed().as_secs_f64()),
                cpu_rests = self.budget.borrow().rests(),
                flooding = self.budget.borrow().demoted(),
                keys_dropped = self.budget.borrow().dropped(),
                reason = reason.as_str(),
                door = %info.door.word()
            );
        });
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
        let _ = self.link.send(restore);
    }

    /// A new app for this session: `setup`'s config and lesson (the one in force when
    /// `None`) with the server's models, opened from `seed` (a session kept on disk) or a
    /// seed of its own.
    fn fresh_app(&self, setup: Option<Setup>, seed: Option<u64>) -> App {
        let shared = &self.shared;
        let setup = setup.unwrap_or_else(|| shared.current().setup().clone());
        // The lesson's seed (the flag's, over it): every screen of a class the same.
        let seed =
            (seed.or(setup.config.seed).or(shared.seed)).unwrap_or_else(|| shared.session_seed());
        App::in_class(&setup.config, seed, setup.lesson, &shared.models)
    }

    /// What a student who ran `lesson` comes back to: that lesson of the course (their
    /// place, though the class may have moved on), or without a lesson the config, when
    /// the server runs none either. `None`: the server no longer runs it.
    fn setup_of(&self, lesson: Option<&str>) -> Option<Setup> {
        let current = self.shared.current();
        match lesson {
            Some(title) => current.lesson_titled(title).cloned(),
            None => current.lesson().is_none().then(|| current.setup().clone()),
        }
    }

    /// The teacher's app: the one they left if the room kept it, else a new one; it opens
    /// on the room, and the students freed when a teacher left follow it again.
    fn teacher_app(&self) -> (App, Place) {
        let shared = &self.shared;
        let name = &self.info.login.name;
        let mut app = match shared.room.teacher_back(name) {
            Some(app) => {
                let mut app = *app;
                app.welcome_back(name);
                app
            }
            None => self.fresh_app(None, None),
        };
        app.become_teacher(Arc::clone(&shared.room) as Arc<dyn crate::app::room::Room>);
        // The teacher's loop is woken at every change of the room, so the view is never a
        // second behind.
        let watch = shared.room.watch(self.wake.clone());
        shared.room.lead_again(&app.position());
        (app, Place::Teacher(watch))
    }

    /// A student's app: back in their seat with the app they left (or, when it was let
    /// go, at their lesson step), else new in a seat of their own.
    fn student_app(&self) -> (App, Place) {
        let shared = &self.shared;
        let login = &self.info.login.name;
        let took_over = self.info.login.takes_over && shared.room.take_over(login, TAKE_OVER_WAIT);
        let arrival = shared.room.arrive(
            login,
            shared.current().config().ui.start_tab,
            Some(self.wake.clone()),
        );
        // The course's progress kept in the seat, for an app made afresh.
        let course = (arrival.saved.as_ref().map(|saved| saved.course.clone()))
            .or_else(|| arrival.back.then(Default::default));
        let mut app = if let Some(app) = arrival.app {
            let mut app = *app;
            app.welcome_back(&arrival.name);
            app
        } else if let Some((setup, saved)) =
            (arrival.saved).and_then(|saved| Some((self.setup_of(saved.lesson.as_deref())?, saved)))
        {
            // The server restarted: the session kept on disk is replayed on a fresh app.
            let mut app = self.fresh_app(Some(setup), Some(saved.seed));
            if let Err(why) = app.restore(&saved) {
                app.say(crate::app::Message::error(format!(
                    "Welcome back: your place was kept, but not all of it came back ({why})"
                )));
            }
            app
        } else {
            let lesson = arrival.whereabouts.lesson.as_deref();
            let back_on = (self.setup_of(lesson)).filter(|_| arrival.back && lesson.is_some());
            let step = arrival.whereabouts.step.filter(|_| back_on.is_some());
            let mut app = self.fresh_app(back_on, None);
            if let Some((step, _)) = step {
                app.resume_at_step(step);
            }
            if let Some(why) = &arrival.unreadable {
                app.say(crate::app::Message::error(format!(
                    "Your place could not be read, so you start afresh: {why}"
                )));
            }
            app
        };
        if app.course.base.is_none() {
            let base = self.shared.current().config().clone();
            app.keep_course(CourseKeeping::kept(course), &base);
        }
        if took_over {
            app.say(crate::app::Message::info(format!(
                "Welcome back, {login}: your other connection was ended and its place is here"
            )));
        } else if arrival.name != *login {
            let asked = if self.info.login.takes_over {
                Asked::SaidYes
            } else if self.info.login.via == super::who::Via::ClassCode {
                Asked::SaidNo
            } else {
                Asked::Never
            };
            app.say(crate::app::Message::info(renamed_words(
                login,
                &arrival.name,
                asked,
            )));
        }
        if let Some(collector) = &shared.collector {
            app.collect = Some(Arc::new(collector.student(&arrival.name)));
        }
        arrival.seat.came_by(self.info.door);
        let seat = Arc::new(arrival.seat);
        app.seat = Some(Arc::clone(&seat) as Arc<dyn crate::app::room::SeatReport>);
        // The teacher's orders given while the student was away, then the room shows
        // where the student is before their first key.
        app.take_orders();
        app.report_seat();
        (app, Place::Student(seat, arrival.name))
    }

    /// The local TUI's loop, with this session's app, input and screen. When it ends the
    /// app is kept in the room for the student's (or teacher's) return.
    fn play(&self, events: &flume::Receiver<LoopEvent>) -> io::Result<Ending> {
        let shared = &self.shared;
        let (mut app, place) = if matches!(self.info.login.via, Via::Teacher(_)) {
            self.teacher_app()
        } else {
            self.student_app()
        };
        app.color = self.color;
        app.door = self.info.door;
        if app.door == crate::app::room::Door::Web {
            let link = super::link::PageDownload(Arc::clone(&self.link));
            app.download = Some(Arc::new(link));
        }
        let ending = self.run_loop(&mut app, events, &place);
        app.leave_class();
        match place {
            Place::Teacher(watch) => {
                drop(watch);
                shared.room.teacher_left(&self.info.login.name, app);
            }
            Place::Student(seat, name) => {
                if let Err(why) = seat.park(app) {
                    let info = &self.info;
                    shared.log(|| {
                        info!(
                            event = "seat not kept",
                            addr = %info.peer,
                            user = name.as_str(),
                            "{why}"
                        );
                    });
                }
            }
        }
        ending
    }

    /// Draws `app` on the client's terminal and runs it until it ends.
    fn run_loop(
        &self,
        app: &mut App,
        events: &flume::Receiver<LoopEvent>,
        place: &Place,
    ) -> io::Result<Ending> {
        let shared = &self.shared;
        let current = shared.current();
        let activity = Arc::clone(&self.activity);
        let link = Arc::clone(&self.link);
        let sink: FrameSink = Box::new(move |frame| {
            // A screen that changes is watched, not idle: a student following a
            // demonstration is not dropped for not typing (issue 30 §1).
            *lock(&activity) = Instant::now();
            link.send(frame)
        });
        let mut backend =
            SessionBackend::new(sink, Arc::clone(&self.size), current.config().ui.mouse);
        backend.enter()?;
        let mut terminal = Terminal::new(backend)?;
        terminal.clear()?;
        // The teacher, whose key says who they are, runs unbudgeted: their room redraws
        // at every student's change.
        let mut budget = self.budget.borrow_mut();
        let budget = match place {
            Place::Student(..) => Some(&mut *budget),
            Place::Teacher(_) => None,
        };
        let ending = shell::event_loop(&mut terminal, app, events, budget)?;
        // A server that drains ends too, whatever ended this session (a quit, idling).
        let server_stops = matches!(ending, Ending::Signal(_)) || shared.is_draining();
        let kept = !server_stops || shared.settings.seats.is_some();
        let why = match &ending {
            Ending::InputClosed(why) if why.starts_with("idle") => Some(format!(
                "ai-arcade: closed after {}.",
                why.replace("idle for", "being idle for")
            )),
            // "Reconnect to continue" only where there is a place to continue from.
            Ending::Signal(_) if shared.is_draining() && kept => Some(RESTARTING.to_string()),
            Ending::Signal(_) if shared.is_draining() => {
                Some("ai-arcade: the server is restarting.".to_string())
            }
            Ending::Signal(_) => Some("ai-arcade: the server is shutting down.".to_string()),
            _ => None,
        };
        let student = match place {
            Place::Student(_, name) => Some(name.as_str()),
            Place::Teacher(_) => None,
        };
        let farewell = farewell(why, student.map(|name| (name, kept)), self.info.door);
        // A client that is gone cannot be restored; that is not an error of the session.
        let _ = terminal.backend_mut().leave(farewell.as_deref());
        Ok(ending)
    }
}

/// The last lines a session's client sees: why it ended, if not by the student's own
/// quit, and for a student (`name`, and whether the place outlives the server) how to
/// carry on. A place is kept in memory while the server runs, and on disk across its
/// restarts only with a data dir: a student is not sent back to a place that is gone.
fn farewell(
    why: Option<String>,
    student: Option<(&str, bool)>,
    door: crate::app::room::Door,
) -> Option<String> {
    let again = match door {
        crate::app::room::Door::Ssh => "log in again",
        crate::app::room::Door::Web => "reload the page and log in",
    };
    let next = student.map(|(name, kept)| {
        if kept {
            format!("ai-arcade: your place is kept: {again} as {name} to carry on.")
        } else {
            "ai-arcade: this server keeps no places once it stops.".to_string()
        }
    });
    match (why, next) {
        (Some(why), Some(next)) => Some(format!("{why}\r\n{next}")),
        (why, next) => why.or(next),
    }
}

/// What a student logging in under a name in use was asked about the other session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// Nothing (an open server, or a key): the name was simply taken.
    Never,
    /// Whether it was theirs: no.
    SaidNo,
    /// Whether it was theirs: yes, but it did not end in time.
    SaidYes,
}

/// Why a student came in under `name` and not `login`: one line at 80 columns for names
/// of a usual length.
fn renamed_words(login: &str, name: &str, asked: Asked) -> String {
    match asked {
        Asked::SaidNo => format!("{login} goes on in the other session, so you are {name}"),
        Asked::SaidYes => {
            format!("{login} did not close in time, so you are {name}; log in again to take over")
        }
        Asked::Never => format!(
            "{login} is in use, so you are {name}. If that {login} was you, log in again in 2 min"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server stopping without a data dir has no place to send the student back to.
    #[test]
    fn the_farewell_promises_a_place_only_where_one_is_kept() {
        use crate::app::room::Door;
        let stopping = || Some("ai-arcade: the server is shutting down.".to_string());
        let gone = farewell(stopping(), Some(("ada", false)), Door::Ssh).unwrap();
        assert!(!gone.contains("kept: log in"), "{gone}");
        assert!(gone.contains("keeps no places"), "{gone}");
        let kept = farewell(stopping(), Some(("ada", true)), Door::Web).unwrap();
        assert!(
            kept.ends_with("your place is kept: reload the page and log in as ada to carry on."),
            "{kept}"
        );
        assert_eq!(farewell(None, None, Door::Ssh), None);
        assert_eq!(
            farewell(stopping(), None, Door::Ssh),
            stopping(),
            "a teacher is told why only"
        );
    }

    /// A student who said yes to the take-over, when the other session did not end, is
    /// not told it "goes on" as if they had said no.
    #[test]
    fn a_take_over_that_failed_is_told_apart_from_one_declined() {
        let failed = renamed_words("ada", "ada-2", Asked::SaidYes);
        assert!(failed.contains("did not close in time"), "{failed}");
        assert!(!failed.contains("goes on"), "{failed}");
        assert!(renamed_words("ada", "ada-2", Asked::SaidNo).contains("goes on"));
        for asked in [Asked::SaidNo, Asked::SaidYes] {
            let words = renamed_words("sophie", "sophie-2", asked);
            assert!(words.chars().count() <= 80, "{words}");
        }
        let words = renamed_words("ada", "ada-2", Asked::Never);
        assert!(words.chars().count() <= 80, "{words}");
    }
}
