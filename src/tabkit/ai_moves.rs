//! A tab's AI moves as a class sees them: each move the tab's AI makes is reported whole
//! for the journal, and while a student follows the teacher the AI makes none of its own:
//! its moves come from the teacher's journal (see `Tab::Played`).

use super::tab::Effects;

/// Whether the AI chooses for itself, and the moves it made during the action under way.
#[derive(Debug)]
pub struct AiMoves<P> {
    /// The moves come from the followed session's journal.
    following: bool,
    /// Moves made since the action under way began, not yet reported.
    made: Vec<P>,
    /// Moves the AI made this session: a lesson step waiting for one sees it rise.
    total: u64,
}

impl<P> Default for AiMoves<P> {
    fn default() -> Self {
        Self {
            following: false,
            made: Vec::new(),
            total: 0,
        }
    }
}

impl<P: Clone> AiMoves<P> {
    /// Takes the moves from the journal (`on`) or lets the AI choose again.
    pub fn follow(&mut self, on: bool) {
        self.following = on;
    }

    /// Whether the AI waits for the journal's moves instead of choosing.
    pub fn following(&self) -> bool {
        self.following
    }

    /// Keeps `played`, a move the AI just made, to report.
    pub fn made(&mut self, played: &P) {
        self.made.push(played.clone());
        self.total += 1;
    }

    /// The moves the AI made this session.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// An action begins: a move made outside one (a game the AI opened as the tab
    /// opened, which every session makes alike) is not reported.
    pub fn begin(&mut self) {
        self.made.clear();
    }

    /// The action ended: its moves go to its effects.
    pub fn report(&mut self, effects: &mut Effects<P>) {
        effects.played.append(&mut self.made);
    }
}
