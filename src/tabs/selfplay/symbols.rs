//! The glyphs of the Self-play tab, each with what it means; the help lists them, and the
//! words it glosses.

use crate::widgets::symbols::{Gloss, Symbol, gloss, symbol};

/// The move the learner chooses, in the table of moves.
pub(crate) const CHOSEN: Symbol = symbol("▶", "its choice here");
/// The network's favourite, when the search chooses another.
pub(crate) const FAVOURITE: Symbol = symbol("◆", "the network's favourite");
/// A bar of the curve.
pub(crate) const BAR: Symbol = symbol("▁▄█", "curve: low to high");

/// The path of the walk under way in the stepped search, or the move it plays.
pub(crate) const PATH: Symbol = symbol("*", "stepped: path, move played");
/// The edge a selection took.
pub(crate) const MAX: Symbol = symbol("◀", "the largest Q + U: taken");
/// The exact solver's answer beside a root move of the stepped search.
pub(crate) const SOLVER: Symbol = symbol(
    crate::components::mcts_search::outline::SOLVER_MARK,
    "exact solver's, not PUCT's",
);

/// The tab's symbols.
pub(crate) const ALL: &[Symbol] = &[
    CHOSEN,
    FAVOURITE,
    BAR,
    PATH,
    MAX,
    SOLVER,
    crate::components::tree_search::symbols::FOLDED,
    crate::components::tree_search::symbols::UNFOLDED,
];

/// The words the help glosses on this tab.
pub(crate) fn words() -> Vec<Gloss> {
    vec![
        gloss(
            "P (prior)",
            "The network's policy: how likely it thinks each move is the one to play, before \
             any search. The priors of the legal moves add up to 1.",
        ),
        gloss(
            "N, Q, U",
            "The search's figures for a move: N its visits, Q the mean value they found for \
             the player choosing it (−1 lost, +1 won), U = c_puct·P·√N_parent/(1+N) the \
             exploration bonus. Each simulation takes the move with the highest Q + U.",
        ),
        gloss(
            "value",
            "The network's value head: what it expects the game's result to be from here, \
             for the player to move, −1 to +1. The search values a new leaf by it instead \
             of playing a random game.",
        ),
        gloss(
            "stepped search",
            "m makes the learner's search wait on its turn. Each simulation is three \
             phases: selection (down by the highest Q + U), evaluation (the network values \
             the leaf and gives its moves priors: no rollout) and backup (N and W up the \
             path, the value's sign flipping at each level). P asks which cell or column \
             each walk selects.",
        ),
        gloss(
            "keeps the value",
            "On the curve: the share of the graded positions (tic-tac-toe's all 4,520, 2,000 \
             of the 5x4 board's, 200 Connect Four middle games) where the move keeps the \
             exact result (a won position stays won, a drawn one drawn), for the network \
             alone and with its search.",
        ),
        gloss(
            "verdict",
            "The exact solver's answer for each move (win 2, draw, loss 3), counted in the \
             mover's own moves. The learner does not see it; it is there to hold the learner \
             against the truth.",
        ),
    ]
}
