//! Why a key did nothing: the refusal that names what is open in front of the tab (or
//! whose pane the key belongs to), and its end once that is closed.

use super::{Action, App, InFront, Keys, Message, Overlay};
use crate::tabkit::keymap::Key;

impl App {
    /// What is open in front of the tab now, as far as a refusal can name it.
    fn in_front(&self) -> InFront {
        InFront {
            overlays: self.overlays.bottom_first().len(),
            answering: self.answering(),
            modal: self.tabs.modal(self.tab),
        }
    }

    /// Clears a refusal whose reason was closed since ("Help is open…" after help closed).
    /// A message put on the status line since (a lesson's step, the teacher's order) is
    /// news of its own and stays.
    pub(super) fn drop_stale_refusal(&mut self) {
        let Some((then, refusal)) = &self.refused_in_front else {
            return;
        };
        if *then == self.in_front() {
            return;
        }
        if self.message.as_ref() == Some(refusal) {
            self.message = None;
        }
        self.refused_in_front = None;
    }

    /// Why a key that is bound to nothing now does nothing: an overlay or menu in front
    /// takes the keys, or the key belongs to another pane of the tab. `Noop` for keys the
    /// tab never uses.
    pub(super) fn why_nothing(&self, key: Key, active: &[Keys]) -> Action {
        match self.overlays.top() {
            Some(Overlay::Help) => {
                return Action::Refused("Help is open over the tab: Esc closes it");
            }
            Some(Overlay::Log) => return Action::Refused("The message log is open: Esc closes it"),
            Some(Overlay::Text(_)) => {
                return Action::Refused("The exported text is open: Esc closes it");
            }
            Some(Overlay::Why(_)) => {
                return Action::Refused("The AI's reasons are open: Esc closes them");
            }
            Some(Overlay::Settings(_)) => {
                return Action::Refused("The settings panel is open: Enter applies, Esc closes");
            }
            Some(Overlay::Room) => return Action::Refused("The room is open: Esc closes it"),
            Some(Overlay::Course(_)) => {
                return Action::Refused("The course is open: Enter starts a lesson, Esc closes it");
            }
            Some(Overlay::Explain) => {
                return Action::Refused("The step's explanation is open: Esc closes it");
            }
            Some(Overlay::ClassSummary(_)) => {
                return Action::Refused("The class summary is open: Esc goes back to the room");
            }
            Some(Overlay::Progress(_)) => {
                return Action::Refused("Your progress is open: Esc closes it");
            }
            Some(Overlay::About { .. }) => {
                return Action::Refused("The tab's card is open: Esc closes it");
            }
            None => {}
        }
        if self.answering() {
            return Action::Refused(
                "The step's question is open: Enter gives the answer, Esc closes",
            );
        }
        if let Some(why) = self.tabs.modal(self.tab) {
            return Action::Refused(why);
        }
        if key == Key::Esc {
            // With nothing open, Esc is someone getting out of nothing: no news is right.
            return Action::Noop;
        }
        let mut groups = self.help_keys();
        // The room's keys come first in a teacher's help but last here: a key of the tab's
        // own panes is named as theirs, not as the room's.
        groups.sort_by_key(|group| group.title == super::keys::ROOM_OVERLAY.title);
        groups
            .iter()
            .filter(|group| !active.iter().any(|a| a.title == group.title))
            .flat_map(|group| group.bindings.iter().map(move |&b| (group.title, b)))
            .find(|(_, binding)| binding.matches(key))
            .map_or(Action::Noop, |(group, binding)| Action::Elsewhere {
                label: binding.label(),
                what: binding.description(),
                group,
            })
    }

    /// Says why a key did nothing. A key refused because a prediction waits says the
    /// question again, as a reminder rather than an error (nothing was answered wrong):
    /// the status line may have moved on from it.
    pub(super) fn refused(&mut self, why: &'static str) {
        let asked = self
            .tabs
            .open_question(self.tab)
            .filter(|_| self.overlays.is_empty() && self.tabs.modal(self.tab) == Some(why));
        let refusal = match asked {
            Some(open) => {
                Message::typing(&format!("Answer first: {}", open.question), &open.typed, "")
            }
            None => Message::error(why),
        };
        self.say(refusal.clone());
        self.refused_in_front = Some((self.in_front(), refusal));
    }
}
