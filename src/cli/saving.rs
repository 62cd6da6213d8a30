//! How the `train` commands save: the data dir is checked before the work, a trained model
//! is replaced only with consent, and stderr says what became of the file replaced.

use super::exit::fail;
use crate::persist::{Kept, ModelFile, ModelKind, Stamp, Store};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::SystemTime;

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

/// Saves `payload` as a model of `kind` (see [`Store::save_kind`]) and says on stderr what
/// the file it replaced held and where it went; the error is the message to fail with.
pub(super) fn save<K: ModelKind>(
    store: &Store,
    kind: &K,
    payload: &K::Payload,
    plan: &Plan,
) -> Result<PathBuf, String> {
    let saved = store
        .save_kind(kind, payload, plan.continues())
        .map_err(|e| format!("could not save: {e}"))?;
    if let Some(kept) = &saved.kept {
        eprintln!("{}", kept_words(&saved.path, kept, SystemTime::now()));
    }
    Ok(saved.path)
}

/// What a save did to the file it replaced, as `train` says it: "replaced the Q-table
/// (20,000 games, …, saved 2 hours ago) in PATH; it is kept as PATH.prev".
fn kept_words(path: &Path, kept: &Kept, now: SystemTime) -> String {
    match kept {
        Kept::Previous { path: prev, model } => {
            let what = model.as_ref().map_or_else(
                || "the previous file".to_string(),
                |m| format!("the {}", m.words(now)),
            );
            format!(
                "replaced {what} in {}; it is kept as {} (the arcade's restore key on its tab, \
                 or moving the file back, brings it back)",
                path.display(),
                prev.display()
            )
        }
        Kept::Broken { path, why } => {
            format!("the unusable file was kept as {} ({why})", path.display())
        }
    }
}

/// `count` units of training in words, "4,000 epochs"; `None` for no training at all.
pub(super) fn training(count: u64, unit: &str) -> Option<String> {
    (count > 0).then(|| format!("{} {unit}", crate::domain::numbers::thousands(count)))
}
