//! The screens in the README are the snapshot tests' screens: each fenced `text` block that
//! follows a `<!-- snapshot: NAME -->` line must equal `tests/snapshots/NAME.snap` (trailing
//! blanks aside), and insta keeps the snapshot equal to what the binary draws. A README
//! screen that drifts from the program fails here.
//!
//! A tab's snapshot leaves out the tab bar (adding a tab then changes no tab's
//! snapshots); the README may show the bar above it, as a user sees the screen, and that
//! row must then name every tab's F-key, and no more (its titles shorten by which tab is
//! shown, which `ui`'s own tests cover).

use std::path::Path;

/// The screen held in an insta snapshot of a `TestBackend`: one quoted line per row.
fn snapshot_screen(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.snap"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let body = text.splitn(3, "---\n").nth(2).expect("an insta header");
    body.lines()
        .map(|line| {
            line.strip_prefix('"')
                .and_then(|l| l.strip_suffix('"'))
                .unwrap_or_else(|| panic!("{name}: not a screen row: {line:?}"))
                .trim_end()
                .to_string()
        })
        .collect()
}

/// Every `(snapshot name, screen lines)` the README shows.
fn readme_screens(readme: &str) -> Vec<(String, Vec<String>)> {
    let mut screens = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line
            .strip_prefix("<!-- snapshot: ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        assert_eq!(
            lines.next(),
            Some("```text"),
            "{name}: a ```text block follows"
        );
        let block: Vec<String> = lines
            .by_ref()
            .take_while(|l| *l != "```")
            .map(|l| l.trim_end().to_string())
            .collect();
        screens.push((name.to_string(), block));
    }
    screens
}

/// Whether a screen's first row is the tab bar.
fn is_a_tab_bar(row: Option<&String>) -> bool {
    row.is_some_and(|row| row.starts_with("F1 "))
}

#[test]
fn the_readme_screens_are_the_snapshot_screens() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let screens = readme_screens(&readme);
    assert!(!screens.is_empty(), "the README marks its screens");
    for (name, shown) in screens {
        let expected = snapshot_screen(&name);
        let shown = match shown.split_first() {
            // The README may add the tab bar above a tab's snapshot, never to a snapshot
            // that has one already.
            Some((bar, below))
                if below.len() == expected.len() && !is_a_tab_bar(expected.first()) =>
            {
                assert_is_the_tab_bar(&name, bar);
                below.to_vec()
            }
            _ => shown,
        };
        assert!(
            shown == expected,
            "README screen {name} differs from its snapshot; it should read:\n{}",
            expected.join("\n")
        );
    }
}

/// Panics unless `row` is a tab bar naming every tab's F-key and no other.
fn assert_is_the_tab_bar(name: &str, row: &str) {
    let tabs = ai_arcade::app::TabId::ALL.len();
    for n in 1..=tabs {
        assert!(
            row.contains(&format!("F{n} ")),
            "{name}: the bar lacks F{n}: {row}"
        );
    }
    assert!(
        !row.contains(&format!("F{} ", tabs + 1)),
        "{name}: the bar names a tab there is not: {row}"
    );
}

#[test]
fn a_drifted_screen_is_noticed() {
    let readme = "<!-- snapshot: x -->\n```text\nold line  \n```\n";
    let screens = readme_screens(readme);
    assert_eq!(
        screens,
        vec![("x".to_string(), vec!["old line".to_string()])]
    );
    assert_ne!(screens[0].1, vec!["new line".to_string()]);
}
