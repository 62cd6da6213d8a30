//! The course screen ("Start here", issue 31 §1): the built-in lessons as a list with the
//! student's progress in each, opened by `H` from every tab and on a first launch. Enter
//! starts the lesson under the cursor, where the student left it; the arcade they were
//! playing is parked meanwhile and given back whole by the list's last row. Where the
//! student is gets kept as they go: in the data dir, or on a server in their seat.

use super::course_progress::{CourseKeeping, LessonPlace, Parked};
use super::journal::Origin;
use super::{App, Message, Overlay};
use crate::config::Config;
use crate::lesson::Lesson;
use crate::lesson::builtin::BUILT_IN;
use crate::tabkit::tab::Storage;
use crate::tabs::Models;
use std::sync::{Arc, OnceLock};

/// What the course screen says first: what the arcade is.
pub const WHAT_IT_IS: &str = "Play small classic games against AIs that search and learn, \
     and look inside them while they play. Each lesson is a few steps: do what a step says, \
     then ] for the next.";

/// One row of the course screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CourseRow {
    /// Its number in the course (1-based), or `None` for the row back to the arcade.
    pub number: Option<usize>,
    /// What the lesson teaches (its title), or where the row goes.
    pub title: String,
    /// About how long it takes, in minutes.
    pub minutes: Option<u32>,
    /// The student's progress: "not started", "at step 4 of 9, 3 done", "done".
    pub progress: String,
}

/// The built-in lessons, read once with the default config (for their titles, minutes,
/// tabs and steps; a lesson started is read again over the student's config). One that
/// does not read is `None`: every lesson that ships is checked by a test.
pub(super) fn built_in_lessons() -> &'static [Option<Lesson>] {
    static LESSONS: OnceLock<Vec<Option<Lesson>>> = OnceLock::new();
    LESSONS.get_or_init(|| {
        BUILT_IN
            .iter()
            .map(|built_in| {
                built_in
                    .load(&Config::default())
                    .ok()
                    .map(|(lesson, _)| lesson)
            })
            .collect()
    })
}

impl App {
    /// Takes the course's progress as `keeping` read it, and `base`, the config the course's
    /// lessons are laid over. A first launch (no progress kept yet, no lesson running)
    /// opens the course screen; a server's session does not (its footer names `H`): the
    /// screen a student gets on logging in is the class's.
    pub fn keep_course(&mut self, keeping: CourseKeeping, base: &Config) {
        if let Some(problem) = &keeping.problem {
            self.say(Message::error(problem.clone()));
        }
        let first_launch = !keeping.found && self.lesson.is_none() && !self.served();
        self.course.keeping = keeping;
        self.course.base = Some(Arc::new(base.clone()));
        if first_launch {
            self.overlays.open(Overlay::Course(0));
            self.say(Message::info(
                "Welcome! Enter starts the first lesson; Esc goes straight to the games",
            ));
            // Shown once: the next launch opens on the arcade (H brings it back).
            self.save_course();
        }
    }

    /// The rows of the course screen: each built-in lesson, then the way back to the
    /// arcade while a lesson of the course runs over it.
    #[must_use]
    pub fn course_rows(&self) -> Vec<CourseRow> {
        let places = &self.course.keeping.progress.lessons;
        let mut rows: Vec<CourseRow> = (built_in_lessons().iter().enumerate())
            .map(|(at, lesson)| {
                let (title, minutes) = lesson.as_ref().map_or_else(
                    || (BUILT_IN[at].name.to_owned(), None),
                    |lesson| (lesson.title.clone(), lesson.minutes),
                );
                let progress = LessonPlace::words(places.get(&title));
                CourseRow {
                    number: Some(at + 1),
                    title,
                    minutes,
                    progress,
                }
            })
            .collect();
        if self.course.running {
            rows.push(CourseRow {
                number: None,
                title: "Leave the lesson: back to the arcade".to_owned(),
                minutes: None,
                progress: String::new(),
            });
        }
        rows
    }

    /// `H`: opens the course screen, or closes it.
    pub(super) fn toggle_course(&mut self) {
        if matches!(self.overlays.top(), Some(Overlay::Course(_))) {
            self.overlays.close();
        } else {
            self.open_course();
        }
    }

    /// Opens the course screen, its cursor on the first lesson not done.
    pub fn open_course(&mut self) {
        let places = &self.course.keeping.progress.lessons;
        let first_open = (built_in_lessons().iter())
            .position(|lesson| {
                lesson.as_ref().is_some_and(|lesson| {
                    !places
                        .get(&lesson.title)
                        .is_some_and(|place| place.finished)
                })
            })
            .unwrap_or(0);
        self.overlays.open(Overlay::Course(first_open));
    }

    /// Moves the course screen's cursor `by` rows, within the list.
    pub(super) fn course_move(&mut self, by: i16) {
        let last = self.course_rows().len().saturating_sub(1);
        if let Some(Overlay::Course(cursor)) = self.overlays.top_mut() {
            *cursor = cursor.saturating_add_signed(by.into()).min(last);
        }
    }

    /// Enter on the course screen: starts the lesson under the cursor, or leaves the lesson
    /// for the arcade.
    pub(super) fn course_start(&mut self) {
        let Some(&Overlay::Course(cursor)) = self.overlays.top() else {
            return;
        };
        if let Some(why) = self.course_refused() {
            self.say(Message::error(why));
            return;
        }
        self.overlays.close();
        if cursor >= BUILT_IN.len() {
            self.leave_course_lesson();
        } else {
            self.start_course_lesson(cursor);
        }
    }

    /// Why the course cannot start a lesson here: a class's lesson or a teacher's room.
    fn course_refused(&self) -> Option<&'static str> {
        if self.room.is_some() {
            return Some("The room runs the class's lesson: the course is for students alone");
        }
        if self.following.is_some() {
            return Some("Following the teacher: the course waits until you are released");
        }
        (self.seat.is_some() && self.lesson.is_some() && !self.course.running)
            .then_some("Your class runs its own lesson: the course is there after class")
    }

    /// Starts the course's lesson `at` (0-based), its learners fresh, from the step the
    /// student reached last (through the step's checkpoint), or afresh once done.
    fn start_course_lesson(&mut self, at: usize) {
        let base = self.course_base();
        let (lesson, config) = match BUILT_IN[at].load(&base) {
            Ok(loaded) => loaded,
            Err(error) => {
                self.say(Message::error(error.to_string()));
                return;
            }
        };
        if !self.course.running {
            self.park();
        }
        let seed = config.seed.unwrap_or(self.seed);
        // Fresh learners, as every lesson's; nothing written (a server's session keeps
        // being a server's).
        let storage = if self.served() {
            Storage::SharedServer
        } else {
            Storage::Lesson
        };
        self.origin = Origin {
            config: Arc::new(config),
            models: Models::default(),
            store: None,
            storage,
        };
        self.storage = storage;
        self.lesson = None;
        self.reopen(seed);
        let place = (self.course.keeping.progress.lessons.get(&lesson.title))
            .filter(|place| !place.finished && place.marks.len() == lesson.steps.len())
            .cloned();
        self.start_lesson(Arc::new(lesson));
        self.course.running = true;
        if let Some(place) = place.filter(|place| place.step > 0) {
            self.resume_course_lesson(&place);
        }
        self.note_course();
    }

    /// Puts the lesson just started back where the student can go on from `place`: at the
    /// last checkpoint at or before the step they reached (its keys pressed, so the board
    /// is as the step expects), else at the first step, every step's mark kept.
    fn resume_course_lesson(&mut self, place: &LessonPlace) {
        let Some(progress) = self.lesson.as_mut() else {
            return;
        };
        let steps = &progress.lesson.steps;
        let at = (0..=place.step.min(steps.len().saturating_sub(1)))
            .rev()
            .find(|&at| steps[at].checkpoint.is_some());
        if let Some(at) = at {
            progress.step = at;
            self.reset_to_checkpoint();
        }
        let Some(progress) = self.lesson.as_mut() else {
            return;
        };
        progress.marks.clone_from(&place.marks);
        let done = progress.done();
        let total = progress.lesson.steps.len();
        let words = match at {
            Some(at) => format!(
                "Welcome back: step {} of {total} (you reached {}), {done} done",
                at + 1,
                place.step + 1
            ),
            None => format!(
                "Welcome back: the lesson starts again from step 1 (you reached {}), {done} \
                 done",
                place.step + 1
            ),
        };
        self.say(Message::info(words));
    }

    /// The config the course's lessons are laid over.
    fn course_base(&self) -> Arc<Config> {
        (self.course.base.clone()).unwrap_or_else(|| Arc::clone(&self.origin.config))
    }

    /// Keeps the arcade as it is, to give it back when the lesson is left.
    fn park(&mut self) {
        let origin = self.origin.clone();
        let tabs = std::mem::replace(
            &mut self.tabs,
            crate::tabs::Tabs::open(
                &origin.config,
                self.seed,
                Models::default(),
                None,
                Storage::Nowhere,
            )
            .0,
        );
        self.course.parked = Some(Box::new(Parked {
            tabs,
            origin,
            storage: self.storage,
            seed: self.seed,
            tab: self.tab,
            journal: std::mem::take(&mut self.journal),
        }));
    }

    /// Ends the course's lesson: the arcade comes back as it was left, or, with nothing
    /// parked (the app started on a lesson), opens afresh on the course's config.
    fn leave_course_lesson(&mut self) {
        self.note_course();
        self.lesson = None;
        self.course.running = false;
        if let Some(parked) = self.course.parked.take() {
            let parked = *parked;
            self.tabs = parked.tabs;
            self.origin = parked.origin;
            self.storage = parked.storage;
            self.seed = parked.seed;
            self.journal = parked.journal;
            self.show_tab(parked.tab);
        } else {
            // The app started on the lesson (`ai-arcade learn`): the arcade opens as a
            // plain launch would, with the data dir's models.
            let base = self.course_base();
            let store = self.course.keeping.store().cloned();
            let (models, storage) = store.as_ref().map_or_else(
                || (Models::default(), Storage::Nowhere),
                |store| (Models::load(&base, store), Storage::DataDir),
            );
            self.origin = Origin {
                config: base,
                models,
                store,
                storage,
            };
            self.storage = storage;
            self.reopen(self.seed);
        }
        self.say(Message::info(
            "Back in the arcade: H opens the course again",
        ));
    }

    /// Keeps where the student is in the lesson in force, and writes it down (said once
    /// when it cannot be).
    pub(super) fn note_course(&mut self) {
        let Some(progress) = &self.lesson else {
            return;
        };
        let before = self.course.keeping.progress.clone();
        self.course.keeping.progress.note(progress);
        if self.course.keeping.progress != before {
            self.save_course();
        }
    }

    /// Writes the course's progress down (said once when it cannot be).
    fn save_course(&mut self) {
        if let Err(why) = self.course.keeping.save() {
            if self.course.keeping.problem.is_none() {
                self.say(Message::error(format!(
                    "The course's progress is not kept: {why}"
                )));
            }
            self.course.keeping.problem = Some(why);
        }
    }
}
