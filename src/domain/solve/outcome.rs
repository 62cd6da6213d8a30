//! How a move ends with perfect play on both sides: the mover wins or loses, and in how many
//! of its own moves (the move itself counted). The winner plays to win soonest, the loser to
//! lose as late as it can, so the count is the one a student can check by playing it out.

use std::fmt;

/// The end of the game for the player who makes a move (or is to move), with perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The player wins, making this many moves of its own (at least 1).
    Wins(u32),
    /// The player loses, making this many moves of its own (0: it cannot move at all).
    Loses(u32),
}

impl Outcome {
    /// What the opponent faces after this player's move: the player to move at the
    /// position the move leaves has `after`; the mover's own result counts the move.
    #[must_use]
    pub const fn of_move_leaving(after: Self) -> Self {
        match after {
            Self::Loses(moves) => Self::Wins(moves + 1),
            Self::Wins(moves) => Self::Loses(moves),
        }
    }

    /// Whether the player wins.
    pub const fn wins(self) -> bool {
        matches!(self, Self::Wins(_))
    }

    /// The better of two results for the player choosing: a win over a loss, the sooner win,
    /// the later loss.
    #[must_use]
    pub fn better(self, other: Self) -> Self {
        match (self, other) {
            (Self::Wins(a), Self::Wins(b)) => Self::Wins(a.min(b)),
            (Self::Loses(a), Self::Loses(b)) => Self::Loses(a.max(b)),
            (Self::Wins(_), Self::Loses(_)) => self,
            (Self::Loses(_), Self::Wins(_)) => other,
        }
    }
}

/// `wins in 3`, `loses in 1`, `loses at once` (no move left).
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Wins(moves) => write!(f, "wins in {moves}"),
            Self::Loses(0) => write!(f, "loses at once"),
            Self::Loses(moves) => write!(f, "loses in {moves}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_turns_the_opponents_result_round_and_counts_itself() {
        assert_eq!(
            Outcome::of_move_leaving(Outcome::Loses(0)),
            Outcome::Wins(1)
        );
        assert_eq!(
            Outcome::of_move_leaving(Outcome::Loses(2)),
            Outcome::Wins(3)
        );
        assert_eq!(
            Outcome::of_move_leaving(Outcome::Wins(2)),
            Outcome::Loses(2)
        );
    }

    #[test]
    fn the_better_result_wins_sooner_or_loses_later() {
        use Outcome::{Loses, Wins};
        assert_eq!(Wins(3).better(Wins(1)), Wins(1));
        assert_eq!(Loses(3).better(Loses(1)), Loses(3));
        assert_eq!(Loses(9).better(Wins(4)), Wins(4));
        assert_eq!(Wins(4).to_string(), "wins in 4");
        assert_eq!(Loses(2).to_string(), "loses in 2");
    }
}
