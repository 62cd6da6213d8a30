//! The teacher's collect folder (`serve --collect DIR`): a served student's exports (the
//! search tree as DOT, curves as CSV) go into a subfolder named after the student, every
//! graded prediction into that subfolder's `predictions.csv`, and one row per student and
//! question into `DIR/results.csv`. Nothing else on the server is written.
//!
//! A stranger's name becomes a folder name, so it is made safe (letters, digits, `-`, `_`
//! and `.` kept, the rest `_`, never `.` or `..`, a short hash added when anything was
//! changed so two names never share a folder), and every file and row is bounded.

use crate::app::room::{Collect, Graded};
use crate::persist::write_whole;
use crate::serve::clock::Clock;
use std::fs::OpenOptions;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The most exports one student keeps; later ones are refused with a message.
pub const MAX_EXPORTS: u32 = 100;
/// The largest export kept (a whole search tree of tic-tac-toe as DOT is ~20 MB).
pub const MAX_EXPORT_BYTES: usize = 32 * 1024 * 1024;
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
}

impl Collector {
    /// The folder `dir`, made if missing, with the results file begun; rows are stamped
    /// with `clock`'s time.
    ///
    /// # Errors
    /// Why the folder cannot be used.
    pub fn open(dir: &Path, clock: Clock) -> Result<Arc<Self>, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let collector = Self {
            dir: dir.to_path_buf(),
            clock,
            writing: Mutex::new(()),
        };
        collector
            .append(&dir.join(RESULTS_FILE), None)
            .map_err(|e| format!("{}: {e}", dir.join(RESULTS_FILE).display()))?;
        Ok(Arc::new(collector))
    }

    /// Where `name`'s work goes.
    pub fn student(self: &Arc<Self>, name: &str) -> StudentFolder {
        let folder = self.dir.join(folder_name(name));
        // A student who comes back counts the exports already kept: logging in again
        // does not buy more room.
        let kept = std::fs::read_dir(&folder).map_or(0, Iterator::count);
        StudentFolder {
            collector: Arc::clone(self),
            name: name.to_string(),
            folder,
            exports: AtomicU32::new(u32::try_from(kept).unwrap_or(u32::MAX)),
            graded: AtomicU32::new(0),
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
    folder: PathBuf,
    exports: AtomicU32,
    graded: AtomicU32,
}

impl StudentFolder {
    /// The first of `file`, `file-2`, `file-3`, … not taken yet in the folder.
    fn free_path(&self, file: &str) -> PathBuf {
        let (stem, extension) = file.rsplit_once('.').unwrap_or((file, ""));
        let dot = if extension.is_empty() { "" } else { "." };
        (1..=10_000)
            .map(|n| match n {
                1 => self.folder.join(file),
                n => self.folder.join(format!("{stem}-{n}{dot}{extension}")),
            })
            .find(|path| !path.exists())
            .unwrap_or_else(|| self.folder.join(file))
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
        if self.exports.fetch_add(1, Ordering::Relaxed) >= MAX_EXPORTS {
            return Err(format!("{MAX_EXPORTS} exports kept already"));
        }
        std::fs::create_dir_all(&self.folder).map_err(|e| e.to_string())?;
        let path = self.free_path(file);
        write_whole(&path, text.as_bytes()).map_err(|e| e.to_string())?;
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
    if safe == name && !safe.chars().all(|c| c == '.') && safe != RESULTS_FILE {
        return safe;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut hasher);
    format!("{safe}~{:016x}", hasher.finish())
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
}
