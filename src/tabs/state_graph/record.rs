//! The record of one state-graph move, for the why overlay: built from the
//! [`Weighing`] the graph chose with (every edge's weight and crossings, the strongest ones),
//! beside the exact result of every take.

use crate::domain::learn::state_graph::{Crossings, Edge, Weighing};
use crate::domain::numbers::thousands;
use crate::domain::solve::state_graph::{verdict_of_take, winning_take};
use crate::tabkit::why::{Decision, Weighed};

/// What the record is of: a move the graph played (and, for a tie, that the seeded draw
/// picked it), or a state asked about, where nothing is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Occasion {
    /// The graph played this edge in a game.
    Played(Edge),
    /// The user asked about the state with `a`.
    Asked,
}

/// `take 1 → p1-6`.
fn move_text(edge: &Edge) -> String {
    format!("take {} → {}", edge.take(), edge.to.name())
}

/// The takes of `edges` as a sentence says them: `take 1`, `take 1 and take 2`.
fn takes(edges: &[Edge]) -> String {
    let names: Vec<String> = edges.iter().map(|e| format!("take {}", e.take())).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// The record of the graph's choice at `weighing.at` in Nim with takes 1-`max_take`.
pub(crate) fn decision(weighing: &Weighing, max_take: u32, occasion: Occasion) -> Decision {
    let at = weighing.at;
    // A single strongest edge is the move whatever happens; a tie is decided by the draw,
    // which a question does not make.
    let chosen = match occasion {
        Occasion::Played(edge) => Some(edge),
        Occasion::Asked => match weighing.strongest.as_slice() {
            [only] => Some(*only),
            _ => None,
        },
    };
    let title = match occasion {
        Occasion::Played(_) => format!("The state graph at {}", at.name()),
        Occasion::Asked => format!("The state graph asked about {}", at.name()),
    };
    let exact = match winning_take(at.tokens, max_take) {
        Some(take) => format!("exact: winning, take {take}"),
        None => "exact: losing, every take loses".to_string(),
    };
    let position = vec![
        format!(
            "{}: player {} to move, {} token{} left, takes 1-{max_take}; the last token wins",
            at.name(),
            at.player.number(),
            at.tokens,
            if at.tokens == 1 { "" } else { "s" }
        ),
        exact,
    ];
    let options = weighing
        .options
        .iter()
        .map(|(edge, weight, crossings)| Weighed {
            mv: move_text(edge),
            numbers: vec![
                format!("{weight:+}"),
                thousands(crossings.won),
                thousands(crossings.lost),
            ],
            verdict: Some(verdict_of_take(at.tokens, edge.take(), max_take)),
            chosen: Some(*edge) == chosen,
        })
        .collect();
    let origin = weighing
        .options
        .iter()
        .filter(|(edge, ..)| match chosen {
            Some(chosen) => *edge == chosen,
            None => weighing.strongest.contains(edge),
        })
        .map(|(edge, weight, crossings)| made_of(edge, *weight, *crossings))
        .collect();
    Decision {
        title,
        position,
        columns: vec!["weight".to_string(), "won".to_string(), "lost".to_string()],
        options,
        how: how(weighing, occasion),
        origin,
    }
}

/// How the move was chosen: greedy, or a tie and the seeded draw; never exploration.
fn how(weighing: &Weighing, occasion: Occasion) -> String {
    let strongest = &weighing.strongest;
    let weight = weighing
        .options
        .iter()
        .find(|(edge, ..)| strongest.first() == Some(edge))
        .map_or(0, |(_, weight, _)| *weight);
    let never = "The graph never explores in play: it always takes a strongest edge.";
    match (occasion, strongest.len()) {
        (Occasion::Played(edge), 1) => format!(
            "Greedy: take {} has the largest weight ({weight:+}). {never}",
            edge.take()
        ),
        (Occasion::Played(edge), _) => format!(
            "A tie: {} {} weigh {weight:+}; the seeded draw picked take {}. {never}",
            takes(strongest),
            both(strongest),
            edge.take()
        ),
        (Occasion::Asked, 1) => format!(
            "Greedy: it would {}, the largest weight ({weight:+}). {never}",
            takes(strongest)
        ),
        (Occasion::Asked, _) => format!(
            "A tie: {} {} weigh {weight:+}; in a game the seeded draw picks one of them \
             (a question draws nothing). {never}",
            takes(strongest),
            both(strongest)
        ),
    }
}

/// `both` for two tied moves, `all` for more.
fn both(tied: &[Edge]) -> &'static str {
    if tied.len() == 2 { "both" } else { "all" }
}

/// Where an edge's weight came from: the won and lost games that crossed it.
fn made_of(edge: &Edge, weight: i64, crossings: Crossings) -> String {
    let Crossings {
        won,
        lost,
        uncounted,
    } = crossings;
    let name = move_text(edge);
    let (won_games, lost_games) = (games(won, "won"), games(lost, "lost"));
    if uncounted == 0 {
        return format!(
            "{name}: weight {weight:+} = +1 for each of the {won_games} and -1 for each of the \
             {lost_games} that crossed it"
        );
    }
    let counted = i128::from(won) - i128::from(lost);
    let earlier = i128::from(weight) - counted;
    format!(
        "{name}: weight {weight:+}: {won_games} and {lost_games} crossed it since crossings \
         were counted ({counted:+}); the other {earlier:+} is from the {} games learned before \
         (a graph saved by an earlier version)",
        thousands(uncounted)
    )
}

/// `1,204 won games`, `1 lost game`.
fn games(count: u64, how: &str) -> String {
    let noun = if count == 1 { "game" } else { "games" };
    format!("{} {how} {noun}", thousands(count))
}
