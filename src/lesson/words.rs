//! The check every piece of a lesson's words goes through, whoever shows them: the title,
//! a step's words, a question and its choices.

/// Words a screen shows: not empty, no control characters, at most `max` characters.
pub(super) fn check_words(text: &str, max: usize) -> Result<(), String> {
    let count = text.chars().count();
    if count == 0 {
        return Err("empty: write the words to show".into());
    }
    if count > max {
        return Err(format!("{count} characters: at most {max}"));
    }
    if text.chars().any(char::is_control) {
        return Err("a control character (a line break or tab): one line of words".into());
    }
    Ok(())
}
