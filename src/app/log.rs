//! The message log: the last messages, whole, for the overlay that shows what the one-line
//! status line had to shorten or has since replaced; and the shortening of paths that the
//! status line uses.

use crate::tabkit::message::Message;
use std::collections::VecDeque;
use std::path::Path;

/// How many messages the log keeps; older ones are dropped first.
pub const LOG_CAPACITY: usize = 100;

/// The last [`LOG_CAPACITY`] messages, oldest first; a message said again at once is
/// counted rather than repeated, so a held key does not push the rest out.
#[derive(Debug, Clone, Default)]
pub struct MessageLog {
    entries: VecDeque<(Message, u32)>,
}

impl MessageLog {
    /// Appends `message` (or counts it again), dropping the oldest when the log is full.
    ///
    /// An entry being typed replaces the echo of the same question before it, so the log
    /// keeps the question and the answer as it ended, not each keystroke.
    pub fn push(&mut self, message: Message) {
        if let Some((last, times)) = self.entries.back_mut() {
            if *last == message {
                *times += 1;
                return;
            }
            if last.same_question(&message) {
                *last = message;
                *times = 1;
                return;
            }
        }
        if self.entries.len() == LOG_CAPACITY {
            self.entries.pop_front();
        }
        self.entries.push_back((message, 1));
    }

    /// The messages kept, oldest first, each with how many times in a row it was said.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (&Message, u32)> {
        self.entries
            .iter()
            .map(|(message, times)| (message, *times))
    }

    /// How many messages are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True before the first message.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// `text` as a status line of `room` columns shows it: whole when it fits, so a path names
/// its folder (where an export went); else with paths in `home` written from `~`; else with
/// every path cut to its file name, so the sentence keeps its room. The log keeps it whole.
pub fn fit_paths(text: &str, room: usize, home: Option<&Path>) -> String {
    let fits = |text: &str| text.chars().count() <= room;
    if fits(text) {
        return text.to_string();
    }
    let from_home = home
        .and_then(Path::to_str)
        .filter(|home| home.len() > 1)
        .map_or_else(
            || text.to_string(),
            |home| {
                let home = home.trim_end_matches('/');
                text.split(' ')
                    .map(|word| tilde(word, home))
                    .collect::<Vec<_>>()
                    .join(" ")
            },
        );
    if fits(&from_home) {
        from_home
    } else {
        short_paths(&from_home)
    }
}

/// `word` with `home` at its start written `~` (`/home/a/x.dot` → `~/x.dot`).
fn tilde(word: &str, home: &str) -> String {
    match word.strip_prefix(home) {
        Some(rest) if rest.starts_with('/') => format!("~{rest}"),
        _ => word.to_string(),
    }
}

/// `text` with every file path cut to its file name (`saved to /home/a/.local/share/x.json`
/// becomes `saved to x.json`), so the one-line status line keeps the sentence; the log keeps
/// the whole path. A word is a path when it starts with `/`, `./`, `../` or `~/`, or when it
/// has a `/` and its last part has a file extension (`data/x.json`); fractions such as
/// `30/40` stay as they are.
pub fn short_paths(text: &str) -> String {
    text.split(' ')
        .map(shorten_word)
        .collect::<Vec<_>>()
        .join(" ")
}

fn shorten_word(word: &str) -> String {
    // Keep an opening bracket or quote before the path and punctuation after it.
    let start = word
        .find(|c: char| !matches!(c, '(' | '"' | '\'' | '['))
        .unwrap_or(word.len());
    let (before, rest) = word.split_at(start);
    let end = rest
        .rfind(|c: char| !matches!(c, ')' | '"' | '\'' | ']' | ',' | ';' | ':' | '.'))
        .map_or(0, |i| {
            i + rest[i..].chars().next().map_or(1, char::len_utf8)
        });
    let (path, after) = rest.split_at(end);
    if !is_path(path) {
        return word.to_string();
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    format!("{before}{name}{after}")
}

fn is_path(word: &str) -> bool {
    let Some((dir, name)) = word.rsplit_once('/') else {
        return false;
    };
    if name.is_empty() {
        return false;
    }
    let anchored = ["/", "./", "../", "~/"]
        .iter()
        .any(|prefix| word.starts_with(prefix));
    let has_extension = name
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && ext.chars().any(char::is_alphabetic));
    let numeric_dir = dir.chars().all(|c| c.is_ascii_digit() || c == '.');
    anchored || (has_extension && !numeric_dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::MessageKind;

    #[test]
    fn paths_become_file_names_and_other_words_stay() {
        assert_eq!(
            short_paths(
                "Trained: wins at 30/40 winning piles; saved to /tmp/ab/x/subtraction.json"
            ),
            "Trained: wins at 30/40 winning piles; saved to subtraction.json"
        );
        assert_eq!(
            short_paths("paused (the old file is kept as /d/nim.json.broken), p resumes"),
            "paused (the old file is kept as nim.json.broken), p resumes"
        );
        assert_eq!(
            short_paths("written to data/state-graph.dot."),
            "written to state-graph.dot."
        );
        assert_eq!(short_paths("train/pause 1/3 a/b"), "train/pause 1/3 a/b");
        assert_eq!(short_paths("root / and // and /"), "root / and // and /");
    }

    #[test]
    fn a_path_is_shown_whole_when_the_line_has_room_for_it() {
        let text = "Search tree saved as DOT to /home/ann/.local/share/ai-arcade/search-tree.dot";
        let home = Path::new("/home/ann");
        assert_eq!(fit_paths(text, 80, Some(home)), text, "it fits: whole");
        assert_eq!(
            fit_paths(text, 70, Some(home)),
            "Search tree saved as DOT to ~/.local/share/ai-arcade/search-tree.dot",
            "the home folder as ~, the rest whole"
        );
        assert_eq!(
            fit_paths(text, 40, Some(home)),
            "Search tree saved as DOT to search-tree.dot"
        );
        assert_eq!(
            fit_paths(text, 70, None),
            "Search tree saved as DOT to search-tree.dot",
            "no home: file names"
        );
        assert_eq!(
            fit_paths("saved to /home/annex/x.json now", 20, Some(home)),
            "saved to x.json now",
            "only the home folder itself becomes ~"
        );
    }

    #[test]
    fn the_log_keeps_the_last_hundred() {
        let mut log = MessageLog::default();
        for i in 0..150 {
            log.push(Message::info(format!("m{i}")));
        }
        assert_eq!(log.len(), LOG_CAPACITY);
        assert_eq!(log.entries().next().unwrap().0.text, "m50");
        assert_eq!(log.entries().last().unwrap().0.text, "m149");
    }

    #[test]
    fn a_message_said_again_at_once_is_counted() {
        let mut log = MessageLog::default();
        for _ in 0..3 {
            log.push(Message::error("refused"));
        }
        log.push(Message::info("refused"));
        let entries: Vec<_> = log.entries().map(|(m, n)| (m.kind, n)).collect();
        assert_eq!(entries, [(MessageKind::Error, 3), (MessageKind::Info, 1)]);
    }

    #[test]
    fn an_answer_being_typed_is_kept_once_as_it_ended() {
        let mut log = MessageLog::default();
        log.push(Message::info("Predict mode on"));
        // An unchanged echo (Backspace on nothing) is counted, then replaced: no "(×2)" left.
        for typed in ["", "", "-", "-4", "-", "-3"] {
            log.push(Message::typing("What is β at O6 (MIN) now?", typed, ""));
        }
        log.push(Message::info("✓ Right"));
        log.push(Message::typing("What is β at O8 (MIN) now?", "", ""));
        log.push(Message::typing("What is β at O8 (MIN) now?", "2", ""));
        assert!(log.entries().all(|(_, times)| times == 1));
        let kept: Vec<String> = log.entries().map(|(m, _)| m.logged_text()).collect();
        assert_eq!(
            kept,
            [
                "Predict mode on",
                "What is β at O6 (MIN) now? -3",
                "✓ Right",
                "What is β at O8 (MIN) now? 2",
            ]
        );
    }
}
