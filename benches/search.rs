//! Full-tree searches from the empty tic-tac-toe board: the figures compared with the original
//! program's own C++ search (`benches/seed_cpp`) in the closing notes, and the cost of the recorded
//! step machine the tree pane uses.

use ai_arcade::domain::games::eight::Eight;
use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::search::{Algorithm, Stepper, search};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn full_tree(c: &mut Criterion) {
    let empty = Board::empty(Mark::X);
    let mut group = c.benchmark_group("empty board");
    group.bench_function("minimax (549,946 nodes)", |b| {
        b.iter(|| search(black_box(&empty), Algorithm::Minimax));
    });
    group.bench_function("alpha-beta (20,866 nodes)", |b| {
        b.iter(|| search(black_box(&empty), Algorithm::AlphaBeta));
    });
    group.sample_size(10);
    group.bench_function("stepper run to end, minimax", |b| {
        b.iter(|| {
            let mut stepper = Stepper::new(black_box(empty), Algorithm::Minimax);
            stepper.run_to_end();
            stepper.result()
        });
    });
    group.finish();
}

fn game_of_eight(c: &mut Criterion) {
    c.bench_function("game of eight, stepper run to end, minimax", |b| {
        b.iter(|| {
            let mut stepper = Stepper::new(black_box(Eight::start()), Algorithm::Minimax);
            stepper.run_to_end();
            stepper.result()
        });
    });
}

criterion_group!(benches, full_tree, game_of_eight);
criterion_main!(benches);
