use super::*;
use crate::domain::search::Algorithm;

const ORIGIN: &str = "lessons/test.toml";

fn lesson(text: &str) -> Result<(Lesson, Config), LessonError> {
    parse(text, ORIGIN, &Config::default())
}

fn refused(text: &str) -> String {
    lesson(text).expect_err("refused").to_string()
}

const WHOLE: &str = r#"
seed = 7

[lesson]
title = "Minimax on tic-tac-toe"
tabs = ["tic-tac-toe", "subtraction-nim"]
start_tab = "tic-tac-toe"
locked = ["a", "S", "F2", "Ctrl-x", "Enter", "Space"]

[search]
algorithm = "minimax"
step = true

[tictactoe]
first = "human"

[[step]]
text = "Press n three times. What is the value of the node after X plays 2?"

[[step]]
text = "Now the other tab."
tab = "subtraction-nim"
"#;

#[test]
fn every_key_of_a_lesson_is_read() {
    let (lesson, config) = lesson(WHOLE).unwrap();
    assert_eq!(lesson.title, "Minimax on tic-tac-toe");
    assert_eq!(
        lesson.tabs,
        [TabId::SubtractionNim, TabId::TicTacToe],
        "bar order"
    );
    assert_eq!(lesson.start_tab, TabId::TicTacToe);
    let keys: Vec<Key> = lesson.locked.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        keys,
        [
            Key::Char('a'),
            Key::Char('S'),
            Key::F(2),
            Key::Ctrl('x'),
            Key::Enter,
            Key::Char(' ')
        ]
    );
    assert_eq!(lesson.locked_label(Key::F(2)), Some("F2"));
    assert_eq!(lesson.steps.len(), 2);
    assert_eq!(lesson.steps[1].tab, Some(TabId::SubtractionNim));
    assert_eq!(config.seed, Some(7));
    assert_eq!(config.search.algorithm, Algorithm::Minimax.into());
    assert!(config.search.step);
    assert_eq!(config.ui.start_tab, TabId::TicTacToe);
}

#[test]
fn a_lesson_keeps_what_it_leaves_out_from_the_base_config() {
    let mut base = Config::default();
    base.search.autoplay_ms = 1000;
    base.graph.tokens = 12;
    let (_, config) = parse(WHOLE, ORIGIN, &base).unwrap();
    assert_eq!(
        config.search.autoplay_ms, 1000,
        "a key of a section it sets"
    );
    assert_eq!(config.graph.tokens, 12, "a section it does not name");
    assert_eq!(
        config.search.algorithm,
        Algorithm::Minimax.into(),
        "what it sets wins"
    );
}

#[test]
fn a_minimal_lesson_shows_every_tab() {
    let (lesson, config) = lesson("[lesson]\ntitle = \"Free play\"\n").unwrap();
    assert_eq!(lesson.tabs, TabId::ALL);
    assert_eq!(lesson.start_tab, TabId::ALL[0]);
    assert!(lesson.steps.is_empty() && lesson.locked.is_empty());
    assert_eq!(config.search, Config::default().search);
}

#[test]
fn refusals_name_the_file_and_the_key() {
    let cases: &[(&str, &str)] = &[
        ("", "line 1: key `lesson`: missing field `lesson`"),
        (
            "[lesson]\n",
            "line 1: key `lesson.title`: missing field `title`",
        ),
        ("[lesson]\ntitle = \"\"\n", "key `lesson.title`: empty"),
        (
            "[lesson]\ntitle = \"t\"\nminutes = 0\n",
            "line 3: key `lesson.minutes`: found 0, allowed 1..=120",
        ),
        (
            "[lesson]\ntitle = \"t\"\nsize = 3\n",
            "key `lesson.size`: unknown field `size`",
        ),
        (
            "[lesson]\ntitle = \"t\"\ntabs = []\n",
            "key `lesson.tabs`: at least one tab",
        ),
        (
            "[lesson]\ntitle = \"t\"\ntabs = [\"nim\"]\n",
            "key `lesson.tabs`: unknown variant `nim`",
        ),
        (
            "[lesson]\ntitle = \"t\"\ntabs = [\"tic-tac-toe\", \"tic-tac-toe\"]\n",
            "line 3: key `lesson.tabs`: Tic-tac-toe is listed twice",
        ),
        (
            "[lesson]\ntitle = \"t\"\ntabs = [\"tic-tac-toe\"]\nstart_tab = \"state-graph\"\n",
            "key `lesson.start_tab`: State Graph is not one of the lesson's tabs",
        ),
        (
            "[lesson]\ntitle = \"t\"\nlocked = [\"?\"]\n",
            "key `lesson.locked`: \"?\" cannot be locked: ? opens the help",
        ),
        (
            "[lesson]\ntitle = \"t\"\nlocked = [\"Hyper\"]\n",
            "key `lesson.locked`: \"Hyper\" is not a key",
        ),
        (
            "[lesson]\ntitle = \"t\"\nlocked = [\"a\", \"a\"]\n",
            "key `lesson.locked`: \"a\" is listed twice",
        ),
        (
            "[lesson]\ntitle = \"t\"\n[[step]]\ntext = \"one\"\n[[step]]\ntext = \"two\\nlines\"\n",
            "key `step.2.text`: a control character",
        ),
        (
            "[lesson]\ntitle = \"t\"\ntabs = [\"tic-tac-toe\"]\n[[step]]\ntext = \"x\"\ntab = \"connect-four\"\n",
            "key `step.1.tab`: Connect Four is not one of the lesson's tabs",
        ),
        (
            "[lesson]\ntitle = \"t\"\n[[step]]\ntext = \"x\"\ncheck = 1\n",
            "unknown field `check`",
        ),
        (
            "[lesson]\ntitle = \"t\"\n[search]\nautoplay_ms = 1\n",
            "lesson error in lessons/test.toml, line 4: key `search.autoplay_ms`: found 1, \
             allowed 10..=5000",
        ),
        (
            "[lesson]\ntitle = \"t\"\n[search]\nspeed = 1\n",
            "lesson error in lessons/test.toml, line 4: key `search.speed`: unknown field",
        ),
    ];
    for (text, expected) in cases {
        let shown = refused(text);
        assert!(
            shown.contains(ORIGIN) && shown.contains(expected),
            "{text:?}\n gave: {shown}\n wanted: {expected}"
        );
    }
}

/// A step of `text`, on line 4.
fn one_step(text: &str) -> String {
    format!("[lesson]\ntitle = \"t\"\n[[step]]\ntext = \"{text}\"\n")
}

/// Words of `len` characters each, `count` of them.
fn words(len: usize, count: usize) -> String {
    vec!["w".repeat(len); count].join(" ")
}

#[test]
fn a_step_may_say_four_hundred_characters_that_fit_six_rows_at_80_columns() {
    // Plain words: 400 characters are read, 401 are refused with the limit.
    let plain = "Press Space to step. ".repeat(20);
    let plain = plain.trim();
    assert_eq!(plain.chars().count(), 419);
    let at_most: String = plain.chars().take(400).collect();
    let (read, _) = lesson(&one_step(at_most.trim())).expect("400 characters are read");
    assert_eq!(read.steps[0].text.chars().count(), 400);
    let (read, _) = lesson(&one_step(&words(79, 5))).expect("five words of 79 fit");
    assert_eq!(read.steps[0].text.chars().count(), 399);
    assert_eq!(
        refused(&one_step(&format!("{at_most}w"))),
        "lesson error in lessons/test.toml, line 4: key `step.1.text`: 401 characters: at most 400"
    );
    // Few characters, but words so long each takes a row of its own: the pane could not
    // show them whole, so the check counts rows as the pane wraps them.
    let shown = refused(&one_step(&words(41, 9)));
    assert_eq!(
        shown,
        "lesson error in lessons/test.toml, line 4: key `step.1.text`: takes 9 rows of the \
         lesson pane at 80 columns: at most 6 (shorten it, or split it over two steps)"
    );
    lesson(&one_step(&words(41, 6))).expect("six such words take six rows");
}

#[test]
fn a_file_too_large_or_missing_is_refused_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.toml");
    let shown = load(&missing, &Config::default()).unwrap_err().to_string();
    assert!(shown.starts_with("lesson error in ") && shown.contains("none.toml: cannot read"));
    let large = dir.path().join("large.toml");
    let mut text = "[lesson]\ntitle = \"t\"\n".to_string();
    text.push_str(&"# padding\n".repeat(7_000));
    std::fs::write(&large, text).unwrap();
    let shown = load(&large, &Config::default()).unwrap_err().to_string();
    assert!(shown.contains("larger than 64 KiB"), "{shown}");
}

#[test]
fn keys_are_written_as_the_help_writes_them() {
    assert_eq!(parse_key("x"), Ok(Key::Char('x')));
    assert_eq!(parse_key("+"), Ok(Key::Char('+')));
    assert_eq!(parse_key("f12"), Ok(Key::F(12)));
    assert_eq!(parse_key("C-t"), Ok(Key::Ctrl('t')));
    assert_eq!(parse_key("pgdn"), Ok(Key::PageDown));
    assert!(parse_key("F13").is_err());
    assert!(parse_key("Ctrl-").is_err());
    for (key, _) in UNLOCKABLE {
        let spec = match key {
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{c}"),
            Key::Esc => "Esc".to_string(),
            other => panic!("{other:?}"),
        };
        assert!(
            parse_key(&spec).unwrap_err().contains("cannot be locked"),
            "{spec}"
        );
    }
}

#[test]
fn a_checkpoint_names_keys_as_the_help_writes_them_and_a_bad_one_is_refused_by_its_step() {
    let text = "[lesson]\ntitle = \"T\"\n[[step]]\ntext = \"a\"\n[[step]]\ntext = \"b\"\n\
                checkpoint = [\"5\", \"Space\", \"Enter\", \"]\"]\nneeds_right_answer = true\n";
    let (lesson, _) = lesson(text).unwrap();
    assert_eq!(
        lesson.steps[1].checkpoint,
        Some(vec![
            Key::Char('5'),
            Key::Char(' '),
            Key::Enter,
            Key::Char(']')
        ]),
        "any key, even one no lesson may lock"
    );
    let quits = text.replace("\"Enter\"", "\"q\"");
    assert!(
        refused(&quits).contains("would quit"),
        "{}",
        refused(&quits)
    );
    assert_eq!(lesson.steps[1].gate, Some(crate::lesson::Gate::RightAnswer));
    let bad = text.replace("\"Enter\"", "\"Hyper\"");
    let why = refused(&bad);
    assert!(
        why.contains("step.2.checkpoint") && why.contains("Hyper"),
        "{why}"
    );
    let long = text.replace(
        "[\"5\", \"Space\", \"Enter\", \"]\"]",
        &format!("[{}]", vec!["\"n\""; 201].join(", ")),
    );
    assert!(refused(&long).contains("201 keys: at most 200"));
}

/// A lesson with something on every line that can be wrong: each case below breaks one
/// line and the refusal must name that line and its key.
const PLACES: &str = r#"seed = 7

[lesson]
title = "Places"
tabs = ["tic-tac-toe", "connect-four"]
locked = [
    "a",
    "S",
]

[search]
step = true

[connect4]
depth = 4
autoplay_ms = 250

[[step]]
text = "One."

[[step]]
text = "Two."
checkpoint = ["5", "Space"]
"#;

/// Each case `(line, written instead, the key named, what it says)`: `text` with that line
/// written instead is refused at that line and key, in those words.
fn refused_at(text: &str, cases: &[(usize, &str, &str, &str)]) {
    for &(line, instead, key, says) in cases {
        let broken: Vec<&str> = text
            .lines()
            .enumerate()
            .map(|(i, written)| if i + 1 == line { instead } else { written })
            .collect();
        let shown = refused(&broken.join("\n"));
        let want = format!("lesson error in {ORIGIN}, line {line}: key `{key}`: ");
        assert!(
            shown.starts_with(&want) && shown.contains(says),
            "line {line} `{instead}`\n gave: {shown}\n wanted: {want}…{says}"
        );
    }
}

#[test]
fn every_kind_of_mistake_names_the_file_its_line_and_its_key() {
    lesson(PLACES).expect("the unbroken lesson loads");
    // (line, written instead, the key named, what it says)
    let cases: &[(usize, &str, &str, &str)] = &[
        // A value out of range on line 16 (once reported at line 7).
        (
            16,
            "autoplay_ms = 1",
            "connect4.autoplay_ms",
            "found 1, allowed 10..=5000",
        ),
        // Wrong types (once reported against `lesson` alone).
        (12, "step = \"yes\"", "search.step", "invalid type: string"),
        (1, "seed = -1", "seed", "invalid value"),
        (5, "tabs = \"tic-tac-toe\"", "lesson.tabs", "invalid type"),
        (22, "text = 5", "step.2.text", "invalid type: integer"),
        // Unknown keys.
        (15, "deep = 4", "connect4.deep", "unknown field `deep`"),
        (22, "txt = \"Two.\"", "step.2.txt", "unknown field `txt`"),
        (
            4,
            "name = \"Places\"",
            "lesson.name",
            "unknown field `name`",
        ),
        // Syntax errors (once with no line at all).
        (
            4,
            "title = \"Places",
            "lesson.title",
            "not TOML: invalid basic string",
        ),
        (11, "[search", "search", "not TOML: unclosed table"),
        (
            16,
            "autoplay_ms = = 250",
            "connect4.autoplay_ms",
            "not TOML",
        ),
        // Bad key names and values the lesson's own checks refuse.
        (
            8,
            "    \"Hyper\",",
            "lesson.locked",
            "\"Hyper\" is not a key",
        ),
        (7, "    \"?\",", "lesson.locked", "\"?\" cannot be locked"),
        (
            23,
            "checkpoint = [\"5\", \"Ctrl-c\"]",
            "step.2.checkpoint",
            "\"Ctrl-c\" would quit",
        ),
        (19, "text = \"\"", "step.1.text", "empty"),
        (
            5,
            "tabs = [\"tic-tac-toe\", \"tic-tac-toe\"]",
            "lesson.tabs",
            "Tic-tac-toe is listed twice",
        ),
    ];
    refused_at(PLACES, cases);
}

#[test]
fn a_mistake_in_a_list_names_the_line_of_the_item_at_fault() {
    let text = "[lesson]\ntitle = \"t\"\ntabs = [\n  \"tic-tac-toe\",\n  \"connect-four\",\n  \
                \"tic-tac-toe\",\n]\n[[step]]\ntext = \"a\"\ncheckpoint = [\n  \"5\",\n  \"Hyper\",\n]\n";
    let shown = refused(text);
    assert!(
        shown.starts_with("lesson error in lessons/test.toml, line 6: key `lesson.tabs`"),
        "{shown}"
    );
    let once = text.replacen("  \"tic-tac-toe\",\n]", "]", 1);
    let shown = refused(&once);
    assert!(
        shown.starts_with(
            "lesson error in lessons/test.toml, line 11: key `step.1.checkpoint`: \"Hyper\""
        ),
        "{shown}"
    );
}

const ASKING: &str = r#"[lesson]
title = "Asking"
[[step]]
text = "MCTS has run 200 playouts."
ask = "Which column will MCTS pick?"
choices = ["3", "4", "5"]
answer = "4"
needs_right_answer = true
[[step]]
text = "How many nodes?"
ask = "How many nodes did minimax visit?"
answer = 549946
tolerance = 10
"#;

#[test]
fn a_step_asks_a_question_of_the_teacher_s_own() {
    use question::Kind;
    let (lesson, _) = lesson(ASKING).unwrap();
    let choice = lesson.steps[0].question.as_ref().unwrap();
    assert_eq!(choice.ask, "Which column will MCTS pick?");
    assert_eq!(
        choice.kind,
        Kind::Choices {
            choices: vec!["3".into(), "4".into(), "5".into()],
            right: 1
        }
    );
    assert_eq!(choice.grade("4"), Ok(true));
    assert_eq!(choice.grade("5"), Ok(false));
    assert!(choice.grade("7").is_err(), "not a choice");
    let number = lesson.steps[1].question.as_ref().unwrap();
    assert_eq!(number.grade("549950"), Ok(true), "within the tolerance");
    assert_eq!(number.grade("549935"), Ok(false));
    assert!(number.grade("lots").is_err());
    assert_eq!(number.right_answer(), "549946 (± 10)");
    assert_eq!(lesson.steps[0].gate, Some(crate::lesson::Gate::RightAnswer));
}

#[test]
fn a_bad_question_is_refused_at_its_line_and_key() {
    lesson(ASKING).expect("the unbroken lesson loads");
    // (line, written instead, the key named, what it says)
    let cases: &[(usize, &str, &str, &str)] = &[
        (
            7,
            "answer = \"6\"",
            "step.1.answer",
            "\"6\" is not one of the choices",
        ),
        (
            6,
            "choices = []",
            "step.1.choices",
            "0 choices: from 2 to 6",
        ),
        (
            6,
            "choices = [\"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\"]",
            "step.1.choices",
            "7 choices",
        ),
        (
            6,
            "choices = [\"3\", \"a choice far too long\", \"4\"]",
            "step.1.choices",
            "characters: at most 8",
        ),
        (
            6,
            "choices = [\"4\", \"4\"]",
            "step.1.choices",
            "listed twice",
        ),
        (
            8,
            "tolerance = 1",
            "step.1.tolerance",
            "only a number question",
        ),
        (
            12,
            "answer = \"many\"",
            "step.2.answer",
            "\"many\" is not a number",
        ),
        (
            13,
            "tolerance = -1",
            "step.2.tolerance",
            "a distance, 0 or more",
        ),
        (11, "asks = \"x\"", "step.2.asks", "unknown field"),
        (5, "text2 = \"x\"", "step.1.text2", "unknown field"),
        (5, "ask = \"\"", "step.1.ask", "empty"),
    ];
    refused_at(ASKING, cases);
    // An answer with no question, and a question with no answer.
    let stray = refused("[lesson]\ntitle = \"t\"\n[[step]]\ntext = \"a\"\nanswer = 3\n");
    assert!(
        stray.starts_with(
            "lesson error in lessons/test.toml, line 5: key `step.1.answer`: only a step that asks"
        ),
        "{stray}"
    );
    let bare = refused("[lesson]\ntitle = \"t\"\n[[step]]\ntext = \"a\"\nask = \"Why?\"\n");
    assert!(
        bare.contains("line 5: key `step.1.ask`: a question needs its answer"),
        "{bare}"
    );
}

#[test]
fn a_step_and_its_question_must_fit_the_pane_together() {
    let long = words(350, 1);
    let text = format!(
        "[lesson]\ntitle = \"t\"\n[[step]]\ntext = \"{long}\"\nask = \"Which?\"\nchoices = [\"a\", \"b\"]\nanswer = \"a\"\n"
    );
    let shown = refused(&text);
    assert!(
        shown.contains("line 4: key `step.1.text`") && shown.contains("for its question"),
        "{shown}"
    );
}

/// Issue 35 §6: a FIFO at the lesson's path held SIGHUP and the teacher's `r` until
/// something wrote to it. It is refused at once, naming the file.
#[cfg(unix)]
#[test]
fn a_lesson_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("lesson.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let shown = super::load(&fifo, &crate::config::Config::default())
        .unwrap_err()
        .to_string();
    assert!(
        shown.contains("lesson.toml") && shown.contains("a FIFO"),
        "{shown}"
    );
}

/// Issue 35 §6: a lesson's `[serve]` section silently set `max_sessions`; a value of 1
/// left a second student outside. It is refused, at its line.
#[test]
fn a_lesson_cannot_change_the_server_s_limits() {
    let text = "[lesson]\ntitle = \"x\"\nstart_tab = \"tictactoe\"\n\n[[step]]\ntext = \"a\"\n\n[serve]\nmax_sessions = 1\n";
    let shown = super::parse(text, "limits.toml", &crate::config::Config::default())
        .unwrap_err()
        .to_string();
    assert!(
        shown.contains("limits.toml, line 8") && shown.contains("cannot set the server's [serve]"),
        "{shown}"
    );
}
