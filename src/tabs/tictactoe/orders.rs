//! The move-order toggle (`o`) and its comparison: the real alpha-beta run from the shown
//! search's root in every order, its node and cut-off counts side by side, as the lines of
//! the tab's comparison panel (pure: no drawing here; `o` and Esc work in the panel through
//! its own key table, `keys::COMPARISON`).

use super::game::Match;
use super::state::{Comparison, GameKind, TicTacToeTab};
use crate::components::tree_search::pane::order_name;
use crate::components::tree_search::{Playable, SearchView};
use crate::domain::games::eight::Eight;
use crate::domain::games::tictactoe::Board;
use crate::domain::numbers::{signed, thousands};
use crate::domain::search::{Algorithm, MoveOrder, SHALLOW_PLIES, search, search_ordered};
use crate::tabkit::message::Message;

/// What each order means in a game, for the comparison's rows.
pub(crate) trait OrderNames: Playable {
    /// The static order in words.
    const STATIC_ORDER: &'static str;
    /// The listed order in words.
    const LISTED_ORDER: &'static str;
}

impl OrderNames for Board {
    const STATIC_ORDER: &'static str = "centre, then corners, then edges";
    const LISTED_ORDER: &'static str = "as listed (cells 1-9)";
}

impl OrderNames for Eight {
    const STATIC_ORDER: &'static str = "largest first (3, 2, 1)";
    const LISTED_ORDER: &'static str = "as listed (1, 2, 3)";
}

/// An order in words for game `G`.
pub(crate) fn long_name<G: OrderNames>(order: MoveOrder) -> String {
    match order {
        MoveOrder::Listed => G::LISTED_ORDER.into(),
        MoveOrder::Static => G::STATIC_ORDER.into(),
        MoveOrder::Best => format!("best first ({SHALLOW_PLIES}-ply look-ahead)"),
    }
}

/// The comparison of every order from `root`, `chosen` marked, as the overlay's lines.
pub(crate) fn comparison<G: OrderNames>(
    root: &G,
    algorithm: Algorithm,
    chosen: MoveOrder,
) -> String {
    let moves = root.legal_moves().as_ref().len();
    let mut lines = vec![
        format!(
            "From this position ({} to move, {moves} moves), alpha-beta in each order:",
            G::player_name(root.to_move())
        ),
        String::new(),
        format!(
            "  {:<36}{:>8}{:>10}{:>7}  {}",
            "order", "nodes", "cut-offs", "value", "plays"
        ),
    ];
    for order in MoveOrder::ALL {
        let result = search_ordered(root, Algorithm::AlphaBeta, order);
        let plays = result
            .best_move
            .map_or("-".into(), |mv| root.move_label(mv));
        let mark = if order == chosen { "▶" } else { " " };
        lines.push(format!(
            "{mark} {:<36}{:>8}{:>10}{:>7}  {plays}",
            long_name::<G>(order),
            thousands(result.stats.nodes),
            thousands(result.stats.cutoffs),
            signed(result.value),
        ));
    }
    let minimax = search(root, Algorithm::Minimax).stats.nodes;
    lines.extend([
        String::new(),
        "The value is the same in every order: a good order lets alpha-beta find a".into(),
        "strong move sooner and prune more. Among equally good moves the search plays".into(),
        "the first it meets, so the move played can differ.".into(),
        format!(
            "Plain minimax visits {} nodes in every order: it prunes nothing.",
            thousands(minimax)
        ),
    ]);
    if algorithm == Algorithm::Minimax {
        lines.push(
            "The AI uses minimax now (a switches): its counts do not depend on the order.".into(),
        );
    }
    lines.push("A waiting search restarts with the order chosen here.".into());
    lines.join("\n")
}

/// Puts `order` in force in both games and restarts a search waiting to be stepped (or the
/// user's own) with it; true when the shown game's search restarted.
pub(crate) fn reorder_both(tab: &mut TicTacToeTab, order: MoveOrder) -> bool {
    tab.tictactoe.order = order;
    tab.eight.order = order;
    let ttt = reorder(&mut tab.tictactoe);
    let eight = reorder(&mut tab.eight);
    match tab.game {
        GameKind::TicTacToe => ttt,
        GameKind::Eight => eight,
    }
}

impl TicTacToeTab {
    /// Moves to the next order in both games, restarts a search waiting to be stepped (or
    /// the user's own) with it, and opens (or refreshes) the comparison of every order from
    /// the shown root.
    pub(crate) fn cycle_order(&mut self) -> Message {
        let Some(algorithm) = self.algorithm.tree() else {
            return Message::error(
                "o orders minimax's and alpha-beta's moves; MCTS picks by UCB1 (a switches)",
            );
        };
        let order = self.tictactoe.order.next();
        let restarted = reorder_both(self, order);
        let compared = match self.game {
            GameKind::TicTacToe => compare(&self.tictactoe, algorithm),
            GameKind::Eight => compare(&self.eight, algorithm),
        };
        let suffix = if restarted {
            " (the search restarts)"
        } else {
            ""
        };
        let Some(text) = compared else {
            self.comparison = None;
            return Message::info(format!(
                "Move order: {}{suffix}; no position to compare (r: new game)",
                order_name(order)
            ));
        };
        self.comparison = Some(Comparison { order, text });
        Message::info(format!(
            "Move order: {}{suffix}; every order compared above",
            order_name(order)
        ))
    }
}

/// Restarts the game's search with its new order and its own algorithm when it is one the
/// user steps (the AI's waiting move, or a search of their own position); a record of a
/// move played stays, and so does an MCTS (the order is the tree searches').
fn reorder<G: Playable>(game: &mut Match<G>) -> bool {
    let Some(view) = &game.search else {
        return false;
    };
    if !view.live && !view.analysis {
        return false;
    }
    let algorithm = view.stepper.algorithm();
    let (root, live, analysis) = (*view.stepper.root(), view.live, view.analysis);
    let mut fresh = SearchView::new(root, algorithm, game.order, live);
    fresh.analysis = analysis;
    game.search = Some(fresh);
    true
}

/// The comparison from the shown search's root, or from the position when there is no
/// search; `None` when there is nothing to search (the game is over, no search shown).
fn compare<G: OrderNames>(game: &Match<G>, algorithm: Algorithm) -> Option<String> {
    let root = game
        .search
        .as_ref()
        .map_or(game.position, |view| *view.stepper.root());
    root.outcome()
        .is_none()
        .then(|| comparison(&root, algorithm, game.order))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::tictactoe::Mark;

    #[test]
    fn the_empty_board_compared_in_every_order() {
        let text = comparison(
            &Board::empty(Mark::X),
            Algorithm::AlphaBeta,
            MoveOrder::Static,
        );
        let listed = search_ordered(
            &Board::empty(Mark::X),
            Algorithm::AlphaBeta,
            MoveOrder::Listed,
        );
        assert!(text.contains(&thousands(listed.stats.nodes)), "{text}");
        assert!(
            text.contains("Plain minimax visits 549,946 nodes in every order"),
            "{text}"
        );
        assert!(
            text.lines()
                .any(|l| l.starts_with("▶ centre, then corners")),
            "{text}"
        );
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(!text.contains("uses minimax now"));
    }

    #[test]
    fn under_minimax_the_comparison_says_the_counts_do_not_move() {
        let text = comparison(&Eight::start(), Algorithm::Minimax, MoveOrder::Listed);
        assert!(
            text.contains("Plain minimax visits 62 nodes in every order"),
            "{text}"
        );
        assert!(
            text.contains("its counts do not depend on the order"),
            "{text}"
        );
        assert!(text.contains("largest first (3, 2, 1)"), "{text}");
    }
}
