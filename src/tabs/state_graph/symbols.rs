//! The glyphs of the state graph, each with what it means; the help lists them.

use crate::widgets::symbols::{Gloss, Symbol, gloss, symbol};

/// Player 1 takes 1.
pub(crate) const P1_TAKES_1: Symbol = symbol("↘", "player 1 takes 1");
/// Player 1 takes 2.
pub(crate) const P1_TAKES_2: Symbol = symbol("⇘", "player 1 takes 2");
/// Player 2 takes 2.
pub(crate) const P2_TAKES_2: Symbol = symbol("⇗", "player 2 takes 2");
/// Player 2 takes 1.
pub(crate) const P2_TAKES_1: Symbol = symbol("↗", "player 2 takes 1");
/// The strongest edge of a state.
pub(crate) const STRONGEST: Symbol = symbol("*", "strongest edge (AI's pick)");
/// A state whose strongest edge is not the winning move.
pub(crate) const WRONG: Symbol = symbol("!", "strongest edge not winning");
/// A state the player to move loses (exact): marked so it does not depend on colour.
pub(crate) const LOST: Symbol = symbol("×", "mover loses here (exact)");
/// Weights shown in thousands when the exact numbers do not fit.
pub(crate) const THOUSANDS: Symbol = symbol("k", "×1000; exact in state pane");

/// The graph's symbols.
pub(crate) const GRAPH: &[Symbol] = &[
    P1_TAKES_1, P1_TAKES_2, P2_TAKES_2, P2_TAKES_1, STRONGEST, WRONG, LOST, THOUSANDS,
];

/// The words the help glosses on this tab.
pub(crate) const WORDS: &[Gloss] = &[
    gloss(
        "p2-1",
        "A state (a vertex of the graph): player 2 to move with 1 token left.",
    ),
    gloss(
        "edge, weight",
        "An arrow from a state to the state a take leads to (↘ ⇘ for player 1's takes of 1 \
         and 2, ↗ ⇗ for player 2's). Its weight rises when the mover went on to win and \
         falls when it lost; the AI takes the strongest edge (*).",
    ),
    gloss(
        "exact",
        "What perfect play gives from a state: winning (and the take that wins) or losing. \
         Hidden for the state you are about to play.",
    ),
];
