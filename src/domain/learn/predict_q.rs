//! "Predict, then check" for Q-learning (issue 15 §3): before an update of a stepped
//! self-play game is shown, the student is asked Q(s, a) after it, and the answer is graded
//! against the [`Update`] the learner itself made (its `new`), never against a second
//! account of the rule. A wrong answer gets the rule with this update's numbers; the
//! common misconceptions are told apart by working out the number each wrong rule gives
//! from the same update: the target taken whole (α forgotten), the next position's value
//! negated, the reward's sign flipped, the old Q kept.

use super::qlearning::Update;

/// How close an answer must be: half the last of the two decimals answers are written to.
pub const TOLERANCE: f64 = 0.005;

/// The most characters an answer takes (`-0.125`, with room for one more digit).
pub const ANSWER_LIMIT: usize = 7;

/// A wrong answer's mistake, each the number a wrong version of the rule gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QMistake {
    /// The target itself: Q jumps all the way, as if α were 1.
    ForgotAlpha,
    /// max Q(s′,·) negated, as if s′ were the opponent's position: here s′ is the mover's
    /// own next position, so its value counts as it is.
    NegatedFuture,
    /// The reward with its sign flipped.
    RewardSign,
    /// Q as it was before the update.
    OldKept,
    /// Some other number.
    Other,
}

/// The grade of one answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QGrade {
    /// The answer as read.
    pub given: f64,
    /// `None` when the answer is right.
    pub mistake: Option<QMistake>,
}

/// The question before `update` is shown; `mv` is the move as the pane writes it.
pub fn question(update: &Update, mv: &str) -> String {
    format!(
        "Predict: Q({}, {mv}) after this update? (2 decimals)",
        update.state
    )
}

/// Reads a typed answer: a number such as `0.5`, `-0.25` or `+1`.
///
/// # Errors
/// What was wrong with the text, as the status line says it.
pub fn read(text: &str) -> Result<f64, String> {
    let text = text.trim();
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{text:?} is not a number: type one such as 0.5 or -0.25"))
}

/// The target of the update: r + max Q(s′,·), as the learner adds it.
pub fn target(update: &Update) -> f64 {
    update.reward + update.best_future
}

/// What the rule gives with `target` in place of the learner's.
fn with_target(update: &Update, target: f64) -> f64 {
    update.old + update.alpha * (target - update.old)
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE + 1e-9
}

/// Grades `given` against the learner's own new value: right within [`TOLERANCE`]; else the
/// first misconception whose number it matches.
pub fn grade(update: &Update, given: f64) -> QGrade {
    let wrong_rules = [
        (QMistake::ForgotAlpha, target(update)),
        (
            QMistake::NegatedFuture,
            with_target(update, update.reward - update.best_future),
        ),
        (
            QMistake::RewardSign,
            with_target(update, -update.reward + update.best_future),
        ),
        (QMistake::OldKept, update.old),
    ];
    let mistake = if near(given, update.new) {
        None
    } else {
        Some(
            wrong_rules
                .iter()
                .find(|&&(_, number)| near(given, number))
                .map_or(QMistake::Other, |&(mistake, _)| mistake),
        )
    };
    QGrade { given, mistake }
}

/// A number as the words write it: up to three decimals, no trailing zeros (`0.5`, `-0.317`).
pub fn num(x: f64) -> String {
    let text = format!("{x:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// A number inside a formula: negatives in brackets, so `− (-0.5)` reads plainly.
fn term(x: f64) -> String {
    if num(x).starts_with('-') {
        format!("({})", num(x))
    } else {
        num(x)
    }
}

/// The update rule with this update's numbers: `Q ← Q + α·(target − Q) = … = 0.5`.
pub fn rule(update: &Update) -> String {
    format!(
        "Q ← Q + α·(target − Q) = {} + {}·({} − {}) = {}",
        num(update.old),
        num(update.alpha),
        term(target(update)),
        term(update.old),
        num(update.new)
    )
}

/// The target with its parts: `target = r + max Q(s′,·) = 0 + 0.75 = 0.75`.
fn target_words(update: &Update) -> String {
    format!(
        "target = r + max Q(s′,·) = {} + {} = {}",
        num(update.reward),
        term(update.best_future),
        num(target(update))
    )
}

impl QGrade {
    /// The grade in words: the rule that decides it, with the numbers that show it.
    pub fn words(&self, update: &Update) -> String {
        let rule = rule(update);
        match self.mistake {
            None => format!("Right (within ±{TOLERANCE}): {rule}"),
            Some(QMistake::ForgotAlpha) => format!(
                "Wrong: {} is the target itself; Q moves only α of the way to it: {rule}",
                num(self.given)
            ),
            Some(QMistake::NegatedFuture) => format!(
                "Wrong target: no sign flip, s′ is the mover's own next position: {}; {rule}",
                target_words(update)
            ),
            Some(QMistake::RewardSign) => format!(
                "Wrong: the reward's sign: r = {} for this move, so {}; {rule}",
                num(update.reward),
                target_words(update)
            ),
            Some(QMistake::OldKept) => {
                format!("Wrong: that is Q before; the update moves it toward the target: {rule}")
            }
            Some(QMistake::Other) => format!("Wrong: {}; {rule}", target_words(update)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::nim::{NimMove, Piles};

    fn update(old: f64, reward: f64, best_future: f64) -> Update {
        let new = old + 0.5 * (reward + best_future - old);
        Update {
            state: Piles::new(&[1, 3]).unwrap(),
            mv: NimMove { pile: 1, take: 2 },
            next: Piles::new(&[0, 1]).unwrap(),
            old,
            reward,
            best_future,
            alpha: 0.5,
            new,
        }
    }

    fn mistake(u: &Update, given: f64) -> Option<QMistake> {
        grade(u, given).mistake
    }

    #[test]
    fn the_learners_new_value_is_right_within_half_the_last_decimal() {
        let u = update(-0.117, 0.0, -0.516);
        assert_eq!(mistake(&u, u.new), None);
        assert_eq!(mistake(&u, -0.32), None, "-0.3165 to two decimals");
        assert_eq!(mistake(&u, -0.33), Some(QMistake::Other));
    }

    #[test]
    fn the_rule_is_written_with_this_updates_numbers() {
        let u = update(0.0, 1.0, 0.0);
        assert_eq!(rule(&u), "Q ← Q + α·(target − Q) = 0 + 0.5·(1 − 0) = 0.5");
        let said = grade(&u, 0.5).words(&u);
        assert!(said.starts_with("Right (within ±0.005): Q ← Q"), "{said}");
    }

    #[test]
    fn the_target_taken_whole_is_forgetting_alpha() {
        let u = update(0.0, 1.0, 0.0);
        assert_eq!(mistake(&u, 1.0), Some(QMistake::ForgotAlpha));
        let said = grade(&u, 1.0).words(&u);
        assert!(said.contains("1 is the target itself"), "{said}");
        assert!(said.ends_with("= 0.5"), "{said}");
    }

    #[test]
    fn a_negated_next_value_is_the_wrong_target() {
        let u = update(0.25, 0.0, 0.75);
        // Right: 0.25 + 0.5·(0.75 − 0.25) = 0.5; negated: 0.25 + 0.5·(−0.75 − 0.25) = −0.25.
        assert_eq!(mistake(&u, -0.25), Some(QMistake::NegatedFuture));
        let said = grade(&u, -0.25).words(&u);
        assert!(
            said.contains("target = r + max Q(s′,·) = 0 + 0.75 = 0.75"),
            "{said}"
        );
    }

    #[test]
    fn a_flipped_reward_and_the_old_value_have_their_own_words() {
        let u = update(-1.0, 1.0, 0.0);
        // Right: -1 + 0.5·(1 − (-1)) = 0; flipped reward: -1 + 0.5·(-1 + 1) = -1 = old.
        assert!(u.new.abs() < 1e-12);
        assert_eq!(mistake(&u, -1.0), Some(QMistake::RewardSign));
        let u = update(0.5, 0.0, 0.25);
        assert_eq!(mistake(&u, 0.5), Some(QMistake::OldKept));
        assert!(grade(&u, 0.5).words(&u).contains("that is Q before"));
        let u = update(0.5, 0.0, -0.5);
        assert_eq!(
            rule(&u),
            "Q ← Q + α·(target − Q) = 0.5 + 0.5·((-0.5) − 0.5) = 0"
        );
    }

    #[test]
    fn answers_are_read_as_numbers() {
        assert_eq!(read("0.5"), Ok(0.5));
        assert_eq!(read("-.25"), Ok(-0.25));
        assert_eq!(read("+1"), Ok(1.0));
        assert!(read("-").is_err());
        assert!(read("").is_err());
        assert!(read("inf").is_err());
    }
}
