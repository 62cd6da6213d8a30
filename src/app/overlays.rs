//! The overlays open over the tab, as a stack (as helix and gitui keep theirs): the top one
//! takes the keys and is drawn; Esc closes it and shows the one below. Help is one of them,
//! so there is one place to ask what is in front of the tab.

use super::action::Overlay;
use std::mem::discriminant;

/// The overlays open, bottom first. A kind is open at most once (opening it again brings it
/// to the top with its new content), so the stack is bounded by the kinds there are.
#[derive(Debug, Default)]
pub struct Overlays(Vec<Overlay>);

impl Overlays {
    /// The overlay in front, which takes the keys.
    pub fn top(&self) -> Option<&Overlay> {
        self.0.last()
    }

    /// The overlay in front, to change (the settings panel's drafts, the why record's move).
    pub fn top_mut(&mut self) -> Option<&mut Overlay> {
        self.0.last_mut()
    }

    /// Every overlay open, the one in front last.
    pub fn bottom_first(&self) -> &[Overlay] {
        &self.0
    }

    /// Whether nothing is open over the tab.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether help is in front.
    pub fn help_open(&self) -> bool {
        self.top() == Some(&Overlay::Help)
    }

    /// Opens `overlay` in front; one of its kind already open leaves its place for it.
    pub fn open(&mut self, overlay: Overlay) {
        self.0
            .retain(|open| discriminant(open) != discriminant(&overlay));
        self.0.push(overlay);
    }

    /// Closes the overlay in front and returns it.
    pub fn close(&mut self) -> Option<Overlay> {
        self.0.pop()
    }

    /// Closes `overlay`'s kind if it is in front, else opens it in front.
    pub fn toggle(&mut self, overlay: Overlay) {
        if self
            .top()
            .is_some_and(|top| discriminant(top) == discriminant(&overlay))
        {
            self.0.pop();
        } else {
            self.open(overlay);
        }
    }

    /// Closes every overlay but those `keep` accepts.
    pub fn keep_only(&mut self, keep: impl Fn(&Overlay) -> bool) {
        self.0.retain(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_takes_the_keys_and_closing_it_shows_the_one_below() {
        let mut overlays = Overlays::default();
        assert!(overlays.is_empty() && overlays.top().is_none());
        overlays.open(Overlay::Help);
        assert!(overlays.help_open());
        overlays.open(Overlay::Log);
        assert_eq!(overlays.top(), Some(&Overlay::Log));
        assert!(!overlays.help_open(), "the log is in front of help");
        assert_eq!(overlays.close(), Some(Overlay::Log));
        assert!(overlays.help_open(), "help again, as it was");
        assert_eq!(overlays.close(), Some(Overlay::Help));
        assert_eq!(overlays.close(), None);
    }

    #[test]
    fn a_kind_is_open_once_and_toggling_closes_it_only_in_front() {
        let mut overlays = Overlays::default();
        overlays.open(Overlay::Log);
        overlays.open(Overlay::Help);
        overlays.open(Overlay::Log);
        assert_eq!(
            overlays.0,
            [Overlay::Help, Overlay::Log],
            "the log moved up"
        );
        overlays.toggle(Overlay::Help);
        assert_eq!(
            overlays.0,
            [Overlay::Log, Overlay::Help],
            "help comes to the front"
        );
        overlays.toggle(Overlay::Help);
        assert_eq!(overlays.0, [Overlay::Log]);
        overlays.keep_only(|o| *o == Overlay::Room);
        assert!(overlays.is_empty());
    }
}
