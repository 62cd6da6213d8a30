//! The stepped search the tree pane shows: the AI's move being stepped phase by phase
//! (live), or the record of the search behind a move played; its outline's folds and
//! cursor, and what the status line says of it. The exact value of each root move is the
//! tab's to give (its own solver), so a student sees where too few iterations go wrong.
//! One view serves every [`SteppedSearch`]: MCTS ([`MctsView`]) and PUCT.

use super::outline::{Exact, Folds, Names, Row};
use super::search::SteppedSearch;
use crate::domain::search::mcts::{MctsStepper, NodeId, ROOT};
use std::cell::RefCell;
use std::sync::Arc;

/// The picks of a selection, read ahead for the phases done then.
pub type ReadAhead<P> = (u64, Arc<[P]>);

/// A stepped search the tree pane shows: the AI's move being stepped phase by phase
/// (live), or the record of the search behind a move played.
pub struct SteppedView<S: SteppedSearch> {
    /// The search, driven one phase at a time (a search run at once went through it too,
    /// so both faces build one tree).
    pub stepper: S,
    /// The outline's folds, cursor and scroll.
    pub folds: Folds,
    /// True while the AI waits for this search to be stepped and its move played.
    pub live: bool,
    /// The rounds (iterations, simulations) the search runs: the setting when it started.
    pub iterations: u64,
    /// The exact value of each root move.
    pub exact: Vec<Exact>,
    /// The phases done when a pick was last predicted, and how many of that selection's
    /// picks (the root's first) are answered: those questions are over.
    pub answered: Option<(u64, usize)>,
    /// The picks of the selection next, read ahead once for the phases done then.
    pub picks: RefCell<Option<ReadAhead<S::Pick>>>,
}

/// The MCTS search the Tic-tac-toe and Connect Four tabs step.
pub type MctsView<G> = SteppedView<MctsStepper<G>>;

impl<S: SteppedSearch> SteppedView<S> {
    /// A view of `stepper`, a fresh search of `iterations` rounds, waiting to be stepped
    /// when `live`.
    pub fn over(stepper: S, iterations: u64, live: bool) -> Self {
        Self {
            stepper,
            folds: Folds::default(),
            live,
            iterations,
            exact: Vec::new(),
            answered: None,
            picks: RefCell::new(None),
        }
    }

    /// The search with the exact value of each root move shown beside it.
    #[must_use]
    pub fn with_exact(mut self, exact: Vec<Exact>) -> Self {
        self.exact = exact;
        self
    }
    /// The search run through all its rounds at once, as the AI runs it when it does not
    /// wait to be stepped.
    #[must_use]
    pub fn ran(mut self) -> Self {
        self.live = false;
        self.finish();
        self.follow();
        self
    }

    /// True once every round is done and no phase of another has started.
    pub fn is_finished(&self) -> bool {
        self.stepper.rounds() >= self.iterations && self.stepper.at_round_start()
    }

    /// Runs the rounds left (the one under way counting as one).
    pub fn finish(&mut self) {
        if !self.is_finished() {
            let done = self.stepper.rounds();
            self.stepper
                .run_rounds(self.iterations.saturating_sub(done).max(1));
        }
    }

    /// The nodes of the path of the round under way, while the search is stepped (the
    /// outline unfolds and marks them).
    pub fn marked(&self) -> Vec<NodeId> {
        if self.live {
            self.stepper.path()
        } else {
            Vec::new()
        }
    }

    /// The outline's rows, as the folds open it.
    pub fn rows(&self) -> Vec<Row> {
        self.rows_hiding(None)
    }

    /// The outline's rows with the UCB of `asked`'s children hidden (a pick question
    /// about `asked` waits: those values are its answer).
    pub fn rows_hiding(&self, asked: Option<NodeId>) -> Vec<Row> {
        self.stepper
            .rows(&self.exact, &self.folds, &self.marked(), asked)
    }

    /// The node under the cursor.
    pub fn cursor_node(&self) -> NodeId {
        self.rows()
            .get(self.folds.cursor)
            .map_or(ROOT, |row| row.node as NodeId)
    }

    /// The cursor to where the search is: the deepest node of the path being stepped (the
    /// last of its rows, as rows list a parent before its children), or the move the AI
    /// plays (the root before either exists).
    pub fn follow(&mut self) {
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
    pub fn said(&self) -> String {
        if self.is_finished() {
            return self.finished_said();
        }
        self.stepper.phase_said()
    }

    /// What the status line says once every round is done.
    pub fn finished_said(&self) -> String {
        self.stepper.finished_said(self.iterations)
    }

    /// Moves the outline's cursor `delta` rows, within the outline (`i32::MIN`/`MAX`: to
    /// either end).
    pub fn move_cursor(&mut self, delta: i32) {
        let last = self.rows().len().saturating_sub(1) as i64;
        let at = (self.folds.cursor as i64).saturating_add(i64::from(delta));
        self.folds.cursor = at.clamp(0, last) as usize;
    }

    /// Folds (`true`) or unfolds the node under the cursor; folding a folded node (or one
    /// without children) moves to its parent, unfolding an open one to its first child. A
    /// node on the path being stepped stays open, and says so.
    pub fn fold(&mut self, fold: bool) -> Option<String> {
        let rows = self.rows();
        let row = rows.get(self.folds.cursor)?;
        let id = row.node as NodeId;
        let has_children = self.stepper.has_children(id);
        let open = self.folds.is_open(row.node) || self.marked().contains(&id);
        if fold {
            if open && has_children && id != ROOT {
                if self.marked().contains(&id) {
                    return Some("That node is on the path being stepped: it stays open".into());
                }
                self.folds.set(row.node, false);
            } else if let Some(parent) = self.stepper.parent(id) {
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
    pub fn click(&mut self, row: usize) -> Option<String> {
        let rows = self.rows();
        let target = rows.get(row)?;
        if row != self.folds.cursor {
            self.folds.cursor = row;
            return None;
        }
        let id = target.node as NodeId;
        if !self.stepper.has_children(id) {
            return None;
        }
        let open = self.folds.is_open(target.node) || self.marked().contains(&id);
        self.fold(open)
    }

    /// Unfolds every node of the tree, or folds them all back to the root's moves; whether
    /// it unfolded.
    pub fn expand_all(&mut self) -> bool {
        if self.folds.any_open() {
            self.folds.fold_all();
            self.folds.cursor = 0;
            return false;
        }
        for id in self.stepper.inner_nodes() {
            self.folds.set(id as usize, true);
        }
        true
    }
}

impl<G: Names> MctsView<G> {
    /// A fresh MCTS from `root` of `iterations`, waiting to be stepped when `live`.
    pub fn new(root: G, iterations: u64, exploration: f64, seed: u64, live: bool) -> Self {
        Self::over(MctsStepper::new(root, exploration, seed), iterations, live)
    }

    /// The MCTS run through all its iterations at once, as the AI runs it when it does not
    /// wait to be stepped.
    pub fn run(root: G, iterations: u64, exploration: f64, seed: u64) -> Self {
        Self::new(root, iterations, exploration, seed, false).ran()
    }
}
