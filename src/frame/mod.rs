//! What every tab plugs into, headless: the key tables' shape, the messages, the `Tab`
//! contract and the background training jobs. Nothing here names a tab.

pub mod background;
pub mod keymap;
pub mod message;
pub mod tab;
