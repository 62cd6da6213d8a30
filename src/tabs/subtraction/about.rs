//! The tab's "about" card (`I`): Subtraction Nim's rules, what the network does and how
//! its outputs read, and the worked example from the pile on screen: the network's
//! outputs for it, the take they decode to and the exact answer beside it.

use super::state::SubtractionTab;
use crate::domain::games::subtraction::max_take;
use crate::domain::learn::subtraction::choose;
use crate::domain::numbers::thousands;
use crate::tabkit::about::About;

const RULES: &[&str] = &[
    "One pile of blocks. On your turn take at least 1 and at most half the pile.",
    "Whoever is left facing a single block cannot move and loses.",
    "Example: from 10 you may take 1 to 5; take 3 and your opponent faces 7.",
];

impl SubtractionTab {
    /// The card for the network and the pile now.
    pub(super) fn about_card(&self) -> About {
        let bits = self.trainer.encoding.input_bits();
        let outputs = self.trainer.encoding.output_bits();
        let ai = [
            format!(
                "An MLP reads the pile as {bits} bits (binary digits) into {} hidden units.",
                self.trainer.recipe.hidden
            ),
            format!("Each of {outputs} outputs (0 to 1): how sure it is one bit of the take is 1."),
            "It was trained on the exact answers: for each pile, the take that wins.".into(),
            "It plays the legal take whose bits fit the outputs best (above 0.5: a 1).".into(),
            format!(
                "\"wins at N/{}\": the winning piles where its move wins.",
                self.evaluation.winning_positions()
            ),
        ];
        let ai: Vec<&str> = ai.iter().map(String::as_str).collect();
        About::new(RULES, &ai, self.example())
    }

    /// The network's reading of the pile on screen, worked out.
    fn example(&self) -> Vec<String> {
        let Some(pile) = self.pile.filter(|&pile| pile >= 2) else {
            return vec![
                "No pile to play from. Type a starting pile and press Enter (r: a new game),"
                    .into(),
                "then I again: this shows the network's outputs for that pile.".into(),
            ];
        };
        let trace = choose(&self.trainer.network, self.trainer.encoding, pile);
        let outputs: Vec<String> = trace
            .activations
            .output()
            .iter()
            .enumerate()
            .map(|(bit, y)| format!("{}:{y:.2}", 1u32 << bit))
            .collect();
        let mut lines = vec![
            format!(
                "Pile {pile} is {pile:b} in binary. After {} epochs the outputs, bit by bit, are",
                thousands(self.trainer.epoch as u64)
            ),
            format!("{}.", outputs.join("  ")),
        ];
        let read = if trace.overridden() {
            format!(
                "As bits they say take {}, not legal here (1 to {}); the best legal fit: {}.",
                trace.raw,
                max_take(pile),
                trace.played
            )
        } else {
            format!(
                "As bits they say take {}: legal, so it takes it.",
                trace.played
            )
        };
        lines.push(read);
        lines.push(match self.solution.winning_move(pile) {
            Some(exact) if exact == trace.played => {
                format!("The exact answer is also {exact}: the network's move wins.")
            }
            Some(exact) => format!("The exact answer is take {exact}: the network's move loses."),
            None => format!("{pile} is a losing pile: every take loses against best play."),
        });
        lines
    }
}

#[cfg(test)]
mod tests {
    use crate::app::{Action, App, TabId};
    use crate::config::Config;
    use crate::domain::learn::subtraction::choose;
    use crate::tabkit::about::NOW;
    use crate::tabkit::keymap::Key;

    fn app() -> App {
        let mut config = Config::default();
        config.subtraction.autotrain = false;
        let mut app = App::new(&config, 7);
        app.update(Action::SelectTab(TabId::SubtractionNim));
        app
    }

    #[test]
    fn the_example_reads_the_network_s_outputs_for_the_pile_on_screen() {
        let mut app = app();
        assert!(
            app.tabs
                .subtraction
                .about_card()
                .text(NOW)
                .contains("Type a starting pile"),
            "no pile yet: what to press"
        );
        app.tabs.subtraction.finish_training_now();
        for key in "31\n".chars() {
            app.handle_key(if key == '\n' {
                Key::Enter
            } else {
                Key::Char(key)
            });
        }
        let tab = &app.tabs.subtraction;
        let pile = tab.pile.unwrap();
        let card = tab.about_card().text(NOW);
        let trace = choose(&tab.trainer.network, tab.trainer.encoding, pile);
        assert!(
            card.contains(&format!("Pile {pile} is {pile:b} in binary")),
            "{card}"
        );
        let first = trace.activations.output()[0];
        assert!(
            card.contains(&format!("1:{first:.2}")),
            "bit 1's output: {card}"
        );
        assert!(card.contains(&format!("take {}", trace.played)), "{card}");
        let exact = tab.solution.winning_move(pile);
        assert_eq!(card.contains("losing pile"), exact.is_none(), "{card}");
        // Another pile, another reading.
        app.handle_key(Key::Char('r'));
        for key in "100\n".chars() {
            app.handle_key(if key == '\n' {
                Key::Enter
            } else {
                Key::Char(key)
            });
        }
        assert_ne!(app.tabs.subtraction.about_card().text(NOW), card);
    }
}
