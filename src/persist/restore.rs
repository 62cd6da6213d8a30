//! Putting the backup back: `NAME.prev` and `NAME` swap places, so the model a save replaced
//! comes back into play and the one it leaves is kept as the new backup (a second restore
//! undoes the first). The backup passes the same checks as any model before anything moves,
//! and the swap happens only when the file holds the model in play, so no training that
//! exists only in memory is lost.

use super::{
    Described, ModelKind, Stamp, Store, StoreError, check, envelope_bytes, keep_modified, modified,
    read_regular,
};
use std::fs;
use std::path::PathBuf;

/// What a restore did.
#[derive(Debug)]
pub struct Restored<M> {
    /// The model back in play.
    pub model: M,
    /// The stamp of its bytes: a later save that continues it replaces the file without
    /// backing it up again.
    pub stamp: Stamp,
    /// What came back.
    pub restored: Described,
    /// What was in play, now the backup.
    pub kept: Described,
    /// Where the backup is now.
    pub prev: PathBuf,
}

/// Why a restore did nothing. Every case leaves both files as they were.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// No backup is there.
    #[error("no previous {noun} is kept ({}): nothing to restore", .path.display())]
    NoPrevious {
        /// What the file holds ("network").
        noun: &'static str,
        /// Where the backup would be.
        path: PathBuf,
    },
    /// The backup would not load (damaged, foreign, unusable: with its path and the
    /// reason), or the file system refused.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The file in play is not the model in play (training since its last save, or a save
    /// by another program): swapping would lose one of them.
    #[error(
        "{} does not hold the {noun} in play (it changed since it was saved), so swapping \
         would lose one of them",
        .path.display()
    )]
    NotInPlay {
        /// What the file holds.
        noun: &'static str,
        /// The file.
        path: PathBuf,
    },
}

impl Store {
    /// Swaps the model in play, `in_play`, with its backup `NAME.prev`: the backup becomes
    /// `NAME` (and is returned, checked as any load), and `NAME`, which must hold `in_play`
    /// byte for byte, becomes the backup, keeping the time it was saved.
    ///
    /// Under the save lock. A reader of `NAME` sees one model or the other, never none: the
    /// backup first moves aside to `NAME.restoring`, the model in play is copied to
    /// `NAME.prev`, and the side file is renamed over `NAME`. A crash in between leaves the
    /// model in play where it was and the backup in `NAME.restoring`, never lost.
    pub fn restore_prev_kind<K: ModelKind>(
        &self,
        kind: &K,
        in_play: &K::Payload,
    ) -> Result<Restored<K::Model>, RestoreError> {
        let file = kind.file();
        let path = self.path(file.name);
        let prev = self.prev_path(file.name);
        let _lock = self.lock()?;
        let Some(back) = read_regular(&prev)? else {
            return Err(RestoreError::NoPrevious {
                noun: kind.noun(),
                path: prev,
            });
        };
        let model = check(&prev, &back, file, |payload| kind.usable(payload))?;
        let restored = Described {
            what: kind.describe(&model),
            saved_at: modified(&prev),
        };
        let playing = envelope_bytes(&path, file, in_play)?;
        if read_regular(&path)?.as_deref() != Some(playing.as_slice()) {
            return Err(RestoreError::NotInPlay {
                noun: kind.noun(),
                path,
            });
        }
        let now_in_play = check(&path, &playing, file, |payload| kind.usable(payload))?;
        let kept = Described {
            what: kind.describe(&now_in_play),
            saved_at: modified(&path),
        };
        let side = self.path(&format!("{}.restoring", file.name));
        fs::rename(&prev, &side).map_err(StoreError::io(&prev))?;
        if let Err(error) = self.write_atomically(&prev, &playing) {
            // Put the backup back where it was: nothing moved.
            let _ = fs::rename(&side, &prev);
            return Err(error.into());
        }
        keep_modified(&prev, Some(&kept));
        fs::rename(&side, &path).map_err(StoreError::io(&side))?;
        Ok(Restored {
            model,
            stamp: Stamp::of(&back),
            restored,
            kept,
            prev,
        })
    }

    /// Whether a backup of `kind`'s file is there (checked when restored, not here): what
    /// the tabs offer their restore key on.
    pub fn has_prev<K: ModelKind>(&self, kind: &K) -> bool {
        fs::symlink_metadata(self.prev_path(kind.file().name)).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::{Kept, ModelFile};
    use std::time::{Duration, SystemTime};

    /// Numbers up to 100, described by their value.
    struct Small;

    impl ModelKind for Small {
        type Payload = u32;
        type Model = u32;

        fn file(&self) -> ModelFile<'_> {
            ModelFile {
                name: "m.json",
                format: "test",
                version: 1,
            }
        }

        fn usable(&self, n: u32) -> Result<u32, String> {
            if n <= 100 {
                Ok(n)
            } else {
                Err(format!("{n} is above 100"))
            }
        }

        fn noun(&self) -> &'static str {
            "number"
        }

        fn holds(&self, n: &u32) -> String {
            format!("value {n}")
        }
    }

    fn store() -> (tempfile::TempDir, Store) {
        let temp = tempfile::tempdir().unwrap();
        let store = Store::new(temp.path());
        (temp, store)
    }

    fn loaded(store: &Store) -> u32 {
        store.load_kind(&Small).unwrap().unwrap().model
    }

    #[test]
    fn a_save_that_replaces_a_model_says_what_it_held_and_when() {
        let (_temp, store) = store();
        store.save_kind(&Small, &1, None).unwrap();
        let an_hour_ago = SystemTime::now() - Duration::from_secs(3_700);
        let file = fs::OpenOptions::new()
            .write(true)
            .open(store.path("m.json"))
            .unwrap();
        file.set_modified(an_hour_ago).unwrap();
        let saved = store.save_kind(&Small, &2, None).unwrap();
        let Some(Kept::Previous { path, model }) = &saved.kept else {
            panic!("{:?}", saved.kept)
        };
        assert_eq!(path, &store.prev_path("m.json"));
        assert_eq!(model.as_ref().unwrap().what, "number (value 1)");
        assert_eq!(
            saved.kept_note(),
            format!(
                " (the previous number (value 1, saved 1 hour ago) is kept as {})",
                path.display()
            )
        );
        // The backup keeps the time its model was saved, not the time it was copied.
        let kept_at = fs::metadata(path).unwrap().modified().unwrap();
        assert!(kept_at < SystemTime::now() - Duration::from_secs(3_600));
    }

    #[test]
    fn restoring_swaps_the_model_in_play_and_its_backup_and_again_swaps_back() {
        let (_temp, store) = store();
        store.save_kind(&Small, &1, None).unwrap();
        store.save_kind(&Small, &2, None).unwrap();
        let restored = store.restore_prev_kind(&Small, &2).unwrap();
        assert_eq!(restored.model, 1);
        assert_eq!(restored.restored.what, "number (value 1)");
        assert_eq!(restored.kept.what, "number (value 2)");
        assert_eq!(loaded(&store), 1);
        // A save that continues the restored model backs nothing up again.
        let continued = store.save_kind(&Small, &1, Some(restored.stamp)).unwrap();
        assert!(continued.kept.is_none());
        let back = store.restore_prev_kind(&Small, &1).unwrap();
        assert_eq!((back.model, loaded(&store)), (2, 2));
        let mut names: Vec<_> = fs::read_dir(store.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| !name.starts_with(".ai-arcade"))
            .collect();
        names.sort();
        assert_eq!(names, ["m.json", "m.json.prev"], "no side file left");
    }

    #[test]
    fn a_damaged_or_missing_backup_or_a_model_not_on_disk_is_refused_and_nothing_moves() {
        let (_temp, store) = store();
        store.save_kind(&Small, &2, None).unwrap();
        let none = store.restore_prev_kind(&Small, &2).unwrap_err();
        assert!(
            none.to_string().starts_with("no previous number is kept ("),
            "{none}"
        );

        let prev = store.prev_path("m.json");
        for (bytes, reason) in [
            (&b"{\"format\":\"test\",\"ver"[..], "damaged"),
            (
                br#"{"format":"test","version":1,"payload":500}"#,
                "500 is above 100",
            ),
        ] {
            fs::write(&prev, bytes).unwrap();
            let refused = store.restore_prev_kind(&Small, &2).unwrap_err().to_string();
            assert!(
                refused.contains(&prev.display().to_string()) && refused.contains(reason),
                "{refused}"
            );
            assert_eq!(
                fs::read(&prev).unwrap(),
                bytes,
                "the backup is left as it was"
            );
            assert_eq!(loaded(&store), 2);
        }

        fs::write(&prev, br#"{"format":"test","version":1,"payload":1}"#).unwrap();
        let changed = store.restore_prev_kind(&Small, &3).unwrap_err().to_string();
        assert!(
            changed.contains("does not hold the number in play"),
            "{changed}"
        );
        assert_eq!(loaded(&store), 2);
        assert!(has_payload(&prev, "1"));
    }

    fn has_payload(path: &std::path::Path, value: &str) -> bool {
        fs::read_to_string(path)
            .unwrap()
            .ends_with(&format!("\"payload\":{value}}}"))
    }

    #[test]
    fn ages_read_in_whole_units() {
        let now = SystemTime::now();
        let ago = |secs| crate::persist::saved_ago(now - Duration::from_secs(secs), now);
        assert_eq!(ago(5), "saved just now");
        assert_eq!(ago(60), "saved 1 minute ago");
        assert_eq!(ago(7_300), "saved 2 hours ago");
        assert_eq!(ago(3 * 86_400), "saved 3 days ago");
        let later = crate::persist::saved_ago(now + Duration::from_secs(60), now);
        assert_eq!(later, "saved just now", "a clock set back");
    }
}
