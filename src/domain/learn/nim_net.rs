//! The 3-pile Nim network of original program 001: pile sizes in binary in, the chosen pile
//! (one-hot) and that pile's remaining size (binary) out, trained by mini-batch gradient descent on
//! the exact solver's move for every position that has a winning move.

use crate::domain::games::nim::{NimMove, Piles, Rule};
use crate::domain::learn::Chunked;
use crate::domain::learn::network::{Activations, Loss, Network};
use crate::domain::solve::nim as solver;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex, PoisonError, Weak};

/// Bits per pile, in and out: the original program's 6 (piles up to 63).
pub const PILE_BITS: usize = 6;

/// The game the network plays: how many piles and how large they start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetGame {
    /// Number of piles (the original: 3).
    pub piles: usize,
    /// Largest pile size trained on (the original: 31).
    pub max_pile: u8,
    /// The rule the labels follow (the original: normal play).
    pub rule: Rule,
}

impl NetGame {
    /// The original program's game: three piles of 0..31, normal play.
    pub const ORIGINAL: Self = Self {
        piles: 3,
        max_pile: 31,
        rule: Rule::Normal,
    };

    /// Input units: `PILE_BITS` per pile.
    pub fn inputs(self) -> usize {
        self.piles * PILE_BITS
    }

    /// Output units: one per pile, then `PILE_BITS` for the remaining size.
    pub fn outputs(self) -> usize {
        self.piles + PILE_BITS
    }

    /// The largest position trained on.
    pub fn top(self) -> Piles {
        Piles::new(&vec![self.max_pile; self.piles]).expect("sizes checked by config")
    }

    /// The input for a position, most significant bit first as in the original program.
    pub fn input(self, piles: &Piles) -> Vec<f64> {
        piles.sizes().iter().flat_map(|&s| bits(s)).collect()
    }

    /// The target for a move: the pile one-hot, then the size left in it.
    pub fn target(self, piles: &Piles, mv: NimMove) -> Vec<f64> {
        let mut target = vec![0.0; self.piles];
        target[usize::from(mv.pile)] = 1.0;
        target.extend(bits(piles.sizes()[usize::from(mv.pile)] - mv.take));
        target
    }

    /// Whether a position is one this network can be asked about.
    pub fn fits(self, piles: &Piles) -> bool {
        piles.len() == self.piles && piles.sizes().iter().all(|&s| s <= self.max_pile)
    }
}

fn bits(value: u8) -> impl Iterator<Item = f64> {
    (0..PILE_BITS)
        .rev()
        .map(move |bit| f64::from((value >> bit) & 1))
}

/// How the network is trained: the original program's recipe, or this project's default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NetRecipe {
    /// Hidden layer sizes (the original: one layer of 14).
    pub hidden: Vec<usize>,
    /// Gradient step.
    pub learning_rate: f64,
    /// Samples per update (the original: 32).
    pub batch_size: usize,
    /// Passes over the training set (the original: 128 per run).
    pub epochs: usize,
    /// Initial weights uniform in ±this.
    pub init_range: f64,
    /// What training minimises (the original: squared error).
    pub loss: Loss,
}

impl NetRecipe {
    /// The original program: 18-14-9, squared error, batch 32, rate 0.01 (its text's figure),
    /// 128 iterations.
    pub fn original() -> Self {
        Self {
            hidden: vec![14],
            learning_rate: 0.01,
            batch_size: 32,
            epochs: 128,
            init_range: 1.0,
            loss: Loss::Squared,
        }
    }
}

impl Default for NetRecipe {
    /// This project's default: two hidden layers of 64 and a cross-entropy loss at rate 0.5. The
    /// original program's single layer of 14 under squared error answers about 8% of winning
    /// positions with a winning move after its 128 epochs (5.8-7.9% for seeds 1-3); this answers
    /// 99.98-99.997% after its 60 (`ai-arcade --seed S train nim-net`).
    fn default() -> Self {
        Self {
            hidden: vec![64, 64],
            learning_rate: 0.5,
            batch_size: 32,
            epochs: 60,
            init_range: 1.0,
            loss: Loss::CrossEntropy,
        }
    }
}

/// Every position with a winning move, labelled with the solver's first winning move.
pub fn dataset(game: NetGame) -> Vec<(Piles, NimMove)> {
    game.top()
        .below()
        .filter_map(|piles| {
            solver::winning_moves(&piles, game.rule)
                .first()
                .map(|&mv| (piles, mv))
        })
        .collect()
}

/// The move the network's output stands for: the likeliest legal move, each output read
/// as the probability of its bit; never illegal.
pub fn legal_decode(game: NetGame, output: &[f64], piles: &Piles) -> Option<NimMove> {
    likeliest(&weigh(game, output, piles))
}

/// Every legal move of `piles` with the log-probability the output gives its reading (the
/// pile unit on, the others off, the size bits spelling what is left): what the legal
/// decoder compares.
pub fn weigh(game: NetGame, output: &[f64], piles: &Piles) -> Vec<(NimMove, f64)> {
    let ln = |p: f64, on: bool| {
        let p = p.clamp(1e-9, 1.0 - 1e-9);
        if on { p.ln() } else { (1.0 - p).ln() }
    };
    piles
        .moves()
        .map(|mv| {
            let pile = usize::from(mv.pile);
            let left = piles.sizes()[pile] - mv.take;
            let choice: f64 = (0..game.piles).map(|i| ln(output[i], i == pile)).sum();
            let size: f64 = (0..PILE_BITS)
                .map(|b| {
                    ln(
                        output[game.piles + b],
                        (left >> (PILE_BITS - 1 - b)) & 1 == 1,
                    )
                })
                .sum();
            (mv, choice + size)
        })
        .collect()
}

/// The first move with the highest score.
fn likeliest(weighed: &[(NimMove, f64)]) -> Option<NimMove> {
    weighed
        .iter()
        .fold(
            None,
            |best: Option<(NimMove, f64)>, &(mv, score)| match best {
                Some((_, top)) if top >= score => best,
                _ => Some((mv, score)),
            },
        )
        .map(|(mv, _)| mv)
}

/// The output's likeliest reading of all, legal or not: the strongest pile unit (the first
/// of equals) and every size bit rounded at one half. The legal decoder plays it whenever
/// it is a legal move, and overrides it otherwise.
pub fn raw_reading(game: NetGame, output: &[f64]) -> (usize, u8) {
    let pile = (0..game.piles).fold(0, |best, i| if output[i] > output[best] { i } else { best });
    let left = output[game.piles..game.piles + PILE_BITS]
        .iter()
        .fold(0u8, |acc, &bit| (acc << 1) | u8::from(bit > 0.5));
    (pile, left)
}

/// The original program's reading: the most active pile unit, remaining bits above 0.75. `None`
/// when that is no legal move (an empty pile, or a size not below the pile's).
pub fn original_decode(game: NetGame, output: &[f64], piles: &Piles) -> Option<NimMove> {
    let pile = (0..game.piles).fold(0, |best, i| if output[i] > output[best] { i } else { best });
    let left = output[game.piles..]
        .iter()
        .fold(0u8, |acc, &bit| (acc << 1) | u8::from(bit >= 0.75));
    let size = piles.sizes()[pile];
    (left < size).then(|| NimMove {
        pile: pile as u8,
        take: size - left,
    })
}

/// A network in training, with its error curve kept across sessions.
#[derive(Debug, Clone)]
pub struct NetTrainer {
    /// The game.
    pub game: NetGame,
    /// The recipe.
    pub recipe: NetRecipe,
    /// The network.
    pub network: Network,
    /// Mean squared error of every epoch so far, across resumed sessions.
    pub errors: Vec<f64>,
    /// The seed everything random was drawn from.
    pub seed: u64,
    /// Epochs this run aims for: the recipe's, raised when training is continued.
    pub target: usize,
    samples: Arc<Samples>,
    order: Vec<usize>,
    rng: ChaCha8Rng,
}

/// A game's training samples: the network's input and target for every position.
type Samples = Vec<(Vec<f64>, Vec<f64>)>;

/// The samples of `game`, built once and shared by every trainer in the process that
/// trains on it while any does: they are a function of the game alone, 7 MB for the
/// original program's, and a served class of thirty (or thirty clients flooding keys)
/// held thirty copies.
fn shared_samples(game: NetGame) -> Arc<Samples> {
    static BUILT: Mutex<Vec<(NetGame, Weak<Samples>)>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    built.retain(|(_, samples)| samples.strong_count() > 0);
    if let Some(samples) = (built.iter())
        .find(|(of, _)| *of == game)
        .and_then(|(_, samples)| samples.upgrade())
    {
        return samples;
    }
    let samples: Arc<Samples> = Arc::new(
        dataset(game)
            .into_iter()
            .map(|(piles, mv)| (game.input(&piles), game.target(&piles, mv)))
            .collect(),
    );
    built.push((game, Arc::downgrade(&samples)));
    samples
}

impl NetTrainer {
    /// A fresh network; weights and sample order drawn from `seed`.
    pub fn new(game: NetGame, recipe: NetRecipe, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut sizes = vec![game.inputs()];
        sizes.extend(&recipe.hidden);
        sizes.push(game.outputs());
        let network = Network::new(&sizes, recipe.init_range, &mut rng);
        // The samples (7 MB for the original program's game) are built by the first epoch: a
        // network that only plays never needs them.
        let samples = Arc::default();
        let order = Vec::new();
        Self {
            game,
            target: recipe.epochs,
            recipe,
            network,
            errors: Vec::new(),
            seed,
            samples,
            order,
            rng,
        }
    }

    /// Epochs done.
    pub fn epochs(&self) -> usize {
        self.errors.len()
    }

    /// True once the run's target is reached (more can still be asked for).
    pub fn is_done(&self) -> bool {
        self.epochs() >= self.target
    }

    /// One more pass over the shuffled samples; returns its mean squared error.
    pub fn train_epoch(&mut self) -> f64 {
        if self.samples.is_empty() {
            self.samples = shared_samples(self.game);
            self.order = (0..self.samples.len()).collect();
        }
        self.order.shuffle(&mut self.rng);
        let error = self.network.train_epoch(
            &self.samples,
            &self.order,
            self.recipe.learning_rate,
            self.recipe.batch_size,
            self.recipe.loss,
        );
        self.errors.push(error);
        error
    }

    /// What to save; the sample order's generator is re-seeded from the seed and epoch count
    /// on resume, so a resumed run is reproducible too.
    pub fn saved(&self) -> SavedNet {
        SavedNet {
            game: self.game,
            recipe: self.recipe.clone(),
            seed: self.seed,
            errors: self.errors.clone(),
            network: self.network.clone(),
        }
    }

    /// Resumes a saved network.
    pub fn from_saved(saved: SavedNet) -> Self {
        let mut trainer = Self::new(saved.game, saved.recipe, saved.seed);
        trainer.network = saved.network;
        trainer.rng = ChaCha8Rng::seed_from_u64(saved.seed ^ saved.errors.len() as u64);
        trainer.errors = saved.errors;
        trainer.target = trainer.target.max(trainer.errors.len());
        trainer
    }
}

/// One epoch of the network on the background thread, measured there too (a measurement
/// runs every winning position through the network: about 0.1 s, too long for the loop).
impl Chunked for NetTrainer {
    type Report = (f64, Network, NetEvaluation);
    /// The learning rate of every later epoch (a person changed it while the run goes on).
    type Tuning = f64;

    fn is_done(&self) -> bool {
        NetTrainer::is_done(self)
    }

    fn train_chunk(&mut self) -> Self::Report {
        let error = self.train_epoch();
        let evaluation = evaluate(self.game, &self.network);
        (error, self.network.clone(), evaluation)
    }

    fn retune(&mut self, learning_rate: f64) {
        self.recipe.learning_rate = learning_rate;
    }
}

/// The file the network for `game` is kept in, e.g. `nim-net-normal-3x31.json`: one per
/// game, so changing the game never clobbers a network trained for another.
pub fn net_file(game: NetGame) -> String {
    let rule = match game.rule {
        Rule::Misere => "misere",
        Rule::Normal => "normal",
    };
    format!("nim-net-{rule}-{}x{}.json", game.piles, game.max_pile)
}
/// Its format name.
pub const NET_FORMAT: &str = "ai-arcade/nim-net";
/// Its format version.
pub const NET_VERSION: u32 = 1;

/// What is saved: enough to play, resume training and draw the error curve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedNet {
    /// The game.
    pub game: NetGame,
    /// The recipe.
    pub recipe: NetRecipe,
    /// The seed.
    pub seed: u64,
    /// The error curve.
    pub errors: Vec<f64>,
    /// The weights.
    pub network: Network,
}

impl SavedNet {
    /// Why this network cannot play `game`: another game, a recipe the config would refuse
    /// (checked with the config's own ranges), a damaged network, or an error curve no
    /// training writes.
    pub fn problem(&self, game: NetGame) -> Option<String> {
        self.check(game).err()
    }

    fn check(&self, game: NetGame) -> Result<(), String> {
        use crate::domain::learn::limits::{HIDDEN_LAYERS_ALLOWED, hidden_layers_allowed};
        use crate::domain::learn::{curve_allowed, field};
        if self.game != game {
            return Err(format!(
                "trained for {} piles up to {} under {} play, the config asks for {} piles up to {} under {} play",
                self.game.piles,
                self.game.max_pile,
                self.game.rule.name(),
                game.piles,
                game.max_pile,
                game.rule.name()
            ));
        }
        let recipe = &self.recipe;
        let hidden = format!("{:?}", recipe.hidden);
        field(
            hidden_layers_allowed(&recipe.hidden),
            "recipe.hidden",
            hidden,
            HIDDEN_LAYERS_ALLOWED,
        )?;
        super::network_recipe_fields(
            recipe.learning_rate,
            recipe.epochs,
            recipe.batch_size,
            recipe.init_range,
        )?;
        if let Some(why) = self.network.malformed() {
            return Err(format!("damaged network: {why}"));
        }
        let sizes = self.network.sizes();
        let mut expected = vec![game.inputs()];
        expected.extend(&recipe.hidden);
        expected.push(game.outputs());
        if sizes != expected {
            return Err(format!(
                "layers {sizes:?} do not fit the recipe {expected:?}"
            ));
        }
        if !curve_allowed(&self.errors) {
            return Err("the error curve holds numbers training never writes".into());
        }
        Ok(())
    }
}

/// The check a network file for `game` passes to be used, on load and before a save
/// replaces it; what it gives is the trainer to resume.
pub fn usable(game: NetGame) -> impl Fn(SavedNet) -> Result<NetTrainer, String> {
    move |saved| match saved.problem(game) {
        None => Ok(NetTrainer::from_saved(saved)),
        Some(why) => Err(why),
    }
}

/// How well a network plays, measured on every position with a winning move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetEvaluation {
    /// Positions with a winning move.
    pub winning_states: usize,
    /// Of those, answered with a winning move by the legal decoder (what the AI plays).
    pub winning_answers: usize,
    /// Of those, answered with a legal move by the legal decoder (all of them, by its
    /// construction; counted, not assumed).
    pub legal_answers: usize,
    /// Of those, answered with a winning move by the original program's decoder.
    pub original_winning_answers: usize,
    /// Of those, where the original program's decoder reads no legal move at all.
    pub original_illegal: usize,
}

impl NetEvaluation {
    /// The share of winning positions answered with a winning move.
    pub fn winning_accuracy(&self) -> f64 {
        self.winning_answers as f64 / self.winning_states.max(1) as f64
    }

    /// The share of winning positions answered with a legal move.
    pub fn legal_rate(&self) -> f64 {
        self.legal_answers as f64 / self.winning_states.max(1) as f64
    }

    /// The same for the original program's decoder.
    pub fn original_accuracy(&self) -> f64 {
        self.original_winning_answers as f64 / self.winning_states.max(1) as f64
    }

    /// The share of winning positions where the original program's decoder reads a legal move.
    pub fn original_legal_rate(&self) -> f64 {
        1.0 - self.original_illegal as f64 / self.winning_states.max(1) as f64
    }
}

/// Measures a network on every position of its game with a winning move.
pub fn evaluate(game: NetGame, network: &Network) -> NetEvaluation {
    let mut evaluation = NetEvaluation {
        winning_states: 0,
        winning_answers: 0,
        legal_answers: 0,
        original_winning_answers: 0,
        original_illegal: 0,
    };
    for piles in game.top().below() {
        if !solver::has_winning_move(&piles, game.rule) {
            continue;
        }
        evaluation.winning_states += 1;
        let output = network.output(&game.input(&piles));
        let wins = |mv: Option<NimMove>| {
            mv.is_some_and(|mv| solver::is_winning_move(&piles, game.rule, mv))
        };
        let answer = legal_decode(game, &output, &piles);
        if answer.is_some_and(|mv| piles.play(mv).is_ok()) {
            evaluation.legal_answers += 1;
        }
        if wins(answer) {
            evaluation.winning_answers += 1;
        }
        match original_decode(game, &output, &piles) {
            None => evaluation.original_illegal += 1,
            mv => evaluation.original_winning_answers += usize::from(wins(mv)),
        }
    }
    evaluation
}

/// Everything behind one network move: what the play pane shows.
#[derive(Debug, Clone, PartialEq)]
pub struct NetMove {
    /// The position.
    pub piles: Piles,
    /// All activations; the last layer holds the 9 outputs.
    pub activations: Activations,
    /// The move played (legal decoder).
    pub played: NimMove,
    /// Every legal move with the log-probability the legal decoder gave it, in move order.
    pub weighed: Vec<(NimMove, f64)>,
    /// The output's likeliest reading, legal or not: the pile (0-based) and the size left.
    pub raw: (usize, u8),
    /// The original decoder's reading (`None`: illegal).
    pub original_reading: Option<NimMove>,
    /// The solver's move (`None`: no winning move exists).
    pub solver: Option<NimMove>,
}

/// The network's move in `piles`, with its activations; `None` when the game is over.
pub fn choose(game: NetGame, network: &Network, piles: &Piles) -> Option<NetMove> {
    let activations = network.activations(&game.input(piles));
    let output = activations.output();
    let weighed = weigh(game, output, piles);
    Some(NetMove {
        piles: *piles,
        played: likeliest(&weighed)?,
        raw: raw_reading(game, output),
        weighed,
        original_reading: original_decode(game, output, piles),
        solver: solver::winning_moves(piles, game.rule).first().copied(),
        activations,
    })
}

#[cfg(test)]
mod shared_tests {
    use super::*;

    fn small(max_pile: u8) -> NetGame {
        // Two piles: a game no other test trains on, so the last trainer is known.
        NetGame {
            piles: 2,
            max_pile,
            rule: Rule::Normal,
        }
    }

    #[test]
    fn trainers_of_one_game_share_its_samples_while_one_holds_them() {
        let recipe = NetRecipe::original();
        let (mut first, mut second) = (
            NetTrainer::new(small(7), recipe.clone(), 1),
            NetTrainer::new(small(7), recipe.clone(), 2),
        );
        let mut other = NetTrainer::new(small(5), recipe, 3);
        first.train_epoch();
        second.train_epoch();
        other.train_epoch();
        assert!(Arc::ptr_eq(&first.samples, &second.samples));
        assert!(!Arc::ptr_eq(&first.samples, &other.samples));
        let kept = Arc::downgrade(&first.samples);
        drop((first, second));
        assert!(kept.upgrade().is_none(), "freed with the last trainer");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_original_encoding_has_18_inputs_and_9_outputs() {
        let game = NetGame::ORIGINAL;
        assert_eq!((game.inputs(), game.outputs()), (18, 9));
        let piles = Piles::new(&[15, 15, 14]).unwrap();
        let input = game.input(&piles);
        assert_eq!(&input[..6], [0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
        let mv = NimMove { pile: 2, take: 14 };
        assert_eq!(
            game.target(&piles, mv),
            [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        );
    }

    #[test]
    fn the_dataset_holds_every_position_with_a_winning_move() {
        let data = dataset(NetGame::ORIGINAL);
        // 32^3 positions, of which those with nim-sum 0 lose: 32^2 of them.
        assert_eq!(data.len(), 32 * 32 * 32 - 32 * 32);
        for (piles, mv) in data.iter().step_by(97) {
            assert!(solver::is_winning_move(piles, Rule::Normal, *mv));
        }
    }

    #[test]
    fn the_raw_reading_is_played_when_legal_and_overridden_when_not() {
        let game = NetGame::ORIGINAL;
        let piles = Piles::new(&[15, 15, 14]).unwrap();
        // Pile 3, bits 000101: 5 left of 14, legal: the legal decoder plays exactly it.
        let legal = [0.1, 0.2, 0.8, 0.1, 0.1, 0.1, 0.9, 0.2, 0.7];
        assert_eq!(raw_reading(game, &legal), (2, 5));
        assert_eq!(
            legal_decode(game, &legal, &piles),
            Some(NimMove { pile: 2, take: 9 })
        );
        // Bits 111111: 63 left, never legal; the decoder picks another move.
        let high = [0.9, 0.1, 0.1, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9];
        assert_eq!(raw_reading(game, &high), (0, 63));
        let chosen = legal_decode(game, &high, &piles).unwrap();
        assert!(piles.play(chosen).is_ok());
        let scores = weigh(game, &high, &piles);
        let best = scores
            .iter()
            .map(|&(_, s)| s)
            .fold(f64::NEG_INFINITY, f64::max);
        let score = scores.iter().find(|&&(mv, _)| mv == chosen).unwrap().1;
        assert!(score.total_cmp(&best).is_eq());
    }

    #[test]
    fn the_decoders_read_the_originals_example() {
        // The original program's printout at [15, 15, 14]: pile 2 (0-based), remaining 0.
        let game = NetGame::ORIGINAL;
        let piles = Piles::new(&[15, 15, 14]).unwrap();
        let output = [0.14, 0.13, 0.72, 0.0, 0.15, 0.41, 0.41, 0.45, 0.49];
        let mv = NimMove { pile: 2, take: 14 };
        assert_eq!(original_decode(game, &output, &piles), Some(mv));
        assert_eq!(legal_decode(game, &output, &piles), Some(mv));
        // Bits reading 63 left in a pile of 15: the original program's decoder has no move.
        let high = [0.9, 0.1, 0.1, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9];
        assert_eq!(original_decode(game, &high, &piles), None);
        let legal = legal_decode(game, &high, &piles).unwrap();
        assert!(piles.play(legal).is_ok());
    }
}
