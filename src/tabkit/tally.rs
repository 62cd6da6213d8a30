//! The score of a tab's games against the person, kept the same way on every tab: a game
//! counts once when it ends, and comes off again when undo takes back the move that ended it.

/// How a finished game went for the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// The person won.
    Won,
    /// The AI won.
    Lost,
    /// Nobody did.
    Drawn,
}

impl GameResult {
    /// The result as a noun: "the win comes off the score".
    pub fn noun(self) -> &'static str {
        match self {
            Self::Won => "win",
            Self::Lost => "loss",
            Self::Drawn => "draw",
        }
    }
}

/// Games won, lost and drawn by the person this session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Games the person won.
    pub won: u32,
    /// Games the AI won.
    pub lost: u32,
    /// Games nobody won.
    pub drawn: u32,
}

/// Two tallies together (Tic-tac-toe's two games, said as one score).
impl std::ops::Add for Tally {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        Self {
            won: self.won + other.won,
            lost: self.lost + other.lost,
            drawn: self.drawn + other.drawn,
        }
    }
}

impl Tally {
    fn slot(&mut self, result: GameResult) -> &mut u32 {
        match result {
            GameResult::Won => &mut self.won,
            GameResult::Lost => &mut self.lost,
            GameResult::Drawn => &mut self.drawn,
        }
    }

    /// Counts a game that just ended.
    pub fn count(&mut self, result: GameResult) {
        *self.slot(result) += 1;
    }

    /// Takes a counted game off again (undo took back the move that ended it), and says so
    /// in the words undo's message ends with.
    pub fn take_back(&mut self, result: GameResult) -> String {
        let slot = self.slot(result);
        *slot = slot.saturating_sub(1);
        format!("the {} comes off the score", result.noun())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_taken_back_and_played_again_counts_once() {
        let mut tally = Tally::default();
        tally.count(GameResult::Lost);
        assert_eq!(
            tally.take_back(GameResult::Lost),
            "the loss comes off the score"
        );
        tally.count(GameResult::Lost);
        assert_eq!(
            tally,
            Tally {
                won: 0,
                lost: 1,
                drawn: 0
            }
        );
    }
}
