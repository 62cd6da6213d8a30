//! "Predict, then check" (issue 15 §3): before some events of a stepped minimax or
//! alpha-beta search, the student is asked what the event will do, and the answer is graded
//! against the stepper's own next event, not against a second account of the rules.
//!
//! Three questions are asked: before a `Return` of an inner node, the value it hands up;
//! under alpha-beta, after a child returned to a node that still has moves to try, whether
//! the node cuts off the rest and, when it does not, the bound the child's value moved (α
//! at a MAX node, β at a MIN node). The last two wait before the same event, in that order
//! ([`questions`]). A wrong answer gets the rule that decides it and the node that
//! shows it, with its own words for the common misconceptions (the largest child at a MIN
//! node, a sign flipped, β and α mixed up). Pure: names of nodes and moves come from the
//! caller, so the tab words them as its tree pane does.

use super::recursive::Algorithm;
use super::score::INFINITY;
use super::stepper::{EventKind, NodeId, Stepper};
use crate::domain::games::Game;

/// What the student is asked before the next event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// "What value does this node return?" (before its `Return`).
    Value {
        /// The node about to return.
        node: NodeId,
    },
    /// "Is there a cut-off here?" (after a child returned, before the next child or the
    /// cut-off).
    Cutoff {
        /// The node whose window the last child's value may have closed.
        node: NodeId,
    },
    /// "What is α (MAX) or β (MIN) at this node now?" (after a child returned and no
    /// cut-off follows).
    Bound {
        /// The node whose own bound the child's value may have moved.
        node: NodeId,
    },
    /// "Which children does this node prune?" (after a right "yes" to the cut-off
    /// question: the cut-off follows).
    Pruned {
        /// The node about to cut off.
        node: NodeId,
    },
}

/// An answer as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A value, as scores are written (`-4`, `+3`, `0`).
    Value(i32),
    /// Yes (a cut-off) or no.
    Cut(bool),
    /// Children named (none, one or several), as bits over the node's moves in the order
    /// they are tried: bit `i` is the `i`-th move (what [`read_children`] reads).
    Children(u64),
}

/// A wrong answer's mistake: which rule it broke, so the words can name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mistake {
    /// The largest child value at a MIN node, or the smallest at a MAX node.
    OppositeExtreme,
    /// The right value with its sign flipped (the negamax habit; here every value is from
    /// MAX's view).
    SignFlipped,
    /// Some other value.
    WrongValue,
    /// "No" where the window closed.
    MissedCutoff,
    /// "Yes" where the value only passed the other bound (α at a MAX node, β at a MIN
    /// node): the β/α mix-up.
    BoundMixUp,
    /// "Yes" where the window stays open.
    NoCutoff,
    /// The bound the child's value should have moved left where it was, or the other
    /// bound given (β at a MAX node, α at a MIN node).
    WrongBound,
    /// The child's value taken as the bound where it does not improve it: α only rises at
    /// a MAX node, β only falls at a MIN node.
    NoImprovement,
    /// A child already searched named as pruned.
    SearchedNamed,
    /// Only the next child named, where the cut-off skips more.
    OnlyNext,
    /// "None" where the cut-off skips children (it always skips at least one).
    NonePruned,
    /// Some other set of children.
    WrongChildren,
}

/// The grade of one answer, with what the words need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grade {
    /// The question graded.
    pub question: Question,
    /// `None` when the answer is right.
    pub mistake: Option<Mistake>,
    /// The node's value (for a cut-off question: after its last child returned).
    pub value: i32,
    /// The child that shows it: the one whose value the node took (a value question) or
    /// the one that just returned (a cut-off question).
    pub child: Option<NodeId>,
    /// True when the engine's next event is a cut-off (cut-off and children questions).
    pub cuts: bool,
    /// The children answered (children questions only), as [`Answer::Children`] has them.
    pub named: u64,
}

/// The first question to ask before the stepper's next event, if one is asked.
pub fn question<G: Game>(stepper: &Stepper<G>) -> Option<Question> {
    questions(stepper).first().copied()
}

/// Every question asked before the stepper's next event, in the order they are asked: the
/// cut-off first, then, when the search goes on to the next child, the bound, or, when the
/// cut-off comes, the children it prunes. (Asking either only then is safe: it comes after
/// the cut-off was answered. The children are a follow-up to a right "yes": a caller whose
/// student answered the cut-off wrong skips it, since the words of that grade name them.)
pub fn questions<G: Game>(stepper: &Stepper<G>) -> Vec<Question> {
    if stepper.at_node_limit() {
        return Vec::new();
    }
    let Some(next) = stepper.peek() else {
        return Vec::new();
    };
    match next.kind {
        // A leaf's value was shown when it was evaluated: handing it up asks nothing.
        EventKind::Return if !stepper.node(next.node).terminal => {
            vec![Question::Value { node: next.node }]
        }
        EventKind::Cutoff | EventKind::Enter if stepper.algorithm() == Algorithm::AlphaBeta => {
            let (Some(top), Some(last)) = (stepper.current(), stepper.last_event()) else {
                return Vec::new();
            };
            if last.kind != EventKind::Return || stepper.node(last.node).parent() != Some(top) {
                return Vec::new();
            }
            let follow_up = if next.kind == EventKind::Enter {
                Question::Bound { node: top }
            } else {
                Question::Pruned { node: top }
            };
            vec![Question::Cutoff { node: top }, follow_up]
        }
        _ => Vec::new(),
    }
}

/// The child of `node` that returned last: what a cut-off or a bound question is about.
fn returned<G: Game>(
    stepper: &Stepper<G>,
    node: NodeId,
    name: &dyn Fn(NodeId) -> String,
) -> String {
    stepper
        .children(node)
        .last()
        .map_or_else(|| "a child".into(), name)
}

impl Question {
    /// What the question asks, in a word: the same however the question is worded.
    pub const fn kind(self) -> &'static str {
        match self {
            Self::Value { .. } => "value",
            Self::Cutoff { .. } => "cut-off",
            Self::Bound { .. } => "bound",
            Self::Pruned { .. } => "pruned",
        }
    }

    /// The node the question is about.
    pub const fn node(self) -> NodeId {
        match self {
            Self::Value { node }
            | Self::Cutoff { node }
            | Self::Bound { node }
            | Self::Pruned { node } => node,
        }
    }

    /// The question in words, with nodes named by `name`.
    pub fn text<G: Game>(self, stepper: &Stepper<G>, name: &dyn Fn(NodeId) -> String) -> String {
        match self {
            Self::Value { node } => {
                let side = side(stepper, node);
                match stepper.node(node).parent() {
                    Some(parent) => format!(
                        "Predict: what value does {} ({side}) return to {}?",
                        name(node),
                        name(parent)
                    ),
                    None => format!("Predict: what value does {} ({side}) return?", name(node)),
                }
            }
            Self::Cutoff { node } => format!(
                "Predict: {} returned to {} ({}): is there a cut-off now? y/n",
                returned(stepper, node, name),
                name(node),
                side(stepper, node)
            ),
            Self::Bound { node } => format!(
                "Predict: {} returned to {} ({}): what is {} there now?",
                returned(stepper, node, name),
                name(node),
                side(stepper, node),
                own_bound(stepper.node(node).maximizing),
            ),
            Self::Pruned { node } => format!(
                "Predict: which children does {} ({}) prune? Name them, or none:",
                name(node),
                side(stepper, node)
            ),
        }
    }

    /// True for the question answered with a list of children (read by
    /// [`read_children`], which knows the moves' names).
    pub const fn takes_children(self) -> bool {
        matches!(self, Self::Pruned { .. })
    }

    /// Reads a typed answer: an integer for a value, `y` or `n` for a cut-off. Children
    /// are named as the caller names moves: [`read_children`] reads them.
    ///
    /// # Errors
    /// What was wrong with the text, as the status line says it.
    pub fn read(self, text: &str) -> Result<Answer, String> {
        let text = text.trim();
        match self {
            Self::Value { .. } | Self::Bound { .. } => text
                .parse::<i32>()
                .ok()
                .filter(|v| v.abs() < INFINITY)
                .map(Answer::Value)
                .ok_or_else(|| format!("{text:?} is not a value: type one such as -4, +3 or 0")),
            Self::Cutoff { .. } => match text {
                "y" | "Y" => Ok(Answer::Cut(true)),
                "n" | "N" => Ok(Answer::Cut(false)),
                _ => Err("Answer y (a cut-off) or n (none)".into()),
            },
            Self::Pruned { .. } => Err("Name the children as the tree does, or none".into()),
        }
    }
}

/// The moves of node `id` in the order its children are tried (all of them: entered or
/// not), which the bits of [`Answer::Children`] count over.
fn moves_in_order<G: Game>(stepper: &Stepper<G>, id: NodeId) -> Vec<G::Move> {
    stepper
        .order()
        .moves(&stepper.position(id))
        .as_ref()
        .to_vec()
}

/// Reads a list of children of node `id` (here `here`, as the question names it): moves
/// as `label` writes them (`O1`, any case) or by their number alone (`1`), separated by
/// spaces or commas, in any order; an empty answer or `none` is no child.
///
/// # Errors
/// A word that names no move of the node, as the status line says it.
pub fn read_children<G: Game>(
    stepper: &Stepper<G>,
    id: NodeId,
    text: &str,
    here: &str,
    label: &dyn Fn(G::Move) -> String,
) -> Result<Answer, String> {
    let labels: Vec<String> = moves_in_order(stepper, id).into_iter().map(label).collect();
    let words: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if let [word] = words[..]
        && word.eq_ignore_ascii_case("none")
    {
        return Ok(Answer::Children(0));
    }
    let mut bits = 0u64;
    for word in words {
        let index = labels
            .iter()
            .position(|l| l.eq_ignore_ascii_case(word) || number_of(l) == Some(word))
            .filter(|&i| i < 64)
            .ok_or_else(|| {
                format!(
                    "{word:?} is no move at {here}: its moves are {}; or type none",
                    labels.join(" ")
                )
            })?;
        bits |= 1 << index;
    }
    Ok(Answer::Children(bits))
}

/// The number in a move's label (`O7` → `7`, `+3=10` → `3`): a move may be typed by it.
fn number_of(label: &str) -> Option<&str> {
    let start = label.find(|c: char| c.is_ascii_digit())?;
    let rest = &label[start..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// Children bits written back as the tree names the moves, in the order tried (`O1 O3`,
/// or `none`): one spelling of each answer, so a class's answers are counted together.
pub fn children_text<G: Game>(
    stepper: &Stepper<G>,
    id: NodeId,
    bits: u64,
    label: &dyn Fn(G::Move) -> String,
) -> String {
    let named: Vec<String> = moves_in_order(stepper, id)
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| i < 64 && bits & (1 << i) != 0)
        .map(|(_, mv)| label(mv))
        .collect();
    if named.is_empty() {
        "none".into()
    } else {
        named.join(" ")
    }
}

/// The children a cut-off at `id` skips, as bits: every move not yet tried when it comes.
fn pruned_bits<G: Game>(stepper: &Stepper<G>, id: NodeId) -> u64 {
    let node = stepper.node(id);
    let (tried, count) = (u32::from(node.children), u32::from(node.move_count).min(64));
    (tried..count).fold(0, |bits, i| bits | 1 << i)
}

/// The bound a node's own children move: α at MAX, β at MIN.
const fn own_bound(maximizing: bool) -> &'static str {
    if maximizing { "α" } else { "β" }
}

fn side<G: Game>(stepper: &Stepper<G>, node: NodeId) -> &'static str {
    if stepper.node(node).maximizing {
        "MAX"
    } else {
        "MIN"
    }
}

/// Grades `answer` to `question` against what the stepper's next event will do; `None`
/// when the question is not the one waiting or the answer is of the other kind.
pub fn grade<G: Game>(stepper: &Stepper<G>, question: Question, answer: Answer) -> Option<Grade> {
    if !questions(stepper).contains(&question) {
        return None;
    }
    let id = question.node();
    let node = stepper.node(id);
    let value = i32::from(node.value?);
    match (question, answer) {
        (Question::Value { .. }, Answer::Value(given)) => {
            let child = stepper
                .children(id)
                .find(|&c| stepper.node(c).mv == node.best_move);
            let values: Vec<i32> = stepper
                .children(id)
                .filter_map(|c| stepper.node(c).value.map(i32::from))
                .collect();
            let opposite = if node.maximizing {
                values.iter().min()
            } else {
                values.iter().max()
            };
            let mistake = if given == value {
                None
            } else if opposite == Some(&given) {
                Some(Mistake::OppositeExtreme)
            } else if given == -value {
                Some(Mistake::SignFlipped)
            } else {
                Some(Mistake::WrongValue)
            };
            Some(Grade {
                question,
                mistake,
                value,
                child,
                cuts: false,
                named: 0,
            })
        }
        (Question::Cutoff { .. }, Answer::Cut(yes)) => {
            let cuts = stepper.peek()?.kind == EventKind::Cutoff;
            let (alpha_in, beta_in) = (i32::from(node.alpha_in), i32::from(node.beta_in));
            // The bound the student may have compared with instead of the one that decides.
            let passes_other = if node.maximizing {
                alpha_in > -INFINITY && value >= alpha_in
            } else {
                beta_in < INFINITY && value <= beta_in
            };
            let mistake = match (yes, cuts) {
                (true, true) | (false, false) => None,
                (false, true) => Some(Mistake::MissedCutoff),
                (true, false) if passes_other => Some(Mistake::BoundMixUp),
                (true, false) => Some(Mistake::NoCutoff),
            };
            Some(Grade {
                question,
                mistake,
                value,
                child: stepper.children(id).last(),
                cuts,
                named: 0,
            })
        }
        (Question::Bound { .. }, Answer::Value(given)) => Some(grade_bound(stepper, id, given)),
        (Question::Pruned { .. }, Answer::Children(named)) => {
            let pruned = pruned_bits(stepper, id);
            let next = pruned & pruned.wrapping_neg();
            let mistake = if named == pruned {
                None
            } else if named & !pruned & ((1u64 << node.children) - 1) != 0 {
                Some(Mistake::SearchedNamed)
            } else if named == 0 {
                Some(Mistake::NonePruned)
            } else if named == next {
                Some(Mistake::OnlyNext)
            } else {
                Some(Mistake::WrongChildren)
            };
            Some(Grade {
                question,
                mistake,
                value,
                child: stepper.children(id).last(),
                cuts: true,
                named,
            })
        }
        _ => None,
    }
}

/// The node's own bound as it stands (α at MAX, β at MIN), and as it stood before its last
/// child returned.
fn bound_now_and_before<G: Game>(stepper: &Stepper<G>, id: NodeId) -> (i32, i32) {
    let node = stepper.node(id);
    let last = stepper.children(id).last();
    let earlier = stepper
        .children(id)
        .filter(|&c| Some(c) != last)
        .filter_map(|c| stepper.node(c).value.map(i32::from));
    if node.maximizing {
        (
            node.alpha(),
            earlier.fold(i32::from(node.alpha_in), i32::max),
        )
    } else {
        (node.beta(), earlier.fold(i32::from(node.beta_in), i32::min))
    }
}

/// Grades the bound at `id` after its last child returned: the bound as the stepper holds
/// it now is the answer.
fn grade_bound<G: Game>(stepper: &Stepper<G>, id: NodeId, given: i32) -> Grade {
    let node = stepper.node(id);
    let (now, before) = bound_now_and_before(stepper, id);
    let child = stepper.children(id).last();
    let child_value = child.and_then(|c| stepper.node(c).value).map(i32::from);
    let other = if node.maximizing {
        node.beta()
    } else {
        node.alpha()
    };
    let mistake = if given == now {
        None
    } else if Some(given) == child_value {
        Some(Mistake::NoImprovement)
    } else if (given == before && now != before) || (given == other && other.abs() < INFINITY) {
        Some(Mistake::WrongBound)
    } else if given == -now {
        Some(Mistake::SignFlipped)
    } else {
        Some(Mistake::WrongValue)
    };
    Grade {
        question: Question::Bound { node: id },
        mistake,
        value: now,
        child,
        cuts: false,
        named: 0,
    }
}

/// The right answer to `question`, as the engine's next event bears it out: what a reveal
/// shows when no answer was given.
pub fn right_answer<G: Game>(stepper: &Stepper<G>, question: Question) -> Option<Answer> {
    let node = stepper.node(question.node());
    let candidates = match question {
        Question::Value { .. } => vec![Answer::Value(i32::from(node.value?))],
        Question::Cutoff { .. } => vec![Answer::Cut(true), Answer::Cut(false)],
        Question::Bound { .. } => vec![Answer::Value(
            bound_now_and_before(stepper, question.node()).0,
        )],
        Question::Pruned { node } => vec![Answer::Children(pruned_bits(stepper, node))],
    };
    candidates
        .into_iter()
        .find(|&a| grade(stepper, question, a).is_some_and(|g| g.mistake.is_none()))
}

impl Grade {
    /// The grade in words: the rule that decides it and the node that shows it. `name`
    /// names a node; `pruned` lists the moves a cut-off at a node skips (`X7 X9`);
    /// `signed` writes a value or bound (`+3`, `-∞`: the number formats sit above the
    /// searches, so the caller hands them in).
    pub fn words<G: Game>(
        &self,
        stepper: &Stepper<G>,
        name: &dyn Fn(NodeId) -> String,
        pruned: &dyn Fn(NodeId) -> String,
        signed: &dyn Fn(i32) -> String,
    ) -> String {
        let id = self.question.node();
        let node = stepper.node(id);
        let here = name(id);
        let v = signed(self.value);
        let child = self.child.map_or_else(|| "a child".into(), name);
        let (alpha, beta) = (
            signed(i32::from(node.alpha_in)),
            signed(i32::from(node.beta_in)),
        );
        let (side, rule) = if node.maximizing {
            ("MAX", "the largest")
        } else {
            ("MIN", "the smallest")
        };
        match (self.question, self.mistake) {
            (Question::Value { .. }, None) => {
                format!("Right: {here} returns {v} ({child} gave it)")
            }
            (Question::Value { .. }, Some(Mistake::OppositeExtreme)) => {
                let other = if node.maximizing {
                    "smallest"
                } else {
                    "largest"
                };
                format!(
                    "Wrong: at a {side} node the value is {rule} value found, not the {other}: \
                     {child} returned {v}, so {here} returns {v}"
                )
            }
            (Question::Value { .. }, Some(Mistake::SignFlipped)) => format!(
                "Wrong: no sign flip here: every value is from MAX's view all the way up. \
                 {child} returned {v}, and {here} ({side}) hands up {v} as it is"
            ),
            (Question::Value { .. }, Some(_)) => {
                format!("Wrong: a {side} node returns {rule} value found: {child} gave {v}")
            }
            // The children pruned are the next question's answer: not told here.
            (Question::Cutoff { .. }, None) if self.cuts => format!(
                "Right: cut-off at {here}: {}",
                cut_rule(node.maximizing, &v, &alpha, &beta, true),
            ),
            (Question::Cutoff { .. }, None) => format!(
                "Right: no cut-off at {here}: {}",
                cut_rule(node.maximizing, &v, &alpha, &beta, false)
            ),
            // The node first, then the rule: the whole sentence fits the status line at 80
            // columns.
            (Question::Cutoff { .. }, Some(Mistake::MissedCutoff)) => format!(
                "Wrong: at {here} {}: a {side} node stops once {}; pruned: {}",
                cut_rule(node.maximizing, &v, &alpha, &beta, true),
                if node.maximizing {
                    "its value reaches β"
                } else {
                    "its value falls to α"
                },
                pruned(id)
            ),
            (Question::Cutoff { .. }, Some(Mistake::BoundMixUp)) => {
                if node.maximizing {
                    format!(
                        "Wrong: β, not α, cuts at a MAX node: {v} ≥ α {alpha} only raises \
                         MAX's floor; at {here} {v} < β {beta}, so the search goes on"
                    )
                } else {
                    format!(
                        "Wrong: α, not β, cuts at a MIN node: {v} ≤ β {beta} only lowers \
                         MIN's ceiling; at {here} {v} > α {alpha}, so the search goes on"
                    )
                }
            }
            (Question::Cutoff { .. }, Some(_)) => format!(
                "Wrong: a {side} node cuts off only when {}: at {here} {}",
                if node.maximizing {
                    "its value reaches β"
                } else {
                    "its value falls to α"
                },
                cut_rule(node.maximizing, &v, &alpha, &beta, false)
            ),
            (Question::Bound { .. }, mistake) => {
                self.bound_words(stepper, mistake, &here, &child, signed)
            }
            (Question::Pruned { .. }, mistake) => {
                self.pruned_words(stepper, mistake, &here, name, &pruned(id))
            }
        }
    }

    /// The words of a children question's grade: the rule (a cut-off skips every child not
    /// yet searched) with the children it skips, after the misconception's own words.
    fn pruned_words<G: Game>(
        &self,
        stepper: &Stepper<G>,
        mistake: Option<Mistake>,
        here: &str,
        name: &dyn Fn(NodeId) -> String,
        pruned: &str,
    ) -> String {
        let id = self.question.node();
        let rule = format!("a cut-off skips every child not yet searched at {here}: {pruned}");
        match mistake {
            None => format!("Right: {rule}"),
            Some(Mistake::SearchedNamed) => {
                let searched: Vec<String> = stepper
                    .children(id)
                    .enumerate()
                    .filter(|&(i, _)| i < 64 && self.named & (1 << i) != 0)
                    .map(|(_, c)| name(c))
                    .collect();
                let was = if searched.len() == 1 { "was" } else { "were" };
                format!(
                    "Wrong: {} {was} searched already; {rule}",
                    searched.join(" ")
                )
            }
            Some(Mistake::OnlyNext) => format!("Wrong: not just the next child: {rule}"),
            Some(Mistake::NonePruned) => format!("Wrong: a cut-off always prunes: {rule}"),
            Some(_) => format!("Wrong: {rule}"),
        }
    }

    /// The words of a bound question's grade: the bound's rule at this node, with the
    /// child's value and the bound before it.
    fn bound_words<G: Game>(
        &self,
        stepper: &Stepper<G>,
        mistake: Option<Mistake>,
        here: &str,
        child: &str,
        signed: &dyn Fn(i32) -> String,
    ) -> String {
        let id = self.question.node();
        let maximizing = stepper.node(id).maximizing;
        let (bound, other, side) = if maximizing {
            ("α", "β", "MAX")
        } else {
            ("β", "α", "MIN")
        };
        let (rises, pick) = if maximizing {
            ("only rises", "max")
        } else {
            ("only falls", "min")
        };
        let (now, before) = bound_now_and_before(stepper, id);
        let given = self
            .child
            .and_then(|c| stepper.node(c).value)
            .map_or_else(|| "?".into(), |v| signed(i32::from(v)));
        let (now, before) = (signed(now), signed(before));
        let moved = if now == before {
            format!("stays {now}")
        } else {
            format!("is now {now}")
        };
        match mistake {
            None => format!("Right: {bound} at {here} {moved} ({child} returned {given})"),
            Some(Mistake::NoImprovement) => format!(
                "Wrong: {bound} {rises} at a {side} node: {child}'s {given} does not improve \
                 {bound} {before}, so {bound} at {here} {moved}"
            ),
            Some(Mistake::WrongBound) => format!(
                "Wrong: at a {side} node a child's value moves {bound}, never {other}: \
                 {child} returned {given}, so {bound} at {here} {moved}"
            ),
            Some(Mistake::SignFlipped) => format!(
                "Wrong: no sign flip: every value is from MAX's view. {bound} at {here} \
                 {moved} ({child} returned {given})"
            ),
            Some(_) => format!(
                "Wrong: at a {side} node {bound} = {pick}({bound}, child): \
                 {pick}({before}, {child}'s {given}) = {now}"
            ),
        }
    }
}

/// The comparison that decides a cut-off, written as it came out (`+3 ≥ β +2`).
fn cut_rule(maximizing: bool, v: &str, alpha: &str, beta: &str, cuts: bool) -> String {
    match (maximizing, cuts) {
        (true, true) => format!("{v} ≥ β {beta}"),
        (true, false) => format!("{v} < β {beta}"),
        (false, true) => format!("{v} ≤ α {alpha}"),
        (false, false) => format!("{v} > α {alpha}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::prediction::Score;

    fn name(id: NodeId) -> String {
        format!("N{id}")
    }

    fn pruned(id: NodeId) -> String {
        format!("P{id}")
    }

    /// Values as the tests expect them (the tab hands in `numbers::signed`).
    fn signed(v: i32) -> String {
        format!("{v:+}")
    }

    /// Steps until `wanted` says the waiting question is the one to test.
    fn stepper_at(
        board: &str,
        mover: Mark,
        algorithm: Algorithm,
        wanted: impl Fn(&Stepper<Board>, Question) -> bool,
    ) -> (Stepper<Board>, Question) {
        let root = Board::parse(board, Some(mover)).unwrap();
        let mut stepper = Stepper::new(root, algorithm);
        loop {
            if let Some(&q) = questions(&stepper).iter().find(|&&q| wanted(&stepper, q)) {
                return (stepper, q);
            }
            assert!(stepper.step().is_some(), "no such question in {board}");
        }
    }

    fn words(stepper: &Stepper<Board>, q: Question, answer: Answer) -> (Option<Mistake>, String) {
        let grade = grade(stepper, q, answer).unwrap();
        (grade.mistake, grade.words(stepper, &name, &pruned, &signed))
    }

    /// A MIN node whose children returned different values.
    fn min_node_with_spread(s: &Stepper<Board>, q: Question) -> bool {
        let Question::Value { node } = q else {
            return false;
        };
        let values: Vec<i16> = s.children(node).filter_map(|c| s.node(c).value).collect();
        !s.node(node).maximizing
            && values.iter().min() != values.iter().max()
            && values.iter().all(|&v| v != 0)
    }

    #[test]
    fn the_largest_child_at_a_min_node_is_named_as_the_wrong_extreme() {
        let (s, q) = stepper_at("XO..X....", Mark::O, Algorithm::Minimax, |s, q| {
            min_node_with_spread(s, q)
        });
        let node = q.node();
        let largest = s.children(node).filter_map(|c| s.node(c).value).max();
        let (mistake, said) = words(&s, q, Answer::Value(i32::from(largest.unwrap())));
        assert_eq!(mistake, Some(Mistake::OppositeExtreme));
        assert!(
            said.contains("at a MIN node the value is the smallest value found, not the largest"),
            "{said}"
        );
    }

    #[test]
    fn the_smallest_child_at_a_max_node_is_named_as_the_wrong_extreme() {
        let (s, q) = stepper_at("XO..X....", Mark::O, Algorithm::Minimax, |s, q| {
            let Question::Value { node } = q else {
                return false;
            };
            let values: Vec<i16> = s.children(node).filter_map(|c| s.node(c).value).collect();
            s.node(node).maximizing && values.iter().min() != values.iter().max()
        });
        let smallest = s.children(q.node()).filter_map(|c| s.node(c).value).min();
        let (mistake, said) = words(&s, q, Answer::Value(i32::from(smallest.unwrap())));
        assert_eq!(mistake, Some(Mistake::OppositeExtreme), "{said}");
        assert!(said.contains("MAX node the value is the largest value found"));
    }

    #[test]
    fn a_flipped_sign_is_said_to_need_no_flip() {
        let (s, q) = stepper_at("XO..X....", Mark::O, Algorithm::Minimax, |s, q| {
            let v = s.node(q.node()).value.unwrap_or(0);
            let values: Vec<i16> = s
                .children(q.node())
                .filter_map(|c| s.node(c).value)
                .collect();
            matches!(q, Question::Value { .. }) && v != 0 && !values.contains(&-v)
        });
        let v = i32::from(s.node(q.node()).value.unwrap());
        let (mistake, said) = words(&s, q, Answer::Value(-v));
        assert_eq!(mistake, Some(Mistake::SignFlipped));
        assert!(said.contains("no sign flip"), "{said}");
        assert!(said.contains(&format!("hands up {}", signed(v))), "{said}");
    }

    #[test]
    fn any_other_wrong_value_names_the_rule_and_the_child_that_shows_it() {
        let (s, q) = stepper_at("XO..X....", Mark::O, Algorithm::Minimax, |s, q| {
            min_node_with_spread(s, q)
        });
        let (mistake, said) = words(&s, q, Answer::Value(55));
        assert_eq!(mistake, Some(Mistake::WrongValue));
        let v = i32::from(s.node(q.node()).value.unwrap());
        let child = s
            .children(q.node())
            .find(|&c| s.node(c).mv == s.node(q.node()).best_move)
            .unwrap();
        assert_eq!(
            said,
            format!(
                "Wrong: a MIN node returns the smallest value found: N{child} gave {}",
                signed(v)
            )
        );
    }

    #[test]
    fn a_missed_cut_off_names_the_bound_and_the_moves_pruned() {
        let (s, q) = stepper_at("XO..X....", Mark::O, Algorithm::AlphaBeta, |s, q| {
            matches!(q, Question::Cutoff { .. })
                && s.peek().is_some_and(|e| e.kind == EventKind::Cutoff)
        });
        let (mistake, said) = words(&s, q, Answer::Cut(false));
        assert_eq!(mistake, Some(Mistake::MissedCutoff));
        assert!(said.contains(&format!("pruned: P{}", q.node())), "{said}");
        let (right, said) = words(&s, q, Answer::Cut(true));
        assert_eq!(right, None);
        assert!(said.starts_with("Right: cut-off at"), "{said}");
    }

    #[test]
    fn yes_where_only_the_other_bound_was_passed_is_the_alpha_beta_mix_up() {
        let (s, q) = stepper_at("X........", Mark::O, Algorithm::AlphaBeta, |s, q| {
            let node = s.node(q.node());
            let v = i32::from(node.value.unwrap_or(0));
            matches!(q, Question::Cutoff { .. })
                && s.peek().is_some_and(|e| e.kind == EventKind::Enter)
                && if node.maximizing {
                    node.alpha_in > -INFINITY as i16 && v >= i32::from(node.alpha_in)
                } else {
                    node.beta_in < INFINITY as i16 && v <= i32::from(node.beta_in)
                }
        });
        let (mistake, said) = words(&s, q, Answer::Cut(true));
        assert_eq!(mistake, Some(Mistake::BoundMixUp));
        assert!(
            said.contains("β, not α, cuts at a MAX node")
                || said.contains("α, not β, cuts at a MIN node"),
            "{said}"
        );
    }

    #[test]
    fn yes_where_the_window_stays_open_says_the_rule() {
        let (s, q) = stepper_at("XO..X....", Mark::O, Algorithm::AlphaBeta, |s, q| {
            let node = s.node(q.node());
            matches!(q, Question::Cutoff { .. })
                && s.peek().is_some_and(|e| e.kind == EventKind::Enter)
                && node.maximizing
                && node.alpha_in == -INFINITY as i16
        });
        let (mistake, said) = words(&s, q, Answer::Cut(true));
        assert_eq!(mistake, Some(Mistake::NoCutoff));
        assert!(
            said.starts_with("Wrong: a MAX node cuts off only when its value reaches β"),
            "{said}"
        );
    }

    /// A bound question where the child's value did (`moved`) or did not move the bound.
    fn bound_question(moved: bool, maximizing: bool) -> (Stepper<Board>, Question) {
        stepper_at("X........", Mark::O, Algorithm::AlphaBeta, |s, q| {
            let Question::Bound { node } = q else {
                return false;
            };
            let (now, before) = bound_now_and_before(s, node);
            s.node(node).maximizing == maximizing && (now != before) == moved && now != 0
        })
    }

    #[test]
    fn the_bound_follows_the_cut_off_question_only_when_no_cut_off_comes() {
        let root = Board::parse("X........", Some(Mark::O)).unwrap();
        let mut stepper = Stepper::new(root, Algorithm::AlphaBeta);
        let mut bounds = 0;
        while stepper.peek().is_some() {
            let asked = questions(&stepper);
            if let [Question::Cutoff { node }, Question::Bound { node: same }] = asked[..] {
                assert_eq!(node, same);
                assert_eq!(stepper.peek().unwrap().kind, EventKind::Enter);
                bounds += 1;
            }
            assert!(asked.len() <= 2, "{asked:?}");
            stepper.step();
        }
        assert!(bounds > 0);
    }

    #[test]
    fn the_bound_question_is_graded_against_the_stepper_s_own_window() {
        for maximizing in [true, false] {
            let (s, q) = bound_question(true, maximizing);
            let node = s.node(q.node());
            let now = if maximizing {
                node.alpha()
            } else {
                node.beta()
            };
            let (right, said) = words(&s, q, Answer::Value(now));
            assert_eq!(right, None, "{said}");
            let bound = if maximizing { "α" } else { "β" };
            assert!(said.starts_with(&format!("Right: {bound} at N")), "{said}");
            assert!(said.contains(&format!("is now {}", signed(now))), "{said}");
            assert_eq!(right_answer(&s, q), Some(Answer::Value(now)));
        }
    }

    #[test]
    fn a_bound_left_where_it_was_is_the_wrong_bound_moved() {
        let (s, q) = bound_question(true, true);
        let (_, before) = bound_now_and_before(&s, q.node());
        let (mistake, said) = words(&s, q, Answer::Value(before));
        assert_eq!(mistake, Some(Mistake::WrongBound), "{said}");
        assert!(
            said.contains("at a MAX node a child's value moves α, never β"),
            "{said}"
        );
    }

    #[test]
    fn the_child_s_value_where_it_does_not_improve_the_bound_is_named() {
        let (s, q) = bound_question(false, false);
        let child = s.children(q.node()).last().unwrap();
        let v = i32::from(s.node(child).value.unwrap());
        let (mistake, said) = words(&s, q, Answer::Value(v));
        assert_eq!(mistake, Some(Mistake::NoImprovement), "{said}");
        assert!(
            said.starts_with("Wrong: β only falls at a MIN node"),
            "{said}"
        );
        assert!(said.contains("stays"), "{said}");
    }

    #[test]
    fn a_flipped_bound_and_any_other_value_say_their_rule() {
        let (s, q) = bound_question(true, true);
        let now = s.node(q.node()).alpha();
        let (mistake, said) = words(&s, q, Answer::Value(-now));
        if mistake == Some(Mistake::SignFlipped) {
            assert!(said.contains("no sign flip"), "{said}");
        }
        let (mistake, said) = words(&s, q, Answer::Value(55));
        assert_eq!(mistake, Some(Mistake::WrongValue));
        assert!(said.contains("α = max(α, child)"), "{said}");
    }

    /// A children question whose cut-off skips at least two children, after at least
    /// one searched: every misconception can be told apart there.
    fn pruned_question() -> (Stepper<Board>, Question) {
        stepper_at("X........", Mark::O, Algorithm::AlphaBeta, |s, q| {
            let node = s.node(q.node());
            matches!(q, Question::Pruned { .. })
                && node.move_count - node.children >= 2
                && node.children >= 1
        })
    }

    /// Moves named as the tab names them: the cell number.
    fn cell(mv: u8) -> String {
        format!("O{}", mv + 1)
    }

    #[test]
    fn the_children_question_follows_only_a_cut_off_and_names_the_moves_skipped() {
        let (s, q) = pruned_question();
        assert_eq!(s.peek().unwrap().kind, EventKind::Cutoff);
        assert_eq!(questions(&s), vec![Question::Cutoff { node: q.node() }, q]);
        let skipped = s.moves_not_entered(q.node());
        let Some(Answer::Children(bits)) = right_answer(&s, q) else {
            panic!("a list of children")
        };
        assert_eq!(bits.count_ones() as usize, skipped.len());
        let text = children_text(&s, q.node(), bits, &cell);
        assert_eq!(
            text,
            skipped
                .iter()
                .map(|&m| cell(m))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let (mistake, said) = words(&s, q, Answer::Children(bits));
        assert_eq!(mistake, None);
        assert_eq!(
            said,
            format!(
                "Right: a cut-off skips every child not yet searched at N{}: P{}",
                q.node(),
                q.node()
            )
        );
    }

    #[test]
    fn each_misconception_about_the_children_pruned_is_named() {
        let (s, q) = pruned_question();
        let node = s.node(q.node());
        let tried = u32::from(node.children);
        let Some(Answer::Children(pruned)) = right_answer(&s, q) else {
            panic!("a list of children")
        };
        let searched = s.children(q.node()).last().unwrap();
        let (mistake, said) = words(&s, q, Answer::Children(pruned | 1 << (tried - 1)));
        assert_eq!(mistake, Some(Mistake::SearchedNamed));
        assert!(said.starts_with(&format!("Wrong: N{searched} was searched already; a cut-off skips every child not yet searched at N")), "{said}");
        let (mistake, said) = words(&s, q, Answer::Children(1 << tried));
        assert_eq!(mistake, Some(Mistake::OnlyNext));
        assert!(
            said.starts_with("Wrong: not just the next child: a cut-off skips"),
            "{said}"
        );
        let (mistake, said) = words(&s, q, Answer::Children(0));
        assert_eq!(mistake, Some(Mistake::NonePruned));
        assert!(
            said.starts_with("Wrong: a cut-off always prunes: "),
            "{said}"
        );
        let (mistake, said) = words(&s, q, Answer::Children(pruned & !(1 << tried)));
        assert_eq!(mistake, Some(Mistake::WrongChildren));
        assert!(
            said.starts_with("Wrong: a cut-off skips every child not yet searched at N"),
            "{said}"
        );
    }

    #[test]
    fn children_are_read_by_name_or_number_in_any_order_and_separation() {
        let (s, q) = pruned_question();
        let id = q.node();
        let moves = s.moves_not_entered(id);
        let bits = |text: &str| read_children(&s, id, text, "N", &cell);
        let Some(Answer::Children(pruned)) = right_answer(&s, q) else {
            panic!("a list of children")
        };
        let names: Vec<String> = moves.iter().rev().map(|&m| cell(m)).collect();
        assert_eq!(bits(&names.join(", ")), Ok(Answer::Children(pruned)));
        let numbers: Vec<String> = moves.iter().map(|&m| (m + 1).to_string()).collect();
        assert_eq!(bits(&numbers.join(" ")), Ok(Answer::Children(pruned)));
        assert_eq!(
            bits(&names.join(",").to_lowercase()),
            Ok(Answer::Children(pruned))
        );
        assert_eq!(bits("none"), Ok(Answer::Children(0)));
        assert_eq!(bits(" "), Ok(Answer::Children(0)));
        let refused = bits("Q7").unwrap_err();
        assert!(
            refused.starts_with("\"Q7\" is no move at N: its moves are O"),
            "{refused}"
        );
        assert!(q.read("O1").is_err(), "the names are the caller's");
    }

    #[test]
    fn minimax_asks_no_cut_off_and_leaves_ask_nothing() {
        let root = Board::parse("XO..X....", Some(Mark::O)).unwrap();
        let mut stepper = Stepper::new(root, Algorithm::Minimax);
        let mut asked = 0;
        loop {
            if let Some(q) = question(&stepper) {
                asked += 1;
                assert!(matches!(q, Question::Value { .. }));
                assert!(!stepper.node(q.node()).terminal);
            }
            if stepper.step().is_none() {
                break;
            }
        }
        assert!(asked > 0);
    }

    #[test]
    fn answers_are_read_as_the_question_wants_them() {
        let value = Question::Value { node: 0 };
        assert_eq!(value.read("-4"), Ok(Answer::Value(-4)));
        assert_eq!(value.read("+3"), Ok(Answer::Value(3)));
        assert_eq!(value.read("0"), Ok(Answer::Value(0)));
        assert!(value.read("y").is_err());
        assert!(value.read("-").is_err());
        // A depth-limited win is a value (Connect Four: 1000 - ply); ±∞ is none.
        assert_eq!(value.read("+997"), Ok(Answer::Value(997)));
        assert!(value.read("10000").is_err());
        let cut = Question::Cutoff { node: 0 };
        assert_eq!(cut.read("y"), Ok(Answer::Cut(true)));
        assert_eq!(cut.read("n"), Ok(Answer::Cut(false)));
        assert!(cut.read("3").is_err());
    }

    #[test]
    fn a_score_counts_right_and_asked() {
        let (s, q) = stepper_at("XO..X....", Mark::O, Algorithm::Minimax, |_, _| true);
        let v = i32::from(s.node(q.node()).value.unwrap());
        let mut score = Score::default();
        score.count(grade(&s, q, Answer::Value(v)).unwrap().mistake.is_none());
        score.count(
            grade(&s, q, Answer::Value(v + 1))
                .unwrap()
                .mistake
                .is_none(),
        );
        assert_eq!(score, Score { right: 1, asked: 2 });
    }
}
