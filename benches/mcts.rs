//! Monte Carlo tree search from the empty board: 10,000 iterations a sample (a fresh, seeded
//! search each time, so the tree grows as it does in play), on Connect Four with its
//! bitboard rollouts and on tic-tac-toe with the generic ones. Iterations per second are
//! 10,000 divided by the time shown; `ai-arcade bench mcts` measures longer runs.

use ai_arcade::domain::games::connect4;
use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::search::mcts::{DEFAULT_EXPLORATION, Mcts, MctsStepper};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const ITERATIONS: u64 = 10_000;

fn empty_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts, empty board");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.bench_function("connect four, 10,000 iterations", |b| {
        b.iter(|| {
            let mut mcts = Mcts::new(black_box(connect4::Board::new()), DEFAULT_EXPLORATION, 7);
            mcts.run(ITERATIONS);
            mcts.best_move()
        });
    });
    group.bench_function("tic-tac-toe, 10,000 iterations", |b| {
        b.iter(|| {
            let mut mcts = Mcts::new(black_box(Board::empty(Mark::X)), DEFAULT_EXPLORATION, 7);
            mcts.run(ITERATIONS);
            mcts.best_move()
        });
    });
    group.finish();
}

/// The stepper's cost per phase with its records, against the whole iterations above.
fn stepper(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts stepper, empty board");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.bench_function("connect four, 10,000 iterations phase by phase", |b| {
        b.iter(|| {
            let mut stepper =
                MctsStepper::new(black_box(connect4::Board::new()), DEFAULT_EXPLORATION, 7);
            for _ in 0..4 * ITERATIONS {
                stepper.step();
            }
            stepper.mcts().best_move()
        });
    });
    group.finish();
}

criterion_group!(benches, empty_boards, stepper);
criterion_main!(benches);
