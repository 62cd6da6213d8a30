//! Alpha-beta stepped node by node on Connect Four, with the tree-search stepper every
//! searching tab contains: the events, windows, cuts, narration and keys of the
//! Tic-tac-toe tab, down to the depth limit, where the evaluation scores each leaf.
//!
//! The stepped search is plain alpha-beta to the AI's depth, centre columns first (no
//! iterative deepening, no table): the fast search with those options visits the same
//! nodes and finds the same move (`domain::search::stepper_limited_tests`), and is the
//! played move's record.

use super::action::Action;
use super::ai::{Searched, Thought, Verdicts};
use super::settings::Connect4Ai;
use super::state::Connect4Tab;
use crate::components::tree_search::SearchView;
use crate::components::tree_search::step::{self as tree_step, StepCommand};
use crate::domain::search::MoveOrder;
use crate::domain::search::limited::{Options, search_limited};
use crate::tabkit::message::Message;

/// The most nodes the played move's record keeps, as the unstepped search's.
const RECORD_LIMIT: usize = super::ai::TREE_LIMIT;

impl Connect4Tab {
    /// Opens the stepper on the AI's alpha-beta search of the position now.
    pub(crate) fn open_tree_search(&mut self) {
        self.tree_search = Some(SearchView::limited(
            self.board,
            self.config.depth,
            MoveOrder::Static,
            true,
        ));
    }

    /// Whether an alpha-beta search waits to be stepped.
    pub(crate) fn tree_search_waits(&self) -> bool {
        self.tree_search.as_ref().is_some_and(|view| view.live)
    }

    /// A key of the alpha-beta stepper; what to say (the component's step, which in
    /// predict mode stops where a question waits).
    pub(crate) fn step_tree_search(&mut self, action: Action) -> Option<Message> {
        let command = match action {
            Action::Step => StepCommand::Step,
            Action::StepOver => StepCommand::Over,
            Action::StepOut => StepCommand::Out,
            Action::StepBack => StepCommand::Back,
            Action::RunToEnd => StepCommand::RunToEnd,
            _ => return None,
        };
        let view = self.tree_search.as_mut().filter(|view| view.live)?;
        Some(tree_step::step(Some(view), command, self.predict.is_some()))
    }

    /// Plays the move the stepped search finds, finishing it first.
    pub(crate) fn play_tree_search(&mut self) -> Message {
        let Some(view) = self.tree_search.as_mut().filter(|view| view.live) else {
            return Message::error("No stepped search waits");
        };
        view.stepper.run_to_end();
        view.live = false;
        view.sync_cursor();
        let options = Options {
            depth: self.config.depth,
            deepening: false,
            ordering: true,
            table: false,
        };
        let found = search_limited(&self.board, options, RECORD_LIMIT);
        // A search beyond the pane's node limit stops early: the fast one has the move.
        let column = view
            .stepper
            .result()
            .and_then(|result| result.best_move)
            .or_else(|| found.best_move());
        let Some(column) = column else {
            return Message::error("The search found no move");
        };
        let thought = Thought {
            column,
            ai: Connect4Ai::AlphaBeta,
            searched: Searched::AlphaBeta(Box::new(found)),
            verdicts: Verdicts::NotAsked,
        };
        self.ai_moves(self.board, thought)
    }
}
