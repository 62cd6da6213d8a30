//! The tab's "about" card (`I`): Nim's rules as set, what the Q-learning table (and the
//! network opponent) do and how their numbers read, and the worked example: the Q-update
//! of the last move, with every number in it, from the table itself.

use super::state::MultiPileTab;
use super::why::mv_text;
use crate::domain::games::nim::Rule;
use crate::domain::learn::predict_q::{num, rule, target};
use crate::domain::learn::qlearning::Update;
use crate::tabkit::about::About;

const AI: &[&str] = &[
    "Q-learning keeps a table of Q for each position and move; it plays the best.",
    "Q near +1: the move wins; near -1: it loses; 0: not known yet.",
    "After each move of its games against itself: Q ← Q + α·(r + max Q(s′) − Q),",
    "r +1 a win, -1 a loss, else 0; max Q(s′): the best Q of its next position;",
    "α, the learning rate: how far Q moves. The o opponent is an MLP network.",
];

impl MultiPileTab {
    /// The card for the rule in force and the last Q-update.
    pub(super) fn about_card(&self) -> About {
        let last = match self.rule {
            Rule::Normal => "Whoever takes the last object wins (normal play).",
            Rule::Misere => "Whoever takes the last object loses (misère).",
        };
        let rules = [
            "Several piles of objects. On your turn take 1 or more objects from one pile.",
            last,
            "Example: from piles [1,3,5], taking 2 from pile 3 leaves [1,3,3].",
        ];
        About::new(&rules, AI, self.example())
    }

    /// The update shown last in a stepped game (`s`), else the one behind the last move
    /// of the game on screen.
    fn last_update(&self) -> Option<(String, Update)> {
        let shown = self.q.steps.at();
        if shown > 0
            && let Some(update) = self.q.last_game.get(shown - 1)
        {
            let of = self.q.last_game.len();
            return Some((
                format!("Update {shown} of {of} of the game s played:"),
                *update,
            ));
        }
        let trainer = self.q.trainer.as_ref().ok()?;
        let alpha = trainer.settings.alpha;
        self.moves.iter().rev().find_map(|played| {
            if !trainer.table.covers(&played.before) {
                return None;
            }
            let update = trainer
                .table
                .last_update(&played.before, played.mv, alpha)?;
            Some((
                "The last move of the game, as the table last learned it:".to_owned(),
                update,
            ))
        })
    }

    /// The last Q-update, every number in it.
    fn example(&self) -> Vec<String> {
        let Some((what, update)) = self.last_update() else {
            return vec![
                "No Q-update yet: s plays a game of the AI against itself, learning each move;"
                    .into(),
                "then I again: this shows the last update with its numbers.".into(),
            ];
        };
        vec![
            what,
            format!(
                "Q({}, {}): old Q {}, reward r {}, learning rate α {},",
                update.state,
                mv_text(update.mv),
                num(update.old),
                num(update.reward),
                num(update.alpha)
            ),
            format!(
                "max Q(s′) {} at s′ {}, so target = r + max Q(s′) = {}; the new Q:",
                num(update.best_future),
                update.next,
                num(target(&update)),
            ),
            rule(&update),
        ]
    }
}

#[cfg(test)]
mod tests {
    use crate::app::{Action, App, TabId};
    use crate::config::{Config, FirstMover};
    use crate::domain::learn::predict_q::num;
    use crate::tabkit::about::NOW;
    use crate::tabkit::keymap::Key;

    fn app() -> App {
        let mut config = Config::default();
        config.nim.first = FirstMover::Human;
        config.qlearning.autotrain = false;
        config.nim_net.autotrain = false;
        let mut app = App::new(&config, 7);
        app.update(Action::SelectTab(TabId::MultiPileNim));
        app
    }

    #[test]
    fn the_example_is_the_stepped_game_s_update_with_its_numbers() {
        let mut app = app();
        let fresh = app.tabs.multipile.about_card().text(NOW);
        assert!(fresh.contains("s plays a game"), "no update yet: {fresh}");
        app.handle_key(Key::Char('s'));
        app.handle_key(Key::Char(' '));
        let tab = &app.tabs.multipile;
        let at = tab.q.steps.at();
        let update = tab.q.last_game[at - 1];
        let card = tab.about_card().text(NOW);
        assert!(card.contains(&format!("Update {at} of")), "{card}");
        for (what, number) in [
            ("old Q", update.old),
            ("reward r", update.reward),
            ("max Q(s′)", update.best_future),
        ] {
            assert!(
                card.contains(&format!("{what} {}", num(number))),
                "{what} in {card}"
            );
        }
        assert!(
            card.ends_with(&format!("= {}", num(update.new))),
            "the new Q: {card}"
        );
        app.handle_key(Key::Char(' '));
        assert_ne!(
            app.tabs.multipile.about_card().text(NOW),
            card,
            "the next update"
        );
    }

    #[test]
    fn after_a_game_move_the_example_is_the_table_s_last_update_of_it() {
        let mut app = app();
        while app.tabs.multipile.q_is_training() {
            app.update(Action::Tick);
        }
        app.handle_key(Key::Char('p'));
        while app.tabs.multipile.q_is_training() {
            app.update(Action::Tick);
        }
        app.handle_key(Key::Enter);
        let tab = &app.tabs.multipile;
        let played = tab.moves.last().expect("a move was played");
        let table = &tab.q.trainer.as_ref().unwrap().table;
        let card = tab.about_card().text(NOW);
        assert!(card.contains("as the table last learned it"), "{card}");
        assert!(
            card.ends_with(&format!("= {}", num(table.q(&played.before, played.mv)))),
            "the new Q is the table's value now: {card}"
        );
    }
}
