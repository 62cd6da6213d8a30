//! Files the program writes: trained models in the data dir.
//!
//! Every file sits inside an envelope that names its format and version, and every reader and
//! writer goes through the same checks, so what a save keeps and what a load uses can never
//! drift apart:
//!
//! - Only regular files are read (a FIFO, a device or a symlink to one is refused, never
//!   opened in a way that could block), and none larger than [`MAX_FILE_BYTES`].
//! - A save writes a temporary file with a unique name in the same folder and renames it over
//!   the old one, so a reader sees the old file or the new one, never half of one; a failed
//!   save removes its temporary file.
//! - A save holds a lock ([`LOCK_FILE`]) while it reads, checks and replaces, so two arcades,
//!   or an arcade and `train`, never interleave.
//! - A file the load would not use (damaged, foreign, for another game, out of range, not a
//!   regular file) is renamed `NAME.broken` before a save, never overwritten.
//! - A good file that a save replaces without continuing it (a retrain, a reset, another
//!   program's save in between) is first copied to `NAME.prev`: one backup, byte for byte,
//!   and the save says what it held ([`Described`]), so nothing is replaced without a word.
//! - The backup can be put back ([`Store::restore_prev_kind`], [`restore`]): the two files
//!   swap, so a restore can be undone the same way, and the backup passes the same checks as
//!   any model before anything moves.

pub mod model_files;
pub mod regular;
pub mod restore;

use regular::Unread;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs;
use std::hash::{DefaultHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The largest model file read: a full Q-table (2 million cells, about 80 bytes each in JSON)
/// fits with room to spare, and a file that keeps growing is cut off here.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The file in the data dir whose lock every save holds.
pub const LOCK_FILE: &str = ".ai-arcade.lock";

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
    /// Something other than a regular file is where a model file should be.
    #[error("{path}: {what}, not a regular file: not read")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is ("a FIFO", "a character device", ...).
        what: &'static str,
    },
    /// The file is larger than any model file can be.
    #[error("{path}: {size} bytes, more than a model file can be ({limit} MiB): not read", limit = MAX_FILE_BYTES >> 20)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size (at least the limit + 1 when it grew while read).
        size: u64,
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
    /// The file reads, but the model in it cannot be used (another game, numbers out of
    /// range).
    #[error("{path}: {reason}")]
    Unusable {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl StoreError {
    /// The file concerned.
    pub fn path(&self) -> &Path {
        match self {
            Self::Io { path, .. }
            | Self::NotAFile { path, .. }
            | Self::TooLarge { path, .. }
            | Self::Damaged { path, .. }
            | Self::Foreign { path, .. }
            | Self::Unusable { path, .. } => path,
        }
    }

    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Self + use<> {
        let path = path.to_path_buf();
        move |reason| Self::Io { path, reason }
    }
}

/// One kind of model file: its name in the data dir, and the format and version inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelFile<'a> {
    /// The file name.
    pub name: &'a str,
    /// The format name written into the envelope.
    pub format: &'a str,
    /// The format version.
    pub version: u32,
}

/// Which bytes a model was read from or saved as, so a later save can tell whether it
/// continues the file on disk (nothing to back up) or replaces it (the file goes to `.prev`).
/// Only meaningful within one run of the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stamp {
    len: usize,
    hash: u64,
}

impl Stamp {
    fn of(bytes: &[u8]) -> Self {
        let mut hasher = DefaultHasher::new();
        hasher.write(bytes);
        Self {
            len: bytes.len(),
            hash: hasher.finish(),
        }
    }
}

/// A good model file as a message tells it: what it holds and when it was written, so a
/// student knows which model a save replaced or a restore brings back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// What it is and holds, from the file itself: "network (4,000 epochs, wins at 120/120
    /// winning piles)".
    pub what: String,
    /// When the file was last written (the file system's modification time), if known.
    pub saved_at: Option<SystemTime>,
}

impl Described {
    /// "network (4,000 epochs, …, saved 3 minutes ago)": what it holds and how long ago it
    /// was saved, as of `now`.
    pub fn words(&self, now: SystemTime) -> String {
        match self.saved_at {
            Some(at) => match self.what.strip_suffix(')') {
                Some(open) => format!("{open}, {})", saved_ago(at, now)),
                None => format!("{} ({})", self.what, saved_ago(at, now)),
            },
            None => self.what.clone(),
        }
    }
}

/// How long ago `at` was, as of `now`, in the words a message uses: "saved just now",
/// "saved 5 minutes ago", "saved 2 days ago". A clock time would need the local time zone,
/// which the standard library does not give; an age reads the same anywhere. A time in
/// the future (a clock set back) is "just now".
pub fn saved_ago(at: SystemTime, now: SystemTime) -> String {
    let secs = now.duration_since(at).map_or(0, |age| age.as_secs());
    let (count, unit) = match secs {
        0..60 => return "saved just now".to_string(),
        60..3_600 => (secs / 60, "minute"),
        3_600..86_400 => (secs / 3_600, "hour"),
        _ => (secs / 86_400, "day"),
    };
    let plural = if count == 1 { "" } else { "s" };
    format!("saved {count} {unit}{plural} ago")
}

/// What a save kept of the file it replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    /// A good file, copied to `NAME.prev` (the one backup), with what it held when the
    /// save knew its kind ([`Store::save_kind`]).
    Previous {
        /// Where it went.
        path: PathBuf,
        /// What it held and when it was saved.
        model: Option<Described>,
    },
    /// A file the load would not use, renamed to `NAME.broken` (or `.broken-2`, ...), and why.
    Broken {
        /// Where it went.
        path: PathBuf,
        /// Why it could not be used.
        why: String,
    },
}

impl Kept {
    /// A short note for a message: "the previous network (4,000 epochs, saved 3 minutes
    /// ago) is kept as ...".
    pub fn note(&self) -> String {
        match self {
            Self::Previous { path, model } => {
                let what = model.as_ref().map_or_else(
                    || "file".to_string(),
                    |model| model.words(SystemTime::now()),
                );
                format!("the previous {what} is kept as {}", path.display())
            }
            Self::Broken { path, .. } => {
                format!("the unusable file is kept as {}", path.display())
            }
        }
    }
}

/// The outcome of a save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// The file written.
    pub path: PathBuf,
    /// Its bytes' stamp: pass it to the next save of a model that continues this one.
    pub stamp: Stamp,
    /// What happened to the file that was there.
    pub kept: Option<Kept>,
    /// The stamp of the good file this save replaced, if one was there: under the lock, no
    /// two saves ever replace the same file.
    pub replaced: Option<Stamp>,
}

impl Saved {
    /// What became of the file replaced, as a message adds it: ` (the previous file is kept
    /// as ...)`, or nothing when nothing was kept.
    pub fn kept_note(&self) -> String {
        self.kept
            .as_ref()
            .map_or(String::new(), |kept| format!(" ({})", kept.note()))
    }
}

/// One kind of model the data dir keeps, described once for everything that reads or writes
/// it (the tabs and the `train` commands): its file, and which payloads a load accepts. The
/// same check runs on load and before a save replaces a file, so the two never disagree.
pub trait ModelKind {
    /// What the file holds.
    type Payload: Serialize + DeserializeOwned;
    /// What a usable payload becomes.
    type Model;
    /// The file: name, format and version.
    fn file(&self) -> ModelFile<'_>;
    /// The payload as a model, or why this one cannot be used.
    ///
    /// # Errors
    ///
    /// Why the payload does not fit (another game, numbers out of range).
    fn usable(&self, payload: Self::Payload) -> Result<Self::Model, String>;

    /// What a model of this kind is called in a message ("network", "Q-table").
    fn noun(&self) -> &'static str;

    /// How much training a model holds and how well it plays, from what its file records:
    /// "4,000 epochs, wins at 120/120 winning piles".
    fn holds(&self, model: &Self::Model) -> String;

    /// The model as messages name a replaced or restored one: "network (4,000 epochs, …)".
    fn describe(&self, model: &Self::Model) -> String {
        format!("{} ({})", self.noun(), self.holds(model))
    }
}

/// What reading and checking a file gave.
#[derive(Debug)]
pub struct Found<R> {
    /// The usable model.
    pub model: R,
    /// The stamp of the bytes it came from.
    pub stamp: Stamp,
}

#[derive(Serialize)]
struct EnvelopeOut<'a, T> {
    format: &'a str,
    version: u32,
    payload: &'a T,
}

/// The payload of a file whose [`Header`] was checked.
#[derive(Deserialize)]
struct Envelope<T> {
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

    /// The user's home folder, which the status line writes as `~` in a path.
    pub fn home_dir() -> Option<PathBuf> {
        directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf())
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the file `name` lives.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Where the backup of `name` lives.
    pub fn prev_path(&self, name: &str) -> PathBuf {
        self.path(&format!("{name}.prev"))
    }

    /// Reads `file` and converts it with `usable`. `Ok(None)`: no file. `Err`: the file is
    /// not a regular file, too large, damaged, foreign, or `usable` refused it; the message
    /// names the path. The file is left as it is either way.
    pub fn load<T: DeserializeOwned, R>(
        &self,
        file: ModelFile,
        usable: impl FnOnce(T) -> Result<R, String>,
    ) -> Result<Option<Found<R>>, StoreError> {
        let path = self.path(file.name);
        let Some(bytes) = read_regular(&path)? else {
            return Ok(None);
        };
        let model = check(&path, &bytes, file, usable)?;
        Ok(Some(Found {
            model,
            stamp: Stamp::of(&bytes),
        }))
    }

    /// Writes `payload` as `file`, under the data dir's lock. The file there first:
    /// - unusable by the load (`usable` refuses it, or it is damaged, foreign, not a regular
    ///   file, too large): renamed `NAME.broken`, never overwritten;
    /// - usable, and not the one this model continues (`continues`, the stamp it was read
    ///   or last saved with; `None` for a new model): copied to `NAME.prev`;
    /// - usable and continued: simply replaced.
    ///
    /// The new file appears at once (a temporary file renamed over the old one); a failed
    /// save removes its temporary file.
    pub fn save<T: Serialize + DeserializeOwned, R>(
        &self,
        file: ModelFile,
        payload: &T,
        usable: impl FnOnce(T) -> Result<R, String>,
        continues: Option<Stamp>,
    ) -> Result<Saved, StoreError> {
        self.save_described(file, payload, usable, |_| None, continues)
    }

    /// [`Store::save`], with `describe` saying what a good file it replaces holds, for the
    /// note that it was kept.
    fn save_described<T: Serialize + DeserializeOwned, R>(
        &self,
        file: ModelFile,
        payload: &T,
        usable: impl FnOnce(T) -> Result<R, String>,
        describe: impl FnOnce(&R) -> Option<String>,
        continues: Option<Stamp>,
    ) -> Result<Saved, StoreError> {
        let path = self.path(file.name);
        let text = envelope_bytes(&path, file, payload)?;
        let _lock = self.lock()?;
        let mut replaced = None;
        let kept = match read_regular(&path) {
            Ok(None) => None,
            Ok(Some(old)) => match check(&path, &old, file, usable) {
                Ok(model) => {
                    let stamp = Stamp::of(&old);
                    replaced = Some(stamp);
                    if continues == Some(stamp) || old == text {
                        None
                    } else {
                        let model = describe(&model).map(|what| Described {
                            what,
                            saved_at: modified(&path),
                        });
                        let prev = self.prev_path(file.name);
                        self.write_atomically(&prev, &old)?;
                        keep_modified(&prev, model.as_ref());
                        Some(Kept::Previous { path: prev, model })
                    }
                }
                Err(why) => Some(self.set_aside(file.name, &why)?),
            },
            Err(error @ StoreError::Io { .. }) if path.is_dir() => return Err(error),
            Err(why) => Some(self.set_aside(file.name, &why)?),
        };
        self.write_atomically(&path, &text)?;
        Ok(Saved {
            path,
            stamp: Stamp::of(&text),
            kept,
            replaced,
        })
    }

    /// Reads a model of `kind` (see [`Store::load`]).
    pub fn load_kind<K: ModelKind>(&self, kind: &K) -> Result<Option<Found<K::Model>>, StoreError> {
        self.load(kind.file(), |payload| kind.usable(payload))
    }

    /// Writes `payload` as a model of `kind` (see [`Store::save`]): `continues` is the stamp
    /// it was read or last saved with (`None` for a new model).
    pub fn save_kind<K: ModelKind>(
        &self,
        kind: &K,
        payload: &K::Payload,
        continues: Option<Stamp>,
    ) -> Result<Saved, StoreError> {
        self.save_described(
            kind.file(),
            payload,
            |payload| kind.usable(payload),
            |model| Some(kind.describe(model)),
            continues,
        )
    }

    /// Checks that a save could be made now (the folder can be created and written, the lock
    /// taken, a few kilobytes written), so `train` can say so before the work.
    pub fn check_writable(&self) -> Result<(), StoreError> {
        let _lock = self.lock()?;
        let mut probe = self.temporary(".write-check")?;
        let io = StoreError::io(probe.path());
        probe.write_all(&[0; 4096]).map_err(io)?;
        let io = StoreError::io(probe.path());
        probe.as_file().sync_all().map_err(io)?;
        Ok(())
    }

    /// Writes `text` as a file of the data dir that appears whole or not at all (the DOT
    /// export, say): a temporary file renamed to `name`, removed if anything fails.
    pub fn write_file(&self, name: &str, text: &[u8]) -> Result<PathBuf, StoreError> {
        let path = self.path(name);
        self.write_atomically(&path, text)?;
        Ok(path)
    }

    /// The data dir's save lock, held until dropped (the folder is created first).
    fn lock(&self) -> Result<fs::File, StoreError> {
        fs::create_dir_all(&self.dir).map_err(StoreError::io(&self.dir))?;
        let path = self.path(LOCK_FILE);
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(StoreError::io(&path))?;
        file.lock().map_err(StoreError::io(&path))?;
        Ok(file)
    }

    fn temporary(&self, name: &str) -> Result<tempfile::NamedTempFile, StoreError> {
        fs::create_dir_all(&self.dir).map_err(StoreError::io(&self.dir))?;
        temporary_beside(&self.dir.join(name)).map_err(StoreError::io(&self.dir))
    }

    fn write_atomically(&self, path: &Path, text: &[u8]) -> Result<(), StoreError> {
        fs::create_dir_all(&self.dir).map_err(StoreError::io(&self.dir))?;
        write_whole(path, text).map_err(StoreError::io(path))
    }

    /// Renames an unusable `name` out of the way (`name.broken`, `name.broken-2`, ...) so a
    /// new save keeps it.
    fn set_aside(&self, name: &str, why: &StoreError) -> Result<Kept, StoreError> {
        let from = self.path(name);
        let to = (1..=u32::MAX)
            .map(|i| match i {
                1 => self.path(&format!("{name}.broken")),
                i => self.path(&format!("{name}.broken-{i}")),
            })
            .find(|p| fs::symlink_metadata(p).is_err())
            .expect("some free name");
        fs::rename(&from, &to).map_err(StoreError::io(&from))?;
        Ok(Kept::Broken {
            path: to,
            why: why.to_string(),
        })
    }
}

/// The bytes a save of `payload` as `file` writes: the envelope and the payload.
fn envelope_bytes<T: Serialize>(
    path: &Path,
    file: ModelFile,
    payload: &T,
) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec(&EnvelopeOut {
        format: file.format,
        version: file.version,
        payload,
    })
    .map_err(|e| StoreError::Damaged {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })
}

/// When `path` was last written, if the file system says.
fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Gives a backup the time its model was saved rather than the time it was copied, so
/// "saved 3 minutes ago" stays true of it. Best effort: a file system that refuses keeps
/// the copy's time, and the model is kept all the same.
fn keep_modified(path: &Path, model: Option<&Described>) {
    if let Some(at) = model.and_then(|model| model.saved_at)
        && let Ok(file) = fs::OpenOptions::new().write(true).open(path)
    {
        let _ = file.set_modified(at);
    }
}

/// A new temporary file in `path`'s folder, named after it (`.NAME.XXXXXX.tmp`), removed
/// when dropped unless persisted.
fn temporary_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |name| name.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // What a plainly created file gets (less the umask), not a temporary's 0600.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o644));
    }
    builder.tempfile_in(dir)
}

/// Writes `text` to `path` whole or not at all: a temporary file beside it, synced, then
/// renamed over it. On any failure (a full disk, a directory in the way) the temporary file
/// is removed and `path` is as it was: never empty, never cut off.
pub fn write_whole(path: &Path, text: &[u8]) -> std::io::Result<()> {
    let mut temporary = temporary_beside(path)?;
    temporary.write_all(text)?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Reads `path` if it is a regular file of at most [`MAX_FILE_BYTES`] (following symlinks):
/// `Ok(None)` when there is nothing there. Never blocks on a FIFO and never reads without
/// limit.
fn read_regular(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    match regular::read_regular(path, MAX_FILE_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(Unread::Missing) => Ok(None),
        Err(Unread::NotAFile("a directory")) => Err(StoreError::io(path)(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "a directory is in the way of a model file",
        ))),
        Err(Unread::NotAFile(what)) => Err(StoreError::NotAFile {
            path: path.to_path_buf(),
            what,
        }),
        Err(Unread::TooLarge(size)) => Err(StoreError::TooLarge {
            path: path.to_path_buf(),
            size,
        }),
        Err(Unread::Io(reason)) => Err(StoreError::io(path)(reason)),
    }
}

/// Decodes `bytes` as `file` and converts the payload with `usable`.
fn check<T: DeserializeOwned, R>(
    path: &Path,
    bytes: &[u8],
    file: ModelFile,
    usable: impl FnOnce(T) -> Result<R, String>,
) -> Result<R, StoreError> {
    let damaged = |e: serde_json::Error| StoreError::Damaged {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let header: Header = serde_json::from_slice(bytes).map_err(damaged)?;
    if header.format != file.format || header.version != file.version {
        return Err(StoreError::Foreign {
            path: path.to_path_buf(),
            found: format!("{} v{}", header.format, header.version),
            expected: format!("{} v{}", file.format, file.version),
        });
    }
    let envelope: Envelope<T> = serde_json::from_slice(bytes).map_err(damaged)?;
    usable(envelope.payload).map_err(|reason| StoreError::Unusable {
        path: path.to_path_buf(),
        reason,
    })
}

/// Why the files a tab saved could not be used, one reason each, for a server to print at
/// start (a tab shows its own in its pane).
pub trait Problems {
    /// The reasons, empty when every file was fine or absent.
    fn problems(&self) -> Vec<&str>;
}

impl Problems for () {
    fn problems(&self) -> Vec<&str> {
        Vec::new()
    }
}

impl<T> Problems for Loaded<T> {
    fn problems(&self) -> Vec<&str> {
        self.error.as_deref().into_iter().collect()
    }
}

/// What reading one saved model gave: the model, or why the file could not be used (both
/// empty when there is no file). The tab shows the reason, so it is kept, not dropped.
#[derive(Debug, Clone)]
pub struct Loaded<T> {
    /// The model, when a file was there and fits the config.
    pub model: Option<T>,
    /// Why the file there could not be used.
    pub error: Option<String>,
    /// The stamp of the file the model was read from: a save that continues this model
    /// replaces that file without backing it up.
    pub stamp: Option<Stamp>,
}

impl<T> Default for Loaded<T> {
    fn default() -> Self {
        Self {
            model: None,
            error: None,
            stamp: None,
        }
    }
}

impl<T> Loaded<T> {
    /// A model that fits, not read from a file.
    pub fn model(model: T) -> Self {
        Self {
            model: Some(model),
            error: None,
            stamp: None,
        }
    }

    /// A file that could not be used, and why.
    pub fn error(why: String) -> Self {
        Self {
            model: None,
            error: Some(why),
            stamp: None,
        }
    }

    /// What [`Store::load`] gave: the model with its file's stamp, nothing, or why not.
    pub fn read(result: Result<Option<Found<T>>, StoreError>) -> Self {
        match result {
            Ok(Some(found)) => Self {
                model: Some(found.model),
                error: None,
                stamp: Some(found.stamp),
            },
            Ok(None) => Self::default(),
            Err(error) => Self::error(error.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: ModelFile = ModelFile {
        name: "m.json",
        format: "test",
        version: 1,
    };

    /// A store in a folder `tag`, not yet made, inside a fresh temporary folder that is
    /// removed when the returned guard is dropped.
    fn temp_store(tag: &str) -> (tempfile::TempDir, Store) {
        let temp = tempfile::tempdir().unwrap();
        let store = Store::new(temp.path().join(tag));
        (temp, store)
    }

    /// Accepts any value up to 100, as a config range would.
    #[allow(clippy::unnecessary_wraps)]
    fn small(n: u32) -> Result<u32, String> {
        if n <= 100 {
            Ok(n)
        } else {
            Err(format!("{n} is above 100"))
        }
    }

    fn load(store: &Store) -> Result<Option<u32>, StoreError> {
        Ok(store.load(FILE, small)?.map(|found| found.model))
    }

    /// Files in the store's folder, sorted, the lock file left out.
    fn listing(store: &Store) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(store.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name != LOCK_FILE)
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_saved_value_loads_back_and_leaves_no_temporary_file() {
        let (_temp, store) = temp_store("roundtrip");
        let saved = store.save(FILE, &7u32, small, None).unwrap();
        assert!(saved.path.exists() && saved.kept.is_none());
        assert_eq!(load(&store).unwrap(), Some(7));
        assert_eq!(listing(&store), ["m.json"], "nothing but the file");
    }

    #[test]
    fn a_missing_file_is_none() {
        let (_temp, store) = temp_store("missing");
        assert!(load(&store).unwrap().is_none());
    }

    #[test]
    fn damaged_foreign_and_unusable_files_are_reported_and_left_alone() {
        let (_temp, store) = temp_store("damaged");
        fs::create_dir_all(store.dir()).unwrap();
        let path = store.path("m.json");
        for (text, kind) in [
            ("{ not json", "damaged"),
            (
                r#"{"format":"test","version":2,"payload":5}"#,
                "holds test v2",
            ),
            (
                r#"{"format":"test","version":1,"payload":500}"#,
                "above 100",
            ),
            (r#"{"format":"test","version":1,"payload":null}"#, "damaged"),
        ] {
            fs::write(&path, text).unwrap();
            let error = load(&store).unwrap_err().to_string();
            assert!(error.contains("m.json") && error.contains(kind), "{error}");
            assert_eq!(fs::read_to_string(&path).unwrap(), text, "untouched");
        }
    }

    #[test]
    fn a_save_keeps_an_unusable_file_as_broken_and_a_good_one_as_prev() {
        let (_temp, store) = temp_store("keeping");
        fs::create_dir_all(store.dir()).unwrap();
        fs::write(
            store.path("m.json"),
            r#"{"format":"test","version":1,"payload":500}"#,
        )
        .unwrap();
        let saved = store.save(FILE, &5u32, small, None).unwrap();
        let Some(Kept::Broken { path, why }) = saved.kept else {
            panic!("kept aside: {:?}", saved.kept)
        };
        assert!(
            path.ends_with("m.json.broken") && why.contains("above 100"),
            "{why}"
        );
        assert!(fs::read_to_string(&path).unwrap().contains("500"));
        let good = fs::read(store.path("m.json")).unwrap();

        // A new model over a good file: the good one becomes the backup, byte for byte.
        let replaced = store.save(FILE, &6u32, small, None).unwrap();
        assert_eq!(
            replaced.kept,
            Some(Kept::Previous {
                path: store.prev_path("m.json"),
                model: None
            })
        );
        assert_eq!(fs::read(store.prev_path("m.json")).unwrap(), good);

        // A save that continues the file on disk keeps the backup as it is.
        let continued = store
            .save(FILE, &7u32, small, Some(replaced.stamp))
            .unwrap();
        assert!(continued.kept.is_none());
        assert_eq!(fs::read(store.prev_path("m.json")).unwrap(), good);

        // A stale stamp (someone else saved in between) backs the file up again.
        let other = store
            .save(FILE, &8u32, small, Some(replaced.stamp))
            .unwrap();
        assert!(matches!(other.kept, Some(Kept::Previous { .. })));
        assert!(
            fs::read_to_string(store.prev_path("m.json"))
                .unwrap()
                .contains('7')
        );
        assert_eq!(load(&store).unwrap(), Some(8));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_dev_zero_is_refused_at_once_and_kept_aside_by_a_save() {
        let (_temp, store) = temp_store("special");
        fs::create_dir_all(store.dir()).unwrap();
        let fifo = store.path("m.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        // Without the check this open would wait for a writer forever.
        let error = load(&store).unwrap_err().to_string();
        assert!(
            error.contains("a FIFO") && error.contains("not read"),
            "{error}"
        );
        let saved = store.save(FILE, &1u32, small, None).unwrap();
        assert!(matches!(saved.kept, Some(Kept::Broken { .. })));
        assert_eq!(load(&store).unwrap(), Some(1));

        fs::remove_file(&fifo).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &fifo).unwrap();
        let error = load(&store).unwrap_err().to_string();
        assert!(error.contains("a character device"), "{error}");
    }

    #[test]
    fn a_file_above_the_limit_is_refused_without_reading_it() {
        let (_temp, store) = temp_store("large");
        fs::create_dir_all(store.dir()).unwrap();
        let file = fs::File::create(store.path("m.json")).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        let error = load(&store).unwrap_err();
        assert!(matches!(error, StoreError::TooLarge { .. }), "{error}");
    }

    #[test]
    fn a_failed_save_leaves_no_temporary_file() {
        let (_temp, store) = temp_store("failed");
        fs::create_dir_all(store.path("m.json")).unwrap();
        let error = store.save(FILE, &1u32, small, None).unwrap_err();
        assert!(error.to_string().contains("directory"), "{error}");
        assert_eq!(
            listing(&store),
            ["m.json"],
            "no temporary file, nothing renamed"
        );
    }

    #[test]
    fn concurrent_saves_leave_one_valid_document_and_take_turns() {
        let (_temp, store) = temp_store("concurrent");
        let writers: Vec<_> = (0..4u32)
            .map(|writer| {
                let store = store.clone();
                std::thread::spawn(move || {
                    let mut replaced = Vec::new();
                    for round in 0..25u32 {
                        // Payloads of different lengths, so interleaved writes would show.
                        let payload = vec![writer * 100 + round; 50 * (writer as usize + 1)];
                        let saved = store
                            .save(FILE, &payload, |v: Vec<u32>| Ok::<_, String>(v), None)
                            .unwrap();
                        replaced.extend(saved.replaced);
                        let read: Vec<u32> =
                            store.load(FILE, Ok::<_, String>).unwrap().unwrap().model;
                        assert!(read.iter().all(|&v| v == read[0]), "one document");
                    }
                    replaced
                })
            })
            .collect();
        let mut replaced = Vec::new();
        for writer in writers {
            replaced.extend(writer.join().unwrap());
        }
        // Saves that take turns replace each file once: 99 replacements of 99 distinct files.
        // Without the lock, two saves read the same file and one save's file is never backed
        // up.
        let distinct: std::collections::HashSet<_> = replaced.iter().collect();
        assert_eq!((replaced.len(), distinct.len()), (99, 99));
        let last: Vec<u32> = store.load(FILE, Ok::<_, String>).unwrap().unwrap().model;
        assert!(last.iter().all(|&v| v == last[0]));
        assert_eq!(listing(&store), ["m.json", "m.json.prev"]);
    }
}
