//! The Self-play tab's card (`I`): tic-tac-toe's rules, what an AlphaZero-style learner
//! does, and the position on screen as the network and its search weigh it.

use super::state::SelfPlayTab;
use crate::domain::numbers::thousands;
use crate::tabkit::about::About;

impl SelfPlayTab {
    /// The card, its example from the position on the board now.
    pub(crate) fn about_card(&self) -> About {
        let rules = [
            "Tic-tac-toe: X and O take turns on a 3x3 board, X first; three in a row, \
             column or diagonal wins; a full board without one is a draw. Perfect play \
             draws.",
        ];
        let ai = [
            "An AlphaZero-style learner. One network looks at the board and gives two \
             answers: a prior for every move (its policy) and a value, the result it \
             expects for the player to move.",
            "To choose a move it runs a PUCT search: each simulation walks down the tree by \
             the highest Q + U, where U = c_puct·P·√N_parent/(1+N) favours moves with a \
             high prior and few visits, and the network values the new leaf. No random \
             games are played.",
            "m steps that search phase by phase: each edge's P, N, Q and U, the leaf's \
             value from the network, the backup; P asks which edge PUCT selects.",
            "It learns from games against itself (t): each position's target is the \
             search's visit shares for the policy and the game's result for the value, \
             seen through the board's 8 symmetries. So the search teaches the network, \
             and the better network makes the next search better.",
        ];
        let progress = self.shown.progress;
        let mut now = vec![format!(
            "The network has learned from {} self-play games.",
            thousands(progress.games)
        )];
        if let Some(point) = self.shown.curve.last() {
            now.push(format!(
                "Graded on all 4,520 positions: its favourite move keeps the exact result in \
                 {:.1}%, its search of {} simulations in {:.1}%.",
                point.network_kept, self.config.simulations, point.searched_kept
            ));
        }
        if let Some(analysis) = &self.analysis {
            let row = analysis
                .rows
                .iter()
                .find(|r| r.cell == analysis.search_move);
            if let Some(row) = row {
                now.push(format!(
                    "Here it values the position {:+.2}; the network's favourite is {}, the \
                     search visits {} most (N {}, Q {:+.2}): {}.",
                    analysis.value,
                    analysis.network_move + 1,
                    row.cell + 1,
                    row.visits,
                    row.q,
                    row.exact
                ));
            }
        }
        About::new(&rules, &ai, now)
    }
}
