//! Files the program writes: trained models in the data dir. Every file is written
//! atomically (a temporary file renamed over the old one) inside an envelope that names its
//! format and version, so a damaged or foreign file is recognised, reported with its path and
//! reason, and never overwritten.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a model file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file system refused.
    #[error("{path}: {reason}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        reason: std::io::Error,
    },
    /// The file is not valid JSON of the expected shape.
    #[error("{path}: damaged ({reason})")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What did not parse.
        reason: String,
    },
    /// The file is another kind of model, or another version of this one.
    #[error("{path}: holds {found}, expected {expected}")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// Format and version found.
        found: String,
        /// Format and version this program reads.
        expected: String,
    },
}

impl StoreError {
    /// The file concerned.
    pub fn path(&self) -> &Path {
        match self {
            Self::Io { path, .. } | Self::Damaged { path, .. } | Self::Foreign { path, .. } => path,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Envelope<T> {
    format: String,
    version: u32,
    payload: T,
}

#[derive(Deserialize)]
struct Header {
    format: String,
    version: u32,
}

/// A folder of model files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// A store in `dir` (created on the first save).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The platform data dir (`~/.local/share/ai-arcade` on Linux), if there is a home.
    pub fn default_dir() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "ai-arcade")
            .map(|dirs| dirs.data_dir().to_path_buf())
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the file `name` lives.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Writes `payload` as `name`, tagged `format`/`version`, atomically: a reader sees the
    /// old file or the new one, never half of one. Returns the path written.
    pub fn save<T: Serialize>(
        &self,
        name: &str,
        format: &str,
        version: u32,
        payload: &T,
    ) -> Result<PathBuf, StoreError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |reason| StoreError::Io { path, reason }
        };
        fs::create_dir_all(&self.dir).map_err(io(&self.dir))?;
        let path = self.path(name);
        let temporary = self.path(&format!(".{name}.tmp"));
        let envelope = Envelope {
            format: format.to_string(),
            version,
            payload,
        };
        let text = serde_json::to_string(&envelope).map_err(|e| StoreError::Damaged {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        let mut file = fs::File::create(&temporary).map_err(io(&temporary))?;
        file.write_all(text.as_bytes()).map_err(io(&temporary))?;
        file.sync_all().map_err(io(&temporary))?;
        fs::rename(&temporary, &path).map_err(io(&path))?;
        Ok(path)
    }

    /// Reads `name`: `Ok(None)` when there is no such file, an error naming the path and the
    /// reason when it is damaged or of another format or version.
    pub fn load<T: DeserializeOwned>(
        &self,
        name: &str,
        format: &str,
        version: u32,
    ) -> Result<Option<T>, StoreError> {
        let path = self.path(name);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(reason) => return Err(StoreError::Io { path, reason }),
        };
        let damaged = |e: serde_json::Error| StoreError::Damaged {
            path: path.clone(),
            reason: e.to_string(),
        };
        let header: Header = serde_json::from_str(&text).map_err(damaged)?;
        if header.format != format || header.version != version {
            return Err(StoreError::Foreign {
                path,
                found: format!("{} v{}", header.format, header.version),
                expected: format!("{format} v{version}"),
            });
        }
        let envelope: Envelope<T> = serde_json::from_str(&text).map_err(damaged)?;
        Ok(Some(envelope.payload))
    }

    /// Saves like [`Store::save`], but first sets aside an existing file that is damaged or of
    /// another format or version, so it is never overwritten; returns where it went too.
    pub fn replace<T: Serialize>(
        &self,
        name: &str,
        format: &str,
        version: u32,
        payload: &T,
    ) -> Result<(PathBuf, Option<PathBuf>), StoreError> {
        let unreadable = matches!(
            self.load::<serde_json::Value>(name, format, version),
            Err(StoreError::Damaged { .. } | StoreError::Foreign { .. })
        );
        let aside = if unreadable {
            Some(self.set_aside(name)?)
        } else {
            None
        };
        let path = self.save(name, format, version, payload)?;
        Ok((path, aside))
    }

    /// Saves like [`Store::replace`], and with `keep_existing` first sets aside whatever
    /// file is there even if it reads fine (one trained for another game, or replaced on
    /// purpose); returns the path written and where an old file went.
    pub fn replace_keeping<T: Serialize>(
        &self,
        name: &str,
        format: &str,
        version: u32,
        payload: &T,
        keep_existing: bool,
    ) -> Result<(PathBuf, Option<PathBuf>), StoreError> {
        let kept = if keep_existing && self.path(name).exists() {
            Some(self.set_aside(name)?)
        } else {
            None
        };
        let (path, aside) = self.replace(name, format, version, payload)?;
        Ok((path, kept.or(aside)))
    }

    /// Loads `name` and converts it with `usable`. `Ok(None)`: no file. `Err(why)`: the
    /// file is unreadable or `usable` refused it; `why` names the path. Either way the
    /// file is left as it is.
    pub fn load_usable<T: DeserializeOwned, R>(
        &self,
        name: &str,
        format: &str,
        version: u32,
        usable: impl FnOnce(T) -> Result<R, String>,
    ) -> Result<Option<R>, String> {
        match self.load::<T>(name, format, version) {
            Ok(None) => Ok(None),
            Ok(Some(saved)) => usable(saved)
                .map(Some)
                .map_err(|why| format!("{}: {why}", self.path(name).display())),
            Err(error) => Err(error.to_string()),
        }
    }

    /// Renames an unreadable `name` out of the way (`name.broken`, `name.broken-2`, ...) so a
    /// new save keeps it; returns where it went.
    pub fn set_aside(&self, name: &str) -> Result<PathBuf, StoreError> {
        let from = self.path(name);
        let to = (1..=u32::MAX)
            .map(|i| match i {
                1 => self.path(&format!("{name}.broken")),
                i => self.path(&format!("{name}.broken-{i}")),
            })
            .find(|p| !p.exists())
            .expect("some free name");
        fs::rename(&from, &to).map_err(|reason| StoreError::Io { path: from, reason })?;
        Ok(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_store(tag: &str) -> Store {
        let dir =
            std::env::temp_dir().join(format!("ai-arcade-store-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        Store::new(dir)
    }

    #[test]
    fn a_saved_value_loads_back() {
        let store = temp_store("roundtrip");
        let value = vec![1.5, -2.25, 3.0];
        let path = store.save("m.json", "test", 1, &value).unwrap();
        assert!(path.exists());
        assert_eq!(
            store.load::<Vec<f64>>("m.json", "test", 1).unwrap(),
            Some(value)
        );
        assert!(
            !store.path(".m.json.tmp").exists(),
            "no temporary file left"
        );
        let _ = fs::remove_dir_all(store.dir());
    }

    #[test]
    fn a_missing_file_is_none() {
        let store = temp_store("missing");
        assert!(store.load::<u32>("nope.json", "test", 1).unwrap().is_none());
    }

    #[test]
    fn damaged_and_foreign_files_are_reported_and_left_alone() {
        let store = temp_store("damaged");
        fs::create_dir_all(store.dir()).unwrap();
        let path = store.path("m.json");
        fs::write(&path, "{ not json").unwrap();
        let error = store.load::<u32>("m.json", "test", 1).unwrap_err();
        assert!(matches!(error, StoreError::Damaged { .. }));
        assert!(error.to_string().contains("m.json"), "{error}");
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{ not json",
            "untouched"
        );

        store.save("m.json", "test", 2, &7u32).unwrap();
        let error = store.load::<u32>("m.json", "test", 1).unwrap_err();
        assert!(
            error.to_string().contains("test v2") && error.to_string().contains("test v1"),
            "{error}"
        );

        let aside = store.set_aside("m.json").unwrap();
        assert!(aside.ends_with("m.json.broken") && aside.exists() && !path.exists());
        store.save("m.json", "test", 1, &7u32).unwrap();
        let again = store.set_aside("m.json").unwrap();
        assert!(again.ends_with("m.json.broken-2"));
        let _ = fs::remove_dir_all(store.dir());
    }

    #[test]
    fn replace_keeps_a_damaged_file_aside() {
        let store = temp_store("replace");
        fs::create_dir_all(store.dir()).unwrap();
        fs::write(store.path("m.json"), "{ damaged").unwrap();
        let (path, aside) = store.replace("m.json", "test", 1, &5u32).unwrap();
        let aside = aside.expect("set aside");
        assert_eq!(fs::read_to_string(&aside).unwrap(), "{ damaged");
        assert_eq!(store.load::<u32>("m.json", "test", 1).unwrap(), Some(5));
        let (_, none) = store.replace("m.json", "test", 1, &6u32).unwrap();
        assert!(none.is_none(), "a readable file is simply replaced");
        assert!(path.exists());
        let _ = fs::remove_dir_all(store.dir());
    }

    #[test]
    fn a_usable_check_reports_the_path_and_keeping_sets_a_readable_file_aside() {
        let store = temp_store("usable");
        store.save("m.json", "test", 1, &5u32).unwrap();
        let refused = store.load_usable("m.json", "test", 1, |n: u32| {
            Err::<u32, _>(format!("{n} is odd"))
        });
        let why = refused.unwrap_err();
        assert!(why.contains("m.json") && why.contains("5 is odd"), "{why}");
        assert_eq!(
            store.load_usable("m.json", "test", 1, |n: u32| Ok(n * 2)),
            Ok(Some(10))
        );
        assert_eq!(
            store.load_usable("none.json", "test", 1, |n: u32| Ok(n)),
            Ok(None)
        );
        let (_, kept) = store
            .replace_keeping("m.json", "test", 1, &6u32, true)
            .unwrap();
        let kept = kept.expect("kept aside");
        assert!(fs::read_to_string(kept).unwrap().contains('5'));
        assert_eq!(store.load::<u32>("m.json", "test", 1).unwrap(), Some(6));
        let _ = fs::remove_dir_all(store.dir());
    }
}
