//! The table file: every learned value with the numbers of its last update, the game and
//! the settings it was trained with and its learning curve; the checks a file passes
//! before its values are put back, and a trainer saved to a file and read back from one.

use super::evaluation::{QEvaluation, evaluate};
use super::table::{LastUpdate, QTable};
use super::training::{QSettings, QTrainer};
use crate::domain::games::nim::{NimMove, Piles, Rule};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One saved (position, move) value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QEntry {
    /// The pile sizes.
    pub state: Vec<u8>,
    /// The pile, 0-based.
    pub pile: u8,
    /// Objects taken.
    pub take: u8,
    /// Q(s, a).
    pub value: f64,
    /// Updates made to it.
    pub updates: u32,
    /// The update that set the value last (absent in files written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<SavedUpdate>,
}

/// The numbers of a saved value's last update; its new value is the entry's value and its
/// learning rate the table's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedUpdate {
    /// Q(s, a) before it.
    pub old: f64,
    /// The reward.
    pub reward: f64,
    /// max Q(s', .) then.
    pub best_future: f64,
    /// The pile sizes of s'.
    pub next: Vec<u8>,
}

impl QTable {
    /// Every learned entry, position by position: what is saved.
    pub fn learned(&self) -> Vec<QEntry> {
        let mut entries = Vec::new();
        for piles in self.start.below() {
            for mv in piles.moves() {
                let cell = self.cell(piles, mv);
                if self.updates[cell] > 0 {
                    entries.push(QEntry {
                        state: piles.sizes().to_vec(),
                        pile: mv.pile,
                        take: mv.take,
                        value: self.values[cell],
                        updates: self.updates[cell],
                        last: self.last_update(&piles, mv, 0.0).map(|u| SavedUpdate {
                            old: u.old,
                            reward: u.reward,
                            best_future: u.best_future,
                            next: u.next.sizes().to_vec(),
                        }),
                    });
                }
            }
        }
        entries
    }

    /// Puts a saved entry back; `Err` names what does not fit this table.
    pub fn restore(&mut self, entry: &QEntry) -> Result<(), String> {
        let piles = Piles::new(&entry.state)
            .filter(|p| self.covers(p))
            .ok_or_else(|| format!("position {:?} is not one of this game", entry.state))?;
        let mv = piles
            .check(usize::from(entry.pile) + 1, u32::from(entry.take))
            .map_err(|e| format!("position {piles}: {e}"))?;
        // Rewards are -1, 0 or +1 and an update (alpha at most 1) moves Q part of the way
        // towards one of them plus a value of that range: |Q| never exceeds 1.
        if entry.value.is_nan() || entry.value.abs() > 1.0 + 1e-9 {
            return Err(format!(
                "position {piles}: Q-value {} is not one training writes (-1 to 1)",
                entry.value
            ));
        }
        let cell = self.cell(piles, mv);
        self.values[cell] = entry.value;
        self.updates[cell] = entry.updates;
        if let Some(last) = &entry.last {
            self.last[cell] = self.restored_update(piles, mv, last)?;
        }
        Ok(())
    }

    /// A saved last update of (piles, mv) checked against the game: a later position of
    /// this table, a reward self-play gives, values in the range training writes.
    fn restored_update(
        &self,
        piles: Piles,
        mv: NimMove,
        last: &SavedUpdate,
    ) -> Result<LastUpdate, String> {
        let next = Piles::new(&last.next)
            .filter(|p| self.covers(p) && p.total() < piles.total())
            .ok_or_else(|| {
                format!(
                    "position {piles}, move {mv}: the last update's next position {:?} does not follow it",
                    last.next
                )
            })?;
        let in_range = |v: f64| !v.is_nan() && v.abs() <= 1.0 + 1e-9;
        if ![-1.0, 0.0, 1.0].contains(&last.reward)
            || !in_range(last.old)
            || !in_range(last.best_future)
        {
            return Err(format!(
                "position {piles}, move {mv}: the last update holds numbers no training writes"
            ));
        }
        Ok(LastUpdate {
            old: last.old,
            best_future: last.best_future,
            next: self.row(next) as u32,
            reward: last.reward as f32,
        })
    }
}

/// The file the table for games from `start` under `rule` is kept in: one per game, so
/// switching rules or piles keeps every table learned so far.
pub fn table_file(start: Piles, rule: Rule) -> String {
    let rule = match rule {
        Rule::Misere => "misere",
        Rule::Normal => "normal",
    };
    let piles: Vec<String> = start.sizes().iter().map(u8::to_string).collect();
    format!("nim-qtable-{rule}-{}.json", piles.join("-"))
}
/// The format name written into a table file.
pub const TABLE_FORMAT: &str = "ai-arcade/nim-qtable";
/// The format version; a file of another version is reported, not read.
pub const TABLE_VERSION: u32 = 1;

/// What is saved of a trained table: the game, how it was trained, its learning curve and
/// every learned value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedTable {
    /// The starting piles.
    pub piles: Vec<u8>,
    /// The rule.
    pub rule: Rule,
    /// The learning settings.
    pub settings: QSettings,
    /// The seed of the training games.
    pub seed: u64,
    /// Games played.
    pub games: usize,
    /// The measurements taken while training.
    pub curve: Vec<QEvaluation>,
    /// Every learned value.
    pub entries: Vec<QEntry>,
}

impl SavedTable {
    /// Why this table cannot play games from `start` under `rule`.
    pub fn problem(&self, start: Piles, rule: Rule) -> Option<String> {
        if self.piles != start.sizes() || self.rule != rule {
            return Some(format!(
                "learned for piles {:?} under {} play, the game is {start} under {} play",
                self.piles,
                self.rule.name(),
                rule.name()
            ));
        }
        self.check_numbers().err()
    }

    /// The settings and curve against the config's own ranges and what training writes.
    fn check_numbers(&self) -> Result<(), String> {
        use crate::domain::learn::field;
        use crate::domain::learn::limits::{
            ALPHA_ALLOWED, EPSILON_ALLOWED, alpha_allowed, epsilon_allowed,
        };
        let QSettings { alpha, epsilon, .. } = self.settings;
        field(alpha_allowed(alpha), "settings.alpha", alpha, ALPHA_ALLOWED)?;
        field(
            epsilon_allowed(epsilon),
            "settings.epsilon",
            epsilon,
            EPSILON_ALLOWED,
        )?;
        let rate = |r: f64| (0.0..=1.0).contains(&r);
        let curve_sane = self.curve.iter().all(|e| {
            e.games <= self.games
                && e.optimal_states <= e.winning_states
                && rate(e.win_rate_vs_random)
                && rate(e.win_rate_vs_perfect)
                && rate(e.best_vs_perfect)
        });
        if !curve_sane {
            return Err("the learning curve holds numbers no training writes".into());
        }
        Ok(())
    }
}

/// The check a table file for games from `start` under `rule` passes to be used, on load
/// and before a save replaces it; what it gives is the trainer holding the table.
pub fn usable(
    start: Piles,
    rule: Rule,
    sample_every: usize,
) -> impl Fn(SavedTable) -> Result<QTrainer, String> {
    move |saved| match saved.problem(start, rule) {
        Some(why) => Err(why),
        None => QTrainer::from_saved(&saved, sample_every),
    }
}

impl QTrainer {
    /// What to save.
    pub fn saved(&self) -> SavedTable {
        SavedTable {
            piles: self.table.start().sizes().to_vec(),
            rule: self.table.rule(),
            settings: self.settings,
            seed: self.seed,
            games: self.games,
            curve: self.curve.clone(),
            entries: self.table.learned(),
        }
    }

    /// A trainer holding a saved table; more training draws from the seed and game count,
    /// so a resumed run is reproducible too.
    pub fn from_saved(saved: &SavedTable, sample_every: usize) -> Result<Self, String> {
        let start = Piles::new(&saved.piles).ok_or("the piles are not a Nim position")?;
        // Built field by field rather than with `new`, which would measure the empty table
        // (thousands of games) only for the saved curve to replace the measurement.
        let mut table = QTable::new(start, saved.rule).map_err(|e| e.to_string())?;
        for entry in &saved.entries {
            table.restore(entry)?;
        }
        let curve = if saved.curve.is_empty() {
            vec![evaluate(&table, saved.games)]
        } else {
            saved.curve.clone()
        };
        Ok(Self {
            table,
            settings: saved.settings,
            target: saved.games,
            games: saved.games,
            sample_every: sample_every.max(1),
            curve,
            seed: saved.seed,
            training_time: Duration::ZERO,
            rng: ChaCha8Rng::seed_from_u64(saved.seed ^ saved.games as u64),
        })
    }
}
