//! What quitting would lose, in words (issue 29 §8: nothing a student made is lost without
//! a word). The tabs say what they hold ([`Unsaved`]: work not saved, a game in progress,
//! the scores, the runs kept for comparing); the app adds the settings changed in the
//! session, which it alone sees whole (from the journal). The quit question names only what
//! really exists, so a session with nothing to lose quits at once.

use super::{App, Entry, TabId};
use crate::tabkit::settings::Value;
use crate::tabkit::tab::{Storage, Unsaved};
use crate::tabkit::tally::Tally;

impl App {
    /// What quitting now would lose, as the end of a sentence ("the game in progress on
    /// Tic-tac-toe, 3 settings changes and the scores on Connect Four (won 2 lost 1) are not
    /// saved"), or `None` when nothing would be. With a data dir the tabs save their
    /// learners on the way out, so only the rest is named; the scores, games, settings and
    /// runs of a session are never written anywhere.
    pub fn quit_loses(&self) -> Option<String> {
        let lost = self.tabs.unsaved();
        let changes = self.settings_changed();
        let parts = lost_parts(&lost, changes);
        let (last, rest) = parts.split_last()?;
        let list = if rest.is_empty() {
            last.words.clone()
        } else {
            let rest: Vec<&str> = rest.iter().map(|part| part.words.as_str()).collect();
            format!("{} and {}", rest.join(", "), last.words)
        };
        let verb = if rest.is_empty() && !last.plural {
            "is"
        } else {
            "are"
        };
        let trained = lost.iter().any(|(_, unsaved)| !unsaved.work.is_empty());
        let place = match self.storage {
            // Nothing of a session is written on a shared server: true of every part.
            Storage::SharedServer => " on this server",
            // Only the trained work would be kept by a data dir: said only with it.
            Storage::Nowhere if trained => " (no data dir)",
            // A lesson's learners start fresh each time, as the class's do.
            Storage::Lesson if trained => " (a lesson keeps no learner)",
            Storage::Nowhere | Storage::DataDir | Storage::Lesson => "",
        };
        Some(format!("{list} {verb} not saved{place}"))
    }

    /// What leaving a served session means, as the end of the quit question: a student's
    /// place is kept for their return; a teacher's followers are freed until they come
    /// back.
    pub(super) fn leaving_words(&self) -> String {
        let Some(room) = &self.room else {
            return "your place is kept until you log in again".to_string();
        };
        let following = room
            .seats()
            .iter()
            .filter(|seat| seat.at.following && !seat.away)
            .count();
        match following {
            0 => "your session is kept for when you log in again".to_string(),
            1 => "the student following you is freed until you come back".to_string(),
            n => format!("the {n} students following you are freed until you come back"),
        }
    }

    /// How many settings the session changed through the settings panel and left changed
    /// (a setting set back to where it started counts no more), from the journal: every
    /// panel change is an entry there, replayed ones included.
    pub fn settings_changed(&self) -> usize {
        let mut first_and_last: Vec<(TabId, &str, Value, Value)> = Vec::new();
        for entry in self.journal.entries().iter() {
            let Entry::Settings(tab, changes) = entry else {
                continue;
            };
            for change in changes {
                match first_and_last
                    .iter_mut()
                    .find(|(t, key, ..)| t == tab && *key == change.key)
                {
                    Some((.., last)) => *last = change.to,
                    None => first_and_last.push((*tab, change.key, change.from, change.to)),
                }
            }
        }
        first_and_last
            .iter()
            .filter(|(.., from, to)| from != to)
            .count()
    }
}

/// One part of the quit sentence.
#[derive(Debug, PartialEq, Eq)]
struct Part {
    /// Its words: "the game in progress on Tic-tac-toe".
    words: String,
    /// Whether a verb after it alone is plural ("3 settings changes are").
    plural: bool,
}

/// The parts of the quit sentence, in the order a student reads them: work first, then the
/// games in progress, the settings, the scores, the runs.
fn lost_parts(lost: &[(TabId, Unsaved)], settings_changed: usize) -> Vec<Part> {
    let mut parts: Vec<String> = lost
        .iter()
        .flat_map(|(_, unsaved)| unsaved.work.iter().map(|&work| work.to_string()))
        .collect();
    let playing: Vec<&str> = lost
        .iter()
        .filter(|(_, unsaved)| unsaved.game_in_progress)
        .map(|(tab, _)| tab.title())
        .collect();
    match playing.as_slice() {
        [] => {}
        [one] => parts.push(format!("the game in progress on {one}")),
        many => parts.push(format!("the games in progress on {}", and_list(many))),
    }
    match settings_changed {
        0 => {}
        1 => parts.push("1 settings change".to_string()),
        n => parts.push(format!("{n} settings changes")),
    }
    let scored: Vec<(&str, Tally)> = lost
        .iter()
        .filter(|(_, unsaved)| unsaved.scores != Tally::default())
        .map(|(tab, unsaved)| (tab.title(), unsaved.scores))
        .collect();
    match scored.as_slice() {
        [] => {}
        [(tab, tally)] => parts.push(format!("the scores on {tab} ({})", score(*tally))),
        many => {
            let each: Vec<String> = many
                .iter()
                .map(|(tab, tally)| format!("{tab} {}", score(*tally)))
                .collect();
            parts.push(format!("the scores ({})", each.join("; ")));
        }
    }
    let runs: Vec<(&str, usize)> = lost
        .iter()
        .filter(|(_, unsaved)| unsaved.compared_runs > 0)
        .map(|(tab, unsaved)| (tab.title(), unsaved.compared_runs))
        .collect();
    let total: usize = runs.iter().map(|(_, n)| n).sum();
    if total > 0 {
        let tabs: Vec<&str> = runs.iter().map(|(tab, _)| *tab).collect();
        let plural = if total == 1 { "" } else { "s" };
        parts.push(format!(
            "the compare-runs history of {total} run{plural} on {}",
            and_list(&tabs)
        ));
    }
    parts
        .into_iter()
        .map(|words| Part {
            plural: words.starts_with("the scores")
                || words.starts_with("the games ")
                || words.ends_with("settings changes"),
            words,
        })
        .collect()
}

/// "won 2 lost 1", with the draws when there were some.
fn score(tally: Tally) -> String {
    let drawn = if tally.drawn > 0 {
        format!(" drawn {}", tally.drawn)
    } else {
        String::new()
    };
    format!("won {} lost {}{drawn}", tally.won, tally.lost)
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[&str]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(lost: &[(TabId, Unsaved)], settings_changed: usize) -> Vec<String> {
        lost_parts(lost, settings_changed)
            .into_iter()
            .map(|part| part.words)
            .collect()
    }

    #[test]
    fn only_what_exists_is_named_each_in_its_own_words() {
        assert!(lost_parts(&[], 0).is_empty());
        let tictactoe = Unsaved {
            game_in_progress: true,
            scores: Tally {
                won: 2,
                lost: 1,
                drawn: 0,
            },
            ..Unsaved::default()
        };
        let subtraction = Unsaved {
            work: vec!["the Subtraction Nim network you trained"],
            compared_runs: 2,
            ..Unsaved::default()
        };
        assert_eq!(
            words(
                &[
                    (TabId::SubtractionNim, subtraction),
                    (TabId::TicTacToe, tictactoe.clone())
                ],
                3
            ),
            [
                "the Subtraction Nim network you trained",
                "the game in progress on Tic-tac-toe",
                "3 settings changes",
                "the scores on Tic-tac-toe (won 2 lost 1)",
                "the compare-runs history of 2 runs on Subtraction Nim",
            ]
        );
        let connect4 = Unsaved {
            game_in_progress: true,
            scores: Tally {
                won: 0,
                lost: 1,
                drawn: 1,
            },
            ..Unsaved::default()
        };
        assert_eq!(
            words(
                &[
                    (TabId::TicTacToe, tictactoe),
                    (TabId::ConnectFour, connect4)
                ],
                1
            ),
            [
                "the games in progress on Tic-tac-toe and Connect Four",
                "1 settings change",
                "the scores (Tic-tac-toe won 2 lost 1; Connect Four won 0 lost 1 drawn 1)",
            ]
        );
    }
}
