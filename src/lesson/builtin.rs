//! The lessons built into the binary (issue 31 §2): the course a student finds with
//! `ai-arcade learn`, from whatever folder they run it, with or without the repository.
//! `lessons/` in the repository is their source; a teacher copies one to start their own
//! and runs it with `--lesson FILE`.

use super::{Lesson, LessonError, parse};
use crate::config::Config;

/// One built-in lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltIn {
    /// What `ai-arcade learn NAME` calls it.
    pub name: &'static str,
    /// Its file in the repository's `lessons/`.
    pub file: &'static str,
    /// The file's text, as compiled in.
    pub text: &'static str,
}

/// The course, in teaching order: the files' two-digit prefixes give the same order, so
/// a folder of them reads as the course.
pub const BUILT_IN: [BuiltIn; 10] = [
    BuiltIn {
        name: "minimax",
        file: "01-minimax.toml",
        text: include_str!("../../lessons/01-minimax.toml"),
    },
    BuiltIn {
        name: "alphabeta",
        file: "02-alphabeta.toml",
        text: include_str!("../../lessons/02-alphabeta.toml"),
    },
    BuiltIn {
        name: "move-order",
        file: "03-move-order.toml",
        text: include_str!("../../lessons/03-move-order.toml"),
    },
    BuiltIn {
        name: "mcts",
        file: "04-mcts.toml",
        text: include_str!("../../lessons/04-mcts.toml"),
    },
    BuiltIn {
        name: "qlearning",
        file: "05-qlearning.toml",
        text: include_str!("../../lessons/05-qlearning.toml"),
    },
    BuiltIn {
        name: "network",
        file: "06-network.toml",
        text: include_str!("../../lessons/06-network.toml"),
    },
    BuiltIn {
        name: "connect4",
        file: "07-connect4.toml",
        text: include_str!("../../lessons/07-connect4.toml"),
    },
    BuiltIn {
        name: "graph",
        file: "08-state-graph.toml",
        text: include_str!("../../lessons/08-state-graph.toml"),
    },
    BuiltIn {
        name: "nim-net",
        file: "09-nim-network.toml",
        text: include_str!("../../lessons/09-nim-network.toml"),
    },
    BuiltIn {
        name: "selfplay",
        file: "10-selfplay.toml",
        text: include_str!("../../lessons/10-selfplay.toml"),
    },
];

impl BuiltIn {
    /// The built-in lesson `wanted` names: its name, its place in the course (`2` or `02`,
    /// as the file's prefix writes it) or its file's name, in any case.
    #[must_use]
    pub fn find(wanted: &str) -> Option<Self> {
        let wanted = wanted.trim().to_lowercase();
        BUILT_IN.iter().enumerate().find_map(|(at, lesson)| {
            let named = [
                lesson.name.to_string(),
                (at + 1).to_string(),
                format!("{:02}", at + 1),
                lesson.file.to_string(),
                lesson.file.trim_end_matches(".toml").to_string(),
            ];
            named.contains(&wanted).then_some(*lesson)
        })
    }

    /// The lesson, checked as a file is, laid over `base`.
    ///
    /// # Errors
    /// A [`LessonError`]: never for a lesson that ships (a test reads them all), but a
    /// config the lesson is laid over may refuse it.
    pub fn load(&self, base: &Config) -> Result<(Lesson, Config), LessonError> {
        parse(
            self.text,
            &format!("the built-in lesson {}", self.name),
            base,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_lesson_loads_and_is_found_by_name_place_and_file() {
        for (at, lesson) in BUILT_IN.iter().enumerate() {
            lesson.load(&Config::default()).unwrap();
            for wanted in [
                lesson.name.to_uppercase(),
                (at + 1).to_string(),
                format!("{:02}", at + 1),
                lesson.file.to_string(),
            ] {
                assert_eq!(BuiltIn::find(&wanted), Some(*lesson), "{wanted}");
            }
        }
        assert_eq!(BuiltIn::find("chess"), None);
    }

    #[test]
    fn every_lesson_in_the_repository_is_built_in() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
            .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let built_in: Vec<&str> = BUILT_IN.iter().map(|lesson| lesson.file).collect();
        assert_eq!(files, built_in);
    }
}
