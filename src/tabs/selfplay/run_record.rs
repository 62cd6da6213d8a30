//! The settings a training run used, in words for the runs' legend and CSV header.

use crate::domain::learn::selfplay::trainer::SelfPlaySettings;
use crate::tabkit::runs::Used;

/// What the run in force trained with, in words: its width and seed, and every value each
/// setting the panel changes while it trains took (`sims 50→200`).
#[derive(Debug, Clone, Default)]
pub(crate) struct RunRecord {
    width: usize,
    seed: u64,
    simulations: Used,
    c_puct: Used,
    noise: Used,
    temperature_moves: Used,
    learning_rate: Used,
    buffer: Used,
}

impl RunRecord {
    /// A run that starts with `settings`.
    pub(crate) fn new(settings: &SelfPlaySettings) -> Self {
        let mut record = Self {
            width: settings.widths.first().copied().unwrap_or(0),
            seed: settings.seed,
            ..Self::default()
        };
        record.note(settings);
        record
    }

    /// The run trains with `settings` from here on.
    pub(crate) fn note(&mut self, settings: &SelfPlaySettings) {
        self.simulations.note(&settings.simulations);
        self.c_puct.note(&settings.c_puct);
        self.noise.note(&settings.noise_share);
        self.temperature_moves.note(&settings.temperature_moves);
        self.learning_rate.note(&settings.learning_rate);
        self.buffer.note(&settings.buffer);
    }

    /// Its settings in words, the parts in the same order for every run (the legend shows
    /// only those in which runs differ).
    pub(crate) fn words(&self) -> String {
        let used = |used: &Used| used.words(&"");
        format!(
            "width {}, sims {}, c_puct {}, ε {}, temp. moves {}, rate {}, buffer {}, seed {}",
            self.width,
            used(&self.simulations),
            used(&self.c_puct),
            used(&self.noise),
            used(&self.temperature_moves),
            used(&self.learning_rate),
            used(&self.buffer),
            self.seed
        )
    }
}
