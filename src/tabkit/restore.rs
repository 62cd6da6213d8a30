//! The learner tabs' side of the model backup (`NAME.prev`): what a save that replaced a
//! model says, the key that puts the previous model back, and what a restore says. One
//! wording and one key for every tab, so a student who met it on one tab knows it on the
//! next.

use super::keymap::{Binding, Key, bind};
use super::message::Message;
use super::tab::Storage;
use crate::persist::restore::{RestoreError, Restored};
use crate::persist::{Described, Kept, Saved};
use std::time::SystemTime;

/// `B` ("back"): the previous model back in play. One binding for every learner's tab, so
/// its key, words and hint cannot drift apart.
pub const fn restore_key<A>(
    description: &'static str,
    hint: &'static str,
    action: fn(Key) -> A,
) -> Binding<A> {
    bind(&[Key::Char('B')], "B", description, hint, action)
}

/// A second restore key where a tab keeps two models (Multi-pile Nim's network: `N`).
pub const fn second_restore_key<A>(description: &'static str, action: fn(Key) -> A) -> Binding<A> {
    bind(&[Key::Char('N')], "N", description, "", action)
}

/// What a save adds to its message about the file it replaced: for a good model, what it
/// held, that it is kept and which key (`restore`) puts it back; for an unusable file, where
/// it was set aside; nothing when nothing was replaced.
pub fn saved_note(saved: &Saved, restore: &str) -> String {
    match &saved.kept {
        Some(Kept::Previous { path, model }) => {
            let what = model.as_ref().map_or_else(
                || "file".to_string(),
                |model| model.words(SystemTime::now()),
            );
            format!(
                "; the previous {what} is kept as {}: {restore} restores it",
                path.display()
            )
        }
        Some(Kept::Broken { .. }) | None => saved.kept_note(),
    }
}

/// What a restore says: what came back, what went to the backup, and that the same key
/// swaps them again.
pub fn restored<M>(restored: &Restored<M>, key: &str) -> Message {
    let now = SystemTime::now();
    let words = |model: &Described| model.words(now);
    Message::info(format!(
        "Restored the previous {}; the one it replaces ({}) is kept as {}: {key} swaps back",
        words(&restored.restored),
        strip_noun(&words(&restored.kept)),
        restored.prev.display()
    ))
}

/// "network (4,000 epochs)" without its noun, inside the sentence that already names it.
fn strip_noun(words: &str) -> &str {
    words
        .split_once(" (")
        .map_or(words, |(_, rest)| rest.strip_suffix(')').unwrap_or(rest))
}

/// What a refused restore says: why (with the path and the reason), and that nothing
/// changed.
pub fn refused(error: &RestoreError, noun: &str) -> Message {
    let error = error.to_string();
    let first = error.chars().next().map(char::to_uppercase);
    let sentence = first.map_or_else(String::new, |up| up.collect::<String>() + &error[1..]);
    Message::error(format!("{sentence}; the {noun} in play is unchanged"))
}

/// What the restore key says where nothing is saved, so no previous model is kept.
pub fn unavailable(storage: Storage, noun: &str) -> Message {
    Message::error(match storage {
        Storage::SharedServer => {
            format!("Nothing is saved on a shared server, so no previous {noun} is kept")
        }
        Storage::Lesson => {
            format!("A lesson starts its learners fresh: no previous {noun} is kept")
        }
        Storage::Nowhere | Storage::DataDir => {
            format!("No data dir (see --data-dir): no previous {noun} is kept")
        }
    })
}

/// What the restore key says while its learner trains: the model in play changes under it.
pub fn while_training(noun: &str, pause: &str, key: &str) -> Message {
    Message::error(format!(
        "The {noun} is training: {pause} pauses it, then {key} restores the previous {noun}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::Stamp;
    use std::path::PathBuf;
    use std::time::Duration;

    #[test]
    fn a_restore_names_both_models_and_the_key_that_swaps_back() {
        let an_hour_ago = SystemTime::now() - Duration::from_secs(3_700);
        let done = Restored {
            model: (),
            stamp: stamp(),
            restored: Described {
                what: "network (4,000 epochs, wins at 120/120 winning piles)".into(),
                saved_at: Some(an_hour_ago),
            },
            kept: Described {
                what: "network (500 epochs, wins at 31/120 winning piles)".into(),
                saved_at: None,
            },
            prev: PathBuf::from("/d/subtraction.json.prev"),
        };
        assert_eq!(
            restored(&done, "B").text,
            "Restored the previous network (4,000 epochs, wins at 120/120 winning piles, \
             saved 1 hour ago); the one it replaces (500 epochs, wins at 31/120 winning \
             piles) is kept as /d/subtraction.json.prev: B swaps back"
        );
    }

    fn stamp() -> Stamp {
        let temp = tempfile::tempdir().unwrap();
        let store = crate::persist::Store::new(temp.path());
        let file = crate::persist::ModelFile {
            name: "m.json",
            format: "test",
            version: 1,
        };
        store
            .save(file, &1u32, Ok::<_, String>, None)
            .unwrap()
            .stamp
    }

    #[test]
    fn a_refusal_is_a_sentence_that_says_nothing_changed() {
        let error = RestoreError::NoPrevious {
            noun: "network",
            path: PathBuf::from("/d/n.json.prev"),
        };
        assert_eq!(
            refused(&error, "network").text,
            "No previous network is kept (/d/n.json.prev): nothing to restore; the network in \
             play is unchanged"
        );
    }
}
