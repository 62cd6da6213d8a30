//! What a `bench` command prints: its findings as one JSON object, or as lines for people.

/// A bench's findings, as one JSON object or as text for people.
pub trait Printable {
    /// One JSON object.
    fn json(&self) -> serde_json::Value;
    /// Lines for people.
    fn text(&self) -> String;
}
