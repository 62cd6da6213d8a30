//! ai-arcade: play small classic games against searching and learning AIs, and look inside
//! them while they play. The library holds everything; `main.rs` only parses the command line.

pub mod app;
pub mod cli;
pub mod components;
pub mod config;
pub mod domain;
pub mod lesson;
pub mod persist;
pub mod serve;
pub mod shell;
pub mod tabkit;
pub mod tabs;
pub mod ui;
pub mod widgets;
