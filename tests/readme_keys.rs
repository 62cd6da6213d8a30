//! The README's key tables are the program's key tables. Each follows a marker line,
//! `<!-- keys: F4 -->` for a tab or `<!-- keys: everywhere -->` for the app's own keys, and
//! its first column names keys by the labels the help overlay shows, in backticks
//! (`` `1-9`, or click a cell ``). Every label the help shows for a tab must be in that tab's
//! tables, and every label a table names must be bound there: a key added, renamed or
//! dropped without its README row fails here.

use ai_arcade::app::keys::{GLOBAL, LESSON, STUDENT, TEACHER};
use ai_arcade::app::{App, TabId};
use ai_arcade::config::Config;
use ai_arcade::tabkit::keymap::Key;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Labels = BTreeSet<String>;

/// The README's name for the app's own keys (the help's "Everywhere", "Lesson", "Teacher").
const EVERYWHERE: &str = "everywhere";

/// Bound keys the README leaves out on purpose: (table, label, why). Keep it tiny.
const INTERNAL: &[(&str, &str, &str)] = &[];

/// The labels every README key table names, by marker: the backticked spans of each row's
/// first cell. A `| key |` table without a marker is refused, so none goes unchecked.
fn readme_tables(readme: &str) -> BTreeMap<String, Labels> {
    let mut tables: BTreeMap<String, Labels> = BTreeMap::new();
    let mut marker: Option<&str> = None;
    for line in readme.lines() {
        if let Some(name) = line
            .strip_prefix("<!-- keys: ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        {
            marker = Some(name.trim());
            continue;
        }
        let Some(cells) = line.strip_prefix('|') else {
            marker = None; // a table ends at its first line that is not a row
            continue;
        };
        let first = cells.split('|').next().unwrap_or("").trim();
        if first == "key" {
            assert!(marker.is_some(), "a README key table has no marker: {line}");
        } else if let Some(name) = marker.filter(|_| !first.starts_with("---")) {
            let labels = tables.entry(name.to_string()).or_default();
            labels.extend(first.split('`').skip(1).step_by(2).map(|l| l.trim().into()));
        }
    }
    tables
}

/// Every label the program binds, by README table name: the app's own groups under
/// [`EVERYWHERE`], each tab's help groups under its function key (`F1`..).
fn bound_tables() -> BTreeMap<String, Labels> {
    let app_groups = [GLOBAL, LESSON, TEACHER, STUDENT];
    let app_labels = app_groups.iter().flat_map(|g| g.bindings.iter());
    let mut tables = BTreeMap::from([(
        EVERYWHERE.to_string(),
        app_labels.map(|b| b.label.to_string()).collect(),
    )]);
    let mut config = Config::default();
    config.subtraction.autotrain = false;
    config.qlearning.autotrain = false;
    config.nim_net.autotrain = false;
    let mut app = App::new(&config, 1);
    for n in 1..=TabId::ALL.len() as u8 {
        app.handle_key(Key::F(n));
        let tab_groups = app.help_keys().into_iter();
        let labels = tab_groups
            .filter(|group| app_groups.iter().all(|g| g.title != group.title))
            .flat_map(|group| group.bindings.into_iter().map(|b| b.label().to_string()));
        tables.insert(format!("F{n}"), labels.collect());
    }
    tables
}

#[test]
fn the_readme_key_tables_are_the_bound_keys() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let documented = readme_tables(&std::fs::read_to_string(path).expect("README.md"));
    let bound = bound_tables();
    let mut problems = Vec::new();
    for name in documented.keys().filter(|name| !bound.contains_key(*name)) {
        problems.push(format!(
            "`<!-- keys: {name} -->` is no tab (F1.., {EVERYWHERE})"
        ));
    }
    for (name, keys) in &bound {
        let listed = documented.get(name).cloned().unwrap_or_default();
        let internal = |label: &&String| INTERNAL.iter().any(|i| i.0 == name && i.1 == *label);
        let missing: Vec<_> = keys.difference(&listed).filter(|l| !internal(l)).collect();
        let stale: Vec<_> = listed.difference(keys).collect();
        if !missing.is_empty() {
            problems.push(format!("{name}: bound, not in the README: {missing:?}"));
        }
        if !stale.is_empty() {
            problems.push(format!("{name}: in the README, not bound: {stale:?}"));
        }
    }
    let problems = problems.join("\n");
    assert!(
        problems.is_empty(),
        "README key tables drifted:\n{problems}"
    );
}

#[test]
fn a_table_s_labels_are_its_first_cells_backticked_spans() {
    let readme = "<!-- keys: F4 -->\n| key | does |\n| --- | --- |\n\
        | `1-9`, or click a cell | play `5` |\n| `+/-`, `G` | x |\n\n| `q` | after the table |\n";
    let labels: Vec<_> = readme_tables(readme)["F4"].iter().cloned().collect();
    assert_eq!(labels, ["+/-", "1-9", "G"]);
}
