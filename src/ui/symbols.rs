//! The glyphs the tabs draw, each with what it means. The drawing code takes its glyphs from
//! these constants and the help overlay's "Symbols" section lists the same constants, so the
//! legend cannot drift from the screen.

use crate::app::Tab;
use crate::search::Bound;

/// One glyph (or short mark) and what it means on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbol {
    /// What is drawn.
    pub glyph: &'static str,
    /// What it means, in a few words.
    pub meaning: &'static str,
}

const fn symbol(glyph: &'static str, meaning: &'static str) -> Symbol {
    Symbol { glyph, meaning }
}

// ---- the search tree (Tic-tac-toe tab) --------------------------------------------

/// A node's label: the move that led to it, then who moves next (MAX or MIN).
pub const NODE_LABEL: Symbol = symbol("X2 MAX", "after X plays 2, MAX moves");
/// An exact value.
pub const EXACT: Symbol = symbol(Bound::Exact.sign(), "exact value");
/// A lower bound (alpha-beta, fail-soft).
pub const AT_LEAST: Symbol = symbol(Bound::AtLeast.sign(), "value at least this");
/// An upper bound.
pub const AT_MOST: Symbol = symbol(Bound::AtMost.sign(), "value at most this");
/// A node without a value yet.
pub const UNKNOWN: Symbol = symbol("?", "no value yet");
/// A leaf: the game is over there.
pub const LEAF: Symbol = symbol("■", "game over here (a leaf)");
/// Children skipped by a cut-off.
pub const PRUNED: Symbol = symbol("╳", "pruned by a cut-off");
/// Children the search has not reached yet.
pub const PENDING: Symbol = symbol("┄", "children not searched yet");
/// The child whose value its parent took.
pub const BEST: Symbol = symbol("◂ best", "the move the parent chose");
/// A folded subtree.
pub const FOLDED: Symbol = symbol("▸", "folded subtree (→ opens)");
/// An unfolded subtree.
pub const UNFOLDED: Symbol = symbol("▾", "unfolded subtree (← folds)");
/// The tree cursor.
pub const TREE_CURSOR: Symbol = symbol("›", "tree cursor");
/// The node being searched now.
pub const CURRENT: Symbol = symbol("▶", "node being searched now");

/// The tree's symbols, as the help lists them.
pub const TREE: &[Symbol] = &[
    NODE_LABEL,
    EXACT,
    AT_LEAST,
    AT_MOST,
    UNKNOWN,
    LEAF,
    PRUNED,
    PENDING,
    BEST,
    FOLDED,
    UNFOLDED,
    TREE_CURSOR,
    CURRENT,
];

// ---- the weights (Subtraction Nim tab) --------------------------------------------

/// The sign before every weight's shade.
pub const SIGN: Symbol = symbol("+ -", "the sign of a weight");
/// Weights of 4 or more (either sign).
pub const SHADE_4: Symbol = symbol("█", "weight 4 or more");
/// Weights from 2 to 4.
pub const SHADE_2: Symbol = symbol("▓", "weight 2 to 4");
/// Weights from 1 to 2.
pub const SHADE_1: Symbol = symbol("▒", "weight 1 to 2");
/// Weights from 0.3 to 1.
pub const SHADE_03: Symbol = symbol("░", "weight 0.3 to 1");
/// Weights too small to matter.
pub const FAINT: Symbol = symbol("·", "weight under 0.3");
/// The shades, strongest first, with the smallest magnitude each stands for.
pub const SHADES: [(f64, Symbol); 4] = [
    (4.0, SHADE_4),
    (2.0, SHADE_2),
    (1.0, SHADE_1),
    (0.3, SHADE_03),
];

/// The weight pane's symbols.
pub const WEIGHTS: &[Symbol] = &[
    SIGN,
    SHADE_4,
    SHADE_2,
    SHADE_1,
    SHADE_03,
    FAINT,
    MISSES,
    THRESHOLD_ILLEGAL,
];

/// A pile where the network misses the winning take.
pub const MISSES: Symbol = symbol("✗", "table: misses the win");
/// A pile where the original threshold decoder reads an illegal take.
pub const THRESHOLD_ILLEGAL: Symbol = symbol("!", "original decoder: illegal");

// ---- the state graph --------------------------------------------------------------

/// Player 1 takes 1.
pub const P1_TAKES_1: Symbol = symbol("↘", "player 1 takes 1");
/// Player 1 takes 2.
pub const P1_TAKES_2: Symbol = symbol("⇘", "player 1 takes 2");
/// Player 2 takes 2.
pub const P2_TAKES_2: Symbol = symbol("⇗", "player 2 takes 2");
/// Player 2 takes 1.
pub const P2_TAKES_1: Symbol = symbol("↗", "player 2 takes 1");
/// The strongest edge of a state.
pub const STRONGEST: Symbol = symbol("*", "strongest edge (AI's pick)");
/// A state whose strongest edge is not the winning move.
pub const WRONG: Symbol = symbol("!", "strongest edge not winning");
/// A state the player to move loses (exact): marked so it does not depend on colour.
pub const LOST: Symbol = symbol("×", "mover loses here (exact)");
/// Weights shown in thousands when the exact numbers do not fit.
pub const THOUSANDS: Symbol = symbol("k", "×1000; exact in state pane");

/// The graph's symbols.
pub const GRAPH: &[Symbol] = &[
    P1_TAKES_1, P1_TAKES_2, P2_TAKES_2, P2_TAKES_1, STRONGEST, WRONG, LOST, THOUSANDS,
];

// ---- Multi-pile Nim ---------------------------------------------------------------

/// The move the Q-table (or network) plays.
pub const GREEDY: Symbol = symbol("★", "the AI's choice (greedy)");
/// A move the solver says wins.
pub const WINS: Symbol = symbol("✓", "a winning move (solver)");
/// The pane cursor, and the chosen pile.
pub const SELECTED: Symbol = symbol("▸", "selected row / pile");
/// Objects the selection would take.
pub const TAKING: Symbol = symbol("○", "objects your move takes");

/// Multi-pile Nim's symbols.
pub const NIM: &[Symbol] = &[GREEDY, WINS, SELECTED, TAKING];

/// The focused pane's title mark (every tab with a focus draws it).
pub const FOCUS: Symbol = symbol("▸", "title: pane the keys go to");

/// The symbols of `tab`, for the help overlay.
pub fn for_tab(tab: Tab) -> Vec<Symbol> {
    match tab {
        Tab::TicTacToe => [&[FOCUS][..], TREE].concat(),
        Tab::SubtractionNim => WEIGHTS.to_vec(),
        Tab::StateGraph => GRAPH.to_vec(),
        Tab::MultiPileNim => [NIM, &[FOCUS][..]].concat(),
    }
}

/// The shade of a weight's magnitude.
pub fn shade(magnitude: f64) -> &'static str {
    SHADES
        .iter()
        .find(|(least, _)| magnitude >= *least)
        .map_or(FAINT.glyph, |(_, shade)| shade.glyph)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shades_go_from_strong_to_faint() {
        assert_eq!(shade(5.0), "█");
        assert_eq!(shade(2.5), "▓");
        assert_eq!(shade(1.0), "▒");
        assert_eq!(shade(0.5), "░");
        assert_eq!(shade(0.1), "·");
    }

    #[test]
    fn every_meaning_fits_a_help_column() {
        for tab in Tab::ALL {
            for s in for_tab(tab) {
                assert!(s.meaning.chars().count() <= 26, "{}", s.meaning);
                assert!(s.glyph.chars().count() <= 10, "{}", s.glyph);
            }
        }
    }

    #[test]
    fn every_tab_has_a_legend_without_repeats() {
        for tab in Tab::ALL {
            let symbols = for_tab(tab);
            assert!(!symbols.is_empty());
            for (i, s) in symbols.iter().enumerate() {
                assert!(
                    !symbols[i + 1..].contains(s),
                    "{} listed twice on {tab:?}",
                    s.glyph
                );
            }
        }
    }
}
