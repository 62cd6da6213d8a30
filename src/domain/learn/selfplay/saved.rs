//! The self-play learner as its file keeps it: the network, the settings it was trained
//! with, how far training went and the curve measured on the way. A file is checked on
//! load with the same ranges the settings have, so a hand-edited or foreign file is
//! refused with its reason instead of playing nonsense.

use super::learnable::Learnable;
use super::net::PolicyValueNet;
use super::settings::{Progress, SelfPlaySettings};
use crate::domain::learn::field;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// The format name in the file's envelope.
pub const SELFPLAY_FORMAT: &str = "ai-arcade self-play learner";
/// The format's version.
pub const SELFPLAY_VERSION: u32 = 1;

/// The file of the learner of `game` (`tictactoe`): one a game, so training one never
/// clobbers another.
pub fn learner_file(game: &str) -> String {
    format!("selfplay-{game}.json")
}

/// Simulations a move.
pub const SIMULATIONS_RANGE: RangeInclusive<u32> = 1..=100_000;
/// Moves of a game drawn by visits, and random opening moves.
pub const OPENING_RANGE: RangeInclusive<u32> = 0..=100;
/// Samples a batch.
pub const BATCH_RANGE: RangeInclusive<usize> = 1..=4_096;
/// Batches after each game.
pub const BATCHES_RANGE: RangeInclusive<u32> = 1..=1_000;
/// The replay buffer's samples.
pub const BUFFER_RANGE: RangeInclusive<usize> = 1..=2_000_000;
/// Hidden layers of the trunk.
pub const LAYERS_RANGE: RangeInclusive<usize> = 1..=4;
/// Units of one hidden layer.
pub const WIDTH_RANGE: RangeInclusive<usize> = 1..=512;

/// One measurement on the way: what training had done and how the learner played then.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Self-play games so far.
    pub games: u64,
    /// Seconds of training so far (measuring not counted).
    pub seconds: f64,
    /// The last batch's policy loss (cross-entropy against the visit shares).
    pub policy_loss: f32,
    /// The last batch's value loss (squared error against the target).
    pub value_loss: f32,
    /// Samples in the replay buffer.
    pub buffer: usize,
    /// Percent of the graded positions whose value the network's favourite move keeps.
    pub network_kept: f64,
    /// Percent whose value the move after the search keeps.
    pub searched_kept: f64,
    /// Where measured, its score in percent (a win 1, a draw ½) against fixed opponents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versus: Option<Versus>,
}

/// The learner's scores in percent (a win 1, a draw ½) against the fixed opponents.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Versus {
    /// With its search, against a player of random moves.
    pub random: f64,
    /// With its search, against plain MCTS of 1,000 random-rollout iterations.
    pub mcts: f64,
    /// The network alone, against depth-4 alpha-beta with the Connect Four heuristic.
    pub alphabeta: f64,
}

impl CurvePoint {
    /// The CSV header, in the order of [`CurvePoint::csv_row`].
    pub const CSV_HEADER: &'static str = "games,seconds,policy_loss,value_loss,buffer,\
                                          network_kept_percent,searched_kept_percent,\
                                          vs_random_percent,vs_mcts1000_percent,\
                                          network_vs_alphabeta4_percent";

    /// The point as a CSV row.
    pub fn csv_row(&self) -> String {
        let versus = self.versus.map_or_else(
            || ",,".to_string(),
            |v| format!("{:.1},{:.1},{:.1}", v.random, v.mcts, v.alphabeta),
        );
        format!(
            "{},{:.2},{:.5},{:.5},{},{:.2},{:.2},{versus}",
            self.games,
            self.seconds,
            self.policy_loss,
            self.value_loss,
            self.buffer,
            self.network_kept,
            self.searched_kept
        )
    }

    fn finite(&self) -> bool {
        self.seconds.is_finite()
            && self.seconds >= 0.0
            && self.policy_loss.is_finite()
            && self.value_loss.is_finite()
            && (0.0..=100.0).contains(&self.network_kept)
            && (0.0..=100.0).contains(&self.searched_kept)
            && self.versus.is_none_or(|v| {
                [v.random, v.mcts, v.alphabeta]
                    .iter()
                    .all(|share| (0.0..=100.0).contains(share))
            })
    }
}

/// A trained learner as its file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedLearner {
    /// The game's name (`tictactoe`): a file of another game is refused.
    pub game: String,
    /// The settings it trained with.
    pub settings: SelfPlaySettings,
    /// The network.
    pub net: PolicyValueNet,
    /// Games, moves and batches so far.
    pub games: u64,
    /// Moves played in them.
    pub moves: u64,
    /// Batches trained.
    pub batches: u64,
    /// Seconds of training so far.
    pub seconds: f64,
    /// What was measured on the way.
    pub curve: Vec<CurvePoint>,
}

impl SavedLearner {
    /// How far training went, as the trainer counts it.
    pub fn progress(&self) -> Progress {
        Progress {
            games: self.games,
            moves: self.moves,
            batches: self.batches,
            losses: self
                .curve
                .last()
                .map_or_else(Default::default, |p| super::net::Losses {
                    policy: p.policy_loss,
                    value: p.value_loss,
                }),
        }
    }
}

/// The check a file of `G`'s learner passes on load: its game, the network's shape for
/// `G`, the settings within their ranges, the curve's numbers finite.
///
/// # Errors
///
/// The first thing wrong, naming the field, the value and what is allowed.
pub fn usable<G: Learnable>(saved: SavedLearner) -> Result<SavedLearner, String> {
    if saved.game != G::NAME {
        return Err(format!(
            "it is the learner of {}, not of {}",
            saved.game,
            G::NAME
        ));
    }
    check_settings(&saved.settings)?;
    if let Some(why) = saved.net.malformed() {
        return Err(why);
    }
    field(
        saved.net.inputs() == G::INPUTS,
        "net inputs",
        saved.net.inputs(),
        &G::INPUTS.to_string(),
    )?;
    field(
        saved.net.moves() == G::MOVES,
        "net moves",
        saved.net.moves(),
        &G::MOVES.to_string(),
    )?;
    let widths: Vec<usize> = saved.net.trunk.iter().map(|layer| layer.outputs).collect();
    field(
        widths == saved.settings.widths,
        "net trunk",
        format!("{widths:?}"),
        &format!("the settings' widths {:?}", saved.settings.widths),
    )?;
    field(
        saved.seconds.is_finite() && saved.seconds >= 0.0,
        "seconds",
        saved.seconds,
        "0 or more",
    )?;
    field(
        saved.moves >= saved.games,
        "moves",
        saved.moves,
        "at least one a game",
    )?;
    field(
        saved.curve.iter().all(CurvePoint::finite),
        "curve",
        "a number",
        "finite losses and shares of 0 to 100",
    )?;
    Ok(saved)
}

/// Whether every setting is within its range.
///
/// # Errors
///
/// The first setting out of range, with its allowed values.
pub fn check_settings(s: &SelfPlaySettings) -> Result<(), String> {
    let within = |ok: bool, name: &str, value: String, allowed: &str| {
        field(ok, &format!("settings.{name}"), value, allowed)
    };
    within(
        SIMULATIONS_RANGE.contains(&s.simulations),
        "simulations",
        s.simulations.to_string(),
        &format!("{SIMULATIONS_RANGE:?}"),
    )?;
    within(
        s.c_puct > 0.0 && s.c_puct <= 100.0,
        "c_puct",
        s.c_puct.to_string(),
        "above 0, at most 100",
    )?;
    within(
        s.noise_alpha > 0.0 && s.noise_alpha <= 10.0,
        "noise_alpha",
        s.noise_alpha.to_string(),
        "above 0, at most 10",
    )?;
    within(
        (0.0..=1.0).contains(&s.noise_share),
        "noise_share",
        s.noise_share.to_string(),
        "0 to 1",
    )?;
    within(
        OPENING_RANGE.contains(&s.temperature_moves),
        "temperature_moves",
        s.temperature_moves.to_string(),
        &format!("{OPENING_RANGE:?}"),
    )?;
    within(
        s.learning_rate > 0.0 && s.learning_rate <= 1.0,
        "learning_rate",
        s.learning_rate.to_string(),
        "above 0, at most 1",
    )?;
    within(
        (0.0..1.0).contains(&s.weight_decay),
        "weight_decay",
        s.weight_decay.to_string(),
        "0 up to 1",
    )?;
    within(
        BATCH_RANGE.contains(&s.batch),
        "batch",
        s.batch.to_string(),
        &format!("{BATCH_RANGE:?}"),
    )?;
    within(
        BATCHES_RANGE.contains(&s.batches_per_game),
        "batches_per_game",
        s.batches_per_game.to_string(),
        &format!("{BATCHES_RANGE:?}"),
    )?;
    within(
        BUFFER_RANGE.contains(&s.buffer),
        "buffer",
        s.buffer.to_string(),
        &format!("{BUFFER_RANGE:?}"),
    )?;
    within(
        LAYERS_RANGE.contains(&s.widths.len()) && s.widths.iter().all(|w| WIDTH_RANGE.contains(w)),
        "widths",
        format!("{:?}", s.widths),
        &format!("{LAYERS_RANGE:?} layers of {WIDTH_RANGE:?} units"),
    )?;
    within(
        (0.0..=1.0).contains(&s.value_from_search),
        "value_from_search",
        s.value_from_search.to_string(),
        "0 to 1",
    )?;
    within(
        OPENING_RANGE.contains(&s.random_opening),
        "random_opening",
        s.random_opening.to_string(),
        &format!("{OPENING_RANGE:?}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::games::tictactoe::{Board, Mark};
    use crate::domain::learn::selfplay::trainer::Trainer;

    fn saved() -> SavedLearner {
        let settings = SelfPlaySettings {
            widths: vec![8],
            simulations: 4,
            ..SelfPlaySettings::tictactoe(1)
        };
        let mut trainer = Trainer::new(Board::empty(Mark::X), settings);
        trainer.step();
        trainer.saved(1.5, Vec::new())
    }

    #[test]
    fn a_saved_learner_round_trips_and_resumes_where_it_stopped() {
        let saved = saved();
        let text = serde_json::to_string(&saved).unwrap();
        let back: SavedLearner = serde_json::from_str(&text).unwrap();
        let back = usable::<Board>(back).unwrap();
        assert_eq!(back, saved);
        let resumed = Trainer::resume(Board::empty(Mark::X), back);
        assert_eq!(resumed.progress().games, 1);
        assert_eq!(resumed.net, saved.net);
    }

    #[test]
    fn a_file_out_of_range_is_refused_with_its_reason() {
        let mut wrong = saved();
        wrong.settings.c_puct = -1.0;
        let why = usable::<Board>(wrong).unwrap_err();
        assert!(why.contains("settings.c_puct -1"), "{why}");
        let mut wrong = saved();
        wrong.game = "chess".into();
        assert!(usable::<Board>(wrong).unwrap_err().contains("chess"));
        let mut wrong = saved();
        wrong.settings.widths = vec![9];
        let why = usable::<Board>(wrong).unwrap_err();
        assert!(why.contains("net trunk [8]"), "{why}");
        let mut wrong = saved();
        wrong.net.value.weights[0] = f32::NAN;
        assert!(usable::<Board>(wrong).is_err());
    }
}
