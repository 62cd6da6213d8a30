//! The tab's "about" card (`I`): Nim(k)'s rules, how the graph learns its weights, and the
//! worked example from the state on screen: the weight of every edge out of it, where each
//! weight came from, and which one the AI takes.

use super::state::StateGraphTab;
use crate::domain::learn::state_graph::{Player, Vertex};
use crate::domain::numbers::thousands;
use crate::domain::solve::state_graph::winning_take;
use crate::tabkit::about::About;

/// The rule line the board pane shows, and the card's first rule.
pub(super) fn rule_line(max_take: u32) -> String {
    format!("take 1 to {max_take}; take the last token to win")
}

const AI: &[&str] = &[
    "A state (p1-10: player 1 to move, 10 left) is a point; a move, an edge.",
    "Random games teach it: +1 to each edge the winner took, -1 the loser's.",
    "An edge's weight: games won minus games lost through it (* the strongest).",
    "The AI takes the strongest edge out of its state, a tie drawn from the seed.",
    "× a state lost for its mover; ! its strongest edge is not the winning move.",
];

impl StateGraphTab {
    /// The card for the graph and the state on screen now.
    pub(super) fn about_card(&self) -> About {
        let tokens = self.graph.tokens;
        let take = self.graph.max_take;
        let rules = [
            format!(
                "Nim({tokens}): {tokens} tokens; in turn, {}.",
                rule_line(take)
            ),
            format!(
                "Example: from {tokens}, taking {take} leaves {} for the other player.",
                tokens.saturating_sub(take)
            ),
        ];
        let rules: Vec<&str> = rules.iter().map(String::as_str).collect();
        About::new(&rules, AI, self.example())
    }

    /// The state the example is about: the game's when one is on, else the cursor's.
    fn shown_state(&self) -> Vertex {
        self.game
            .as_ref()
            .filter(|game| game.at.tokens > 0)
            .map_or(self.cursor, |game| game.at)
    }

    /// The weights out of the state shown, worked out.
    fn example(&self) -> Vec<String> {
        let at = self.shown_state();
        let player = match at.player {
            Player::One => "player 1",
            Player::Two => "player 2",
        };
        let mut lines = vec![format!(
            "At {} ({player} to move, {} left), after {} games learned:",
            at.name(),
            at.tokens,
            thousands(self.graph.games)
        )];
        let weighing = self.graph.weigh(at);
        if weighing.options.is_empty() {
            lines.push(
                "No tokens are left: the game is over here. Arrows move to another state.".into(),
            );
            return lines;
        }
        for (edge, weight, crossed) in &weighing.options {
            let older = if crossed.uncounted > 0 {
                format!(" (and {} older games)", thousands(crossed.uncounted))
            } else {
                String::new()
            };
            lines.push(format!(
                "take {} → {}: weight {weight:+} = {} won − {} lost games through it{older}",
                at.tokens - edge.to.tokens,
                edge.to.name(),
                thousands(crossed.won),
                thousands(crossed.lost),
            ));
        }
        let takes: Vec<String> = weighing
            .strongest
            .iter()
            .map(|edge| (at.tokens - edge.to.tokens).to_string())
            .collect();
        let chosen = if takes.len() == 1 {
            format!("The strongest edge: the AI takes {}.", takes[0])
        } else {
            format!("A tie: the AI draws take {} at random.", takes.join(" or "))
        };
        let exact = winning_take(at.tokens, self.graph.max_take).map_or_else(
            || "every take loses".to_string(),
            |take| format!("take {take} wins"),
        );
        lines.push(format!("{chosen} Exact: {exact}."));
        if self.graph.games == 0 {
            lines.push("No games learned yet: every weight is 0. p trains, then I again.".into());
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use crate::app::{Action, App, TabId};
    use crate::config::Config;
    use crate::tabkit::about::NOW;
    use crate::tabkit::keymap::Key;

    #[test]
    fn the_example_gives_the_weights_out_of_the_state_on_screen() {
        let mut app = App::new(&Config::default(), 7);
        app.update(Action::SelectTab(TabId::StateGraph));
        let fresh = app.tabs.state_graph.about_card().text(NOW);
        assert!(fresh.contains("p trains"), "no games yet: {fresh}");
        for _ in 0..20 {
            app.handle_key(Key::Char('s'));
        }
        let tab = &app.tabs.state_graph;
        let at = tab.shown_state();
        let card = tab.about_card().text(NOW);
        assert!(card.contains(&format!("At {}", at.name())), "{card}");
        for edge in tab.graph.out_edges(at) {
            let crossed = tab.graph.crossings(&edge);
            let line = format!(
                "→ {}: weight {:+} = {} won − {} lost",
                edge.to.name(),
                tab.graph.weight(&edge),
                crossed.won,
                crossed.lost
            );
            assert!(card.contains(&line), "{line} in {card}");
            assert_eq!(
                tab.graph.weight(&edge),
                crossed.won as i64 - crossed.lost as i64,
                "the weight is what the line says it is"
            );
        }
        app.handle_key(Key::Right);
        assert_ne!(
            app.tabs.state_graph.about_card().text(NOW),
            card,
            "another state"
        );
    }
}
