//! Minimax and alpha-beta stepped node by node, over any game that implements the search
//! traits and [`Playable`]: the recorded search ([`SearchView`]), its tree pane's lines,
//! cursor and folds ([`tree`]), the narration of each event ([`explain`]), the predictions
//! asked before a value is returned or a cut-off may come ([`predict`]), the pane's
//! drawing ([`pane`]) and its glyphs ([`symbols`]). Tic-tac-toe and the Game of Eight are
//! searched to the end; a depth-limited search (`Leaves::limited`) scores its horizon with
//! the game's evaluation.

pub mod about;
mod cursor;
pub mod explain;
pub mod goto;
pub mod keys;
pub mod pane;
pub mod playable;
pub mod predict;
pub mod step;
pub mod symbols;
pub mod tree;
pub mod view;

pub use playable::{Describe, Playable};
pub use view::{SearchView, TREE_NODE_LIMIT, node_limit_sentence};
