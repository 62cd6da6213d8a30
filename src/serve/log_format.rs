//! `--log-format json`: the server's log lines as one JSON object per line, for a log
//! collector. Every line the server writes has one shape, `TIME event: key=value … (note)`,
//! with client-supplied values quoted and escaped (see `session::quoted`), so the object is
//! read off the line: `time`, `event`, each `key=value` as a field, and the whole sentence as
//! `message`, so nothing the text said is lost.

use crate::config::LogFormat;
use serde_json::{Map, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// A log line as `format` writes it. `line` starts with its UTC time stamp, as
/// `Shared::log` stamps it, or is a banner line (`ai-arcade: …`) with none.
pub fn render(format: LogFormat, line: &str) -> String {
    match format {
        LogFormat::Text => line.to_string(),
        LogFormat::Json => json(line),
    }
}

/// The line as one JSON object.
fn json(line: &str) -> String {
    let mut object = Map::new();
    let (time, text) = match line.split_once(' ') {
        Some((stamp, rest)) if is_time_stamp(stamp) => (stamp.to_string(), rest),
        _ => (utc_timestamp(SystemTime::now()), line),
    };
    object.insert("time".into(), Value::String(time));
    let text = text.strip_prefix("ai-arcade: ").unwrap_or(text);
    let event = match text.split_once(": ") {
        // The banner and the shutdown line speak for the server as a whole.
        _ if line.starts_with("ai-arcade: ") => "server",
        Some((event, _)) if is_event(event) => event,
        _ => "note",
    };
    object.insert("event".into(), Value::String(event.to_string()));
    for (key, value) in fields(text) {
        if !matches!(key.as_str(), "time" | "event" | "message") {
            object.entry(key).or_insert(Value::String(value));
        }
    }
    object.insert("message".into(), Value::String(text.to_string()));
    Value::Object(object).to_string()
}

/// `2026-11-21T11:20:05Z`: the UTC time of `at`, to the second.
pub fn utc_timestamp(at: SystemTime) -> String {
    let secs = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// `2026-11-26T12:00:00Z` and the like.
fn is_time_stamp(word: &str) -> bool {
    word.len() >= 20 && word.ends_with('Z') && word.as_bytes()[4] == b'-' && word.contains('T')
}

/// An event's name: a few plain words (`session start`, `refused class code`).
fn is_event(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 48
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | ','))
}

/// Every `key=value` in `text`: a key of lowercase letters and `_` at the start of a word,
/// a value up to the next space, or a quoted one up to its closing quote (its escapes
/// kept, but `\"` and `\\`). A quoted span that is not a value is skipped whole, so text a
/// client chose (always quoted) can never read as a field of its own.
fn fields(text: &str) -> Vec<(String, String)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if bytes[i] == b'"' {
            i = after_quoted(text, i);
            continue;
        }
        if (i == 0 || bytes[i - 1] == b' ')
            && let Some((key, value, end)) = field_at(text, i)
        {
            found.push((key, value));
            i = end;
            continue;
        }
        i += text[i..].chars().next().map_or(1, char::len_utf8);
    }
    found
}

/// The `key=value` starting at byte `i`, and where it ends.
fn field_at(text: &str, i: usize) -> Option<(String, String, usize)> {
    let bytes = text.as_bytes();
    let key_length = bytes[i..]
        .iter()
        .take_while(|b| b.is_ascii_lowercase() || **b == b'_')
        .count();
    if key_length == 0 || bytes.get(i + key_length) != Some(&b'=') {
        return None;
    }
    let key = text[i..i + key_length].to_string();
    let start = i + key_length + 1;
    if bytes.get(start) == Some(&b'"') {
        let end = after_quoted(text, start);
        let inner_end = if end > start + 1 && bytes[end - 1] == b'"' {
            end - 1
        } else {
            end
        };
        return Some((key, unescape(&text[start + 1..inner_end]), end));
    }
    let end = text[start..].find(' ').map_or(text.len(), |p| start + p);
    let value = text[start..end].trim_end_matches([',', ';']).to_string();
    Some((key, value, end))
}

/// Where the quoted span starting at byte `start` (a `"`) ends: just past its closing
/// quote (one not escaped), or the end of the text.
fn after_quoted(text: &str, start: usize) -> usize {
    let mut escaped = false;
    for (offset, c) in text[start + 1..].char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return start + 1 + offset + 1,
            _ => escaped = false,
        }
    }
    text.len()
}

fn unescape(text: &str) -> String {
    text.replace("\\\"", "\"").replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(line: &str) -> Value {
        serde_json::from_str(&render(LogFormat::Json, line)).unwrap()
    }

    #[test]
    fn a_session_line_becomes_its_fields() {
        let line = "2026-11-26T12:00:01Z session start: addr=192.0.2.7:50412 user=\"ada\" via key term=\"xterm-256color\" size=80x24 sessions=3";
        assert_eq!(
            parsed(line),
            json!({
                "time": "2026-11-26T12:00:01Z",
                "event": "session start",
                "addr": "192.0.2.7:50412",
                "user": "ada",
                "term": "xterm-256color",
                "size": "80x24",
                "sessions": "3",
                "message": line.split_once(' ').unwrap().1,
            })
        );
    }

    #[test]
    fn hostile_names_stay_inside_their_field() {
        let line = r#"2026-11-26T12:00:01Z refused key: addr=10.0.0.1:1 user="x\" event=\"forged\\" key=SHA256:abc"#;
        let value = parsed(line);
        assert_eq!(value["event"], "refused key");
        assert_eq!(value["user"], r#"x" event="forged\"#);
        assert_eq!(value["key"], "SHA256:abc");
        assert_eq!(render(LogFormat::Json, line).lines().count(), 1);
    }

    #[test]
    fn quoted_client_text_cannot_make_a_field_or_break_the_reader() {
        let line = r#"2026-11-26T12:00:01Z refused forwarding to " addr=6.6.6.6:22": addr=10.0.0.1:1 user="é=x""#;
        let value = parsed(line);
        assert_eq!(value["addr"], "10.0.0.1:1");
        assert_eq!(value["user"], "é=x");
        for hostile in ["é=x", "\u{fffd}=x", "ü", "éa=b", "\"é\\\" addr=6\""] {
            let line = format!("2026-11-26T12:00:01Z note: {hostile} addr=1.2.3.4:5 {hostile}");
            assert_eq!(parsed(&line)["addr"], "1.2.3.4:5", "{line}");
        }
    }

    #[test]
    fn banner_and_plain_lines_have_an_event_too() {
        let banner = parsed("ai-arcade: serving on 127.0.0.1:2222");
        assert_eq!(banner["event"], "server");
        assert_eq!(banner["message"], "serving on 127.0.0.1:2222");
        let proxied = parsed("ai-arcade: PROXY protocol: connections only from 10.0.0.0/8");
        assert_eq!(proxied["event"], "server");
        let note = parsed("2026-11-26T12:00:01Z the other 3 refusals were not logged");
        assert_eq!(note["event"], "note");
        assert_eq!(note["time"], "2026-11-26T12:00:01Z");
    }

    #[test]
    fn text_is_left_as_it_is() {
        let line = "2026-11-26T12:00:01Z session end: addr=1.2.3.4:5 reason=\"quit\"";
        assert_eq!(render(LogFormat::Text, line), line);
    }
}
