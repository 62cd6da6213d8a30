//! The tab's three games, one learner each: the game shown takes the keys, the others wait
//! where they were left (a learner that trains goes on training), and `g` goes to the next,
//! opening it from its saved learner the first time.

use super::game::TabGame;
use super::settings::{GameChoice, SelfPlayConfig};
use super::state::SelfPlay;
use crate::domain::games::connect4::{Board as Connect4, SmallBoard};
use crate::domain::games::tictactoe::Board;
use crate::domain::learn::selfplay::saved::SavedLearner;
use crate::persist::{Loaded, Problems, Store};
use crate::tabkit::message::Message;
use crate::tabkit::tab::Storage;

/// One game of the tab with its learner (boxed: each is large).
pub(crate) enum Games {
    TicTacToe(Box<SelfPlay<Board>>),
    SmallBoard(Box<SelfPlay<SmallBoard>>),
    ConnectFour(Box<SelfPlay<Connect4>>),
}

impl Games {
    /// Which game this is.
    pub(crate) const fn choice(&self) -> GameChoice {
        match self {
            Self::TicTacToe(_) => GameChoice::TicTacToe,
            Self::SmallBoard(_) => GameChoice::SmallBoard,
            Self::ConnectFour(_) => GameChoice::ConnectFour,
        }
    }
}

/// The learners of the three games as read from the data dir: all three at once, so a
/// server that reads them at its start gives every session each game's learner.
#[derive(Debug, Clone, Default)]
pub struct Saved {
    /// Tic-tac-toe's.
    pub tictactoe: Loaded<SavedLearner>,
    /// The 5x4 board's.
    pub small_board: Loaded<SavedLearner>,
    /// Connect Four's.
    pub connect4: Loaded<SavedLearner>,
}

impl Saved {
    /// Reads every game's learner from `store`.
    pub(super) fn load(store: &Store) -> Self {
        Self {
            tictactoe: SelfPlay::<Board>::load(store),
            small_board: SelfPlay::<SmallBoard>::load(store),
            connect4: SelfPlay::<Connect4>::load(store),
        }
    }

    /// The learner of `game`, taken: each is opened once.
    fn take(&mut self, game: GameChoice) -> Loaded<SavedLearner> {
        std::mem::take(match game {
            GameChoice::TicTacToe => &mut self.tictactoe,
            GameChoice::SmallBoard => &mut self.small_board,
            GameChoice::ConnectFour => &mut self.connect4,
        })
    }
}

impl Problems for Saved {
    fn problems(&self) -> Vec<&str> {
        [&self.tictactoe, &self.small_board, &self.connect4]
            .into_iter()
            .flat_map(Problems::problems)
            .collect()
    }
}

/// The Self-play tab.
pub struct SelfPlayTab {
    /// The game on screen.
    pub(crate) shown: Games,
    /// The games opened before, waiting.
    pub(super) others: Vec<Games>,
    /// Whether the class holds answers for the teacher's reveal (a game opened later
    /// holds them too).
    pub(super) hold: bool,
    /// The run's seed, for the games opened later.
    seed: u64,
    /// The learners of the games not opened yet.
    unopened: Saved,
    store: Option<Store>,
    storage: Storage,
}

/// `game` opened with `config`, from its learner `saved`.
fn open(
    game: GameChoice,
    config: &SelfPlayConfig,
    seed: u64,
    saved: Loaded<SavedLearner>,
    (store, storage): (Option<Store>, Storage),
) -> Games {
    fn boxed<G: TabGame>(
        config: &SelfPlayConfig,
        seed: u64,
        saved: Loaded<SavedLearner>,
        (store, storage): (Option<Store>, Storage),
    ) -> Box<SelfPlay<G>> {
        Box::new(SelfPlay::new(config, seed, saved, store, storage))
    }
    let place = (store, storage);
    match game {
        GameChoice::TicTacToe => Games::TicTacToe(boxed(config, seed, saved, place)),
        GameChoice::SmallBoard => Games::SmallBoard(boxed(config, seed, saved, place)),
        GameChoice::ConnectFour => Games::ConnectFour(boxed(config, seed, saved, place)),
    }
}

impl SelfPlayTab {
    /// The tab on the game `config` names, from its learner `saved`.
    pub(crate) fn new(
        config: &SelfPlayConfig,
        seed: u64,
        mut saved: Saved,
        store: Option<Store>,
        storage: Storage,
    ) -> Self {
        let place = (store.clone(), storage);
        let first = saved.take(config.game);
        Self {
            shown: open(config.game, config, seed, first, place),
            others: Vec::new(),
            hold: false,
            seed,
            unopened: saved,
            store,
            storage,
        }
    }

    /// Why the shown game's saved learner could not be used, if it could not: said once.
    pub(crate) fn take_load_note(&mut self) -> Option<String> {
        each_game!(&mut self.shown, play => play.load_note.take())
    }

    /// Every game opened, the shown one first.
    pub(super) fn all(&self) -> impl Iterator<Item = &Games> {
        std::iter::once(&self.shown).chain(&self.others)
    }

    /// Every game opened, to change.
    pub(super) fn all_mut(&mut self) -> impl Iterator<Item = &mut Games> {
        std::iter::once(&mut self.shown).chain(&mut self.others)
    }

    /// `g`: the next game, as it was left or opened from its saved learner. How the
    /// learner plays you (the panel's first rows) and who opens go with you.
    pub(crate) fn switch_game(&mut self) -> Message {
        let next = self.shown.choice().next();
        let (config, first) = each_game!(&self.shown, play => (play.config.clone(), play.first));
        // Who opens goes with you into a game opened now, its first game too.
        let config = SelfPlayConfig {
            game: next,
            first,
            ..config
        };
        let arriving = if let Some(at) = self.others.iter().position(|g| g.choice() == next) {
            self.others.remove(at)
        } else {
            let saved = self.unopened.take(next);
            let place = (self.store.clone(), self.storage);
            open(next, &config, self.seed, saved, place)
        };
        let leaving = std::mem::replace(&mut self.shown, arriving);
        let trains_on = each_game!(&leaving, play => play.training().is_on().then(|| {
            let goes_on = if play.stopping { "stops, then saves" } else { "trains on" };
            (title_of(play), goes_on)
        }));
        self.others.push(leaving);
        let hold = self.hold;
        each_game!(&mut self.shown, play => play.arrive(&config, first, hold, trains_on))
    }
}

impl<G: TabGame> SelfPlay<G> {
    /// The game comes on screen with the play settings in force: what to say (and which
    /// learner, if any, `trains_on` behind it).
    fn arrive(
        &mut self,
        config: &SelfPlayConfig,
        first: crate::config::shared::FirstMover,
        hold: bool,
        trains_on: Option<(&'static str, &'static str)>,
    ) -> Message {
        self.config = config.clone();
        self.first = first;
        self.hold_answers = hold;
        self.analyse();
        if let Some(note) = self.load_note.take() {
            return Message::error(note);
        }
        // A count would be stale at once while it trains: the pane below keeps it.
        let learner = if self.training().is_on() {
            "its own learner, training".to_string()
        } else {
            let games = crate::domain::numbers::thousands(self.shown.progress.games);
            format!("its own learner ({games} games)")
        };
        let then = trains_on.map_or_else(
            || "g switches again".to_string(),
            |(other, goes_on)| format!("{other}'s {goes_on}"),
        );
        Message::info(format!("{}: {learner}; {then}", G::TITLE))
    }
}

/// The name of `_game`'s game.
const fn title_of<G: TabGame>(_game: &SelfPlay<G>) -> &'static str {
    G::TITLE
}

/// A test's view of the game on screen, which it expects to be `$variant`.
#[cfg(test)]
macro_rules! shown_as {
    ($name:ident, $variant:ident, $game:ty) => {
        #[doc = concat!("The game on screen, which a test expects to be ", stringify!($variant), ".")]
        pub(crate) fn $name(&self) -> &SelfPlay<$game> {
            match &self.shown {
                Games::$variant(play) => play,
                _ => panic!("{} is not on screen", stringify!($variant)),
            }
        }
    };
    ($name:ident, $name_mut:ident, $variant:ident, $game:ty) => {
        shown_as!($name, $variant, $game);

        #[doc = concat!("The ", stringify!($variant), " game on screen, to change.")]
        pub(crate) fn $name_mut(&mut self) -> &mut SelfPlay<$game> {
            match &mut self.shown {
                Games::$variant(play) => play,
                _ => panic!("{} is not on screen", stringify!($variant)),
            }
        }
    };
}

#[cfg(test)]
impl SelfPlayTab {
    shown_as!(tictactoe, tictactoe_mut, TicTacToe, Board);
    shown_as!(small_board, small_board_mut, SmallBoard, SmallBoard);
    shown_as!(connect4, connect4_mut, ConnectFour, Connect4);
}
