//! The glyphs of the network's weights, each with what it means; the help lists them. The
//! sign and the shades are the drawing kit's (`widgets::symbols`), shared with every tab
//! that draws a network's weights; the table's marks are this tab's own.

use crate::widgets::symbols::{FAINT, SHADE_1, SHADE_2, SHADE_03, SHADE_4, SIGN, Symbol, symbol};

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
