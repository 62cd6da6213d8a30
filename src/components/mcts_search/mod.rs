//! Monte Carlo tree search stepped phase by phase, over any game whose moves and positions
//! can be written out ([`outline::Names`]) and typed ([`Playable`]): the search the tree
//! pane shows ([`MctsView`]: the AI's move being stepped, or the record of one played),
//! its outline and the words for each phase ([`outline`]), the step keys' work
//! ([`step`]), "go to phase N" ([`goto`]), the predictions asked before each selection
//! ([`pick`]) and the pane's drawing ([`pane`]). The Tic-tac-toe tab and Connect Four
//! both contain it, so the two step, ask and draw the same search the same way.
//!
//! [`Playable`]: crate::components::tree_search::Playable

pub mod about;
pub mod goto;
pub mod keys;
pub mod outline;
pub mod pane;
pub mod pick;
pub mod step;
pub mod view;

pub use view::MctsView;
