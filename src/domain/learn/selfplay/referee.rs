//! The exact answer each game's learner is held against: the solver that knows every
//! position's value, the fixed positions its curve grades, and the verdict of every move of
//! a position. `train selfplay`, `play selfplay` and the Self-play tab all judge with it.

use super::judge::{Graded, graded_connect4, graded_small_board, graded_tictactoe};
use super::learnable::Learnable;
use crate::domain::games::connect4::{Board as Connect4, Grid, SmallBoard};
use crate::domain::games::tictactoe::Board;
use crate::domain::solve::connect4::verdict;
use crate::domain::solve::connect4::{GridSolver, SmallSolver, Solver as Connect4Solver, book};
use crate::domain::solve::perfect::Solver;
use crate::domain::solve::verdict::Verdict;

/// A game whose learner is graded against the exact answer.
pub trait Refereed: Learnable + 'static {
    /// What knows the exact value of the game's positions (its tables fill as it answers,
    /// so one referee is kept for many positions).
    type Referee: Send;
    /// A fresh referee.
    fn referee() -> Self::Referee;
    /// The fixed positions graded, each with the moves that keep its value.
    fn graded() -> &'static [Graded<Self>];
    /// The exact verdict of every move here for the player who plays it, by the policy's
    /// index: `None` for a move that is not legal.
    fn verdicts(&self, referee: &mut Self::Referee) -> Vec<Option<Verdict>>;
}

impl Refereed for Board {
    type Referee = Solver<Board>;

    fn referee() -> Solver<Board> {
        Solver::new()
    }

    fn graded() -> &'static [Graded<Board>] {
        graded_tictactoe()
    }

    fn verdicts(&self, referee: &mut Solver<Board>) -> Vec<Option<Verdict>> {
        let legal = self.legal();
        (0..Self::MOVES)
            .map(|index| legal[index].then(|| referee.after(self, Board::move_at(index))))
            .collect()
    }
}

impl Refereed for SmallBoard {
    type Referee = SmallSolver;

    fn referee() -> SmallSolver {
        SmallSolver::with_table_bits(20)
    }

    fn graded() -> &'static [Graded<SmallBoard>] {
        graded_small_board()
    }

    fn verdicts(&self, referee: &mut SmallSolver) -> Vec<Option<Verdict>> {
        grid_verdicts(self, referee)
    }
}

impl Refereed for Connect4 {
    type Referee = Connect4Solver;

    /// With the opening book built in, the first moves are answered at once.
    fn referee() -> Connect4Solver {
        let solver = Connect4Solver::default();
        match book::builtin() {
            Some(book) => solver.with_book(book),
            None => solver,
        }
    }

    fn graded() -> &'static [Graded<Connect4>] {
        graded_connect4()
    }

    fn verdicts(&self, referee: &mut Connect4Solver) -> Vec<Option<Verdict>> {
        grid_verdicts(self, referee)
    }
}

/// The verdict of dropping a stone in each column of `position` (one solve of the
/// position answers every column).
fn grid_verdicts<const W: usize, const H: usize>(
    position: &Grid<W, H>,
    solver: &mut GridSolver<W, H>,
) -> Vec<Option<Verdict>> {
    solver
        .scores(position)
        .iter()
        .map(|score| score.map(|score| verdict(position, score)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::Game as _;
    use crate::domain::games::tictactoe::Mark;

    /// Against a corner, only the centre holds the draw; a move on a taken cell has none.
    #[test]
    fn tictactoe_verdicts_name_the_only_move_that_holds() {
        let position = Board::empty(Mark::X).play(0);
        let verdicts = position.verdicts(&mut Board::referee());
        assert_eq!(verdicts[0], None, "the corner is taken");
        let drawing: Vec<usize> = (0..9)
            .filter(|&i| verdicts[i].is_some_and(Verdict::is_draw))
            .collect();
        assert_eq!(drawing, vec![4]);
    }

    /// A full column has no verdict; every other column has the solver's score of it in
    /// words.
    #[test]
    fn grid_verdicts_skip_a_full_column() {
        let position = SmallBoard::new().play(0).play(0).play(0).play(0);
        let mut referee = SmallBoard::referee();
        let verdicts = position.verdicts(&mut referee);
        assert_eq!(verdicts.len(), 5);
        assert_eq!(verdicts[0], None, "column 1 is full");
        let scores = referee.scores(&position);
        for column in 1..5 {
            let score = scores[column].expect("the column is open");
            assert_eq!(verdicts[column], Some(super::verdict(&position, score)));
        }
    }
}
