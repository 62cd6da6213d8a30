//! The moves of one game as the tab keeps them: who moved, the move as written, the position
//! it was played from (so undo can go back to it) and, for the AI's moves, what the search
//! that chose the move found each root move worth (so `y` can show why).

use crate::domain::games::Game;
use crate::domain::search::mcts::{Mcts, MoveStats, Rollout};
use crate::domain::search::{Algorithm, MoveOrder, Weighing};
use crate::tabkit::side::Side;

/// One move of the game.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn<G: Game> {
    /// Who moved: the person or the AI.
    pub by: Side,
    /// The move as the tab writes it (`X5`, `+2=3`).
    pub text: String,
    /// The position the move was played from.
    pub before: G,
    /// For the AI's moves: what its search weighed.
    pub choice: Option<AiChoice<G::Move>>,
}

/// How the AI chose one move: the search that chose it and what that search returned.
#[derive(Debug, Clone, PartialEq)]
pub enum AiChoice<M> {
    /// Minimax or alpha-beta.
    Tree(TreeChoice<M>),
    /// Monte Carlo tree search.
    Mcts(MctsChoice<M>),
}

impl<M: Copy> AiChoice<M> {
    /// The move the search chose; `None` when the game was over.
    pub fn best_move(&self) -> Option<M> {
        match self {
            Self::Tree(tree) => tree.weighing.result.best_move,
            Self::Mcts(mcts) => mcts.best,
        }
    }
}

/// What an MCTS search returned for its move, and what rebuilds the search exactly (it is
/// a function of its root, `c`, seed and iterations), so undo can show its tree again.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsChoice<M> {
    /// Iterations run.
    pub iterations: u64,
    /// The exploration constant `c`.
    pub exploration: f64,
    /// The seed of its random games.
    pub seed: u64,
    /// Every root move the search expanded, in legal-move order: `N`, `W`, `W/N`.
    pub moves: Vec<MoveStats<M>>,
    /// The root move visited most (the first in legal-move order on a tie).
    pub best: Option<M>,
    /// Nodes in its tree.
    pub nodes: usize,
    /// Phases the person stepped before the move was played; `None` when the AI searched
    /// at once.
    pub stepped: Option<u64>,
}

impl<M: Copy> MctsChoice<M> {
    /// What `mcts` returned, as its record keeps it; `stepped` as the field says.
    pub fn of<G: Rollout<Move = M>>(mcts: &Mcts<G>, stepped: Option<u64>) -> Self {
        Self {
            iterations: mcts.iterations(),
            exploration: mcts.exploration(),
            seed: mcts.seed(),
            moves: mcts.root_moves(),
            best: mcts.best_move(),
            nodes: mcts.node_count(),
            stepped,
        }
    }
}

/// How minimax or alpha-beta chose one move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeChoice<M> {
    /// The algorithm that searched.
    pub algorithm: Algorithm,
    /// The order it tried each node's children in (it decides which of equal moves wins).
    pub order: MoveOrder,
    /// The search's value, move, counts and every root move's value and bound.
    pub weighing: Weighing<M>,
    /// Events the person stepped before the move was played; `None` when the AI searched
    /// at once.
    pub stepped: Option<usize>,
    /// Nodes plain minimax visits from the same position, shown beside alpha-beta's (0 when
    /// the search was minimax itself).
    pub minimax_nodes: u64,
    /// True when the tree pane's record stopped at its node limit, so the move and its
    /// numbers came from the plain recursive search of the same position.
    pub beyond_tree: bool,
}

/// What undo takes back: the moves from the person's last move on (their move and the AI's
/// reply, or their move alone when the AI has not replied yet).
///
/// # Errors
/// A sentence saying why there is nothing to take back: no move yet, or only the AI's
/// opening move (taking it back alone would let the AI play it again at once).
pub fn undo_from<G: Game>(moves: &[Turn<G>]) -> Result<usize, &'static str> {
    if moves.is_empty() {
        return Err("Nothing to take back: no move has been played in this game");
    }
    moves
        .iter()
        .rposition(|turn| turn.by == Side::Human)
        .ok_or("Nothing of yours to take back: the AI's opening move stays (r starts a new game)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;

    fn turn(by: Side, n: u8) -> Turn<Eight> {
        Turn {
            by,
            text: format!("+{n}"),
            before: Eight::start(),
            choice: None,
        }
    }

    #[test]
    fn undo_takes_back_the_person_s_last_move_and_the_reply() {
        let moves = [
            turn(Side::Ai, 1),
            turn(Side::Human, 2),
            turn(Side::Ai, 1),
            turn(Side::Human, 3),
            turn(Side::Ai, 2),
        ];
        assert_eq!(undo_from(&moves), Ok(3));
        assert_eq!(
            undo_from(&moves[..4]),
            Ok(3),
            "no reply yet: the move alone"
        );
        assert!(
            undo_from(&moves[..1])
                .unwrap_err()
                .contains("opening move stays")
        );
        assert!(undo_from::<Eight>(&[]).unwrap_err().contains("no move"));
    }
}
