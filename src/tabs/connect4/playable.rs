//! Connect Four as the tree-search stepper writes and draws it: a move is the disc and its
//! column (`●4`), a leaf at the depth limit tells its evaluation's arithmetic.

use crate::components::tree_search::{Describe, Playable};
use crate::domain::games::connect4::{Board, Disc, WIDTH};
use crate::domain::games::{Game, Outcome};
use crate::domain::search::heuristic::Evaluate;
use crate::widgets::Theme;
use crate::widgets::discs::{disc_glyph, mini_lines};
use crate::widgets::symbols::{Symbol, symbol};
use ratatui::text::Line;

impl Playable for Board {
    fn check_choice(&self, column: u8) -> Result<u8, String> {
        if !(1..=WIDTH as u8).contains(&column) {
            return Err(format!("there is no column {column}: columns are 1-7"));
        }
        self.played(usize::from(column - 1))
            .map(|_| column - 1)
            .map_err(|refused| refused.to_string())
    }

    fn move_label(&self, column: u8) -> String {
        format!("{}{}", disc_glyph(self.player_to_move()), column + 1)
    }

    fn player_name(disc: Disc) -> String {
        disc.name().to_string()
    }

    const DRAWS: bool = true;

    const CHOICE: &'static str = "a column 1-7";

    const MOVE_NOUN: &'static str = "column";

    fn why_over(&self, name: &dyn Fn(Disc) -> String) -> Option<String> {
        match self.outcome()? {
            Outcome::Winner(winner) => Some(format!("{} got four in a row", name(winner))),
            Outcome::Draw => Some("the board is full".into()),
        }
    }

    fn evaluation_words(&self, player: Disc) -> String {
        let counts = self.counts();
        format!(
            "{} - {}",
            counts.of(player).points(),
            counts.of(player.other()).points()
        )
    }
}

impl Describe for Board {
    const NODE_LABEL: Symbol = symbol("●4 MIN", "after ● drops in column 4, MIN moves");

    fn mini(&self, theme: &Theme) -> Vec<Line<'static>> {
        mini_lines(self, theme)
    }

    fn after(&self, column: u8) -> String {
        format!(
            "after {} drops in column {}",
            self.player_to_move().name(),
            column + 1
        )
    }
}
