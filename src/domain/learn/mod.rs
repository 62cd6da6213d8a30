//! Learners: deterministic given a seed, trained incrementally so a caller can show progress
//! and stop. No I/O and no terminal here.

pub mod chunked;
pub mod limits;
pub mod network;
pub mod nim_net;
pub mod predict_graph;
pub mod predict_q;
pub mod qlearning;
pub mod selfplay;
pub mod state_graph;
pub mod subtraction;

pub use chunked::Chunked;

/// The check every model file field goes through on load: `Err` naming the field, the value
/// found and what is allowed (the config's own wording, for settings the config has too).
pub(crate) fn field(
    ok: bool,
    name: &str,
    value: impl std::fmt::Display,
    allowed: &str,
) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{name} {value} is out of range (allowed: {allowed})"
        ))
    }
}

/// The checks both networks' saved recipes share: learning rate, epochs, batch size and the
/// initial weight range, with the config's own ranges.
pub(crate) fn network_recipe_fields(
    learning_rate: f64,
    epochs: usize,
    batch_size: usize,
    init_range: f64,
) -> Result<(), String> {
    use crate::domain::learn::limits::{
        BATCH_RANGE, EPOCHS_RANGE, LEARNING_RATE_ALLOWED, learning_rate_allowed,
    };
    field(
        learning_rate_allowed(learning_rate),
        "recipe.learning_rate",
        learning_rate,
        LEARNING_RATE_ALLOWED,
    )?;
    field(
        EPOCHS_RANGE.contains(&epochs),
        "recipe.epochs",
        epochs,
        &format!("{EPOCHS_RANGE:?}"),
    )?;
    field(
        BATCH_RANGE.contains(&batch_size),
        "recipe.batch_size",
        batch_size,
        &format!("{BATCH_RANGE:?}"),
    )?;
    field(
        init_range_allowed(init_range),
        "recipe.init_range",
        init_range,
        INIT_RANGE_ALLOWED,
    )
}

/// Allowed ranges of initial weights, `±init_range`: what a recipe may say.
pub const INIT_RANGE_ALLOWED: &str = "0 to 10";

/// Whether an initial weight range is one a recipe may have.
pub fn init_range_allowed(range: f64) -> bool {
    (0.0..=10.0).contains(&range)
}

/// Whether every number of a loss or error curve is one training writes (finite, not
/// negative).
pub fn curve_allowed(curve: &[f64]) -> bool {
    curve.iter().all(|v| v.is_finite() && *v >= 0.0)
}
