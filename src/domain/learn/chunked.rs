//! The contract between a learner and whatever trains it in the background: train one chunk,
//! say what changed, say when the run is over. The learners implement it next to their
//! trainers; `tabkit::background` runs any of them on a thread without knowing which.

/// A learner that trains in chunks, so a caller can show progress after each and stop
/// between two.
pub trait Chunked: Send + 'static {
    /// What one chunk reports (the new losses, a copy of the weights, ...).
    type Report: Send + 'static;
    /// What the owner may change in a run between two chunks (the learning rate); `()` for
    /// a learner with nothing to change while it trains.
    type Tuning: Send + 'static;
    /// True when the run has reached its end.
    fn is_done(&self) -> bool;
    /// Trains one chunk and says what changed.
    fn train_chunk(&mut self) -> Self::Report;
    /// Takes in the owner's latest tuning before the next chunk.
    fn retune(&mut self, _tuning: Self::Tuning) {}
}
