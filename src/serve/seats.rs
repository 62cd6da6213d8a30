//! Seats on disk: each student's session, kept in the data dir so a server that restarts
//! (or is drained and replaced) gives every student back their place (issue 30 §1). One
//! file a student, `SEATS/<name>.json`, written like a model: a versioned envelope, whole
//! or not at all, checked on load; a file that cannot be read is reported and set aside,
//! never overwritten unseen.

use crate::app::saved::SavedSession;
use crate::persist::{ModelFile, Stamp, Store};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The envelope's format name and version.
const FORMAT: &str = "ai-arcade/seat";
const VERSION: u32 = 1;

/// What a seat's file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatFile {
    /// The student's name in the class.
    pub name: String,
    /// Their session.
    pub session: SavedSession,
}

/// The folder of a class's seats.
#[derive(Debug, Clone)]
pub struct SeatStore {
    store: Store,
}

/// A seat's file name: the name folded to lower case (a seat is found whatever the case
/// it is typed in), made safe as a collect folder's name is.
fn file_name(name: &str) -> String {
    format!(
        "{}.json",
        crate::serve::collect::folder_name(&name.to_lowercase())
    )
}

fn usable(file: SeatFile) -> Result<SeatFile, String> {
    if file.session.entries.len() > crate::app::journal::MAX_ENTRIES {
        return Err(format!(
            "{} changes, more than a session keeps ({})",
            file.session.entries.len(),
            crate::app::journal::MAX_ENTRIES
        ));
    }
    Ok(file)
}

impl SeatStore {
    /// Seats kept in `dir` (made when the first is saved).
    #[must_use]
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            store: Store::new(dir),
        }
    }

    /// The seat kept for `name`, if any.
    ///
    /// # Errors
    /// Why the file there cannot be used, naming its path (it is left as it is).
    pub fn load(&self, name: &str) -> Result<Option<(SeatFile, Stamp)>, String> {
        let file = file_name(name);
        let found = self
            .store
            .load(model_file(&file), usable)
            .map_err(|e| e.to_string())?;
        Ok(found.map(|found| (found.model, found.stamp)))
    }

    /// Keeps `session` as `name`'s seat; `continues` is the stamp it was read or last
    /// saved with. The stamp written.
    ///
    /// # Errors
    /// Why it could not be written, naming the path.
    pub fn save(
        &self,
        name: &str,
        session: SavedSession,
        continues: Option<Stamp>,
    ) -> Result<Stamp, String> {
        let file = file_name(name);
        std::fs::create_dir_all(self.store.dir())
            .map_err(|e| format!("{}: {e}", self.store.dir().display()))?;
        let payload = SeatFile {
            name: name.to_string(),
            session,
        };
        self.store
            .save(model_file(&file), &payload, usable, continues)
            .map(|saved| saved.stamp)
            .map_err(|e| e.to_string())
    }
}

/// The envelope of the seat file called `file`.
fn model_file(file: &str) -> ModelFile<'_> {
    ModelFile {
        name: file,
        format: FORMAT,
        version: VERSION,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(entries: usize) -> SavedSession {
        SavedSession {
            seed: 7,
            lesson: Some("Alpha-beta".into()),
            following: true,
            entries: vec![crate::app::saved::SavedEntry::LessonAt(2); entries],
            course: crate::app::course_progress::CourseProgress::default(),
        }
    }

    #[test]
    fn a_seat_is_kept_found_in_any_case_and_a_damaged_file_is_reported_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let seats = SeatStore::new(dir.path().join("seats"));
        assert_eq!(seats.load("Ada").unwrap(), None);
        let stamp = seats.save("Ada", session(3), None).unwrap();
        let (file, read) = seats.load("ada").unwrap().unwrap();
        assert_eq!((file.name.as_str(), file.session), ("Ada", session(3)));
        assert_eq!(read, stamp);

        let path = dir.path().join("seats/ada.json");
        std::fs::write(
            &path,
            b"{\"format\":\"ai-arcade/seat\",\"version\":1,\"payl",
        )
        .unwrap();
        let why = seats.load("Ada").unwrap_err();
        assert!(why.contains("ada.json") && why.contains("damaged"), "{why}");
        seats.save("Ada", session(1), None).unwrap();
        assert!(
            dir.path().join("seats/ada.json.broken").exists(),
            "the damaged file was set aside, not overwritten"
        );
    }
}
