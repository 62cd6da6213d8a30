//! The simulation phase: a game played to its end by uniformly random legal moves, and the
//! seeded generator that draws them.
//!
//! [`Rollout`] has one generic playout through [`Game::legal_moves`], [`Game::play`] and
//! [`Game::outcome`]; Connect Four overrides it with the same algorithm on its bitboards
//! (pick a uniformly random playable column, drop, check for four), because the rollout is
//! most of an iteration's time. Both draw the same numbers in the same order, so they play
//! the same games (a test pins it).

use crate::domain::games::connect4;
use crate::domain::games::eight::Eight;
use crate::domain::games::{Game, Outcome, tictactoe};

/// `SplitMix64` (Steele, Lea and Flood, 2014): one `u64` of state, a few operations per
/// number, and the same sequence on every platform and every version of this crate, which
/// a library generator does not promise (rand's `SmallRng` differs between 32- and 64-bit
/// machines). A seed gives one search, always.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniformly random number below `n` (which must be positive), without the bias of a
    /// plain remainder: Lemire's multiply-and-shift, drawing again in the rare case that
    /// would favour some values.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "a number below 0 was asked for");
        let mut product = (self.next_u64() >> 32) * u64::from(n);
        if (product as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u32) < threshold {
                product = (self.next_u64() >> 32) * u64::from(n);
            }
        }
        (product >> 32) as u32
    }
}

/// A game MCTS can simulate: plays uniformly random legal moves to the end and says how the
/// game ended. The default is [`uniform_playout`]; a game overrides it only to run the same
/// draws faster.
pub trait Rollout: Game {
    /// Plays uniformly random moves from `self` to the end of the game, appending each move
    /// to `moves` when given, and returns the outcome (`self`'s own if the game is over).
    fn playout(
        &self,
        rng: &mut SplitMix64,
        moves: Option<&mut Vec<Self::Move>>,
    ) -> Outcome<Self::Player> {
        uniform_playout(self, rng, moves)
    }
}

/// The generic random playout: at each position, one of [`Game::legal_moves`] drawn
/// uniformly. A position with no moves and no outcome (no game here has one) counts as a
/// draw rather than looping.
pub fn uniform_playout<G: Game>(
    start: &G,
    rng: &mut SplitMix64,
    mut moves: Option<&mut Vec<G::Move>>,
) -> Outcome<G::Player> {
    let mut position = *start;
    loop {
        if let Some(outcome) = position.outcome() {
            return outcome;
        }
        let legal = position.legal_moves();
        let legal = legal.as_ref();
        if legal.is_empty() {
            return Outcome::Draw;
        }
        let mv = legal[rng.below(legal.len() as u32) as usize];
        if let Some(moves) = moves.as_deref_mut() {
            moves.push(mv);
        }
        position = position.play(mv);
    }
}

impl Rollout for tictactoe::Board {}

impl Rollout for Eight {}

/// The same draw as [`uniform_playout`] (the `k`-th open column, left to right, `k` below
/// their number) on the bitboards: no move list, no per-column checks. Every board size.
impl<const W: usize, const H: usize> Rollout for connect4::Grid<W, H> {
    fn playout(
        &self,
        rng: &mut SplitMix64,
        mut moves: Option<&mut Vec<u8>>,
    ) -> Outcome<connect4::Disc> {
        let mut board = *self;
        while !board.is_over() {
            // One bit per open column: its lowest empty cell, in column order.
            let mut playable = board.playable();
            for _ in 0..rng.below(playable.count_ones()) {
                playable &= playable - 1;
            }
            let cell = playable & playable.wrapping_neg();
            if let Some(moves) = moves.as_deref_mut() {
                // A column takes H cells and one spare bit.
                moves.push((cell.trailing_zeros() as usize / (H + 1)) as u8);
            }
            board = board.play_cell(cell);
        }
        Game::outcome(&board).expect("the loop ends when the game is over")
    }
}
