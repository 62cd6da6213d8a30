//! What every tab plugs into, headless: the key tables' shape, the messages, the `Tab`
//! contract, the background jobs and their pool, the human and AI sides of a tab's game and
//! the records of what an AI weighed when it moved, the score of a tab's games, the quiz's
//! state, the short text entry the prompts share and the "go to step N" every stepper
//! opens, and the card `I` shows about a tab. Named `tabkit`, not `frame`, which is ratatui's word for one drawn screen.
//! Nothing here names a tab.

pub mod about;
pub mod ai_moves;
pub mod background;
pub mod facts;
pub mod goto;
pub mod keymap;
pub mod message;
pub mod predicting;
pub mod restore;
pub mod runs;
pub mod settings;
pub mod side;
pub mod speed;
pub mod stepper_keys;
pub mod tab;
pub mod tally;
pub mod text_entry;
pub mod why;
