//! A tab's "about" card (issue 31 §3), as plain data: the rules of its game, what its AI
//! does, and one worked example made from the position on screen, each a titled section
//! of lines. The tab writes it from its own state when `I` opens the card; the app adds
//! the lessons that teach the tab and `ui/about.rs` draws it. No terminal types here, so a
//! test reads the card's words without drawing it.

/// The title of the section with the game's rules.
pub const RULES: &str = "The game";
/// The title of the section on what the AI does.
pub const AI: &str = "The AI";
/// The title of the worked example made from the position on screen.
pub const NOW: &str = "On the screen now";

/// One titled part of a card: its lines are sentences, wrapped where the card is drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// What the section is about, drawn above its lines.
    pub title: String,
    /// Its lines, each a sentence or two; the drawing wraps them to the card's width.
    pub lines: Vec<String>,
}

/// A tab's card: its sections, in the order they are read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct About {
    /// The sections, top first.
    pub sections: Vec<Section>,
}

impl About {
    /// The card every tab gives: its rules, what its AI does and the example from the
    /// position on screen now, in that order.
    pub fn new(rules: &[&str], ai: &[&str], now: Vec<String>) -> Self {
        let owned = |lines: &[&str]| lines.iter().map(|&line| line.to_owned()).collect();
        Self {
            sections: vec![
                Section {
                    title: RULES.to_owned(),
                    lines: owned(rules),
                },
                Section {
                    title: AI.to_owned(),
                    lines: owned(ai),
                },
                Section {
                    title: NOW.to_owned(),
                    lines: now,
                },
            ],
        }
    }

    /// The card with `section` added at the end.
    #[must_use]
    pub fn with(mut self, section: Section) -> Self {
        self.sections.push(section);
        self
    }

    /// The lines of the section titled `title` (empty when there is none): what a test
    /// reads to check an example's numbers.
    pub fn lines(&self, title: &str) -> &[String] {
        self.sections
            .iter()
            .find(|section| section.title == title)
            .map_or(&[], |section| &section.lines)
    }

    /// The section `title`'s lines as one text, for a test to search.
    pub fn text(&self, title: &str) -> String {
        self.lines(title).join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_keeps_its_sections_in_order_and_finds_them_by_title() {
        let about =
            About::new(&["Take 1 or 2."], &["It counts."], vec!["Pile 3.".into()]).with(Section {
                title: "Learn it".into(),
                lines: vec!["ai-arcade learn 1".into()],
            });
        let titles: Vec<&str> = about.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, [RULES, AI, NOW, "Learn it"]);
        assert_eq!(about.text(NOW), "Pile 3.");
        assert!(about.lines("nothing").is_empty());
    }
}
