//! A full default training run of the Subtraction Nim network (4000 epochs over piles
//! 2..=127, 14 hidden units): the figure compared with the original program's C++ trainer
//! (`benches/seed_cpp/seed_mlp.cpp`, the same sizes and epochs).

use ai_arcade::domain::learn::subtraction::{Recipe, Trainer};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn full_training(c: &mut Criterion) {
    let mut group = c.benchmark_group("subtraction nim");
    group.sample_size(10);
    for (name, recipe) in [
        ("default recipe", Recipe::DEFAULT),
        ("seed recipe", Recipe::ORIGINAL),
    ] {
        group.bench_function(format!("train 4000 epochs, {name}"), |b| {
            b.iter(|| {
                let mut trainer = Trainer::new(127, recipe, black_box(1));
                trainer.train_epochs(recipe.epochs);
                trainer.losses.last().copied()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, full_training);
criterion_main!(benches);
