//! The settings panel, headless: a tab's settings as a list (label, value, what is allowed,
//! how ←/→ step it, whether it can be typed, when a change takes effect), a draft the keys
//! edit, and the changes Enter hands back to the tab. The allowed values come from the
//! config's own constants and checks (`in_range`, `require`, the ranges and `*_allowed`
//! functions), so the panel refuses exactly what the config file refuses, in the same words.
//!
//! A tab declares its settings once, as a list of [`Declared`] (each reads and writes one
//! value of the tab); [`read`] builds the panel's rows from it and [`write`] applies the
//! changes. The drawing is `ui/settings.rs`; the keys are the app's (`app/keys.rs`).

use super::message::Message;
use crate::config::ConfigError;
use crate::config::check::{in_range, require};
use std::ops::RangeInclusive;

/// When a changed setting takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// At once, even in a run already going (a learning rate).
    Now,
    /// When the learner is next trained from fresh weights (it needs a new network or run).
    OnRetrain,
    /// From the AI's next move: a search under way finishes as it started.
    NextMove,
}

impl Takes {
    /// The words the panel writes in its "applies" column.
    pub const fn words(self) -> &'static str {
        match self {
            Self::Now => "now",
            Self::OnRetrain => "on retrain",
            Self::NextMove => "next move",
        }
    }
}

/// How ←/→ step a whole number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Steps {
    /// One at a time (hidden units, a seed).
    Ones,
    /// Along 1, 2, 5, 10, 20, 50, ... (epochs).
    OneTwoFive,
    /// Along the powers of two (batch sizes).
    Doubling,
}

/// What a setting may hold: the config's own range or check.
#[derive(Debug, Clone)]
pub enum Allowed {
    /// A whole number in the config's range.
    Whole {
        /// The range, as the config checks it.
        range: RangeInclusive<u64>,
        /// How ←/→ step it.
        steps: Steps,
    },
    /// A number the config's check accepts; ←/→ step it along 1, 2, 5 × 10^k.
    Number {
        /// The config's check.
        allowed: fn(f64) -> bool,
        /// The config's words for what the check allows.
        words: &'static str,
        /// The smallest value ←/→ step down to (typing may go lower, as the check allows).
        floor: f64,
    },
    /// One of these names (the config's spelling); ←/→ cycle, nothing is typed.
    OneOf(&'static [&'static str]),
}

/// Two checks are the same when they say the same: function pointers are not compared.
impl PartialEq for Allowed {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Whole { range, steps }, Self::Whole { range: r, steps: s }) => {
                range == r && steps == s
            }
            (
                Self::Number { words, floor, .. },
                Self::Number {
                    words: w, floor: f, ..
                },
            ) => words == w && floor.to_bits() == f.to_bits(),
            (Self::OneOf(names), Self::OneOf(n)) => names == n,
            _ => false,
        }
    }
}

impl Allowed {
    /// A whole number in `range`, a config range of `usize`.
    pub const fn count(range: RangeInclusive<usize>, steps: Steps) -> Self {
        Self::Whole {
            range: RangeInclusive::new(*range.start() as u64, *range.end() as u64),
            steps,
        }
    }

    /// Any `u64` (a seed).
    pub const ANY_WHOLE: Self = Self::Whole {
        range: RangeInclusive::new(0, u64::MAX),
        steps: Steps::Ones,
    };

    /// What is allowed, as the panel shows it (the config's own words and ranges).
    pub fn describe(&self) -> String {
        match self {
            Self::Whole { range, .. } if *range.end() == u64::MAX => {
                format!("{} or more", range.start())
            }
            Self::Whole { range, .. } => format!("{} to {}", range.start(), range.end()),
            Self::Number { words, .. } => (*words).to_string(),
            Self::OneOf(names) => names.join(" / "),
        }
    }

    /// Whether it can be typed (names are chosen with ←/→).
    pub fn typed(&self) -> bool {
        !matches!(self, Self::OneOf(_))
    }

    /// The config's check of `value` for `key`.
    fn check(&self, key: &'static str, value: Value) -> Result<(), ConfigError> {
        match (self, value) {
            (Self::Whole { range, .. }, Value::Whole(v)) => in_range(key, v, range),
            (Self::Number { allowed, words, .. }, Value::Number(v)) => {
                require(key, allowed(v), words, v)
            }
            (Self::OneOf(names), Value::Choice(i)) => {
                require(key, i < names.len(), names.join(", "), i)
            }
            _ => require(key, false, self.describe(), value.shown(self)),
        }
    }

    /// The value one step up (`up`) or down from `value`, or `None` at the end.
    fn step(&self, value: Value, up: bool) -> Option<Value> {
        match (self, value) {
            (Self::Whole { range, steps }, Value::Whole(v)) => step_whole(v, up, *steps)
                .filter(|n| range.contains(n))
                .map(Value::Whole),
            (Self::Number { allowed, floor, .. }, Value::Number(v)) => step_number(v, up)
                .filter(|&n| allowed(n) && n >= *floor)
                .map(Value::Number),
            (Self::OneOf(names), Value::Choice(i)) => {
                let n = names.len();
                Some(if up { (i + 1) % n } else { (i + n - 1) % n })
            }
            .map(Value::Choice),
            _ => None,
        }
    }
}

/// The next whole number along `steps`, strictly above (`up`) or below `value`.
fn step_whole(value: u64, up: bool, steps: Steps) -> Option<u64> {
    match steps {
        Steps::Ones if up => value.checked_add(1),
        Steps::Ones => value.checked_sub(1),
        Steps::OneTwoFive | Steps::Doubling => {
            let ladder: Vec<u64> = if steps == Steps::Doubling {
                (0..64).map(|p| 1u64 << p).collect()
            } else {
                (0..19)
                    .flat_map(|p| [1, 2, 5].map(|m| m * 10u64.pow(p)))
                    .collect()
            };
            if up {
                ladder.into_iter().find(|&n| n > value)
            } else {
                ladder.into_iter().rev().find(|&n| n < value)
            }
        }
    }
}

/// The next number along 1, 2, 5 × 10^k (k from -6 to 6), strictly above or below `value`.
fn step_number(value: f64, up: bool) -> Option<f64> {
    let ladder = (-6i32..=6).flat_map(|p| {
        [1.0, 2.0, 5.0].map(move |m: f64| {
            // Divide for negative powers: 2 / 10 is the double nearest 0.2, 2 * 0.1 is not.
            if p < 0 {
                m / 10f64.powi(-p)
            } else {
                m * 10f64.powi(p)
            }
        })
    });
    if up {
        ladder.into_iter().find(|&n| n > value * (1.0 + 1e-12))
    } else {
        ladder
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find(|&n| n < value * (1.0 - 1e-12))
    }
}

/// A setting's value.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Value {
    /// A whole number.
    Whole(u64),
    /// A number.
    Number(f64),
    /// The index of a name in [`Allowed::OneOf`].
    Choice(usize),
}

// The values are never NaN: every one passed the config's check, which refuses NaN.
impl Eq for Value {}

/// A number as the panel's column has room for it: whole up to 10 characters, else to four
/// decimals (√2 as 1.4142).
fn short_number(x: f64) -> String {
    let whole = x.to_string();
    if whole.chars().count() <= 10 {
        return whole;
    }
    let short = format!("{x:.4}");
    short
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

impl Value {
    /// The value as the panel writes it (a choice by its name).
    pub fn shown(self, allowed: &Allowed) -> String {
        match (self, allowed) {
            (Self::Choice(i), Allowed::OneOf(names)) => {
                names.get(i).copied().unwrap_or("?").to_string()
            }
            (Self::Whole(n), _) => n.to_string(),
            (Self::Number(x), _) => short_number(x),
            (Self::Choice(i), _) => i.to_string(),
        }
    }

    /// The whole number (0 for another kind).
    pub fn whole(self) -> u64 {
        match self {
            Self::Whole(n) => n,
            _ => 0,
        }
    }

    /// The number (0 for another kind).
    pub fn number(self) -> f64 {
        match self {
            Self::Number(x) => x,
            _ => 0.0,
        }
    }

    /// The choice's index (0 for another kind).
    pub fn choice(self) -> usize {
        match self {
            Self::Choice(i) => i,
            _ => 0,
        }
    }
}

/// What a setting is, apart from its value: the same for every session.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The config key, which the refusals name (`subtraction.hidden`).
    pub key: &'static str,
    /// What the panel calls it.
    pub label: &'static str,
    /// What it may hold.
    pub allowed: Allowed,
    /// When a change takes effect.
    pub takes: Takes,
}

/// One row of the panel: the setting, its value in force and the draft the keys edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// What the setting is.
    pub spec: Spec,
    /// The value in force.
    pub value: Value,
    /// The value Enter would apply.
    pub draft: Value,
}

impl Eq for Spec {}

/// A changed setting, as Enter hands it to the tab.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// The setting's config key.
    pub key: &'static str,
    /// What it was.
    pub from: Value,
    /// What it is now.
    pub to: Value,
}

/// A setting as a tab declares it: what it is, and how to read and write it on `C` (the
/// tab, or whatever holds its settings).
pub struct Declared<C> {
    /// What the setting is.
    pub spec: Spec,
    /// Its value in force.
    pub get: fn(&C) -> Value,
    /// Puts a checked value in force (or keeps it for the next retrain).
    pub set: fn(&mut C, Value),
}

/// The panel's rows for `list`, read from `from`.
pub fn read<C>(list: &[Declared<C>], from: &C) -> Vec<Setting> {
    list.iter()
        .map(|declared| {
            let value = (declared.get)(from);
            Setting {
                spec: declared.spec.clone(),
                value,
                draft: value,
            }
        })
        .collect()
}

/// Applies `changes` to `to`, each through its declared `set`; returns what was applied, in
/// words: "learning rate 0.12 → 0.5 (now)", one per change.
pub fn write<C>(list: &[Declared<C>], to: &mut C, changes: &[Change]) -> Vec<String> {
    changes
        .iter()
        .filter_map(|change| {
            let declared = list.iter().find(|d| d.spec.key == change.key)?;
            (declared.set)(to, change.to);
            let spec = &declared.spec;
            Some(format!(
                "{} {} → {} ({})",
                spec.label,
                change.from.shown(&spec.allowed),
                change.to.shown(&spec.allowed),
                spec.takes.words()
            ))
        })
        .collect()
}

/// Applies `changes` to `to` (as [`write`]) and says so in one message: "Set learning rate
/// 0.12 → 0.5 (now), ...", then `waiting` ("; t retrains with them") when a change waits for
/// a retrain; "Settings unchanged" when nothing changed.
pub fn apply<C>(list: &[Declared<C>], to: &mut C, changes: &[Change], waiting: &str) -> Message {
    let said = write(list, to, changes);
    if said.is_empty() {
        return Message::info("Settings unchanged");
    }
    let waits = changes.iter().any(|change| {
        list.iter()
            .any(|d| d.spec.key == change.key && d.spec.takes == Takes::OnRetrain)
    });
    let then = if waits { waiting } else { "" };
    Message::info(format!("Set {}{then}", said.join(", ")))
}

/// Digits (and a point) a typed value may hold at most.
const TYPED_MAX: usize = 20;

/// The settings panel of one tab, open: its rows, the row selected and what is typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panel {
    /// The title line ("Subtraction Nim: settings").
    pub title: String,
    /// The key that retrains on this tab, for the line about waiting changes (`t`).
    pub retrain: &'static str,
    /// The rows.
    pub settings: Vec<Setting>,
    /// The row selected.
    pub selected: usize,
    /// The digits typed into the selected row, while typing.
    pub typing: Option<String>,
}

impl Panel {
    /// A panel over `settings`, the first row selected.
    pub fn new(title: impl Into<String>, retrain: &'static str, settings: Vec<Setting>) -> Self {
        Self {
            title: title.into(),
            retrain,
            settings,
            selected: 0,
            typing: None,
        }
    }

    fn current(&self) -> Option<&Setting> {
        self.settings.get(self.selected)
    }

    /// ↑/↓: ends what is typed (refused: the row keeps its old value and the selection
    /// stays), then selects the row `by` away, wrapping round.
    pub fn move_by(&mut self, by: i8) -> Result<(), String> {
        self.end_typing()?;
        let rows = self.settings.len().max(1) as isize;
        self.selected = (self.selected as isize + isize::from(by)).rem_euclid(rows) as usize;
        Ok(())
    }

    /// ←/→: the selected draft one step down or up (what is typed is dropped).
    pub fn step(&mut self, up: bool) -> Result<(), String> {
        self.typing = None;
        let Some(row) = self.settings.get_mut(self.selected) else {
            return Ok(());
        };
        match row.spec.allowed.step(row.draft, up) {
            Some(next) => {
                row.draft = next;
                Ok(())
            }
            None => Err(format!(
                "{} {} is the {} ←/→ go (allowed: {}; type another)",
                row.spec.label,
                row.draft.shown(&row.spec.allowed),
                if up { "most" } else { "least" },
                row.spec.allowed.describe()
            )),
        }
    }

    /// A typed character: starts or extends the typed value of the selected row.
    pub fn type_char(&mut self, c: char) -> Result<(), String> {
        let Some(row) = self.current() else {
            return Ok(());
        };
        if !row.spec.allowed.typed() {
            return Err(format!(
                "{} is one of {}: ←/→ choose",
                row.spec.label,
                row.spec.allowed.describe()
            ));
        }
        let typing = self.typing.get_or_insert_with(String::new);
        if typing.chars().count() >= TYPED_MAX {
            return Err("That is long enough: Enter, or Backspace".into());
        }
        typing.push(c);
        Ok(())
    }

    /// Backspace: deletes the last character typed.
    pub fn backspace(&mut self) {
        if let Some(typing) = &mut self.typing {
            typing.pop();
        }
    }

    /// Takes what is typed into the selected row's draft, if the config's check accepts it;
    /// else drops it, keeps the old value and says the config's words.
    pub fn end_typing(&mut self) -> Result<(), String> {
        let Some(typed) = self.typing.take() else {
            return Ok(());
        };
        let Some(row) = self.settings.get_mut(self.selected) else {
            return Ok(());
        };
        if typed.is_empty() {
            return Ok(());
        }
        let kept = row.draft.shown(&row.spec.allowed);
        let refused = |why: String| format!("Refused: {why}; kept {kept}");
        let value = match row.spec.allowed {
            Allowed::Whole { .. } => typed.parse().map(Value::Whole).ok(),
            Allowed::Number { .. } => typed.parse().map(Value::Number).ok(),
            Allowed::OneOf(_) => None,
        };
        let Some(value) = value else {
            return Err(refused(format!(
                "{} = {typed}: allowed {}",
                row.spec.key,
                row.spec.allowed.describe()
            )));
        };
        row.spec
            .allowed
            .check(row.spec.key, value)
            .map_err(|error| refused(error.refused_value()))?;
        row.draft = value;
        Ok(())
    }

    /// Enter: ends what is typed and hands back every changed draft (the panel then
    /// closes); a refused typed value keeps the panel open with the old value.
    pub fn apply(&mut self) -> Result<Vec<Change>, String> {
        self.end_typing()?;
        Ok(self
            .settings
            .iter()
            .filter(|row| row.draft != row.value)
            .map(|row| Change {
                key: row.spec.key,
                from: row.value,
                to: row.draft,
            })
            .collect())
    }

    /// Whether a draft differs from the value in force (Esc drops it).
    pub fn has_drafts(&self) -> bool {
        self.typing.is_some() || self.settings.iter().any(|row| row.draft != row.value)
    }

    /// The labels of the settings that wait for a retrain, for the panel's note.
    pub fn waiting_for_retrain(&self) -> Vec<&'static str> {
        self.settings
            .iter()
            .filter(|row| row.spec.takes == Takes::OnRetrain)
            .map(|row| row.spec.label)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{EPOCHS_RANGE, HIDDEN_RANGE, LEARNING_RATE_ALLOWED, learning_rate_allowed};

    fn panel() -> Panel {
        let row = |key, allowed, value| Setting {
            spec: Spec {
                key,
                label: key,
                allowed,
                takes: Takes::OnRetrain,
            },
            value,
            draft: value,
        };
        Panel::new(
            "test",
            "t",
            vec![
                row(
                    "rate",
                    Allowed::Number {
                        allowed: learning_rate_allowed,
                        words: LEARNING_RATE_ALLOWED,
                        floor: 1e-4,
                    },
                    Value::Number(0.12),
                ),
                row(
                    "hidden",
                    Allowed::count(HIDDEN_RANGE, Steps::Ones),
                    Value::Whole(14),
                ),
                row(
                    "epochs",
                    Allowed::count(EPOCHS_RANGE, Steps::OneTwoFive),
                    Value::Whole(4000),
                ),
                row("loss", Allowed::OneOf(&["a", "b"]), Value::Choice(0)),
            ],
        )
    }

    #[test]
    fn the_learning_rate_steps_along_one_two_five_and_stops_at_the_checks_end() {
        let mut panel = panel();
        panel.step(true).unwrap();
        assert_eq!(panel.settings[0].draft, Value::Number(0.2));
        panel.step(false).unwrap();
        panel.step(false).unwrap();
        assert_eq!(panel.settings[0].draft, Value::Number(0.05));
        panel.settings[0].draft = Value::Number(10.0);
        assert!(panel.step(true).is_err(), "20 fails learning_rate_allowed");
        assert_eq!(panel.settings[0].draft, Value::Number(10.0));
    }

    #[test]
    fn counts_step_by_ones_or_one_two_five_within_the_config_range() {
        let mut panel = panel();
        panel.move_by(1).unwrap();
        panel.step(true).unwrap();
        assert_eq!(panel.settings[1].draft, Value::Whole(15));
        panel.move_by(1).unwrap();
        panel.step(true).unwrap();
        assert_eq!(panel.settings[2].draft, Value::Whole(5000));
        panel.settings[2].draft = Value::Whole(1);
        assert!(panel.step(false).is_err());
        assert_eq!(panel.settings[2].draft, Value::Whole(1));
        panel.move_by(1).unwrap();
        panel.step(false).unwrap();
        assert_eq!(panel.settings[3].draft, Value::Choice(1), "names wrap");
    }

    #[test]
    fn a_typed_value_out_of_range_is_refused_in_the_configs_words() {
        let mut panel = panel();
        panel.move_by(1).unwrap();
        for c in "300".chars() {
            panel.type_char(c).unwrap();
        }
        let refused = panel.apply().unwrap_err();
        assert_eq!(refused, "Refused: hidden = 300: allowed 1 to 256; kept 14");
        assert_eq!(panel.settings[1].draft, Value::Whole(14));
        assert_eq!(panel.apply().unwrap(), vec![], "nothing changed");
        panel.type_char('2').unwrap();
        panel.type_char('0').unwrap();
        let changes = panel.apply().unwrap();
        assert_eq!(
            changes,
            vec![Change {
                key: "hidden",
                from: Value::Whole(14),
                to: Value::Whole(20)
            }]
        );
    }

    #[test]
    fn a_choice_cannot_be_typed() {
        let mut panel = panel();
        panel.move_by(-1).unwrap();
        assert!(panel.type_char('1').is_err());
        assert_eq!(panel.typing, None);
    }
}
