//! The tab's "about" card (`I`): Connect Four's rules, what the AI chosen with `a` does and
//! how its numbers read, and the worked example from the board now: the stepped search's
//! node or MCTS root when one is open, else the heuristic of each column for the player
//! to move, worked out from the board.

use super::settings::Connect4Ai;
use super::state::Connect4Tab;
use crate::components::{mcts_search, tree_search};
use crate::domain::games::connect4::Board;
use crate::domain::search::heuristic::{CENTRE_POINTS, Evaluate, THREE_POINTS, TWO_POINTS};
use crate::tabkit::about::About;

const RULES: &[&str] = &[
    "Take turns to drop a disc into one of 7 columns; it falls as low as it can.",
    "Four of your discs in a row, across, up or diagonally, wins. Full: a draw.",
    "Example: your discs at the bottom of columns 1, 2, 3 and 4 win.",
];

/// What the MCTS pane adds here to the words every MCTS tab gives.
const MCTS_EXACT: &str = "The exact solver's verdict beside each root move shows where MCTS errs.";

const PERFECT: &[&str] = &[
    "The exact solver searches to the end of the game, within its budget.",
    "The first 8 moves it reads from its opening book, solved ahead of time.",
    "Score for the mover: 0 a draw, else ±(22 − the winner's discs at the win).",
    "So +14 wins sooner than +2, and a minus loses against best play.",
];

const RANDOM: &[&str] = &[
    "It drops its disc in a random open column, drawn from the seed.",
    "a picks another AI: alpha-beta, MCTS or the exact solver (perfect).",
];

impl Connect4Tab {
    /// The card for the AI in force and the board now.
    pub(super) fn about_card(&self) -> About {
        let alpha_beta = [
            format!(
                "Alpha-beta looks {} moves ahead; MAX (the AI) takes the largest value.",
                self.config.depth
            ),
            "Where it stops, it scores the board: each player's points are".into(),
            format!(
                "{THREE_POINTS} per line of four with 3 of its discs, {TWO_POINTS} with 2, \
                 {CENTRE_POINTS} per centre disc."
            ),
            "The score is the AI's points minus yours; a win counts 1000 − moves.".into(),
            "α: what MAX is sure of, β: what MIN is sure of; α ≥ β cuts the rest.".into(),
        ];
        let alpha_beta: Vec<&str> = alpha_beta.iter().map(String::as_str).collect();
        let mcts: Vec<&str> = mcts_search::about::WORDS
            .into_iter()
            .chain([MCTS_EXACT])
            .collect();
        let ai: &[&str] = match self.config.ai {
            Connect4Ai::AlphaBeta => &alpha_beta,
            Connect4Ai::Mcts => &mcts,
            Connect4Ai::Perfect => PERFECT,
            Connect4Ai::Random => RANDOM,
        };
        About::new(RULES, ai, self.example())
    }

    /// The worked example: the stepped search on screen, else the board's heuristic.
    fn example(&self) -> Vec<String> {
        if let Some(search) = &self.tree_search {
            return tree_search::about::example(search);
        }
        if let Some(search) = &self.stepping {
            return mcts_search::about::example(search);
        }
        heuristic_example(&self.board)
    }
}

/// The heuristic of each column the player to move may drop in, from `board`: the
/// arithmetic of the best one written out.
pub(super) fn heuristic_example(board: &Board) -> Vec<String> {
    if board.is_over() {
        return vec!["The game is over: r starts a new one, then I again.".into()];
    }
    let mover = board.player_to_move();
    let scored: Vec<(usize, Option<i32>, Board)> = board
        .open_columns()
        .map(|column| {
            let after = board.play(column);
            let score = (!board.wins_with(column)).then(|| Board::score(&after.counts(), mover));
            (column, score, after)
        })
        .collect();
    let listed: Vec<String> = scored
        .iter()
        .map(|(column, score, _)| {
            let score = score.map_or("wins".into(), |s| format!("{s:+}"));
            format!("col {} {score}", column + 1)
        })
        .collect();
    let mut lines = vec![
        format!(
            "The heuristic if {} drops in each column ({}'s points − the other's):",
            mover.name(),
            mover.name()
        ),
        listed.join(", "),
    ];
    let best = scored
        .iter()
        .filter_map(|(column, score, after)| Some((*column, (*score)?, after)))
        .max_by_key(|&(column, score, _)| (score, std::cmp::Reverse(column)));
    if let Some((column, _, after)) = best {
        let counts = after.counts();
        lines.push(format!(
            "Best at one look: col {}: {} {}, {} {}: {}.",
            column + 1,
            mover.name(),
            counts.of(mover).written(),
            mover.other().name(),
            counts.of(mover.other()).points(),
            counts.arithmetic(mover)
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::heuristic_example;
    use crate::domain::games::connect4::Board;

    #[test]
    fn the_empty_board_s_heuristic_is_the_centre_disc_alone() {
        let lines = heuristic_example(&Board::new());
        assert_eq!(
            lines[1], "col 1 +0, col 2 +0, col 3 +0, col 4 +3, col 5 +0, col 6 +0, col 7 +0",
            "one disc makes no line of two; a centre disc is worth 3"
        );
        assert!(
            lines[2].starts_with("Best at one look: col 4: red"),
            "{lines:?}"
        );
    }

    #[test]
    fn the_heuristic_follows_the_board_and_a_winning_drop_says_so() {
        // Red has three in the bottom row (columns 1-3), yellow stacked on them.
        let board = Board::parse("112233").unwrap();
        let lines = heuristic_example(&board);
        assert!(lines[0].contains("if red drops"), "{lines:?}");
        assert!(lines[1].contains("col 4 wins"), "{lines:?}");
        let after = Board::parse("1122335").unwrap();
        let yellow = heuristic_example(&after);
        assert!(yellow[0].contains("if yellow drops"), "{yellow:?}");
        assert_eq!(
            heuristic_example(&Board::parse("1122334").unwrap()),
            vec!["The game is over: r starts a new one, then I again.".to_string()],
            "red made four at the bottom"
        );
        assert_ne!(lines, heuristic_example(&Board::parse("4").unwrap()));
    }
}
