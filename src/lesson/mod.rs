//! A lesson: what a teacher prepares once so thirty screens start the same and stay on
//! the topic. One TOML file says which tabs are shown and which opens first, which keys
//! are locked, an ordered list of steps with the words the lesson pane shows, and, in the
//! config's own sections (`[search]`, `[tictactoe]`, `seed`, ...), how every game and AI
//! starts. Those sections go through the config's own checks, so a lesson can set exactly
//! what a config file can and is refused in the same words, naming the lesson's file.
//!
//! `lessons/` in the repository holds the lessons that ship; `lessons/README.md` documents
//! every key.

pub mod builtin;
pub mod course;
mod error;
pub mod gate;
mod keys;
pub mod pane;
mod place;
pub mod question;
mod words;

pub use error::LessonError;
pub use gate::Gate;
pub use keys::{UNLOCKABLE, parse_key};
pub use question::Question;

use crate::config::{self, Config, ConfigError};
use crate::persist::regular::{Unread, read_regular};
use crate::tabkit::keymap::Key;
use crate::tabs::id::TabId;
use place::{Places, Seg};
use serde::Deserialize;
use std::path::Path;
use toml::Spanned;
use toml::de::{DeTable, Deserializer};
use words::check_words;

/// The largest lesson file read: a lesson of a hundred steps is a few kilobytes.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;
/// The most characters of a lesson's title (the lesson pane's first words).
pub const MAX_TITLE_CHARS: usize = 60;
/// The most characters of a step's words: with its heading, six rows of the lesson pane
/// at 80 columns (and [`pane::too_long`] checks the rows they take).
pub const MAX_STEP_CHARS: usize = 400;
/// The most lines of a step's explanation panel: with its border, half the tab's rows at
/// 80x24.
pub const MAX_EXPLAIN_LINES: usize = 10;
/// The most characters of one line of the explanation panel: inside its border at 80
/// columns.
pub const MAX_EXPLAIN_LINE_CHARS: usize = 74;
/// The most characters of the text a step points at on the screen.
pub const MAX_POINT_CHARS: usize = 24;
/// The most steps a lesson may have.
pub const MAX_STEPS: usize = 100;
/// The minutes a lesson may say it takes: a class's length at most.
pub const MINUTES: std::ops::RangeInclusive<u32> = 1..=120;

/// A lesson, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    /// Where it was read from, for messages.
    pub origin: String,
    /// What the lesson pane calls it.
    pub title: String,
    /// The tabs shown, in tab-bar order.
    pub tabs: Vec<TabId>,
    /// The tab shown first.
    pub start_tab: TabId,
    /// The keys that do nothing but say they are locked, each as the file wrote it.
    pub locked: Vec<(Key, String)>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// About how long the lesson takes, as its author says (the course list shows it).
    pub minutes: Option<u32>,
}

/// One step of a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What the lesson pane says: an instruction, a question.
    pub text: String,
    /// The tab the step is about: reaching the step shows it.
    pub tab: Option<TabId>,
    /// The keys that bring a fresh start of the lesson to this step's position, when the
    /// step is a checkpoint: a lost student is put back here by pressing them again.
    pub checkpoint: Option<Vec<Key>>,
    /// What the student must do before `]` moves on (pressed before, it marks the step
    /// skipped): `done_when`, or a right answer for `needs_right_answer`.
    pub gate: Option<Gate>,
    /// The teacher's own question, graded and counted like the engine's.
    pub question: Option<Question>,
    /// A short explanation of several lines, shown in a panel as the step is reached.
    pub explain: Vec<String>,
    /// Text on the screen the step is about ("α -∞"): the panel points at where it is.
    pub point: Option<String>,
}

impl Lesson {
    /// Whether `key` is locked, and how the file wrote it.
    #[must_use]
    pub fn locked_label(&self, key: Key) -> Option<&str> {
        self.locked
            .iter()
            .find(|(locked, _)| *locked == key)
            .map(|(_, label)| label.as_str())
    }

    /// Whether the lesson shows `tab`.
    #[must_use]
    pub fn shows(&self, tab: TabId) -> bool {
        self.tabs.contains(&tab)
    }
}

/// The lesson's own part of the file before its checks: `[lesson]` and the `[[step]]`s
/// (the rest is the config's, read as [`Config`]).
#[derive(Debug, Deserialize)]
struct LessonFile {
    lesson: LessonSection,
    #[serde(default)]
    step: Vec<StepSection>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonSection {
    title: String,
    #[serde(default)]
    tabs: Option<Vec<TabId>>,
    #[serde(default)]
    start_tab: Option<TabId>,
    #[serde(default)]
    locked: Vec<String>,
    #[serde(default)]
    minutes: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepSection {
    text: String,
    #[serde(default)]
    tab: Option<TabId>,
    #[serde(default)]
    checkpoint: Option<Vec<String>>,
    #[serde(default)]
    needs_right_answer: bool,
    #[serde(default)]
    done_when: Option<String>,
    #[serde(default)]
    explain: Option<String>,
    #[serde(default)]
    point: Option<String>,
    #[serde(default)]
    ask: Option<String>,
    #[serde(default)]
    choices: Option<Vec<String>>,
    #[serde(default)]
    answer: Option<question::Written>,
    #[serde(default)]
    tolerance: Option<f64>,
}

/// Reads and checks the lesson at `path`; its config sections are laid over `base` (the
/// config the program would run with otherwise). Reads at most [`MAX_FILE_BYTES`].
///
/// # Errors
/// A [`LessonError`] naming the file and the key at fault.
pub fn load(path: &Path, base: &Config) -> Result<(Lesson, Config), LessonError> {
    let read_error = |reason: String| LessonError::Read {
        path: path.to_owned(),
        reason,
    };
    // A regular file only, opened so it cannot block: a FIFO at the lesson's path must
    // not hold up a reload (SIGHUP, the teacher's `r`) until someone writes to it.
    let bytes = read_regular(path, MAX_FILE_BYTES).map_err(|unread| match unread {
        Unread::TooLarge(_) => read_error(format!(
            "larger than {} KiB, too large for a lesson",
            MAX_FILE_BYTES / 1024
        )),
        Unread::Missing => read_error("No such file or directory (os error 2)".into()),
        other => read_error(other.to_string()),
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| read_error("stream did not contain valid UTF-8".into()))?;
    parse(&text, &path.display().to_string(), base)
}

/// Parses and checks a lesson's text; `origin` is what messages call the file.
///
/// # Errors
/// A [`LessonError`] naming `origin`, the line and the key at fault.
pub fn parse(text: &str, origin: &str, base: &Config) -> Result<(Lesson, Config), LessonError> {
    let places = Places::parse(text, origin)?;
    // The lesson's own keys, and the rest (the config's sections), each read from the
    // tree the file parsed to, so every refusal keeps its span in the file.
    let mut own = DeTable::default();
    let mut settings = places.root().clone();
    for name in ["lesson", "step"] {
        if let Some((key, value)) = settings.get_mut().remove_entry(name) {
            own.insert(key, value);
        }
    }
    if settings.get_ref().contains_key("serve") {
        // A lesson runs inside a server: it must not change that server's limits (a
        // `max_sessions = 1` once left a second student outside, silently).
        return Err(places.invalid(
            "serve",
            &[Seg::Key("serve")],
            "a lesson cannot set the server's [serve] settings; give them to `serve` \
             (flags or --config) instead"
                .into(),
        ));
    }
    let file = LessonFile::deserialize(Deserializer::from(Spanned::new(places.root().span(), own)))
        .map_err(|err| places.refused(&err))?;
    Config::deserialize(Deserializer::from(settings.clone()))
        .map_err(|err| places.refused(&err))?;
    let settings = toml::Table::deserialize(Deserializer::from(settings))
        .map_err(|err| places.refused(&err))?;
    let lesson = check(file.lesson, file.step, &places)?;
    let mut config =
        config::overlay(base, &settings, origin).map_err(|err| config_refused(&places, &err))?;
    // The lesson's first tab is the one the app opens on.
    config.ui.start_tab = lesson.start_tab;
    Ok((lesson, config))
}

/// A refusal of the config's own checks, at the line of the key it names.
fn config_refused(places: &Places<'_>, err: &ConfigError) -> LessonError {
    match err {
        ConfigError::OutOfRange {
            key,
            allowed,
            found,
            ..
        } => {
            let path: Vec<Seg<'_>> = key.split('.').map(Seg::Key).collect();
            places.invalid(key, &path, format!("found {found}, allowed {allowed}"))
        }
        ConfigError::Parse { key, detail, .. } => {
            let key = key.as_deref().unwrap_or("lesson");
            let path: Vec<Seg<'_>> = key.split('.').map(Seg::Key).collect();
            places.invalid(key, &path, detail.clone())
        }
        ConfigError::Read { reason, .. } => places.invalid("lesson", &[], reason.to_string()),
    }
}

fn check(
    section: LessonSection,
    steps: Vec<StepSection>,
    places: &Places<'_>,
) -> Result<Lesson, LessonError> {
    use Seg::{Item, Key as At};
    let title = section.title.trim().to_owned();
    check_words(&title, MAX_TITLE_CHARS)
        .map_err(|why| places.invalid("lesson.title", &[At("lesson"), At("title")], why))?;
    if let Some(minutes) = section.minutes.filter(|m| !MINUTES.contains(m)) {
        return Err(places.invalid(
            "lesson.minutes",
            &[At("lesson"), At("minutes")],
            format!("found {minutes}, allowed 1..=120"),
        ));
    }
    let listed = section.tabs.unwrap_or_else(|| TabId::ALL.to_vec());
    let tabs_at = |at: Option<usize>| {
        let mut path = vec![At("lesson"), At("tabs")];
        path.extend(at.map(Item));
        path
    };
    let Some(&first_listed) = listed.first() else {
        return Err(places.invalid(
            "lesson.tabs",
            &tabs_at(None),
            "at least one tab must be shown".into(),
        ));
    };
    if let Some(twice) = (1..listed.len()).find(|&i| listed[..i].contains(&listed[i])) {
        return Err(places.invalid(
            "lesson.tabs",
            &tabs_at(Some(twice)),
            format!("{} is listed twice", listed[twice].title()),
        ));
    }
    // The tab listed first opens when `start_tab` is left out; the bar keeps its order.
    let mut tabs = listed;
    tabs.sort_by_key(|tab| tab.index());
    let start_tab = section.start_tab.unwrap_or(first_listed);
    if !tabs.contains(&start_tab) {
        return Err(places.invalid(
            "lesson.start_tab",
            &[At("lesson"), At("start_tab")],
            format!("{} is not one of the lesson's tabs", start_tab.title()),
        ));
    }
    let mut locked = Vec::new();
    for (i, spec) in section.locked.into_iter().enumerate() {
        let at = [At("lesson"), At("locked"), Item(i)];
        let key = parse_key(&spec).map_err(|why| places.invalid("lesson.locked", &at, why))?;
        if locked.iter().any(|(k, _)| *k == key) {
            return Err(places.invalid("lesson.locked", &at, format!("{spec:?} is listed twice")));
        }
        locked.push((key, spec));
    }
    if steps.len() > MAX_STEPS {
        return Err(places.invalid(
            "step",
            &[At("step"), Item(MAX_STEPS)],
            format!("{} steps: at most {MAX_STEPS}", steps.len()),
        ));
    }
    let total = steps.len();
    let steps = steps
        .into_iter()
        .enumerate()
        .map(|(i, step)| check_step(step, i, total, (&tabs, start_tab), places))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Lesson {
        origin: places.origin().to_owned(),
        title,
        tabs,
        start_tab,
        locked,
        steps,
        minutes: section.minutes,
    })
}

/// Step `i` (0-based) of `total`, checked: its words fit the pane with its question and its
/// gate, its tab is one of `tabs` (the lesson's, and the one it starts on), its checkpoint
/// keys, its gate and its question read.
fn check_step(
    step: StepSection,
    i: usize,
    total: usize,
    (tabs, start_tab): (&[TabId], TabId),
    places: &Places<'_>,
) -> Result<Step, LessonError> {
    use Seg::{Item, Key as At};
    let key = |name: &str| format!("step.{}.{name}", i + 1);
    let at = |name| [At("step"), Item(i), At(name)];
    let text = step.text.trim().to_owned();
    check_words(&text, MAX_STEP_CHARS)
        .map_err(|why| places.invalid(&key("text"), &at("text"), why))?;
    let gate = read_gate(&step, step.tab.unwrap_or(start_tab))
        .map_err(|(name, why)| places.invalid(&key(name), &at(name), why))?;
    let explain = (step.explain.as_deref().map(explain_lines).transpose())
        .map_err(|why| places.invalid(&key("explain"), &at("explain"), why))?
        .unwrap_or_default();
    let point = step.point.as_deref().map(str::trim).map(str::to_owned);
    if let Some(point) = &point {
        check_words(point, MAX_POINT_CHARS)
            .map_err(|why| places.invalid(&key("point"), &at("point"), why))?;
        if explain.is_empty() {
            return Err(places.invalid(
                &key("point"),
                &at("point"),
                "the panel that points is the step's `explain`: write one".into(),
            ));
        }
    }
    let question = question::read(step.ask, step.choices, step.answer, step.tolerance).map_err(
        |(wrong, why)| {
            let mut path = at(wrong.key()).to_vec();
            if let question::At::Choices(Some(item)) = wrong {
                path.push(Item(item));
            }
            places.invalid(&key(wrong.key()), &path, why)
        },
    )?;
    if let Some(why) = pane::too_long(&text, question.as_ref(), gate.as_ref(), i + 1, total) {
        return Err(places.invalid(&key("text"), &at("text"), why));
    }
    if let Some(tab) = step.tab.filter(|tab| !tabs.contains(tab)) {
        return Err(places.invalid(
            &key("tab"),
            &at("tab"),
            format!("{} is not one of the lesson's tabs", tab.title()),
        ));
    }
    let checkpoint = step
        .checkpoint
        .map(|keys| checkpoint_keys(&keys))
        .transpose()
        .map_err(|(item, why)| {
            let mut path = at("checkpoint").to_vec();
            path.extend(item.map(Item));
            places.invalid(&key("checkpoint"), &path, why)
        })?;
    Ok(Step {
        text,
        tab: step.tab,
        checkpoint,
        gate,
        question,
        explain,
        point,
    })
}

/// An explanation's lines: at most [`MAX_EXPLAIN_LINES`] of at most
/// [`MAX_EXPLAIN_LINE_CHARS`] characters, blank lines kept between paragraphs.
fn explain_lines(text: &str) -> Result<Vec<String>, String> {
    let lines: Vec<String> = text
        .trim()
        .lines()
        .map(|l| l.trim_end().to_owned())
        .collect();
    if lines.len() > MAX_EXPLAIN_LINES {
        return Err(format!(
            "{} lines: at most {MAX_EXPLAIN_LINES}",
            lines.len()
        ));
    }
    for (at, line) in lines.iter().enumerate() {
        if line.is_empty() {
            continue;
        }
        check_words(line, MAX_EXPLAIN_LINE_CHARS)
            .map_err(|why| format!("line {}: {why}", at + 1))?;
    }
    if lines.iter().all(String::is_empty) {
        return Err("empty: write the words to show".into());
    }
    Ok(lines)
}

/// The step's gate: `done_when` read on `tab`, or `needs_right_answer` (the older key for
/// `done_when = "right-answer"`). A refusal names the key at fault.
fn read_gate(step: &StepSection, tab: TabId) -> Result<Option<Gate>, (&'static str, String)> {
    let gate = (step.done_when.as_deref())
        .map(|written| Gate::read(written, tab).map_err(|why| ("done_when", why)))
        .transpose()?;
    match gate {
        Some(gate) if step.needs_right_answer && gate != Gate::RightAnswer => Err((
            "needs_right_answer",
            format!(
                "the step waits for one thing: done_when already says to {}",
                gate.to_do()
            ),
        )),
        Some(gate) => Ok(Some(gate)),
        None => Ok(step.needs_right_answer.then_some(Gate::RightAnswer)),
    }
}

/// The most keys a checkpoint presses.
pub const MAX_CHECKPOINT_KEYS: usize = 200;

/// A step's checkpoint keys, read as the help writes them; a refusal says which key (its
/// place in the list) when one key is at fault.
fn checkpoint_keys(specs: &[String]) -> Result<Vec<Key>, (Option<usize>, String)> {
    if specs.len() > MAX_CHECKPOINT_KEYS {
        return Err((
            Some(MAX_CHECKPOINT_KEYS),
            format!("{} keys: at most {MAX_CHECKPOINT_KEYS}", specs.len()),
        ));
    }
    specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let refused = |why: String| (Some(i), why);
            match keys::key_named(spec).map_err(refused)? {
                Key::Char('q') | Key::Ctrl('c') => {
                    Err(refused(format!("{spec:?} would quit the arcade")))
                }
                Key::Ctrl('r') => Err(refused(format!(
                    "{spec:?} would go back to the checkpoint itself"
                ))),
                key => Ok(key),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
