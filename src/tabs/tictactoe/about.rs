//! The tab's "about" card (`I`): the rules of the game shown (tic-tac-toe or Eight), what
//! the search set with `a` does and how its numbers read, and the worked example from the
//! search on screen now (the tree's cursor node, or the MCTS root's next pick).

use super::TicTacToeTab;
use super::game::Match;
use super::mcts::SearchKind;
use super::state::GameKind;
use crate::components::mcts_search::{self, outline::Names};
use crate::components::tree_search::{self, Playable};
use crate::tabkit::about::About;

const TIC_TAC_TOE: &[&str] = &[
    "Take turns to put your mark, X or O, in an empty square of the 3x3 board.",
    "Three in a row, column or diagonal wins; a full board without one draws.",
    "Example: X on 1, 5 and 9 (squares numbered 1-9 from the top left) wins.",
];

const EIGHT: &[&str] = &[
    "A sum starts at 0; take turns to add 1, 2 or 3, not the number just added.",
    "Make the sum exactly 8 and you win; go past 8 and you lose.",
    "Example: 3, then 2 (3 is barred), then 3 makes 8: the first player wins.",
];

const MINIMAX: &[&str] = &[
    "Minimax imagines every move, every reply and so on to the end: the tree.",
    "MAX (the AI) keeps its children's largest value, MIN (you) the smallest.",
    "Values, for the AI: a win 10 − the moves to it, 0 a draw, a loss below 0.",
];

const ALPHA_BETA: &[&str] = &[
    "Alpha-beta is minimax that skips moves which cannot change the answer (╳).",
    "MAX (the AI) keeps its children's largest value, MIN (you) the smallest.",
    "Each node's window: α, what MAX is already sure of; β, what MIN is sure of.",
    "Values, for the AI: a win 10 − the moves to it, 0 a draw, a loss below 0.",
];

impl TicTacToeTab {
    /// The card for the game and search shown now.
    pub(super) fn about_card(&self) -> About {
        let rules = match self.game {
            GameKind::TicTacToe => TIC_TAC_TOE,
            GameKind::Eight => EIGHT,
        };
        let ai = match self.algorithm {
            SearchKind::Minimax => MINIMAX,
            SearchKind::AlphaBeta => ALPHA_BETA,
            SearchKind::Mcts => &mcts_search::about::WORDS,
        };
        let now = match self.game {
            GameKind::TicTacToe => example(&self.tictactoe),
            GameKind::Eight => example(&self.eight),
        };
        About::new(rules, ai, now)
    }
}

/// The worked example from `game`'s search on screen: the tree's or MCTS's, or what to
/// press to get one.
fn example<G: Playable + Names>(game: &Match<G>) -> Vec<String> {
    if let Some(search) = &game.search {
        return tree_search::about::example(search);
    }
    if let Some(search) = &game.mcts {
        return mcts_search::about::example(search);
    }
    vec![
        "No search on screen yet: play a move (or t: the AI searches your position),".into(),
        "then I again: this shows the node under the tree's cursor with its numbers.".into(),
    ]
}

#[cfg(test)]
mod tests {
    use crate::app::{Action, App, TabId};
    use crate::components::tree_search::explain::node_name;
    use crate::config::{Config, FirstMover};
    use crate::domain::numbers::signed;
    use crate::domain::search::{Algorithm, Bound};
    use crate::tabkit::about::NOW;
    use crate::tabkit::keymap::Key;

    fn app(algorithm: Algorithm) -> App {
        let mut config = Config::default();
        config.tictactoe.first = FirstMover::Human;
        config.search.algorithm = algorithm.into();
        config.search.step = true;
        let mut app = App::new(&config, 7);
        app.update(Action::SelectTab(TabId::TicTacToe));
        app
    }

    /// Steps the search open until the cursor's node has a child that returned a value.
    fn step_to_a_returned_child(app: &mut App) {
        for _ in 0..200 {
            let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
            let cursor = view.tree_cursor();
            let stepper = &view.stepper;
            if !stepper.nodes().is_empty()
                && stepper
                    .children(cursor)
                    .any(|c| stepper.node(c).value.is_some())
            {
                return;
            }
            app.handle_key(Key::Char(' '));
        }
        panic!("no node with a returned child in 200 steps");
    }

    #[test]
    fn the_example_is_the_cursor_node_with_its_children_s_values() {
        for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
            let mut app = app(algorithm);
            assert!(
                app.tabs
                    .tictactoe
                    .about_card()
                    .text(NOW)
                    .contains("play a move"),
                "nothing searched yet: what to press"
            );
            app.handle_key(Key::Char('5'));
            let opened = app.tabs.tictactoe.about_card().text(NOW);
            assert!(
                opened.contains("Space takes its first step"),
                "a search that entered no node yet: {opened}"
            );
            step_to_a_returned_child(&mut app);
            let card = app.tabs.tictactoe.about_card().text(NOW);
            let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
            let (stepper, cursor) = (&view.stepper, view.tree_cursor());
            let node = stepper.node(cursor);
            let side = if node.maximizing { "MAX" } else { "MIN" };
            assert!(card.contains(&format!("{side} node")), "{card}");
            for child in stepper.children(cursor) {
                if let Some((bound, value)) = stepper.node(child).bound() {
                    let name = node_name(stepper, child);
                    let shown = format!("{name} {}{}", bound.sign(), signed(value));
                    assert!(card.contains(&shown), "{shown} in {card}");
                }
            }
            let (bound, value) = node.bound().unwrap();
            let sign = if bound == Bound::Exact {
                ""
            } else {
                bound.sign()
            };
            let kept = format!("children: {sign}{} (from ", signed(value));
            assert!(card.contains(&kept), "{kept} in {card}");
            assert_eq!(
                card.contains("α"),
                algorithm == Algorithm::AlphaBeta,
                "the window under alpha-beta only: {card}"
            );
            // Further on, the example follows the search.
            for _ in 0..30 {
                app.handle_key(Key::Char(' '));
            }
            assert_ne!(app.tabs.tictactoe.about_card().text(NOW), card);
        }
    }

    #[test]
    fn under_mcts_the_example_works_out_the_root_s_highest_ucb() {
        let mut config = Config::default();
        config.tictactoe.first = FirstMover::Human;
        config.search.algorithm = crate::config::SearchAlgorithm::Mcts;
        config.search.step = true;
        let mut app = App::new(&config, 7);
        app.update(Action::SelectTab(TabId::TicTacToe));
        app.handle_key(Key::Char('5'));
        for _ in 0..60 {
            app.handle_key(Key::Char(' '));
        }
        let card = app.tabs.tictactoe.about_card().text(NOW);
        let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
        let mcts = view.stepper.mcts();
        let (node, ucb) = mcts
            .children(crate::domain::search::mcts::ROOT)
            .filter_map(|(id, node)| Some((node, mcts.ucb_now(id)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("visited root moves");
        assert!(
            card.contains(&format!("After {} of", mcts.iterations())),
            "{card}"
        );
        let counts = format!("W {} / N {}", node.wins(), node.visits());
        assert!(card.contains(&counts), "{counts} in {card}");
        assert!(card.contains(&format!("= {ucb:.2}.")), "{card}");
    }
}
