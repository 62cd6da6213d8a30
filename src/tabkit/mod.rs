//! What every tab plugs into, headless: the key tables' shape, the messages, the `Tab`
//! contract, the background training jobs, the human and AI sides of a tab's game and the
//! records of what an AI weighed when it moved, the score of a tab's games and the short
//! text entry the ask prompts share, the "go to step N" every stepper opens, and an MCTS search written out as text.
//! Nothing here names a tab.

pub mod ai_moves;
pub mod background;
pub mod goto;
pub mod keymap;
pub mod message;
pub mod predicting;
pub mod runs;
pub mod settings;
pub mod side;
pub mod speed;
pub mod stepper_keys;
pub mod tab;
pub mod tally;
pub mod text_entry;
pub mod why;
