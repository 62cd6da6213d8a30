//! The teacher's collect folder (`serve --collect DIR`): a served student's exports (the
//! search tree as DOT, curves as CSV) go into a subfolder named after the student, every
//! graded prediction into that subfolder's `predictions.csv`, and one row per student and
//! question into `DIR/results.csv`. Nothing else on the server is written.
//!
//! A stranger's name becomes a folder name, so it is made safe (letters, digits, `-`, `_`
//! and `.` kept, the rest `_`, never `.` or `..` nor a leading `-` that a teacher's `tar`
//! or `rm` would read as an option, a short hash added when anything was changed so two
//! names never share a folder), and every file and row is bounded: exports per student
//! (counted over all their sessions, and what their folder held before), bytes per
//! student and bytes per class. An export's file name is reserved (created new) before it
//! is written, so two sessions never write over each other's.

use crate::app::room::{Collect, Graded};
use crate::persist::write_whole;
use crate::serve::clock::Clock;
use std::collections::HashMap;
use std::fs::OpenOptions;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The most exports one student keeps; later ones are refused with a message.
pub const MAX_EXPORTS: u32 = 100;
/// The largest export kept (a whole search tree of tic-tac-toe as DOT is ~20 MB).
pub const MAX_EXPORT_BYTES: usize = 32 * 1024 * 1024;
/// The most bytes of exports one student keeps (a DOT of tic-tac-toe's whole minimax tree
/// from the empty board is 4.9 MB).
pub const MAX_STUDENT_BYTES: u64 = 64 * 1024 * 1024;
/// The most bytes of exports the whole collect folder keeps.
pub const MAX_CLASS_BYTES: u64 = 1024 * 1024 * 1024;
/// Entries read at most when the folder is opened, to count what it holds already.
const MAX_ENTRIES_READ: usize = 100_000;
/// The most graded predictions kept per student.
pub const MAX_GRADED: u32 = 5_000;
/// The class's results, one row per student and question.
pub const RESULTS_FILE: &str = "results.csv";
/// A student's graded predictions.
pub const PREDICTIONS_FILE: &str = "predictions.csv";

const HEADER: [&str; 6] = ["time", "student", "tab", "question", "answer", "right"];

/// The collect folder of a server.
#[derive(Debug)]
pub struct Collector {
    dir: PathBuf,
    /// What stamps a graded answer's time.
    clock: Clock,
    /// Held while a row is written, so rows of two sessions never interleave.
    writing: Mutex<()>,
    /// What the folder keeps, by student and in all.
    kept: Mutex<Kept>,
    /// The most bytes of exports kept for one student, and for the class.
    bounds: (u64, u64),
    /// The last bound a student's export reached, for the teacher's room.
    note: Mutex<Option<String>>,
}

/// A bound an export would cross.
#[derive(Debug, Clone, Copy)]
enum Bound {
    /// [`MAX_EXPORTS`] kept already.
    Exports,
    /// The student's exports would pass this many bytes.
    StudentBytes(u64),
    /// The class's exports would pass this many bytes.
    ClassBytes(u64),
}

impl Bound {
    /// In words, of the student's exports as `whose` ("your", "ada's").
    fn words(self, whose: &str) -> String {
        match self {
            Self::Exports => format!("{MAX_EXPORTS} of {whose} exports kept already"),
            Self::StudentBytes(bound) => format!(
                "{whose} exports would pass {}, the most kept for one student",
                megabytes(bound)
            ),
            Self::ClassBytes(bound) => format!(
                "the class's exports would pass {}, the most kept for a class",
                megabytes(bound)
            ),
        }
    }
}

/// Exports kept: each student's (by folder name) and the class's bytes.
#[derive(Debug, Default)]
struct Kept {
    students: HashMap<String, Usage>,
    class_bytes: u64,
}

/// One student's exports: how many, and their bytes.
#[derive(Debug, Default, Clone, Copy)]
struct Usage {
    exports: u32,
    bytes: u64,
}

/// What `dir` holds: its files and their bytes, over at most `budget` entries (counted
/// down), one level down at most.
fn usage_of(dir: &Path, depth: u32, budget: &mut usize) -> Usage {
    let mut usage = Usage::default();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return usage;
    };
    for entry in entries.flatten() {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_file() {
            usage.exports = usage.exports.saturating_add(1);
            usage.bytes = usage.bytes.saturating_add(meta.len());
        } else if meta.is_dir() && depth > 0 {
            let inner = usage_of(&entry.path(), depth - 1, budget);
            usage.bytes = usage.bytes.saturating_add(inner.bytes);
        }
    }
    usage
}

impl Collector {
    /// The folder `dir`, made if missing, with the results file begun; rows are stamped
    /// with `clock`'s time.
    ///
    /// # Errors
    /// Why the folder cannot be used.
    pub fn open(dir: &Path, clock: Clock) -> Result<Arc<Self>, String> {
        Self::open_bounded(dir, clock, (MAX_STUDENT_BYTES, MAX_CLASS_BYTES))
    }

    /// [`Collector::open`] with other bounds on the bytes kept for a student and a class.
    ///
    /// # Errors
    /// Why the folder cannot be used.
    pub fn open_bounded(dir: &Path, clock: Clock, bounds: (u64, u64)) -> Result<Arc<Self>, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut budget = MAX_ENTRIES_READ;
        let class_bytes = usage_of(dir, 1, &mut budget).bytes;
        let collector = Self {
            dir: dir.to_path_buf(),
            clock,
            writing: Mutex::new(()),
            kept: Mutex::new(Kept {
                students: HashMap::new(),
                class_bytes,
            }),
            bounds,
            note: Mutex::new(None),
        };
        collector
            .append(&dir.join(RESULTS_FILE), None)
            .map_err(|e| format!("{}: {e}", dir.join(RESULTS_FILE).display()))?;
        Ok(Arc::new(collector))
    }

    /// Where `name`'s work goes.
    pub fn student(self: &Arc<Self>, name: &str) -> StudentFolder {
        let key = folder_name(name);
        StudentFolder {
            collector: Arc::clone(self),
            name: name.to_string(),
            folder: self.dir.join(&key),
            key,
            graded: AtomicU32::new(0),
        }
    }

    /// The last bound a student's export reached, in words for the teacher.
    pub fn note(&self) -> Option<String> {
        self.note
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Counts an export of `bytes` for the student of folder `key`, or says which bound
    /// it would cross (to the student, "your exports"). A student counts the exports their
    /// folder held when first seen: logging in again, or twice at once, does not buy more
    /// room.
    fn reserve(&self, key: &str, bytes: u64) -> Result<(), Bound> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let folder = self.dir.join(key);
        let Kept {
            students,
            class_bytes,
        } = &mut *kept;
        let usage = students.entry(key.to_string()).or_insert_with(|| {
            let mut budget = MAX_ENTRIES_READ;
            usage_of(&folder, 0, &mut budget)
        });
        let (per_student, per_class) = self.bounds;
        if usage.exports >= MAX_EXPORTS {
            return Err(Bound::Exports);
        }
        if usage.bytes + bytes > per_student {
            return Err(Bound::StudentBytes(per_student));
        }
        if *class_bytes + bytes > per_class {
            return Err(Bound::ClassBytes(per_class));
        }
        usage.exports += 1;
        usage.bytes += bytes;
        *class_bytes += bytes;
        Ok(())
    }

    /// Gives back what [`Collector::reserve`] counted for an export that was not written.
    fn release(&self, key: &str, bytes: u64) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.class_bytes = kept.class_bytes.saturating_sub(bytes);
        if let Some(usage) = kept.students.get_mut(key) {
            usage.exports = usage.exports.saturating_sub(1);
            usage.bytes = usage.bytes.saturating_sub(bytes);
        }
    }

    /// Appends `row` (or nothing) to the CSV at `path`, writing the header first when the
    /// file is new.
    fn append(&self, path: &Path, row: Option<&[String; 6]>) -> std::io::Result<()> {
        let _writing = self.writing.lock().unwrap_or_else(PoisonError::into_inner);
        let new = !path.exists();
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let mut csv = csv::Writer::from_writer(file);
        if new {
            csv.write_record(HEADER)?;
        }
        if let Some(row) = row {
            csv.write_record(row)?;
        }
        csv.flush()
    }
}

/// One student's subfolder.
#[derive(Debug)]
pub struct StudentFolder {
    collector: Arc<Collector>,
    name: String,
    /// The folder's name: what the student's exports are counted under.
    key: String,
    folder: PathBuf,
    graded: AtomicU32,
}

impl StudentFolder {
    /// The first of `file`, `file-2`, `file-3`, … not taken yet in the folder, taken now
    /// (created empty, new), so another session of the same student cannot take it too.
    fn reserve_path(&self, file: &str) -> std::io::Result<PathBuf> {
        let (stem, extension) = file.rsplit_once('.').unwrap_or((file, ""));
        let dot = if extension.is_empty() { "" } else { "." };
        for n in 1..=u64::from(MAX_EXPORTS) * 2 {
            let path = match n {
                1 => self.folder.join(file),
                n => self.folder.join(format!("{stem}-{n}{dot}{extension}")),
            };
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(_) => return Ok(path),
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(error),
            }
        }
        Err(std::io::Error::other("no free name for the export"))
    }

    /// Writes `text` under a name reserved for it.
    fn write(&self, file: &str, text: &str) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.folder)?;
        let path = self.reserve_path(file)?;
        if let Err(error) = write_whole(&path, text.as_bytes()) {
            let _ = std::fs::remove_file(&path);
            return Err(error);
        }
        Ok(path)
    }
}

impl Collect for StudentFolder {
    fn export(&self, file: &str, text: &str) -> Result<String, String> {
        if text.len() > MAX_EXPORT_BYTES {
            return Err(format!(
                "{} MB: at most {} MB",
                text.len() >> 20,
                MAX_EXPORT_BYTES >> 20
            ));
        }
        let bytes = text.len() as u64;
        if let Err(bound) = self.collector.reserve(&self.key, bytes) {
            let note = format!("refused: {}", bound.words(&format!("{}'s", self.name)));
            *self
                .collector
                .note
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(note);
            return Err(bound.words("your"));
        }
        let path = self.write(file, text).map_err(|error| {
            self.collector.release(&self.key, bytes);
            error.to_string()
        })?;
        let shown = path.strip_prefix(&self.collector.dir).unwrap_or(&path);
        Ok(shown.display().to_string())
    }

    fn graded(&self, graded: &Graded) {
        if self.graded.fetch_add(1, Ordering::Relaxed) >= MAX_GRADED {
            return;
        }
        let row = [
            humantime::format_rfc3339_seconds(self.collector.clock.now()).to_string(),
            cell(&self.name),
            graded.tab.title().to_string(),
            graded.question.clone(),
            graded.answer.clone(),
            u8::from(graded.right).to_string(),
        ];
        // A row that cannot be written is lost, not the session: the student plays on.
        let _ = std::fs::create_dir_all(&self.folder);
        let _ = self
            .collector
            .append(&self.folder.join(PREDICTIONS_FILE), Some(&row));
        let _ = self
            .collector
            .append(&self.collector.dir.join(RESULTS_FILE), Some(&row));
    }
}

/// `name` as a folder name: safe characters kept and, when any was changed (or the name is
/// only dots, or is the results file's), `~` and a 64-bit hash of the whole name added.
/// `~` is never kept from a name, so a changed name never equals a name kept as it is.
pub(crate) fn folder_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    // A leading `-` would read as an option to the teacher's `tar czf x.tgz *`.
    let safe = match safe.strip_prefix('-') {
        Some(rest) => format!("_{rest}"),
        None => safe,
    };
    if safe == name && !safe.chars().all(|c| c == '.') && safe != RESULTS_FILE {
        return safe;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut hasher);
    format!("{safe}~{:016x}", hasher.finish())
}

/// `bytes` in whole megabytes (MiB), or kilobytes below one.
fn megabytes(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@` first) starts with `'`.
fn cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tabs::TabId;

    #[test]
    fn a_stranger_s_name_never_leaves_the_folder_or_shares_one() {
        assert_eq!(folder_name("ada"), "ada");
        assert_eq!(folder_name("Ada.L-1_x"), "Ada.L-1_x");
        for hostile in ["..", ".", "../../etc", "a/b", "a b", "é"] {
            let folder = folder_name(hostile);
            assert!(!folder.contains('/') && folder != "." && folder != "..");
            assert!(folder.len() > 6, "{hostile:?} → {folder:?} is hashed");
        }
        assert_ne!(folder_name("a/b"), folder_name("a_b"));
        assert_ne!(folder_name("a/b"), folder_name("a b"));
        // A name shaped like a changed one keeps its own folder: `~` is never kept.
        let changed = folder_name("a/b");
        assert_ne!(folder_name(&changed), changed);
        assert_ne!(folder_name(RESULTS_FILE), RESULTS_FILE);
    }

    #[test]
    fn exports_and_graded_answers_land_in_the_student_s_folder_and_the_results() {
        let dir = tempfile::tempdir().unwrap();
        let day = std::time::UNIX_EPOCH + std::time::Duration::from_secs(19_786 * 86_400);
        let collector = Collector::open(dir.path(), Clock::set_to(day)).unwrap();
        let ada = collector.student("ada");
        assert_eq!(
            ada.export("tree.dot", "digraph {}").unwrap(),
            "ada/tree.dot"
        );
        assert_eq!(
            ada.export("tree.dot", "digraph {}").unwrap(),
            "ada/tree-2.dot"
        );
        let graded = Graded {
            tab: TabId::TicTacToe,
            question: "Predict: is there a cut-off at X7 (MAX)? y/n".into(),
            answer: "y".into(),
            right: true,
        };
        ada.graded(&graded);
        collector.student("bob, jr").graded(&Graded {
            right: false,
            ..graded
        });
        let results = std::fs::read_to_string(dir.path().join(RESULTS_FILE)).unwrap();
        let rows: Vec<&str> = results.lines().collect();
        assert_eq!(rows[0], "time,student,tab,question,answer,right");
        assert!(
            rows[1].starts_with("2024-03-04T00:00:00Z,"),
            "the clock's time"
        );
        assert!(
            rows[1].ends_with(",ada,Tic-tac-toe,Predict: is there a cut-off at X7 (MAX)? y/n,y,1")
        );
        assert!(
            rows[2].contains(",\"bob, jr\",") && rows[2].ends_with(",0"),
            "{}",
            rows[2]
        );
        collector.student("=HYPERLINK(1)").graded(&Graded {
            tab: TabId::TicTacToe,
            question: "q".into(),
            answer: "-1".into(),
            right: true,
        });
        let results = std::fs::read_to_string(dir.path().join(RESULTS_FILE)).unwrap();
        assert!(
            results.contains(",'=HYPERLINK(1),Tic-tac-toe,q,-1,1"),
            "{results}"
        );
        let own = std::fs::read_to_string(dir.path().join("ada").join(PREDICTIONS_FILE)).unwrap();
        assert_eq!(own.lines().count(), 2, "the header and ada's answer");
    }

    #[test]
    fn a_student_keeps_at_most_so_many_exports_and_none_too_large() {
        let dir = tempfile::tempdir().unwrap();
        let ada = Collector::open(dir.path(), Clock::system())
            .unwrap()
            .student("ada");
        for _ in 0..MAX_EXPORTS {
            ada.export("runs.csv", "x").unwrap();
        }
        assert!(
            ada.export("runs.csv", "x")
                .unwrap_err()
                .contains("kept already")
        );
        let huge = "x".repeat(MAX_EXPORT_BYTES + 1);
        assert!(
            ada.export("runs.csv", &huge)
                .unwrap_err()
                .contains("at most")
        );
    }

    /// Issue 35 §3: two sessions under one name overwrote each other's exports (48 of 200
    /// lost) and together kept 152, past the cap of 100.
    #[test]
    fn two_sessions_of_one_student_never_write_over_each_other_nor_pass_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let collector = Collector::open(dir.path(), Clock::system()).unwrap();
        let sessions = [collector.student("ada"), collector.student("ada")];
        let kept: Vec<Vec<String>> = std::thread::scope(|scope| {
            let writers: Vec<_> = (sessions.iter())
                .enumerate()
                .map(|(session, folder)| {
                    scope.spawn(move || {
                        (0..100)
                            .filter_map(|n| {
                                folder.export("tree.dot", &format!("{session}/{n}")).ok()
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            writers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        let paths: Vec<&String> = kept.iter().flatten().collect();
        assert_eq!(
            paths.len(),
            MAX_EXPORTS as usize,
            "the cap is the student's"
        );
        let mut texts: Vec<String> = std::fs::read_dir(dir.path().join("ada"))
            .unwrap()
            .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
            .collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), MAX_EXPORTS as usize, "none written over");
        // A session that starts later counts what is there.
        assert!(collector.student("ada").export("x.csv", "x").is_err());
    }

    /// Issue 35 §3: 30 presses of `d` wrote 146 MB in 5 s, and every new name got room
    /// for 100 more.
    #[test]
    fn the_bytes_kept_are_bounded_per_student_and_per_class() {
        let dir = tempfile::tempdir().unwrap();
        let collector =
            Collector::open_bounded(dir.path(), Clock::system(), (10_000, 25_000)).unwrap();
        let ada = collector.student("ada");
        let four_kb = "x".repeat(4_000);
        assert!(ada.export("a.dot", &four_kb).is_ok());
        assert!(ada.export("a.dot", &four_kb).is_ok());
        let why = ada.export("a.dot", &four_kb).unwrap_err();
        assert!(why.contains("the most kept for one student"), "{why}");
        for name in ["bob", "cy"] {
            let student = collector.student(name);
            student.export("a.dot", &four_kb).unwrap();
            student.export("a.dot", &four_kb).unwrap();
        }
        let why = collector
            .student("dee")
            .export("a.dot", &four_kb)
            .unwrap_err();
        assert!(why.contains("the most kept for a class"), "{why}");
        // Counted from the disk when the server starts again.
        let again = Collector::open_bounded(dir.path(), Clock::system(), (10_000, 25_000)).unwrap();
        assert!(again.student("dee").export("a.dot", &four_kb).is_err());
    }

    /// Issue 35 §3: a student named `--remove-files` got a folder of that name, which the
    /// teacher's `tar czf ../x.tgz *` read as an option.
    #[test]
    fn no_folder_begins_with_a_dash() {
        for name in ["--remove-files", "-rf", "-"] {
            let folder = folder_name(name);
            assert!(!folder.starts_with('-'), "{name} -> {folder}");
        }
        assert_ne!(folder_name("-x"), folder_name("_x"));
    }
}
