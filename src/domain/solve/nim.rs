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
