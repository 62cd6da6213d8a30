//! Connect Four as the tree-search stepper writes and draws it: a move is the disc and its
//! column (`●4`), a leaf at the depth limit tells its evaluation's arithmetic.

use crate::components::mcts_search::grid::{check_column, column_label, why_four_over};
use crate::components::tree_search::{Describe, Playable};
use crate::domain::games::connect4::{Board, Disc};
use crate::domain::search::heuristic::Evaluate;
use crate::widgets::Theme;
use crate::widgets::discs::mini_lines;
use crate::widgets::symbols::{Symbol, symbol};
use ratatui::text::Line;

impl Playable for Board {
    fn check_choice(&self, column: u8) -> Result<u8, String> {
        check_column(self, column)
    }

    fn move_label(&self, column: u8) -> String {
        column_label(self, column)
    }

    fn player_name(disc: Disc) -> String {
        disc.name().to_string()
    }

    const DRAWS: bool = true;

    const CHOICE: &'static str = "a column 1-7";

    const MOVE_NOUN: &'static str = "column";

    fn why_over(&self, name: &dyn Fn(Disc) -> String) -> Option<String> {
        why_four_over(self, name)
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
