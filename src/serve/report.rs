//! What a `bench` command prints: its findings as one JSON object, or as lines for people.

/// A bench's findings, as one JSON object or as text for people.
pub trait Printable {
    /// One JSON object.
    fn json(&self) -> serde_json::Value;
    /// Lines for people.
    fn text(&self) -> String;
}

/// The median and the largest of a run's login times, as the login benches report them.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoginTimes {
    /// The median, if any login was timed.
    pub median: Option<std::time::Duration>,
    /// The largest.
    pub max: Option<std::time::Duration>,
}

impl LoginTimes {
    /// The median and largest of `times`.
    pub fn of(times: &[std::time::Duration]) -> Self {
        let mut sorted = times.to_vec();
        sorted.sort();
        Self {
            median: sorted.get(sorted.len() / 2).copied(),
            max: sorted.last().copied(),
        }
    }
}

/// `time` in milliseconds with two decimals, for JSON.
pub fn json_ms(time: Option<std::time::Duration>) -> Option<f64> {
    time.map(|d| (d.as_secs_f64() * 1e5).round() / 100.0)
}

/// `time` in whole milliseconds for people ("45 ms"), or "-".
pub fn text_ms(time: Option<std::time::Duration>) -> String {
    time.map_or("-".into(), |d| {
        format!("{:.0} ms", d.as_secs_f64() * 1000.0)
    })
}
