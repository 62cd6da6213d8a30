//! MCTS as the tab's third algorithm: which search `a` has picked, what an AI turn needs to
//! run MCTS (its iterations, `c` and seed), and the MCTS component's search as the tab
//! makes it: with the exact value of each root move from the perfect-play solver, so a
//! student sees where too few iterations go wrong.

use crate::components::mcts_search::MctsView;
use crate::components::mcts_search::outline::{Exact, Names, short_verdict};
use crate::config::SearchAlgorithm;
use crate::domain::numbers::signed;
use crate::domain::search::Algorithm;
use crate::domain::solve::perfect::Solver;

/// The AI's search on the tab: `a` cycles minimax → alpha-beta → MCTS. The config's
/// `search.algorithm` names the one the tab opens on; MCTS has its own `[search]` keys
/// for its iterations and `c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SearchKind {
    /// Plain minimax.
    Minimax,
    /// Minimax with alpha-beta pruning.
    AlphaBeta,
    /// Monte Carlo tree search (UCT).
    Mcts,
}

impl SearchKind {
    /// Every search, in the order `a` and the settings panel cycle them.
    pub(crate) const ALL: [Self; 3] = [Self::Minimax, Self::AlphaBeta, Self::Mcts];

    /// The search the config names.
    pub(crate) const fn from_algorithm(algorithm: SearchAlgorithm) -> Self {
        match algorithm {
            SearchAlgorithm::Minimax => Self::Minimax,
            SearchAlgorithm::AlphaBeta => Self::AlphaBeta,
            SearchAlgorithm::Mcts => Self::Mcts,
        }
    }

    /// The next search `a` picks.
    #[must_use]
    pub(crate) const fn next(self) -> Self {
        match self {
            Self::Minimax => Self::AlphaBeta,
            Self::AlphaBeta => Self::Mcts,
            Self::Mcts => Self::Minimax,
        }
    }

    /// The tree search this is, `None` for MCTS.
    pub(crate) const fn tree(self) -> Option<Algorithm> {
        match self {
            Self::Minimax => Some(Algorithm::Minimax),
            Self::AlphaBeta => Some(Algorithm::AlphaBeta),
            Self::Mcts => None,
        }
    }

    /// Its name in sentences and titles.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Minimax => "minimax",
            Self::AlphaBeta => "alpha-beta",
            Self::Mcts => "MCTS",
        }
    }

    /// Its name where the pane is narrow.
    pub(crate) const fn short(self) -> &'static str {
        match self {
            Self::Minimax => "minimax",
            Self::AlphaBeta => "α-β",
            Self::Mcts => "MCTS",
        }
    }
}

/// What an AI turn needs: the search picked and, for MCTS, its settings and the tab's seed
/// (each move mixes in its game and move number, so a game replays exactly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AiSetup {
    /// The search.
    pub(crate) kind: SearchKind,
    /// MCTS iterations per move.
    pub(crate) iterations: u64,
    /// MCTS's exploration constant `c`.
    pub(crate) exploration: f64,
    /// The tab's seed.
    pub(crate) seed: u64,
}

/// The exact value of each root move from `root`, from the perfect-play solver: beside the
/// move, its verdict in short (`win 2`, `draw`); under the outline, the verdict in words
/// with the value minimax gives the move (`+8`), the numbers the other two algorithms of
/// the tab would play by.
pub(crate) fn exact_values<G: Names>(root: &G) -> Vec<Exact> {
    let mut solver = Solver::new();
    root.legal_moves()
        .as_ref()
        .iter()
        .map(|&mv| {
            let verdict = solver.after(root, mv);
            let label = root.move_name(mv);
            let said = if verdict.is_draw() {
                "draws".to_string()
            } else {
                verdict.to_string()
            };
            Exact {
                mv,
                short: short_verdict(verdict),
                sentence: format!(
                    "Exact: {label} {said} (minimax {}).",
                    signed(verdict.search_value())
                ),
            }
        })
        .collect()
}

/// An MCTS search from `root` as the tab shows it, waiting to be stepped when `live`: with
/// the exact value of each root move.
pub(crate) fn mcts_view<G: Names>(
    root: G,
    iterations: u64,
    exploration: f64,
    seed: u64,
    live: bool,
) -> MctsView<G> {
    MctsView::new(root, iterations, exploration, seed, live).with_exact(exact_values(&root))
}

/// The same search run through all its iterations at once, as the AI runs it when it does
/// not wait to be stepped.
pub(crate) fn mcts_run<G: Names>(
    root: G,
    iterations: u64,
    exploration: f64,
    seed: u64,
) -> MctsView<G> {
    MctsView::run(root, iterations, exploration, seed).with_exact(exact_values(&root))
}
