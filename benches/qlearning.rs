//! Q-learning self-play, the hot loop of `train qlearning`: 10,000 training games on the
//! original program's [1,3,5,7] under misère play, with its recipe (every game from the
//! start) and with exploring starts. The bar is the original program's Python
//! (`python3 benches/seed_py/nim_q.py 10000`), which the issue asks to beat 100 times over.

use ai_arcade::domain::games::nim::{Piles, Rule};
use ai_arcade::domain::learn::qlearning::{QSettings, QTable, Starts, evaluate};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn train(starts: Starts) -> QTable {
    let start = Piles::new(&[1, 3, 5, 7]).expect("the original program's piles");
    let mut table = QTable::new(start, Rule::Misere).expect("small enough");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let settings = QSettings {
        starts,
        ..QSettings::default()
    };
    for _ in 0..10_000 {
        table.self_play(settings, &mut rng, |_| {});
    }
    table
}

fn bench_qlearning(c: &mut Criterion) {
    let mut group = c.benchmark_group("qlearning");
    group.sample_size(20);
    group.bench_function("10k games, seed recipe", |b| {
        b.iter(|| black_box(train(Starts::Original)));
    });
    group.bench_function("10k games, exploring starts", |b| {
        b.iter(|| black_box(train(Starts::Exploring)));
    });
    let table = train(Starts::Exploring);
    group.bench_function("one evaluation (1,000 games per opponent)", |b| {
        b.iter(|| black_box(evaluate(&table, 10_000)));
    });
    group.finish();
}

criterion_group!(benches, bench_qlearning);
criterion_main!(benches);
