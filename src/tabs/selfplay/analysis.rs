//! What the learner makes of a position: the network's value and priors, a search of so
//! many simulations, and the exact verdict of every move. The table beside the board and
//! the why record both show it.

use super::game::TabGame;
use crate::domain::learn::selfplay::net::PolicyValueNet;
use crate::domain::learn::selfplay::puct::{Puct, PuctSettings, ROOT};
use crate::domain::solve::verdict::Verdict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What the learner makes of one move of the position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MoveRow {
    /// The move's index: a cell or a column, from 0.
    pub index: usize,
    /// The network's prior.
    pub prior: f32,
    /// The search's visits.
    pub visits: u32,
    /// The search's mean value `Q` for the player choosing it.
    pub q: f32,
    /// The exploration term `U` the next simulation would add.
    pub u: f32,
    /// The exact verdict of the move, for its player (`None`: beyond the solver's budget).
    pub exact: Option<Verdict>,
}

/// What the learner makes of a position: the network's value and favourite, the search's
/// figures for every move and its choice.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Analysis<G> {
    /// The position weighed.
    pub position: G,
    /// The network's value of it, for the player to move.
    pub value: f32,
    /// The network's favourite move (its highest prior).
    pub network_move: usize,
    /// The search's most visited move.
    pub search_move: usize,
    /// Simulations the search ran.
    pub simulations: u32,
    /// Every legal move.
    pub rows: Vec<MoveRow>,
}

/// The learner's view of `position`: the network's value and priors, a search of
/// `simulations`, and the exact `verdicts` of its moves (by index), if known.
pub(crate) fn analyse<G: TabGame>(
    net: &PolicyValueNet,
    position: G,
    simulations: u32,
    c_puct: f32,
    verdicts: Option<&[Option<Verdict>]>,
) -> Analysis<G> {
    let evaluation = net.evaluate(&position.encode(), &position.legal());
    let settings = PuctSettings {
        c_puct,
        noise: None,
    };
    // No noise and the most visited move: the search draws nothing at random.
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut evaluator = net;
    let mut tree = Puct::new(position, settings, &mut evaluator, &mut rng);
    tree.run(simulations, &mut evaluator);
    let rows: Vec<MoveRow> = tree
        .edges(ROOT)
        .iter()
        .map(|edge| MoveRow {
            index: edge.index,
            prior: edge.prior,
            visits: edge.visits,
            q: edge.mean,
            u: edge.explore,
            exact: verdicts.and_then(|verdicts| verdicts[edge.index]),
        })
        .collect();
    let network_move = rows
        .iter()
        .reduce(|best, row| if row.prior > best.prior { row } else { best })
        .map_or(0, |row| row.index);
    Analysis {
        position,
        value: evaluation.value,
        network_move,
        search_move: tree.choose(0.0, &mut rng),
        simulations,
        rows,
    }
}
