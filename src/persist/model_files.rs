//! The kinds of model the data dir keeps, each described once (file name, format, version,
//! and the check a file passes to be used): the tabs and the `train` commands read and write
//! through these descriptions, so they can never disagree about a file.
//!
//! They live here, between the two things they join: the learners' payloads (`learn/`, pure
//! logic that never names the store) and the store's envelope (`store.rs`, which knows no
//! learner).

use crate::domain::games::nim::{Piles, Rule};
use crate::domain::learn::nim_net::{self, NET_FORMAT, NET_VERSION, NetGame, NetTrainer, SavedNet};
use crate::domain::learn::qlearning::{self, QTrainer, SavedTable, TABLE_FORMAT, TABLE_VERSION};
use crate::domain::learn::selfplay::{
    self,
    learnable::Learnable,
    saved::{SELFPLAY_FORMAT, SELFPLAY_VERSION, SavedLearner},
};
use crate::domain::learn::state_graph::{
    self, GRAPH_FILE, GRAPH_FORMAT, GRAPH_VERSION, StateGraph,
};
use crate::domain::learn::subtraction::{
    self, MODEL_FILE, MODEL_FORMAT, MODEL_VERSION, SavedModel,
};
use crate::domain::numbers::thousands;
use crate::domain::solve::subtraction::Solution;
use crate::persist::{ModelFile, ModelKind};

/// `count` `unit`s in words: "1 game", "20,000 games".
fn count(count: u64, unit: &str) -> String {
    let plural = if count == 1 { "" } else { "s" };
    format!("{} {unit}{plural}", thousands(count))
}

/// The Subtraction Nim network's file.
pub const SUBTRACTION_NET: ModelFile<'static> = ModelFile {
    name: MODEL_FILE,
    format: MODEL_FORMAT,
    version: MODEL_VERSION,
};

/// The State-Graph learner's file.
pub const STATE_GRAPH: ModelFile<'static> = ModelFile {
    name: GRAPH_FILE,
    format: GRAPH_FORMAT,
    version: GRAPH_VERSION,
};

/// The Subtraction Nim network for piles up to `n_max`: one file, refused when it was
/// trained for other piles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubtractionNetFile {
    /// The largest starting pile.
    pub n_max: u32,
}

impl ModelKind for SubtractionNetFile {
    type Payload = SavedModel;
    type Model = SavedModel;

    fn file(&self) -> ModelFile<'_> {
        SUBTRACTION_NET
    }

    fn usable(&self, payload: SavedModel) -> Result<SavedModel, String> {
        subtraction::usable(self.n_max)(payload)
    }

    fn noun(&self) -> &'static str {
        "network"
    }

    /// Its epochs, and how it plays against the exact answers (126 forward passes).
    fn holds(&self, model: &SavedModel) -> String {
        let encoding = subtraction::Encoding { n_max: model.n_max };
        let evaluation =
            subtraction::Evaluation::new(&model.network, encoding, &Solution::new(model.n_max));
        format!(
            "{}, wins at {}/{} winning piles",
            count(model.epochs as u64, "epoch"),
            evaluation.winning_correct(),
            evaluation.winning_positions()
        )
    }
}

/// The State-Graph learner's weights for Nim(`tokens`) with takes 1..=`max_take`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateGraphFile {
    /// Tokens at the start.
    pub tokens: u32,
    /// The most tokens one turn may take.
    pub max_take: u32,
}

impl ModelKind for StateGraphFile {
    type Payload = StateGraph;
    type Model = StateGraph;

    fn file(&self) -> ModelFile<'_> {
        STATE_GRAPH
    }

    fn usable(&self, payload: StateGraph) -> Result<StateGraph, String> {
        state_graph::usable(self.tokens, self.max_take)(payload)
    }

    fn noun(&self) -> &'static str {
        "state graph"
    }

    fn holds(&self, graph: &StateGraph) -> String {
        format!(
            "{}, {:.0}% of winning states pick a winning move",
            count(graph.games, "game"),
            graph.optimal_share() * 100.0
        )
    }
}

/// The Q-table for one game of Multi-pile Nim: one file per game (piles and rule), so
/// switching games keeps every table learned so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QTableFile {
    name: String,
    start: Piles,
    rule: Rule,
    sample_every: usize,
}

impl QTableFile {
    /// The table for games from `start` under `rule`, measured every `sample_every` games
    /// once loaded.
    pub fn new(start: Piles, rule: Rule, sample_every: usize) -> Self {
        Self {
            name: qlearning::table_file(start, rule),
            start,
            rule,
            sample_every,
        }
    }
}

impl ModelKind for QTableFile {
    type Payload = SavedTable;
    type Model = QTrainer;

    fn file(&self) -> ModelFile<'_> {
        ModelFile {
            name: &self.name,
            format: TABLE_FORMAT,
            version: TABLE_VERSION,
        }
    }

    fn usable(&self, payload: SavedTable) -> Result<QTrainer, String> {
        qlearning::usable(self.start, self.rule, self.sample_every)(payload)
    }

    fn noun(&self) -> &'static str {
        "Q-table"
    }

    /// Its games and its last measurement, as saved (nothing is measured again).
    fn holds(&self, trainer: &QTrainer) -> String {
        let measured = trainer.evaluation();
        format!(
            "{}, wins at {}/{} winning positions",
            count(trainer.games as u64, "game"),
            measured.optimal_states,
            measured.winning_states
        )
    }
}

/// The Multi-pile Nim network for one game: one file per game, so changing the game never
/// clobbers a network trained for another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NimNetFile {
    name: String,
    game: NetGame,
}

impl NimNetFile {
    /// The network for `game`.
    pub fn new(game: NetGame) -> Self {
        Self {
            name: nim_net::net_file(game),
            game,
        }
    }
}

impl ModelKind for NimNetFile {
    type Payload = SavedNet;
    type Model = NetTrainer;

    fn file(&self) -> ModelFile<'_> {
        ModelFile {
            name: &self.name,
            format: NET_FORMAT,
            version: NET_VERSION,
        }
    }

    fn usable(&self, payload: SavedNet) -> Result<NetTrainer, String> {
        nim_net::usable(self.game)(payload)
    }

    fn noun(&self) -> &'static str {
        "network"
    }

    /// Its epochs only: measuring it plays 31,744 positions, too slow for a message.
    fn holds(&self, trainer: &NetTrainer) -> String {
        count(trainer.epochs() as u64, "epoch")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::learn::subtraction::{Recipe, Trainer};
    use crate::persist::{Store, StoreError};

    #[test]
    fn each_game_of_multi_pile_nim_has_its_own_table_file() {
        let three = Piles::new(&[3, 4, 5]).unwrap();
        let two = Piles::new(&[3, 4]).unwrap();
        let normal = QTableFile::new(three, Rule::Normal, 500);
        assert_eq!(normal.file().name, "nim-qtable-normal-3-4-5.json");
        assert_ne!(
            normal.file().name,
            QTableFile::new(three, Rule::Misere, 500).file().name
        );
        assert_ne!(
            normal.file().name,
            QTableFile::new(two, Rule::Normal, 500).file().name
        );
    }

    #[test]
    fn what_save_kind_writes_load_kind_reads_and_another_game_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        let recipe = Recipe {
            epochs: 3,
            ..Recipe::ORIGINAL
        };
        let mut trainer = Trainer::new(31, recipe, 5);
        trainer.train_epochs(3);
        let kind = SubtractionNetFile { n_max: 31 };
        let saved = store.save_kind(&kind, &trainer.saved(), None).unwrap();
        assert_eq!(saved.path, dir.path().join(MODEL_FILE));
        assert_eq!(saved.kept_note(), "", "nothing was there to keep");
        let found = store.load_kind(&kind).unwrap().unwrap();
        assert_eq!(found.model, trainer.saved());
        assert_eq!(found.stamp, saved.stamp);
        let other = store.load_kind(&SubtractionNetFile { n_max: 63 });
        assert!(matches!(other, Err(StoreError::Unusable { .. })));
    }
}

/// The self-play learner of the game `G`: one file a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfPlayFile<G> {
    name: String,
    game: std::marker::PhantomData<G>,
}

impl<G: Learnable> Default for SelfPlayFile<G> {
    fn default() -> Self {
        Self {
            name: selfplay::saved::learner_file(G::NAME),
            game: std::marker::PhantomData,
        }
    }
}

impl<G: Learnable> ModelKind for SelfPlayFile<G> {
    type Payload = SavedLearner;
    type Model = SavedLearner;

    fn file(&self) -> ModelFile<'_> {
        ModelFile {
            name: &self.name,
            format: SELFPLAY_FORMAT,
            version: SELFPLAY_VERSION,
        }
    }

    fn usable(&self, payload: SavedLearner) -> Result<SavedLearner, String> {
        selfplay::saved::usable::<G>(payload)
    }

    fn noun(&self) -> &'static str {
        "self-play learner"
    }

    /// Its games and time, and the last shares measured.
    fn holds(&self, saved: &SavedLearner) -> String {
        let kept = saved.curve.last().map_or_else(String::new, |point| {
            format!(
                ", keeps the value in {:.1}% with search",
                point.searched_kept
            )
        });
        format!(
            "{} in {:.0} s{kept}",
            count(saved.games, "game"),
            saved.seconds
        )
    }
}
