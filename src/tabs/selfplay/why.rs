//! The learner's why record: for every move of the position it played in, the network's
//! prior, the search's visits, `Q` and `U`, and the exact verdict, with how the move was
//! chosen from them.

use super::analysis::Analysis;
use super::game::TabGame;
use super::settings::PlayMode;
use crate::domain::numbers::thousands;
use crate::tabkit::why::{Decision, Weighed};

/// The record of the move `analysis` led to, played in `mode` by a network of `games`
/// self-play games.
pub(crate) fn decision<G: TabGame>(analysis: &Analysis<G>, mode: PlayMode, games: u64) -> Decision {
    let chosen = match mode {
        PlayMode::Search => analysis.search_move,
        PlayMode::Network => analysis.network_move,
    };
    let options = analysis
        .rows
        .iter()
        .map(|row| Weighed {
            mv: G::move_words(row.index),
            numbers: vec![
                format!("{:.2}", row.prior),
                row.visits.to_string(),
                format!("{:+.2}", row.q),
                format!("{:.2}", row.u),
            ],
            verdict: row.exact,
            chosen: row.index == chosen,
        })
        .collect();
    let how = match mode {
        PlayMode::Search => format!(
            "The network guided {} simulations of PUCT: each walked down by the highest Q + U \
             and the network valued the leaf (no random game). It played the most visited \
             move; its network alone would have played {}.",
            analysis.simulations,
            G::move_words(analysis.network_move)
        ),
        PlayMode::Network => format!(
            "The network alone: its highest prior, no search (with search it would have \
             played {}).",
            G::move_words(analysis.search_move)
        ),
    };
    Decision {
        title: format!(
            "Self-play: {} to move, move {}",
            analysis.position.mover_words(),
            analysis.position.moves_made() + 1
        ),
        position: analysis.position.text_lines(),
        columns: ["prior P", "visits N", "Q", "U"].map(String::from).to_vec(),
        options,
        how,
        origin: vec![
            format!(
                "A network of {} self-play games; it values this position {:+.2} for the \
                 player to move.",
                thousands(games),
                analysis.value
            ),
            if analysis.rows.iter().all(|row| row.exact.is_some()) {
                "The verdicts are the exact solver's.".to_string()
            } else {
                "The exact solver did not finish within its budget here: no verdicts.".to_string()
            },
        ],
    }
}
