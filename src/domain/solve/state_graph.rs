//! The exact solution of the State-Graph tab's game, Nim(k) with takes 1..=m from one pile
//! (not Subtraction Nim, whose largest take grows with the pile): a closed form, no table.

use super::verdict::Verdict;

/// The exact answer for Nim(k) with takes 1..=m: a pile is lost for the player to move when
/// it is a multiple of m + 1; otherwise taking the remainder wins.
pub fn winning_take(tokens: u32, max_take: u32) -> Option<u32> {
    let remainder = tokens % (max_take + 1);
    (remainder != 0).then_some(remainder)
}

/// How the game ends for the player to move with `tokens` left, with perfect play: the
/// winner answers every take t with m + 1 - t, so every round of two plies takes m + 1 tokens
/// whatever the loser does; a player facing 0 tokens has lost (the other took the last one),
/// and a winner first takes the remainder, one ply more.
pub fn verdict(tokens: u32, max_take: u32) -> Verdict {
    let round_plies = 2 * (tokens / (max_take + 1));
    if tokens.is_multiple_of(max_take + 1) {
        Verdict::loses_in_plies(round_plies)
    } else {
        Verdict::wins_in_plies(round_plies + 1)
    }
}

/// How the game ends for the player who takes `take` of `tokens`, with perfect play from then on.
pub fn verdict_of_take(tokens: u32, take: u32, max_take: u32) -> Verdict {
    Verdict::of_move_leaving(verdict(tokens - take, max_take))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::solve::verdict::by_plain_search;

    #[test]
    fn the_closed_form_counts_the_moves_recursion_counts() {
        for max_take in 1..=4 {
            for tokens in 0..=14 {
                let takes = |&left: &u32| (1..=max_take.min(left)).map(|t| left - t).collect();
                assert_eq!(
                    verdict(tokens, max_take),
                    by_plain_search(&tokens, &takes, &|_| Some(false)),
                    "{tokens} tokens, takes 1-{max_take}"
                );
                assert_eq!(
                    verdict(tokens, max_take).wins(),
                    winning_take(tokens, max_take).is_some()
                );
            }
        }
        // Nim(10), takes 1-2: taking 1 leaves 9, a loss in 3 for the opponent: a win in 4.
        assert_eq!(verdict_of_take(10, 1, 2).to_string(), "wins in 4 moves");
        assert_eq!(verdict_of_take(10, 2, 2).to_string(), "loses in 3 moves");
        assert_eq!(verdict_of_take(2, 2, 2).to_string(), "wins in 1 move");
    }

    #[test]
    fn the_exact_solution_is_the_remainder() {
        assert_eq!(winning_take(10, 2), Some(1));
        assert_eq!(winning_take(9, 2), None);
        assert_eq!(winning_take(2, 2), Some(2));
        assert_eq!(winning_take(0, 2), None);
        assert_eq!(winning_take(7, 3), Some(3));
    }
}
