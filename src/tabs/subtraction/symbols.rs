//! The glyphs of the network's weights, each with what it means; the help lists them. The
//! sign and the shades are the drawing kit's (`widgets::symbols`), shared with every tab
//! that draws a network's weights; the table's marks are this tab's own.

use crate::widgets::symbols::{
    FAINT, Gloss, SHADE_1, SHADE_2, SHADE_03, SHADE_4, SIGN, Symbol, gloss, symbol,
};

/// The weight pane's symbols.
pub(crate) const WEIGHTS: &[Symbol] = &[
    SIGN,
    SHADE_4,
    SHADE_2,
    SHADE_1,
    SHADE_03,
    FAINT,
    MISSES,
    THRESHOLD_ILLEGAL,
];

/// A pile where the network misses the winning take.
pub(crate) const MISSES: Symbol = symbol("✗", "table: misses the win");
/// A pile where the original threshold decoder reads an illegal take.
pub(crate) const THRESHOLD_ILLEGAL: Symbol = symbol("!", "original decoder: illegal");

/// The words the help glosses on this tab.
pub(crate) const WORDS: &[Gloss] = &[
    gloss(
        "MSE",
        "Mean squared error: how far the network's outputs are from the right bits, averaged \
         (0 is perfect). The chart shows it whatever the network learns by.",
    ),
    gloss(
        "recipe (loss), cross-entropy",
        "How the network is trained: the loss it learns by (squared error, or cross-entropy, \
         which punishes a confident wrong bit harder) and how its first weights are drawn.",
    ),
    gloss(
        "wins at a/b",
        "Of the b piles that can be won, the a where the network's move wins.",
    ),
    gloss(
        "illegal raw",
        "Piles where the outputs, each read as a bit at 0.5, spell no legal take; the legal \
         decoder then plays the likeliest legal take instead.",
    ),
    gloss(
        "decoder",
        "Reads the outputs as a take. The legal decoder picks the likeliest legal take; the \
         lab's original decoder read bits above 0.2 and could pick an illegal one (!).",
    ),
    gloss(
        "weights grid",
        "One row per hidden unit: its weight from each input bit (n6 … n0, then the bias b), \
         sign and shade for size, its activation in the AI's last move (act), and its \
         weights to each output bit (k5 … k0). The unit under › is written out below.",
    ),
    gloss(
        "s (paused)",
        "Trains subtraction.step_epochs more epochs (100 by default; S changes it), so the \
         curve and the weights can be watched step by step.",
    ),
];
