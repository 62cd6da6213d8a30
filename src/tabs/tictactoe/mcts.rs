//! MCTS as the tab's third algorithm: which search `a` has picked, what an AI turn needs to
//! run MCTS (its iterations, `c` and seed), how the tab's games are written in the shared
//! MCTS outline, and the MCTS search the tree pane shows (the AI's move being stepped
//! phase by phase, or the record of the search behind a move played), with the exact value
//! of each root move beside it so a student sees where too few iterations go wrong.

use crate::domain::numbers::{signed, thousands};
use crate::domain::search::Algorithm;
use crate::domain::search::mcts::{MctsStepper, NodeId, Phase, Pick, ROOT};
use crate::domain::solve::perfect::Solver;
use crate::frame::mcts_outline::{self, Exact, Folds, Names, Row, short_verdict};
use std::cell::RefCell;
use std::rc::Rc;

/// The AI's search on the tab: `a` cycles minimax → alpha-beta → MCTS. The config's
/// `search.algorithm` names only the two tree searches (`Algorithm`); MCTS is chosen on the
/// tab, with its own `[search]` keys for its iterations and `c`.
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
    pub(crate) const fn from_algorithm(algorithm: Algorithm) -> Self {
        match algorithm {
            Algorithm::Minimax => Self::Minimax,
            Algorithm::AlphaBeta => Self::AlphaBeta,
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

/// The picks of a selection, read ahead for the phases done then.
pub(crate) type ReadAhead = (u64, Rc<[Pick<u8>]>);

/// An MCTS search the tree pane shows: the AI's move being stepped phase by phase (live),
/// or the record of the search behind a move played.
pub struct MctsView<G: Names> {
    /// The search, driven one phase at a time (a search run at once went through it too,
    /// so both faces build one tree).
    pub stepper: MctsStepper<G>,
    /// The outline's folds, cursor and scroll.
    pub(crate) folds: Folds,
    /// True while the AI waits for this search to be stepped and its move played.
    pub live: bool,
    /// The iterations the search runs: the setting when it started.
    pub iterations: u64,
    /// The exact value of each root move.
    pub(crate) exact: Vec<Exact>,
    /// The phases done when a pick was last predicted, and how many of that selection's
    /// picks (the root's first) are answered: those questions are over.
    pub(crate) answered: Option<(u64, usize)>,
    /// The picks of the selection next, read ahead once for the phases done then.
    pub(crate) picks: RefCell<Option<ReadAhead>>,
}

impl<G: Names> MctsView<G> {
    /// A fresh search from `root`, waiting to be stepped when `live`.
    pub(crate) fn new(root: G, iterations: u64, exploration: f64, seed: u64, live: bool) -> Self {
        Self {
            stepper: MctsStepper::new(root, exploration, seed),
            folds: Folds::default(),
            live,
            iterations,
            exact: exact_values(&root),
            answered: None,
            picks: RefCell::new(None),
        }
    }

    /// The search run through all its iterations at once, as the AI runs it when it does
    /// not wait to be stepped.
    pub(crate) fn run(root: G, iterations: u64, exploration: f64, seed: u64) -> Self {
        let mut view = Self::new(root, iterations, exploration, seed, false);
        view.finish();
        view.follow();
        view
    }

    /// True once every iteration is done and no phase of another has started.
    pub(crate) fn is_finished(&self) -> bool {
        self.stepper.mcts().iterations() >= self.iterations
            && self.stepper.phase() == Phase::Selection
    }

    /// Runs the iterations left (the one under way counting as one).
    pub(crate) fn finish(&mut self) {
        if !self.is_finished() {
            let done = self.stepper.mcts().iterations();
            self.stepper
                .run_iterations(self.iterations.saturating_sub(done).max(1));
        }
    }

    /// The nodes of the path of the iteration under way, while the search is stepped (the
    /// outline unfolds and marks them).
    pub(crate) fn marked(&self) -> Vec<NodeId> {
        if self.live {
            mcts_outline::selected_path(&self.stepper)
        } else {
            Vec::new()
        }
    }

    /// The outline's rows, as the folds open it.
    pub(crate) fn rows(&self) -> Vec<Row> {
        mcts_outline::mcts_rows(
            self.stepper.mcts(),
            &self.exact,
            &self.folds,
            &self.marked(),
        )
    }

    /// The node under the cursor.
    pub(crate) fn cursor_node(&self) -> NodeId {
        self.rows()
            .get(self.folds.cursor)
            .map_or(ROOT, |row| row.node as NodeId)
    }

    /// The cursor to where the search is: the deepest node of the path being stepped (the
    /// last of its rows, as rows list a parent before its children), or the move the AI
    /// plays (the root before either exists).
    pub(crate) fn follow(&mut self) {
        let rows = self.rows();
        let marked = self.marked();
        let target = if marked.is_empty() {
            rows.iter().skip(1).position(|r| r.chosen).map(|i| i + 1)
        } else {
            rows.iter()
                .rposition(|r| r.chosen && marked.contains(&(r.node as NodeId)))
        };
        self.folds.cursor = target.unwrap_or(0);
    }

    /// Where the stepped search stands, for the status line.
    pub(crate) fn said(&self) -> String {
        if self.is_finished() {
            return self.finished_said();
        }
        mcts_outline::phase_said(&self.stepper)
    }

    /// What the status line says once every iteration is done.
    pub(crate) fn finished_said(&self) -> String {
        let mcts = self.stepper.mcts();
        let best = mcts.best_move().map_or_else(
            || "no move".to_string(),
            |mv| mcts.root_position().move_name(mv),
        );
        let visits = mcts
            .root_moves()
            .iter()
            .find(|m| Some(m.mv) == mcts.best_move())
            .map_or(0, |m| m.visits);
        format!(
            "All {} iterations done: {best} visited most (N {}); Enter plays it",
            thousands(self.iterations),
            thousands(visits)
        )
    }

    /// Moves the outline's cursor `delta` rows, within the outline (`i32::MIN`/`MAX`: to
    /// either end).
    pub(crate) fn move_cursor(&mut self, delta: i32) {
        let last = self.rows().len().saturating_sub(1) as i64;
        let at = (self.folds.cursor as i64).saturating_add(i64::from(delta));
        self.folds.cursor = at.clamp(0, last) as usize;
    }

    /// Folds (`true`) or unfolds the node under the cursor; folding a folded node (or one
    /// without children) moves to its parent, unfolding an open one to its first child. A
    /// node on the path being stepped stays open, and says so.
    pub(crate) fn fold(&mut self, fold: bool) -> Option<String> {
        let rows = self.rows();
        let row = rows.get(self.folds.cursor)?;
        let id = row.node as NodeId;
        let mcts = self.stepper.mcts();
        let has_children = mcts.children(id).any(|(_, n)| n.is_in_tree());
        let open = self.folds.is_open(row.node) || self.marked().contains(&id);
        if fold {
            if open && has_children && id != ROOT {
                if self.marked().contains(&id) {
                    return Some("That node is on the path being stepped: it stays open".into());
                }
                self.folds.set(row.node, false);
            } else if let Some(parent) = mcts.node(id).parent() {
                self.folds.cursor = rows
                    .iter()
                    .position(|r| r.node == parent as usize)
                    .unwrap_or(0);
            }
        } else if !open && has_children {
            self.folds.set(row.node, true);
        } else if open && has_children {
            // The first child is the next row.
            self.folds.cursor = (self.folds.cursor + 1).min(rows.len().saturating_sub(1));
        }
        None
    }

    /// A click on row `row` of the outline: the cursor goes there; a second click on the
    /// node under the cursor folds or unfolds it.
    pub(crate) fn click(&mut self, row: usize) -> Option<String> {
        let rows = self.rows();
        let target = rows.get(row)?;
        if row != self.folds.cursor {
            self.folds.cursor = row;
            return None;
        }
        let id = target.node as NodeId;
        if !self
            .stepper
            .mcts()
            .children(id)
            .any(|(_, n)| n.is_in_tree())
        {
            return None;
        }
        let open = self.folds.is_open(target.node) || self.marked().contains(&id);
        self.fold(open)
    }

    /// Unfolds every node of the tree, or folds them all back to the root's moves; whether
    /// it unfolded.
    pub(crate) fn expand_all(&mut self) -> bool {
        if self.folds.any_open() {
            self.folds.fold_all();
            self.folds.cursor = 0;
            return false;
        }
        let inner: Vec<usize> = self
            .stepper
            .mcts()
            .nodes()
            .filter(|&(id, _)| {
                id != ROOT
                    && self
                        .stepper
                        .mcts()
                        .children(id)
                        .any(|(_, n)| n.is_in_tree())
            })
            .map(|(id, _)| id as usize)
            .collect();
        for id in inner {
            self.folds.set(id, true);
        }
        true
    }
}
