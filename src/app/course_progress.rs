//! Where a student is in the built-in course (issue 31 §1): for each lesson, the step they
//! reached and what became of each step. Kept locally as `course.json` in the data dir
//! (written like a model: a versioned envelope, whole or not at all, checked on load, a
//! damaged file set aside as `.broken` by the next save, never overwritten unseen), and on
//! a server in the student's seat with the rest of their session.

use super::journal::{Journal, Origin};
use super::lesson::{LessonProgress, Mark};
use crate::config::Config;
use crate::lesson::MAX_STEPS;
use crate::persist::{ModelFile, Stamp, Store};
use crate::tabkit::tab::Storage;
use crate::tabs::{TabId, Tabs};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The file's name in the data dir.
pub const FILE: &str = "course.json";
const FORMAT: &str = "ai-arcade/course-progress";
const VERSION: u32 = 1;

/// The most lessons a progress file keeps: the course many times over.
pub const MAX_LESSONS: usize = 64;

/// Where a student is with one lesson.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonPlace {
    /// The step reached last (0-based).
    pub step: usize,
    /// What became of each step, in order.
    pub marks: Vec<Mark>,
    /// The last step was reached and done or skipped.
    pub finished: bool,
}

impl LessonPlace {
    /// The place `progress` is at.
    #[must_use]
    pub fn of(progress: &LessonProgress) -> Self {
        Self {
            step: progress.step,
            marks: progress.marks.clone(),
            finished: progress.finished(),
        }
    }

    /// The course list's words: "done", "at step 4 of 9, 3 done", or "not started".
    #[must_use]
    pub fn words(place: Option<&Self>) -> String {
        match place {
            Some(place) if place.finished => {
                let skipped = place.marks.iter().filter(|m| **m == Mark::Skipped).count();
                match skipped {
                    0 => "done".to_owned(),
                    n => format!("done, {n} skipped"),
                }
            }
            Some(place) => {
                let done = place.marks.iter().filter(|m| **m == Mark::Done).count();
                format!(
                    "at step {} of {}, {done} done",
                    place.step + 1,
                    place.marks.len()
                )
            }
            None => "not started".to_owned(),
        }
    }

    fn check(&self, name: &str) -> Result<(), String> {
        if self.marks.is_empty() || self.marks.len() > MAX_STEPS {
            return Err(format!(
                "{name}: {} steps: allowed 1..={MAX_STEPS}",
                self.marks.len()
            ));
        }
        if self.step >= self.marks.len() {
            return Err(format!(
                "{name}: step {} of {}",
                self.step + 1,
                self.marks.len()
            ));
        }
        Ok(())
    }
}

/// Every lesson's place, by the lesson's title.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourseProgress {
    /// The places, by lesson title.
    pub lessons: BTreeMap<String, LessonPlace>,
}

impl CourseProgress {
    /// Checks what the types alone cannot: how many lessons, and each place within its
    /// lesson.
    ///
    /// # Errors
    /// What is out of range, and where.
    pub fn check(&self) -> Result<(), String> {
        if self.lessons.len() > MAX_LESSONS {
            return Err(format!(
                "{} lessons: at most {MAX_LESSONS}",
                self.lessons.len()
            ));
        }
        for (title, place) in &self.lessons {
            if title.chars().count() > crate::lesson::MAX_TITLE_CHARS {
                return Err(format!(
                    "a lesson title of {} characters",
                    title.chars().count()
                ));
            }
            place.check(title)?;
        }
        Ok(())
    }

    /// Keeps where `progress` is (a lesson past [`MAX_LESSONS`] is not kept).
    pub fn note(&mut self, progress: &LessonProgress) {
        let title = &progress.lesson.title;
        if progress.lesson.steps.is_empty()
            || (self.lessons.len() >= MAX_LESSONS && !self.lessons.contains_key(title))
        {
            return;
        }
        self.lessons
            .insert(title.clone(), LessonPlace::of(progress));
    }
}

fn model_file() -> ModelFile<'static> {
    ModelFile {
        name: FILE,
        format: FORMAT,
        version: VERSION,
    }
}

fn usable(progress: CourseProgress) -> Result<CourseProgress, String> {
    progress.check().map(|()| progress)
}

/// The course's progress on this machine, where it is kept, and what went wrong keeping it.
#[derive(Debug, Clone, Default)]
pub struct CourseKeeping {
    /// The places.
    pub progress: CourseProgress,
    /// The data dir (`None`: kept in memory only, as on a server, where the seat keeps it).
    store: Option<Store>,
    /// The file as last read or written, so a save continues it.
    stamp: Option<Stamp>,
    /// Whether a progress file was there when the app started (no: a first launch).
    pub found: bool,
    /// Why the file could not be read or written, said once.
    pub problem: Option<String>,
}

impl CourseKeeping {
    /// Reads the progress kept in `store` (`None`: nothing kept on disk).
    #[must_use]
    pub fn load(store: Option<&Store>) -> Self {
        let mut keeping = Self {
            store: store.cloned(),
            ..Self::default()
        };
        let Some(store) = store else {
            return keeping;
        };
        match store.load(model_file(), usable) {
            Ok(Some(found)) => {
                keeping.progress = found.model;
                keeping.stamp = Some(found.stamp);
                keeping.found = true;
            }
            Ok(None) => {}
            Err(why) => {
                keeping.found = true;
                keeping.problem = Some(format!("{why}: the course starts afresh"));
            }
        }
        keeping
    }

    /// The progress a server kept in the student's seat (`None`: a seat never used, a
    /// first launch); kept in memory, and in the seat with the session.
    #[must_use]
    pub fn kept(progress: Option<CourseProgress>) -> Self {
        let found = progress.is_some();
        let (progress, problem) = match progress.map(|p| p.check().map(|()| p)) {
            None => (CourseProgress::default(), None),
            Some(Ok(progress)) => (progress, None),
            Some(Err(why)) => (
                CourseProgress::default(),
                Some(format!(
                    "Your course progress could not be read ({why}): it starts afresh"
                )),
            ),
        };
        Self {
            progress,
            found,
            problem,
            ..Self::default()
        }
    }

    /// The data dir the progress is kept in, if any.
    #[must_use]
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Writes the progress to the data dir, if there is one.
    ///
    /// # Errors
    /// Why it could not be written, naming the path.
    pub fn save(&mut self) -> Result<(), String> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        std::fs::create_dir_all(store.dir())
            .map_err(|e| format!("{}: {e}", store.dir().display()))?;
        let saved = store
            .save(model_file(), &self.progress, usable, self.stamp)
            .map_err(|e| e.to_string())?;
        self.stamp = Some(saved.stamp);
        self.found = true;
        Ok(())
    }
}

/// The arcade as the student left it to start a lesson of the course: given back whole
/// when they leave the lesson.
pub struct Parked {
    /// Every tab, as it was.
    pub tabs: Tabs,
    /// What they were opened from.
    pub origin: Origin,
    /// Where their models went.
    pub storage: Storage,
    /// Their seed.
    pub seed: u64,
    /// The tab shown.
    pub tab: TabId,
    /// Their journal.
    pub journal: Journal,
}

/// The app's side of the course: the progress, the config lessons are laid over, whether
/// the lesson in force came from the course, and the arcade parked meanwhile.
#[derive(Default)]
pub struct Course {
    /// The progress and where it is kept.
    pub keeping: CourseKeeping,
    /// The config the course's lessons are laid over (`None`: the one the tabs opened
    /// with, when no lesson was laid over it).
    pub base: Option<Arc<Config>>,
    /// The lesson in force was started from the course screen.
    pub running: bool,
    /// The free arcade, while a lesson of the course runs over it.
    pub parked: Option<Box<Parked>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(step: usize, marks: &[Mark], finished: bool) -> LessonPlace {
        LessonPlace {
            step,
            marks: marks.to_vec(),
            finished,
        }
    }

    #[test]
    fn a_place_says_where_the_student_is() {
        use Mark::{Done, Open, Skipped};
        assert_eq!(LessonPlace::words(None), "not started");
        let at = place(3, &[Done, Skipped, Done, Open, Open], false);
        assert_eq!(LessonPlace::words(Some(&at)), "at step 4 of 5, 2 done");
        let done = place(2, &[Done, Done, Done], true);
        assert_eq!(LessonPlace::words(Some(&done)), "done");
        let skipped = place(2, &[Done, Skipped, Done], true);
        assert_eq!(LessonPlace::words(Some(&skipped)), "done, 1 skipped");
    }

    #[test]
    fn progress_is_kept_in_the_data_dir_and_a_damaged_file_is_reported_and_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        let mut keeping = CourseKeeping::load(Some(&store));
        assert!(!keeping.found, "a first launch");
        keeping
            .progress
            .lessons
            .insert("Minimax".into(), place(1, &[Mark::Done, Mark::Open], false));
        keeping.save().unwrap();
        let again = CourseKeeping::load(Some(&store));
        assert!(again.found && again.problem.is_none());
        assert_eq!(again.progress, keeping.progress);

        std::fs::write(dir.path().join(FILE), "{ not json").unwrap();
        let mut damaged = CourseKeeping::load(Some(&store));
        let problem = damaged.problem.clone().expect("a problem");
        assert!(problem.contains("course.json"), "{problem}");
        assert!(damaged.progress.lessons.is_empty());
        damaged.save().unwrap();
        assert!(
            dir.path().join("course.json.broken").exists(),
            "set aside, not overwritten"
        );
    }

    #[test]
    fn a_place_out_of_range_is_refused() {
        let mut progress = CourseProgress::default();
        progress
            .lessons
            .insert("A".into(), place(2, &[Mark::Done, Mark::Open], false));
        assert_eq!(progress.check(), Err("A: step 3 of 2".into()));
        progress.lessons.insert("A".into(), place(0, &[], false));
        assert!(progress.check().unwrap_err().contains("0 steps"));
    }
}
