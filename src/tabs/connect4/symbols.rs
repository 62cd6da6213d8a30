//! The glyphs of the Connect Four tab, each with what it means; the help lists them.

use crate::components::mcts_search::outline;
use crate::widgets::symbols::{Gloss, Symbol, gloss, symbol};

/// A red disc (the first player's).
pub(crate) const RED: Symbol = symbol("●", "red disc (moves first)");
/// A yellow disc.
pub(crate) const YELLOW: Symbol = symbol("○", "yellow disc");
/// An empty cell.
pub(crate) const EMPTY: Symbol = symbol("·", "empty cell");
/// A disc of the four that won.
pub(crate) const FOUR: Symbol = symbol("[●]", "the four in a row");
/// A node whose children are shown.
pub(crate) const OPEN: Symbol = symbol(outline::OPEN, "node unfolded (← folds)");
/// A node whose children are hidden.
pub(crate) const FOLDED: Symbol = symbol(outline::FOLDED, "node folded (→ unfolds)");
/// The exact solver's answer on an MCTS root move's row.
pub(crate) use crate::components::mcts_search::pane::SOLVER;
/// Moves a cut-off left unsearched, a leaf at the depth limit and a finished game: the
/// tree-search stepper's glyphs, so both trees of alpha-beta read alike.
pub(crate) use crate::components::tree_search::symbols::{
    HORIZON, LEAF as FINISHED, PRUNED as CUT, WINDOW_BOUND,
};
/// An answer from the transposition table.
pub(crate) const TABLE_HIT: Symbol = symbol("TT", "transposition-table hit");
/// The line the AI chose.
pub(crate) const CHOSEN: Symbol = symbol("*", "the AI's chosen line");

/// The tab's symbols.
pub(crate) const ALL: &[Symbol] = &[
    RED,
    YELLOW,
    EMPTY,
    FOUR,
    OPEN,
    FOLDED,
    CUT,
    WINDOW_BOUND,
    HORIZON,
    FINISHED,
    TABLE_HIT,
    CHOSEN,
    SOLVER,
];

/// The words the help glosses on this tab: its evaluation, the steppers' words, the solver.
pub(crate) fn words() -> Vec<Gloss> {
    let evaluation = gloss(
        "evaluation",
        "How alpha-beta scores a position at its depth limit: for each side, threes×5 + \
         twos×2 + centre×3 (lines of four still open holding three or two of its discs, and \
         its discs in the centre column); the value is the mover's points minus the \
         other's. A win is ±1000 less the plies it takes.",
    );
    let solver = gloss(
        "solver, verdict",
        "The exact solver plays perfectly: a verdict (win 7, draw, loss 3) is what perfect \
         play gives, counted in the mover's own moves. The AIs do not know it; it is shown \
         to hold each one against the truth.",
    );
    let search = crate::components::mcts_search::pane::SEARCH_WORDS;
    [&[evaluation][..], &search, &[solver]].concat()
}
