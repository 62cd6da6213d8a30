//! The learner's why record: for every move of the position it played in, the network's
//! prior, the search's visits, `Q` and `U`, and the exact verdict, with how the move was
//! chosen from them.

use super::analysis::Analysis;
use super::settings::PlayMode;
use crate::domain::games::Game as _;
use crate::domain::numbers::thousands;
use crate::tabkit::why::{Decision, Weighed};

/// The board in three lines, empty cells by their number.
pub(crate) fn board_lines(board: crate::domain::games::tictactoe::Board) -> Vec<String> {
    (0..3u8)
        .map(|row| {
            (0..3u8)
                .map(|column| {
                    let cell = row * 3 + column;
                    board
                        .cell(cell)
                        .map_or_else(|| (cell + 1).to_string(), |mark| mark.letter().to_string())
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The record of the move `analysis` led to, played in `mode` by a network of `games`
/// self-play games.
pub(crate) fn decision(analysis: &Analysis, mode: PlayMode, games: u64) -> Decision {
    let chosen = match mode {
        PlayMode::Search => analysis.search_move,
        PlayMode::Network => analysis.network_move,
    };
    let options = analysis
        .rows
        .iter()
        .map(|row| Weighed {
            mv: (row.cell + 1).to_string(),
            numbers: vec![
                format!("{:.2}", row.prior),
                row.visits.to_string(),
                format!("{:+.2}", row.q),
                format!("{:.2}", row.u),
            ],
            verdict: Some(row.exact),
            chosen: row.cell == chosen,
        })
        .collect();
    let how = match mode {
        PlayMode::Search => format!(
            "The network guided {} simulations of PUCT: each walked down by the highest Q + U \
             and the network valued the leaf (no random game). It played the most visited \
             move; its network alone would have played {}.",
            analysis.simulations,
            analysis.network_move + 1
        ),
        PlayMode::Network => format!(
            "The network alone: its highest prior, no search (with search it would have \
             played {}).",
            analysis.search_move + 1
        ),
    };
    Decision {
        title: format!(
            "Self-play: {} to move, move {}",
            analysis.position.to_move(),
            9 - analysis.position.legal_moves().as_ref().len() + 1
        ),
        position: board_lines(analysis.position),
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
            "The verdicts are the exact solver's.".to_string(),
        ],
    }
}
