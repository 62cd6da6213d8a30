//! The glyphs of Multi-pile Nim, each with what it means; the help lists them.

use crate::widgets::symbols::{Gloss, Symbol, gloss, symbol};

/// The move the Q-table (or network) plays.
pub const GREEDY: Symbol = symbol("★", "the AI's choice (greedy)");
/// A move the solver says wins.
pub const WINS: Symbol = symbol("✓", "a winning move (solver)");
/// The pane cursor, and the chosen pile.
pub const SELECTED: Symbol = symbol("›", "selected row / pile");
/// Objects the selection would take.
pub const TAKING: Symbol = symbol("○", "objects your move takes");

/// Multi-pile Nim's symbols.
pub const NIM: &[Symbol] = &[GREEDY, WINS, SELECTED, TAKING];

/// The words the help glosses on this tab.
pub const WORDS: &[Gloss] = &[
    gloss(
        "Q, Q(s,a)",
        "The learned value of move a in position s, from the mover's side: near +1 it wins, \
         near -1 it loses. The AI plays the move with the highest Q (★ greedy).",
    ),
    gloss(
        "s′ (s-prime)",
        "The mover's next position: after its move and the opponent's reply. The update \
         looks at the best Q there, max Q(s′).",
    ),
    gloss(
        "α, r",
        "α: the learning rate, how far one update moves Q toward its target. r: the reward, \
         +1 for a win and -1 for a loss when the game ends, else 0.",
    ),
    gloss(
        "✓ (solver)",
        "A move that wins with perfect play, from the exact solver: the truth the table is \
         held against, not what the AI knows. Hidden on your turn unless i shows it.",
    ),
];
