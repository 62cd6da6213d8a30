//! A glyph with its meaning. Each tab's drawing takes its glyphs from its own table of these
//! (`tabs/<tab>/symbols.rs`) and the help overlay's "Symbols" section lists the same table, so
//! the legend cannot drift from the screen.

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

/// The focused pane's title mark (every tab with a focus draws it).
pub const FOCUS: Symbol = symbol("▸", "title: pane the keys go to");
