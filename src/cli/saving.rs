//! How the `train` commands save: the data dir is checked before the work, a trained model
//! is replaced only with consent, and stderr says what became of the file replaced.

use super::exit::fail;
use crate::persist::{Kept, ModelFile, Stamp, Store};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// What a run will do to the model file there.
pub(super) enum Plan {
    /// Nothing usable is there (no file, or one the save will keep as `.broken`).
    New,
    /// The run continues the file read with this stamp (a resumed network).
    Continue(Stamp),
    /// The run replaces a good file holding this much training ("4,000 epochs").
    Replace(String),
}

impl Plan {
    /// The stamp a save continues.
    pub(super) fn continues(&self) -> Option<Stamp> {
        match self {
            Self::Continue(stamp) => Some(*stamp),
            Self::New | Self::Replace(_) => None,
        }
    }
}

/// Before the work: the data dir can be written, and a trained model the run would
/// replace is replaced only when the user agrees (a prompt on a terminal) or passed
/// `--yes`. On refusal, the exit status to return (2).
pub(super) fn before_training(
    store: &Store,
    file: ModelFile,
    plan: &Plan,
    yes: bool,
) -> Result<(), ExitCode> {
    if let Err(error) = store.check_writable() {
        return Err(fail(format!(
            "cannot save in {}: {error}",
            store.dir().display()
        )));
    }
    let Plan::Replace(training) = plan else {
        return Ok(());
    };
    if yes {
        return Ok(());
    }
    let path = store.path(file.name);
    let backup = store.prev_path(file.name);
    if !std::io::stdin().is_terminal() {
        return Err(fail(format!(
            "{} holds {training} of training, which this run would replace: pass --yes to \
             replace it (the old file is then kept as {})",
            path.display(),
            backup.display()
        )));
    }
    eprint!(
        "replace {training} of training in {}? [y/N] ",
        path.display()
    );
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    if matches!(answer.trim().to_lowercase().as_str(), "y" | "yes") {
        eprintln!("the old file will be kept as {}", backup.display());
        Ok(())
    } else {
        Err(fail(format!(
            "not replaced: {} is as it was",
            path.display()
        )))
    }
}

/// Saves `payload` as `file` (see [`Store::save`]) and says on stderr where the file it
/// replaced went; the error is the message to fail with.
pub(super) fn save<T: Serialize + DeserializeOwned, R>(
    store: &Store,
    file: ModelFile,
    payload: &T,
    usable: impl FnOnce(T) -> Result<R, String>,
    plan: &Plan,
) -> Result<PathBuf, String> {
    let saved = store
        .save(file, payload, usable, plan.continues())
        .map_err(|e| format!("could not save: {e}"))?;
    match &saved.kept {
        Some(Kept::Previous(prev)) => {
            eprintln!(
                "the previous {} is kept as {}",
                saved.path.display(),
                prev.display()
            );
        }
        Some(Kept::Broken { path, why }) => {
            eprintln!("the unusable file was kept as {} ({why})", path.display());
        }
        None => {}
    }
    Ok(saved.path)
}

/// `count` units of training in words, "4,000 epochs"; `None` for no training at all.
pub(super) fn training(count: u64, unit: &str) -> Option<String> {
    (count > 0).then(|| format!("{} {unit}", crate::domain::numbers::thousands(count)))
}
