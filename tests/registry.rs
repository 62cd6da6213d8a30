//! Every tab the registry lists is whole: it has keys, a help, a legend of its glyphs, its
//! own sections in `config/default.toml`, and a snapshot of its first screen at 80x24. A tab
//! added to the registry without one of these fails here (see ARCHITECTURE.md, "Adding a
//! tab").

use ai_arcade::app::{Action, App, TabId};
use ai_arcade::config::{Config, DEFAULT_TOML};
use ai_arcade::tabkit::keymap::{Command, Group, Key, settings_key, why_key};
use ai_arcade::tabs::Tabs;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::collections::BTreeSet;

/// The arcade opened on `tab`, with nothing that trains by itself on a first view (so the
/// first screen does not depend on a thread's timing).
fn opened_on(tab: TabId) -> App {
    let mut config = Config::default();
    config.ui.start_tab = tab;
    config.subtraction.autotrain = false;
    App::new(&config, 7)
}

fn screen(app: &App) -> String {
    let area = Rect::new(0, 0, 80, 24);
    let mut buf = Buffer::empty(area);
    ai_arcade::ui::render_app(app, area, &mut buf);
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_registry_lists_each_tab_once_with_its_own_f_key() {
    assert!(!TabId::ALL.is_empty());
    let titles: BTreeSet<_> = TabId::ALL.iter().map(|t| t.title()).collect();
    assert_eq!(titles.len(), TabId::ALL.len(), "titles repeat");
    for (index, &tab) in TabId::ALL.iter().enumerate() {
        assert_eq!(tab.index(), index);
        let n = u8::try_from(index + 1).unwrap();
        assert_eq!(TabId::from_number(n), Some(tab));
        let mut app = opened_on(TabId::ALL[(index + 1) % TabId::ALL.len()]);
        app.handle_key(ai_arcade::tabkit::keymap::Key::F(n));
        assert_eq!(app.tab, tab, "F{n}");
    }
    let past = u8::try_from(TabId::ALL.len() + 1).unwrap();
    assert_eq!(TabId::from_number(past), None);
    assert_eq!(TabId::F_KEYS.len(), TabId::ALL.len());
    assert_eq!(TabId::F_KEYS_LABEL, format!("F1-F{}", TabId::ALL.len()));
}

/// Regression: with a sixth tab, State Graph shown kept its whole title and the bar ran
/// past 80 columns, cutting the last tab to "F6 Self-pl". Every F-key keeps a whole word.
#[test]
fn the_tab_bar_keeps_every_tab_whole_at_80_columns_whichever_is_shown() {
    for &shown in TabId::ALL {
        let bar = screen(&opened_on(shown))
            .lines()
            .next()
            .unwrap()
            .to_string();
        for &tab in TabId::ALL {
            let first_word = tab.title().split(' ').next().unwrap();
            let label = format!("F{} {first_word}", tab.index() + 1);
            let at = bar
                .find(&label)
                .unwrap_or_else(|| panic!("{shown:?}: {label} in {bar:?}"));
            let after = bar[at + label.len()..].chars().next();
            assert!(
                matches!(after, None | Some(' ')),
                "{shown:?}: {label} is cut in {bar:?}"
            );
        }
    }
}

#[test]
fn every_tab_has_keys_and_a_help_that_lists_them() {
    let mut too_wide = Vec::new();
    for &tab in TabId::ALL {
        let app = opened_on(tab);
        let keys: Vec<Group<Action>> = app.tabs.keys(tab);
        let help: Vec<Group<Action>> = app.tabs.help_keys(tab);
        assert!(
            keys.iter().any(|g| !g.bindings.is_empty()),
            "{tab:?}: no keys"
        );
        assert!(!help.is_empty(), "{tab:?}: no help");
        let helped: BTreeSet<&str> = help.iter().map(|g| g.title).collect();
        for group in &keys {
            assert!(
                helped.contains(group.title),
                "{tab:?}: keys of {:?} are not in the help",
                group.title
            );
        }
        for binding in help.iter().flat_map(|g| g.bindings.iter()) {
            assert!(
                !binding.keys().is_empty(),
                "{tab:?}: a binding without keys"
            );
            assert!(!binding.label().is_empty() && !binding.description().is_empty());
            // The help gives a key 10 columns and its words 26 at 80x24: longer ones are cut.
            if binding.label().chars().count() > 10 {
                too_wide.push(format!("{tab:?}: key {:?}", binding.label()));
            }
            if binding.description().chars().count() > 26 {
                too_wide.push(format!("{tab:?}: {:?}", binding.description()));
            }
        }
        let hinted = app.hints().iter().filter(|b| !b.hint().is_empty()).count();
        assert!(
            hinted > 2,
            "{tab:?}: the status line hints only the global keys"
        );
    }
    assert!(
        too_wide.is_empty(),
        "cut in the help at 80x24: {too_wide:#?}"
    );
}

#[test]
fn every_tab_has_a_legend_that_fits_the_help_without_repeats() {
    for &tab in TabId::ALL {
        let app = opened_on(tab);
        let symbols = app.tabs.symbols(tab);
        assert!(!symbols.is_empty(), "{tab:?}: no legend");
        for (i, symbol) in symbols.iter().enumerate() {
            assert!(symbol.meaning.chars().count() <= 26, "{}", symbol.meaning);
            assert!(symbol.glyph.chars().count() <= 10, "{}", symbol.glyph);
            // One glyph, one meaning (issue 29 §5: `▸` meant "focused pane" and "folded").
            assert!(
                !symbols[i + 1..].iter().any(|s| s.glyph == symbol.glyph),
                "{} listed twice on {tab:?}",
                symbol.glyph
            );
        }
    }
}

#[test]
fn every_section_of_the_default_config_belongs_to_a_tab_or_to_the_shell() {
    let table: toml::Table = DEFAULT_TOML.parse().unwrap();
    let sections: BTreeSet<&str> = table
        .iter()
        .filter(|(_, value)| value.is_table())
        .map(|(key, _)| key.as_str())
        .collect();
    let mut claimed: BTreeSet<&str> = ["ui", "serve"].into();
    for &tab in TabId::ALL {
        let own = Tabs::sections(tab);
        assert!(
            !own.is_empty(),
            "{tab:?}: no section in config/default.toml"
        );
        for section in own {
            assert!(
                sections.contains(section),
                "{tab:?}: [{section}] is not in config/default.toml"
            );
            assert!(claimed.insert(section), "[{section}] claimed twice");
        }
    }
    assert_eq!(claimed, sections, "sections no tab claims");
}

#[test]
fn every_tab_has_a_snapshot_of_its_first_screen() {
    // The tab's own screen, without the tab bar: a new tab adds its own and changes none.
    for &tab in TabId::ALL {
        let app = opened_on(tab);
        let name = format!(
            "{}_80x24",
            tab.title().to_lowercase().replace([' ', '-'], "_")
        );
        let shown = crate::common::without_tab_bar(&screen(&app), Rect::new(0, 0, 80, 24));
        insta::assert_snapshot!(name, shown);
    }
}

#[test]
fn every_tab_answers_why_with_the_same_key() {
    let why = why_key(|_| ());
    let why: &dyn Command<()> = &why;
    for &tab in TabId::ALL {
        let app = opened_on(tab);
        let help: Vec<Group<Action>> = app.tabs.help_keys(tab);
        let bound = help
            .iter()
            .flat_map(|g| g.bindings.iter().copied())
            .find(|b| b.matches(Key::Char('y')))
            .map(|b| (b.label(), b.description(), b.hint()));
        assert_eq!(
            bound,
            Some((why.label(), why.description(), why.hint())),
            "{tab:?}: y is not the shared why key"
        );
    }
}

/// The why overlay's row for the move `mv` (marked `▶` when it is the AI's choice), as the
/// screen shows it.
fn row_of<'a>(screen: &'a str, mv: &str) -> &'a str {
    screen
        .lines()
        .find(|line| {
            [format!("║  {mv} "), format!("║▶ {mv} ")]
                .iter()
                .any(|r| line.starts_with(r.as_str()))
        })
        .unwrap_or_else(|| panic!("no row for {mv}:\n{screen}"))
}

#[test]
fn every_tab_words_the_same_exact_answer_the_same_way() {
    let keys = |app: &mut App, text: &str| {
        for c in text.chars() {
            app.handle_key(if c == '\n' { Key::Enter } else { Key::Char(c) });
        }
    };
    // On each tab a position asked about where one move wins on its mover's next turn:
    // the mover plays it, the opponent replies, the mover's second move ends the game.
    let mut asked = Vec::new();
    // Subtraction Nim, pile 5: take 2 leaves 3, the opponent must take 1, 2 → 1 wins.
    let mut app = opened_on(TabId::SubtractionNim);
    keys(&mut app, "a5\n");
    asked.push(("F1", row_of(&screen(&app), "take 2").to_string()));
    // Multi-pile Nim (misère), piles 0 1 1 2: taking one of the pair leaves three single
    // objects; the mover takes the second and the opponent must take the last.
    let mut app = opened_on(TabId::MultiPileNim);
    keys(&mut app, "a0 1 1 2\n");
    asked.push(("F2", row_of(&screen(&app), "p4−1").to_string()));
    // State Graph, Nim(10) with takes 1-2, 4 tokens: taking 1 leaves 3, lost for the
    // opponent, whose take the mover answers with the last tokens.
    let mut app = opened_on(TabId::StateGraph);
    for _ in 0..6 {
        app.handle_key(Key::Right);
    }
    keys(&mut app, "a");
    asked.push(("F3", row_of(&screen(&app), "take 1 → p2-3").to_string()));
    // Tic-tac-toe, X . O / . O . / . . X with X to move: X7 blocks O and forks, and X's
    // next move completes a line.
    let mut app = opened_on(TabId::TicTacToe);
    keys(&mut app, "ic");
    for (cell, mark) in (1..).zip("X.O.O...X".chars()) {
        keys(&mut app, &format!("{cell}{}", mark.to_ascii_lowercase()));
    }
    keys(&mut app, "y");
    asked.push(("F4", row_of(&screen(&app), "X7").to_string()));
    for (tab, row) in &asked {
        assert!(
            row.contains("wins in 2 moves"),
            "{tab} words a win on the mover's next turn otherwise: {asked:#?}"
        );
    }
}

/// Regression: Subtraction and Multi-pile Nim listed Backspace twice (a row to delete a
/// digit and a row to undo, one falling through to the other). Within a group of the help,
/// and among the groups in force together, each key has one row.
#[test]
fn every_tab_lists_each_key_once() {
    fn repeated(groups: &[Group<Action>]) -> Option<Key> {
        let mut seen = BTreeSet::new();
        groups
            .iter()
            .flat_map(|g| g.bindings.iter().flat_map(|b| b.keys().iter()))
            .find(|&&key| !seen.insert(format!("{key:?}")))
            .copied()
    }
    for &tab in TabId::ALL {
        let app = opened_on(tab);
        for group in app.tabs.help_keys(tab) {
            let title = group.title;
            assert_eq!(repeated(&[group]), None, "{tab:?}: twice in {title:?}");
        }
        let in_force: Vec<Group<Action>> = app.tabs.keys(tab);
        assert_eq!(
            repeated(&in_force),
            None,
            "{tab:?}: twice among the keys in force"
        );
    }
}

#[test]
fn every_tab_opens_settings_with_the_same_key_and_none_shadows_it() {
    let settings = settings_key(|_| ());
    let settings: &dyn Command<()> = &settings;
    let key = settings.keys()[0];
    for &tab in TabId::ALL {
        let mut app = opened_on(tab);
        let help: Vec<Group<Action>> = app.tabs.help_keys(tab);
        let shadowing = help
            .iter()
            .flat_map(|g| g.bindings.iter().copied())
            .find(|b| b.matches(key))
            .map(Command::label);
        assert_eq!(shadowing, None, "{tab:?} binds the settings key");
        assert_eq!(app.action_for_key(key), Action::OpenSettings, "{tab:?}");
        app.handle_key(key);
        let has_panel = app.tabs.settings(tab).is_some();
        assert_eq!(
            !app.overlays.is_empty(),
            has_panel,
            "{tab:?}: the key opens the tab's panel, or says it has none"
        );
        if !has_panel {
            let said = app
                .message
                .as_ref()
                .map(|m| m.text.clone())
                .unwrap_or_default();
            assert!(said.contains("no settings panel yet"), "{tab:?}: {said}");
        }
    }
    assert!(
        opened_on(TabId::SubtractionNim)
            .tabs
            .settings(TabId::SubtractionNim)
            .is_some(),
        "F1 has its panel"
    );
}

#[test]
fn the_config_file_lists_every_tab_as_a_start_tab() {
    let file = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config/default.toml"),
    )
    .unwrap();
    let (_, after) = file
        .split_once("# The tab shown when the program starts.")
        .expect("start_tab's comment");
    let (allowed, _) = after.split_once("# Default:").expect("its allowed values");
    for &tab in TabId::ALL {
        let name = serde_json::to_string(&tab).unwrap();
        assert!(allowed.contains(&name), "{name} is not listed: {allowed}");
    }
}
