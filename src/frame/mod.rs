//! What every tab plugs into, headless: the key tables' shape, the messages, the `Tab`
//! contract, the background training jobs, the human and AI sides of a tab's game and the
//! records of what an AI weighed when it moved.
//! Nothing here names a tab.

pub mod background;
pub mod keymap;
pub mod message;
pub mod settings;
pub mod side;
pub mod tab;
pub mod why;
