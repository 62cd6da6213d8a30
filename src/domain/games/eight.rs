//! The Game of Eight from the original lab programs: the teaching example, small enough that its
//! whole game tree can be read in the tree pane.

use super::{Game, MoveList, Outcome};
use std::fmt;

/// The sum that wins when reached exactly.
pub const TARGET: u8 = 8;

/// The two players, named by who moved first: the `Game` player of Eight, which the search
/// reasons about whoever sits in each seat.
///
/// The state graph's `Player` (1 or 2) is the same idea for Nim(k); it stays its own type
/// because it is saved in `state-graph.json` (spelled `One` / `Two`) while `games/` keeps
/// serde to the values a user names, and `learn/` may not be imported from here. Which seat
/// the person takes is the tab's business (its match keeps the human's seat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// The player who chose the first number.
    First,
    /// The other player.
    Second,
}

impl Seat {
    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::First => Self::Second,
            Self::Second => Self::First,
        }
    }
}

/// Why a choice or a position was refused; nothing changes when one comes back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EightError {
    /// Only 1, 2 and 3 may be chosen.
    #[error("choose 1, 2 or 3 (not {0})")]
    OutOfRange(u8),
    /// The previous player's number is barred.
    #[error("{0} was just chosen: choose one of the other two")]
    Repeated(u8),
    /// Nobody may move once the game is over.
    #[error("the game is over")]
    GameOver,
    /// A position no game of Eight can reach.
    #[error("no game reaches sum {sum}{}: {why}", last_text(*.last))]
    Unreachable {
        /// The running sum asked for.
        sum: u8,
        /// The last number asked for (0 = none).
        last: u8,
        /// Why not.
        why: &'static str,
    },
}

fn last_text(last: u8) -> String {
    if last == 0 {
        String::new()
    } else {
        format!(" with last choice {last}")
    }
}

/// A position: the running sum, the number just chosen (barred for the next player) and whose
/// turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Eight {
    sum: u8,
    last: Option<u8>,
    to_move: Seat,
}

impl Eight {
    /// The start: sum 0, nothing barred, `First` to move.
    pub const fn start() -> Self {
        Self {
            sum: 0,
            last: None,
            to_move: Seat::First,
        }
    }

    /// A position given by its sum and last choice, as `solve eight` takes it. The side to
    /// move is only a name here, so it is `First`; the search scores from the mover's view.
    pub fn from_parts(sum: u8, last: Option<u8>) -> Result<Self, EightError> {
        let unreachable = |why| EightError::Unreachable {
            sum,
            last: last.unwrap_or(0),
            why,
        };
        if sum >= TARGET {
            return Err(EightError::GameOver);
        }
        match last {
            None | Some(0) if sum > 0 => {
                return Err(unreachable("a sum above 0 needs the last choice (1-3)"));
            }
            // At sum 0 a last choice of 0 means "none", as at the start.
            Some(0) => {}
            Some(l) if !(1..=3).contains(&l) => return Err(EightError::OutOfRange(l)),
            Some(l) if l > sum => return Err(unreachable("the last choice exceeds the sum")),
            _ => {}
        }
        let last = last.filter(|&l| l > 0);
        let position = Self {
            sum,
            last,
            to_move: Seat::First,
        };
        if !Self::reachable(sum, last) {
            return Err(unreachable("no sequence of choices gets there"));
        }
        Ok(position)
    }

    /// Whether some sequence of legal choices from the start ends at (`sum`, `last`).
    fn reachable(sum: u8, last: Option<u8>) -> bool {
        let Some(last) = last else { return sum == 0 };
        if sum == last {
            return true;
        }
        (1..=3u8)
            .filter(|&prev| prev != last)
            .any(|prev| sum > last && prev <= sum - last && Self::reachable(sum - last, Some(prev)))
    }

    /// The running sum.
    pub const fn sum(&self) -> u8 {
        self.sum
    }

    /// The number just chosen, barred for the player to move.
    pub const fn last(&self) -> Option<u8> {
        self.last
    }

    /// Chooses `n`, refusing illegal choices with a reason.
    pub fn try_play(&self, n: u8) -> Result<Self, EightError> {
        if self.outcome().is_some() {
            return Err(EightError::GameOver);
        }
        if !(1..=3).contains(&n) {
            return Err(EightError::OutOfRange(n));
        }
        if self.last == Some(n) {
            return Err(EightError::Repeated(n));
        }
        Ok(self.play(n))
    }
}

impl fmt::Display for Eight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.last {
            Some(last) => write!(f, "sum {} (last {last})", self.sum),
            None => write!(f, "sum {}", self.sum),
        }
    }
}

impl Game for Eight {
    type Player = Seat;
    type Move = u8;
    type Moves = MoveList<3>;

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self) -> MoveList<3> {
        let mut moves = MoveList::new();
        if self.sum < TARGET {
            for n in 1..=3 {
                if self.last != Some(n) {
                    moves.push(n);
                }
            }
        }
        moves
    }

    fn play(&self, n: u8) -> Self {
        Self {
            sum: self.sum + n,
            last: Some(n),
            to_move: self.to_move.other(),
        }
    }

    /// The largest number first (3, 2, 1): it brings the end, and a win by reaching 8,
    /// nearest, so the decisive lines come early.
    fn static_rank(&self, n: u8) -> u8 {
        3 - n.min(3)
    }

    fn outcome(&self) -> Option<Outcome<Seat>> {
        match self.sum.cmp(&TARGET) {
            std::cmp::Ordering::Less => None,
            // The player who just moved reached 8 exactly.
            std::cmp::Ordering::Equal => Some(Outcome::Winner(self.to_move.other())),
            // The player who just moved went past 8 and loses at once.
            std::cmp::Ordering::Greater => Some(Outcome::Winner(self.to_move)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_previous_number_is_barred() {
        let p = Eight::start().play(2);
        assert_eq!(p.legal_moves().as_ref(), &[1, 3]);
        assert_eq!(p.try_play(2), Err(EightError::Repeated(2)));
        assert_eq!(p.try_play(4), Err(EightError::OutOfRange(4)));
    }

    #[test]
    fn reaching_eight_wins_and_passing_it_loses() {
        let p = Eight::from_parts(6, Some(1)).unwrap();
        let exact = p.play(2);
        assert_eq!(exact.outcome(), Some(Outcome::Winner(Seat::First)));
        let over = p.play(3);
        assert_eq!(over.outcome(), Some(Outcome::Winner(Seat::Second)));
        assert_eq!(over.try_play(1), Err(EightError::GameOver));
    }

    #[test]
    fn from_parts_rejects_positions_no_game_reaches() {
        assert!(Eight::from_parts(3, Some(2)).is_ok());
        assert!(Eight::from_parts(0, None).is_ok());
        assert!(Eight::from_parts(1, Some(2)).is_err());
        assert!(
            Eight::from_parts(2, Some(1)).is_err(),
            "1 then 1 is not allowed"
        );
        assert!(Eight::from_parts(3, None).is_err());
        assert_eq!(Eight::from_parts(8, Some(2)), Err(EightError::GameOver));
        assert_eq!(
            Eight::from_parts(5, Some(4)),
            Err(EightError::OutOfRange(4))
        );
    }
}
