//! A glyph with its meaning. Each tab's drawing takes its glyphs from its own table of these
//! (`tabs/<tab>/symbols.rs`) and the help overlay's "Symbols" section lists the same table, so
//! the legend cannot drift from the screen. The glyphs more than one tab draws live here: the
//! focus mark, and the sign-and-shade cells every tab that shows a network's weights draws
//! them with.

/// One glyph (or short mark) and what it means on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbol {
    /// What is drawn.
    pub glyph: &'static str,
    /// What it means, in a few words.
    pub meaning: &'static str,
}

/// A symbol, for the tables.
pub const fn symbol(glyph: &'static str, meaning: &'static str) -> Symbol {
    Symbol { glyph, meaning }
}

/// A word or number on screen a student may not read yet, with what it means in plain words:
/// the help's "Words" section lists each tab's, beside its symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gloss {
    /// As the screen writes it (`MSE`, `s′`, `p2-1`).
    pub term: &'static str,
    /// What it means, in a sentence.
    pub meaning: &'static str,
}

/// A gloss, for the tables.
pub const fn gloss(term: &'static str, meaning: &'static str) -> Gloss {
    Gloss { term, meaning }
}

/// The focused pane's title mark (every tab with a focus draws it).
pub const FOCUS: Symbol = symbol("»", "title: pane the keys go to");

/// The sign before every weight's shade.
pub const SIGN: Symbol = symbol("+ -", "the sign of a weight");
/// Weights of 4 or more (either sign).
pub const SHADE_4: Symbol = symbol("█", "weight 4 or more");
/// Weights from 2 to 4.
pub const SHADE_2: Symbol = symbol("▓", "weight 2 to 4");
/// Weights from 1 to 2.
pub const SHADE_1: Symbol = symbol("▒", "weight 1 to 2");
/// Weights from 0.3 to 1.
pub const SHADE_03: Symbol = symbol("░", "weight 0.3 to 1");
/// Weights too small to matter.
pub const FAINT: Symbol = symbol("·", "weight under 0.3");
/// The shades, strongest first, with the smallest magnitude each stands for.
pub const SHADES: [(f64, Symbol); 4] = [
    (4.0, SHADE_4),
    (2.0, SHADE_2),
    (1.0, SHADE_1),
    (0.3, SHADE_03),
];

/// The shade of a weight's magnitude.
pub fn shade(magnitude: f64) -> &'static str {
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
