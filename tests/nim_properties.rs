//! Property tests of Multi-pile Nim: the solver's formulas against a search of the whole
//! game, and every player (Q-table, network decoder, perfect, random) only ever moving
//! legally.

use ai_arcade::domain::games::nim::{Piles, Rule};
use ai_arcade::domain::learn::nim_net::{NetGame, legal_decode};
use ai_arcade::domain::learn::qlearning::{QSettings, QTable, Starts};
use ai_arcade::domain::solve::nim as solver;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn any_rule() -> impl Strategy<Value = Rule> {
    prop_oneof![Just(Rule::Misere), Just(Rule::Normal)]
}

fn small_piles() -> impl Strategy<Value = Piles> {
    prop::collection::vec(0u8..=4, 1..=4).prop_map(|sizes| Piles::new(&sizes).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_solver_agrees_with_a_search_of_the_whole_game(piles in small_piles(), rule in any_rule()) {
        prop_assert_eq!(solver::mover_wins(&piles, rule), solver::mover_wins_by_search(&piles, rule));
        for mv in solver::winning_moves(&piles, rule) {
            prop_assert!(piles.play(mv).is_ok());
            prop_assert!(!solver::mover_wins_by_search(&piles.after(mv), rule));
        }
        if let Some(mv) = solver::perfect_move(&piles, rule) {
            prop_assert!(piles.play(mv).is_ok());
        } else {
            prop_assert!(piles.is_over());
        }
    }

    #[test]
    fn the_q_table_only_moves_legally(
        start in prop::collection::vec(0u8..=5, 1..=4),
        rule in any_rule(),
        games in 0usize..200,
        seed in any::<u64>(),
        exploring in any::<bool>(),
    ) {
        let start = Piles::new(&start).unwrap();
        prop_assume!(!start.is_over());
        let mut table = QTable::new(start, rule).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let settings = QSettings {
            starts: if exploring { Starts::Exploring } else { Starts::Original },
            ..QSettings::default()
        };
        for _ in 0..games {
            table.self_play(settings, &mut rng, |u| {
                assert!(u.state.play(u.mv).is_ok(), "{u:?}");
                assert!(u.new.is_finite() && u.new.abs() <= 2.0, "{u:?}");
            });
        }
        for piles in start.below() {
            let greedy = table.greedy(&piles, &mut rng);
            let explored = table.explore(&piles, 0.5, &mut rng);
            if piles.is_over() {
                prop_assert!(greedy.is_none() && explored.is_none());
            } else {
                prop_assert!(piles.play(greedy.unwrap()).is_ok());
                prop_assert!(piles.play(explored.unwrap()).is_ok());
            }
        }
    }

    #[test]
    fn the_network_decoder_only_moves_legally(
        sizes in prop::collection::vec(0u8..=31, 3),
        output in prop::collection::vec(0.0f64..=1.0, 9),
    ) {
        let piles = Piles::new(&sizes).unwrap();
        let decoded = legal_decode(NetGame::ORIGINAL, &output, &piles);
        if piles.is_over() {
            prop_assert!(decoded.is_none());
        } else {
            prop_assert!(piles.play(decoded.unwrap()).is_ok());
        }
    }
}
