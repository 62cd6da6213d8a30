//! The contract every tab fulfils: its own action type, the key groups in force now, what
//! each action does, what time passing does, and what quitting would lose. The app holds the
//! tabs (through the registry in `tabs/`) and calls only this; nothing outside a tab's folder
//! names the tab's actions or fields.

use super::about::About;
use super::facts::Facts;
use super::keymap::KeyGroup;
use super::message::Message;
use super::settings::{Change, Panel};
use super::tally::Tally;
use super::why::Why;
use crate::config::Config;
pub use crate::domain::prediction::Score;
use crate::persist::{Problems, Store};
use std::convert::Infallible;
use std::fmt::Debug;
use std::path::Path;
use std::time::Duration;

/// Where trained models go, which decides what quitting loses and how it is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// A data dir: the tabs save their learners.
    DataDir,
    /// No data dir (none could be found, or tests): nothing is written.
    Nowhere,
    /// A session of a shared server (`ai-arcade serve`): nothing it does is written.
    SharedServer,
    /// A lesson run alone (`ai-arcade --lesson FILE`): its learners start fresh, as a
    /// class's do, and nothing it trains is written over the data dir's models.
    Lesson,
}

/// What quitting now would lose of one tab's session: the quit question names each part
/// that exists ("the game in progress on Tic-tac-toe, the scores (won 2 lost 1)"), so `q`
/// asks once and says exactly what goes, and asks nothing when nothing would.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unsaved {
    /// Work quitting drops, each as a noun phrase ("the Q-table you trained", "the search
    /// you stepped"): what a data dir does not keep here.
    pub work: Vec<&'static str>,
    /// A game under way: the person has moved in it and it is not over.
    pub game_in_progress: bool,
    /// The session's finished games against the person, which nothing keeps.
    pub scores: Tally,
    /// Finished training runs kept for comparing on the chart (`c`), which nothing keeps.
    pub compared_runs: usize,
}

impl Unsaved {
    /// Nothing would be lost.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A question an action asks before it throws work away: "`<key>` again to `then`".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirm {
    /// What the second press does, after "`<key>` again to ".
    pub then: String,
    /// What the status line says when another key cancels it.
    pub cancelled: String,
}

/// Text an action wants shown in an overlay to copy (an export a shared server does not
/// write to a file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyText {
    /// What the text is, for the overlay's title line.
    pub title: String,
    /// The file it is written to where exports are kept (a data dir, or the teacher's
    /// collect folder on a served class).
    pub file: &'static str,
    /// The text itself.
    pub text: String,
}

/// What a DOT export (`x` on the State Graph, `d` on Tic-tac-toe) says once it wrote its
/// file: the whole path, so the user knows the folder as well as the name; short enough
/// that the status line has room for it. One wording for every tab.
pub fn export_written(what: &str, path: &Path) -> Message {
    export_written_as(what, "DOT", path)
}

/// What an export in `format` (DOT, CSV) says once it wrote its file, as [`export_written`].
pub fn export_written_as(what: &str, format: &str, path: &Path) -> Message {
    Message::info(format!("{what} saved as {format} to {}", path.display()))
}

/// What an export says when it shows its text to copy instead of writing a file: a shared
/// server writes nothing of a session's, and without a data dir there is nowhere to write.
pub fn export_shown(storage: Storage) -> Message {
    Message::info(if storage == Storage::SharedServer {
        "Exports are not saved on a shared server: here is the text to copy"
    } else {
        "No data dir to save to (see --data-dir): here is the text to copy"
    })
}

/// Which question is asked: the same at the same point of the same stepper on every
/// student's screen, whatever its words, so the room counts a class's answers to one
/// question together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QuestionId {
    /// The stepper asking (`"alpha-beta"`, `"MCTS"`, `"Q-learning"`).
    pub stepper: &'static str,
    /// What it steps: the position searched (see [`position_key`]) or how many games the
    /// learner had learned, so a question of another game is another question.
    pub position: u64,
    /// Where the stepper is: the steps, events or phases taken so far.
    pub step: u64,
    /// What is asked (`"value"`, `"cut-off"`, `"pick"`).
    pub kind: &'static str,
    /// The node asked about (0 where the question is about no node).
    pub node: u64,
}

pub use super::facts::position_key;

/// A prediction a tab waits for now (issue 15 §3), as the lesson and the teacher's room
/// see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenQuestion {
    /// Which question: what the room groups answers by.
    pub id: QuestionId,
    /// The question in words: the same on every screen at the same point of the same
    /// search, so the room can count a class's answers to it.
    pub question: String,
    /// The answer locked in while answers are held for the teacher's reveal, as typed.
    pub held: Option<String>,
    /// What is typed of an answer so far.
    pub typed: String,
}

/// What an action did besides what it says, for the app to carry out or keep. `P` is the
/// tab's [`Tab::Played`].
#[derive(Debug)]
pub struct Effects<P = Infallible> {
    /// Show this text in the copy overlay.
    pub show_text: Option<CopyText>,
    /// Open the why overlay on these moves (a `y` press, or a position asked about).
    pub show_why: Option<Why>,
    /// The AI moves the action made, whole: the journal keeps them after the action, so a
    /// session following this one plays them as made (see [`Ticked::played`]).
    pub played: Vec<P>,
    /// The answer the action graded, with the question it answered. The registry fills it
    /// in from the tab's [`ClassSide::take_verdict`]; a tab leaves it alone.
    pub graded: Option<Verdict>,
}

impl<P> Default for Effects<P> {
    fn default() -> Self {
        Self {
            show_text: None,
            show_why: None,
            played: Vec::new(),
            graded: None,
        }
    }
}

/// An answer graded: the question as it waited (with the answer as typed or held) and
/// whether it was right, for the teacher's collect folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The question answered, as [`ClassSide::open_question`] gave it just before.
    pub asked: OpenQuestion,
    /// Whether the answer was graded right.
    pub right: bool,
}

impl Verdict {
    /// The answer graded: the one held for the reveal, else the one typed.
    pub fn answer(&self) -> &str {
        self.asked.held.as_deref().unwrap_or(&self.asked.typed)
    }
}

impl<P> Effects<P> {
    /// These effects with each AI move wrapped by `wrap` (a tab's move as the registry's).
    pub fn map_played<Q>(self, wrap: impl FnMut(P) -> Q) -> Effects<Q> {
        Effects {
            show_text: self.show_text,
            show_why: self.show_why,
            played: self.played.into_iter().map(wrap).collect(),
            graded: self.graded,
        }
    }
}

/// What a tick did to a tab. `P` is the tab's [`Tab::Played`].
#[derive(Debug)]
pub struct Ticked<P = Infallible> {
    /// Something on the tab changed: redraw if it is shown.
    pub changed: bool,
    /// What to say, if the tab is shown.
    pub message: Option<Message>,
    /// The AI's moves that background thinking made since the last tick, whole: the
    /// journal keeps them, so a session following this one plays the same moves with the
    /// same records instead of thinking again (and perhaps differently, under a time
    /// budget).
    pub played: Vec<P>,
    /// The tab's training job waited for a free trainer and got one since the last tick
    /// (the job's own thread says so, once): the app tells the user when the tab is shown.
    pub started: bool,
}

impl<P> Default for Ticked<P> {
    fn default() -> Self {
        Self {
            changed: false,
            message: None,
            played: Vec::new(),
            started: false,
        }
    }
}

/// Whether a tab's learner trains in the background.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Training {
    /// Nothing trains.
    Idle,
    /// A training job waits for a free trainer in the pool.
    Waiting,
    /// A training job runs.
    Running,
}

impl Training {
    /// Whether a job exists, running or waiting for its turn.
    pub fn is_on(self) -> bool {
        self != Self::Idle
    }
}

/// What the class layer (the lesson, the teacher's room, follow-me) reads of a tab and asks
/// of it: where its stepper is, the question waiting, the score, holding and revealing
/// answers, and what a replay of the teacher's journal needs, and the card that explains
/// the tab. Every tab has it (a tab without a stepper keeps the defaults but for `about`),
/// so a class reaches every tab the same way.
pub trait ClassSide {
    /// Whether the tab's AI is thinking in the background now: a lesson's checkpoint
    /// keys wait for it, so the next key finds the move made.
    fn busy(&self) -> bool {
        false
    }

    /// While `on` (a student following the teacher), the AI does not think for itself:
    /// its moves come from the teacher's journal, through [`Tab::play_recorded`].
    fn moves_from_journal(&mut self, _on: bool) {}

    /// Whether each tick steps the tab on by itself (autoplay), so a replay must tick it
    /// as often as it ticked.
    fn autoplays(&self) -> bool {
        false
    }

    /// Takes one autoplay step now, as a tick did when it was due: a replay cannot wait
    /// for the clock.
    fn autoplay_once(&mut self) {}

    /// Where the stepper shown is, in a few characters (`14`: fourteen steps taken), for
    /// the teacher's room; `None` with no stepper on screen.
    fn stepper_at(&self) -> Option<String> {
        None
    }

    /// The prediction waiting now: predict mode is on and a question waits for an answer.
    fn open_question(&self) -> Option<OpenQuestion> {
        None
    }

    /// The tab's graded predictions this session.
    fn predictions(&self) -> Score {
        Score::default()
    }

    /// While `hold` is on (a class following its teacher) an answer the student submits is
    /// locked in, not graded, until the teacher reveals.
    fn hold_answers(&mut self, _hold: bool) {}

    /// The teacher reveals the answer to the question waiting: the held answer is graded
    /// (or, with none, the right one is shown) and the question counts as answered, so
    /// stepping goes on. What to say; `None` when no question waits.
    fn reveal(&mut self) -> Option<Message> {
        None
    }

    /// Whether the answer graded since this was last asked was right (`None`: none was
    /// graded). Taken after each action, so the answer reaches the collect folder as the
    /// action's effect.
    fn take_verdict(&mut self) -> Option<bool> {
        None
    }

    /// What the tab has done so far, for a lesson step that waits for the doing.
    fn facts(&self) -> Facts {
        Facts::default()
    }

    /// The tab's "about" card (`I`): its game's rules, what its AI does, and one worked
    /// example made from the position on screen now, its real numbers. Every tab writes
    /// its own (no default), so a student can ask any tab what it is.
    fn about(&self) -> About;
}

/// One tab of the arcade, headless: state, keys and what each action does. Its drawing is
/// the `widgets::TabView` half, in the same folder; what a class reads and orders is its
/// `ClassSide`.
pub trait Tab: ClassSide + Sized {
    /// Everything the user can ask of the tab.
    type Action: Copy + Eq + Debug + Sync + 'static;

    /// What the tab starts from that was saved in the data dir (its trained models, each a
    /// `store::Loaded`), read once so a server can start every session from copies.
    type Saved: Clone + Debug + Default + Send + Sync + Problems;

    /// An AI move as the tab made it in the background, with its record, for the journal
    /// (see [`Ticked::played`]). A tab whose AI decides at once and the same way on every
    /// replay has none (`Infallible`): replaying the keys remakes its moves exactly.
    type Played: Clone + Debug + PartialEq + Send + Sync + 'static;

    /// The `[sections]` of the config file that set the tab up.
    const SECTIONS: &'static [&'static str];

    /// Reads what the tab saved in `store` (a missing or unusable file leaves it empty, with
    /// the reason).
    fn load(config: &Config, store: &Store) -> Self::Saved;

    /// The tab as `config` sets it up, starting from `saved`, with every random choice drawn
    /// from `seed`; `store` is where it saves (`None`: nowhere). Also what to say first.
    fn open(
        config: &Config,
        seed: u64,
        saved: Self::Saved,
        store: Option<Store>,
        storage: Storage,
    ) -> (Self, Option<Message>);

    /// The key groups in force now, most specific first (the first that matches a key
    /// wins; the app's own keys come after them).
    fn keys(&self) -> Vec<KeyGroup<Self::Action>>;

    /// Every key group of the tab, for the help overlay.
    fn help_keys(&self) -> Vec<KeyGroup<Self::Action>>;

    /// While a menu of the tab takes the keys: what a key outside it says.
    fn modal(&self) -> Option<&'static str> {
        None
    }

    /// Whether a binding whose action is `action` is in force now; one that is not is
    /// skipped, so a key can fall through to a later group.
    fn in_force(&self, _action: Self::Action) -> bool {
        true
    }

    /// Whether `action` would do something now: the status line hints only those (the
    /// others stay bound and explain themselves with a message).
    fn enabled(&self, _action: Self::Action) -> bool {
        true
    }

    /// The question to ask before `action`, when it would throw away work.
    fn confirmation(&self, _action: Self::Action) -> Option<Confirm> {
        None
    }

    /// Performs `action`; what to say about it.
    fn update(
        &mut self,
        action: Self::Action,
        effects: &mut Effects<Self::Played>,
    ) -> Option<Message>;

    /// Time passed; `shown` says whether the tab is on screen.
    fn tick(&mut self, _shown: bool) -> Ticked<Self::Played> {
        Ticked::default()
    }

    /// Plays `played`, a move the followed session's AI made, as it was made; what to say.
    /// A move that does not fit (the AI is not waiting for one here) is refused with the
    /// reason and changes nothing.
    fn play_recorded(&mut self, _played: Self::Played) -> Option<Message> {
        Some(Message::error("This tab's AI has no recorded moves"))
    }

    /// How soon the tab needs a tick (`None`: nothing runs by itself).
    fn tick_interval(&self, _shown: bool) -> Option<Duration> {
        None
    }

    /// The tab comes into view; what to say about it.
    fn on_show(&mut self) -> Option<Message> {
        None
    }

    /// The program is ending: keep what the learners learned.
    fn on_exit(&mut self) {}

    /// What quitting now would lose: its unsaved work, a game in progress, the scores and
    /// the runs kept for comparing.
    fn unsaved(&self) -> Unsaved {
        Unsaved::default()
    }

    /// Whether the tab trains now, or waits for a free trainer to.
    fn training(&self) -> Training {
        Training::Idle
    }

    /// Whether `action` only types or checks an answer to a prediction: a student following
    /// the teacher may still do these.
    fn answers(&self, _action: Self::Action) -> bool {
        false
    }

    /// Whether `action` only opens something to read about the position (the why record):
    /// a student following the teacher may still do these, as a lesson step may ask.
    fn looks(&self, _action: Self::Action) -> bool {
        false
    }

    /// The settings panel over the tab's settings in force now (`None`: the tab has no
    /// panel yet; its settings are in the config file only).
    fn settings(&self) -> Option<Panel> {
        None
    }

    /// Puts what the panel changed in force, each when its `Takes` says; what to say.
    /// The AI moves it made (a new game the AI opens) go to `effects`, as `update`'s do.
    fn apply_settings(
        &mut self,
        _changes: &[Change],
        _effects: &mut Effects<Self::Played>,
    ) -> Message {
        Message::error("This tab has no settings panel")
    }
}

/// What a learner held when the session started and whether a key trained it since, so
/// quitting can tell what it would lose. Training that starts by itself the first time a tab
/// is shown is not a key's: it starts again by itself next time, so losing it loses nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TrainedSince {
    start: u64,
    by_key: bool,
}

impl TrainedSince {
    /// A learner that holds `start` (games, epochs) now.
    pub fn new(start: u64) -> Self {
        Self {
            start,
            by_key: false,
        }
    }

    /// A key trained the learner.
    pub fn trained_by_key(&mut self) {
        self.by_key = true;
    }

    /// Whether a key trained the learner since the start.
    pub fn by_key(&self) -> bool {
        self.by_key
    }

    /// Whether a key trained the learner and it now holds `now`, something it did not hold
    /// at the start.
    pub fn grew(&self, now: u64) -> bool {
        self.by_key && now != self.start && now > 0
    }
}
