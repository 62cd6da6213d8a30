//! The whole integration suite, as one test crate: the files beside this one are its
//! modules, so the library links into one test binary instead of one per file.

mod common;

mod about;
mod ai_never_loses;
mod browser;
mod class_named;
mod class_summary;
mod class_term;
mod cli;
mod course;
mod event_loop;
mod files;
mod follow;
mod haproxy;
mod key_walk;
mod keys;
mod layers;
mod lesson_gates;
mod lesson_questions;
mod lesson_starts;
mod lesson_walk;
mod lessons;
mod lockout;
mod nim_cli;
mod nim_properties;
mod properties;
mod puct_properties;
mod readme_keys;
mod readme_screens;
mod registry;
mod rehearsal;
mod room;
mod scale_out;
mod search;
mod selfplay_cli;
mod serve;
mod signals;
mod snapshots;
mod solver_cli;
mod trainer_pool;
mod views;
mod web;
mod whole_text;
