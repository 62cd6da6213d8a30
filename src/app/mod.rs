//! The application state and the only place it changes: keys become [`Action`]s and
//! [`App::update`] applies them. The app holds the tabs through the registry
//! ([`crate::tabs::Tabs`]) and reaches them only through the `Tab` contract. No terminal
//! types live here, so tests drive the whole app headless.
//!
//! This file is the router: the tabs, the overlays and the keys. What the app does for a
//! served class (the teacher's room and orders, a student's seat and the collect folder)
//! is in `class.rs`, taking a position (following, the checkpoint) in `follow.rs`, and
//! running the lesson in force in `lesson_steps.rs`.

mod about;
pub mod action;
mod class;
pub mod course;
pub mod course_progress;
mod follow;
pub mod journal;
pub mod keys;
pub mod lesson;
mod lesson_question;
mod lesson_steps;
pub mod log;
mod mirror;
mod overlays;
pub mod progress;
mod quit;
mod refusal;
mod resume;
pub mod room;
pub mod saved;
mod shown;

pub use crate::tabkit::message::{Message, MessageKind};
pub use crate::tabkit::tab::Storage;
pub use crate::tabs::{Models, TabAction, TabId};
pub use action::{Action, AnswerKey, Overlay};
pub use journal::{Entry, Following, Journal, Origin, Position};
pub use lesson::{LessonProgress, Moved};
pub use overlays::Overlays;
pub use shown::Shown;

use crate::app::room::{Collect, Room, SeatReport};
use crate::config::Config;
use crate::persist::Store;
use crate::tabkit::background;
use crate::tabkit::keymap::{Command, Key};
use crate::tabkit::tab::Effects;
use crate::tabs::Tabs;
use keys::Keys;
use log::MessageLog;
pub use shown::ShownText;
use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

/// How often the teacher's open view of the room is read again.
pub const ROOM_REFRESH: Duration = Duration::from_secs(1);

/// Enough to scroll the longest help to its end on the smallest screen; the overlay
/// clamps what it shows.
const HELP_SCROLL_MAX: u16 = 500;

/// What the app says when the shown tab's training job, which waited for a free trainer,
/// got one.
pub const TRAINING_STARTED: &str = "A trainer is free: training started";

/// A tab's message, with the reason nothing trains yet when its job waits in the pool.
fn say_if_waiting(message: Message, waits: bool) -> Message {
    if waits && message.kind == MessageKind::Info {
        Message::info(format!(
            "{}: {}",
            message.text,
            background::WAITING_FOR_TRAINER
        ))
    } else {
        message
    }
}

/// Who acts on the app now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Acting {
    /// The user, at the keys: every change is recorded.
    User,
    /// A journal being replayed: nothing is recorded again.
    Replay,
    /// A lesson checkpoint's keys being pressed: recorded, and the lesson's locks do not
    /// hold.
    Checkpoint,
}

/// An action that waits for its key to be pressed a second time.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pending {
    /// The action the second press performs.
    action: Action,
    /// What the status line says when another key cancels it.
    cancelled: String,
}

/// What stands in front of a tab's keys: overlays, the step's question, the tab's own
/// question or menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct InFront {
    overlays: usize,
    answering: bool,
    modal: Option<&'static str>,
}

/// The whole application state.
pub struct App {
    /// False once the user quit.
    pub running: bool,
    /// The tab shown.
    pub tab: TabId,
    /// First line of the help overlay shown; clamped to the content while drawing (the
    /// height is only known there), as ratatui's list state is.
    pub help_scroll: Cell<u16>,
    /// The last message.
    pub message: Option<Message>,
    /// The last messages, for the log overlay.
    pub log: MessageLog,
    /// The overlays open over the tab, the one in front last.
    pub overlays: Overlays,
    /// First line of the overlay shown; clamped while drawing, as `help_scroll` is.
    pub overlay_scroll: Cell<u16>,
    /// Where trained models go.
    pub storage: Storage,
    /// Every tab.
    pub tabs: Tabs,
    /// The seed every random choice flows from, shown in the help so a run can be repeated.
    pub seed: u64,
    /// Draw with colours (false under `NO_COLOR`).
    pub color: bool,
    /// How a served session's student came in: in a browser's page (`serve --web`) the
    /// help says which keys the browser may keep, and what the page offers instead.
    pub door: room::Door,
    /// The action waiting for its key a second time.
    pending: Option<Pending>,
    /// The last refusal and what was open in front when it was given. Once that changes
    /// (the overlay or question it named is closed), the refusal is stale and goes, if the
    /// status line still shows it.
    refused_in_front: Option<(InFront, Message)>,
    /// The lesson the arcade runs, if any, and the student's step in it.
    pub lesson: Option<LessonProgress>,
    /// On a teacher's session, the room of the class.
    pub room: Option<Arc<dyn Room>>,
    /// On a student's session, the seat in the room that hears where the student is.
    pub seat: Option<Arc<dyn SeatReport>>,
    /// Every change of position since the tabs opened: with the seed, the position.
    pub journal: Journal,
    /// What the tabs were opened from, to open them again.
    origin: Origin,
    /// While the student follows the teacher: the teacher's position last taken.
    pub following: Option<Following>,
    /// On a teacher's session, what its followers see open over their tabs.
    showing: shown::Showing,
    /// On a student's session, when their session was last kept on disk (the journal's
    /// length and cut then).
    seat_kept: Option<((usize, u64), std::time::Instant)>,
    /// Whether keeping it on disk fails (said once).
    seat_keep_failing: bool,
    /// Who is acting now: the user, a replay or a checkpoint's keys.
    acting: Acting,
    /// This app's number, naming its journal to those who follow it.
    id: u64,
    /// The student under the room's cursor, by seat: a student joining above keeps the
    /// cursor on the same student.
    pub room_cursor: Cell<Option<u64>>,
    /// On a served class with a collect folder: where the student's exports and graded
    /// predictions go.
    pub collect: Option<Arc<dyn Collect>>,
    /// In a browser's page: the student's exports are downloaded by their browser.
    pub download: Option<Arc<dyn room::Download>>,
    /// The course: the student's progress, and the arcade parked while one of its
    /// lessons runs.
    pub course: course_progress::Course,
}

impl App {
    /// The app as `config` sets it up, with every random choice drawn from `seed`.
    pub fn new(config: &Config, seed: u64) -> Self {
        Self::with_store(config, seed, None)
    }

    /// The app with a data dir to load and save trained models in (`None`: nothing is read
    /// or written, as in tests).
    #[allow(clippy::needless_pass_by_value)] // the caller hands its store over; each tab keeps a copy
    pub fn with_store(config: &Config, seed: u64, store: Option<Store>) -> Self {
        let models = store
            .as_ref()
            .map_or_else(Models::default, |store| Models::load(config, store));
        let storage = if store.is_some() {
            Storage::DataDir
        } else {
            Storage::Nowhere
        };
        Self::from_models(config, seed, models, store.as_ref(), storage)
    }

    /// The app starting from models read earlier (a server reads them once and gives each
    /// session a copy): training changes only this app's copy, and nothing is written.
    pub fn with_models(config: &Config, seed: u64, models: &Models) -> Self {
        Self::from_models(config, seed, models.clone(), None, Storage::SharedServer)
    }

    /// A lesson run alone (`ai-arcade --lesson FILE`): its learners start fresh, as a
    /// served class's do ([`App::in_class`]), so a teacher's rehearsal shows the numbers
    /// the class will see, whatever the data dir holds; nothing it trains is written.
    pub fn rehearsing(config: &Config, seed: u64, lesson: Arc<crate::lesson::Lesson>) -> Self {
        let mut app = Self::from_models(config, seed, Models::default(), None, Storage::Lesson);
        app.start_lesson(lesson);
        app
    }

    /// A served session's app: with a lesson, its learners start fresh (as a rehearsal's
    /// do, and as the lesson's words assume: "the table's values are all 0"); without,
    /// from the models the server read.
    pub fn in_class(
        config: &Config,
        seed: u64,
        lesson: Option<Arc<crate::lesson::Lesson>>,
        models: &Models,
    ) -> Self {
        let Some(lesson) = lesson else {
            return Self::with_models(config, seed, models);
        };
        let mut app = Self::with_models(config, seed, &Models::default());
        app.start_lesson(lesson);
        app
    }

    fn from_models(
        config: &Config,
        seed: u64,
        models: Models,
        store: Option<&Store>,
        storage: Storage,
    ) -> Self {
        let origin = Origin {
            config: Arc::new(config.clone()),
            models: models.clone(),
            store: store.cloned(),
            storage,
        };
        let (tabs, said) = Tabs::open(config, seed, models, store, storage);
        let mut app = Self {
            running: true,
            tab: config.ui.start_tab,
            help_scroll: Cell::new(0),
            message: None,
            refused_in_front: None,
            log: MessageLog::default(),
            overlays: Overlays::default(),
            overlay_scroll: Cell::new(0),
            storage,
            tabs,
            seed,
            color: true,
            door: room::Door::Ssh,
            pending: None,
            lesson: None,
            room: None,
            seat: None,
            journal: Journal::default(),
            origin,
            following: None,
            showing: shown::Showing::default(),
            seat_kept: None,
            seat_keep_failing: false,
            acting: Acting::User,
            id: journal::next_app_id(),
            room_cursor: Cell::new(None),
            collect: None,
            download: None,
            course: course_progress::Course::default(),
        };
        // The start tab's first words: what showing it says, else what it said on opening
        // (another tab's opening words would be about a game not on screen).
        let opened = said
            .into_iter()
            .find_map(|(tab, message)| (tab == app.tab).then_some(message));
        if let Some(message) = app.tabs.on_show(app.tab).or(opened) {
            app.say(message);
        }
        app
    }

    /// True while a question waits for its key a second time (`q again to quit: …`).
    pub fn is_asking(&self) -> bool {
        self.pending.is_some()
    }

    /// Shows `message` in the status line and keeps it in the log.
    pub fn say(&mut self, message: Message) {
        self.log.push(message.clone());
        self.message = Some(message);
        self.refused_in_front = None;
    }

    /// The program is ending (quit, signal or lost terminal): lets the tabs keep what
    /// their learners have learned so far, the arcade parked under a course's lesson too
    /// (a learner left training there would be lost with it).
    pub fn on_exit(&mut self) {
        self.tabs.on_exit();
        if let Some(parked) = self.course.parked.as_mut() {
            parked.tabs.on_exit();
        }
    }

    /// The key groups in force now, most specific first: the first that matches a key wins.
    pub fn active_keys(&self) -> Vec<Keys> {
        #[cfg(test)]
        tests::KEY_TABLES_BUILT.with(|built| built.set(built.get() + 1));
        match self.overlays.top() {
            Some(Overlay::Help) => return vec![keys::HELP_OVERLAY.into()],
            Some(Overlay::Log) => return vec![keys::LOG_OVERLAY.into()],
            Some(Overlay::Text(_)) => return vec![keys::TEXT_OVERLAY.into()],
            Some(Overlay::Why(_)) => return vec![keys::WHY_OVERLAY.into()],
            Some(Overlay::Settings(_)) => return vec![keys::SETTINGS_OVERLAY.into()],
            Some(Overlay::Room) => return vec![keys::ROOM_OVERLAY.into()],
            Some(Overlay::ClassSummary(_)) => return vec![keys::CLASS_SUMMARY_OVERLAY.into()],
            Some(Overlay::Progress(_)) => return vec![keys::PROGRESS_OVERLAY.into()],
            Some(Overlay::Course(_)) => return vec![keys::COURSE_OVERLAY.into()],
            Some(Overlay::Explain) => return vec![keys::EXPLAIN_OVERLAY.into()],
            Some(Overlay::About { .. }) => return vec![keys::ABOUT_OVERLAY.into()],
            None => {}
        }
        if let Some(entry) = self.answer_keys() {
            return vec![entry];
        }
        let mut groups = self.tabs.keys(self.tab);
        if self.lesson.is_some() {
            groups.push(keys::LESSON.into());
        }
        if self.room.is_some() {
            groups.push(keys::TEACHER.into());
        }
        if self.seat.is_some() {
            groups.push(keys::STUDENT.into());
        }
        groups.push(keys::GLOBAL.into());
        groups
    }

    /// Every key group of the current tab, for the help overlay.
    pub fn help_keys(&self) -> Vec<Keys> {
        let mut groups = vec![keys::GLOBAL.into()];
        if self.lesson.is_some() {
            groups.push(keys::LESSON.into());
            groups.extend(self.question_keys());
        }
        if self.room.is_some() {
            groups.push(keys::TEACHER.into());
            groups.push(keys::ROOM_OVERLAY.into());
        }
        if self.seat.is_some() {
            groups.push(keys::STUDENT.into());
        }
        groups.extend(self.tabs.help_keys(self.tab));
        groups
    }

    /// The main keys now, for the status line: the same table that drives the keys, less
    /// the keys that would only be refused right now, global keys first.
    pub fn hints(&self) -> Vec<&'static dyn Command<Action>> {
        let mut groups = self.active_keys();
        groups.rotate_right(1);
        let hints: Vec<&'static dyn Command<Action>> = groups
            .iter()
            .flat_map(|group| group.bindings.iter().copied())
            .filter(|binding| !binding.hint().is_empty())
            .filter(|&binding| self.binding_applies(binding) && self.worth_hinting(binding))
            .filter(|binding| !self.all_locked(binding.keys()))
            .filter(|binding| {
                // A student following sees only the keys still theirs.
                let action = binding.action(binding.keys()[0]);
                self.following.is_none() || self.while_following(action) == action
            })
            .collect();
        // The card that explains the tab comes after the keys that act on it: at 80
        // columns a full row drops the card's hint (`?` help still lists `I`), not a
        // tab's own key such as `f focus`.
        let (explains, mut acts): (Vec<_>, Vec<_>) = hints
            .into_iter()
            .partition(|binding| binding.action(binding.keys()[0]) == Action::ToggleAbout);
        acts.extend(explains);
        acts
    }

    /// Whether a key would do something now (the rest stay bound, and explain themselves
    /// with a message, but are left out of the status line).
    fn worth_hinting(&self, binding: &dyn Command<Action>) -> bool {
        match binding.action(binding.keys()[0]) {
            Action::Tab(action) => self.tabs.enabled(action),
            // A tab's menu or prompt refuses the app's keys: `S` would only be refused.
            Action::OpenSettings => {
                self.tabs.modal(self.tab).is_none() && self.tabs.settings(self.tab).is_some()
            }
            Action::LessonAnswer(AnswerKey::Open) => (self.lesson.as_ref())
                .and_then(LessonProgress::question)
                .is_some_and(|(_, answer)| answer.open()),
            _ => true,
        }
    }

    fn binding_applies(&self, binding: &dyn Command<Action>) -> bool {
        match binding.action(binding.keys()[0]) {
            Action::Tab(action) => self.tabs.in_force(action),
            _ => true,
        }
    }

    /// The action a key stands for now, from the active key tables. While a confirmation
    /// waits, every key but the confirming one (and Ctrl-C) cancels it; a key that does
    /// nothing here but belongs to a pane or overlay not in front says so.
    pub fn action_for_key(&self, key: Key) -> Action {
        // Built once a press: the lookup and, for a key bound to nothing, why_nothing.
        let active = self.active_keys();
        let action = active
            .iter()
            .flat_map(|group| group.bindings.iter().copied())
            .filter(|&binding| self.binding_applies(binding))
            .find(|binding| binding.matches(key))
            .map_or(Action::Noop, |binding| binding.action(key));
        // A lesson's lock is on the key's use in the tab, never on an answer typed with it
        // (the choice `a` while `a` is locked).
        let answers = matches!(action, Action::LessonAnswer(_))
            || matches!(action, Action::Tab(a) if self.tabs.answers(a));
        if !answers && let Some(locked) = self.locked(key).filter(|_| self.pending.is_none()) {
            return locked;
        }
        // On a server Ctrl-C asks as `q` does: a student's stray Ctrl-C must not end the
        // class for them (locally it stays the emergency exit).
        let action = if action == Action::QuitNow && self.served() {
            Action::Quit
        } else {
            action
        };
        if let Some(pending) = &self.pending {
            // Another key cancels the question and then does what it always does: an
            // answer typed after a stray `q` is still the answer. Esc only cancels.
            return match action {
                _ if action == pending.action || action == Action::QuitNow => action,
                Action::Noop | Action::CloseOverlay | Action::Cancel => Action::Cancel,
                _ if key == Key::Esc => Action::Cancel,
                _ => self.filtered(action),
            };
        }
        let action = if action == Action::Noop {
            self.why_nothing(key, &active)
        } else {
            action
        };
        self.filtered(action)
    }

    /// `action` as a student following the teacher may take it.
    fn filtered(&self, action: Action) -> Action {
        if self.following.is_some() {
            return self.while_following(action);
        }
        action
    }

    /// Whether this app runs a session of a server (where nothing is saved, and quitting
    /// always asks).
    #[must_use]
    pub fn served(&self) -> bool {
        self.storage == Storage::SharedServer
    }

    /// The label of the key that stands for `action` now, for "press it again" questions.
    fn key_label(&self, action: Action) -> &'static str {
        self.active_keys()
            .iter()
            .flat_map(|group| group.bindings.iter().copied())
            .find(|binding| binding.keys().iter().any(|&k| binding.action(k) == action))
            .map_or("the same key", |binding| binding.label())
    }

    /// The question to ask before `action`, when it would throw away training or work; the
    /// same key pressed again performs it.
    fn confirmation(&self, action: Action) -> Option<(String, Pending)> {
        // The key tables are read for the label only when there is a question to ask.
        let key = || self.key_label(action);
        let (question, cancelled) = match action {
            Action::Quit if self.served() => (
                format!("{} again to leave: {}", key(), self.leaving_words()),
                "Not leaving".to_string(),
            ),
            Action::Quit => {
                let lost = self.quit_loses()?;
                (
                    format!("{} again to quit: {lost}", key()),
                    "Not quitting".to_string(),
                )
            }
            Action::ResetToCheckpoint if self.following.is_none() => {
                let lost = self.quit_loses()?;
                (
                    format!("{} again to go back to the checkpoint: {lost}", key()),
                    "Not going back: everything stays as it is".to_string(),
                )
            }
            Action::MoveClass(by) => self.class_move_question(by)?,
            Action::Tab(tab_action) => {
                let confirm = self.tabs.confirmation(tab_action)?;
                (
                    format!("{} again to {}", key(), confirm.then),
                    confirm.cancelled,
                )
            }
            _ => return None,
        };
        Some((question, Pending { action, cancelled }))
    }

    /// Applies a key press: looks it up and updates. Returns whether anything changed.
    pub fn handle_key(&mut self, key: Key) -> bool {
        let action = self.action_for_key(key);
        self.update(action)
    }

    /// How long the event loop may sleep before it must tick; `None` means it may block
    /// until input arrives (nothing runs by itself).
    pub fn tick_interval(&self) -> Option<Duration> {
        let tabs = self.tabs.tick_interval(self.tab);
        if self.overlays.top() == Some(&Overlay::Room) {
            // The room changes without this app's input: read it again every second.
            return Some(tabs.map_or(ROOM_REFRESH, |every| every.min(ROOM_REFRESH)));
        }
        tabs
    }

    /// The one place state changes. Returns whether a redraw is needed.
    ///
    /// An action that would throw away training or work (`q` with unsaved work, zeroing or
    /// retraining a trained learner) asks first; the same action again performs it, and any
    /// other (a key, a click) only cancels: it is not acted on, so a key meant for the game
    /// does not fire while the user reads the question.
    pub fn update(&mut self, action: Action) -> bool {
        match action {
            Action::Noop => return false,
            Action::Cancel if self.pending.is_none() => return false,
            Action::Tick => {
                // The tabs tick whatever is open; an open room is read again each tick.
                let ticked = self.tick() | self.watch_lesson();
                self.keep_seat();
                self.after_change();
                return ticked || self.overlays.top() == Some(&Overlay::Room);
            }
            Action::Resize { notice_stale } => {
                if notice_stale {
                    self.say(Message::info("The window is large enough again: keys work"));
                }
                return true;
            }
            Action::QuitNow => {
                self.running = false;
                return true;
            }
            _ => {}
        }
        if let Some(pending) = self.pending.take() {
            if action == pending.action {
                return self.apply_and_share(action);
            }
            self.say(Message::info(pending.cancelled));
            if action == Action::Cancel {
                return true;
            }
        }
        if let Some((question, pending)) = self.confirmation(action) {
            self.say(Message::info(question));
            self.pending = Some(pending);
            return true;
        }
        self.apply_and_share(action)
    }

    /// Applies `action`, then tells whoever watches: a graded answer to the collect
    /// folder, the student's seat to the room, a teacher's new position to the class.
    fn apply_and_share(&mut self, action: Action) -> bool {
        // "] again skips" means the very next key: anything else between asks again.
        if let Some(progress) = self
            .lesson
            .as_mut()
            .filter(|_| action != Action::LessonStep(1))
        {
            progress.skip_offered = false;
        }
        let changed = self.apply(action) | self.watch_lesson();
        self.drop_stale_refusal();
        self.report_seat();
        self.keep_seat();
        self.after_change();
        changed
    }

    /// Performs `action` (confirmed, or not needing confirmation).
    fn apply(&mut self, action: Action) -> bool {
        match action {
            Action::Noop | Action::Cancel | Action::Tick | Action::Resize { .. } => return false,
            Action::Quit | Action::QuitNow => self.running = false,
            Action::Refused(why) => self.refused(why),
            Action::Elsewhere { label, what, group } => {
                self.say(Message::error(format!(
                    "{label} ({what}) is a key of: {group}"
                )));
            }
            Action::ToggleRoom => {
                if self.room.is_some() {
                    self.overlays.toggle(Overlay::Room);
                }
                self.overlay_scroll.set(0);
            }
            Action::ToggleLog => {
                self.overlays.toggle(Overlay::Log);
                // Newest last: open at the end (clamped while drawing).
                self.overlay_scroll.set(u16::MAX);
            }
            Action::ScrollOverlay(by) => {
                let scroll = self.overlay_scroll.get().saturating_add_signed(by);
                self.overlay_scroll.set(scroll);
            }
            Action::NextTab => self.show_tab(self.tab_offset(1)),
            Action::PrevTab => self.show_tab(self.tab_offset(-1)),
            Action::SelectTab(tab) => self.select_tab(tab),
            Action::Locked(key) => {
                if let Some(words) = self.lesson.as_ref().and_then(|l| l.locked_words(key)) {
                    self.say(Message::error(words));
                }
            }
            Action::LessonStep(by) => self.lesson_step(by),
            Action::ResetToCheckpoint => self.reset_to_checkpoint(),
            Action::LessonAnswer(key) => self.lesson_answer(key),
            Action::Reveal => self.reveal(),
            Action::Lead { everyone } => self.lead(everyone),
            Action::ResetStudent => self.reset_student(),
            Action::RoomMove(by) => self.room_move(by),
            Action::Reload => self.reload_files(),
            Action::MoveClass(by) => self.move_class(by),
            Action::ToggleClassSummary => self.open_class_summary(),
            Action::ToggleProgress => self.open_progress(),
            Action::ToggleCourse => self.toggle_course(),
            Action::ToggleExplain => self.toggle_explain(),
            Action::CourseMove(by) => self.course_move(by),
            Action::CourseStart => self.course_start(),
            Action::ToggleAbout => self.toggle_about(),
            Action::ToggleHelp => {
                self.overlays.toggle(Overlay::Help);
                self.help_scroll.set(0);
            }
            Action::CloseOverlay => {
                if let Some(Overlay::Settings(panel)) = self.overlays.close()
                    && panel.has_drafts()
                {
                    self.say(Message::info("Settings closed: nothing changed"));
                }
            }
            Action::ScrollHelp(by) => {
                let scroll = self.help_scroll.get().saturating_add_signed(by);
                self.help_scroll.set(scroll.min(HELP_SCROLL_MAX));
            }
            Action::StepWhy(by) => self.step_why(by),
            Action::OpenSettings => self.open_settings(),
            Action::SettingsMove(_)
            | Action::SettingsStep(_)
            | Action::SettingsType(_)
            | Action::SettingsBackspace
            | Action::SettingsApply => self.edit_settings(action),
            Action::Tab(action) => self.update_tab(action),
        }
        true
    }

    fn update_tab(&mut self, action: TabAction) {
        let mut effects = Effects::default();
        // A teacher's answers are held for the reveal: they change nobody's position.
        if !(self.room.is_some() && self.tabs.answers(action)) {
            self.record(Entry::Tab(action));
        }
        let message = self.tabs.update(action, &mut effects);
        self.keep_graded(action.tab(), effects.graded.take());
        for played in effects.played.drain(..) {
            self.record(Entry::AiPlayed(Arc::new(played)));
        }
        let delivered = self.collect.is_some() || self.download.is_some();
        if let Some(copy) = effects.show_text.take_if(|_| delivered) {
            self.say(self.exported(&copy));
            return;
        }
        if let Some(copy) = effects.show_text {
            self.overlays
                .open(Overlay::Text(ShownText::new(copy.title, &copy.text)));
            self.overlay_scroll.set(0);
        }
        if let Some(why) = effects.show_why {
            self.overlays.open(Overlay::Why(why));
            self.overlay_scroll.set(0);
        }
        if let Some(message) = message {
            let waits = self.tabs.waits_for_trainer(action.tab());
            self.say(say_if_waiting(message, waits));
        }
    }

    /// Opens the shown tab's settings panel, or says it has none yet.
    fn open_settings(&mut self) {
        match self.tabs.settings(self.tab) {
            Some(panel) => {
                self.overlays.open(Overlay::Settings(panel));
                self.say(Message::info(
                    "Settings: ↑↓ choose, ←→ or digits change, Enter applies, Esc closes",
                ));
            }
            None => self.say(Message::error(format!(
                "{} has no settings panel yet: its settings are in the config file",
                self.tab.title()
            ))),
        }
    }

    /// A key of the open settings panel: edits its draft, or applies it to the tab.
    fn edit_settings(&mut self, action: Action) {
        let Some(Overlay::Settings(panel)) = self.overlays.top_mut() else {
            return;
        };
        let done = match action {
            Action::SettingsMove(by) => panel.move_by(by).map(|()| None),
            Action::SettingsStep(up) => panel.step(up).map(|()| None),
            Action::SettingsType(c) => panel.type_char(c).map(|()| None),
            Action::SettingsBackspace => {
                panel.backspace();
                Ok(None)
            }
            Action::SettingsApply => panel.apply().map(Some),
            _ => Ok(None),
        };
        match done {
            Err(refused) => self.say(Message::error(refused)),
            Ok(None) => {}
            Ok(Some(changes)) => {
                self.overlays.close();
                self.record(Entry::Settings(self.tab, changes.clone()));
                let mut effects = Effects::default();
                let said = self.tabs.apply_settings(self.tab, &changes, &mut effects);
                for played in effects.played {
                    self.record(Entry::AiPlayed(Arc::new(played)));
                }
                self.say(said);
            }
        }
    }

    /// Opens another AI move's record in the why overlay, or says there is none that way.
    fn step_why(&mut self, by: i8) {
        let Some(Overlay::Why(why)) = self.overlays.top_mut() else {
            return;
        };
        if why.step(by) {
            self.overlay_scroll.set(0);
        } else {
            let way = if by < 0 { "earlier" } else { "later" };
            self.say(Message::info(format!("No {way} AI move in this game")));
        }
    }

    /// Time passed: every tab takes in its training progress (and the one shown steps its
    /// autoplay when due). Returns whether to redraw.
    fn tick(&mut self) -> bool {
        let shown = self.tab;
        let mut changed = false;
        // A student following steps the teacher's autoplay only as the teacher's journal
        // says, not by its own clock.
        let autoplays = self.tabs.autoplays(shown);
        let ticking = (!(autoplays && self.following.is_some())).then_some(shown);
        for (tab, ticked) in self.tabs.tick(ticking) {
            if tab == shown && autoplays && ticked.changed && ticking.is_some() {
                self.record(Entry::Autoplay(tab));
            }
            for played in ticked.played {
                self.record(Entry::AiPlayed(Arc::new(played)));
            }
            changed |= ticked.changed;
            if tab != shown {
                // News of a tab not shown (a run done, a learner stopped and saved) would
                // say nothing of the screen in front, but is kept, named, for the log.
                if let Some(mut message) = ticked.message {
                    if !message.text.starts_with(tab.title()) {
                        message.text = format!("{}: {}", tab.title(), message.text);
                    }
                    self.log.push(message);
                }
                continue;
            }
            // Said before the tab's own message, which (a run that started and ended
            // between two ticks) is the later news.
            if ticked.started {
                self.say(Message::info(TRAINING_STARTED));
            }
            if let Some(message) = ticked.message {
                self.say(message);
            }
        }
        changed
    }

    /// The tabs on the tab bar, in order: the lesson's, or every tab.
    pub fn shown_tabs(&self) -> Vec<TabId> {
        self.lesson
            .as_ref()
            .map_or_else(|| TabId::ALL.to_vec(), LessonProgress::shown_tabs)
    }

    /// The shown tab `by` places from the current one, wrapping round.
    fn tab_offset(&self, by: isize) -> TabId {
        let shown = self.shown_tabs();
        let at = shown.iter().position(|&t| t == self.tab).unwrap_or(0) as isize;
        shown[(at + by).rem_euclid(shown.len() as isize) as usize]
    }

    /// Shows `tab`, unless the lesson leaves it out (then says so).
    fn select_tab(&mut self, tab: TabId) {
        match self.lesson.as_ref().and_then(|l| l.not_shown_words(tab)) {
            Some(words) => self.say(Message::error(words)),
            None => self.show_tab(tab),
        }
    }

    fn show_tab(&mut self, tab: TabId) {
        if tab != self.tab {
            self.record(Entry::Show(tab));
            self.tab = tab;
            self.message = None;
            let waits = self.tabs.waits_for_trainer(tab);
            if let Some(message) = self.tabs.on_show(tab) {
                self.say(say_if_waiting(message, waits));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    thread_local! {
        /// How often this thread built the key tables in force (`active_keys`).
        pub(super) static KEY_TABLES_BUILT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }

    #[test]
    fn a_key_press_builds_the_key_tables_once() {
        let mut app = App::new(&Config::default(), 5);
        // A key that acts, one bound to nothing here, and quit with nothing to lose (it
        // quits at once; a question reads the tables again for its key's label).
        for key in [Key::Tab, Key::Char('%'), Key::Char('q')] {
            KEY_TABLES_BUILT.with(|built| built.set(0));
            app.handle_key(key);
            let built = KEY_TABLES_BUILT.with(std::cell::Cell::get);
            assert_eq!(built, 1, "{key:?} built the key tables {built} times");
        }
    }
    use super::*;
    use crate::config::FirstMover;
    use crate::tabkit::keymap::Key;
    use crate::tabs::tictactoe::{self, Focus};

    fn app(first: FirstMover, step: bool) -> App {
        let mut config = Config::default();
        config.tictactoe.first = first;
        config.search.step = step;
        App::new(&config, 5)
    }

    /// Every key listed in an active group does what its line says, unless an earlier
    /// group claims it; returns the (group, label) pairs so shadowed.
    fn shadowed(app: &App) -> Vec<(&'static str, &'static str)> {
        let mut hidden = Vec::new();
        for group in app.active_keys() {
            for binding in group.bindings.iter().filter(|b| app.binding_applies(**b)) {
                for &key in binding.keys() {
                    if app.action_for_key(key) != binding.action(key) {
                        hidden.push((group.title, binding.label()));
                    }
                }
            }
        }
        hidden.dedup();
        hidden
    }

    #[test]
    fn no_listed_key_is_silently_shadowed() {
        let mut human = app(FirstMover::Human, false);
        assert_eq!(shadowed(&human), vec![]);
        human.update(Action::from(tictactoe::Action::ToggleFocus));
        assert_eq!(shadowed(&human), vec![]);
        human.update(Action::ToggleHelp);
        assert_eq!(shadowed(&human), vec![]);

        // While the AI's search waits, Enter plays its move: the board cursor's Enter is the
        // one deliberate exception (the board takes no move then).
        let mut stepping = app(FirstMover::Ai, true);
        assert!(stepping.tabs.tictactoe.current_awaits_step());
        assert_eq!(
            stepping.tabs.tictactoe.focus,
            Focus::Tree,
            "the stepper takes the focus"
        );
        assert_eq!(shadowed(&stepping), vec![]);
        stepping.update(Action::from(tictactoe::Action::ToggleFocus));
        assert_eq!(
            shadowed(&stepping),
            vec![("Board cursor (f focuses the board)", "Enter")]
        );
    }

    #[test]
    fn hints_only_list_keys_that_act_now() {
        let human = app(FirstMover::Human, false);
        let labels: Vec<_> = human.hints().iter().map(|b| b.label()).collect();
        assert_eq!(&labels[..3], ["?", "S", "q"], "global keys first");
        assert!(labels.contains(&"1-9"));
        assert!(!labels.contains(&"Space/s"), "no search to step yet");

        let stepping = app(FirstMover::Ai, true);
        let labels: Vec<_> = stepping.hints().iter().map(|b| b.label()).collect();
        assert!(labels.contains(&"Space/s") && labels.contains(&"Enter"));
        assert!(!labels.contains(&"1-9"), "not the human's turn");
        assert!(!labels.contains(&"b"), "nothing to step back yet");
    }

    #[test]
    fn tabs_cycle_and_unbound_keys_change_nothing() {
        let mut app = app(FirstMover::Human, false);
        // Read off the registry, so a new tab changes nothing here.
        let last = *TabId::ALL.last().unwrap();
        assert_eq!(app.tab, TabId::TicTacToe);
        assert!(app.handle_key(Key::Tab));
        assert_eq!(app.tab, TabId::TicTacToe.offset(1));
        app.select_tab(last);
        assert!(app.handle_key(Key::Tab));
        assert_eq!(app.tab, TabId::ALL[0], "the last tab wraps to the first");
        assert!(app.handle_key(Key::BackTab));
        assert_eq!(app.tab, last);
        assert!(app.handle_key(Key::F(2)));
        assert_eq!(app.tab, TabId::MultiPileNim);
        assert!(!app.handle_key(Key::Char('Z')), "unbound: no redraw");
        assert!(app.handle_key(Key::Char('q')));
        assert!(!app.running);
    }

    #[test]
    fn esc_closes_help_before_anything_else() {
        let mut app = app(FirstMover::Human, false);
        app.handle_key(Key::Char('?'));
        assert!(app.overlays.help_open());
        app.handle_key(Key::Char('5'));
        assert_eq!(
            app.tabs.tictactoe.tictactoe.moves.len(),
            0,
            "keys do not reach the game under help"
        );
        app.handle_key(Key::Esc);
        assert!(!app.overlays.help_open() && app.running);
    }

    #[test]
    fn an_occupied_cell_is_refused_and_nothing_changes() {
        let mut app = app(FirstMover::Human, false);
        app.handle_key(Key::Char('5'));
        let position = app.tabs.tictactoe.tictactoe.position;
        let moves = app.tabs.tictactoe.tictactoe.moves.len();
        app.handle_key(Key::Char('5'));
        assert_eq!(app.tabs.tictactoe.tictactoe.position, position);
        assert_eq!(app.tabs.tictactoe.tictactoe.moves.len(), moves);
        let message = app.message.as_ref().unwrap();
        assert_eq!(message.kind, MessageKind::Error);
        assert!(message.text.contains("taken"), "{}", message.text);
    }

    #[test]
    fn the_same_seed_gives_the_same_games() {
        let mut config = Config::default();
        config.tictactoe.first = FirstMover::Random;
        let firsts = |seed| {
            let mut app = App::new(&config, seed);
            (0..8)
                .map(|_| {
                    app.update(Action::from(tictactoe::Action::NewGame));
                    app.tabs.tictactoe.tictactoe.moves.len()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(firsts(11), firsts(11));
        assert_ne!(
            firsts(11),
            firsts(12),
            "different seeds, different coin flips"
        );
    }
}
