//! [`MctsStepper`]: the search one phase at a time, each phase's record kept for a view to
//! show, and any step taken back.
//!
//! Stepping back replays: a search is a function of its root, its constant and its seed,
//! so the state after `p` phases is rebuilt by running the whole iterations before the
//! last one fast and stepping the rest. That costs the time of the search so far (a few
//! milliseconds at the sizes a person steps through) and keeps no history at all.

use super::record::{Phase, PhaseRecord};
use super::rollout::Rollout;
use super::uct::Mcts;
use crate::domain::games::Game;

/// What one phase of a `G` search did.
pub type Record<G> = PhaseRecord<<G as Game>::Move, <G as Game>::Player>;

/// An MCTS driven one phase at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsStepper<G: Rollout> {
    mcts: Mcts<G>,
    /// Phases done since the start: four per whole iteration.
    phases: u64,
    /// What the last phase did; `None` at the start.
    last: Option<Record<G>>,
}

impl<G: Rollout> MctsStepper<G> {
    /// A stepper over a fresh [`Mcts::new`] search.
    pub fn new(root: G, exploration: f64, seed: u64) -> Self {
        Self::over(Mcts::new(root, exploration, seed))
    }

    /// A stepper over `mcts`, a fresh search (perhaps with its own node limit).
    pub fn over(mcts: Mcts<G>) -> Self {
        assert_eq!(mcts.iterations(), 0, "a stepper starts from a fresh search");
        Self {
            mcts,
            phases: 0,
            last: None,
        }
    }

    /// The search as it stands.
    pub const fn mcts(&self) -> &Mcts<G> {
        &self.mcts
    }

    /// Phases done since the start.
    pub const fn phases(&self) -> u64 {
        self.phases
    }

    /// The phase the next [`Self::step`] runs.
    pub const fn phase(&self) -> Phase {
        self.mcts.next_phase()
    }

    /// What the last phase did; `None` before the first step.
    pub const fn last_phase_record(&self) -> Option<&Record<G>> {
        self.last.as_ref()
    }

    /// Runs the next phase and records it.
    pub fn step(&mut self) {
        let record = match self.mcts.next_phase() {
            Phase::Selection => {
                let mut steps = Vec::new();
                self.mcts.select(Some(&mut steps));
                PhaseRecord::Selection {
                    path: self.mcts.path_nodes(),
                    steps,
                }
            }
            Phase::Expansion => PhaseRecord::Expansion(self.mcts.expand()),
            Phase::Simulation => {
                let mut moves = Vec::new();
                let (from, outcome) = self.mcts.simulate(Some(&mut moves));
                PhaseRecord::Simulation {
                    from,
                    moves,
                    outcome,
                }
            }
            Phase::Backpropagation => {
                let mut changes = Vec::new();
                self.mcts.backpropagate(Some(&mut changes));
                PhaseRecord::Backpropagation { changes }
            }
        };
        self.phases += 1;
        self.last = Some(record);
    }

    /// Takes the last phase back: the state is exactly the one before it, its record
    /// included. False at the start, where there is nothing to take back.
    pub fn step_back(&mut self) -> bool {
        if self.phases == 0 {
            return false;
        }
        let fresh = Mcts::new(
            *self.mcts.root_position(),
            self.mcts.exploration(),
            self.mcts.seed(),
        )
        .with_node_limit(self.mcts.node_limit());
        let target = self.phases - 1;
        *self = Self::over(fresh);
        self.advance_to(target);
        true
    }

    /// Goes to `target` phases since the start, forward by stepping and back by the same
    /// replay as [`Self::step_back`], so "go to step N" ends where N steps from a fresh
    /// stepper end, records included.
    pub fn go_to(&mut self, target: u64) {
        if target < self.phases {
            let fresh = Mcts::new(
                *self.mcts.root_position(),
                self.mcts.exploration(),
                self.mcts.seed(),
            )
            .with_node_limit(self.mcts.node_limit());
            *self = Self::over(fresh);
        }
        self.advance_to(target);
    }

    /// Runs until `iterations` more iterations are complete (the one under way, if any,
    /// counting as one), the last of them phase by phase so its records are kept.
    pub fn run_iterations(&mut self, iterations: u64) {
        if iterations == 0 {
            return;
        }
        let complete = self.phases / 4;
        self.advance_to((complete + iterations) * 4);
    }

    /// Goes forward to `target` phases since the start: the iteration under way stepped to
    /// its end, whole iterations fast, then the phases of the iteration that holds the
    /// target stepped, so the last record is there.
    fn advance_to(&mut self, target: u64) {
        while self.phases < target && !self.phases.is_multiple_of(4) {
            self.step();
        }
        // Whole iterations before the one holding the last phase run without records.
        let last_whole = target.saturating_sub(1) / 4 * 4;
        while self.phases < last_whole {
            self.mcts.iterate();
            self.phases += 4;
        }
        while self.phases < target {
            self.step();
        }
    }
}
