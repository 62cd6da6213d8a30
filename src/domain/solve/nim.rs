//! The exact answer for multi-pile Nim under either rule: the perfect player, the labels the
//! network learns from, and the yardstick both learners are measured with.

use crate::domain::games::nim::{NimMove, Piles, Rule};

/// Whether the player to move wins with perfect play. Normal play: the nim-sum is not zero.
/// Misère: the same, except when every pile holds at most one object; then the mover wins
/// exactly when an even number of piles is left (the opponent takes the last one).
pub fn mover_wins(piles: &Piles, rule: Rule) -> bool {
    match rule {
        Rule::Normal => piles.nim_sum() != 0,
        Rule::Misere => {
            if piles.sizes().iter().all(|&s| s <= 1) {
                bytecount_ones(piles.sizes()).is_multiple_of(2)
            } else {
                piles.nim_sum() != 0
            }
        }
    }
}

fn bytecount_ones(sizes: &[u8]) -> usize {
    sizes.iter().map(|&s| usize::from(s == 1)).sum()
}

/// Whether `mv` wins: it leaves the opponent a position they lose.
pub fn is_winning_move(piles: &Piles, rule: Rule, mv: NimMove) -> bool {
    !mover_wins(&piles.after(mv), rule)
}

/// Every winning move from `piles`, in move order; empty when the mover loses anyway.
pub fn winning_moves(piles: &Piles, rule: Rule) -> Vec<NimMove> {
    if piles.is_over() {
        return Vec::new();
    }
    piles
        .moves()
        .filter(|&mv| is_winning_move(piles, rule, mv))
        .collect()
}

/// True when the mover has a winning move (the game is not over and the mover wins).
pub fn has_winning_move(piles: &Piles, rule: Rule) -> bool {
    !piles.is_over() && mover_wins(piles, rule)
}

/// The perfect player's move: the first winning move, or, in a lost position, one object
/// from the largest pile (the move that keeps the game longest for an imperfect opponent).
pub fn perfect_move(piles: &Piles, rule: Rule) -> Option<NimMove> {
    if piles.is_over() {
        return None;
    }
    if let Some(&mv) = winning_moves(piles, rule).first() {
        return Some(mv);
    }
    let (pile, _) = piles
        .sizes()
        .iter()
        .enumerate()
        .max_by_key(|&(i, &s)| (s, std::cmp::Reverse(i)))?;
    Some(NimMove {
        pile: pile as u8,
        take: 1,
    })
}

/// The exact answer for one move: whether its mover wins with perfect play from then on,
/// and in how many of the mover's own moves (this one included) the game ends, the winner
/// hurrying and the loser holding out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The mover wins.
    pub wins: bool,
    /// The mover's moves until the game ends, counting this one.
    pub moves: u32,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let outcome = if self.wins { "wins" } else { "loses" };
        write!(f, "{outcome} in {}", self.moves)
    }
}

/// How long every position below some piles lasts with perfect play: for each position,
/// whether its mover wins and the plies left (the winner takes the shortest win, the
/// loser the longest loss). One pass over the positions, smallest first, since every move
/// leads to a smaller one.
#[derive(Debug, Clone)]
pub struct Lengths {
    top: Piles,
    rule: Rule,
    /// Per position in [`Piles::below`] order: the mover wins, and the plies left.
    outcomes: Vec<(bool, u32)>,
}

impl Lengths {
    /// The lengths of every position a game from `top` can reach (`top`'s box: the product
    /// of its pile sizes plus one positions, each with all its moves).
    pub fn new(top: Piles, rule: Rule) -> Self {
        let mut lengths = Self {
            top,
            rule,
            outcomes: Vec::new(),
        };
        for piles in top.below() {
            let outcome = lengths.solve(piles);
            lengths.outcomes.push(outcome);
        }
        lengths
    }

    /// The rule it was computed for.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Whether `piles` is in the box these lengths cover.
    pub fn covers(&self, piles: &Piles) -> bool {
        piles.len() == self.top.len()
            && piles
                .sizes()
                .iter()
                .zip(self.top.sizes())
                .all(|(a, b)| a <= b)
    }

    fn index(&self, piles: Piles) -> usize {
        piles
            .sizes()
            .iter()
            .zip(self.top.sizes())
            .fold(0, |acc, (&size, &max)| {
                acc * (usize::from(max) + 1) + usize::from(size)
            })
    }

    /// The outcome of a position whose smaller positions are already solved.
    fn solve(&self, piles: Piles) -> (bool, u32) {
        if piles.is_over() {
            return (self.rule.mover_wins_at_end(), 0);
        }
        let mut shortest_win: Option<u32> = None;
        let mut longest_loss = 0;
        for mv in piles.moves() {
            let (opponent_wins, plies) = self.outcomes[self.index(piles.after(mv))];
            if opponent_wins {
                longest_loss = longest_loss.max(plies + 1);
            } else {
                shortest_win = Some(shortest_win.map_or(plies + 1, |w| w.min(plies + 1)));
            }
        }
        shortest_win.map_or((false, longest_loss), |plies| (true, plies))
    }

    /// The mover's outcome at `piles` and the plies left; `None` outside the box.
    pub fn outcome(&self, piles: &Piles) -> Option<(bool, u32)> {
        self.covers(piles)
            .then(|| self.outcomes[self.index(*piles)])
    }

    /// The exact answer for playing `mv` at `piles`; `None` outside the box.
    pub fn verdict(&self, piles: &Piles, mv: NimMove) -> Option<Verdict> {
        let (opponent_wins, plies) = self.outcome(&piles.after(mv))?;
        // The mover makes plies 1, 3, 5, ... of the rest of the game.
        let total = plies + 1;
        Some(Verdict {
            wins: !opponent_wins,
            moves: total.div_ceil(2),
        })
    }
}

/// Whether the mover wins, by searching the whole game tree: the reference the formulas
/// above are tested against (exponential; small positions only).
pub fn mover_wins_by_search(piles: &Piles, rule: Rule) -> bool {
    if piles.is_over() {
        return rule.mover_wins_at_end();
    }
    piles
        .moves()
        .any(|mv| !mover_wins_by_search(&piles.after(mv), rule))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn memo_search(piles: Piles, rule: Rule, memo: &mut HashMap<Piles, bool>) -> bool {
        if let Some(&known) = memo.get(&piles) {
            return known;
        }
        let wins = if piles.is_over() {
            rule.mover_wins_at_end()
        } else {
            piles
                .moves()
                .any(|mv| !memo_search(piles.after(mv), rule, memo))
        };
        memo.insert(piles, wins);
        wins
    }

    #[test]
    fn the_formula_agrees_with_search_on_every_reachable_position() {
        for start in [
            &[1, 3, 5, 7][..],
            &[2, 2, 3],
            &[4, 4, 4, 1],
            &[7, 1, 1],
            &[6, 5],
        ] {
            let start = Piles::new(start).unwrap();
            for rule in [Rule::Misere, Rule::Normal] {
                let mut memo = HashMap::new();
                for piles in start.below() {
                    assert_eq!(
                        mover_wins(&piles, rule),
                        memo_search(piles, rule, &mut memo),
                        "{piles} under {rule:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn winning_moves_leave_a_lost_position() {
        let start = Piles::new(&[1, 3, 5, 6]).unwrap();
        let moves = winning_moves(&start, Rule::Misere);
        assert!(!moves.is_empty());
        for mv in moves {
            assert!(!mover_wins_by_search(&start.after(mv), Rule::Misere));
        }
        // The original program's start is lost for the first player under both rules.
        let original = Piles::new(&[1, 3, 5, 7]).unwrap();
        assert!(!mover_wins(&original, Rule::Misere) && !mover_wins(&original, Rule::Normal));
        assert!(winning_moves(&original, Rule::Misere).is_empty());
    }

    /// The plies left with perfect play by plain search: the reference for [`Lengths`].
    fn plies_by_search(piles: Piles, rule: Rule) -> (bool, u32) {
        if piles.is_over() {
            return (rule.mover_wins_at_end(), 0);
        }
        let results: Vec<(bool, u32)> = piles
            .moves()
            .map(|mv| plies_by_search(piles.after(mv), rule))
            .collect();
        let wins = results.iter().filter(|(opponent, _)| !opponent);
        match wins.map(|&(_, p)| p + 1).min() {
            Some(plies) => (true, plies),
            None => (
                false,
                results.iter().map(|&(_, p)| p + 1).max().unwrap_or(0),
            ),
        }
    }

    #[test]
    fn lengths_agree_with_plain_search_and_the_formula() {
        for start in [&[1, 3, 5][..], &[2, 2, 3], &[4, 1], &[3, 3]] {
            let start = Piles::new(start).unwrap();
            for rule in [Rule::Misere, Rule::Normal] {
                let lengths = Lengths::new(start, rule);
                for piles in start.below() {
                    let (wins, plies) = lengths.outcome(&piles).unwrap();
                    assert_eq!((wins, plies), plies_by_search(piles, rule), "{piles}");
                    assert_eq!(wins, mover_wins(&piles, rule), "{piles}");
                }
            }
        }
    }

    #[test]
    fn verdicts_count_the_movers_own_moves() {
        let rule = Rule::Misere;
        let lengths = Lengths::new(Piles::new(&[1, 1, 2]).unwrap(), rule);
        let piles = Piles::new(&[1, 1, 2]).unwrap();
        let verdict = |pile: u8, take: u8| {
            lengths
                .verdict(&piles, NimMove { pile, take })
                .unwrap()
                .to_string()
        };
        // Taking the pair leaves [1,1,0]: the opponent takes one, the mover the last.
        assert_eq!(verdict(2, 2), "loses in 2");
        // Taking one of the pair leaves [1,1,1]: three single objects, the mover takes
        // the second and the opponent the last.
        assert_eq!(verdict(2, 1), "wins in 2");
        // Taking a single object leaves [0,1,2]: the opponent takes the pair and the
        // mover must take the last.
        assert_eq!(verdict(0, 1), "loses in 2");
        let last = Piles::new(&[0, 0, 1]).unwrap();
        assert_eq!(
            lengths
                .verdict(&last, NimMove { pile: 2, take: 1 })
                .unwrap(),
            Verdict {
                wins: false,
                moves: 1
            }
        );
        assert_eq!(lengths.outcome(&Piles::new(&[2, 1, 2]).unwrap()), None);
    }

    #[test]
    fn single_objects_follow_parity_under_misere() {
        let two = Piles::new(&[1, 1, 0]).unwrap();
        assert!(mover_wins(&two, Rule::Misere));
        assert!(!mover_wins(&two, Rule::Normal));
        let end = Piles::new(&[0, 0]).unwrap();
        assert!(mover_wins(&end, Rule::Misere) && !mover_wins(&end, Rule::Normal));
        assert_eq!(perfect_move(&end, Rule::Misere), None);
    }
}
