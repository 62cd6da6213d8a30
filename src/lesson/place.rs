//! Where in a lesson file a mistake is: its line and the dotted path of its key, read from
//! the spans toml keeps for every key and value (`toml::de::DeTable`), so a refusal points
//! at the line the teacher wrote, not at a copy of the file made on the way.

use super::error::LessonError;
use crate::config::quote_key;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// One step of a path into the file: a key, or the n-th item (0-based) of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seg<'a> {
    /// A key of a table.
    Key(&'a str),
    /// An item of an array: a `[[step]]`, a key of `locked`.
    Item(usize),
}

/// A lesson's text and its parsed tree, spans kept, for naming the place of a mistake.
pub(super) struct Places<'t> {
    origin: &'t str,
    text: &'t str,
    root: Spanned<DeTable<'t>>,
}

impl<'t> Places<'t> {
    /// Parses `text`; a syntax error is refused with its line and the key written there.
    pub(super) fn parse(text: &'t str, origin: &'t str) -> Result<Self, LessonError> {
        match DeTable::parse(text) {
            Ok(root) => Ok(Self { origin, text, root }),
            Err(err) => {
                let at = err.span().map_or(0, |span| span.start);
                let line = line_at(text, at);
                Err(LessonError::Invalid {
                    origin: origin.to_owned(),
                    line: Some(line),
                    key: key_on_line(text, line),
                    reason: format!("not TOML: {}", err.message().trim_end()),
                })
            }
        }
    }

    /// What messages call the file.
    pub(super) fn origin(&self) -> &str {
        self.origin
    }

    /// The parsed tree, spans kept.
    pub(super) fn root(&self) -> &Spanned<DeTable<'t>> {
        &self.root
    }

    /// The refusal `reason` for `key`, at the line `path` leads to (the nearest line the
    /// file has on the way when the path goes further than the file).
    pub(super) fn invalid(&self, key: &str, path: &[Seg<'_>], reason: String) -> LessonError {
        LessonError::Invalid {
            origin: self.origin.to_owned(),
            line: self
                .span_of(path)
                .map(|span| line_at(self.text, span.start)),
            key: key.to_owned(),
            reason,
        }
    }

    /// A refusal of serde's (a wrong type, an unknown key, a missing one), at its span.
    pub(super) fn refused(&self, err: &toml::de::Error) -> LessonError {
        let message = err.message().trim_end();
        let span = err.span().filter(|span| !span.is_empty());
        let mut key = span
            .as_ref()
            .and_then(|span| key_path_at(self.root.get_ref(), span.start));
        if let Some(field) = missing_field(message) {
            key = Some(match key {
                Some(table) => format!("{table}.{field}"),
                None => field.to_owned(),
            });
        }
        let line = span.map_or(1, |span| line_at(self.text, span.start));
        LessonError::Invalid {
            origin: self.origin.to_owned(),
            line: Some(line),
            key: key.unwrap_or_else(|| key_on_line(self.text, line)),
            reason: message.to_owned(),
        }
    }

    /// The span of the key `path` names, or of the nearest table on its way that the file
    /// writes; `None` when not even its first key is in the file.
    fn span_of(&self, path: &[Seg<'_>]) -> Option<Range<usize>> {
        let mut found = None;
        // `None`: the file's top table.
        let mut here: Option<&DeValue<'_>> = None;
        for seg in path {
            let next = match (*seg, here) {
                (Seg::Key(name), None) => written(self.root.get_ref(), name),
                (Seg::Key(name), Some(DeValue::Table(table))) => written(table, name),
                (Seg::Item(at), Some(DeValue::Array(items))) => {
                    items.get(at).map(|item| (item.span(), item.get_ref()))
                }
                _ => None,
            };
            let Some((span, value)) = next else { break };
            // An empty span is a table no header opens (`[a.b]` makes `a` so): keep the
            // line found so far.
            if !span.is_empty() {
                found = Some(span);
            }
            here = Some(value);
        }
        found
    }
}

/// Where `name` is written in `table` (a table's header, or `name = value`) and its value.
fn written<'a, 'i>(table: &'a DeTable<'i>, name: &str) -> Option<(Range<usize>, &'a DeValue<'i>)> {
    table
        .get_key_value(name)
        .map(|(key, value)| (key.span(), value.get_ref()))
}

/// The line (1-based) of byte `at` of `text`.
pub(super) fn line_at(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    text.get(..at).unwrap_or(text).matches('\n').count() + 1
}

/// The dotted path of the deepest key or item covering byte `at`; items are numbered from
/// 1, as the lesson's messages number steps (`step.3.text`).
fn key_path_at(table: &DeTable<'_>, at: usize) -> Option<String> {
    let mut path = Vec::new();
    in_table(table, at, &mut path).then(|| path.join("."))
}

fn in_table(table: &DeTable<'_>, at: usize, path: &mut Vec<String>) -> bool {
    for (key, value) in table {
        path.push(quote_key(key.get_ref()));
        if in_value(value.get_ref(), at, path)
            || key.span().contains(&at)
            || value.span().contains(&at)
        {
            return true;
        }
        path.pop();
    }
    false
}

fn in_value(value: &DeValue<'_>, at: usize, path: &mut Vec<String>) -> bool {
    match value {
        DeValue::Table(inner) => in_table(inner, at, path),
        // A table of an array (a `[[step]]`) is numbered from 1; a value in an array
        // (`locked`, `tabs`) is the array's key.
        DeValue::Array(items) => items
            .iter()
            .enumerate()
            .any(|(i, item)| match item.get_ref() {
                DeValue::Table(inner) => {
                    path.push((i + 1).to_string());
                    let found = in_table(inner, at, path) || item.span().contains(&at);
                    if !found {
                        path.pop();
                    }
                    found
                }
                other => in_value(other, at, path) || item.span().contains(&at),
            }),
        _ => false,
    }
}

/// The field serde says is missing: `title` in ``missing field `title` ``.
fn missing_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("missing field `")?;
    Some(&rest[..rest.find('`')?])
}

/// The key written on `line` of a file that does not parse, read from the text itself: the
/// table of the last header above it (`[[step]]` counted) and the name before its `=`, or
/// the header itself.
fn key_on_line(text: &str, line: usize) -> String {
    let mut table = String::new();
    let mut items: Vec<(String, usize)> = Vec::new();
    for (number, written) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if number > line {
            break;
        }
        if let Some(header) = written.strip_prefix('[') {
            let array = header.starts_with('[');
            let name = header
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or_default()
                .trim()
                .to_owned();
            table = if array {
                let count =
                    if let Some((_, count)) = items.iter_mut().find(|(seen, _)| *seen == name) {
                        *count += 1;
                        *count
                    } else {
                        items.push((name.clone(), 1));
                        1
                    };
                format!("{name}.{count}")
            } else {
                name
            };
            if number == line {
                return table;
            }
        } else if number == line
            && let Some((name, _)) = written.split_once('=')
        {
            let name = name.trim();
            return match (table.is_empty(), name.is_empty()) {
                (_, true) => table,
                (true, false) => name.to_owned(),
                (false, false) => format!("{table}.{name}"),
            };
        }
    }
    if table.is_empty() {
        "(the file's top)".to_owned()
    } else {
        table
    }
}
