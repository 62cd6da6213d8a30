//! The exact Connect Four solver on ten openings of 8 to 12 moves, the kind of position the
//! best-known C++ solver (Pascal Pons's, without its opening book) is measured on: the
//! figure compared in the README's Performance section. The openings come from random
//! play with a fixed seed (`players::random_opening`: no four made, the game still on), so
//! every run solves the same ten. One iteration solves all ten, each with an empty table,
//! as that solver's benchmark resets its table between positions; criterion's time divided
//! by ten is the time a position.

use ai_arcade::domain::games::connect4::Board;
use ai_arcade::domain::search::players::random_opening;
use ai_arcade::domain::solve::connect4::Solver;
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// The seed of the ten openings.
const SEED: u64 = 2024;
/// How many openings.
const OPENINGS: u64 = 10;

/// Opening `i`: 8 to 12 moves, the length drawn from the seed too.
fn openings() -> Vec<Board> {
    (0..OPENINGS)
        .map(|i| {
            let moves = 8 + (i % 5) as usize;
            random_opening(SEED + i, moves).expect("random play reaches 12 moves with the game on")
        })
        .collect()
}

fn solve_openings(c: &mut Criterion) {
    let openings = openings();
    let mut solver = Solver::default();
    let mut group = c.benchmark_group("connect4 solver");
    // A second or more an iteration: ten samples of one iteration each, rather than
    // criterion's growing counts (55 iterations at the least).
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    group.throughput(Throughput::Elements(OPENINGS));
    group.bench_function(
        "10 random openings of 8-12 moves, table cleared each",
        |b| {
            b.iter(|| {
                openings
                    .iter()
                    .map(|board| {
                        solver.clear();
                        solver.solve(black_box(board))
                    })
                    .sum::<i32>()
            });
        },
    );
    group.finish();
}

criterion_group!(benches, solve_openings);
criterion_main!(benches);
