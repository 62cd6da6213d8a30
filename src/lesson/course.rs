//! A course: the lessons a served class works through, in the order the teacher gave them
//! (`serve --lesson A --lesson B`, or a folder whose `*.toml` files are read in the order
//! of their names). The teacher moves the room from one to the next; the room tells them
//! apart by title, so two lessons of a course may not share one.

use super::{Lesson, load};
use crate::config::Config;
use std::path::{Path, PathBuf};

/// The most lessons a course may have: a term's worth, and a bound on what a folder given
/// by mistake (a home directory) makes the server read.
pub const MAX_LESSONS: usize = 40;

/// The lesson files `paths` name, in order: a file as it is, a folder as its `*.toml`
/// files sorted by name (`01-minimax.toml` before `02-alphabeta.toml`).
///
/// # Errors
/// A path that cannot be read, a folder without a lesson, or more than [`MAX_LESSONS`].
pub fn lesson_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let found = toml_files(path)?;
            if found.is_empty() {
                return Err(format!(
                    "{}: no lesson in this folder (lessons are *.toml files)",
                    path.display()
                ));
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
        if files.len() > MAX_LESSONS {
            return Err(format!(
                "{}: more than {MAX_LESSONS} lessons, more than a course may have",
                path.display()
            ));
        }
    }
    Ok(files)
}

/// The `*.toml` files directly in `dir`, sorted by name.
fn toml_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|ext| ext == "toml") && path.is_file() {
            files.push(path);
            if files.len() > MAX_LESSONS {
                return Err(format!(
                    "{}: more than {MAX_LESSONS} lessons, more than a course may have",
                    dir.display()
                ));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Reads and checks every lesson `paths` name, each laid over `base` as a single
/// `--lesson` is: the lessons in order, each with the config its sections make.
///
/// # Errors
/// The first file refused, in the lesson's own words (file, line, key), or two lessons
/// with one title.
pub fn load_course(paths: &[PathBuf], base: &Config) -> Result<Vec<(Lesson, Config)>, String> {
    let mut course: Vec<(Lesson, Config)> = Vec::new();
    for path in lesson_files(paths)? {
        let (lesson, config) = load(&path, base).map_err(|e| e.to_string())?;
        if let Some((twin, _)) = course.iter().find(|(other, _)| other.title == lesson.title) {
            return Err(format!(
                "{} and {} are both titled \"{}\": the room tells a course's lessons apart \
                 by title",
                twin.origin, lesson.origin, lesson.title
            ));
        }
        course.push((lesson, config));
    }
    Ok(course)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(title: &str) -> String {
        format!("[lesson]\ntitle = \"{title}\"\n\n[[step]]\ntext = \"Press 5.\"\n")
    }

    #[test]
    fn a_folder_is_its_lessons_in_the_order_of_their_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("2-second.toml"), lesson("Second")).unwrap();
        std::fs::write(dir.path().join("1-first.toml"), lesson("First")).unwrap();
        std::fs::write(dir.path().join("README.md"), "not a lesson").unwrap();
        let extra = dir.path().join("extra.toml");
        std::fs::write(&extra, lesson("Extra")).unwrap();
        let sub = dir.path().join("course");
        std::fs::create_dir(&sub).unwrap();
        std::fs::rename(dir.path().join("2-second.toml"), sub.join("2-second.toml")).unwrap();
        std::fs::rename(dir.path().join("1-first.toml"), sub.join("1-first.toml")).unwrap();
        let course = load_course(&[sub, extra], &Config::default()).unwrap();
        let titles: Vec<&str> = course.iter().map(|(l, _)| l.title.as_str()).collect();
        assert_eq!(titles, ["First", "Second", "Extra"]);
    }

    #[test]
    fn a_course_refuses_two_lessons_of_one_title_and_an_empty_folder() {
        let dir = tempfile::tempdir().unwrap();
        for file in ["a.toml", "b.toml"] {
            std::fs::write(dir.path().join(file), lesson("Same")).unwrap();
        }
        let why = load_course(&[dir.path().to_path_buf()], &Config::default()).unwrap_err();
        assert!(why.contains("both titled \"Same\""), "{why}");
        let empty = tempfile::tempdir().unwrap();
        let why = load_course(&[empty.path().to_path_buf()], &Config::default()).unwrap_err();
        assert!(why.contains("no lesson in this folder"), "{why}");
    }

    #[test]
    fn a_refused_lesson_of_a_course_names_its_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.toml");
        std::fs::write(&bad, "[lesson]\ntitle = \"Bad\"\n\n[[step]]\ntext = 3\n").unwrap();
        let why = load_course(&[bad], &Config::default()).unwrap_err();
        assert!(why.contains("bad.toml, line 5"), "{why}");
    }
}
