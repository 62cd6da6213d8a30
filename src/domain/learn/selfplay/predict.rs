//! "Predict, then check" for PUCT: before a simulation's selection, which edge does the
//! walk take at each node on its way down, the root first? The one with the highest
//! `Q + U`, the lowest index among equals. A wrong answer names the slip it most likely
//! is: the highest prior alone, the highest `Q` alone, or the most visited edge, each a
//! part of the sum mistaken for the whole. Read from the stepper's own walk, so the grade
//! is the search's choice. Pure: moves are named by the caller.

use super::learnable::Learnable;
use super::puct::{EdgeStats, Evaluator, NodeId};
use super::stepper::{PuctPhase, PuctStepper};

/// What the walk about to start does at one node on its way down.
#[derive(Debug, Clone, PartialEq)]
pub struct PuctPick {
    /// The node the edge is taken at (the root at level 0).
    pub node: NodeId,
    /// Its depth on the way down: 0 at the root.
    pub level: usize,
    /// Every edge with the figures the walk weighs.
    pub edges: Vec<EdgeStats>,
    /// The node's `N`, the `N_parent` of `U`.
    pub parent_visits: u32,
    /// `c_puct`.
    pub c_puct: f32,
    /// The edge the walk takes, as a policy index.
    pub chosen: usize,
}

/// A wrong pick's slip, so the words can name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuctSlip {
    /// Not a move here.
    NotAMove,
    /// An edge tied with the chosen one but later in index order.
    TieBroken,
    /// The highest prior `P` alone.
    HighestPrior,
    /// The highest `Q` alone.
    HighestMean,
    /// The most visited edge (what is played at the end, not what the walk takes).
    MostVisited,
    /// Some other edge.
    WrongEdge,
}

/// The grade of one pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuctGrade {
    /// The edge answered, as a policy index.
    pub given: usize,
    /// `None` when it is the search's.
    pub slip: Option<PuctSlip>,
}

/// True when a pick is asked before the stepper's next phase: a selection from a root with
/// moves (the root of a search is a game still on).
pub fn asks_puct_pick<G: Learnable, E: Evaluator<G> + Clone>(stepper: &PuctStepper<G, E>) -> bool {
    stepper.phase() == PuctPhase::Selection && !stepper.tree().root().children.is_empty()
}

/// Every pick of the walk the stepper takes next, the root first: one for each node it
/// goes down through. Empty unless a selection is next.
pub fn puct_picks<G: Learnable, E: Evaluator<G> + Clone>(
    stepper: &PuctStepper<G, E>,
) -> Vec<PuctPick> {
    if !asks_puct_pick(stepper) {
        return Vec::new();
    }
    let c_puct = stepper.tree().settings().c_puct;
    let (_, steps) = stepper.walk();
    steps
        .into_iter()
        .enumerate()
        .map(|(level, step)| PuctPick {
            node: step.parent,
            level,
            chosen: stepper.tree().node(step.chosen).index,
            edges: step.edges,
            parent_visits: step.parent_visits,
            c_puct,
        })
        .collect()
}

impl PuctPick {
    /// The edge of policy index `index`, if it is a move here.
    pub fn edge(&self, index: usize) -> Option<&EdgeStats> {
        self.edges.iter().find(|e| e.index == index)
    }

    /// The first edge with the largest `key`.
    fn first_max(&self, key: impl Fn(&EdgeStats) -> f32) -> Option<usize> {
        let mut best: Option<&EdgeStats> = None;
        for edge in &self.edges {
            if best.is_none_or(|b| key(edge).total_cmp(&key(b)).is_gt()) {
                best = Some(edge);
            }
        }
        best.map(|e| e.index)
    }

    /// Grades `given` (a policy index) against the search's pick. A choice that is the
    /// highest of a part of the sum is named for that part, the prior first: it is what a
    /// student who knows the network guides the search reaches for.
    pub fn grade(&self, given: usize) -> PuctGrade {
        let slip = if given == self.chosen {
            None
        } else if let Some(edge) = self.edge(given) {
            let chosen_score = self.edge(self.chosen).map_or(f32::NAN, EdgeStats::score);
            Some(if edge.score().total_cmp(&chosen_score).is_eq() {
                PuctSlip::TieBroken
            } else if self.first_max(|e| e.prior) == Some(given) {
                PuctSlip::HighestPrior
            } else if self.first_max(|e| e.mean) == Some(given) {
                PuctSlip::HighestMean
            } else if self.first_max(|e| e.visits as f32) == Some(given) {
                PuctSlip::MostVisited
            } else {
                PuctSlip::WrongEdge
            })
        } else {
            Some(PuctSlip::NotAMove)
        };
        PuctGrade { given, slip }
    }

    /// An edge's sum with its parts: `X5 Q 0.12 + U 0.30 = 0.42`.
    pub fn sum(&self, index: usize, name: &dyn Fn(usize) -> String) -> String {
        match self.edge(index) {
            Some(e) => format!(
                "{} Q {:.2} + U {:.2} = {:.2}",
                name(index),
                e.mean,
                e.explore,
                e.score()
            ),
            None => name(index),
        }
    }
}

impl PuctGrade {
    /// The grade in words: the slip named, and the sums that decide, short enough for the
    /// status line at 80 columns (the log keeps it whole).
    pub fn words(&self, pick: &PuctPick, name: &dyn Fn(usize) -> String) -> String {
        let chosen = name(pick.chosen);
        let given = name(self.given);
        let best = pick.sum(pick.chosen, name);
        let beats = format!("{best} > {}", pick.sum(self.given, name));
        match self.slip {
            None => format!("Right: {best}, the largest Q + U"),
            Some(PuctSlip::NotAMove) => {
                format!("Wrong: {given} is not a move here; PUCT takes {chosen}")
            }
            Some(PuctSlip::TieBroken) => format!(
                "Wrong: {given} ties {chosen} at {:.2}: a tie goes to the first move, {chosen}",
                pick.edge(pick.chosen).map_or(0.0, EdgeStats::score)
            ),
            Some(PuctSlip::HighestPrior) => format!(
                "Wrong: highest prior alone is not PUCT: U shrinks as N grows, and Q counts \
                 too: {beats}"
            ),
            Some(PuctSlip::HighestMean) => {
                format!("Wrong: highest Q alone is not PUCT: U adds exploration: {beats}")
            }
            Some(PuctSlip::MostVisited) => format!(
                "Wrong: most visited is what it plays at the end, not what the walk takes: \
                 {beats}"
            ),
            Some(PuctSlip::WrongEdge) => format!("Wrong: the largest Q + U wins: {beats}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::puct::ROOT;
    use super::*;

    fn edge(index: usize, prior: f32, visits: u32, mean: f32, parent: u32) -> EdgeStats {
        EdgeStats {
            index,
            child: index as NodeId + 1,
            prior,
            visits,
            mean,
            explore: 1.0 * prior * (parent as f32).sqrt() / (1.0 + visits as f32),
        }
    }

    /// Root N 16, `c_puct` 1: cell 1 has the highest prior, cell 2 the highest Q, cell 3 the
    /// most visits, cell 4 the highest Q + U, cell 5 ties cell 4, cell 6 is beaten.
    fn pick() -> PuctPick {
        let edges = vec![
            edge(0, 0.5, 6, -0.3, 16),  // Q+U = -0.3 + 0.5·4/7 = -0.0143
            edge(1, 0.05, 2, 0.5, 16),  // 0.5 + 0.05·4/3 = 0.5667
            edge(2, 0.1, 7, 0.2, 16),   // 0.2 + 0.1·4/8 = 0.25
            edge(3, 0.3, 1, 0.1, 16),   // 0.1 + 0.3·4/2 = 0.7
            edge(4, 0.3, 1, 0.1, 16),   // the same: a tie
            edge(5, 0.05, 0, -0.2, 16), // -0.2 + 0.05·4 = 0.0
        ];
        PuctPick {
            node: ROOT,
            level: 0,
            edges,
            parent_visits: 16,
            c_puct: 1.0,
            chosen: 3,
        }
    }

    fn name(index: usize) -> String {
        format!("X{}", index + 1)
    }

    #[test]
    fn each_slip_of_a_puct_pick_is_named_for_the_choice_that_makes_it() {
        let pick = pick();
        let said = |index| {
            let grade = pick.grade(index);
            (grade.slip, grade.words(&pick, &name))
        };
        let (slip, words) = said(3);
        assert_eq!(slip, None);
        assert_eq!(words, "Right: X4 Q 0.10 + U 0.60 = 0.70, the largest Q + U");
        let (slip, words) = said(0);
        assert_eq!(slip, Some(PuctSlip::HighestPrior));
        assert!(
            words.starts_with(
                "Wrong: highest prior alone is not PUCT: U shrinks as N grows, and Q counts too"
            ),
            "{words}"
        );
        let (slip, words) = said(1);
        assert_eq!(slip, Some(PuctSlip::HighestMean));
        assert!(
            words.starts_with("Wrong: highest Q alone is not PUCT: U adds exploration"),
            "{words}"
        );
        assert!(words.ends_with("X4 Q 0.10 + U 0.60 = 0.70 > X2 Q 0.50 + U 0.07 = 0.57"));
        let (slip, words) = said(2);
        assert_eq!(slip, Some(PuctSlip::MostVisited));
        assert!(words.starts_with("Wrong: most visited is"), "{words}");
        let (slip, words) = said(4);
        assert_eq!(slip, Some(PuctSlip::TieBroken));
        assert!(
            words.contains("a tie goes to the first move, X4"),
            "{words}"
        );
        assert_eq!(said(5).0, Some(PuctSlip::WrongEdge));
        assert_eq!(said(8).0, Some(PuctSlip::NotAMove));
    }
}
