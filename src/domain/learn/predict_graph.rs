//! "Predict, then check" for the State-Graph learner (issue 15 §3): before a stepped game is
//! learned, the student is asked the new weight of one edge the game used, and the answer
//! is graded against the weight the learner's own `reinforce` left there. The
//! misconceptions are told apart by the number each wrong rule gives: the loser's edges
//! rewarded (the change with its sign flipped), the change taken as the new weight (the old
//! weight forgotten), the weight left as it was.

use super::state_graph::{Edge, Player};

/// A wrong answer's mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphMistake {
    /// +1 for the loser's edge or -1 for the winner's: winner and loser mixed up.
    SidesSwapped,
    /// The change alone (+1 or -1), as if it replaced the weight instead of adding to it.
    ChangeReplaced,
    /// The weight as it was: every edge the game used changes.
    Unchanged,
    /// Some other number.
    Other,
}

/// What the learner did to the edge asked about: the question's facts, taken from the game
/// and the learner's own result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeLearned {
    /// The edge asked about.
    pub edge: Edge,
    /// The player who took the last token, and so won.
    pub winner: Player,
    /// Its weight before the game was learned.
    pub before: i64,
    /// Its weight after, as `reinforce` left it.
    pub after: i64,
}

/// The grade of one answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphGrade {
    /// The answer.
    pub given: i64,
    /// `None` when right.
    pub mistake: Option<GraphMistake>,
}

impl EdgeLearned {
    /// The question, with the edge as the original program names its vertices.
    pub fn question(&self) -> String {
        format!(
            "Predict: the weight of {}→{} once this game is learned?",
            self.edge.from.name(),
            self.edge.to.name()
        )
    }

    /// The change the learner made: +1 or -1.
    pub const fn change(&self) -> i64 {
        self.after - self.before
    }

    /// Grades `given` against the learner's result, then against each wrong rule's number.
    pub fn grade(&self, given: i64) -> GraphGrade {
        let change = self.change();
        let wrong_rules = [
            (GraphMistake::SidesSwapped, self.before - change),
            (GraphMistake::ChangeReplaced, change),
            (GraphMistake::Unchanged, self.before),
        ];
        let mistake = (given != self.after).then(|| {
            wrong_rules
                .iter()
                .find(|&&(_, number)| number == given)
                .map_or(GraphMistake::Other, |&(mistake, _)| mistake)
        });
        GraphGrade { given, mistake }
    }

    /// Whose edge it is and why it changes so: "player 1 took the last token and won: its
    /// edges get +1".
    fn reason(&self) -> String {
        let mover = self.edge.from.player;
        let (side, sign) = if mover == self.winner {
            ("won", "+1")
        } else {
            ("lost", "-1")
        };
        format!(
            "player {} took the last token, so player {} {side}: its edges get {sign}",
            self.winner.number(),
            mover.number()
        )
    }

    /// The sum that gives the new weight: `+2 + 1 = +3`.
    fn sum(&self) -> String {
        let change = self.change();
        let op = if change < 0 { '−' } else { '+' };
        format!("{:+} {op} {} = {:+}", self.before, change.abs(), self.after)
    }
}

/// Reads a typed weight: an integer such as `3`, `-2` or `+1`.
///
/// # Errors
/// What was wrong with the text.
pub fn read(text: &str) -> Result<i64, String> {
    let text = text.trim();
    text.parse::<i64>()
        .map_err(|_| format!("{text:?} is not a weight: type a whole number such as 3 or -2"))
}

impl GraphGrade {
    /// The grade in words: the rule and the numbers that show it.
    pub fn words(&self, learned: &EdgeLearned) -> String {
        let (reason, sum) = (learned.reason(), learned.sum());
        match self.mistake {
            None => format!("Right: {reason}; {sum}"),
            Some(GraphMistake::SidesSwapped) => {
                format!("Wrong: winner and loser swapped: {reason}, not the other way; {sum}")
            }
            Some(GraphMistake::ChangeReplaced) => format!(
                "Wrong: the change adds to the weight, it does not replace it: {reason}; {sum}"
            ),
            Some(GraphMistake::Unchanged) => {
                format!("Wrong: every edge the game used changes: {reason}; {sum}")
            }
            Some(GraphMistake::Other) => format!("Wrong: {reason}; {sum}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::learn::state_graph::Vertex;

    fn learned(mover: Player, winner: Player, before: i64) -> EdgeLearned {
        let change = if mover == winner { 1 } else { -1 };
        EdgeLearned {
            edge: Edge {
                from: Vertex {
                    player: mover,
                    tokens: 5,
                },
                to: Vertex {
                    player: mover.other(),
                    tokens: 3,
                },
            },
            winner,
            before,
            after: before + change,
        }
    }

    #[test]
    fn the_learners_weight_is_right_and_says_why() {
        let l = learned(Player::One, Player::One, 2);
        let g = l.grade(3);
        assert_eq!(g.mistake, None);
        assert_eq!(
            g.words(&l),
            "Right: player 1 took the last token, so player 1 won: its edges get +1; +2 + 1 = +3"
        );
        assert_eq!(
            l.question(),
            "Predict: the weight of p1-5→p2-3 once this game is learned?"
        );
    }

    #[test]
    fn each_wrong_rule_has_its_own_words() {
        let l = learned(Player::Two, Player::One, 2);
        assert_eq!(l.after, 1);
        assert_eq!(l.grade(3).mistake, Some(GraphMistake::SidesSwapped));
        assert!(l.grade(3).words(&l).contains("winner and loser swapped"));
        assert_eq!(l.grade(-1).mistake, Some(GraphMistake::ChangeReplaced));
        assert!(l.grade(-1).words(&l).contains("+2 − 1 = +1"));
        assert_eq!(l.grade(2).mistake, Some(GraphMistake::Unchanged));
        assert_eq!(l.grade(7).mistake, Some(GraphMistake::Other));
    }

    #[test]
    fn weights_are_read_as_whole_numbers() {
        assert_eq!(read("-2"), Ok(-2));
        assert_eq!(read("+3"), Ok(3));
        assert!(read("0.5").is_err());
    }
}
