//! The exact [`Verdict`] of a position of any small two-player game (tic-tac-toe, the Game of
//! Eight) under perfect play: the winner ends the game as soon as it can, the loser holds out
//! as long as it can. The why overlay sets it beside the searches' values as the exact answer
//! for each move.

use super::verdict::Verdict;
use crate::domain::games::{Game, Outcome};
use std::collections::HashMap;

/// Solves positions of one game, remembering every position it has solved.
#[derive(Debug, Default)]
pub struct Solver<G: Game> {
    known: HashMap<G, Verdict>,
}

impl<G: Game> Solver<G> {
    /// A solver that knows nothing yet.
    pub fn new() -> Self {
        Self {
            known: HashMap::new(),
        }
    }

    /// The verdict for the player to move at `position`.
    pub fn verdict(&mut self, position: &G) -> Verdict {
        if let Some(&known) = self.known.get(position) {
            return known;
        }
        let verdict = match position.outcome() {
            Some(Outcome::Winner(p)) if p == position.to_move() => Verdict::wins_in_plies(0),
            Some(Outcome::Winner(_)) => Verdict::loses_in_plies(0),
            Some(Outcome::Draw) => Verdict::DRAW,
            None => position
                .legal_moves()
                .as_ref()
                .iter()
                .map(|&mv| self.after(position, mv))
                .reduce(Verdict::better)
                .unwrap_or(Verdict::DRAW),
        };
        self.known.insert(*position, verdict);
        verdict
    }

    /// The verdict of playing `mv` at `position`, for the player who plays it.
    pub fn after(&mut self, position: &G, mv: G::Move) -> Verdict {
        Verdict::of_move_leaving(self.verdict(&position.play(mv)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::solve::verdict::by_plain_search;

    fn board(text: &str, mark: Mark) -> Board {
        Board::parse(text, Some(mark)).unwrap()
    }

    /// Every position one move on.
    fn next<G: Game>(position: &G) -> Vec<G> {
        if position.outcome().is_some() {
            return Vec::new();
        }
        position
            .legal_moves()
            .as_ref()
            .iter()
            .map(|&mv| position.play(mv))
            .collect()
    }

    /// The verdict by plain search, no table.
    fn searched<G: Game>(position: &G) -> Verdict {
        let at_end = |p: &G| match p.outcome() {
            Some(Outcome::Winner(winner)) => Some(winner == p.to_move()),
            Some(Outcome::Draw) | None => None,
        };
        by_plain_search(position, &next, &at_end)
    }

    #[test]
    fn the_empty_board_is_a_draw() {
        assert_eq!(Solver::new().verdict(&Board::empty(Mark::X)), Verdict::DRAW);
    }

    #[test]
    fn a_win_on_the_spot_is_one_move_and_a_forced_loss_counts_the_holding_out() {
        let mut solver = Solver::new();
        // X X . / O O . / . . .  X to move: cell 3 wins at once.
        let p = board("XX.OO....", Mark::X);
        assert_eq!(solver.verdict(&p), Verdict::wins_in_plies(1));
        assert_eq!(solver.after(&p, 2).to_string(), "wins in 1 move");
        // Cell 9 lets O complete its row next ply: X makes only the move itself.
        assert_eq!(solver.after(&p, 8), Verdict::loses_in_plies(2));
        assert_eq!(solver.after(&p, 8).to_string(), "loses in 1 move");
        // O to move on the same board wins at once too.
        assert_eq!(
            solver.verdict(&board("XX.OO....", Mark::O)),
            Verdict::wins_in_plies(1)
        );
    }

    #[test]
    fn a_fork_wins_on_the_forkers_second_move() {
        // X . . / . O . / . . X, O to move: O must take an edge. O2 draws; O3 loses to the
        // fork X7 (threats on 4 and 8): O3, X7, O blocks one, X takes the other.
        let p = board("X...O...X", Mark::O);
        let mut solver = Solver::new();
        assert_eq!(solver.after(&p, 1), Verdict::DRAW);
        assert_eq!(solver.after(&p, 2), Verdict::loses_in_plies(4));
        assert_eq!(solver.after(&p, 2).to_string(), "loses in 2 moves");
        assert_eq!(solver.verdict(&p), Verdict::DRAW);
        // X's fork itself, after O3: X wins on its next move.
        let forked = p.play(2);
        assert_eq!(solver.after(&forked, 6).to_string(), "wins in 2 moves");
    }

    #[test]
    fn the_second_player_wins_the_game_of_eight_on_its_third_move() {
        // The searches score the start 5 - 10: the first player loses at depth 5.
        let mut solver = Solver::new();
        assert_eq!(solver.verdict(&Eight::start()), Verdict::loses_in_plies(5));
        assert_eq!(
            solver.verdict(&Eight::start()).to_string(),
            "loses in 3 moves"
        );
        // At sum 6 with 1 barred, 2 reaches 8 at once.
        let p = Eight::from_parts(6, Some(1)).unwrap();
        assert_eq!(solver.after(&p, 2).to_string(), "wins in 1 move");
        // 3 goes past 8: the mover loses on the spot, with its own move.
        assert_eq!(solver.after(&p, 3), Verdict::loses_in_plies(1));
        assert_eq!(solver.after(&p, 3).to_string(), "loses in 1 move");
    }

    #[test]
    fn the_solver_agrees_with_plain_search() {
        let mut solver = Solver::new();
        for text in [
            "X...O...X",
            "XX.OO....",
            "XO.......",
            "X........",
            "XOX.O....",
        ] {
            let to_move = if text.matches('X').count() > text.matches('O').count() {
                Mark::O
            } else {
                Mark::X
            };
            let p = board(text, to_move);
            assert_eq!(solver.verdict(&p), searched(&p), "{text}");
        }
        let eight = Eight::start();
        assert_eq!(Solver::new().verdict(&eight), searched(&eight));
    }
}
