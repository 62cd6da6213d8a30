//! The exact result of a position of any small two-player game (tic-tac-toe, the Game of
//! Eight) under perfect play, and how many plies the game then lasts: the winner ends it as
//! soon as it can, the loser holds out as long as it can. The why overlay sets it beside the
//! searches' values as the exact answer for each move.

use crate::domain::games::{Game, Outcome};
use std::collections::HashMap;
use std::fmt;

/// How a position ends for the player to move, with perfect play on both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The player to move wins; the game ends this many plies from now.
    Win(u32),
    /// The player to move loses; the game ends this many plies from now.
    Loss(u32),
    /// Nobody can force a win.
    Draw,
}

impl Verdict {
    /// The verdict one ply earlier, for the player who moved into this position.
    #[must_use]
    pub const fn for_the_mover(self) -> Self {
        match self {
            Self::Win(plies) => Self::Loss(plies + 1),
            Self::Loss(plies) => Self::Win(plies + 1),
            Self::Draw => Self::Draw,
        }
    }

    /// How good the verdict is for its player: a win beats a draw beats a loss, a quicker
    /// win beats a slower one, a slower loss beats a quicker one.
    fn rank(self) -> i64 {
        match self {
            Self::Win(plies) => i64::from(u32::MAX) - i64::from(plies),
            Self::Draw => 0,
            Self::Loss(plies) => i64::from(plies) - i64::from(u32::MAX),
        }
    }
}

impl fmt::Display for Verdict {
    /// `wins in 3 plies`, `loses in 1 ply`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plies = |n: u32| {
            if n == 1 {
                "1 ply".to_string()
            } else {
                format!("{n} plies")
            }
        };
        match *self {
            Self::Win(n) => write!(f, "wins in {}", plies(n)),
            Self::Loss(n) => write!(f, "loses in {}", plies(n)),
            Self::Draw => f.write_str("draw"),
        }
    }
}

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
            Some(Outcome::Winner(p)) if p == position.to_move() => Verdict::Win(0),
            Some(Outcome::Winner(_)) => Verdict::Loss(0),
            Some(Outcome::Draw) => Verdict::Draw,
            None => position
                .legal_moves()
                .as_ref()
                .iter()
                .map(|&mv| self.after(position, mv))
                .max_by_key(|v| v.rank())
                .unwrap_or(Verdict::Draw),
        };
        self.known.insert(*position, verdict);
        verdict
    }

    /// The verdict of playing `mv` at `position`, for the player who plays it.
    pub fn after(&mut self, position: &G, mv: G::Move) -> Verdict {
        self.verdict(&position.play(mv)).for_the_mover()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::eight::Eight;
    use crate::domain::games::tictactoe::{Board, Mark};

    fn board(text: &str, mark: Mark) -> Board {
        Board::parse(text, Some(mark)).unwrap()
    }

    #[test]
    fn the_empty_board_is_a_draw() {
        assert_eq!(Solver::new().verdict(&Board::empty(Mark::X)), Verdict::Draw);
    }

    #[test]
    fn a_win_on_the_spot_is_one_ply_and_a_forced_loss_counts_the_holding_out() {
        let mut solver = Solver::new();
        // X X . / O O . / . . .  X to move: cell 3 wins at once.
        let p = board("XX.OO....", Mark::X);
        assert_eq!(solver.verdict(&p), Verdict::Win(1));
        assert_eq!(solver.after(&p, 2), Verdict::Win(1));
        // Cell 9 lets O complete its row next ply.
        assert_eq!(solver.after(&p, 8), Verdict::Loss(2));
        // O to move on the same board wins at once too.
        assert_eq!(
            solver.verdict(&board("XX.OO....", Mark::O)),
            Verdict::Win(1)
        );
    }

    #[test]
    fn a_fork_wins_in_three_plies() {
        // X . . / . O . / . . X, O to move: O must take an edge. O2 draws; O3 loses to the
        // fork X7 (threats on 4 and 8): O3, X7, O blocks one, X takes the other.
        let p = board("X...O...X", Mark::O);
        let mut solver = Solver::new();
        assert_eq!(solver.after(&p, 1), Verdict::Draw);
        assert_eq!(solver.after(&p, 2), Verdict::Loss(4));
        assert_eq!(solver.verdict(&p), Verdict::Draw);
    }

    #[test]
    fn the_second_player_wins_the_game_of_eight_on_the_fifth_ply() {
        // The searches score the start 5 - 10: the first player loses at depth 5.
        let mut solver = Solver::new();
        assert_eq!(solver.verdict(&Eight::start()), Verdict::Loss(5));
        // At sum 6 with 1 barred, 2 reaches 8 at once.
        let p = Eight::from_parts(6, Some(1)).unwrap();
        assert_eq!(solver.after(&p, 2), Verdict::Win(1));
        // 3 goes past 8: the mover loses on the spot.
        assert_eq!(solver.after(&p, 3), Verdict::Loss(1));
    }

    #[test]
    fn verdicts_read_as_words() {
        assert_eq!(Verdict::Win(1).to_string(), "wins in 1 ply");
        assert_eq!(Verdict::Loss(4).to_string(), "loses in 4 plies");
        assert_eq!(Verdict::Draw.to_string(), "draw");
    }
}
