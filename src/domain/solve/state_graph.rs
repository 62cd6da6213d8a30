//! The exact solution of the State-Graph tab's game, Nim(k) with takes 1..=m from one pile
//! (not Subtraction Nim, whose largest take grows with the pile): a closed form, no table.

/// The exact answer for Nim(k) with takes 1..=m: a pile is lost for the player to move when
/// it is a multiple of m + 1; otherwise taking the remainder wins.
pub fn winning_take(tokens: u32, max_take: u32) -> Option<u32> {
    let remainder = tokens % (max_take + 1);
    (remainder != 0).then_some(remainder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exact_solution_is_the_remainder() {
        assert_eq!(winning_take(10, 2), Some(1));
        assert_eq!(winning_take(9, 2), None);
        assert_eq!(winning_take(2, 2), Some(2));
        assert_eq!(winning_take(0, 2), None);
        assert_eq!(winning_take(7, 3), Some(3));
    }
}
