//! The app's side of a served class: what this session does as the teacher's or as a
//! student's. The teacher's session opens on the room, pushes its position to the students
//! following it whenever its journal changes, and gives the room its orders (follow me,
//! release, back to the checkpoint, reload the files, reveal the answer); the room's
//! cursor picks the student an order is for. A student's session reports its seat after
//! every input, takes the teacher's orders, and hands its exports and graded answers to
//! the collect folder. The room, the seat and the folder are the traits of `room.rs`;
//! taking a position is `follow.rs`'s.

use super::journal::{Entry, MAX_ENTRIES};
use super::room::{Graded, Order, Room, Seat, Setup, Whereabouts, Whom};
use super::{Action, App, Message, Overlay};
use crate::tabkit::tab::{CopyText, Verdict};
use crate::tabs::TabId;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The teacher's session: the room, its cursor, and the orders given to it.
impl App {
    /// Makes this the teacher's session of `room`: the room opens (a teacher back in their
    /// own app finds it as they left it), the lesson's locks do not hold, and the teacher's answers wait for the reveal with the class's (so an
    /// answer is not a step the students would replay).
    pub fn become_teacher(&mut self, room: Arc<dyn Room>) {
        let opens = self.overlays.top() != Some(&Overlay::Room);
        self.room = Some(room);
        self.tabs.hold_answers(true);
        if opens {
            self.update(Action::ToggleRoom);
        }
    }

    /// Whether the screen shows something from outside the app (the room), which must be
    /// drawn again when it changes.
    pub fn shows_outside(&self) -> bool {
        self.overlays.top() == Some(&Overlay::Room)
    }

    /// A teacher's session pushes its position to those following once it changed. A
    /// journal that filled up cannot be followed further: the teacher is told.
    pub(super) fn after_change(&mut self) {
        if self.journal.is_full() && self.room.is_some() {
            self.say(Message::error(format!(
                "Your session kept {MAX_ENTRIES} changes, all it keeps: students following \
                 you no longer see yours"
            )));
        }
        let moved = self.journal.take_unsent();
        let shown = self.showing_changed();
        if moved || shown {
            self.push_position();
        }
    }

    /// Pushes this session's position to the students following it (a teacher's session).
    pub(super) fn push_position(&self) {
        if let Some(room) = &self.room {
            room.push(&self.position());
        }
    }

    /// The teacher's follow key: everyone (or the selected student) follows from this
    /// position, or is released if they follow already.
    pub(super) fn lead(&mut self, everyone: bool) {
        let Some(room) = self.room.clone() else {
            return;
        };
        let seats = room.seats();
        let (whom, follows, who) = if everyone {
            let any = seats.iter().any(|s| s.at.following);
            let away = seats.iter().filter(|s| s.away).count();
            let students = match seats.len() {
                1 => "1 student".to_string(),
                n => format!("{n} students"),
            };
            let who = match away {
                0 => students,
                _ => format!("{students} ({away} away, when they are back)"),
            };
            (Whom::Everyone, any, who)
        } else {
            let Some(seat) = self.selected_seat(&seats) else {
                self.say(Message::error("No student selected: ↑↓ chooses one"));
                return;
            };
            (Whom::Seat(seat.id), seat.at.following, seat.name.clone())
        };
        if follows {
            room.order(whom, Order::Release);
            self.say(Message::info(format!("Released {who}")));
        } else {
            room.order(whom, Order::Follow(self.position()));
            self.say(Message::info(format!(
                "{who} {}: every step you take is theirs. f again releases",
                if everyone && seats.len() != 1 {
                    "follow you"
                } else {
                    "follows you"
                }
            )));
        }
    }

    /// The teacher reveals the answer to the question on the tab shown, to everyone
    /// following.
    pub(super) fn reveal(&mut self) {
        // The step's own question first: the lesson asks it of everyone.
        if let Some(said) = self.reveal_lesson() {
            self.record(Entry::LessonReveal);
            self.say(said);
            return;
        }
        let (said, graded) = self.tabs.reveal(self.tab);
        self.keep_graded(self.tab, graded);
        match said {
            Some(said) => {
                self.record(Entry::Reveal(self.tab));
                self.say(said);
            }
            None => self.say(Message::error(
                "No question waits on your screen: step to one in predict mode first",
            )),
        }
    }

    /// The teacher puts the selected student back at the lesson's checkpoint.
    pub(super) fn reset_student(&mut self) {
        let Some(room) = self.room.clone() else {
            return;
        };
        match self.selected_seat(&room.seats()) {
            Some(seat) => {
                room.order(Whom::Seat(seat.id), Order::Reset);
                self.say(Message::info(format!(
                    "{} is back at the lesson's checkpoint",
                    seat.name
                )));
            }
            None => self.say(Message::error("No student selected: ↑↓ chooses one")),
        }
    }

    /// The teacher reloads the lesson and config: sessions that start from now on run
    /// them, and everyone in the room, the teacher included, starts them now.
    pub(super) fn reload_files(&mut self) {
        let Some(room) = self.room.clone() else {
            return;
        };
        match room.reload() {
            Ok(words) => {
                if let Some(setup) = room.setup() {
                    self.take_setup(&setup);
                }
                self.say(Message::info(format!(
                    "Reloaded: {words}; everyone in the room starts it now, you too"
                )));
            }
            Err(why) => self.say(Message::error(format!(
                "Reload refused, nothing changed: {why}"
            ))),
        }
    }

    /// Where `by` lessons along the course is: its place (0-based) and title, or why the
    /// class cannot move there.
    fn class_move(&self, by: i8) -> Result<(usize, String), &'static str> {
        let course = self
            .room
            .as_ref()
            .map(|room| room.course())
            .unwrap_or_default();
        let to = course.at.checked_add_signed(isize::from(by));
        match (course.titles.len(), to) {
            (0, _) => Err("This server runs no lesson: serve --lesson FILE or FOLDER"),
            (1, _) => Err("This server runs one lesson: give --lesson again, or a folder"),
            (_, Some(to)) if to < course.titles.len() => Ok((to, course.titles[to].clone())),
            _ if by > 0 => Err("The class is on the course's last lesson"),
            _ => Err("The class is on the course's first lesson"),
        }
    }

    /// The question before the class moves (30 screens start again): `None` when it
    /// cannot move, which [`Self::move_class`] then says.
    pub(super) fn class_move_question(&self, by: i8) -> Option<(String, String)> {
        let (to, title) = self.class_move(by).ok()?;
        let here = self
            .room
            .as_ref()?
            .seats()
            .iter()
            .filter(|s| !s.away)
            .count();
        let key = if by > 0 { 'n' } else { 'p' };
        Some((
            format!(
                "{key} again: you and {here} student{} start lesson {}, \"{title}\", afresh",
                if here == 1 { "" } else { "s" },
                to + 1
            ),
            "The class stays on its lesson".to_string(),
        ))
    }

    /// The teacher moves the class `by` lessons along the course: sessions that start
    /// from now on run it, and everyone in the room, the teacher included, starts it now.
    pub(super) fn move_class(&mut self, by: i8) {
        let Some(room) = self.room.clone() else {
            return;
        };
        let (to, title) = match self.class_move(by) {
            Ok(to) => to,
            Err(why) => return self.say(Message::error(why)),
        };
        match room.go_to(to) {
            Ok(_) => {
                if let Some(setup) = room.setup() {
                    self.take_setup(&setup);
                }
                self.say(Message::info(format!(
                    "Lesson {}, \"{title}\": everyone starts it now, you too",
                    to + 1
                )));
            }
            Err(why) => self.say(Message::error(format!("The class stays: {why}"))),
        }
    }

    /// Opens the summary of the class over time over the room, as the room gives it now.
    pub(super) fn open_class_summary(&mut self) {
        let Some(room) = &self.room else {
            return;
        };
        match room.progress() {
            Some(progress) => {
                self.overlays.open(Overlay::ClassSummary(progress));
                self.overlay_scroll.set(0);
            }
            None => self.say(Message::error("This room keeps no record of the class")),
        }
    }

    /// Moves the room's cursor `by` rows (the view scrolls to keep it shown).
    pub(super) fn room_move(&mut self, by: i16) {
        let Some(room) = &self.room else {
            return;
        };
        let seats = room.seats();
        let at = self.room_row(&seats).saturating_add_signed(isize::from(by));
        let at = at.min(seats.len().saturating_sub(1));
        self.room_cursor.set(seats.get(at).map(|seat| seat.id));
    }

    /// The row of `seats` under the room's cursor (the first when its student left).
    pub fn room_row(&self, seats: &[Seat]) -> usize {
        self.room_cursor
            .get()
            .and_then(|id| seats.iter().position(|seat| seat.id == id))
            .unwrap_or(0)
    }

    /// The seat under the room's cursor.
    pub fn selected_seat(&self, seats: &[Seat]) -> Option<Seat> {
        seats.get(self.room_row(seats)).cloned()
    }
}

/// How often at most a student's session is written to their seat's file while they work.
pub const SEAT_KEPT_EVERY: Duration = Duration::from_secs(5);

/// A student's session: the seat reported, the teacher's orders taken, the collect folder.
impl App {
    /// Tells the room where this student is now (on a served student's session).
    pub(crate) fn report_seat(&self) {
        if let Some(seat) = &self.seat {
            seat.report(Whereabouts {
                tab: self.tab,
                lesson: (self.lesson.as_ref()).map(|progress| progress.lesson.title.clone()),
                step: self.lesson.as_ref().and_then(|progress| {
                    progress
                        .counter(true)
                        .map(|_| (progress.step + 1, progress.lesson.steps.len()))
                }),
                following: self.following.is_some(),
                stepper: self.tabs.stepper_at(self.tab),
                score: self.predictions(),
                question: self.open_question(),
            });
        }
    }

    /// Keeps the student's session in their seat's file while they work, at most every
    /// [`SEAT_KEPT_EVERY`] and only when it changed: a server that crashes (never drained)
    /// gives back all but the last seconds. A write that fails is said once.
    pub(super) fn keep_seat(&mut self) {
        let Some(seat) = self.seat.as_ref().filter(|seat| seat.keeps_on_disk()) else {
            return;
        };
        let mark = (self.journal.entries().len(), self.journal.cut());
        let now = Instant::now();
        if let Some((kept, at)) = self.seat_kept
            && (kept == mark || now.duration_since(at) < SEAT_KEPT_EVERY)
        {
            return;
        }
        let result = seat.keep(self.saved());
        self.seat_kept = Some((mark, now));
        match result {
            Ok(()) => self.seat_keep_failing = false,
            Err(why) if !self.seat_keep_failing => {
                self.seat_keep_failing = true;
                self.say(Message::error(format!(
                    "Your place could not be kept on the server's disk ({why}): it is kept \
                     while the server runs"
                )));
            }
            Err(_) => {}
        }
    }

    /// Opens the student's own progress in the class, as their seat gives it now.
    pub(super) fn open_progress(&mut self) {
        match self.seat.as_ref().and_then(|seat| seat.progress()) {
            Some(progress) => {
                self.overlays.open(Overlay::Progress(progress));
                self.overlay_scroll.set(0);
            }
            None => self.say(Message::error(
                "This server keeps no record of your progress",
            )),
        }
    }

    /// Something outside the app changed (the room, or the teacher's orders for this
    /// student): takes the orders; whether to redraw.
    pub fn outside_changed(&mut self) -> bool {
        let ordered = self.take_orders();
        ordered || self.shows_outside()
    }

    /// Takes the teacher's orders waiting for this student's seat; whether any came.
    pub fn take_orders(&mut self) -> bool {
        let Some(seat) = self.seat.clone() else {
            return false;
        };
        let orders = seat.orders();
        for order in &orders {
            match order {
                Order::Follow(position) => {
                    // Said first: what the replay says comes after, as on the teacher's
                    // screen, so every follower's status line is the same.
                    if self.following.is_none() {
                        self.say(Message::info(
                            "Following the teacher: your keys come back when you are released",
                        ));
                    }
                    self.take_position(position.clone());
                }
                Order::Release => {
                    self.release("The teacher released you: the keys are yours again");
                }
                Order::LeaderLeft => self.release(
                    "The teacher left: the keys are yours until they come back and lead \
                     again",
                ),
                Order::Reset => self.reset_to_checkpoint(),
                // A student following takes the new lesson with the teacher's next
                // position; the others start it now.
                Order::Setup(setup) if self.following.is_none() => self.take_setup(setup),
                Order::Setup(_) => {}
            }
        }
        if !orders.is_empty() {
            self.report_seat();
        }
        !orders.is_empty()
    }

    fn release(&mut self, words: &'static str) {
        if self.following.take().is_some() {
            self.tabs.hold_answers(false);
            self.tabs.moves_from_journal(false);
            self.say(Message::info(words));
        }
    }

    /// Hands an answer `tab` graded to the teacher's collect folder, and to the seat,
    /// which counts it in the student's record of the class.
    pub(crate) fn keep_graded(&self, tab: TabId, verdict: Option<Verdict>) {
        let Some(verdict) = verdict else {
            return;
        };
        let graded = Graded {
            tab,
            question: verdict.asked.question.clone(),
            answer: verdict.answer().to_string(),
            right: verdict.right,
        };
        if let Some(seat) = &self.seat {
            seat.graded(&graded);
        }
        if let Some(collect) = &self.collect {
            collect.graded(&graded);
        }
    }

    /// Sends an export to the student's browser and keeps it in the teacher's collect
    /// folder, where there are those; what to say.
    pub(super) fn exported(&self, copy: &CopyText) -> Message {
        let file = copy.file;
        let mut said = Vec::new();
        let mut failed = false;
        if let Some(page) = &self.download {
            said.push(match page.download(file, &copy.text) {
                // Said whole only where the status line has the room.
                Ok(()) if self.collect.is_some() => format!("downloaded as {file}"),
                Ok(()) => format!("downloaded as {file} (listed under the terminal)"),
                Err(why) => {
                    failed = true;
                    format!("not downloaded: {why}")
                }
            });
        }
        if let Some(collect) = &self.collect {
            said.push(match collect.export(file, &copy.text) {
                Ok(place) => format!("kept for the teacher as {place}"),
                Err(why) => {
                    failed = true;
                    format!("not kept for the teacher: {why}")
                }
            });
        }
        if said.is_empty() {
            return Message::error("No collect folder on this server");
        }
        let text = crate::tabkit::message::capitalized(&said.join("; "));
        if failed {
            Message::error(text)
        } else {
            Message::info(text)
        }
    }
}

/// A session that ends and a student who comes back to it (issue 30 §1): the server keeps
/// the app while they are away and hands it back whole.
impl App {
    /// This app's number: the room knows a teacher's followers by it.
    #[must_use]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The session ended: lets go of the room, the seat and the collect folder (the
    /// server holds them; an app parked in its seat must not hold the seat), and of a
    /// question left waiting.
    pub fn leave_class(&mut self) {
        self.seat = None;
        self.room = None;
        self.collect = None;
        self.download = None;
        self.pending = None;
    }

    /// The student (or teacher) logged in again and takes this app back: it runs again,
    /// exactly as they left it, and says so.
    pub fn welcome_back(&mut self, name: &str) {
        self.running = true;
        self.pending = None;
        self.say(Message::info(format!(
            "Welcome back, {name}: everything is as you left it"
        )));
    }

    /// A student whose app was not kept comes back to the lesson step their seat last
    /// reported (1-based): the position of that step's checkpoint, as the teacher's reset
    /// makes it, showing their step.
    pub fn resume_at_step(&mut self, step: usize) {
        if self.lesson.is_none() || step <= 1 {
            return;
        }
        self.lesson_at(step - 1);
        self.reset_to_checkpoint();
        // The checkpoint may be a step before theirs: the lesson goes on to their step.
        self.lesson_at(step - 1);
        self.record(Entry::LessonAt(step - 1));
    }
}

/// The teacher moves the class on (issue 30 §2).
impl App {
    /// Starts again on `setup`'s config and lesson, from this session's seed: the tabs
    /// open afresh and the lesson is at its first step.
    pub fn take_setup(&mut self, setup: &Setup) {
        self.origin.config = Arc::clone(&setup.config);
        self.lesson = setup.lesson.clone().map(super::LessonProgress::start);
        self.reopen(self.seed);
        if let Some(progress) = &self.lesson {
            let (first, title) = (progress.first_tab(), progress.lesson.title.clone());
            self.show_tab(first);
            self.say(Message::info(format!(
                "The class moved on to the lesson \"{title}\": step 1 is under the tab"
            )));
        } else {
            self.say(Message::info("The class moved on: every tab starts afresh"));
        }
    }
}
