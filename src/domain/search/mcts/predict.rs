//! "Predict, then check" for MCTS (issue 15 §3): before an iteration's selection, which
//! move does it take at each node on its way down, the root first? While a node has
//! untried moves the answer is the first of them (an untried move is tried before any
//! child is selected again, and the walk stops there); once every move has a child, the
//! child with the largest UCB1 value, the first in move order on a tie, from that node's
//! own `N` and with its children's `W` counted for the player to move there. The answer is read from the search itself: a copy of the stepper runs the next
//! phases with the same seed and tie-breaking, so the grade is the engine's own choice, and
//! the words carry the UCB1 numbers selection compared. Pure: moves are named by the caller.

use super::record::{Candidate, Expansion, Phase, PhaseRecord};
use super::rollout::Rollout;
use super::stepper::MctsStepper;
use super::tree::NodeId;

/// What the iteration about to start does at one node of its way down, as the engine
/// does it.
#[derive(Debug, Clone, PartialEq)]
pub struct Pick<M> {
    /// The node the move is taken at (the root at level 0).
    pub node: NodeId,
    /// Its depth on the way down: 0 at the root.
    pub level: usize,
    /// The node's moves with no child yet, in legal-move order (the first is tried next).
    pub untried: Vec<M>,
    /// The node's moves that have a child, in legal-move order.
    pub tried: Vec<M>,
    /// The node's children as selection compares them (empty while moves are untried).
    pub candidates: Vec<Candidate<M>>,
    /// The node's `N`, the `N_parent` of the formula.
    pub parent_visits: u64,
    /// The exploration constant `c`.
    pub exploration: f64,
    /// The move the iteration takes.
    pub chosen: M,
}

/// A wrong pick's mistake, so the words can name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickMistake {
    /// Not a move at the root.
    NotAMove,
    /// A child picked while a move is still untried.
    SkippedUntried,
    /// A later untried move: untried moves go in move order.
    UntriedOrder,
    /// A child tied with the chosen one but later in move order.
    TieBroken,
    /// The child with the best `W/N` alone, no exploration term.
    HighestMean,
    /// The child visited most (what the AI plays at the end, not what selection takes).
    MostVisited,
    /// Some other child.
    WrongMove,
}

/// The grade of one pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PickGrade<M> {
    /// The move answered.
    pub given: M,
    /// `None` when it is the engine's.
    pub mistake: Option<PickMistake>,
}

/// True when a pick is asked before the stepper's next phase: a selection from a root
/// whose game goes on. Cheap (no copy of the search), for views that ask it every frame.
pub fn asks_pick<G: Rollout>(stepper: &MctsStepper<G>) -> bool {
    stepper.phase() == Phase::Selection && !stepper.mcts().root().is_terminal()
}

/// The root pick of the iteration the stepper starts next: `None` unless the next phase
/// is a selection from a root with moves to take (and room in the tree to take them).
pub fn root_pick<G: Rollout>(stepper: &MctsStepper<G>) -> Option<Pick<G::Move>> {
    picks(stepper).into_iter().next()
}

/// Every pick of the iteration the stepper starts next, the root first: one for each node
/// selection walks down through (every move there has a child), and one for the node it
/// stops at when expansion then adds its first untried move. Read from a copy of the
/// stepper run ahead, so each is the engine's own choice. Empty unless a selection is next
/// from a root with moves to take.
pub fn picks<G: Rollout>(stepper: &MctsStepper<G>) -> Vec<Pick<G::Move>> {
    let mcts = stepper.mcts();
    if !asks_pick(stepper) {
        return Vec::new();
    }
    let mut ahead = stepper.clone();
    ahead.step();
    let Some(PhaseRecord::Selection { steps, .. }) = ahead.last_phase_record().cloned() else {
        return Vec::new();
    };
    let tried = |node| {
        mcts.children(node)
            .filter(|(_, child)| child.is_in_tree())
            .filter_map(|(_, child)| child.mv())
            .collect::<Vec<_>>()
    };
    let mut picks: Vec<Pick<G::Move>> = Vec::new();
    for (level, step) in steps.into_iter().enumerate() {
        let Some(chosen) = mcts.node(step.chosen).mv() else {
            return picks;
        };
        picks.push(Pick {
            node: step.parent,
            level,
            untried: Vec::new(),
            tried: tried(step.parent),
            candidates: step.candidates,
            parent_visits: step.parent_visits,
            exploration: mcts.exploration(),
            chosen,
        });
    }
    ahead.step();
    // The node added is in the copy's tree only; its parent is in both.
    if let Some(PhaseRecord::Expansion(Expansion::Added { node, mv })) = ahead.last_phase_record()
        && let Some(at) = ahead.mcts().node(*node).parent()
    {
        picks.push(Pick {
            node: at,
            level: picks.len(),
            untried: mcts.untried_moves(at),
            tried: tried(at),
            candidates: Vec::new(),
            parent_visits: mcts.node(at).visits(),
            exploration: mcts.exploration(),
            chosen: *mv,
        });
    }
    picks
}

/// A node named by the moves from the root to it (`X5 → O3`), or `the root`.
pub fn node_path<G: Rollout>(
    stepper: &MctsStepper<G>,
    node: NodeId,
    name: &dyn Fn(&G, G::Move) -> String,
) -> String {
    let mcts = stepper.mcts();
    let mut path = Vec::new();
    let mut at = node;
    while let Some(parent) = mcts.node(at).parent() {
        path.extend(mcts.node(at).mv().map(|mv| (parent, mv)));
        at = parent;
    }
    if path.is_empty() {
        return "the root".into();
    }
    path.reverse();
    path.into_iter()
        .map(|(parent, mv)| name(&mcts.position(parent), mv))
        .collect::<Vec<_>>()
        .join(" → ")
}

impl<M: Copy + PartialEq> Pick<M> {
    /// The candidate for `mv`, if it is a child.
    pub fn candidate(&self, mv: M) -> Option<&Candidate<M>> {
        self.candidates.iter().find(|c| c.mv == mv)
    }

    /// The first candidate with the largest `key`.
    fn first_max(&self, key: impl Fn(&Candidate<M>) -> f64) -> Option<M> {
        let mut best: Option<&Candidate<M>> = None;
        for c in &self.candidates {
            if best.is_none_or(|b| key(c).total_cmp(&key(b)).is_gt()) {
                best = Some(c);
            }
        }
        best.map(|c| c.mv)
    }

    /// Grades `given` against the engine's pick.
    pub fn grade(&self, given: M) -> PickGrade<M> {
        let mistake = if given == self.chosen {
            None
        } else if !self.untried.is_empty() {
            Some(if self.untried.contains(&given) {
                PickMistake::UntriedOrder
            } else if self.tried.contains(&given) {
                PickMistake::SkippedUntried
            } else {
                PickMistake::NotAMove
            })
        } else if let Some(picked) = self.candidate(given) {
            let chosen_ucb = self.candidate(self.chosen).map_or(f64::NAN, |c| c.ucb);
            Some(if picked.ucb.total_cmp(&chosen_ucb).is_eq() {
                PickMistake::TieBroken
            } else if self.first_max(mean) == Some(given) {
                PickMistake::HighestMean
            } else if self.first_max(|c| c.visits as f64) == Some(given) {
                PickMistake::MostVisited
            } else {
                PickMistake::WrongMove
            })
        } else {
            Some(PickMistake::NotAMove)
        };
        PickGrade { given, mistake }
    }

    /// A child's UCB1 sum with its numbers, short enough for the status line beside the
    /// rule: `X5 0.43+1.41·√(ln 40 / 6)=1.27`.
    pub fn sum(&self, mv: M, name: &dyn Fn(M) -> String) -> String {
        match self.candidate(mv) {
            Some(c) => format!(
                "{} {:.2}+{:.2}·√(ln {} / {})={:.2}",
                name(mv),
                mean(c),
                self.exploration,
                self.parent_visits,
                c.visits,
                c.ucb
            ),
            None => name(mv),
        }
    }

    /// A child's UCB1 value alone: `X3 1.10`.
    fn value(&self, mv: M, name: &dyn Fn(M) -> String) -> String {
        let ucb = self.candidate(mv).map_or(0.0, |c| c.ucb);
        format!("{} {ucb:.2}", name(mv))
    }
}

/// A candidate's `W/N`.
fn mean<M>(c: &Candidate<M>) -> f64 {
    if c.visits == 0 {
        0.0
    } else {
        c.wins / c.visits as f64
    }
}

impl<M: Copy + PartialEq> PickGrade<M> {
    /// The grade in words: the rule that decides the pick and the UCB1 numbers that show
    /// it, short enough for the status line at 80 columns (the log keeps it whole).
    pub fn words(&self, pick: &Pick<M>, name: &dyn Fn(M) -> String) -> String {
        let chosen = name(pick.chosen);
        let given = name(self.given);
        let best = pick.sum(pick.chosen, name);
        let beats = format!("{best} > {}", pick.value(self.given, name));
        match self.mistake {
            None if pick.candidates.is_empty() => {
                format!("Right: {chosen} is the first untried move, so it is tried next")
            }
            None => format!("Right: {best}, the largest UCB"),
            Some(PickMistake::NotAMove) if pick.level == 0 => {
                format!("Wrong: {given} is not a move at the root; UCT takes {chosen}")
            }
            Some(PickMistake::NotAMove) => {
                format!("Wrong: {given} is not a move here; UCT takes {chosen}")
            }
            Some(PickMistake::SkippedUntried) => {
                format!("Wrong: untried moves go first: {chosen} has no child yet, so it is next")
            }
            Some(PickMistake::UntriedOrder) => {
                format!("Wrong: untried moves go in move order: {chosen} comes before {given}")
            }
            Some(PickMistake::TieBroken) => format!(
                "Wrong: {given} ties {} at {:.2}: a tie goes to the first move, {chosen}",
                chosen,
                pick.candidate(pick.chosen).map_or(0.0, |c| c.ucb)
            ),
            Some(PickMistake::HighestMean) => format!("Wrong: W/N alone is not UCT: {beats}"),
            Some(PickMistake::MostVisited) => format!("Wrong: most visits is not UCT: {beats}"),
            Some(PickMistake::WrongMove) => format!("Wrong: the largest UCB wins: {beats}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::ROOT;
    use super::*;
    use crate::domain::games::tictactoe::{Board, Mark};

    fn candidate(mv: u8, visits: u64, wins: f64, parent: u64) -> Candidate<u8> {
        let c = std::f64::consts::SQRT_2;
        Candidate {
            node: u32::from(mv) + 1,
            mv,
            visits,
            wins,
            ucb: wins / visits as f64 + c * ((parent as f64).ln() / visits as f64).sqrt(),
        }
    }

    /// Root N 40: move 0 has the best W/N and the most visits, move 1 the largest UCB,
    /// move 2 ties with it later in move order, move 3 is beaten.
    fn pick() -> Pick<u8> {
        let candidates = vec![
            candidate(0, 20, 14.0, 40),
            candidate(1, 6, 2.6, 40),
            candidate(2, 6, 2.6, 40),
            candidate(3, 8, 1.0, 40),
        ];
        Pick {
            node: ROOT,
            level: 0,
            untried: Vec::new(),
            tried: vec![0, 1, 2, 3],
            candidates,
            parent_visits: 40,
            exploration: std::f64::consts::SQRT_2,
            chosen: 1,
        }
    }

    fn name(mv: u8) -> String {
        format!("X{}", mv + 1)
    }

    #[test]
    fn each_misconception_of_a_uct_pick_is_named_with_its_numbers() {
        let pick = pick();
        let said = |mv| {
            let grade = pick.grade(mv);
            (grade.mistake, grade.words(&pick, &name))
        };
        let (right, words) = said(1);
        assert_eq!(right, None);
        assert_eq!(
            words,
            "Right: X2 0.43+1.41·√(ln 40 / 6)=1.54, the largest UCB"
        );
        let (mistake, words) = said(0);
        assert_eq!(mistake, Some(PickMistake::HighestMean));
        assert_eq!(
            words,
            "Wrong: W/N alone is not UCT: X2 0.43+1.41·√(ln 40 / 6)=1.54 > X1 1.31"
        );
        let (mistake, words) = said(2);
        assert_eq!(mistake, Some(PickMistake::TieBroken));
        assert!(
            words.contains("a tie goes to the first move, X2"),
            "{words}"
        );
        assert_eq!(said(3).0, Some(PickMistake::WrongMove));
        assert_eq!(said(7).0, Some(PickMistake::NotAMove));
    }

    #[test]
    fn the_most_visited_child_is_named_when_its_mean_is_not_the_best() {
        let mut pick = pick();
        pick.candidates[0] = candidate(0, 20, 6.0, 40);
        let grade = pick.grade(0);
        assert_eq!(grade.mistake, Some(PickMistake::MostVisited));
        assert!(
            grade
                .words(&pick, &name)
                .starts_with("Wrong: most visits is not UCT: X2")
        );
    }

    #[test]
    fn while_moves_are_untried_the_first_of_them_is_the_pick() {
        let root = Board::parse("X........", Some(Mark::O)).unwrap();
        let mut stepper = MctsStepper::new(root, std::f64::consts::SQRT_2, 3);
        stepper.run_iterations(2);
        let pick = root_pick(&stepper).unwrap();
        assert_eq!(pick.chosen, pick.untried[0]);
        assert_eq!(
            pick.grade(pick.untried[1]).mistake,
            Some(PickMistake::UntriedOrder)
        );
        let child = pick.candidates.first().map(|c| c.mv);
        assert_eq!(child, None, "selection compares nothing yet");
        let tried = stepper
            .mcts()
            .children(ROOT)
            .find_map(|(_, n)| n.mv().filter(|_| n.is_in_tree()));
        assert_eq!(
            pick.grade(tried.unwrap()).mistake,
            Some(PickMistake::SkippedUntried)
        );
    }
}
