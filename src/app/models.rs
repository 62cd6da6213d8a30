//! The trained models an app starts from, read from the data dir apart from building the
//! app, so a server can read them once and start every session from copies of them.
//!
//! To add a model: a field in [`Models`], a line in [`Models::load`] calling the tab's own
//! `load`, and the tab's `from_loaded` taking `models.<field>` in `App`'s constructor.

use crate::config::Config;
use crate::games::nim::Piles;
use crate::learn::nim_net::NetTrainer;
use crate::learn::qlearning::QTrainer;
use crate::learn::state_graph::StateGraph;
use crate::learn::subtraction::SavedModel;
use crate::store::{Found, Stamp, Store, StoreError};

use super::graph_tab::GraphTab;
use super::nim_learners::{NetAgent, QAgent};
use super::subtraction_tab::SubtractionTab;

/// What reading one saved model gave: the model, or why the file could not be used (both
/// empty when there is no file). The tab shows the reason, so it is kept, not dropped.
#[derive(Debug, Clone)]
pub struct Loaded<T> {
    /// The model, when a file was there and fits the config.
    pub model: Option<T>,
    /// Why the file there could not be used.
    pub error: Option<String>,
    /// The stamp of the file the model was read from: a save that continues this model
    /// replaces that file without backing it up.
    pub stamp: Option<Stamp>,
}

impl<T> Default for Loaded<T> {
    fn default() -> Self {
        Self {
            model: None,
            error: None,
            stamp: None,
        }
    }
}

impl<T> Loaded<T> {
    /// A model that fits, not read from a file.
    pub fn model(model: T) -> Self {
        Self {
            model: Some(model),
            error: None,
            stamp: None,
        }
    }

    /// A file that could not be used, and why.
    pub fn error(why: String) -> Self {
        Self {
            model: None,
            error: Some(why),
            stamp: None,
        }
    }

    /// What [`Store::load`] gave: the model with its file's stamp, nothing, or why not.
    pub fn read(result: Result<Option<Found<T>>, StoreError>) -> Self {
        match result {
            Ok(Some(found)) => Self {
                model: Some(found.model),
                error: None,
                stamp: Some(found.stamp),
            },
            Ok(None) => Self::default(),
            Err(error) => Self::error(error.to_string()),
        }
    }
}

/// Every trained model an app can start from. Cloning it is cheap (small networks and
/// tables), so each session gets its own copy to train without touching the others.
#[derive(Debug, Clone, Default)]
pub struct Models {
    /// The Subtraction Nim network.
    pub subtraction: Loaded<SavedModel>,
    /// The State Graph weights.
    pub graph: Loaded<StateGraph>,
    /// The Multi-pile Nim Q-table for the configured piles and rule.
    pub nim_q: Loaded<QTrainer>,
    /// The Multi-pile Nim network.
    pub nim_net: Loaded<NetTrainer>,
}

impl Models {
    /// Reads every model `config` asks for from `store`; a missing or unusable file leaves
    /// that model empty (with the reason), never fails the whole load.
    pub fn load(config: &Config, store: &Store) -> Self {
        Self {
            subtraction: SubtractionTab::load(&config.subtraction, store),
            graph: GraphTab::load(&config.graph, store),
            nim_q: Piles::new(&config.nim.piles).map_or_else(Loaded::default, |start| {
                QAgent::load(start, config.nim.rule, &config.qlearning, store)
            }),
            nim_net: NetAgent::load(&config.nim_net, store),
        }
    }

    /// Why each model that could not be used could not, for a server to print at start.
    pub fn problems(&self) -> Vec<&str> {
        [
            &self.subtraction.error,
            &self.graph.error,
            &self.nim_q.error,
            &self.nim_net.error,
        ]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect()
    }
}
