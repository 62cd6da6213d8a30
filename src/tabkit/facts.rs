//! What a tab has done, as a lesson step that waits for the doing reads it (issue 31 §2):
//! counts the app compares between one look and the next, so "the AI moved" is a count that
//! rose, and levels that hold or not ("this position is on the board", "the curve is at
//! 90%"). Each tab reports its own; the lesson decides what they mean.

/// A tab's facts at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Facts {
    /// The AI's moves in the game on screen (or in the session): a rise is an AI move.
    pub ai_moves: u64,
    /// Whether the game on screen is over: a change to true is a game ending.
    pub over: bool,
    /// The events the search stepper on screen has taken: a rise is a step.
    pub steps: u64,
    /// The cut-offs the alpha-beta stepper on screen has shown: a rise is a cut-off.
    pub cut_offs: u64,
    /// The position on the board, as [`super::tab::position_key`] names it.
    pub position: Option<u64>,
    /// How well the learner plays now, in percent, as the tab's curve shows it.
    pub curve: Option<f64>,
}

// A tab's curve is a share of counts (never NaN), so equality is total.
impl Eq for Facts {}

/// A position as a question or a lesson's gate names it: the same number for the same
/// position in every session of the process (std's `DefaultHasher::new` has fixed keys).
pub fn position_key<P: std::hash::Hash>(position: &P) -> u64 {
    use std::hash::Hasher;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    position.hash(&mut hasher);
    hasher.finish()
}
