//! The two sides of a game a tab plays against its AI.

/// Who a move, a turn or a win belongs to in a tab's game against its AI, seen from the
/// terminal: the person at the keyboard or the AI, so the view can say "you" or "AI".
///
/// It names the player by who plays, not by place in the game; the domain's players name the
/// place whoever fills it (`tictactoe::Mark` X or O, `eight::Seat` first or second,
/// `state_graph::Player` 1 or 2), and the config's `FirstMover` is a setting that may leave
/// the opener to chance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The person at the keyboard.
    Human,
    /// The tab's AI opponent.
    Ai,
}
