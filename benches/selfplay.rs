//! The self-play learner's costs: one forward pass of the hand-written policy/value network
//! at the sizes the learner uses (and at 27-64-9, the shape measured on burn's `NdArray`
//! backend for the README's comparison), one Adam step on a batch of 32, and one PUCT move
//! of 50 simulations from the empty tic-tac-toe board.

use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::learn::selfplay::learnable::Learnable;
use ai_arcade::domain::learn::selfplay::net::{Adam, PolicyValueNet, Sample};
use ai_arcade::domain::learn::selfplay::puct::{Puct, PuctSettings};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn forward(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay network forward");
    for (inputs, width, moves) in [(18, 64, 9), (27, 64, 9)] {
        let net = PolicyValueNet::new(inputs, &[width], moves, 1);
        let input = vec![1.0; inputs];
        let legal = vec![true; moves];
        let name = format!(
            "{inputs}-{width}-{moves}+1 ({} parameters)",
            net.parameter_count()
        );
        group.bench_function(name, |b| {
            b.iter(|| black_box(net.evaluate(black_box(&input), &legal)));
        });
    }
    group.finish();
}

fn train_step(c: &mut Criterion) {
    let board = Board::empty(Mark::X);
    let mut net = PolicyValueNet::new(Board::INPUTS, &[64], Board::MOVES, 1);
    let batch: Vec<Sample> = (0..32)
        .map(|_| Sample {
            input: board.encode(),
            legal: board.legal(),
            policy: vec![1.0 / 9.0; 9],
            value: 0.0,
        })
        .collect();
    let mut adam = Adam::new(1e-3, 1e-4);
    c.bench_function("selfplay train step, batch 32, 18-64-9+1", |b| {
        b.iter(|| black_box(net.train(&batch, &mut adam)));
    });
}

fn puct_move(c: &mut Criterion) {
    let net = PolicyValueNet::new(Board::INPUTS, &[64], Board::MOVES, 1);
    let settings = PuctSettings {
        c_puct: 1.5,
        noise: None,
    };
    c.bench_function("selfplay PUCT move, 50 simulations, tic-tac-toe", |b| {
        b.iter(|| {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let mut evaluator = &net;
            let mut tree = Puct::new(Board::empty(Mark::X), settings, &mut evaluator, &mut rng);
            tree.run(50, &mut evaluator);
            black_box(tree.choose(0.0, &mut rng))
        });
    });
}

criterion_group!(benches, forward, train_step, puct_move);
criterion_main!(benches);
