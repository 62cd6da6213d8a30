//! A named class (`serve --class NAME`, issue 30 §4): a class that lives past one sitting.
//! Its files are in one folder of the data dir, `DATA_DIR/classes/NAME/`, so the teacher
//! backs up, moves or ends a class by copying or removing one folder:
//!
//! - `seats/`: each student's session, one file a student (`serve/seats.rs`);
//! - `collect/`: exports and graded answers, `results.csv` (`serve/collect.rs`), unless
//!   `--collect DIR` names another folder;
//! - `progress.json`: each student's lessons done, answers by question and days seen
//!   (`serve/progress.rs`).
//!
//! The name becomes a folder name, so it is checked, not changed: a teacher who typed a
//! name with a slash is told, rather than finding the class under another name.

use std::path::{Path, PathBuf};

/// The longest class name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// The folder of the data dir that holds every named class.
pub const CLASSES_DIR: &str = "classes";

/// Where a named class keeps its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassFolders {
    /// The class's name, as given.
    pub name: String,
    /// Its folder, `DATA_DIR/classes/NAME`.
    pub dir: PathBuf,
    /// Its students' seats.
    pub seats: PathBuf,
    /// Its collect folder.
    pub collect: PathBuf,
}

/// The folders of the class `name` in `data_dir`.
///
/// # Errors
/// Why `name` cannot name a class, in words that say what would.
pub fn folders(data_dir: &Path, name: &str) -> Result<ClassFolders, String> {
    check_name(name)?;
    let dir = data_dir.join(CLASSES_DIR).join(name);
    Ok(ClassFolders {
        name: name.to_string(),
        seats: dir.join("seats"),
        collect: dir.join("collect"),
        dir,
    })
}

/// Whether `name` is safe as a folder name on every system: 1 to [`MAX_NAME_CHARS`]
/// ASCII letters, digits, `-`, `_` and `.`, not starting with `.`.
fn check_name(name: &str) -> Result<(), String> {
    let rule = format!(
        "a class name is 1 to {MAX_NAME_CHARS} letters, digits, '-', '_' or '.' \
         (e.g. physics-7b)"
    );
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME_CHARS {
        return Err(format!("--class: {count} characters; {rule}"));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(format!("--class {name:?}: {bad:?} is not allowed; {rule}"));
    }
    if name.starts_with('.') {
        return Err(format!("--class {name:?}: starts with '.'; {rule}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_lives_in_one_folder_of_the_data_dir() {
        let class = folders(Path::new("/data"), "physics-7b").unwrap();
        assert_eq!(class.dir, Path::new("/data/classes/physics-7b"));
        assert_eq!(class.seats, Path::new("/data/classes/physics-7b/seats"));
        assert_eq!(class.collect, Path::new("/data/classes/physics-7b/collect"));
    }

    #[test]
    fn a_name_that_is_no_safe_folder_is_refused_saying_why() {
        for (name, why) in [
            ("", "0 characters"),
            ("../etc", "'/' is not allowed"),
            ("a b", "' ' is not allowed"),
            ("..", "starts with '.'"),
            (".hidden", "starts with '.'"),
            ("é", "'é' is not allowed"),
        ] {
            let error = folders(Path::new("/d"), name).unwrap_err();
            assert!(
                error.contains(why) && error.contains("1 to 40"),
                "{name:?}: {error}"
            );
        }
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        assert!(
            folders(Path::new("/d"), &long)
                .unwrap_err()
                .contains("41 characters")
        );
        assert!(folders(Path::new("/d"), &"x".repeat(MAX_NAME_CHARS)).is_ok());
    }
}
