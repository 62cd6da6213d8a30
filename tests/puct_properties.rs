//! Property tests of the stepped PUCT search (the self-play tab's stepper): what it shows of
//! every edge, `P`, `N`, `Q` and `U`, is what the next selection uses, and the edge with
//! the highest shown `Q + U` is the one it takes; every pick is graded right for exactly
//! that edge.

use ai_arcade::components::mcts_search::outline::Folds;
use ai_arcade::components::mcts_search::puct::edge_figures;
use ai_arcade::components::mcts_search::search::SteppedSearch;
use ai_arcade::domain::games::Game;
use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::learn::selfplay::learnable::Learnable;
use ai_arcade::domain::learn::selfplay::net::PolicyValueNet;
use ai_arcade::domain::learn::selfplay::predict::puct_picks;
use ai_arcade::domain::learn::selfplay::puct::{EdgeStats, Puct, PuctSettings};
use ai_arcade::domain::learn::selfplay::stepper::{PuctPhase, PuctRecord, PuctStepper};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A position reached by legal moves from the empty board, stopping before the game ends
/// (a search starts from a game still on).
fn position(first: Mark, picks: &[usize]) -> Board {
    let mut board = Board::empty(first);
    for &pick in picks {
        let moves = board.legal_moves();
        let moves = moves.as_ref();
        let next = board.play(moves[pick % moves.len()]);
        if next.outcome().is_some() {
            break;
        }
        board = next;
    }
    board
}

/// The first edge with the highest `Q + U`, as the walk breaks ties (the lowest index).
fn highest(edges: &[EdgeStats]) -> Option<&EdgeStats> {
    edges
        .iter()
        .reduce(|best, e| if e.score() > best.score() { e } else { best })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Over random positions, networks (by seed), `c_puct` and step counts: at the next
    /// selection, the figures the stepper shows for each node the walk goes through (its
    /// outline's rows and the selection's own record) equal `Puct::edges` of that node in
    /// the same search run whole by `Puct::run`, and the edge with the highest shown
    /// `Q + U` is the one the selection takes.
    #[test]
    fn the_shown_p_n_q_u_are_what_the_next_selection_uses(
        first in prop_oneof![Just(Mark::X), Just(Mark::O)],
        picks in prop::collection::vec(0usize..9, 0..=6),
        seed in any::<u64>(),
        c_puct in prop_oneof![Just(1.0f32), Just(1.5), Just(3.0)],
        phases in 0u64..90,
    ) {
        let root = position(first, &picks);
        let net = PolicyValueNet::new(Board::INPUTS, &[16], Board::MOVES, seed);
        let settings = PuctSettings { c_puct, noise: None };
        let mut stepper = PuctStepper::new(root, settings, Arc::new(net.clone()), seed);
        stepper.go_to(phases);
        while stepper.phase() != PuctPhase::Selection {
            stepper.step();
        }
        let simulations = stepper.simulations();
        let mut evaluator = &net;
        let mut reference =
            Puct::new(root, settings, &mut evaluator, &mut ChaCha8Rng::seed_from_u64(seed));
        reference.run(simulations as u32, &mut evaluator);

        // The outline, every node unfolded: each row of a child shows its edge's figures.
        let mut folds = Folds::default();
        for node in stepper.inner_nodes() {
            folds.set(node as usize, true);
        }
        let rows = stepper.rows(&[], &folds, &[], None);
        let picks = puct_picks(&stepper);
        stepper.step();
        let Some(PuctRecord::Selection { path, steps }) = stepper.last_phase_record() else {
            return Err(TestCaseError::fail("a selection was next"));
        };
        prop_assert_eq!(steps.len() + 1, path.len());
        prop_assert_eq!(picks.len(), steps.len());
        for (step, pick) in steps.iter().zip(&picks) {
            let expected = reference.edges(step.parent);
            prop_assert_eq!(&step.edges, &expected, "the record at node {}", step.parent);
            prop_assert_eq!(&pick.edges, &expected);
            for edge in &expected {
                let row = rows.iter().find(|r| r.node == edge.child as usize);
                prop_assert!(row.is_some(), "the edge to {} has a row", edge.child);
                let text = &row.unwrap().text;
                prop_assert!(
                    text.contains(&edge_figures(edge)),
                    "{} should show {}", text, edge_figures(edge)
                );
            }
            let best = highest(&step.edges).unwrap();
            prop_assert_eq!(best.child, step.chosen);
            prop_assert_eq!(reference.select(step.parent).unwrap().child, step.chosen);
            for edge in &expected {
                let right = pick.grade(edge.index).slip.is_none();
                prop_assert_eq!(right, edge.child == step.chosen);
            }
        }
    }
}
