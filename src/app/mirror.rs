//! Followers see what their teacher opens over the tabs (issue 30 §2): the AI's reasons
//! for a move (`y`, and the record stepped with ←→), the log, an exported text. A lesson
//! step that says "press y: why that move?" is then shown to the whole class at once.
//! Help, the settings panel, the room and a tab's card stay the teacher's own.
//!
//! The teacher's position carries what is open; it is sent when it changes, as a new
//! entry of the journal is. A follower opens it over their own tabs, and closes it when
//! the teacher does.

use super::action::Overlay;
use super::shown::{Shown, ShownMark};
use super::{App, Overlays};
use std::mem::discriminant;
use std::sync::Arc;

impl Shown {
    /// What of `overlay` a follower sees, if it is shared at all.
    fn of(overlay: &Overlay) -> Option<Self> {
        match overlay {
            Overlay::Why(why) => Some(Self::Why(why.clone())),
            Overlay::Log => Some(Self::Log),
            Overlay::Text(text) => Some(Self::Text(text.clone())),
            Overlay::Help
            | Overlay::Settings(_)
            | Overlay::Room
            | Overlay::ClassSummary(_)
            | Overlay::Progress(_)
            | Overlay::Course(_)
            | Overlay::Explain
            | Overlay::About { .. } => None,
        }
    }

    /// The overlay a follower opens for it.
    fn overlay(&self) -> Overlay {
        match self {
            Self::Why(why) => Overlay::Why(why.clone()),
            Self::Log => Overlay::Log,
            Self::Text(text) => Overlay::Text(text.clone()),
        }
    }
}

/// The mark of `overlay`, if it is shared.
fn mark(overlay: &Overlay) -> Option<ShownMark> {
    match overlay {
        Overlay::Why(why) => Some(ShownMark::Why {
            open: why.open,
            moves: why.moves.len(),
        }),
        Overlay::Log => Some(ShownMark::Log),
        Overlay::Text(text) => Some(ShownMark::Text(text.text().len())),
        Overlay::Help
        | Overlay::Settings(_)
        | Overlay::Room
        | Overlay::ClassSummary(_)
        | Overlay::Progress(_)
        | Overlay::Course(_)
        | Overlay::Explain
        | Overlay::About { .. } => None,
    }
}

/// The shared overlay nearest the front of `overlays` (under the room, the teacher's
/// reasons stay on the class's screens).
fn front_shared(overlays: &Overlays) -> Option<&Overlay> {
    overlays
        .bottom_first()
        .iter()
        .rev()
        .find(|o| mark(o).is_some())
}

impl App {
    /// Whether what the teacher shows changed since it was last sent: it is kept to be
    /// sent with the position.
    pub(super) fn showing_changed(&mut self) -> bool {
        if self.room.is_none() {
            return false;
        }
        let front = front_shared(&self.overlays);
        let now = front.and_then(mark);
        if now == self.showing.sent.as_ref().map(|(mark, _)| *mark) {
            return false;
        }
        self.showing.sent =
            front.and_then(|overlay| Some((mark(overlay)?, Arc::new(Shown::of(overlay)?))));
        true
    }

    /// A follower takes what the teacher shows: `before` was shown with the last position
    /// taken, `now` with this one. What the teacher closed closes; what they opened opens
    /// in front, at its start.
    pub(super) fn mirror(&mut self, before: Option<&Arc<Shown>>, now: Option<&Arc<Shown>>) {
        let same = match (before, now) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if same {
            return;
        }
        if let Some(before) = before {
            let kind = discriminant(&before.overlay());
            self.overlays.keep_only(|open| discriminant(open) != kind);
        }
        if let Some(now) = now {
            let overlay = now.overlay();
            let at_end = matches!(overlay, Overlay::Log);
            self.overlays.open(overlay);
            self.overlay_scroll.set(if at_end { u16::MAX } else { 0 });
        }
    }
}
