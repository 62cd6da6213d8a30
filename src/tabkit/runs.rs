//! Training runs kept for the session so they can be compared: each run's settings in words,
//! its seed and its curve. A retrain keeps the run it replaces; the user marks the runs the
//! chart overlays, and exports every run as CSV (one row per sample, one column per run) for
//! a handout. Headless: the tab decides what a sample is (an epoch's loss, the policy
//! optimality every 500 games), the drawing is `widgets::runs`.

use super::keymap::{Binding, Key, bind, direction};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Runs a tab keeps beside the one in force: the oldest unmarked one gives way to a new one.
pub const KEPT: usize = 3;

/// Points a kept curve holds at most: a longer run is thinned to every k-th sample (the last
/// always kept), so a session's memory stays bounded however long a run was.
pub const MOST_POINTS: usize = 10_000;

/// ↑↓ in an open runs list: the cursor moves (`action` gets the rows to move by).
const fn move_key<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(
        &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
        "↑↓",
        "choose a run",
        "",
        action,
    )
}

/// The rows an arrow of [`move_key`] moves by.
fn rows(key: Key) -> i8 {
    direction(key).1
}

/// Space (or Enter) in an open runs list: the run under the cursor shown or hidden.
const fn toggle_key<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(
        &[Key::Char(' '), Key::Enter],
        "Space",
        "show / hide on the chart",
        "draw",
        action,
    )
}

/// `x` in an open runs list: every run as CSV.
const fn export_key<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(
        &[Key::Char('x')],
        "x",
        "export every run as CSV",
        "export",
        action,
    )
}

/// The variants of a tab's `Action` that an open runs list's keys send: the same keys on
/// every tab that compares runs.
pub trait RunsActions: Sized + 'static {
    /// Move the list's cursor this many rows.
    const MOVE: fn(i8) -> Self;
    /// Draw or hide the run under the cursor.
    const TOGGLE: Self;
    /// Every run as CSV.
    const EXPORT: Self;
}

/// Implements [`RunsActions`] for a tab's `Action` with the usual variant names
/// (`RunsMove(i8)`, `RunsToggle`, `RunsExport`).
#[macro_export]
macro_rules! runs_actions {
    ($action:ty) => {
        impl $crate::tabkit::runs::RunsActions for $action {
            const MOVE: fn(i8) -> Self = Self::RunsMove;
            const TOGGLE: Self = Self::RunsToggle;
            const EXPORT: Self = Self::RunsExport;
        }
    };
}

/// The keys of an open runs list, whole: ↑↓ choose, Space draws or hides, `x` exports, and
/// the tab's own `close` key (which closes what opened the list).
pub const fn list_keys<A: RunsActions>(close: Binding<A>) -> [Binding<A>; 4] {
    [
        move_key(|k| (A::MOVE)(rows(k))),
        toggle_key(|_| A::TOGGLE),
        export_key(|_| A::EXPORT),
        close,
    ]
}

/// The values of a setting one run trained with, in the order it used them (a rate changed
/// while the run goes on makes two): its words say all of them, `0.12→0.5`, and not only
/// the last. Bounded: past [`USED_KEPT`] changes the latest replaces the one before it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Used {
    values: Vec<String>,
}

/// Values a [`Used`] keeps at most.
pub const USED_KEPT: usize = 4;

impl Used {
    /// The run trains with `value` from here on.
    pub fn note(&mut self, value: &impl ToString) {
        let value = value.to_string();
        if self.values.last() == Some(&value) {
            return;
        }
        if self.values.len() >= USED_KEPT {
            self.values.pop();
        }
        self.values.push(value);
    }

    /// How many values the run used (a value changed while it ran makes two).
    pub fn count(&self) -> usize {
        self.values.len()
    }

    /// A new run: nothing used yet.
    pub fn clear(&mut self) {
        self.values.clear();
    }

    /// The values used, `a→b`, or `in_force` when the run trained with none yet.
    pub fn words(&self, in_force: &impl ToString) -> String {
        if self.values.is_empty() {
            in_force.to_string()
        } else {
            self.values.join("→")
        }
    }
}

/// One training run: what it was trained with and the curve it drew.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Its number in the session (`run 2`), never reused.
    pub number: usize,
    /// Its settings in words ("cross-entropy, rate 0.12, 14 hidden, seed 8").
    pub settings: String,
    /// The curve: (x, y), x rising (epoch and loss, games and optimality).
    pub points: Vec<(f64, f64)>,
    /// Whether the chart overlays it.
    pub marked: bool,
}

impl Run {
    /// The run's name as the legend and the CSV header write it.
    pub fn name(&self) -> String {
        format!("run {}", self.number)
    }

    /// The last sample's value, if it drew any.
    pub fn last(&self) -> Option<f64> {
        self.points.last().map(|&(_, y)| y)
    }
}

/// The runs of one tab: those kept, and the number the run in force has.
#[derive(Debug, Clone, PartialEq)]
pub struct Runs {
    kept: Vec<Run>,
    /// The number of the run in force (the next kept run takes it).
    current: usize,
    /// The row the runs list's cursor is on: 0 is the run in force, then the kept runs,
    /// newest first.
    pub selected: usize,
    /// Whether the runs list takes the keys.
    pub open: bool,
}

impl Default for Runs {
    fn default() -> Self {
        Self {
            kept: Vec::new(),
            current: 1,
            selected: 0,
            open: false,
        }
    }
}

impl Runs {
    /// The number of the run in force.
    pub fn current_number(&self) -> usize {
        self.current
    }

    /// The kept runs, newest first (as the list shows them under the run in force).
    pub fn kept(&self) -> impl Iterator<Item = &Run> {
        self.kept.iter().rev()
    }

    /// The kept runs the chart overlays, newest first.
    pub fn marked(&self) -> impl Iterator<Item = &Run> {
        self.kept().filter(|run| run.marked)
    }

    /// Keeps the run in force as it ends (a retrain replaces it): its settings and curve.
    /// A run that drew nothing is not kept, and the next run takes its number. When [`KEPT`] runs are kept already the oldest
    /// unmarked one gives way (the oldest of all when every one is marked); returns its
    /// number.
    pub fn keep(&mut self, settings: String, points: &[(f64, f64)]) -> Option<usize> {
        if points.is_empty() {
            return None;
        }
        let number = self.current;
        self.current += 1;
        let mut dropped = None;
        if self.kept.len() >= KEPT {
            let at = self.kept.iter().position(|run| !run.marked).unwrap_or(0);
            dropped = Some(self.kept.remove(at).number);
        }
        self.kept.push(Run {
            number,
            settings,
            points: thinned(points),
            marked: true,
        });
        self.selected = self.selected.min(self.kept.len());
        dropped
    }

    /// Moves the list's cursor `by` rows, within the run in force and the kept runs.
    pub fn move_by(&mut self, by: i8) {
        let rows = self.kept.len() + 1;
        self.selected =
            (self.selected as isize + isize::from(by)).clamp(0, rows as isize - 1) as usize;
    }

    /// The kept run under the cursor (`None` on the run in force).
    pub fn selected_run(&self) -> Option<&Run> {
        let index = self.selected.checked_sub(1)?;
        self.kept().nth(index)
    }

    /// The run under the cursor in words, for the status line: a kept run's name and
    /// settings, or the run in force's number and `in_force` settings.
    pub fn selected_words(&self, in_force: &str) -> String {
        match self.selected_run() {
            Some(run) => format!("{}: {}", run.name(), run.settings),
            None => format!("run {} (in force): {in_force}", self.current),
        }
    }

    /// Marks or unmarks the kept run under the cursor; what to say.
    pub fn toggle_selected(&mut self) -> Result<String, String> {
        let Some(index) = self.selected.checked_sub(1) else {
            return Err("The run in force is always drawn: ↓ chooses a kept run".into());
        };
        let at = self.kept.len() - 1 - index;
        let run = &mut self.kept[at];
        run.marked = !run.marked;
        Ok(format!(
            "{} {}",
            run.name(),
            if run.marked {
                "drawn on the chart"
            } else {
                "taken off the chart"
            }
        ))
    }

    /// Every run as CSV: a header (`x_name`, then each run's name and settings), then one
    /// row per x any run sampled, each run's value or an empty cell; the kept runs oldest
    /// first, the run in force (`current`: settings and curve) last.
    pub fn csv(&self, x_name: &str, current: (&str, &[(f64, f64)])) -> String {
        let mut columns: Vec<(String, &[(f64, f64)])> = self
            .kept
            .iter()
            .map(|run| {
                (
                    format!("{} ({})", run.name(), run.settings),
                    run.points.as_slice(),
                )
            })
            .collect();
        columns.push((
            format!("run {} ({}, in force)", self.current, current.0),
            current.1,
        ));
        let mut rows: BTreeMap<u64, Vec<Option<f64>>> = BTreeMap::new();
        for (column, (_, points)) in columns.iter().enumerate() {
            for &(x, y) in *points {
                let row = rows
                    .entry(x.to_bits())
                    .or_insert_with(|| vec![None; columns.len()]);
                row[column] = Some(y);
            }
        }
        let mut out = String::new();
        let header: Vec<String> = std::iter::once(x_name.to_string())
            .chain(columns.iter().map(|(name, _)| name.clone()))
            .map(|cell| csv_cell(&cell))
            .collect();
        let _ = writeln!(out, "{}", header.join(","));
        // Sorting by the bits of a non-negative float sorts by its value.
        for (x, values) in rows {
            let cells: Vec<String> = values
                .into_iter()
                .map(|v| v.map(|y| y.to_string()).unwrap_or_default())
                .collect();
            let _ = writeln!(out, "{},{}", f64::from_bits(x), cells.join(","));
        }
        out
    }
}

/// `points` with at most [`MOST_POINTS`]: every k-th one, and the last.
fn thinned(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let every = points.len().div_ceil(MOST_POINTS).max(1);
    let mut kept: Vec<_> = points.iter().copied().step_by(every).collect();
    if let (Some(&last), Some(&shown)) = (points.last(), kept.last())
        && last != shown
    {
        kept.push(last);
    }
    kept
}

/// A CSV cell: quoted, inner quotes doubled, when it holds a comma, a quote or a line break.
fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(ys: &[f64]) -> Vec<(f64, f64)> {
        ys.iter()
            .enumerate()
            .map(|(i, &y)| ((i + 1) as f64, y))
            .collect()
    }

    #[test]
    fn a_retrain_keeps_the_run_it_replaces_marked_and_numbered() {
        let mut runs = Runs::default();
        assert_eq!(runs.keep("a".into(), &curve(&[3.0, 2.0])), None);
        assert_eq!(runs.current_number(), 2);
        let kept: Vec<_> = runs.kept().collect();
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].number, kept[0].marked), (1, true));
        assert_eq!(kept[0].last(), Some(2.0));
    }

    #[test]
    fn a_run_that_drew_nothing_is_not_kept_and_leaves_its_number() {
        let mut runs = Runs::default();
        runs.keep("empty".into(), &[]);
        assert_eq!(runs.kept().count(), 0);
        assert_eq!(runs.current_number(), 1);
    }

    #[test]
    fn the_oldest_unmarked_run_gives_way() {
        let mut runs = Runs::default();
        for n in 0..KEPT {
            runs.keep(format!("{n}"), &curve(&[1.0]));
        }
        // Unmark run 2 (the list: in force, run 3, run 2, run 1).
        runs.selected = 2;
        runs.toggle_selected().unwrap();
        assert_eq!(runs.keep("new".into(), &curve(&[1.0])), Some(2));
        let numbers: Vec<_> = runs.kept().map(|run| run.number).collect();
        assert_eq!(numbers, [4, 3, 1]);
        // Every one marked: the oldest goes.
        assert_eq!(runs.keep("newer".into(), &curve(&[1.0])), Some(1));
    }

    #[test]
    fn the_run_in_force_cannot_be_unmarked_and_the_cursor_stays_in_the_list() {
        let mut runs = Runs::default();
        runs.keep("a".into(), &curve(&[1.0]));
        assert!(runs.toggle_selected().is_err());
        runs.move_by(5);
        assert_eq!(runs.selected, 1);
        assert_eq!(runs.toggle_selected().unwrap(), "run 1 taken off the chart");
        assert_eq!(runs.marked().count(), 0);
        runs.move_by(-9);
        assert_eq!(runs.selected, 0);
    }

    #[test]
    fn csv_has_one_row_per_sample_and_one_column_per_run() {
        let mut runs = Runs::default();
        runs.keep("rate 0.5, seed 1".into(), &curve(&[0.9, 0.5, 0.25]));
        let csv = runs.csv("epoch", ("rate 0.1", &curve(&[0.8])));
        let lines: Vec<_> = csv.lines().collect();
        assert_eq!(
            lines,
            [
                "epoch,\"run 1 (rate 0.5, seed 1)\",\"run 2 (rate 0.1, in force)\"",
                "1,0.9,0.8",
                "2,0.5,",
                "3,0.25,",
            ]
        );
    }

    #[test]
    fn used_values_are_said_in_order_and_bounded() {
        let mut used = Used::default();
        assert_eq!(
            used.words(&0.12),
            "0.12",
            "nothing used yet: the value in force"
        );
        used.note(&0.12);
        used.note(&0.12);
        used.note(&0.5);
        assert_eq!(used.words(&0.9), "0.12→0.5");
        for rate in [1, 2, 3, 4, 5] {
            used.note(&rate);
        }
        assert_eq!(
            used.words(&0),
            "0.12→0.5→1→5",
            "the latest replaces the one before"
        );
        used.clear();
        assert_eq!(used.words(&"x"), "x");
    }

    #[test]
    fn a_long_curve_is_thinned_to_a_bound_and_keeps_its_last_point() {
        let long: Vec<_> = (1..=25_001)
            .map(|i| (f64::from(i), 1.0 / f64::from(i)))
            .collect();
        let mut runs = Runs::default();
        runs.keep("long".into(), &long);
        let run = runs.kept().next().unwrap();
        assert!(run.points.len() <= MOST_POINTS + 1, "{}", run.points.len());
        assert_eq!(run.points.last(), long.last());
        assert_eq!(run.points[0], long[0]);
    }
}
