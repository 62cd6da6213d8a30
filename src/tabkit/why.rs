//! "Why did the AI play that?": what an AI weighed when it chose a move, as every tab hands
//! it to the app's why overlay.
//!
//! A tab builds a [`Decision`] from what the code path that chose the move returned (the
//! values, Q-values, outputs or weights it compared), never by computing them again apart,
//! so the record is what the AI used. The text is the tab's: each AI has its own numbers,
//! and the overlay only lays them out the same way on every tab.

use super::side::Side;
use crate::domain::solve::verdict::Verdict;

/// What an AI weighed for one position: every legal move with its number, the exact answer
/// for each, which move it chose and how, and where the chosen number came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Who weighed what, in a few words ("Q-learning AI at piles 1 3 5 7").
    pub title: String,
    /// The position it faced, as lines drawn as they are (a board, the piles).
    pub position: Vec<String>,
    /// The headings of the AI's own numbers for a move ("Q-value", "updates").
    pub columns: Vec<String>,
    /// Every legal move, in the order the AI weighed them.
    pub options: Vec<Weighed>,
    /// How the move was chosen ("greedy: the highest Q-value", "a tie between 1-2 and 3-1,
    /// broken by the seeded draw", "exploring: a random move"), in sentences.
    pub how: String,
    /// Where the chosen move's number came from (the update that set a Q-value, the games
    /// that crossed an edge, the network's inputs and activations), a sentence or a
    /// pre-laid-out line each.
    pub origin: Vec<String>,
}

impl Decision {
    /// The moves marked as chosen, as the tab writes them: one for a move the AI made or
    /// would make, none where a question left a tie undrawn.
    pub fn chosen(&self) -> Vec<&str> {
        self.options
            .iter()
            .filter(|o| o.chosen)
            .map(|o| o.mv.as_str())
            .collect()
    }
}

/// One legal move as the AI weighed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weighed {
    /// The move as the tab writes it ("take 3", "2-1", "b2").
    pub mv: String,
    /// The AI's numbers for it, one per [`Decision::columns`], formatted by the tab.
    pub numbers: Vec<String>,
    /// The exact answer for the move where a solver knows it: wins / loses in so many of
    /// the mover's own moves, this one included, or a draw.
    pub verdict: Option<Verdict>,
    /// Whether the AI played this move.
    pub chosen: bool,
}

/// One move of a game, and the AI's record when the AI made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// Who moved.
    pub by: Side,
    /// The move as the tab writes it.
    pub text: String,
    /// What the AI weighed, for the AI's moves (`None` for the person's, and for an AI move
    /// made before records were kept, such as one loaded with a game).
    pub decision: Option<Decision>,
}

/// What the why overlay shows: the game's moves, one of which is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    /// The moves of the game so far, first first; or the one position asked about.
    pub moves: Vec<Played>,
    /// The index in `moves` of the move whose record is shown.
    pub open: usize,
    /// True for a position asked about: the chosen move is what the AI would play, and
    /// nothing was played.
    pub asked: bool,
}

impl Why {
    /// The game's moves with the last AI move's record open; `None` when the AI has not
    /// moved in this game.
    pub fn last_ai_move(moves: Vec<Played>) -> Option<Self> {
        let open = moves.iter().rposition(|m| m.decision.is_some())?;
        Some(Self {
            moves,
            open,
            asked: false,
        })
    }

    /// A position asked about rather than played: one record and no game around it.
    pub fn asked(text: impl Into<String>, decision: Decision) -> Self {
        Self {
            moves: vec![Played {
                by: Side::Ai,
                text: text.into(),
                decision: Some(decision),
            }],
            open: 0,
            asked: true,
        }
    }

    /// The record shown.
    pub fn decision(&self) -> Option<&Decision> {
        self.moves.get(self.open)?.decision.as_ref()
    }

    /// Opens the AI move `by` records away from the open one (negative: earlier); stays put
    /// at either end. Returns whether it moved.
    pub fn step(&mut self, by: i8) -> bool {
        let with_record: Vec<usize> = self
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.decision.is_some())
            .map(|(i, _)| i)
            .collect();
        let Some(here) = with_record.iter().position(|&i| i == self.open) else {
            return false;
        };
        let target = here.saturating_add_signed(isize::from(by));
        match with_record.get(target.min(with_record.len() - 1)) {
            Some(&index) if index != self.open => {
                self.open = index;
                true
            }
            _ => false,
        }
    }

    /// How many of the moves have a record, and the open one's place among them (from 1).
    pub fn place(&self) -> (usize, usize) {
        let with_record = self.moves.iter().filter(|m| m.decision.is_some());
        let before = self.moves[..self.open.min(self.moves.len())]
            .iter()
            .filter(|m| m.decision.is_some())
            .count();
        (before + 1, with_record.count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(title: &str) -> Decision {
        Decision {
            title: title.to_string(),
            position: vec![],
            columns: vec![],
            options: vec![],
            how: String::new(),
            origin: vec![],
        }
    }

    fn game() -> Vec<Played> {
        let mv = |by, text: &str, d: Option<Decision>| Played {
            by,
            text: text.to_string(),
            decision: d,
        };
        vec![
            mv(Side::Human, "3", None),
            mv(Side::Ai, "2", Some(decision("first"))),
            mv(Side::Human, "1", None),
            mv(Side::Ai, "3", Some(decision("second"))),
            mv(Side::Human, "2", None),
        ]
    }

    #[test]
    fn opens_the_last_ai_move_and_steps_between_records_only() {
        let mut why = Why::last_ai_move(game()).unwrap();
        assert_eq!(why.open, 3);
        assert_eq!(why.place(), (2, 2));
        assert!(!why.step(1), "no later AI move");
        assert!(why.step(-1));
        assert_eq!(why.decision().unwrap().title, "first");
        assert_eq!(why.place(), (1, 2));
        assert!(!why.step(-1), "no earlier AI move");
        assert!(why.step(5));
        assert_eq!(why.open, 3);
    }

    #[test]
    fn a_game_the_ai_has_not_moved_in_has_nothing_to_open() {
        let mut moves = game();
        moves.retain(|m| m.by == Side::Human);
        assert_eq!(Why::last_ai_move(moves), None);
    }
}
