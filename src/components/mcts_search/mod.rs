//! A search that grows its tree one walk at a time, stepped phase by phase, over any game
//! whose moves and positions can be written out ([`outline::Names`]) and typed
//! ([`Playable`]): MCTS (UCT and random games) and `AlphaZero`'s PUCT (the network's priors
//! and value, [`puct`]), both through [`search::SteppedSearch`]. The search the tree pane
//! shows ([`SteppedView`], [`MctsView`]: the AI's move being stepped, or the record of one
//! played), its outline and the words for each phase ([`outline`]), the step keys' work
//! ([`step`]), "go to phase N" ([`goto`]), the predictions asked before each selection
//! ([`pick`]) and the pane's drawing ([`pane`]). The Tic-tac-toe tab and Connect Four
//! contain it for MCTS and the Self-play tab for PUCT, so all three step, ask and draw a
//! search the same way.
//!
//! [`Playable`]: crate::components::tree_search::Playable

pub mod about;
pub mod goto;
pub mod grid;
pub mod keys;
pub mod outline;
pub mod pane;
pub mod pick;
pub mod puct;
pub mod search;
pub mod step;
pub mod view;

pub use view::{MctsView, SteppedView};
