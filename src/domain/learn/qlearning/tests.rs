//! The Q-learner's tests: the update rule against the original formula, self-play's
//! rewards, the greedy choice and its record, the saved file round trip, training and the
//! measurement, across the files of `qlearning/`.

use super::*;
use crate::domain::games::nim::{NimMove, Piles, Rule};
use crate::domain::solve::nim as solver;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn original_game() -> QTable {
    QTable::new(Piles::new(&[1, 3, 5, 7]).unwrap(), Rule::Misere).unwrap()
}

#[test]
fn saved_tables_spell_the_original_starts_as_before() {
    let spelled = serde_json::to_string(&Starts::Original).unwrap();
    assert_eq!(spelled, "\"seed\"");
    let read: Starts = serde_json::from_str("\"seed\"").unwrap();
    assert_eq!(read, Starts::Original);
}

#[test]
fn the_update_rule_is_the_originals_formula() {
    let mut table = original_game();
    let start = table.start();
    let mv = NimMove { pile: 3, take: 7 };
    let next = start.after(mv);
    let later = NimMove { pile: 0, take: 1 };
    table.update(next, later, next.after(later), 0.0, 0.5);
    table.update(next, later, next.after(later), 1.0, 0.5); // Q(next, later) = 0.5
    let update = table.update(start, mv, next, -1.0, 0.5);
    assert_eq!(update.best_future, 0.5);
    assert!((update.new - (0.0 + 0.5 * (-1.0 + 0.5 - 0.0))).abs() < 1e-12);
    assert_eq!(table.q(&start, mv), update.new);
    assert_eq!(table.updates(&start, mv), 1);
    assert_eq!(table.entries(), 2);
}

#[test]
fn a_self_play_game_rewards_its_last_two_moves_and_nothing_else() {
    let mut table = original_game();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut updates = Vec::new();
    table.self_play(QSettings::default(), &mut rng, |u| updates.push(u));
    let n = updates.len();
    assert!(n >= 4);
    assert_eq!(updates[n - 2].reward, -1.0, "misère: the last taker loses");
    assert!(updates[n - 2].next.is_over());
    assert_eq!(updates[n - 1].reward, 1.0);
    assert!(updates[..n - 2].iter().all(|u| u.reward == 0.0));
    // Each non-final update looks two plies ahead: the same player's next position.
    for u in &updates[..n - 2] {
        assert!(u.state.total() - u.next.total() >= 2, "{u:?}");
    }
}

#[test]
fn decide_plays_what_greedy_plays_and_draws_the_same() {
    let mut table = original_game();
    let mut train = ChaCha8Rng::seed_from_u64(4);
    for games in [0, 30, 300] {
        for _ in 0..games {
            table.self_play(QSettings::default(), &mut train, |_| {});
        }
        let mut ties = 0;
        for (i, piles) in table.start().below().filter(|p| !p.is_over()).enumerate() {
            let mut a = ChaCha8Rng::seed_from_u64(i as u64);
            let mut b = a.clone();
            let decision = table.decide(&piles, &mut a).unwrap();
            assert_eq!(
                Some(decision.chosen),
                table.greedy(&piles, &mut b),
                "{piles}"
            );
            assert_eq!(a, b, "the same draws at {piles}");
            assert_eq!(decision.options.len(), piles.moves().count());
            for option in &decision.options {
                assert_eq!(option.q, table.q(&piles, option.mv));
                assert_eq!(option.updates, table.updates(&piles, option.mv));
            }
            match &decision.how {
                QHow::Greedy => {
                    assert_eq!(table.greedy_moves(&piles), vec![decision.chosen]);
                }
                QHow::Tie { among, drawn } => {
                    ties += 1;
                    assert_eq!(among, &table.greedy_moves(&piles));
                    assert_eq!(among[*drawn], decision.chosen);
                }
            }
        }
        if games == 0 {
            assert!(ties > 300, "an empty table ties everywhere");
        }
    }
}

#[test]
fn the_last_update_of_a_cell_is_kept_with_its_arithmetic() {
    let mut table = original_game();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut made = Vec::new();
    for _ in 0..50 {
        table.self_play(QSettings::default(), &mut rng, |u| made.push(u));
    }
    let last = *made.last().unwrap();
    assert_eq!(table.last_update(&last.state, last.mv, 0.5), Some(last));
    // Every cell's kept update is the last one made to it.
    for piles in table.start().below() {
        for mv in piles.moves() {
            let expected = made
                .iter()
                .rev()
                .find(|u| u.state == piles && u.mv == mv)
                .copied();
            assert_eq!(table.last_update(&piles, mv, 0.5), expected, "{piles} {mv}");
        }
    }
    // Saved and restored, the arithmetic comes back too.
    let mut copy = original_game();
    for entry in table.learned() {
        copy.restore(&entry).unwrap();
    }
    assert_eq!(copy, table);
    let mut entry = table.learned().pop().unwrap();
    entry.last.as_mut().unwrap().next = entry.state.clone();
    let error = copy.restore(&entry).unwrap_err();
    assert!(error.contains("does not follow it"), "{error}");
}

#[test]
fn saved_entries_restore_the_same_table() {
    let mut table = original_game();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..200 {
        table.self_play(QSettings::default(), &mut rng, |_| {});
    }
    let mut copy = original_game();
    for entry in table.learned() {
        copy.restore(&entry).unwrap();
    }
    assert_eq!(copy, table);
    let foreign = QEntry {
        state: vec![2, 3, 5, 7],
        pile: 0,
        take: 1,
        value: 0.0,
        updates: 1,
        last: None,
    };
    assert!(
        copy.restore(&foreign)
            .unwrap_err()
            .contains("not one of this game")
    );
}

#[test]
fn a_trainer_measures_as_it_goes_and_resumes_from_its_save() {
    let start = Piles::new(&[1, 3, 5, 7]).unwrap();
    let mut trainer =
        QTrainer::new(start, Rule::Misere, QSettings::default(), 1000, 250, 3).unwrap();
    trainer.train(600);
    assert_eq!(trainer.games, 600);
    let games: Vec<usize> = trainer.curve.iter().map(|e| e.games).collect();
    assert_eq!(games, [0, 250, 500]);
    trainer.train(10_000);
    assert!(trainer.is_done() && trainer.games == 1000);
    let saved = trainer.saved();
    let resumed = QTrainer::from_saved(&saved, 250).unwrap();
    assert_eq!(resumed.table, trainer.table);
    assert_eq!(resumed.curve, trainer.curve);
    assert!(
        saved
            .problem(start, Rule::Normal)
            .unwrap()
            .contains("normal")
    );
    let other = Piles::new(&[1, 3, 5]).unwrap();
    assert!(saved.problem(other, Rule::Misere).is_some());
    assert_eq!(saved.problem(start, Rule::Misere), None);
}

#[test]
fn the_default_recipe_learns_every_winning_position_of_the_original_game() {
    let start = Piles::new(&[1, 3, 5, 7]).unwrap();
    let settings = QSettings {
        starts: Starts::Exploring,
        ..QSettings::default()
    };
    for seed in [1, 2] {
        let mut trainer =
            QTrainer::new(start, Rule::Misere, settings, 20_000, 20_000, seed).unwrap();
        trainer.train(20_000);
        let evaluation = trainer.evaluation();
        assert_eq!(
            evaluation.optimal_states, evaluation.winning_states,
            "seed {seed}"
        );
        assert!(evaluation.win_rate_vs_random > 0.95);
        assert!((evaluation.win_rate_vs_perfect - 0.5).abs() < 1e-9);
    }
}

#[test]
fn a_table_too_large_is_refused_with_its_size() {
    let big = Piles::new(&[31; 6]).unwrap();
    let error = QTable::new(big, Rule::Misere).unwrap_err().to_string();
    assert!(error.contains("1,073,741,824 positions"), "{error}");
    assert!(error.contains("at most 2,000,000"), "{error}");
}

#[test]
fn an_untrained_table_is_measured_honestly() {
    let table = original_game();
    let evaluation = evaluate(&table, 0);
    assert_eq!(evaluation.winning_states, 384 - evaluation_losing(&table));
    assert_eq!(evaluation.optimal_states, count_single_move_wins(&table));
    assert!(evaluation.win_rate_vs_perfect <= 0.5);
}

/// Regression: a table trained with alpha 1e308 (a saved file once carried it) holds
/// infinities and NaN, and the greedy choice found no move: "a move exists while
/// objects remain" panicked in the measurement.
#[test]
fn a_table_of_nan_still_plays_and_measures_without_panicking() {
    let start = Piles::new(&[1, 3, 5, 7]).unwrap();
    let settings = QSettings {
        alpha: 1e308,
        ..QSettings::default()
    };
    let mut trainer = QTrainer::new(start, Rule::Misere, settings, 200, 100, 1).unwrap();
    trainer.train(200);
    assert!(
        trainer.table.values.iter().any(|v| v.is_nan()),
        "the overflow this test is about happened"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for piles in start.below().filter(|p| !p.is_over()) {
        assert!(trainer.table.greedy(&piles, &mut rng).is_some(), "{piles}");
        assert!(!trainer.table.greedy_moves(&piles).is_empty(), "{piles}");
    }
}

#[test]
fn a_saved_table_with_settings_the_config_refuses_is_not_used() {
    let start = Piles::new(&[1, 3, 5, 7]).unwrap();
    let trainer = QTrainer::new(start, Rule::Misere, QSettings::default(), 10, 10, 1).unwrap();
    let good = trainer.saved();
    assert_eq!(good.problem(start, Rule::Misere), None);
    for (alpha, epsilon) in [(1e308, 0.1), (0.0, 0.1), (f64::NAN, 0.1), (0.5, 1.5)] {
        let mut bad = good.clone();
        bad.settings.alpha = alpha;
        bad.settings.epsilon = epsilon;
        let why = bad.problem(start, Rule::Misere).expect("refused");
        assert!(why.contains("out of range (allowed: "), "{why}");
    }
    let mut bad = good.clone();
    bad.entries.push(QEntry {
        state: vec![1, 3, 5, 7],
        pile: 0,
        take: 1,
        value: 1e300,
        updates: 1,
        last: None,
    });
    assert!(QTrainer::from_saved(&bad, 10).is_err());
}

fn evaluation_losing(table: &QTable) -> usize {
    table
        .start()
        .below()
        .filter(|p| !solver::has_winning_move(p, table.rule()))
        .count()
}

/// With every Q at 0 all moves tie, so only positions where every move wins count.
fn count_single_move_wins(table: &QTable) -> usize {
    table
        .start()
        .below()
        .filter(|p| solver::has_winning_move(p, table.rule()))
        .filter(|p| {
            p.moves()
                .all(|mv| solver::is_winning_move(p, table.rule(), mv))
        })
        .count()
}
