//! ai-arcade: play small classic games against searching and learning AIs, and look inside
//! them while they play. The library holds everything; `main.rs` only parses the command line.

pub mod app;
pub mod cli;
pub mod config;
pub mod frame;
pub mod games;
pub mod learn;
pub mod model_files;
pub mod search;
pub mod serve;
pub mod shell;
pub mod solve;
pub mod store;
pub mod tabs;
pub mod text;
pub mod ui;
pub mod widgets;
