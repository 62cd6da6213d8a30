//! "Why did the AI play that?" on the Tic-tac-toe tab: the decision record of an AI move,
//! made from what the search that chose the move returned (kept in its [`AiChoice`]), with
//! the exact answer of each move beside it from the perfect-play solver.

use super::game::Match;
use super::history::{AiChoice, MctsChoice, TreeChoice, Turn};
use super::orders::{OrderNames, long_name};
use crate::components::mcts_search::outline::win_counting;
use crate::components::tree_search::explain::bound_words;
use crate::domain::games::eight::{Eight, TARGET};
use crate::domain::games::tictactoe::Board;
use crate::domain::numbers::{signed, thousands};
use crate::domain::search::{Algorithm, Bound, BoundCause, RootMove, WIN};
use crate::domain::solve::perfect::Solver;
use crate::tabkit::why::{Decision, Played, Weighed, Why};
use std::fmt::Write;

/// What the record needs of a game beyond [`OrderNames`]: its position as lines of text.
pub(crate) trait Explain: OrderNames {
    /// The position, a few lines drawn as they are.
    fn position_lines(&self) -> Vec<String>;
}

impl Explain for Board {
    fn position_lines(&self) -> Vec<String> {
        (0..3u8)
            .map(|row| {
                let cells: Vec<String> = (0..3u8)
                    .map(|col| {
                        let cell = row * 3 + col;
                        self.cell(cell)
                            .map_or_else(|| (cell + 1).to_string(), |m| m.to_string())
                    })
                    .collect();
                format!("  {}", cells.join("  "))
            })
            .collect()
    }
}

impl Explain for Eight {
    fn position_lines(&self) -> Vec<String> {
        let barred = self.last().map_or("nothing barred yet".to_string(), |n| {
            format!("{n} just chosen, so barred")
        });
        vec![format!("  sum {} of {TARGET}, {barred}", self.sum())]
    }
}

/// The why overlay for the game: every move, the last AI move's record open; `None` while
/// the AI has not moved in this game.
pub(crate) fn why_of<G: Explain>(game: &Match<G>) -> Option<Why> {
    let mut solver = Solver::new();
    let moves = game
        .moves
        .iter()
        .enumerate()
        .map(|(ply, turn)| played(turn, ply + 1, &mut solver))
        .collect();
    Why::last_ai_move(moves)
}

fn played<G: Explain>(turn: &Turn<G>, ply: usize, solver: &mut Solver<G>) -> Played {
    Played {
        by: turn.by,
        text: turn.text.clone(),
        decision: turn.choice.as_ref().map(|choice| {
            let mover = G::player_name(turn.before.to_move());
            let context = format!("{mover} (the AI) to move, move {ply} of the game");
            decision(&turn.before, choice, &context, solver)
        }),
    }
}

/// The record of the AI's choice at `root`; `context` says who is to move there and why
/// the position was searched (a move of the game, a board asked about).
pub(crate) fn decision<G: Explain>(
    root: &G,
    choice: &AiChoice<u8>,
    context: &str,
    solver: &mut Solver<G>,
) -> Decision {
    let mut decision = match choice {
        AiChoice::Tree(choice) => tree_decision(root, choice, solver),
        AiChoice::Mcts(choice) => mcts_decision(root, choice, solver),
    };
    // The context goes beside a board of several lines, under a one-line position.
    let mut position = root.position_lines();
    if position.len() > 1 {
        position[0] = format!("{}    {context}", position[0]);
    } else {
        position.push(format!("  {context}"));
    }
    decision.position = position;
    decision
}

/// The record of a minimax or alpha-beta move: each root move's value and bound.
fn tree_decision<G: Explain>(
    root: &G,
    choice: &TreeChoice<u8>,
    solver: &mut Solver<G>,
) -> Decision {
    let weighing = &choice.weighing;
    let chosen = weighing.result.best_move;
    let options = root
        .legal_moves()
        .as_ref()
        .iter()
        .map(|&mv| {
            let weighed = weighing.moves.iter().find(|m| m.mv == mv);
            Weighed {
                mv: root.move_label(mv),
                numbers: weighed.map_or_else(
                    || vec!["—".into(), "not searched".into()],
                    |&m| vec![value_text(m), bound_words(m.bound, m.cause())],
                ),
                verdict: Some(solver.after(root, mv)),
                chosen: chosen == Some(mv),
            }
        })
        .collect();
    Decision {
        title: match chosen {
            Some(mv) => format!(
                "Why the {} AI played {}",
                choice.algorithm,
                root.move_label(mv)
            ),
            None => format!("The {} AI's search", choice.algorithm),
        },
        position: Vec::new(),
        columns: vec!["value".into(), "exact or bound".into()],
        options,
        how: how(root, choice),
        origin: origin(choice),
    }
}

/// A root move's value as the tree pane writes it: `=+7`, `≤0`, `≥-2`.
fn value_text(m: RootMove<u8>) -> String {
    format!("{}{}", m.bound.sign(), signed(m.value))
}

/// How the move was chosen, in sentences: the best value, the tie among moves that reached
/// it and how the search broke it (its move order; there is no random draw), and what
/// alpha-beta's bounds leave open.
fn how<G: Explain>(root: &G, choice: &TreeChoice<u8>) -> String {
    let weighing = &choice.weighing;
    let Some(best) = weighing.result.best_move else {
        return "The game was over: there was nothing to choose.".into();
    };
    let value = weighing.result.value;
    let label = |m: &RootMove<u8>| root.move_label(m.mv);
    let names = |moves: &[&RootMove<u8>]| {
        let labels: Vec<String> = moves.iter().map(|m| label(m)).collect();
        join_words(&labels)
    };
    let tied: Vec<&RootMove<u8>> = weighing
        .moves
        .iter()
        .filter(|m| m.value == value && m.bound == Bound::Exact)
        .collect();
    let best = root.move_label(best);
    let mut text = if tied.len() > 1 {
        format!(
            "The highest value is {}, reached by {}: a tie. The search tries the moves in this order: {}, \
             and keeps the first that reaches the best value (a later move must score strictly \
             higher to replace it), so {best}. No random draw: the same position always gets \
             the same move.",
            signed(value),
            names(&tied),
            long_name::<G>(choice.order)
        )
    } else {
        format!(
            "{best} has the highest value, {} (MAX takes the largest).",
            signed(value)
        )
    };
    let open: Vec<&RootMove<u8>> = weighing
        .moves
        .iter()
        .filter(|m| m.bound == Bound::AtMost && m.value == value)
        .collect();
    if !open.is_empty() {
        let (cut, window): (Vec<&RootMove<u8>>, Vec<&RootMove<u8>>) = open
            .iter()
            .partition(|m| matches!(m.cause(), Some(BoundCause::Pruned { .. })));
        let v = signed(value);
        if !cut.is_empty() {
            text = format!(
                "{text} {} returned ≤{v}: cut short once no reply could beat {v}; at best a \
                 tie, which keeps {best}.",
                names(&cut),
            );
        }
        if !window.is_empty() {
            text = format!(
                "{text} {} returned ≤{v}: every reply was searched, but the value is a bound \
                 from the window (something below was cut); at best a tie, which keeps {best}.",
                names(&window),
            );
        }
    }
    text
}

/// Where the numbers came from: the search, its counts, how it was run.
fn origin(choice: &TreeChoice<u8>) -> Vec<String> {
    let stats = choice.weighing.result.stats;
    let cutoffs = match choice.algorithm {
        Algorithm::AlphaBeta => format!(", {} cut-offs", thousands(stats.cutoffs)),
        Algorithm::Minimax => String::new(),
    };
    let how_run = match choice.stepped {
        None => "searched at once".to_string(),
        Some(0) => "its search opened in the stepper; Enter played it unstepped".to_string(),
        Some(events) => format!("you stepped {} events of it", thousands(events as u64)),
    };
    let minimax = if choice.algorithm == Algorithm::AlphaBeta && choice.minimax_nodes > 0 {
        format!(" (plain minimax: {})", thousands(choice.minimax_nodes))
    } else {
        String::new()
    };
    let mut lines = vec![format!(
        "the {} search of this position: {} nodes{minimax}, {} leaves{cutoffs}; {how_run}.",
        choice.algorithm,
        thousands(stats.nodes),
        thousands(stats.leaves)
    )];
    if choice.beyond_tree {
        lines.push(
            "The tree pane kept only the first part of this search; the move and these \
             values came from the whole search."
                .into(),
        );
    }
    lines.push(format!(
        "Values: win {WIN}−plies, loss plies−{WIN}, draw 0."
    ));
    lines
}

/// The record of an MCTS move: each root move's `N` and `W/N` as the search left them, the
/// exact verdict beside them, and, where the move played is worse than the best one with
/// Where an MCTS move's numbers come from: the search's size and how it was run.
fn mcts_origin(choice: &MctsChoice<u8>) -> String {
    let how_run = match choice.stepped {
        None => "searched at once".to_string(),
        Some(0) => "its search opened in the stepper; Enter played it unstepped".to_string(),
        Some(phases) => format!("you stepped {} phases of it", thousands(phases)),
    };
    format!(
        "the MCTS search of this position: {} iterations, c = {:.2}, {} nodes; {how_run}.",
        thousands(choice.iterations),
        choice.exploration,
        thousands(choice.nodes as u64)
    )
}

/// perfect play, that the iterations were too few to tell.
fn mcts_decision<G: Explain>(
    root: &G,
    choice: &MctsChoice<u8>,
    solver: &mut Solver<G>,
) -> Decision {
    let legal: Vec<u8> = root.legal_moves().as_ref().to_vec();
    let options: Vec<Weighed> = legal
        .iter()
        .map(|&mv| {
            let stats = choice.moves.iter().find(|m| m.mv == mv);
            Weighed {
                mv: root.move_label(mv),
                numbers: stats.map_or_else(
                    || vec!["0".into(), "not tried".into()],
                    |m| vec![thousands(m.visits), format!("{:.3}", m.mean)],
                ),
                verdict: Some(solver.after(root, mv)),
                chosen: choice.best == Some(mv),
            }
        })
        .collect();
    let Some(best) = choice.best else {
        return Decision {
            title: "The MCTS AI's search".into(),
            position: Vec::new(),
            columns: vec!["N".into(), "W/N".into()],
            options,
            how: "The game was over: there was nothing to choose.".into(),
            origin: Vec::new(),
        };
    };
    let label = root.move_label(best);
    let visits = choice
        .moves
        .iter()
        .find(|m| m.mv == best)
        .map_or(0, |m| m.visits);
    let tied: Vec<String> = choice
        .moves
        .iter()
        .filter(|m| m.visits == visits)
        .map(|m| root.move_label(m.mv))
        .collect();
    let mut how = if tied.len() > 1 {
        format!(
            "MCTS plays the root move it visited most: {} were visited {} times each, a tie \
             it breaks by taking the first in move order, {label}.",
            join_words(&tied),
            thousands(visits)
        )
    } else {
        format!(
            "MCTS plays the root move it visited most: {label}, {} of {} iterations.",
            thousands(visits),
            thousands(choice.iterations)
        )
    };
    let _ = write!(
        how,
        " W/N, the share of its random games won after the move{}, steered the visits \
         through UCB1; the visits, not W/N, choose.",
        win_counting(G::DRAWS)
    );
    let played = solver.after(root, best);
    let perfect = legal
        .iter()
        .map(|&mv| solver.after(root, mv))
        .reduce(crate::domain::solve::verdict::Verdict::better);
    if let Some(perfect) = perfect.filter(|&p| p != played) {
        let better: Vec<String> = legal
            .iter()
            .filter(|&&mv| solver.after(root, mv) == perfect)
            .map(|&mv| root.move_label(mv))
            .collect();
        let each = if better.len() > 1 { " each" } else { "" };
        how = format!(
            "{how} With perfect play {label} {}, while {}{each} {}: {} iterations were too \
             few to tell.",
            verdict_words(played),
            join_words(&better),
            verdict_words(perfect),
            thousands(choice.iterations)
        );
    }
    Decision {
        title: format!("Why the MCTS AI played {label}"),
        position: Vec::new(),
        columns: vec!["N".into(), "W/N".into()],
        options,
        how,
        origin: vec![
            mcts_origin(choice),
            format!(
                "N: the iterations through the move; W/N: its random games won{}.",
                win_counting(G::DRAWS)
            ),
        ],
    }
}

/// A move's verdict after its name: `wins in 2 moves`, `draws`.
fn verdict_words(verdict: crate::domain::solve::verdict::Verdict) -> String {
    if verdict.is_draw() {
        "draws".into()
    } else {
        verdict.to_string()
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_words(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
