//! The server's log. Each place that logs emits a `tracing` event: an `event` name
//! (`session start`, `refused key`, …), its fields, and sometimes a sentence (the event's
//! message). A subscriber of the server's own (`tracing-subscriber`'s fmt) renders it and
//! hands the line to the server's [`Log`]:
//!
//! - text: `2026-11-26T12:00:01Z session start: addr=192.0.2.7:50412 user="ada" sessions=3`,
//!   the UTC time, the name, the sentence if there is one, then each field as `key=value`;
//! - JSON (`--log-format json`): one object a line, `time`, `event`, a key for each field,
//!   and `message`, the text line without its time, so nothing the text says is lost.
//!
//! A field recorded as a string (`user = name`) is text a client chose: both formats quote
//! and escape it and cut it to [`LOG_FIELD_MAX`] characters, so it can neither forge a field
//! nor break or flood a line. Other values (`addr = %peer`, numbers) and the sentences are
//! the server's own; their control characters are escaped too, so every event is one line.
//!
//! Each server has its own subscriber, entered around its log calls (`Shared::log`), never
//! the process's global one: tests run several servers in one process, each with its log.

use super::shared::Log;
use crate::config::LogFormat;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::io;
use std::time::SystemTime;
use tracing::field::{Field, Visit};
use tracing::{Dispatch, Event, Subscriber};
use tracing_subscriber::field::RecordFields;
use tracing_subscriber::fmt::format::{FormatEvent, FormatFields, Writer};
use tracing_subscriber::fmt::time::FormatTime;
use tracing_subscriber::fmt::{FmtContext, MakeWriter};
use tracing_subscriber::registry::LookupSpan;

/// The most characters (once escaped) of a client-supplied field a log line shows.
pub const LOG_FIELD_MAX: usize = 64;

/// The subscriber that renders a server's events in `format` and gives each line, without
/// its line break, to `log`.
pub fn dispatch(format: LogFormat, log: Log) -> Dispatch {
    let builder = tracing_subscriber::fmt()
        .with_writer(Lines(log))
        .fmt_fields(Body);
    match format {
        LogFormat::Text => Dispatch::new(
            builder
                .compact()
                .with_timer(UtcSeconds)
                .with_target(false)
                .with_level(false)
                .finish(),
        ),
        LogFormat::Json => Dispatch::new(builder.event_format(Json).finish()),
    }
}

/// Where the subscriber writes: each event is formatted whole, then written at once, and
/// handed to the log as one line when its writer is dropped.
struct Lines(Log);

impl<'a> MakeWriter<'a> for Lines {
    type Writer = Line<'a>;

    fn make_writer(&'a self) -> Line<'a> {
        Line {
            log: &self.0,
            bytes: Vec::new(),
        }
    }
}

/// One event's line on its way to the log.
struct Line<'a> {
    log: &'a Log,
    bytes: Vec<u8>,
}

impl io::Write for Line<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Line<'_> {
    fn drop(&mut self) {
        if !self.bytes.is_empty() {
            let text = String::from_utf8_lossy(&self.bytes);
            (self.log)(text.trim_end_matches('\n'));
        }
    }
}

/// `2026-11-26T12:00:01Z`: the UTC time to the second, by `humantime`.
struct UtcSeconds;

impl FormatTime for UtcSeconds {
    fn format_time(&self, w: &mut Writer<'_>) -> fmt::Result {
        write!(
            w,
            "{}",
            humantime::format_rfc3339_seconds(SystemTime::now())
        )
    }
}

/// An event's fields as the text line shows them after its time:
/// `event: sentence key=value …`.
struct Body;

impl<'writer> FormatFields<'writer> for Body {
    fn format_fields<R: RecordFields>(
        &self,
        mut writer: Writer<'writer>,
        fields: R,
    ) -> fmt::Result {
        let mut text = Text::default();
        fields.record(&mut text);
        text.write(&mut writer)
    }
}

/// The parts of a text line, gathered field by field.
#[derive(Default)]
struct Text {
    event: String,
    sentence: String,
    fields: String,
}

impl Text {
    fn write(&self, out: &mut impl fmt::Write) -> fmt::Result {
        if !self.event.is_empty() {
            write!(out, "{}:", self.event)?;
        }
        if !self.sentence.is_empty() {
            write!(out, " {}", self.sentence)?;
        }
        out.write_str(&self.fields)
    }
}

impl Visit for Text {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "event" => self.event = one_line(value).into_owned(),
            "message" => self.sentence = one_line(value).into_owned(),
            name => {
                let _ = write!(self.fields, " {name}={:?}", cut(value));
            }
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let text = format!("{value:?}");
        match field.name() {
            "event" => self.event = one_line(&text).into_owned(),
            "message" => self.sentence = one_line(&text).into_owned(),
            name => {
                let _ = write!(self.fields, " {name}={}", one_line(&text));
            }
        }
    }
}

/// An event as one JSON object: `time`, `event`, its fields, and the text line as `message`.
struct Json;

impl<S, N> FormatEvent<S, N> for Json
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _context: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let mut fields = JsonFields::default();
        event.record(&mut fields);
        let mut text = Text::default();
        event.record(&mut text);
        let mut message = String::new();
        text.write(&mut message)?;
        let mut time = String::new();
        UtcSeconds.format_time(&mut Writer::new(&mut time))?;
        let mut object = fields.0;
        object.insert("time".into(), Value::String(time));
        object.insert("message".into(), Value::String(message));
        writeln!(writer, "{}", Value::Object(object))
    }
}

/// An event's fields as JSON values: numbers stay numbers, a client's text is cut.
#[derive(Default)]
struct JsonFields(Map<String, Value>);

impl JsonFields {
    fn insert(&mut self, field: &Field, value: Value) {
        if field.name() != "message" {
            self.0.insert(field.name().to_string(), value);
        }
    }
}

impl Visit for JsonFields {
    fn record_str(&mut self, field: &Field, value: &str) {
        let value = if field.name() == "event" {
            Cow::Borrowed(value)
        } else {
            cut(value)
        };
        self.insert(field, Value::String(value.into_owned()));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.insert(field, value.into());
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.insert(field, value.into());
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.insert(field, value.into());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.insert(field, value.into());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.insert(field, Value::String(format!("{value:?}")));
    }
}

/// A client's text as a log shows it: at most [`LOG_FIELD_MAX`] characters once escaped,
/// and, when cut, how many bytes it had, so it cannot flood a line.
fn cut(text: &str) -> Cow<'_, str> {
    let mut shown = 0;
    for (at, c) in text.char_indices() {
        shown += c.escape_debug().count();
        if shown > LOG_FIELD_MAX {
            return Cow::Owned(format!("{}...({} bytes)", &text[..at], text.len()));
        }
    }
    Cow::Borrowed(text)
}

/// `text` with its control characters escaped (`\n`, `\u{1b}`): the server's own text
/// (a path, an error) stays on its line too.
fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::{Arc, Mutex};
    use tracing::info;

    /// The lines a subscriber in `format` wrote for what `emit` logged.
    fn logged(format: LogFormat, emit: impl FnOnce()) -> Vec<String> {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let log: Log = Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string()));
        tracing::dispatcher::with_default(&dispatch(format, log), emit);
        lines.lock().unwrap().clone()
    }

    /// The line without its time stamp, checked to be one.
    fn untimed(line: &str) -> &str {
        let (time, rest) = line.split_once(' ').unwrap();
        assert!(is_time(time), "{line}");
        rest
    }

    fn is_time(text: &str) -> bool {
        humantime::parse_rfc3339(text).is_ok() && text.len() == 20 && text.ends_with('Z')
    }

    fn session_start() {
        info!(
            event = "session start",
            addr = %"192.0.2.7:50412",
            user = "ada",
            term = "xterm-256color",
            size = %format_args!("{}x{}", 80, 24),
            sessions = 3_u64,
        );
    }

    #[test]
    fn a_text_line_is_the_time_the_event_and_its_fields() {
        let lines = logged(LogFormat::Text, session_start);
        assert_eq!(lines.len(), 1);
        assert_eq!(
            untimed(&lines[0]),
            r#"session start: addr=192.0.2.7:50412 user="ada" term="xterm-256color" size=80x24 sessions=3"#
        );
        let lines = logged(LogFormat::Text, || {
            info!(event = "refused name", addr = %"10.0.0.1:1", user = "x", "{}", "too long");
        });
        assert_eq!(
            untimed(&lines[0]),
            r#"refused name: too long addr=10.0.0.1:1 user="x""#
        );
    }

    #[test]
    fn a_json_line_is_one_object_with_the_fields_and_the_text_as_message() {
        let lines = logged(LogFormat::Json, session_start);
        assert_eq!(lines.len(), 1);
        let mut value: Value = serde_json::from_str(&lines[0]).unwrap();
        assert!(is_time(value["time"].as_str().unwrap()), "{value}");
        value.as_object_mut().unwrap().remove("time");
        assert_eq!(
            value,
            json!({
                "event": "session start",
                "addr": "192.0.2.7:50412",
                "user": "ada",
                "term": "xterm-256color",
                "size": "80x24",
                "sessions": 3,
                "message": r#"session start: addr=192.0.2.7:50412 user="ada" term="xterm-256color" size=80x24 sessions=3"#,
            })
        );
    }

    #[test]
    fn a_hostile_name_stays_in_its_field_and_on_one_line() {
        let hostile = "x\" event=\"forged\"\n{\"event\":\"forged\"}\r\x1b[2J";
        let emit = || info!(event = "refused key", user = hostile, key = %"SHA256:abc");
        let text = logged(LogFormat::Text, emit);
        assert_eq!(text.len(), 1);
        assert_eq!(
            untimed(&text[0]),
            r#"refused key: user="x\" event=\"forged\"\n{\"event\":\"forged\"}\r\u{1b}[2J" key=SHA256:abc"#
        );
        let json = logged(LogFormat::Json, emit);
        assert_eq!(json.len(), 1);
        assert!(!json[0].contains(['\n', '\r', '\x1b']), "{}", json[0]);
        let value: Value = serde_json::from_str(&json[0]).unwrap();
        assert_eq!(value["event"], "refused key");
        assert_eq!(value["user"], hostile);
        assert_eq!(value["key"], "SHA256:abc");
    }

    #[test]
    fn a_long_client_field_is_cut_and_says_how_long_it_was() {
        let long = "u".repeat(10_000);
        let text = logged(LogFormat::Text, || {
            info!(event = "login", user = long.as_str());
        });
        let shown = format!("user=\"{}...(10000 bytes)\"", "u".repeat(LOG_FIELD_MAX));
        assert!(text[0].ends_with(&shown), "{}", text[0]);
        let escapes = "\x1b".repeat(1_000);
        let text = logged(LogFormat::Text, || {
            info!(event = "x", term = escapes.as_str());
        });
        assert!(text[0].len() < 150, "{}", text[0]);
        let json = logged(LogFormat::Json, || {
            info!(event = "login", user = long.as_str());
        });
        let value: Value = serde_json::from_str(&json[0]).unwrap();
        assert_eq!(
            value["user"],
            format!("{}...(10000 bytes)", "u".repeat(LOG_FIELD_MAX))
        );
    }

    #[test]
    fn the_server_s_own_text_stays_on_one_line_too() {
        let why = "lesson.toml: line 2\n  expected a table\x07";
        let text = logged(LogFormat::Text, || {
            info!(event = "reload refused", file = %"a\nb", "{why}");
        });
        assert_eq!(
            untimed(&text[0]),
            r"reload refused: lesson.toml: line 2\n  expected a table\u{7} file=a\nb"
        );
    }

    #[test]
    fn each_server_s_events_go_to_its_own_log_only() {
        let (first, second) = (Arc::new(Mutex::new(0)), Arc::new(Mutex::new(0)));
        let counter = |count: &Arc<Mutex<usize>>| -> Log {
            let count = Arc::clone(count);
            Arc::new(move |_: &str| *count.lock().unwrap() += 1)
        };
        let a = dispatch(LogFormat::Text, counter(&first));
        let b = dispatch(LogFormat::Json, counter(&second));
        let threads: Vec<_> = [(a, 3), (b, 5)]
            .into_iter()
            .map(|(dispatch, events)| {
                std::thread::spawn(move || {
                    for _ in 0..events {
                        tracing::dispatcher::with_default(&dispatch, || info!(event = "x"));
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        info!(event = "outside any server");
        assert_eq!((*first.lock().unwrap(), *second.lock().unwrap()), (3, 5));
    }
}
