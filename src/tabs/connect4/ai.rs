//! The AIs of the tab and what each one's choice rests on: a pure function from a position
//! and the settings to a column and its record, run on a thread of its own so the screen
//! stays live while the AI thinks (the exact verdicts can take a second).

use super::settings::{Connect4Ai, Connect4Config};
use crate::components::tree_search::explain::bound_tag;
use crate::domain::games::connect4::{Board, Disc, WIDTH};
use crate::domain::numbers::thousands;
use crate::domain::search::Bound;
use crate::domain::search::heuristic::{self, Evaluate};
use crate::domain::search::limited::{Limited, NodeKind, Options, search_limited};
use crate::domain::search::mcts::Mcts;
use crate::domain::search::players::random_column;
use crate::domain::solve::connect4::book::builtin;
use crate::domain::solve::connect4::{Book, Solver, verdict};
use crate::domain::solve::verdict::Verdict;
use crate::tabkit::why::{Decision, Weighed};
use crate::widgets::discs::{board_lines, disc_glyph};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The most alpha-beta nodes the tree pane keeps (about 40 bytes each): every search to
/// depth 6 fits; deeper ones keep their first nodes and say so.
pub(crate) const TREE_LIMIT: usize = 200_000;
/// Slots of the solver's table in the tab: 2^22, 32 MiB, mapped only while it thinks.
const TABLE_BITS: u32 = 22;

/// How the AI chose its column, kept whole for the tree pane.
#[derive(Debug, Clone)]
pub(crate) enum Searched {
    /// Alpha-beta's search: iterations, tree, root values.
    AlphaBeta(Box<Limited<Board>>),
    /// Monte Carlo tree search: its whole tree.
    Mcts(Box<Mcts<Board>>),
    /// The exact solver: every column's score.
    Solved {
        /// The score of each column (`None`: full).
        scores: [Option<i32>; WIDTH],
        /// Positions it searched (0 when the opening book held every column).
        nodes: u64,
        /// Where the scores came from.
        source: Source,
    },
    /// The solver ran out of budget; alpha-beta chose instead.
    GaveUp {
        /// The budget it had.
        budget: u64,
        /// The alpha-beta search that chose.
        fallback: Box<Limited<Board>>,
    },
    /// A seeded random choice among the open columns.
    Random {
        /// How many columns were open.
        open: usize,
    },
}

/// What the exact solver says of each column, if it finished within its budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Verdicts {
    /// Not asked (a budget of 0).
    NotAsked,
    /// Beyond the budget.
    Unknown,
    /// Each open column's verdict for the mover, and where the verdicts came from.
    Known([Option<Verdict>; WIDTH], Source),
}

/// Where the exact verdicts came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The opening book held every column: positions solved ahead of time.
    Book,
    /// The solver searched.
    Search,
    /// No search was needed: every column makes four, or lets the other player make one.
    AtOnce,
}

impl Source {
    /// Where the verdicts came from, as the why record and the pane say it.
    pub(crate) fn words(self) -> String {
        match self {
            Self::Book => format!(
                "The verdicts come from the opening book: every position of up to {} moves, \
                 solved ahead of time.",
                builtin().map_or(0, Book::depth)
            ),
            Self::Search => "The verdicts are the exact solver's, searched now.".to_string(),
            Self::AtOnce => {
                "The verdicts need no search: a four, made or allowed, decides every column."
                    .to_string()
            }
        }
    }

    /// Where the verdicts came from, from what `solver` counted while it found them.
    fn of(solver: &Solver) -> Self {
        match (solver.nodes, solver.from_book) {
            (0, 0) => Self::AtOnce,
            (0, _) => Self::Book,
            _ => Self::Search,
        }
    }
}

impl Verdicts {
    /// The verdict of `column`, if known.
    pub(crate) fn of(&self, column: usize) -> Option<Verdict> {
        match self {
            Self::Known(verdicts, _) => verdicts.get(column).copied().flatten(),
            _ => None,
        }
    }
}

/// The AI's move and everything it rests on.
#[derive(Debug, Clone)]
pub(crate) struct Thought {
    /// The column played (0-based).
    pub(crate) column: u8,
    /// The AI that chose.
    pub(crate) ai: Connect4Ai,
    /// How it chose.
    pub(crate) searched: Searched,
    /// The exact verdicts beside the root moves.
    pub(crate) verdicts: Verdicts,
}

/// The alpha-beta options of the settings.
pub(crate) fn options(config: &Connect4Config) -> Options {
    Options {
        depth: config.depth,
        deepening: config.deepening,
        ordering: config.ordering,
        table: config.table,
    }
}

/// The AI's choice on `board` (a game still on), with `seed` for its random choices.
pub(crate) fn think(board: Board, config: &Connect4Config, seed: u64) -> Thought {
    let mut solver = (config.solver_budget > 0).then(|| {
        let solver = Solver::with_table_bits(TABLE_BITS);
        match builtin() {
            Some(book) => solver.with_book(book),
            None => solver,
        }
    });
    let scores = solver
        .as_mut()
        .and_then(|s| s.scores_within(&board, config.solver_budget));
    let verdicts = match (&solver, scores) {
        (None, _) => Verdicts::NotAsked,
        (Some(_), None) => Verdicts::Unknown,
        (Some(solver), Some(scores)) => {
            let source = Source::of(solver);
            Verdicts::Known(
                scores.map(|score| score.map(|s| verdict(&board, s))),
                source,
            )
        }
    };
    let (column, searched) = match config.ai {
        Connect4Ai::AlphaBeta => alpha_beta(board, config),
        Connect4Ai::Mcts => {
            let mut mcts = Mcts::new(board, config.exploration, seed);
            match config.mcts_time {
                None => mcts.run(config.iterations),
                Some(budget) => run_for(&mut mcts, budget.0),
            }
            let column = mcts.best_move().unwrap_or(3);
            (column, Searched::Mcts(Box::new(mcts)))
        }
        Connect4Ai::Perfect => {
            if let Some(scores) = scores {
                let column = Solver::best_of(&scores).unwrap_or(3) as u8;
                let nodes = solver.as_ref().map_or(0, |s| s.nodes);
                let source = solver.as_ref().map_or(Source::Search, Source::of);
                (
                    column,
                    Searched::Solved {
                        scores,
                        nodes,
                        source,
                    },
                )
            } else {
                let (column, fallback) = alpha_beta(board, config);
                let Searched::AlphaBeta(fallback) = fallback else {
                    unreachable!("alpha_beta returns its search")
                };
                let budget = config.solver_budget;
                (column, Searched::GaveUp { budget, fallback })
            }
        }
        Connect4Ai::Random => {
            let column = random_column(&board, &mut ChaCha8Rng::seed_from_u64(seed));
            let open = board.open_columns().count();
            (column, Searched::Random { open })
        }
    };
    Thought {
        column,
        ai: config.ai,
        searched,
        verdicts,
    }
}

/// Iterations between two looks at the clock: about a third of a millisecond.
const ITERATIONS_PER_CHECK: u64 = 256;

/// Runs `mcts` until `budget` has passed (at least one batch of iterations).
fn run_for(mcts: &mut Mcts<Board>, budget: std::time::Duration) {
    let deadline = std::time::Instant::now() + budget;
    loop {
        mcts.run(ITERATIONS_PER_CHECK);
        if std::time::Instant::now() >= deadline {
            return;
        }
    }
}

fn alpha_beta(board: Board, config: &Connect4Config) -> (u8, Searched) {
    let found = search_limited(&board, options(config), TREE_LIMIT);
    let column = found
        .best_move()
        .or_else(|| board.open_columns().next().map(|c| c as u8))
        .unwrap_or(0);
    (column, Searched::AlphaBeta(Box::new(found)))
}

/// The why record of an AI move: every open column with the AI's own numbers and the exact
/// verdict, built from the search that chose it.
pub(crate) fn decision(board: &Board, thought: &Thought) -> Decision {
    let mover = board.player_to_move();
    let (columns, numbers, how, origin) = weighed(board, thought);
    let options = board
        .open_columns()
        .map(|column| Weighed {
            mv: format!("column {}", column + 1),
            numbers: numbers(column),
            verdict: thought.verdicts.of(column),
            chosen: column == usize::from(thought.column),
        })
        .collect();
    let mut origin = origin;
    origin.push(match thought.verdicts {
        Verdicts::Known(_, source) => source.words(),
        Verdicts::Unknown => {
            "The exact solver did not finish within its budget: no verdicts.".to_string()
        }
        Verdicts::NotAsked => "The exact solver was not asked (solver_budget = 0).".to_string(),
    });
    Decision {
        title: format!(
            "Connect Four: {} ({}) to move, move {}",
            mover.name(),
            disc_glyph(mover),
            board.moves() + 1
        ),
        position: board_lines(board),
        columns,
        options,
        how,
        origin,
    }
}

type Numbers<'a> = Box<dyn Fn(usize) -> Vec<String> + 'a>;

/// The record's column headings, each column's numbers, how the move was chosen and where
/// its numbers come from.
fn weighed<'a>(
    board: &Board,
    thought: &'a Thought,
) -> (Vec<String>, Numbers<'a>, String, Vec<String>) {
    match &thought.searched {
        Searched::AlphaBeta(found)
        | Searched::GaveUp {
            fallback: found, ..
        } => {
            let gave_up = match &thought.searched {
                Searched::GaveUp { budget, .. } => format!(
                    "The solver gave up after {} positions, so alpha-beta chose. ",
                    thousands(*budget)
                ),
                _ => String::new(),
            };
            let total = found.total();
            let how = format!(
                "{gave_up}Alpha-beta to depth {}: the column with the highest value.",
                found.options.depth
            );
            let mut origin = vec![format!(
                "Values from {}'s side: the evaluation at depth {}, ±{} for a win; {} nodes.",
                board.player_to_move().name(),
                found.options.depth,
                crate::domain::search::limited::WIN_SCORE,
                thousands(total.nodes)
            )];
            origin.extend(principal_leaf_words(found, board.player_to_move()));
            let numbers = Box::new(move |column: usize| {
                found
                    .root
                    .iter()
                    .find(|r| usize::from(r.mv) == column)
                    .map_or_else(
                        || vec!["pruned".to_string()],
                        |r| {
                            let value = bounded(r.value, r.bound);
                            vec![match bound_tag(r.cause()) {
                                Some(tag) => format!("{value} {tag}"),
                                None => value,
                            }]
                        },
                    )
            });
            (vec!["value".to_string()], numbers, how, origin)
        }
        Searched::Mcts(mcts) => {
            let how = format!(
                "MCTS, {} iterations: the column visited most.",
                thousands(mcts.iterations())
            );
            let origin = vec![format!(
                "N: visits; W/N: the share of random games won from there (a draw ½); c = {:.2}.",
                mcts.exploration()
            )];
            let moves = mcts.root_moves();
            let numbers = Box::new(move |column: usize| {
                moves
                    .iter()
                    .find(|m| usize::from(m.mv) == column)
                    .map_or_else(
                        || vec!["0".to_string(), String::new()],
                        |m| vec![thousands(m.visits), format!("{:.3}", m.mean)],
                    )
            });
            (
                vec!["N".to_string(), "W/N".to_string()],
                numbers,
                how,
                origin,
            )
        }
        Searched::Solved {
            scores,
            nodes,
            source,
        } => {
            let how = "The exact solver: the column with the best score.".to_string();
            let origin = vec![format!(
                "Score: 0 a draw, else ±(22 − the winner's discs when it wins); {}.",
                searched_words(*nodes, *source)
            )];
            let scores = *scores;
            let numbers = Box::new(move |column: usize| {
                vec![scores[column].map_or_else(String::new, |s| format!("{s:+}"))]
            });
            (vec!["score".to_string()], numbers, how, origin)
        }
        Searched::Random { open } => {
            let how = format!("A seeded random choice among {open} open columns.");
            (Vec::new(), Box::new(|_| Vec::new()), how, Vec::new())
        }
    }
}

/// What the exact solver searched, in words: its positions, the book, or nothing.
pub(crate) fn searched_words(nodes: u64, source: Source) -> String {
    match source {
        Source::Book => "from the opening book".to_string(),
        Source::AtOnce => "no search needed".to_string(),
        Source::Search => format!("{} positions", thousands(nodes)),
    }
}

/// Where the chosen value comes from, in words: the line of best moves down the recorded
/// tree to the position the evaluation scored, and that score's terms for each side. `None`
/// when the line ends where the record does not show a scored position (a table hit, or a
/// tree larger than the record).
fn principal_leaf_words(found: &Limited<Board>, mover: Disc) -> Option<String> {
    let mut at = 0;
    let mut line = Vec::new();
    loop {
        let node = found.tree.get(at)?;
        match node.kind {
            NodeKind::Horizon(counts) => {
                let side = |disc: Disc| format!("{} {}", disc.name(), counts.of(disc).written());
                return Some(format!(
                    "The value comes from the position after {} (depth {}), scored threes×{} \
                     + twos×{} + centre×{} for each side: {}; {}; {}.",
                    line.join(" "),
                    node.ply,
                    heuristic::THREE_POINTS,
                    heuristic::TWO_POINTS,
                    heuristic::CENTRE_POINTS,
                    side(mover),
                    side(mover.other()),
                    leaf_arithmetic(counts, mover),
                ));
            }
            NodeKind::Finished => {
                return Some(format!(
                    "The value comes from a finished game after {} ({} plies): a draw scores \
                     0, a win ±{} less the plies it takes (a sooner win scores more).",
                    line.join(" "),
                    node.ply,
                    crate::domain::search::limited::WIN_SCORE,
                ));
            }
            NodeKind::TableHit => return None,
            NodeKind::Inner => {
                let best = node.best?;
                at = found
                    .children(at)
                    .find(|&c| found.tree[c].mv == Some(best))?;
                line.push(format!("col {}", best + 1));
            }
        }
    }
}

/// A value with its bound's sign where it is only a bound: `≤ +12`.
pub(crate) fn bounded(value: i32, bound: Bound) -> String {
    match bound {
        Bound::Exact => format!("{value:+}"),
        other => format!("{} {value:+}", other.sign()),
    }
}

/// The evaluation's arithmetic at a leaf, from the root mover's side.
pub(crate) fn leaf_arithmetic(counts: <Board as Evaluate>::Counts, root_mover: Disc) -> String {
    counts.arithmetic(root_mover)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(ai: Connect4Ai) -> Connect4Config {
        Connect4Config {
            ai,
            solver_budget: 2_000_000,
            ..Connect4Config::default()
        }
    }

    #[test]
    fn every_ai_takes_a_win_in_one_but_random() {
        let board = Board::parse("121212").unwrap();
        for ai in [Connect4Ai::AlphaBeta, Connect4Ai::Mcts, Connect4Ai::Perfect] {
            assert_eq!(think(board, &config(ai), 1).column, 0, "{ai:?}");
        }
        let random = think(board, &config(Connect4Ai::Random), 1);
        assert!(board.can_play(usize::from(random.column)));
        assert_eq!(
            think(board, &config(Connect4Ai::Random), 1).column,
            random.column,
            "the seed decides"
        );
    }

    #[test]
    fn early_verdicts_come_from_the_opening_book_and_say_so() {
        let board = Board::parse("44").unwrap();
        let thought = think(board, &config(Connect4Ai::Perfect), 1);
        assert!(matches!(
            thought.searched,
            Searched::Solved {
                nodes: 0,
                source: Source::Book,
                ..
            }
        ));
        assert!(matches!(thought.verdicts, Verdicts::Known(_, Source::Book)));
        assert_eq!(thought.column, 3, "the centre again");
        let record = decision(&board, &thought);
        assert!(
            record.origin.iter().any(|l| l.contains("opening book")),
            "{:?}",
            record.origin
        );
        // Nine moves in, every yellow column leaves red a four (or blocks into one): no
        // search, and no book either, and the pane and the record say so.
        let decided = Board::parse("777726364").unwrap();
        let thought = think(decided, &config(Connect4Ai::Perfect), 1);
        assert!(matches!(
            thought.searched,
            Searched::Solved {
                nodes: 0,
                source: Source::AtOnce,
                ..
            }
        ));
        assert!(matches!(
            thought.verdicts,
            Verdicts::Known(_, Source::AtOnce)
        ));
        assert_eq!(searched_words(0, Source::AtOnce), "no search needed");
        // Past the book, the solver searches, and the record says that instead.
        let later = Board::parse("444444326").unwrap();
        let thought = think(later, &config(Connect4Ai::Perfect), 1);
        assert!(matches!(
            thought.verdicts,
            Verdicts::Known(_, Source::Search)
        ));
    }

    #[test]
    fn the_perfect_ai_says_when_it_gave_up() {
        // Nine moves in: past the opening book, so the solver must search.
        let board = Board::parse("444444326").unwrap();
        let small = Connect4Config {
            solver_budget: 1_000,
            ..config(Connect4Ai::Perfect)
        };
        let thought = think(board, &small, 1);
        assert!(matches!(
            thought.searched,
            Searched::GaveUp { budget: 1_000, .. }
        ));
        assert_eq!(thought.verdicts, Verdicts::Unknown);
        let record = decision(&board, &thought);
        assert!(
            record
                .how
                .starts_with("The solver gave up after 1,000 positions")
        );
    }

    /// §5 of the screens issue: `y` after alpha-beta says where the value comes from, with
    /// the evaluation's terms for each side, and the numbers add up to the value chosen.
    #[test]
    fn the_alpha_beta_record_shows_the_evaluation_terms_of_its_best_line() {
        let board = Board::parse("4").unwrap();
        let thought = think(board, &config(Connect4Ai::AlphaBeta), 1);
        let Searched::AlphaBeta(found) = &thought.searched else {
            panic!("alpha-beta searched");
        };
        let record = decision(&board, &thought);
        let words = record
            .origin
            .iter()
            .find(|line| line.starts_with("The value comes from the position after col "))
            .unwrap_or_else(|| panic!("{:?}", record.origin));
        assert!(
            words.contains("threes×5 + twos×2 + centre×3 for each side: yellow "),
            "{words}"
        );
        let value = found.iterations.last().unwrap().value;
        assert!(
            words.ends_with(&format!("= {value:+}.")),
            "{words} (value {value})"
        );
    }

    #[test]
    fn the_record_holds_every_open_column_and_the_verdicts() {
        // Columns 3 and 4 are full; 2 and 5 both win with red's 8th disc.
        let board = Board::parse("444444333333").unwrap();
        let thought = think(board, &config(Connect4Ai::Perfect), 1);
        let record = decision(&board, &thought);
        assert_eq!(record.options.len(), 5);
        assert_eq!(
            record.chosen(),
            vec!["column 5"],
            "centre first among equals"
        );
        let chosen = record.options.iter().find(|o| o.chosen).unwrap();
        assert_eq!(chosen.verdict, Some(Verdict::wins_in_plies(3)));
        assert_eq!(chosen.numbers, vec!["+14"]);
        let draw = record.options.iter().find(|o| o.mv == "column 1").unwrap();
        assert_eq!(draw.verdict, Some(Verdict::DRAW));
    }
}

#[cfg(test)]
mod time_tests {
    use super::*;
    use crate::config::serve::HumanDuration;

    /// With a time budget MCTS runs whole batches until the clock says stop, and plays
    /// the most visited move of what it built (no claim on how many: that is the machine's).
    #[test]
    fn mcts_with_a_time_budget_plays_its_most_visited_move() {
        let config = Connect4Config {
            ai: Connect4Ai::Mcts,
            mcts_time: Some(HumanDuration(std::time::Duration::from_millis(10))),
            solver_budget: 0,
            ..Connect4Config::default()
        };
        let board = Board::parse("4453").unwrap();
        let thought = think(board, &config, 3);
        let Searched::Mcts(mcts) = &thought.searched else {
            panic!("an MCTS search")
        };
        assert!(mcts.iterations() >= ITERATIONS_PER_CHECK);
        assert_eq!(mcts.iterations() % ITERATIONS_PER_CHECK, 0, "whole batches");
        assert_eq!(Some(thought.column), mcts.best_move());
        assert!(board.can_play(usize::from(thought.column)));
    }

    #[test]
    fn a_time_budget_out_of_range_is_refused_naming_the_key() {
        for text in ["5ms", "2m"] {
            let config = Connect4Config {
                mcts_time: Some(text.parse().unwrap()),
                ..Connect4Config::default()
            };
            let shown = config.validate().unwrap_err().refused_value();
            assert_eq!(
                shown,
                format!("connect4.mcts_time = {text}: allowed 10ms to 60s")
            );
        }
    }
}

#[cfg(test)]
mod arena_tests {
    use super::*;
    use crate::domain::search::players::{Player, random_opening};

    /// The arena measures the AIs the tab plays: with the tab's defaults, each AI and the
    /// arena's player of the same strength choose the same column from the same seed.
    #[test]
    fn the_tab_s_ais_choose_as_the_arena_s_players_do() {
        let defaults = Connect4Config::default();
        let pairs = [
            (
                Connect4Ai::AlphaBeta,
                Player::AlphaBeta {
                    depth: defaults.depth,
                },
            ),
            (Connect4Ai::Mcts, Player::Mcts { iterations: 2_000 }),
            (
                Connect4Ai::Perfect,
                Player::Perfect {
                    budget: defaults.solver_budget,
                },
            ),
            (Connect4Ai::Random, Player::Random),
        ];
        let mut solver = Solver::with_table_bits(20);
        for seed in 0..4 {
            let board = random_opening(seed, 14 + seed as usize).expect("an opening");
            for (ai, player) in pairs {
                let config = Connect4Config {
                    ai,
                    iterations: 2_000,
                    ..defaults.clone()
                };
                let tab = think(board, &config, seed).column;
                let arena = player.choose(&board, seed, &mut solver).column;
                assert_eq!(tab, arena, "{ai:?} at {seed}");
            }
        }
    }
}

#[cfg(test)]
mod mcts_tests {
    use super::*;

    #[test]
    fn mcts_repeats_exactly_for_a_seed_and_records_its_visits() {
        let board = Board::parse("4453").unwrap();
        let config = Connect4Config {
            ai: Connect4Ai::Mcts,
            iterations: 2_000,
            solver_budget: 0,
            ..Connect4Config::default()
        };
        let first = think(board, &config, 9);
        let again = think(board, &config, 9);
        assert_eq!(first.column, again.column);
        let Searched::Mcts(mcts) = &first.searched else {
            panic!("MCTS searched")
        };
        assert_eq!(mcts.iterations(), 2_000);
        let record = decision(&board, &first);
        assert_eq!(record.columns, vec!["N", "W/N"]);
        let visits: u64 = mcts.root_moves().iter().map(|m| m.visits).sum();
        assert!(
            visits >= 1_999,
            "every iteration but the root's own passes a child"
        );
        assert_eq!(first.verdicts, Verdicts::NotAsked);
    }
}
