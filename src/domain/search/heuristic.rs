//! What a depth-limited search puts at the positions where it stops looking: an evaluation a
//! student can check by hand. [`Evaluate`] is the small trait the search needs; Connect
//! Four's evaluation counts, for each player, the lines of four it could still complete that
//! already hold three or two of its discs, and its discs in the centre column.

use crate::domain::games::Game;
use crate::domain::games::connect4::{Board, Disc, FOURS, column_cells};
use std::fmt::Debug;

/// A game whose unfinished positions can be scored: what a depth-limited search needs beyond
/// the rules.
pub trait Evaluate: Game {
    /// What the evaluation counted in a position, kept with the tree so a view can show the
    /// arithmetic that gave a leaf its score.
    type Counts: Copy + Debug + PartialEq;
    /// What the evaluation counts in this position.
    fn counts(&self) -> Self::Counts;
    /// The score of counts from `player`'s side: positive when they favour `player`.
    fn score(counts: &Self::Counts, player: Self::Player) -> i32;
    /// A number identifying the position, for the transposition table.
    fn key(&self) -> u64;
}

/// Points for a line of four holding three of a player's discs and none of the other's.
pub const THREE_POINTS: i32 = 5;
/// Points for such a line holding two.
pub const TWO_POINTS: i32 = 2;
/// Points for each disc in the centre column, which lies on the most lines.
pub const CENTRE_POINTS: i32 = 3;

/// One player's side of a Connect Four evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Terms {
    /// Lines of four with three of the player's discs and an empty cell.
    pub threes: u8,
    /// Lines of four with two of the player's discs and two empty cells.
    pub twos: u8,
    /// The player's discs in the centre column.
    pub centre: u8,
}

impl Terms {
    /// The player's points: each term times its weight.
    pub fn points(&self) -> i32 {
        i32::from(self.threes) * THREE_POINTS
            + i32::from(self.twos) * TWO_POINTS
            + i32::from(self.centre) * CENTRE_POINTS
    }

    /// The sum written out: `2×5 + 3×2 + 1×3 = 19`.
    pub fn written(&self) -> String {
        format!(
            "{}×{THREE_POINTS} + {}×{TWO_POINTS} + {}×{CENTRE_POINTS} = {}",
            self.threes,
            self.twos,
            self.centre,
            self.points()
        )
    }
}

/// Connect Four's evaluation of a position: each player's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Connect4Counts {
    /// Red's terms.
    pub red: Terms,
    /// Yellow's terms.
    pub yellow: Terms,
}

impl Connect4Counts {
    /// The terms of `player`.
    pub const fn of(&self, player: Disc) -> Terms {
        match player {
            Disc::Red => self.red,
            Disc::Yellow => self.yellow,
        }
    }

    /// The score's arithmetic from `player`'s side, as the tree pane shows it: its points
    /// minus the other's, `19 - 12 = +7`.
    pub fn arithmetic(&self, player: Disc) -> String {
        let mine = self.of(player).points();
        let theirs = self.of(player.other()).points();
        format!("{mine} - {theirs} = {:+}", mine - theirs)
    }
}

/// The terms of the player holding `discs`, the other holding `others`.
fn terms(discs: u64, others: u64) -> Terms {
    let mut terms = Terms {
        centre: (discs & column_cells(3)).count_ones() as u8,
        ..Terms::default()
    };
    for line in FOURS {
        if line & others != 0 {
            continue;
        }
        match (line & discs).count_ones() {
            3 => terms.threes += 1,
            2 => terms.twos += 1,
            _ => {}
        }
    }
    terms
}

impl Evaluate for Board {
    type Counts = Connect4Counts;

    fn counts(&self) -> Connect4Counts {
        let red = self.discs(Disc::Red);
        let yellow = self.discs(Disc::Yellow);
        Connect4Counts {
            red: terms(red, yellow),
            yellow: terms(yellow, red),
        }
    }

    fn score(counts: &Connect4Counts, player: Disc) -> i32 {
        counts.of(player).points() - counts.of(player.other()).points()
    }

    fn key(&self) -> u64 {
        Board::key(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &str) -> Board {
        Board::parse(moves).unwrap()
    }

    #[test]
    fn the_empty_board_scores_nothing_for_either_side() {
        let counts = board("").counts();
        assert_eq!(counts, Connect4Counts::default());
        assert_eq!(Board::score(&counts, Disc::Red), 0);
    }

    #[test]
    fn the_terms_count_open_lines_and_centre_discs() {
        // Red on columns 3 and 4 of the bottom row, yellow above them: red's two lies on
        // three open lines of the bottom row (1-4, 2-5, 3-6), and one disc in the centre.
        let position = board("3344");
        let red = position.counts().red;
        assert_eq!(red.threes, 0);
        assert_eq!(red.twos, 3, "{red:?}");
        assert_eq!(red.centre, 1);
        assert_eq!(red.points(), 3 * TWO_POINTS + CENTRE_POINTS);
        // A line with a disc of the other player counts for nobody.
        let blocked = board("3344").counts().yellow;
        assert_eq!(blocked.centre, 1);
    }

    #[test]
    fn a_three_counts_once_per_open_line() {
        // Red holds columns 1-3 of the bottom row: one open line (1-4) holds the three.
        let position = board("112233");
        let red = position.counts().red;
        assert_eq!(red.threes, 1, "{red:?}");
    }

    #[test]
    fn the_score_is_one_side_minus_the_other_and_the_arithmetic_says_so() {
        let counts = board("3344").counts();
        let red = counts.red.points();
        let yellow = counts.yellow.points();
        assert_eq!(Board::score(&counts, Disc::Red), red - yellow);
        assert_eq!(Board::score(&counts, Disc::Yellow), yellow - red);
        assert_eq!(
            counts.arithmetic(Disc::Red),
            format!("{red} - {yellow} = {:+}", red - yellow)
        );
        assert_eq!(counts.red.written(), format!("0×5 + 3×2 + 1×3 = {red}"));
    }
}
