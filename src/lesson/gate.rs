//! What a lesson step can wait for (issue 31 §2: "steps can wait for the doing"): an event
//! of the app the student brings about, read from the step's `done_when`. `]` leaves a
//! gated step once its event has happened; pressed again before, it marks the step skipped.
//! The tabs report their [`Facts`]; a gate compares two looks at them, so a count that
//! rose is an event (the AI moved, a game ended, the stepper stepped or cut off) and a
//! level is a state reached (a position on the board, a curve at a height).

use crate::domain::games::{connect4, tictactoe};
use crate::tabkit::facts::{Facts, position_key};
use crate::tabs::id::TabId;

/// The events `done_when` names, as the lesson format documents them.
pub const EVENTS: &str = "right-answer, ai-moved, game-over, stepped, cut-off, \
                          \"position MOVES\" or \"curve PERCENT\"";

/// What a step waits for.
#[derive(Debug, Clone, PartialEq)]
pub enum Gate {
    /// A prediction, or the step's own question, graded right during the step.
    RightAnswer,
    /// The AI makes a move.
    AiMoved,
    /// A game ends.
    GameOver,
    /// The search stepper takes a step.
    Stepped,
    /// The alpha-beta stepper shows a cut-off.
    CutOff,
    /// The board shows a position: as written, and as the tab names it.
    Position {
        /// As the lesson wrote it, for the words.
        written: String,
        /// As [`position_key`] names it.
        key: u64,
    },
    /// The learner's curve reaches this percent.
    Curve(f64),
}

// A curve's percent is checked finite on reading, so equality is total.
impl Eq for Gate {}

impl Gate {
    /// Reads `done_when` as a lesson writes it; `tab` is the tab the step is about (a
    /// position is read as that tab's game writes it).
    ///
    /// # Errors
    /// Why the words name no event, or a position or percent that cannot be.
    pub fn read(written: &str, tab: TabId) -> Result<Self, String> {
        let written = written.trim();
        let (word, rest) = written.split_once(' ').unwrap_or((written, ""));
        let rest = rest.trim();
        let simple = match word {
            "right-answer" => Some(Self::RightAnswer),
            "ai-moved" => Some(Self::AiMoved),
            "game-over" => Some(Self::GameOver),
            "stepped" => Some(Self::Stepped),
            "cut-off" => Some(Self::CutOff),
            _ => None,
        };
        if let Some(gate) = simple {
            return if rest.is_empty() {
                Ok(gate)
            } else {
                Err(format!("{word:?} takes nothing after it"))
            };
        }
        match word {
            "position" => position(rest, tab),
            "curve" => curve(rest),
            _ => Err(format!("{written:?} is no event: allowed {EVENTS}")),
        }
    }

    /// What the student is to do, as the lesson pane and a refusal say it.
    #[must_use]
    pub fn to_do(&self) -> String {
        match self {
            Self::RightAnswer => "give a right answer".into(),
            Self::AiMoved => "let the AI make a move".into(),
            Self::GameOver => "play a game to its end".into(),
            Self::Stepped => "take a step of the search".into(),
            Self::CutOff => "step to a cut-off (╳)".into(),
            Self::Position { written, .. } => position_words(written),
            Self::Curve(percent) => format!("train until the curve reaches {percent}%"),
        }
    }

    /// Whether the event happened between two looks at the step's tab: `before` (`None`:
    /// no look yet since the step began) and `now`. A right answer is the app's to count.
    #[must_use]
    pub fn happened(&self, before: Option<&Facts>, now: &Facts) -> bool {
        let rose = |count: fn(&Facts) -> u64| before.is_some_and(|b| count(now) > count(b));
        match self {
            Self::RightAnswer => false,
            Self::AiMoved => rose(|f| f.ai_moves),
            Self::GameOver => before.is_some_and(|b| !b.over) && now.over,
            Self::Stepped => rose(|f| f.steps),
            Self::CutOff => rose(|f| f.cut_offs),
            Self::Position { key, .. } => now.position == Some(*key),
            Self::Curve(percent) => now.curve.is_some_and(|at| at >= *percent),
        }
    }
}

/// What reaching a position asks, as a student reads it: the move to play, the moves that
/// lead there, or the board.
fn position_words(written: &str) -> String {
    let moves: Vec<String> = (written.chars())
        .filter(char::is_ascii_digit)
        .map(String::from)
        .collect();
    match moves.len() {
        _ if moves.len() != written.chars().filter(|c| !c.is_whitespace()).count() => {
            format!("reach the board {written}")
        }
        1 => format!("play {}", moves[0]),
        _ => format!("reach the moves {}", moves.join(" ")),
    }
}

/// A position gate: the moves (or, on tic-tac-toe, the nine cells) of `tab`'s game.
fn position(written: &str, tab: TabId) -> Result<Gate, String> {
    let key = match tab {
        TabId::TicTacToe => {
            let moves = written.chars().all(|c| c.is_ascii_digit());
            let board = if moves {
                tictactoe::Board::from_moves(written)
            } else {
                tictactoe::Board::parse(written, None)
            };
            position_key(&board.map_err(|why| format!("position {written:?}: {why}"))?)
        }
        TabId::ConnectFour => {
            let board = connect4::Board::parse(written)
                .map_err(|(at, why)| format!("position {written:?}: move {at}: {why}"))?;
            position_key(&board)
        }
        other => {
            return Err(format!(
                "a position is for tic-tac-toe or Connect Four, not {}",
                other.title()
            ));
        }
    };
    Ok(Gate::Position {
        written: written.to_owned(),
        key,
    })
}

/// A curve gate: a percent above 0, at most 100.
fn curve(written: &str) -> Result<Gate, String> {
    let percent: f64 = (written.trim_end_matches('%').parse())
        .map_err(|_| format!("curve {written:?}: a percent, for example \"curve 90\""))?;
    if !(percent > 0.0 && percent <= 100.0) {
        return Err(format!("curve {written}: allowed above 0, at most 100"));
    }
    Ok(Gate::Curve(percent))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(ai_moves: u64, over: bool) -> Facts {
        Facts {
            ai_moves,
            over,
            ..Facts::default()
        }
    }

    #[test]
    fn events_are_counts_that_rose_since_the_last_look() {
        let gate = Gate::read("ai-moved", TabId::TicTacToe).unwrap();
        assert!(
            !gate.happened(None, &facts(3, false)),
            "no look before: no event"
        );
        assert!(!gate.happened(Some(&facts(3, false)), &facts(3, false)));
        assert!(gate.happened(Some(&facts(0, false)), &facts(1, false)));
        let over = Gate::read("game-over", TabId::TicTacToe).unwrap();
        assert!(
            !over.happened(Some(&facts(0, true)), &facts(0, true)),
            "over already"
        );
        assert!(over.happened(Some(&facts(0, false)), &facts(0, true)));
    }

    #[test]
    fn a_position_is_the_tabs_game_position() {
        let gate = Gate::read("position 519", TabId::TicTacToe).unwrap();
        let board = tictactoe::Board::from_moves("519").unwrap();
        let at = Facts {
            position: Some(position_key(&board)),
            ..Facts::default()
        };
        assert!(gate.happened(None, &at));
        assert_eq!(gate.to_do(), "reach the moves 5 1 9");
        assert_eq!(
            Gate::read("position 5", TabId::TicTacToe).unwrap().to_do(),
            "play 5"
        );
        let key_of = |gate| match gate {
            Gate::Position { key, .. } => key,
            other => panic!("{other:?} is no position"),
        };
        let cells = Gate::read("position X...X...O", TabId::TicTacToe).unwrap();
        let moves = Gate::read("position 591", TabId::TicTacToe).unwrap();
        assert_eq!(key_of(cells), key_of(moves));
        assert!(
            !Gate::read("position 591", TabId::TicTacToe)
                .unwrap()
                .happened(None, &at)
        );
        let four = Gate::read("position 4453", TabId::ConnectFour).unwrap();
        let key = position_key(&connect4::Board::parse("4453").unwrap());
        assert!(matches!(four, Gate::Position { key: k, .. } if k == key));
    }

    #[test]
    fn words_that_name_no_event_are_refused_with_the_events() {
        let refused = |w: &str, tab| Gate::read(w, tab).unwrap_err();
        assert!(refused("ai moved", TabId::TicTacToe).contains("allowed right-answer"));
        assert!(refused("stepped 3", TabId::TicTacToe).contains("takes nothing after it"));
        assert!(refused("position 55", TabId::TicTacToe).contains("position \"55\""));
        assert!(refused("position 519", TabId::MultiPileNim).contains("not Multi-pile Nim"));
        assert!(refused("position 8", TabId::ConnectFour).contains("move 1"));
        assert!(refused("curve 120", TabId::SubtractionNim).contains("at most 100"));
        assert!(refused("curve most", TabId::SubtractionNim).contains("a percent"));
        assert_eq!(
            Gate::read("curve 90%", TabId::SubtractionNim),
            Ok(Gate::Curve(90.0))
        );
    }
}
