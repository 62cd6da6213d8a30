//! The AI's turn: a search on its own thread once the trainer pool has a place for it (so
//! the searches and training runs of every session share the cores), or, for a student
//! following the teacher, the move the teacher's AI made, taken from the teacher's journal. A followed move is played
//! as it was made, record and all, so a time-budgeted MCTS or a solver cut short by its
//! budget cannot choose differently on the student's machine, and no student's session
//! searches at all.

use super::ai;
use super::settings::Connect4Ai;
use super::state::Connect4Tab;
use super::thinking::{AiPlayed, Source, Thinking};
use crate::components::mcts_search::MctsView;
use crate::tabkit::background::OneShot;
use crate::tabkit::message::Message;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{TryRecvError, channel};

/// One search thread counted in the tab's `searching` while it lives: the count goes down
/// when this is dropped, whether the search ran or was given up before it had a place.
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Self(Arc::clone(count))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Connect4Tab {
    /// When it is the AI's turn: opens the stepper (MCTS in step mode), waits for the
    /// journal's move (following), or starts the search on its own thread.
    pub(crate) fn ai_turn_if_due(&mut self) {
        if self.board.is_over() || self.board.player_to_move() == self.human {
            return;
        }
        self.tree_search = None;
        if self.step_mode && self.config.ai == Connect4Ai::AlphaBeta {
            self.open_tree_search();
            return;
        }
        if self.step_mode && self.config.ai == Connect4Ai::Mcts {
            self.stepping = Some(MctsView::new(
                self.board,
                self.config.iterations,
                self.config.exploration,
                self.move_seed(),
                true,
            ));
            return;
        }
        let source = if self.from_journal {
            Source::Journal
        } else {
            self.search_on_thread()
        };
        self.thinking = Some(Thinking {
            source,
            board: self.board,
            ai: self.config.ai,
        });
    }

    /// Starts the AI's search of the position now on its own thread, once the pool has a
    /// place for it. The search's time budget (`mcts_time`) is read from the clock when
    /// the search begins, so time spent waiting for the place is not taken from it.
    fn search_on_thread(&mut self) -> Source {
        let (sender, receiver) = channel();
        let board = self.board;
        let config = self.config.clone();
        let seed = self.move_seed();
        let counted = Counted::new(&self.searching);
        let search = OneShot::start(&self.pool, move || {
            let thought = ai::think(board, &config, seed);
            drop(counted);
            // The tab may have moved on (new game, undo): then nobody listens.
            let _ = sender.send(thought);
        });
        Source::Pool { receiver, search }
    }

    /// Whether the AI's search waits for a free place in the pool.
    pub(crate) fn waits_for_place(&self) -> bool {
        self.thinking.as_ref().is_some_and(
            |t| matches!(&t.source, Source::Pool { search, .. } if search.is_waiting()),
        )
    }

    /// True once, at the first tick after a search that waited for a place got one: the
    /// status line's "waiting" becomes "thinking".
    pub(crate) fn search_started(&self) -> bool {
        self.thinking
            .as_ref()
            .is_some_and(|t| matches!(&t.source, Source::Pool { search, .. } if search.started()))
    }

    /// Gives up the AI move in the works, if any. A search still waiting for its place
    /// gives its turn up and never runs; one already searching cannot be stopped midway,
    /// so it is kept as the one abandoned search, and one abandoned before is waited for
    /// first, which bounds the threads a session can start by pressing keys fast.
    pub(crate) fn abandon_thinking(&mut self) {
        let Some(Source::Pool { search, .. }) = self.thinking.take().map(|t| t.source) else {
            return;
        };
        search.cancel();
        if search.is_finished() {
            return;
        }
        if let Some(mut older) = self.abandoned.replace(search) {
            older.join();
        }
    }

    /// Searches running on threads now (the tests check the bound).
    #[cfg(test)]
    pub(crate) fn searches_running(&self) -> usize {
        self.searching.load(Ordering::SeqCst)
    }

    /// The seed of the AI's choice now: the tab's seed, the game and the move, so a game
    /// replays exactly.
    pub(crate) fn move_seed(&self) -> u64 {
        self.seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(self.games << 8)
            .wrapping_add(self.board.moves() as u64)
    }

    /// Plays the AI's move if its search has finished: what to say, and the move whole
    /// for the journal.
    pub(crate) fn poll_thinking(&mut self) -> Option<(Message, Option<AiPlayed>)> {
        let Source::Pool { receiver, .. } = &self.thinking.as_ref()?.source else {
            return None;
        };
        let thought = match receiver.try_recv() {
            Ok(thought) => thought,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => {
                self.thinking = None;
                return Some((
                    Message::error("The AI's search stopped without a move"),
                    None,
                ));
            }
        };
        let board = self.thinking.take()?.board;
        let played = AiPlayed(Arc::new((board, thought.clone())));
        Some((self.ai_moves(board, thought), Some(played)))
    }

    /// Plays the move the followed session's AI made. Refused, changing nothing, unless
    /// this tab waits for the journal's move on the same board.
    pub(crate) fn play_followed(&mut self, played: &AiPlayed) -> Message {
        let (board, thought) = &*played.0;
        let waits = self
            .thinking
            .as_ref()
            .is_some_and(|t| matches!(t.source, Source::Journal) && t.board == *board);
        if !waits {
            return Message::error(
                "The teacher's AI move does not fit this board: nothing changed",
            );
        }
        self.thinking = None;
        self.ai_moves(*board, thought.clone())
    }

    /// Takes the AI's moves from the journal (`on`) or lets it think again: a move it
    /// waits for is then searched for here.
    pub(crate) fn take_moves_from_journal(&mut self, on: bool) {
        if self.from_journal == on {
            return;
        }
        self.from_journal = on;
        if self.thinking.is_some() {
            self.abandon_thinking();
            self.ai_turn_if_due();
        }
    }
}
