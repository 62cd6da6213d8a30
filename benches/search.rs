//! Full-tree searches from the empty tic-tac-toe board: the figures compared with the original
//! program's own C++ search (`benches/seed_cpp`) in the closing notes, and the cost of the recorded
//! step machine the tree pane uses.

use ai_arcade::domain::games::eight::Eight;
use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::search::{Algorithm, MoveOrder, Stepper, search, search_ordered};
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

/// What `o` computes for the empty board: alpha-beta in every order, and plain minimax once.
fn move_orders(c: &mut Criterion) {
    let empty = Board::empty(Mark::X);
    let mut group = c.benchmark_group("move orders, empty board");
    for order in MoveOrder::ALL {
        group.bench_function(format!("alpha-beta, {order:?}"), |b| {
            b.iter(|| search_ordered(black_box(&empty), Algorithm::AlphaBeta, order));
        });
    }
    group.bench_function("the whole comparison (3 alpha-beta, 1 minimax)", |b| {
        b.iter(|| {
            let counts: Vec<u64> = MoveOrder::ALL
                .iter()
                .map(|&order| {
                    search_ordered(black_box(&empty), Algorithm::AlphaBeta, order)
                        .stats
                        .nodes
                })
                .collect();
            (
                counts,
                search(black_box(&empty), Algorithm::Minimax).stats.nodes,
            )
        });
    });
    group.finish();
}

criterion_group!(benches, full_tree, game_of_eight, move_orders);
criterion_main!(benches);
