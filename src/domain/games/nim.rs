//! Multi-pile Nim: piles of objects, a move takes one or more objects from a single pile. Under the
//! misère rule (original program 003) whoever takes the last object loses; under the normal rule
//! (original program 001) whoever takes it wins.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The most piles a position holds: enough for every configuration the tab plays.
pub const MAX_PILES: usize = 6;
/// The most objects a pile holds.
pub const MAX_PILE: u8 = 63;

/// Who wins when the last object is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Whoever takes the last object loses (original program 003).
    #[default]
    Misere,
    /// Whoever takes the last object wins (original program 001).
    Normal,
}

impl Rule {
    /// The rule's name as config and the CLI spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Misere => "misère",
            Self::Normal => "normal",
        }
    }

    /// The other rule.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::Misere => Self::Normal,
            Self::Normal => Self::Misere,
        }
    }

    /// Whether the player to move in a finished game (every pile empty) has won: under
    /// misère the opponent took the last object and lost.
    pub const fn mover_wins_at_end(self) -> bool {
        matches!(self, Self::Misere)
    }
}

/// One move: take `take` objects from pile `pile` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NimMove {
    /// Which pile, 0-based.
    pub pile: u8,
    /// How many objects, at least one.
    pub take: u8,
}

impl fmt::Display for NimMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {} from pile {}", self.take, self.pile + 1)
    }
}

/// Why a move was refused; the position is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Every pile is empty.
    #[error("the game is over")]
    GameOver,
    /// No such pile.
    #[error("there is no pile {pile}: choose 1 to {piles}")]
    NoSuchPile {
        /// The pile asked for, 1-based.
        pile: usize,
        /// How many piles there are.
        piles: usize,
    },
    /// The pile is empty.
    #[error("pile {pile} is empty: choose a pile with objects")]
    EmptyPile {
        /// The pile, 1-based.
        pile: usize,
    },
    /// Zero objects, or more than the pile holds.
    #[error("pile {pile} holds {size}: take between 1 and {size}, not {take}")]
    BadCount {
        /// The pile, 1-based.
        pile: usize,
        /// What it holds.
        size: u8,
        /// What was asked for.
        take: u32,
    },
}

/// The sizes of the piles: a small `Copy` value, so positions are cheap to keep in tables,
/// histories and search frames.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Piles {
    pub(crate) sizes: [u8; MAX_PILES],
    count: u8,
}

impl fmt::Debug for Piles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for Piles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, size) in self.sizes().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{size}")?;
        }
        f.write_str("]")
    }
}

impl Piles {
    /// Piles of the given sizes; `None` for no piles, more than [`MAX_PILES`] or a pile over
    /// [`MAX_PILE`].
    pub fn new(sizes: &[u8]) -> Option<Self> {
        if sizes.is_empty() || sizes.len() > MAX_PILES || sizes.iter().any(|&s| s > MAX_PILE) {
            return None;
        }
        let mut piles = Self {
            sizes: [0; MAX_PILES],
            count: sizes.len() as u8,
        };
        piles.sizes[..sizes.len()].copy_from_slice(sizes);
        Some(piles)
    }

    /// The sizes, one per pile.
    pub fn sizes(&self) -> &[u8] {
        &self.sizes[..usize::from(self.count)]
    }

    /// How many piles (empty ones included).
    pub fn len(&self) -> usize {
        usize::from(self.count)
    }

    /// True when there are no piles at all (never for a position made by [`Piles::new`]).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Objects left in all piles together.
    pub fn total(&self) -> u32 {
        self.sizes().iter().map(|&s| u32::from(s)).sum()
    }

    /// True once every pile is empty.
    pub fn is_over(&self) -> bool {
        self.sizes().iter().all(|&s| s == 0)
    }

    /// The XOR of the pile sizes: zero exactly on the positions normal play loses.
    pub fn nim_sum(&self) -> u8 {
        self.sizes().iter().fold(0, |acc, &s| acc ^ s)
    }

    /// Every legal move, pile by pile, smallest take first.
    pub fn moves(&self) -> impl Iterator<Item = NimMove> + '_ {
        self.sizes().iter().enumerate().flat_map(|(pile, &size)| {
            (1..=size).map(move |take| NimMove {
                pile: pile as u8,
                take,
            })
        })
    }

    /// The position after `mv`, or why it is not allowed.
    pub fn play(&self, mv: NimMove) -> Result<Self, MoveError> {
        self.check(usize::from(mv.pile) + 1, u32::from(mv.take))?;
        Ok(self.after(mv))
    }

    /// Checks a move given as the user types it: a 1-based pile and a count.
    pub fn check(&self, pile: usize, take: u32) -> Result<NimMove, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if pile == 0 || pile > self.len() {
            return Err(MoveError::NoSuchPile {
                pile,
                piles: self.len(),
            });
        }
        let size = self.sizes[pile - 1];
        if size == 0 {
            return Err(MoveError::EmptyPile { pile });
        }
        if take == 0 || take > u32::from(size) {
            return Err(MoveError::BadCount { pile, size, take });
        }
        Ok(NimMove {
            pile: (pile - 1) as u8,
            take: take as u8,
        })
    }

    /// The position after a move known to be legal (from [`Piles::moves`]).
    #[must_use]
    pub fn after(&self, mv: NimMove) -> Self {
        let mut next = *self;
        next.sizes[usize::from(mv.pile)] -= mv.take;
        next
    }

    /// Every position with each pile at most its size here, in mixed-radix order (the
    /// last pile counts fastest): the positions a game from `self` can reach.
    pub fn below(&self) -> impl Iterator<Item = Self> + '_ {
        let count: usize = self.sizes().iter().map(|&s| usize::from(s) + 1).product();
        (0..count).map(move |mut index| {
            let mut piles = *self;
            for pile in (0..self.len()).rev() {
                let radix = usize::from(self.sizes[pile]) + 1;
                piles.sizes[pile] = (index % radix) as u8;
                index /= radix;
            }
            piles
        })
    }
}

/// Parses "1,3,5,7" (spaces allowed) into piles.
pub fn parse_piles(text: &str) -> Result<Piles, String> {
    let sizes: Result<Vec<u8>, String> = text
        .split(',')
        .map(|part| {
            let part = part.trim();
            part.parse::<u8>()
                .ok()
                .filter(|&n| n <= MAX_PILE)
                .ok_or_else(|| format!("'{part}' is not a pile size from 0 to {MAX_PILE}"))
        })
        .collect();
    let sizes = sizes?;
    Piles::new(&sizes).ok_or_else(|| format!("give 1 to {MAX_PILES} piles, not {}", sizes.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piles(sizes: &[u8]) -> Piles {
        Piles::new(sizes).unwrap()
    }

    #[test]
    fn moves_take_from_one_pile() {
        let start = piles(&[1, 3, 5, 7]);
        assert_eq!(start.moves().count(), 16);
        let next = start.play(NimMove { pile: 3, take: 7 }).unwrap();
        assert_eq!(next.sizes(), [1, 3, 5, 0]);
        assert_eq!(next.moves().count(), 9);
        assert_eq!(start.nim_sum(), 0);
        assert_eq!(format!("{next}"), "[1,3,5,0]");
    }

    #[test]
    fn bad_moves_are_refused_with_the_reason() {
        let start = piles(&[1, 0, 5]);
        assert_eq!(
            start.check(4, 1),
            Err(MoveError::NoSuchPile { pile: 4, piles: 3 })
        );
        assert_eq!(start.check(2, 1), Err(MoveError::EmptyPile { pile: 2 }));
        assert!(matches!(start.check(3, 0), Err(MoveError::BadCount { .. })));
        assert!(matches!(start.check(3, 6), Err(MoveError::BadCount { .. })));
        assert_eq!(start.check(3, 5).unwrap().to_string(), "take 5 from pile 3");
        assert_eq!(piles(&[0, 0]).check(1, 1), Err(MoveError::GameOver));
    }

    #[test]
    fn positions_below_count_every_smaller_pile_vector_once() {
        let start = piles(&[1, 3, 5, 7]);
        let all: Vec<Piles> = start.below().collect();
        assert_eq!(all.len(), 2 * 4 * 6 * 8);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
        assert_eq!(all[0].sizes(), [0, 0, 0, 0]);
        assert_eq!(all.last().unwrap().sizes(), [1, 3, 5, 7]);
    }

    #[test]
    fn piles_parse_from_a_list() {
        assert_eq!(parse_piles("1, 3,5,7").unwrap().sizes(), [1, 3, 5, 7]);
        assert!(parse_piles("1,x").unwrap_err().contains("'x'"));
        assert!(parse_piles("1,2,3,4,5,6,7").unwrap_err().contains("1 to 6"));
        assert!(parse_piles("64").is_err());
    }
}
