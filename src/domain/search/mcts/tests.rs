//! The search's promises: one seed one tree, the stepper and `run` the same search, step
//! back exact, the counts consistent, the fast Connect Four playout the generic one, and
//! the moves anyone would make in positions with a win or a loss one move away.

// W is counted in halves, so the wins compared are exact; equal UCB values are the same
// computation's result.
#![allow(clippy::float_cmp)]

use super::*;
use crate::domain::games::connect4;
use crate::domain::games::tictactoe::{self, Mark};
use crate::domain::games::{Game, Outcome};

fn ttt(cells: &str, to_move: Mark) -> tictactoe::Board {
    tictactoe::Board::parse(cells, Some(to_move)).expect("a legal position")
}

fn c4(moves: &str) -> connect4::Board {
    connect4::Board::parse(moves).expect("a legal position")
}

/// Every node's fields, untried slots included, in arena order: what "the same tree" means.
fn snapshot<G: Rollout>(mcts: &Mcts<G>) -> Vec<Node<G::Move>> {
    (0..mcts.slot_count() as NodeId)
        .map(|id| *mcts.node(id))
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_tree_and_another_seed_another() {
    let mut first = Mcts::new(connect4::Board::new(), DEFAULT_EXPLORATION, 11);
    let mut again = Mcts::new(connect4::Board::new(), DEFAULT_EXPLORATION, 11);
    let mut other = Mcts::new(connect4::Board::new(), DEFAULT_EXPLORATION, 12);
    for mcts in [&mut first, &mut again, &mut other] {
        mcts.run(3_000);
    }
    assert_eq!(snapshot(&first), snapshot(&again));
    assert_eq!(first.root_moves(), again.root_moves());
    assert_eq!(first.best_move(), again.best_move());
    assert_ne!(
        snapshot(&first),
        snapshot(&other),
        "seeds 11 and 12 played alike"
    );
}

#[test]
fn stepping_every_phase_of_k_iterations_builds_the_tree_run_builds() {
    for (k, seed) in [(1, 3), (9, 5), (400, 7)] {
        let mut run = Mcts::new(tictactoe::Board::empty(Mark::X), DEFAULT_EXPLORATION, seed);
        run.run(k);
        let mut stepper =
            MctsStepper::new(tictactoe::Board::empty(Mark::X), DEFAULT_EXPLORATION, seed);
        let mut phases = Vec::new();
        for _ in 0..4 * k {
            phases.push(stepper.phase());
            stepper.step();
            assert_eq!(
                stepper.last_phase_record().map(PhaseRecord::phase),
                phases.last().copied()
            );
        }
        assert_eq!(phases[..4], Phase::ALL);
        assert_eq!(stepper.mcts(), &run, "k = {k}");
        assert_eq!(stepper.mcts().best_move(), run.best_move());

        let mut connect_four = Mcts::new(connect4::Board::new(), 0.9, seed);
        connect_four.run(k);
        let mut stepper = MctsStepper::new(connect4::Board::new(), 0.9, seed);
        for _ in 0..4 * k {
            stepper.step();
        }
        assert_eq!(stepper.mcts(), &connect_four, "connect four, k = {k}");
    }
}

#[test]
fn run_iterations_finishes_the_iteration_under_way_and_keeps_the_last_records() {
    let root = connect4::Board::new();
    let mut stepper = MctsStepper::new(root, DEFAULT_EXPLORATION, 2);
    stepper.step();
    stepper.step();
    stepper.run_iterations(50);
    assert_eq!(stepper.phases(), 200);
    assert_eq!(stepper.phase(), Phase::Selection);
    let mut run = Mcts::new(root, DEFAULT_EXPLORATION, 2);
    run.run(50);
    assert_eq!(stepper.mcts(), &run);
    let mut stepped = MctsStepper::new(root, DEFAULT_EXPLORATION, 2);
    for _ in 0..200 {
        stepped.step();
    }
    assert_eq!(stepper, stepped, "the same records as stepping every phase");
}

#[test]
fn step_back_after_every_step_restores_the_state_one_phase_earlier() {
    let games: [(connect4::Board, u64); 2] = [(connect4::Board::new(), 4), (c4("4444"), 9)];
    for (root, seed) in games {
        let mut stepper = MctsStepper::new(root, DEFAULT_EXPLORATION, seed);
        let mut previous = stepper.clone();
        for phase in 1..=160 {
            stepper.step();
            let after = stepper.clone();
            assert!(stepper.step_back());
            assert_eq!(stepper, previous, "back from phase {phase}");
            assert_eq!(snapshot(stepper.mcts()), snapshot(previous.mcts()));
            stepper = after;
            previous = stepper.clone();
        }
    }
    let mut fresh = MctsStepper::new(c4(""), DEFAULT_EXPLORATION, 1);
    assert!(!fresh.step_back(), "nothing to take back at the start");
    assert_eq!(fresh.last_phase_record(), None);
}

#[test]
fn step_back_repeatedly_walks_the_same_states_backwards() {
    let root = ttt(".........", Mark::O);
    let mut forward = vec![MctsStepper::new(root, 1.0, 21)];
    for _ in 0..60 {
        let mut next = forward.last().unwrap().clone();
        next.step();
        forward.push(next);
    }
    let mut stepper = forward.last().unwrap().clone();
    for expected in forward.iter().rev().skip(1) {
        assert!(stepper.step_back());
        assert_eq!(&stepper, expected);
    }
}

#[test]
fn go_to_any_phase_reaches_the_state_that_many_steps_reach() {
    let root = ttt(".........", Mark::O);
    let mut forward = vec![MctsStepper::new(root, 1.0, 21)];
    for _ in 0..40 {
        let mut next = forward.last().unwrap().clone();
        next.step();
        forward.push(next);
    }
    let mut stepper = forward[17].clone();
    for target in [3_usize, 40, 0, 22, 21, 9] {
        stepper.go_to(target as u64);
        assert_eq!(stepper, forward[target], "go to {target}");
    }
}

/// `N` of a node is the iterations through it: the sum of its children's, plus the one that
/// expanded it (not the root), plus, for a node where the game is over, every later visit.
fn assert_counts_add_up<G: Rollout>(mcts: &Mcts<G>) {
    assert_eq!(mcts.root().visits(), mcts.iterations());
    let mut in_tree = 0;
    for (id, node) in mcts.nodes() {
        in_tree += 1;
        assert!(node.half_wins() <= 2 * node.visits(), "W ≤ N at {id}");
        let below: u64 = mcts.children(id).map(|(_, child)| child.visits()).sum();
        if node.is_terminal() {
            assert_eq!(below, 0, "a finished game has no children ({id})");
        } else if id == ROOT {
            assert_eq!(node.visits(), below, "root");
        } else {
            assert_eq!(node.visits(), below + 1, "node {id}");
        }
        if let Some(parent) = node.parent() {
            assert!(mcts.node(parent).children().contains(&id));
        }
    }
    assert_eq!(in_tree, mcts.node_count());
    assert!(
        mcts.node_count() as u64 <= mcts.iterations() + 1,
        "one node an iteration"
    );
}

#[test]
fn root_visits_are_the_iterations_and_every_node_adds_up() {
    let mut connect_four = Mcts::new(connect4::Board::new(), DEFAULT_EXPLORATION, 8);
    connect_four.run(5_000);
    assert_counts_add_up(&connect_four);
    // Every iteration expands one node until the tic-tac-toe tree is whole; terminal nodes
    // then take the visits.
    let mut small = Mcts::new(ttt("XO.XO....", Mark::X), DEFAULT_EXPLORATION, 8);
    small.run(3_000);
    assert_counts_add_up(&small);
    assert!(
        small
            .nodes()
            .any(|(_, node)| node.is_terminal() && node.visits() > 1)
    );
}

#[test]
fn w_counts_for_the_player_who_moved_into_the_node() {
    // X wins at once with cell 3 (0-based 2): every iteration through that child is an X
    // win, so its W is its N; the root's W counts for O, who is not to move, and is lower.
    let mut mcts = Mcts::new(ttt("XX.OO....", Mark::X), DEFAULT_EXPLORATION, 1);
    mcts.run(500);
    let win = mcts
        .root_moves()
        .into_iter()
        .find(|stats| stats.mv == 2)
        .expect("cell 3 was tried");
    assert_eq!(win.wins, win.visits as f64);
    assert!(mcts.node(win.node).is_terminal());
    let root = mcts.root();
    assert!(
        root.wins() < root.visits() as f64 / 2.0,
        "O's share at the root"
    );
}

#[test]
fn a_draw_counts_one_half() {
    // One empty cell left and no line possible: every playout is a draw.
    let mut mcts = Mcts::new(ttt("XOXXOOOX.", Mark::X), DEFAULT_EXPLORATION, 1);
    mcts.run(3);
    let only = mcts.root_moves()[0];
    assert_eq!((only.visits, only.wins), (3, 1.5));
    assert_eq!(mcts.node(only.node).half_wins(), 3);
}

#[test]
fn the_ucb_shown_now_is_the_ucb_the_next_selection_uses() {
    let mut stepper = MctsStepper::new(connect4::Board::new(), DEFAULT_EXPLORATION, 9);
    stepper.run_iterations(200);
    let mut compared = 0;
    for _ in 0..400 {
        let before: std::collections::HashMap<NodeId, Option<f64>> = stepper
            .mcts()
            .nodes()
            .map(|(id, _)| (id, stepper.mcts().ucb_now(id)))
            .collect();
        stepper.step();
        let Some(PhaseRecord::Selection { steps, .. }) = stepper.last_phase_record() else {
            continue;
        };
        for candidate in steps.iter().flat_map(|step| &step.candidates) {
            assert_eq!(before[&candidate.node], Some(candidate.ucb));
            compared += 1;
        }
    }
    assert!(compared > 100, "only {compared} candidates compared");
}

#[test]
fn the_last_ucb_values_are_the_formula_and_the_chosen_child_had_the_highest() {
    let mut stepper = MctsStepper::new(connect4::Board::new(), DEFAULT_EXPLORATION, 6);
    stepper.run_iterations(300);
    let mut checked = 0;
    for _ in 0..200 {
        stepper.step();
        let Some(PhaseRecord::Selection { path, steps }) = stepper.last_phase_record() else {
            continue;
        };
        assert_eq!(path.len(), steps.len() + 1);
        for (step, &next) in steps.iter().zip(&path[1..]) {
            assert_eq!(step.chosen, next);
            let highest = step
                .candidates
                .iter()
                .map(|c| c.ucb)
                .fold(f64::NEG_INFINITY, f64::max);
            let first_highest = step.candidates.iter().find(|c| c.ucb == highest).unwrap();
            assert_eq!(
                first_highest.node, step.chosen,
                "the first of the highest wins"
            );
            for candidate in &step.candidates {
                let formula = candidate.wins / candidate.visits as f64
                    + DEFAULT_EXPLORATION
                        * ((step.parent_visits as f64).ln() / candidate.visits as f64).sqrt();
                assert!((candidate.ucb - formula).abs() < 1e-12);
                assert_eq!(
                    stepper.mcts().node(candidate.node).last_ucb(),
                    Some(candidate.ucb)
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked > 50,
        "only {checked} selection steps compared children"
    );
}

#[test]
fn the_phases_record_what_they_did() {
    let mut stepper = MctsStepper::new(ttt("XX.OO....", Mark::O), DEFAULT_EXPLORATION, 3);
    stepper.step();
    assert_eq!(
        stepper.last_phase_record(),
        Some(&PhaseRecord::Selection {
            path: vec![ROOT],
            steps: vec![]
        }),
        "the root has untried moves: selection stops at once"
    );
    stepper.step();
    let Some(&PhaseRecord::Expansion(Expansion::Added { node, mv })) = stepper.last_phase_record()
    else {
        panic!("expected a new node: {:?}", stepper.last_phase_record());
    };
    assert_eq!(mv, 2, "the first legal move");
    assert_eq!(stepper.mcts().untried_moves(ROOT), vec![5, 6, 7, 8]);
    stepper.step();
    let Some(PhaseRecord::Simulation {
        from,
        moves,
        outcome,
    }) = stepper.last_phase_record().cloned()
    else {
        panic!("expected the rollout");
    };
    assert_eq!(from, node);
    let end = moves
        .iter()
        .fold(stepper.mcts().position(node), |position, &mv| {
            position.play(mv)
        });
    assert_eq!(
        end.outcome(),
        Some(outcome),
        "the moves lead to the outcome"
    );
    stepper.step();
    let Some(PhaseRecord::Backpropagation { changes }) = stepper.last_phase_record() else {
        panic!("expected backpropagation");
    };
    assert_eq!(changes.len(), 2);
    assert_eq!((changes[0].node, changes[1].node), (node, ROOT));
    assert!(changes.iter().all(|change| change.visits == (0, 1)));
    let credited = |mover: Mark| match outcome {
        Outcome::Winner(winner) if winner == mover => 2,
        Outcome::Winner(_) => 0,
        Outcome::Draw => 1,
    };
    assert_eq!(changes[0].half_wins, (0, credited(Mark::O)));
    assert_eq!(changes[1].half_wins, (0, credited(Mark::X)));
}

#[test]
fn the_node_limit_stops_expansion_but_not_the_iterations() {
    let mut mcts = Mcts::new(connect4::Board::new(), DEFAULT_EXPLORATION, 5).with_node_limit(30);
    mcts.run(2_000);
    assert!(mcts.slot_count() <= 30, "{} slots", mcts.slot_count());
    assert!(mcts.node_count() < 30);
    assert_eq!(mcts.root().visits(), 2_000);
    let mut stepper = MctsStepper::over(
        Mcts::new(connect4::Board::new(), DEFAULT_EXPLORATION, 5).with_node_limit(30),
    );
    stepper.run_iterations(2_000);
    assert_eq!(stepper.mcts(), &mcts);
    stepper.run_iterations(1);
    let refused = (0..4).any(|_| {
        stepper.step();
        matches!(
            stepper.last_phase_record(),
            Some(PhaseRecord::Expansion(Expansion::NodeLimit { .. }))
        )
    });
    assert!(refused, "a full tree refuses to expand");
}

#[test]
fn a_finished_game_has_no_move_and_counts_its_result() {
    let mut mcts = Mcts::new(c4("1212121"), DEFAULT_EXPLORATION, 1);
    mcts.run(10);
    assert_eq!(mcts.best_move(), None);
    assert_eq!(mcts.root().visits(), 10);
    assert_eq!(mcts.root().wins(), 10.0, "red won, and red is not to move");
    assert_eq!(mcts.node_count(), 1);
}

#[test]
fn the_bitboard_playout_plays_the_generic_playouts_games() {
    for (start, seed) in [(c4(""), 1), (c4("4455"), 2), (c4("1234567"), 3)] {
        let (mut fast_rng, mut generic_rng) = (SplitMix64::new(seed), SplitMix64::new(seed));
        for _ in 0..300 {
            let (mut fast, mut generic) = (Vec::new(), Vec::new());
            let fast_outcome = start.playout(&mut fast_rng, Some(&mut fast));
            let generic_outcome = uniform_playout(&start, &mut generic_rng, Some(&mut generic));
            assert_eq!(fast, generic);
            assert_eq!(fast_outcome, generic_outcome);
            let end = fast
                .iter()
                .fold(start, |board, &column| Game::play(&board, column));
            assert_eq!(Game::outcome(&end), Some(fast_outcome));
        }
        assert_eq!(fast_rng, generic_rng);
    }
}

/// The same on the small board (5 columns of 4), whose bitboard playout shares the code,
/// and an MCTS search runs there: its tree's root counts every iteration.
#[test]
fn the_bitboard_playout_plays_the_generic_playouts_games_on_the_small_board() {
    let parse = |moves: &str| connect4::SmallBoard::parse(moves).expect("a legal position");
    for (start, seed) in [(parse(""), 4), (parse("3344"), 5), (parse("12345"), 6)] {
        let (mut fast_rng, mut generic_rng) = (SplitMix64::new(seed), SplitMix64::new(seed));
        for _ in 0..300 {
            let (mut fast, mut generic) = (Vec::new(), Vec::new());
            let fast_outcome = start.playout(&mut fast_rng, Some(&mut fast));
            let generic_outcome = uniform_playout(&start, &mut generic_rng, Some(&mut generic));
            assert_eq!(fast, generic);
            assert_eq!(fast_outcome, generic_outcome);
            assert!(fast.iter().all(|&column| column < 5), "{fast:?}");
            let end = fast
                .iter()
                .fold(start, |board, &column| Game::play(&board, column));
            assert_eq!(Game::outcome(&end), Some(fast_outcome));
        }
        assert_eq!(fast_rng, generic_rng);
    }
    let mut mcts = Mcts::new(parse(""), DEFAULT_EXPLORATION, 3);
    mcts.run(2_000);
    assert_counts_add_up(&mcts);
}

#[test]
fn splitmix64_is_the_published_sequence_and_below_is_uniform() {
    // The first outputs for seed 0, as the reference implementation gives them.
    let mut rng = SplitMix64::new(0);
    assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    let mut rng = SplitMix64::new(42);
    let mut counts = [0u32; 7];
    for _ in 0..70_000 {
        counts[rng.below(7) as usize] += 1;
    }
    // Each count is about 10,000 (standard deviation about 93).
    assert!(
        counts.iter().all(|&n| (9_600..=10_400).contains(&n)),
        "{counts:?}"
    );
    assert!((0..1000).all(|_| rng.below(1) == 0));
}

#[test]
fn tictactoe_takes_an_immediate_win() {
    let cases = [
        ("XX.OO....", Mark::X, 2),
        ("OO.XX....", Mark::X, 5),
        ("X.O.XO...", Mark::X, 8),
        ("O.X.OX...", Mark::O, 8),
    ];
    for (cells, to_move, win) in cases {
        let mut mcts = Mcts::new(ttt(cells, to_move), DEFAULT_EXPLORATION, 17);
        mcts.run(5_000);
        assert_eq!(
            mcts.best_move(),
            Some(win),
            "{cells} with {to_move} to move"
        );
    }
}

#[test]
fn tictactoe_blocks_an_immediate_loss() {
    let cases = [
        ("OO..X....", Mark::X, 2),
        ("X...O..O.", Mark::X, 1),
        ("XO..X....", Mark::O, 8),
        ("...XX.O..", Mark::O, 5),
    ];
    for (cells, to_move, block) in cases {
        let mut mcts = Mcts::new(ttt(cells, to_move), DEFAULT_EXPLORATION, 23);
        mcts.run(5_000);
        assert_eq!(
            mcts.best_move(),
            Some(block),
            "{cells} with {to_move} to move"
        );
    }
}

#[test]
fn connect_four_takes_a_win_in_one() {
    // Red has three in column 1, yellow three in column 2: red must win now, not block.
    for (moves, win) in [("121212", 0), ("112233", 3), ("767676", 6)] {
        let mut mcts = Mcts::new(c4(moves), DEFAULT_EXPLORATION, 31);
        mcts.run(20_000);
        assert_eq!(mcts.best_move(), Some(win), "after {moves}");
    }
}

#[test]
fn connect_four_blocks_a_one_move_threat() {
    // Yellow has three in column 4; red cannot win at once and must block it. Then red's
    // three on the bottom row against the right edge, which yellow must close in column 4.
    for (moves, block) in [("141424", 3), ("51617", 3)] {
        let mut mcts = Mcts::new(c4(moves), DEFAULT_EXPLORATION, 37);
        mcts.run(20_000);
        assert_eq!(mcts.best_move(), Some(block), "after {moves}");
    }
}
