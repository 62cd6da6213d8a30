//! The exact answer for multi-pile Nim under either rule: the perfect player, the labels the
//! network learns from, and the yardstick both learners are measured with.

use super::verdict::Verdict;
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

/// How long every position below some piles lasts with perfect play: for each position,
/// the [`Verdict`] for its mover (the winner takes the shortest win, the loser the longest
/// loss). One pass over the positions, smallest first, since every move leads to a smaller
/// one.
#[derive(Debug, Clone)]
pub struct Lengths {
    top: Piles,
    rule: Rule,
    /// Per position in [`Piles::below`] order: the verdict for the player to move.
    verdicts: Vec<Verdict>,
}

impl Lengths {
    /// The lengths of every position a game from `top` can reach (`top`'s box: the product
    /// of its pile sizes plus one positions, each with all its moves).
    pub fn new(top: Piles, rule: Rule) -> Self {
        let mut lengths = Self {
            top,
            rule,
            verdicts: Vec::new(),
        };
        for piles in top.below() {
            let verdict = lengths.solve(piles);
            lengths.verdicts.push(verdict);
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

    /// The verdict of a position whose smaller positions are already solved.
    fn solve(&self, piles: Piles) -> Verdict {
        if piles.is_over() {
            return if self.rule.mover_wins_at_end() {
                Verdict::wins_in_plies(0)
            } else {
                Verdict::loses_in_plies(0)
            };
        }
        piles
            .moves()
            .map(|mv| Verdict::of_move_leaving(self.verdicts[self.index(piles.after(mv))]))
            .reduce(Verdict::better)
            .expect("a game that is not over has a move")
    }

    /// The verdict for the player to move at `piles`; `None` outside the box.
    pub fn of_position(&self, piles: &Piles) -> Option<Verdict> {
        self.covers(piles)
            .then(|| self.verdicts[self.index(*piles)])
    }

    /// The exact answer for playing `mv` at `piles`; `None` outside the box.
    pub fn verdict(&self, piles: &Piles, mv: NimMove) -> Option<Verdict> {
        self.of_position(&piles.after(mv))
            .map(Verdict::of_move_leaving)
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
    use crate::domain::solve::verdict::by_plain_search;
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

    #[test]
    fn lengths_agree_with_plain_search_and_the_formula() {
        for start in [&[1, 3, 5][..], &[2, 2, 3], &[4, 1], &[3, 3]] {
            let start = Piles::new(start).unwrap();
            for rule in [Rule::Misere, Rule::Normal] {
                let lengths = Lengths::new(start, rule);
                let next = |p: &Piles| p.moves().map(|mv| p.after(mv)).collect();
                for piles in start.below() {
                    let verdict = lengths.of_position(&piles).unwrap();
                    let searched =
                        by_plain_search(&piles, &next, &|_| Some(rule.mover_wins_at_end()));
                    assert_eq!(verdict, searched, "{piles}");
                    assert_eq!(verdict.wins(), mover_wins(&piles, rule), "{piles}");
                }
            }
        }
    }

    #[test]
    fn verdicts_count_the_movers_own_moves() {
        let rule = Rule::Misere;
        let lengths = Lengths::new(Piles::new(&[1, 1, 2]).unwrap(), rule);
        let verdict = |piles: &[u8], pile: u8, take: u8| {
            lengths
                .verdict(&Piles::new(piles).unwrap(), NimMove { pile, take })
                .unwrap()
                .to_string()
        };
        // Taking the pair leaves [1,1,0]: the opponent takes one, the mover the last.
        assert_eq!(verdict(&[1, 1, 2], 2, 2), "loses in 2 moves");
        // Taking one of the pair leaves [1,1,1]: three single objects, the mover takes
        // the second and the opponent the last.
        assert_eq!(verdict(&[1, 1, 2], 2, 1), "wins in 2 moves");
        // Taking a single object leaves [0,1,2]: the opponent takes the pair and the
        // mover must take the last.
        assert_eq!(verdict(&[1, 1, 2], 0, 1), "loses in 2 moves");
        // Taking the last object loses on the spot.
        assert_eq!(verdict(&[0, 0, 1], 2, 1), "loses in 1 move");
        assert_eq!(lengths.of_position(&Piles::new(&[2, 1, 2]).unwrap()), None);
        assert_eq!(
            lengths.of_position(&Piles::new(&[0, 0, 0]).unwrap()),
            Some(Verdict::wins_in_plies(0)),
            "under misère the player left without a move has won"
        );
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
