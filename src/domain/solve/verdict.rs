//! The exact answer every tab and `ai-arcade solve` give for a move or a position: how the
//! game ends for one player with perfect play on both sides (the winner ends it as soon as it
//! can, the loser holds out as long as it can), counted in that player's own moves, the next
//! one included, as chess's "mate in 2" counts the winner's moves.
//!
//! The solvers work in plies, since whether the winner or the loser makes the last move
//! differs between games (and within one: the Game of Eight is won by reaching 8 and lost by
//! passing it). A [`Verdict`] keeps the plies, so turning a position's verdict into its
//! mover's is exact, and shows moves: the player makes plies 1, 3, 5, ... of the rest of the
//! game. Every conversion between the two is here, and nowhere else.

use crate::domain::search::WIN;
use std::fmt;

/// How the game ends for one player with perfect play: for a position, the player to move
/// there; for a move, the player who makes it (the move counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Verdict {
    end: End,
    /// Plies from this player's turn to the end of the game (0 for a draw: never shown).
    plies: u32,
}

/// Who the game goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum End {
    Win,
    Loss,
    Draw,
}

impl Verdict {
    /// Nobody can force a win.
    pub const DRAW: Self = Self {
        end: End::Draw,
        plies: 0,
    };

    /// The player wins, the game ending `plies` plies from its turn (0: it is over, won).
    pub const fn wins_in_plies(plies: u32) -> Self {
        Self {
            end: End::Win,
            plies,
        }
    }

    /// The player loses, the game ending `plies` plies from its turn (0: it is over, lost).
    pub const fn loses_in_plies(plies: u32) -> Self {
        Self {
            end: End::Loss,
            plies,
        }
    }

    /// The verdict for the player to move at the root of a search played out to the end, from
    /// the search's value (`WIN - plies` for a win, `plies - WIN` for a loss, 0 for a draw).
    pub fn from_search_value(value: i32) -> Self {
        match value {
            0 => Self::DRAW,
            v if v > 0 => Self::wins_in_plies(plies_left(WIN - v)),
            v => Self::loses_in_plies(plies_left(WIN + v)),
        }
    }

    /// The search value of this verdict, the inverse of [`Self::from_search_value`]: `WIN -
    /// plies` for a win, `plies - WIN` for a loss, 0 for a draw. For a move's verdict it is
    /// the value minimax gives that move at the root (the move's own ply counted), so a
    /// view can set the searches' number beside a solver's answer without a second search.
    pub const fn search_value(self) -> i32 {
        // A game here lasts far fewer plies than `i32::MAX`.
        let plies = self.plies as i32;
        match self.end {
            End::Win => WIN - plies,
            End::Loss => plies - WIN,
            End::Draw => 0,
        }
    }

    /// The verdict of a move for its mover, from the verdict of the position it leaves for
    /// the opponent: the result turns round and the move adds its ply.
    #[must_use]
    pub const fn of_move_leaving(after: Self) -> Self {
        let end = match after.end {
            End::Win => End::Loss,
            End::Loss => End::Win,
            End::Draw => return Self::DRAW,
        };
        Self {
            end,
            plies: after.plies + 1,
        }
    }

    /// The better of two verdicts for the player choosing between them: a win beats a draw
    /// beats a loss, a sooner win beats a later one, a later loss beats a sooner one.
    #[must_use]
    pub fn better(self, other: Self) -> Self {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }

    fn rank(self) -> i64 {
        let plies = i64::from(self.plies);
        match self.end {
            End::Win => i64::from(u32::MAX) - plies,
            End::Draw => 0,
            End::Loss => plies - i64::from(u32::MAX),
        }
    }

    /// Whether the player wins.
    pub const fn wins(self) -> bool {
        matches!(self.end, End::Win)
    }

    /// Whether neither player can force a win.
    pub const fn is_draw(self) -> bool {
        matches!(self.end, End::Draw)
    }

    /// Whether the player loses.
    pub const fn loses(self) -> bool {
        matches!(self.end, End::Loss)
    }

    /// The player's own moves until the game ends, the next one included (it makes plies
    /// 1, 3, 5, ... of the rest); `None` for a draw.
    pub const fn moves(self) -> Option<u32> {
        match self.end {
            End::Draw => None,
            End::Win | End::Loss => Some(self.plies.div_ceil(2)),
        }
    }
}

/// A search value's depth as plies (a value beyond `WIN`, which no finished game scores,
/// counts as 0).
fn plies_left(depth: i32) -> u32 {
    u32::try_from(depth).unwrap_or(0)
}

/// `wins in 1 move`, `wins in 2 moves`, `loses in 3 moves`, `loses at once` (the game is over
/// and no move is left; `wins at once` where the rule gives the game to the player left
/// without a move), `draw`.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(moves) = self.moves() else {
            return f.write_str("draw");
        };
        let result = if self.wins() { "wins" } else { "loses" };
        match moves {
            0 => write!(f, "{result} at once"),
            1 => write!(f, "{result} in 1 move"),
            moves => write!(f, "{result} in {moves} moves"),
        }
    }
}

/// Plain search, the reference every solver's table or formula is tested against: no table,
/// no [`Verdict`] arithmetic, every line of play followed in plies. `next` gives the
/// positions one move on (none once the game is over); `at_end` says how a position with no
/// move ends for its player: `Some(true)` won, `Some(false)` lost, `None` drawn.
#[cfg(test)]
pub(super) fn by_plain_search<P>(
    position: &P,
    next: &impl Fn(&P) -> Vec<P>,
    at_end: &impl Fn(&P) -> Option<bool>,
) -> Verdict {
    /// Whether the player wins (`None`: a draw) and the plies the game lasts.
    fn search<P>(
        position: &P,
        next: &impl Fn(&P) -> Vec<P>,
        at_end: &impl Fn(&P) -> Option<bool>,
    ) -> (Option<bool>, u32) {
        let after: Vec<(Option<bool>, u32)> = next(position)
            .iter()
            .map(|p| search(p, next, at_end))
            .collect();
        if after.is_empty() {
            return (at_end(position), 0);
        }
        let lasting = |&(_, p): &(Option<bool>, u32)| p + 1;
        let opponent_ends = |end| after.iter().filter(move |(e, _)| *e == end);
        if let Some(plies) = opponent_ends(Some(false)).map(lasting).min() {
            (Some(true), plies)
        } else if opponent_ends(None).next().is_some() {
            (None, 0)
        } else {
            (Some(false), after.iter().map(lasting).max().unwrap_or(0))
        }
    }
    match search(position, next, at_end) {
        (Some(true), p) => Verdict::wins_in_plies(p),
        (Some(false), p) => Verdict::loses_in_plies(p),
        (None, _) => Verdict::DRAW,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_turns_the_opponents_verdict_round_and_adds_its_ply() {
        let move_leaving = Verdict::of_move_leaving;
        assert_eq!(
            move_leaving(Verdict::loses_in_plies(0)),
            Verdict::wins_in_plies(1)
        );
        assert_eq!(
            move_leaving(Verdict::wins_in_plies(3)),
            Verdict::loses_in_plies(4)
        );
        assert_eq!(move_leaving(Verdict::DRAW), Verdict::DRAW);
    }

    #[test]
    fn moves_count_the_players_own_plies_the_next_one_included() {
        // The player makes plies 1, 3, 5, ...: a win on its second turn is 3 plies when it
        // takes the last object, 4 when the opponent is made to (misère).
        for (plies, moves) in [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3)] {
            assert_eq!(Verdict::wins_in_plies(plies).moves(), Some(moves));
            assert_eq!(Verdict::loses_in_plies(plies).moves(), Some(moves));
        }
        assert_eq!(Verdict::DRAW.moves(), None);
    }

    #[test]
    fn the_better_verdict_wins_sooner_or_loses_later() {
        let (win, loss) = (Verdict::wins_in_plies, Verdict::loses_in_plies);
        assert_eq!(win(3).better(win(1)), win(1));
        assert_eq!(loss(3).better(loss(1)), loss(3));
        assert_eq!(loss(9).better(win(4)), win(4));
        assert_eq!(loss(9).better(Verdict::DRAW), Verdict::DRAW);
        assert_eq!(Verdict::DRAW.better(win(7)), win(7));
    }

    #[test]
    fn a_search_value_counts_plies_from_the_root() {
        assert_eq!(Verdict::from_search_value(9), Verdict::wins_in_plies(1));
        assert_eq!(Verdict::from_search_value(-5), Verdict::loses_in_plies(5));
        assert_eq!(Verdict::from_search_value(0), Verdict::DRAW);
        assert_eq!(Verdict::from_search_value(-WIN), Verdict::loses_in_plies(0));
    }

    #[test]
    fn a_verdict_gives_back_the_search_value_it_came_from() {
        for value in [9, 7, 1, 0, -1, -6, -WIN] {
            assert_eq!(Verdict::from_search_value(value).search_value(), value);
        }
        assert_eq!(
            Verdict::of_move_leaving(Verdict::loses_in_plies(0)).search_value(),
            9
        );
    }

    #[test]
    fn verdicts_read_as_words_naming_the_unit() {
        let (win, loss) = (Verdict::wins_in_plies, Verdict::loses_in_plies);
        assert_eq!(win(1).to_string(), "wins in 1 move");
        assert_eq!(win(3).to_string(), "wins in 2 moves");
        assert_eq!(win(4).to_string(), "wins in 2 moves");
        assert_eq!(loss(2).to_string(), "loses in 1 move");
        assert_eq!(loss(5).to_string(), "loses in 3 moves");
        assert_eq!(loss(0).to_string(), "loses at once");
        assert_eq!(win(0).to_string(), "wins at once");
        assert_eq!(Verdict::DRAW.to_string(), "draw");
    }
}
