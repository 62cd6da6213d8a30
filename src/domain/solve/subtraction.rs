//! The exact solution of Subtraction Nim by dynamic programming: which piles are won for the
//! player to move, the winning move (the smallest k that leaves a lost pile), and how many
//! moves each take wins or loses in with perfect play.

use super::verdict::Verdict;
use crate::domain::games::subtraction::max_take;

/// Win/lose and the winning move for every pile `1..=n_max`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// `winning[n]`: the player to move at n wins with best play (index 0 unused).
    winning: Vec<bool>,
    /// `best[n]`: the smallest winning take at n, 0 where there is none.
    best: Vec<u32>,
    /// `verdict[n]`: how the game ends for the player to move at n with perfect play.
    verdict: Vec<Verdict>,
}

impl Solution {
    /// Solves every pile up to `n_max`, smallest first (each answer needs only smaller piles).
    pub fn new(n_max: u32) -> Self {
        let size = n_max as usize + 1;
        let mut winning = vec![false; size.max(2)];
        let mut best = vec![0; size.max(2)];
        // A pile of 1 allows no take: the player facing it has lost (the other moved last).
        let mut verdict = vec![Verdict::loses_in_plies(0); size.max(2)];
        for n in 2..size {
            if let Some(k) = (1..=max_take(n as u32)).find(|&k| !winning[n - k as usize]) {
                winning[n] = true;
                best[n] = k;
            }
            verdict[n] = (1..=max_take(n as u32))
                .map(|k| Verdict::of_move_leaving(verdict[n - k as usize]))
                .reduce(Verdict::better)
                .unwrap_or(Verdict::loses_in_plies(0));
        }
        Self {
            winning,
            best,
            verdict,
        }
    }

    /// The largest pile solved.
    pub fn n_max(&self) -> u32 {
        (self.winning.len() - 1) as u32
    }

    /// Whether the player to move at `n` wins with best play.
    pub fn is_winning(&self, n: u32) -> bool {
        self.winning.get(n as usize).copied().unwrap_or(false)
    }

    /// The smallest winning take at `n`, if `n` is winning.
    pub fn winning_move(&self, n: u32) -> Option<u32> {
        self.best.get(n as usize).copied().filter(|&k| k > 0)
    }

    /// How the game ends for the player who takes `k` from `n`, with perfect play from
    /// then on (`None` for a take that is not legal or a pile beyond the table).
    pub fn verdict_of_take(&self, n: u32, k: u32) -> Option<Verdict> {
        if k < 1 || k > max_take(n) {
            return None;
        }
        let after = self.verdict.get((n - k) as usize)?;
        Some(Verdict::of_move_leaving(*after))
    }

    /// Whether taking `k` from `n` leaves the opponent a lost pile.
    pub fn is_winning_move(&self, n: u32, k: u32) -> bool {
        k >= 1 && k <= max_take(n) && !self.is_winning(n - k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::solve::verdict::by_plain_search;

    /// Plain recursion with no table: who wins at n.
    fn brute_force_wins(n: u32) -> bool {
        (1..=max_take(n)).any(|k| !brute_force_wins(n - k))
    }

    #[test]
    fn losing_piles_are_one_less_than_powers_of_two() {
        let solution = Solution::new(1000);
        for n in 1..=1000u32 {
            let power_minus_one = (n + 1).is_power_of_two();
            assert_eq!(solution.is_winning(n), !power_minus_one, "n = {n}");
        }
    }

    #[test]
    fn the_table_agrees_with_brute_force() {
        // The recursion is exponential: 24 is as far as it goes in well under a second.
        let solution = Solution::new(24);
        for n in 1..=24 {
            assert_eq!(solution.is_winning(n), brute_force_wins(n), "n = {n}");
            if let Some(k) = solution.winning_move(n) {
                assert!(!brute_force_wins(n - k), "n = {n}, k = {k}");
                assert!(
                    (1..k).all(|smaller| brute_force_wins(n - smaller)),
                    "smallest: n = {n}"
                );
            }
        }
    }

    #[test]
    fn every_take_wins_or_loses_in_the_moves_brute_force_counts() {
        let solution = Solution::new(24);
        let after_takes = |&n: &u32| (1..=max_take(n)).map(|k| n - k).collect();
        for n in 2..=24 {
            for k in 1..=max_take(n) {
                let after = by_plain_search(&(n - k), &after_takes, &|_| Some(false));
                let verdict = solution.verdict_of_take(n, k).unwrap();
                assert_eq!(verdict, Verdict::of_move_leaving(after), "{n} - {k}");
                assert_eq!(verdict.wins(), solution.is_winning_move(n, k));
            }
        }
        let words = |n, k| solution.verdict_of_take(n, k).unwrap().to_string();
        // By hand: from 3 the only take leaves 2, where the opponent takes 1 and wins.
        assert_eq!(words(3, 1), "loses in 1 move");
        // From 5, taking 2 leaves 3: the opponent must take 1, then 2 -> 1 wins.
        assert_eq!(words(5, 2), "wins in 2 moves");
        assert_eq!(words(2, 1), "wins in 1 move");
        assert_eq!(solution.verdict_of_take(5, 3), None, "not legal");
    }

    #[test]
    fn there_are_120_winning_piles_up_to_127() {
        let solution = Solution::new(127);
        assert_eq!((2..=127).filter(|&n| solution.is_winning(n)).count(), 120);
        assert_eq!(solution.winning_move(5), Some(2));
        assert_eq!(solution.winning_move(7), None);
    }
}
