//! The glyphs of the network's weights, each with what it means; the help lists them.

use crate::widgets::symbols::{Symbol, symbol};

/// The sign before every weight's shade.
pub(crate) const SIGN: Symbol = symbol("+ -", "the sign of a weight");
/// Weights of 4 or more (either sign).
pub(crate) const SHADE_4: Symbol = symbol("█", "weight 4 or more");
/// Weights from 2 to 4.
pub(crate) const SHADE_2: Symbol = symbol("▓", "weight 2 to 4");
/// Weights from 1 to 2.
pub(crate) const SHADE_1: Symbol = symbol("▒", "weight 1 to 2");
/// Weights from 0.3 to 1.
pub(crate) const SHADE_03: Symbol = symbol("░", "weight 0.3 to 1");
/// Weights too small to matter.
pub(crate) const FAINT: Symbol = symbol("·", "weight under 0.3");
/// The shades, strongest first, with the smallest magnitude each stands for.
pub(crate) const SHADES: [(f64, Symbol); 4] = [
    (4.0, SHADE_4),
    (2.0, SHADE_2),
    (1.0, SHADE_1),
    (0.3, SHADE_03),
];

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

/// The shade of a weight's magnitude.
pub(crate) fn shade(magnitude: f64) -> &'static str {
    SHADES
        .iter()
        .find(|(least, _)| magnitude >= *least)
        .map_or(FAINT.glyph, |(_, shade)| shade.glyph)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shades_go_from_strong_to_faint() {
        assert_eq!(shade(5.0), "█");
        assert_eq!(shade(2.5), "▓");
        assert_eq!(shade(1.0), "▒");
        assert_eq!(shade(0.5), "░");
        assert_eq!(shade(0.1), "·");
    }
}
