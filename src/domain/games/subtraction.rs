//! Subtraction Nim from the original lab programs: a pile of n blocks, a move takes k blocks with
//! 1 <= k <= n/2, and the player who faces a single block cannot move and loses.

/// Why a move was refused; the pile is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TakeError {
    /// The pile is down to one block: nobody can move.
    #[error("the game is over")]
    GameOver,
    /// k must be between 1 and n/2.
    #[error("take between 1 and {max} (half of {pile}, rounded down), not {take}")]
    OutOfRange {
        /// The k asked for.
        take: u32,
        /// The largest legal k.
        max: u32,
        /// The pile.
        pile: u32,
    },
}

/// The largest legal take from a pile of `n`.
pub const fn max_take(n: u32) -> u32 {
    n / 2
}

/// The pile after taking `k`, or why `k` is not allowed.
pub fn take(n: u32, k: u32) -> Result<u32, TakeError> {
    if n <= 1 {
        return Err(TakeError::GameOver);
    }
    if k == 0 || k > max_take(n) {
        return Err(TakeError::OutOfRange {
            take: k,
            max: max_take(n),
            pile: n,
        });
    }
    Ok(n - k)
}

/// True when the player to move faces one block and has lost.
pub const fn is_over(n: u32) -> bool {
    n <= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_are_between_one_and_half_the_pile() {
        assert_eq!(take(10, 5), Ok(5));
        assert_eq!(take(10, 1), Ok(9));
        assert!(matches!(
            take(10, 6),
            Err(TakeError::OutOfRange { max: 5, .. })
        ));
        assert!(matches!(take(10, 0), Err(TakeError::OutOfRange { .. })));
        assert_eq!(take(3, 1), Ok(2));
        assert_eq!(take(2, 1), Ok(1));
        assert_eq!(take(1, 1), Err(TakeError::GameOver));
        assert!(is_over(1) && !is_over(2));
    }
}
