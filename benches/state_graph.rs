//! Learning Nim(10)'s state graph from 10,000 random games, the original program's training run.

use ai_arcade::domain::learn::state_graph::StateGraph;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn ten_thousand_games(c: &mut Criterion) {
    c.bench_function("state graph: 10,000 random games of Nim(10)", |b| {
        b.iter(|| {
            let mut graph = StateGraph::new(10, 2);
            graph.train(10_000, &mut ChaCha8Rng::seed_from_u64(black_box(1)));
            graph.optimal_share()
        });
    });
}

criterion_group!(benches, ten_thousand_games);
criterion_main!(benches);
