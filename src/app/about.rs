//! The "about" card (`I`, issue 31 §3): the shown tab's own card (its rules, its AI, the
//! example from its position) with the lessons of the built-in course that teach the tab
//! added at the end. The lessons are read from the course itself, so a lesson added to
//! it is named on the cards of the tabs it shows without a change here.

use super::course::built_in_lessons;
use super::{App, Overlay, TabId};
use crate::tabkit::about::{About, Section};

/// The title of the section naming the lessons.
pub const LESSONS: &str = "Learn it";

/// The section naming the lessons that show `tab`, and how to open them: one line (the
/// card wraps it), so a tab four lessons teach still fits its card at 80x24.
pub fn lessons_for(tab: TabId) -> Section {
    let named: Vec<String> = (built_in_lessons().iter().enumerate())
        .filter_map(|(at, lesson)| Some((at + 1, lesson.as_ref()?)))
        .filter(|(_, lesson)| lesson.shows(tab))
        .map(|(place, lesson)| format!("{place} {}", lesson.title))
        .collect();
    let line = if named.is_empty() {
        "No lesson of the course teaches this tab yet: H opens the course.".to_owned()
    } else {
        format!(
            "H opens the course (or ai-arcade learn N): {}.",
            named.join(" · ")
        )
    };
    Section {
        title: LESSONS.to_owned(),
        lines: vec![line],
    }
}

impl App {
    /// The shown tab's card, the lessons that teach it at the end.
    #[must_use]
    pub fn about(&self) -> About {
        self.tabs.get(self.tab).about().with(lessons_for(self.tab))
    }

    /// Opens the shown tab's card over it, or closes the card when it is in front.
    pub(super) fn toggle_about(&mut self) {
        self.overlays.toggle(Overlay::About {
            tab: self.tab,
            about: self.about(),
        });
        self.overlay_scroll.set(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::lesson::builtin::BUILT_IN;

    /// `I` is hinted, after every key that acts: a full row at 80 columns drops it first.
    #[test]
    fn the_about_hint_comes_after_the_keys_that_act() {
        let app = App::new(&Config::default(), 7);
        let hints = app.hints();
        let last = hints.last().expect("hints");
        assert_eq!(last.action(last.keys()[0]), crate::app::Action::ToggleAbout);
        assert!(hints.len() > 4, "the tab's own keys come before it");
    }

    /// The lessons named are the course's own: each tab a shipped lesson shows names it,
    /// by its place, and a tab no lesson shows says so.
    #[test]
    fn a_card_names_the_course_lessons_that_show_its_tab() {
        let base = Config::default();
        for &tab in TabId::ALL {
            let section = lessons_for(tab);
            let shown: Vec<(usize, String)> = BUILT_IN
                .iter()
                .enumerate()
                .map(|(at, b)| (at + 1, b.load(&base).unwrap().0))
                .filter(|(_, lesson)| lesson.shows(tab))
                .map(|(place, lesson)| (place, lesson.title))
                .collect();
            assert_eq!(section.lines.len(), 1, "{tab:?}: {:?}", section.lines);
            for (place, title) in &shown {
                assert!(
                    section.lines[0].contains(&format!("{place} {title}")),
                    "{tab:?} names lesson {place}: {:?}",
                    section.lines
                );
            }
            if shown.is_empty() {
                assert!(section.lines[0].starts_with("No lesson"));
            }
        }
    }
}
