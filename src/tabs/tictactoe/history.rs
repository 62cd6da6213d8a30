//! The moves of one game as the tab keeps them: who moved, the move as written, the position
//! it was played from (so undo can go back to it) and, for the AI's moves, what the search
//! that chose the move found each root move worth (so `y` can show why).

use crate::domain::games::Game;
use crate::domain::search::{Algorithm, MoveOrder, Weighing};
use crate::frame::side::Side;

/// One move of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AiChoice<M> {
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
