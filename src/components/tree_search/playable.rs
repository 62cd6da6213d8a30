//! What a game offers the tree-search stepper beyond the search traits: how its moves and
//! players are written and typed, and how it draws itself in the panes. Each game that a
//! tab searches step by step implements both, in the tab that plays it.

use crate::components::mcts_search::outline::Names;
use crate::domain::games::Outcome;
use crate::widgets::Theme;
use crate::widgets::symbols::Symbol;
use ratatui::text::Line;

/// What a game must offer the tab beyond the search traits (the tree searches' `Game`, and
/// MCTS's random games and outline names): checked moves and names.
pub trait Playable: Names {
    /// The move for the human's choice as typed (a cell 1-9, a number 1-3), or a sentence
    /// saying why it is refused.
    fn check_choice(&self, choice: u8) -> Result<u8, String>;
    /// How a move is written in the tree and the move list (`X5`, `+2`).
    fn move_label(&self, mv: u8) -> String;
    /// How a player is named on screen.
    fn player_name(player: Self::Player) -> String;
    /// Whether a game can end in a draw (the tally counts draws only then).
    const DRAWS: bool;
    /// What a move is typed as (`a cell 1-9`), for the prompts that ask for one.
    const CHOICE: &'static str;
    /// What a move is called in a question (`which column does UCT select`).
    const MOVE_NOUN: &'static str = "move";
    /// The arithmetic of the evaluation at a depth-limited search's horizon, from
    /// `player`'s side (a game searched to the end has none).
    fn evaluation_words(&self, player: Self::Player) -> String {
        let _ = player;
        String::new()
    }
    /// Why the game is over, with the players named by `name`; `None` while it goes on.
    fn why_over(&self, name: &dyn Fn(Self::Player) -> String) -> Option<String>;
}

/// How a game draws itself beyond what [`Playable`] says.
pub trait Describe: Playable {
    /// How a node of this game's tree is labelled, for the empty tree pane's example.
    const NODE_LABEL: Symbol;
    /// A picture of the position in three lines or fewer, for the node under the tree
    /// cursor (its notes go beside it, so it stays narrow).
    fn mini(&self, theme: &Theme) -> Vec<Line<'static>>;
    /// The move `mv` from `self` in words (`after X plays 2`), for the cursor's notes.
    fn after(&self, mv: u8) -> String;
    /// How a finished game is said in the tree (`X wins`).
    fn result_text(outcome: Outcome<Self::Player>) -> String {
        match outcome {
            Outcome::Winner(p) => format!("{} wins", Self::player_name(p)),
            Outcome::Draw => "draw".into(),
        }
    }
}
