//! The self-play learner's costs: one forward pass of the hand-written policy/value network
//! at the sizes the learners use (tic-tac-toe 18-64-64-9+1, the 5 x 4 board 40-64-64-5+1,
//! Connect Four 84-128-128-7+1), and at 27-64-9, the shape measured on burn's `NdArray`
//! backend for the README's comparison; one Adam step on a batch of the tic-tac-toe
//! learner's size; and one PUCT move from the empty board: 50 simulations of tic-tac-toe,
//! 100 of Connect Four (beside `cargo bench --bench mcts`'s plain MCTS iterations).

use ai_arcade::domain::games::connect4::Board as Connect4;
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
    for (inputs, widths, moves) in [
        (18, vec![64, 64], 9),
        (40, vec![64, 64], 5),
        (84, vec![128, 128], 7),
        (27, vec![64], 9),
    ] {
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

/// One PUCT move of `simulations` from `root`, with the untrained network of `learner`'s
/// shape.
fn bench_puct<G: Learnable>(
    c: &mut Criterion,
    name: &str,
    root: G,
    learner: &SelfPlaySettings,
    simulations: u32,
) {
    let net = PolicyValueNet::new(G::INPUTS, &learner.widths, G::MOVES, 1);
    let settings = PuctSettings {
        c_puct: learner.c_puct,
        noise: None,
    };
    c.bench_function(name, |b| {
        b.iter(|| {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let mut evaluator = &net;
            let mut tree = Puct::new(root, settings, &mut evaluator, &mut rng);
            tree.run(simulations, &mut evaluator);
            black_box(tree.choose(0.0, &mut rng))
        });
    });
}

fn puct_move(c: &mut Criterion) {
    bench_puct(
        c,
        "selfplay PUCT move, 50 simulations, tic-tac-toe",
        Board::empty(Mark::X),
        &SelfPlaySettings::tictactoe(1),
        50,
    );
    bench_puct(
        c,
        "selfplay PUCT move, 100 simulations, connect four",
        Connect4::new(),
        &SelfPlaySettings::connect4(1),
        100,
    );
}

criterion_group!(benches, forward, train_step, puct_move);
criterion_main!(benches);
