//! The AI never loses at tic-tac-toe: every possible sequence of human moves is played out
//! against the move the app's AI plays (`search(..).best_move`, the same call the tab makes),
//! for both marks, both first movers and both algorithms. The Game of Eight is a win for the
//! second player, and the AI playing second wins every game.

use ai_arcade::domain::games::eight::{Eight, Seat};
use ai_arcade::domain::games::tictactoe::{Board, Mark};
use ai_arcade::domain::games::{Game, Outcome};
use ai_arcade::domain::search::{Algorithm, search};
use std::collections::HashMap;

/// Plays every human continuation from `position`; returns how many finished games were
/// reached, panicking on the first the AI loses.
fn play_out<G: Game<Move = u8>>(
    position: G,
    ai: G::Player,
    algorithm: Algorithm,
    replies: &mut HashMap<G, u8>,
) -> u64 {
    if let Some(outcome) = position.outcome() {
        if let Outcome::Winner(winner) = outcome {
            assert_eq!(
                winner, ai,
                "the AI ({ai:?}, {algorithm}) lost: {position:?}"
            );
        }
        return 1;
    }
    if position.to_move() == ai {
        let reply = *replies.entry(position).or_insert_with(|| {
            search(&position, algorithm)
                .best_move
                .expect("a move in an unfinished game")
        });
        return play_out(position.play(reply), ai, algorithm, replies);
    }
    let moves = position.legal_moves();
    moves
        .as_ref()
        .iter()
        .map(|&mv| play_out(position.play(mv), ai, algorithm, replies))
        .sum()
}

#[test]
fn the_tic_tac_toe_ai_never_loses() {
    for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
        for ai in [Mark::X, Mark::O] {
            let mut replies = HashMap::new();
            let human_first = play_out(Board::empty(ai.other()), ai, algorithm, &mut replies);
            let ai_first = play_out(Board::empty(ai), ai, algorithm, &mut replies);
            assert!(human_first > 0 && ai_first > 0);
        }
    }
}

#[test]
fn the_game_of_eight_ai_wins_every_game_as_second_player() {
    for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
        let mut replies = HashMap::new();
        let games = play_out(Eight::start(), Seat::Second, algorithm, &mut replies);
        assert!(games > 0);
        // Stronger than "never loses": every finished game is a win for the AI.
        let mut stack = vec![Eight::start()];
        while let Some(position) = stack.pop() {
            match position.outcome() {
                Some(outcome) => assert_eq!(outcome, Outcome::Winner(Seat::Second)),
                None if position.to_move() == Seat::Second => {
                    stack.push(position.play(replies[&position]));
                }
                None => stack.extend(
                    position
                        .legal_moves()
                        .as_ref()
                        .iter()
                        .map(|&m| position.play(m)),
                ),
            }
        }
    }
}
