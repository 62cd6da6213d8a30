//! The Self-play tab's card (`I`): the game's rules, what an AlphaZero-style learner
//! does, and the position on screen as the network and its search weigh it.

use super::game::TabGame;
use super::state::SelfPlay;
use crate::domain::numbers::thousands;
use crate::tabkit::about::About;

impl<G: TabGame> SelfPlay<G> {
    /// The card, its example from the position on the board now.
    pub(crate) fn about_card(&self) -> About {
        let rules = [
            G::RULES,
            "g switches the game: tic-tac-toe, four in a row on 5x4, Connect Four. Each \
             game has its own learner.",
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
             seen through the board's symmetries. So the search teaches the network, \
             and the better network makes the next search better.",
        ];
        let progress = self.shown.progress;
        let mut now = vec![format!(
            "The network has learned from {} self-play games.",
            thousands(progress.games)
        )];
        if let Some(point) = self.shown.curve.last() {
            now.push(format!(
                "Graded on {}: its favourite move keeps the exact result in {:.1}%, its \
                 search of {} simulations in {:.1}%.",
                G::GRADED_WORDS,
                point.network_kept,
                self.training.simulations,
                point.searched_kept
            ));
        }
        if let Some(analysis) = &self.analysis {
            let row = analysis
                .rows
                .iter()
                .find(|r| r.index == analysis.search_move);
            if let Some(row) = row {
                let exact = row.exact.map_or_else(
                    || "beyond the solver's budget".to_string(),
                    |v| v.to_string(),
                );
                now.push(format!(
                    "Here it values the position {:+.2}; the network's favourite is {}, the \
                     search visits {} most (N {}, Q {:+.2}): {exact}.",
                    analysis.value,
                    G::move_words(analysis.network_move),
                    G::move_words(row.index),
                    row.visits,
                    row.q,
                ));
            }
        }
        About::new(&rules, &ai, now)
    }
}
