//! Game rules only: pure, no I/O, no randomness. The searches in `search/` and the
//! widgets in `ui/` work over the [`Game`] trait so one stepper serves every game.

pub mod connect4;
pub mod eight;
pub mod nim;
pub mod subtraction;
pub mod tictactoe;

use std::fmt::Debug;
use std::hash::Hash;

/// How a finished game ended, from the point of view of the players themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome<P> {
    /// This player won.
    Winner(P),
    /// Nobody won.
    Draw,
}

/// The rules of a two-player, perfect-information, turn-based game: everything a search
/// needs and nothing more, so the same minimax serves tic-tac-toe and the Game of Eight.
pub trait Game: Copy + Eq + Hash + Debug {
    /// Who is to move; compared with the root's player to tell MAX from MIN levels.
    type Player: Copy + Eq + Debug;
    /// One move; small and `Copy` so search frames stay cheap.
    type Move: Copy + Eq + Debug;
    /// The legal moves in a fixed order; a container chosen per game so the fast search
    /// does not allocate.
    /// The move orderings of `search::MoveOrder` rearrange it in place.
    type Moves: AsRef<[Self::Move]> + AsMut<[Self::Move]>;

    /// The player whose turn it is.
    fn to_move(&self) -> Self::Player;
    /// Every legal move, in the order the searches try them. Empty once the game is over.
    fn legal_moves(&self) -> Self::Moves;
    /// The position after `mv`; callers only pass moves from [`Game::legal_moves`].
    #[must_use]
    fn play(&self, mv: Self::Move) -> Self;
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome<Self::Player>>;
    /// Where a fixed, game-specific order puts `mv` (lower first), for the static move
    /// ordering of `search::MoveOrder::Static`: a rule of thumb about which moves tend to
    /// be strong, the same in every position. Every move ranks 0 (the listed order) unless
    /// a game says otherwise.
    fn static_rank(&self, mv: Self::Move) -> u8 {
        let _ = mv;
        0
    }
}

/// A fixed-capacity move list, so move generation in the hot search loop never allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveList<const N: usize> {
    items: [u8; N],
    len: u8,
}

impl<const N: usize> MoveList<N> {
    /// An empty list, filled with [`MoveList::push`].
    pub const fn new() -> Self {
        Self {
            items: [0; N],
            len: 0,
        }
    }

    /// Appends a move; the games size `N` so this never overflows.
    pub fn push(&mut self, mv: u8) {
        self.items[usize::from(self.len)] = mv;
        self.len += 1;
    }
}

impl<const N: usize> Default for MoveList<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> AsMut<[u8]> for MoveList<N> {
    fn as_mut(&mut self) -> &mut [u8] {
        &mut self.items[..usize::from(self.len)]
    }
}

impl<const N: usize> AsRef<[u8]> for MoveList<N> {
    fn as_ref(&self) -> &[u8] {
        &self.items[..usize::from(self.len)]
    }
}
