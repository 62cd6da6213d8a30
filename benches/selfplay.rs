//! The self-play learner's costs: one forward pass of the hand-written policy/value network
//! at the size the tic-tac-toe learner uses (18-64-64-9+1), and at 27-64-9, the shape
//! measured on burn's `NdArray` backend for the README's comparison; one Adam step on a
//! batch of the learner's size; and one PUCT move of its 50 simulations from the empty
//! tic-tac-toe board.

use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::learn::selfplay::learnable::Learnable;
use ai_arcade::domain::learn::selfplay::net::{Adam, PolicyValueNet, Sample};
use ai_arcade::domain::learn::selfplay::puct::{Puct, PuctSettings};
use ai_arcade::domain::learn::selfplay::trainer::SelfPlaySettings;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn forward(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay network forward");
    for (inputs, widths, moves) in [(18, vec![64, 64], 9), (27, vec![64], 9)] {
        let net = PolicyValueNet::new(inputs, &widths, moves, 1);
        let input = vec![1.0; inputs];
        let legal = vec![true; moves];
        let trunk: Vec<String> = widths.iter().map(ToString::to_string).collect();
        let name = format!(
            "{inputs}-{}-{moves}+1 ({} parameters)",
            trunk.join("-"),
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
    let settings = SelfPlaySettings::tictactoe(1);
    let mut net = PolicyValueNet::new(Board::INPUTS, &settings.widths, Board::MOVES, 1);
    let batch: Vec<Sample> = (0..settings.batch)
        .map(|_| Sample {
            input: board.encode(),
            legal: board.legal(),
            policy: vec![1.0 / 9.0; 9],
            value: 0.0,
        })
        .collect();
    let mut adam = Adam::new(settings.learning_rate, settings.weight_decay);
    c.bench_function("selfplay train step, batch 64, 18-64-64-9+1", |b| {
        b.iter(|| black_box(net.train(&batch, &mut adam)));
    });
}

fn puct_move(c: &mut Criterion) {
    let learner = SelfPlaySettings::tictactoe(1);
    let net = PolicyValueNet::new(Board::INPUTS, &learner.widths, Board::MOVES, 1);
    let settings = PuctSettings {
        c_puct: learner.c_puct,
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
