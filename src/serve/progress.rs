//! The class's record over time (issue 30 §4): each student's lessons done, graded answers
//! by question and days seen, as `app::progress` describes them. Every server keeps it
//! while it runs; a named class (`--class NAME`) also keeps it in its folder as
//! `progress.json`, written like a model (a versioned envelope, whole or not at all,
//! checked on load; a damaged file is reported, and set aside as `.broken` by the next
//! save, never overwritten unseen), so the teacher's summary spans every sitting.
//!
//! Days are read from the [`Clock`] the settings carry. Writes are bounded: at most one
//! every [`SAVE_EVERY`] while answers come in, and one when a session ends.

use super::clock::Clock;
use crate::app::progress::{ClassProgress, Day, StudentProgress};
use crate::app::room::Graded;
use crate::persist::{ModelFile, Stamp, Store};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The progress file's name in the class's folder.
pub const FILE: &str = "progress.json";
/// The envelope's format name and version.
const FORMAT: &str = "ai-arcade/class-progress";
const VERSION: u32 = 1;

/// The most students a class keeps a record of: a term's class list many times over.
/// A name past it is not recorded (its seat and answers in `results.csv` are kept).
pub const MAX_STUDENTS: usize = 512;

/// The least time between two writes of the file while answers come in.
pub const SAVE_EVERY: Duration = Duration::from_secs(5);

/// What the progress file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgressFile {
    /// The class's name.
    pub class: String,
    /// Every student's record.
    pub students: Vec<StudentProgress>,
}

fn usable(file: ProgressFile) -> Result<ProgressFile, String> {
    if file.students.len() > MAX_STUDENTS {
        return Err(format!(
            "{} students, more than a class keeps ({MAX_STUDENTS})",
            file.students.len()
        ));
    }
    for student in &file.students {
        student.check()?;
    }
    Ok(file)
}

fn model_file() -> ModelFile<'static> {
    ModelFile {
        name: FILE,
        format: FORMAT,
        version: VERSION,
    }
}

/// The records, by the student's name folded to lower case (a seat is found so too).
#[derive(Default)]
struct State {
    students: BTreeMap<String, StudentProgress>,
    /// The stamp of the file as last read or written, so a save continues it.
    stamp: Option<Stamp>,
    /// Something changed since the last write.
    dirty: bool,
    /// When the file was last written (monotonic: only the gap between writes counts).
    saved_at: Option<Instant>,
}

/// The class's records, kept while the server runs and, for a named class, on disk.
pub struct ProgressStore {
    /// The named class and the folder its file is in; `None`: in memory only.
    class: Option<(String, Store)>,
    clock: Clock,
    state: Mutex<State>,
    /// Held while the file is written, so two writes never cross.
    writing: Mutex<()>,
}

impl std::fmt::Debug for ProgressStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgressStore")
            .field("class", &self.class.as_ref().map(|(name, _)| name))
            .finish_non_exhaustive()
    }
}

impl ProgressStore {
    /// A record kept only while the server runs (a class with no name).
    #[must_use]
    pub fn in_memory(clock: Clock) -> Self {
        Self {
            class: None,
            clock,
            state: Mutex::new(State::default()),
            writing: Mutex::new(()),
        }
    }

    /// The record of the class `name`, read from `dir` if it is there. With why the file
    /// there could not be read, if it could not (the class starts a new record, and the
    /// file is set aside at the first write).
    #[must_use]
    pub fn open(dir: &Path, name: &str, clock: Clock) -> (Self, Option<String>) {
        let store = Store::new(dir);
        let mut state = State::default();
        let problem = match store.load(model_file(), usable) {
            Ok(Some(found)) => {
                state.stamp = Some(found.stamp);
                for student in found.model.students {
                    state.students.insert(student.name.to_lowercase(), student);
                }
                None
            }
            Ok(None) => None,
            Err(why) => Some(why.to_string()),
        };
        let progress = Self {
            class: Some((name.to_string(), store)),
            clock,
            state: Mutex::new(state),
            writing: Mutex::new(()),
        };
        (progress, problem)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Changes `name`'s record with `change` (a new record if there is room); writes the
    /// file when `change` says it changed something and the last write is old enough.
    fn change(&self, name: &str, change: impl FnOnce(&mut StudentProgress) -> bool) {
        let mut state = self.lock();
        let key = name.to_lowercase();
        if !state.students.contains_key(&key) && state.students.len() >= MAX_STUDENTS {
            return;
        }
        let record = (state.students.entry(key)).or_insert_with(|| StudentProgress::new(name));
        if !change(record) {
            return;
        }
        state.dirty = true;
        let due = state.saved_at.is_none_or(|at| at.elapsed() >= SAVE_EVERY);
        drop(state);
        if due {
            // A write that fails is tried again at the next change and when the session
            // ends, which says why.
            let _ = self.save();
        }
    }

    /// `name` logged in: today is one of their days.
    pub fn seen(&self, name: &str) {
        let today = Day::of(self.clock.now());
        self.change(name, |record| record.seen(today));
    }

    /// `name` reached the last step of the lesson `title`.
    pub fn lesson_done(&self, name: &str, title: &str) {
        self.change(name, |record| record.lesson_done(title));
    }

    /// `name`'s answer was graded.
    pub fn graded(&self, name: &str, graded: &Graded) {
        self.change(name, |record| {
            record.graded(graded.tab, &graded.question, graded.right);
            true
        });
    }

    /// `name`'s record, if there is one.
    #[must_use]
    pub fn student(&self, name: &str) -> Option<StudentProgress> {
        self.lock().students.get(&name.to_lowercase()).cloned()
    }

    /// The whole class's records, by name.
    #[must_use]
    pub fn class(&self) -> ClassProgress {
        ClassProgress {
            class: self.class.as_ref().map(|(name, _)| name.clone()),
            students: self.lock().students.values().cloned().collect(),
        }
    }

    /// Writes the file if anything changed since the last write (a named class's; a
    /// record in memory has nothing to write).
    ///
    /// # Errors
    /// Why the file could not be written, naming its path.
    pub fn save(&self) -> Result<(), String> {
        let Some((class, store)) = &self.class else {
            return Ok(());
        };
        let _writing = self.writing.lock().unwrap_or_else(PoisonError::into_inner);
        let mut state = self.lock();
        if !state.dirty {
            return Ok(());
        }
        let file = ProgressFile {
            class: class.clone(),
            students: state.students.values().cloned().collect(),
        };
        let continues = state.stamp;
        state.dirty = false;
        state.saved_at = Some(Instant::now());
        drop(state);
        let written = std::fs::create_dir_all(store.dir())
            .map_err(|e| format!("{}: {e}", store.dir().display()))
            .and_then(|()| {
                (store.save(model_file(), &file, usable, continues)).map_err(|e| e.to_string())
            });
        let mut state = self.lock();
        match written {
            Ok(saved) => {
                state.stamp = Some(saved.stamp);
                Ok(())
            }
            Err(why) => {
                state.dirty = true;
                Err(why)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tabs::TabId;
    use std::time::{SystemTime, UNIX_EPOCH};

    fn day(n: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(n * 86_400 + 9 * 3_600)
    }

    fn answer(question: &str, right: bool) -> Graded {
        Graded {
            tab: TabId::TicTacToe,
            question: question.into(),
            answer: "y".into(),
            right,
        }
    }

    #[test]
    fn a_named_class_s_record_is_read_back_by_the_next_server_on_another_day() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Clock::set_to(day(20_000));
        let (first, problem) = ProgressStore::open(dir.path(), "7b", clock.clone());
        assert_eq!(problem, None);
        first.seen("Ada");
        first.graded("ada", &answer("cut-off at X7?", false));
        first.lesson_done("ada", "Alpha-beta");
        first.save().unwrap();
        assert!(dir.path().join(FILE).exists());

        clock.set(day(20_007));
        let (second, problem) = ProgressStore::open(dir.path(), "7b", clock);
        assert_eq!(problem, None);
        second.seen("ADA");
        let ada = second.student("ada").unwrap();
        assert_eq!(ada.name, "Ada", "the name as first seen");
        assert_eq!((ada.days_seen, ada.wrong), (2, 1));
        assert_eq!(ada.lessons_done, ["Alpha-beta"]);
        assert_eq!(ada.last_seen, Some(Day(20_007)));
        let class = second.class();
        assert_eq!(class.class.as_deref(), Some("7b"));
        assert_eq!(class.most_missed()[0].question, "cut-off at X7?");
    }

    #[test]
    fn a_damaged_file_is_reported_and_set_aside_at_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        std::fs::write(&path, b"{\"format\":\"ai-arcade/class-progress\",\"vers").unwrap();
        let (progress, problem) = ProgressStore::open(dir.path(), "7b", Clock::system());
        let problem = problem.expect("reported");
        assert!(
            problem.contains("progress.json") && problem.contains("damaged"),
            "{problem}"
        );
        assert!(progress.class().students.is_empty(), "a new record");
        progress.seen("ada");
        progress.save().unwrap();
        assert!(
            dir.path().join("progress.json.broken").exists(),
            "set aside, not overwritten"
        );
        let (again, problem) = ProgressStore::open(dir.path(), "7b", Clock::system());
        assert_eq!(problem, None);
        assert!(again.student("ada").is_some());
    }

    #[test]
    fn a_file_past_the_bounds_is_refused_and_a_class_keeps_at_most_so_many_students() {
        let dir = tempfile::tempdir().unwrap();
        let (progress, _) = ProgressStore::open(dir.path(), "7b", Clock::system());
        for n in 0..MAX_STUDENTS + 3 {
            progress.seen(&format!("s{n}"));
        }
        assert_eq!(progress.class().students.len(), MAX_STUDENTS);
        assert!(progress.student(&format!("s{MAX_STUDENTS}")).is_none());

        let mut students = progress.class().students;
        students.push(StudentProgress::new("one too many"));
        let file = ProgressFile {
            class: "7b".into(),
            students,
        };
        let store = Store::new(dir.path());
        std::fs::write(
            store.path(FILE),
            serde_json::to_vec(&serde_json::json!({
                "format": FORMAT, "version": VERSION, "payload": file
            }))
            .unwrap(),
        )
        .unwrap();
        let (_, problem) = ProgressStore::open(dir.path(), "7b", Clock::system());
        assert!(problem.unwrap().contains("513 students"));
    }

    #[test]
    fn a_class_with_no_name_writes_nothing() {
        let progress = ProgressStore::in_memory(Clock::set_to(day(3)));
        progress.seen("ada");
        progress.save().unwrap();
        assert_eq!(progress.student("ada").unwrap().first_seen, Some(Day(3)));
        assert_eq!(progress.class().class, None);
    }
}
