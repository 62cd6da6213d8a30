//! How a step's words lie in the lesson pane: its heading ("Step 2 of 7 (] next [ back): ")
//! then the words, wrapped to the screen's width. The drawing and the lesson's check use
//! this one function, so a step the check lets through is one the pane shows whole on the
//! smallest screen.

/// The fewest rows the lesson pane takes while a lesson with steps runs: a short step keeps
/// the layout it always had.
pub const PANE_ROWS_MIN: usize = 2;
/// The most rows the lesson pane takes: at 80x24 the tab keeps 15 of its 19 rows.
pub const PANE_ROWS_MAX: usize = 6;
/// The width a step must fit in [`PANE_ROWS_MAX`] rows at: the narrowest screen.
pub const PANE_WIDTH: usize = 80;

/// The heading before a step's words: its counter and the keys that move on, or that the
/// teacher moves the student on.
#[must_use]
pub fn heading(counter: &str, following: bool) -> String {
    if following {
        format!("{counter}, following the teacher: ")
    } else {
        format!("{counter} (] next [ back): ")
    }
}

/// The rows of the pane for `heading` then `text` at `width` columns, each row's words
/// whole where they fit (a word wider than a row is broken; never at its hyphens).
#[must_use]
pub fn rows(heading: &str, text: &str, width: usize) -> Vec<String> {
    let options =
        textwrap::Options::new(width.max(1)).word_splitter(textwrap::WordSplitter::NoHyphenation);
    textwrap::wrap(&format!("{heading}{text}"), options)
        .into_iter()
        .map(std::borrow::Cow::into_owned)
        .collect()
}

/// Why `text`, step `step` (1-based) of `total`, does not fit the pane at [`PANE_WIDTH`]
/// columns in [`PANE_ROWS_MAX`] rows, under the longer of its two headings.
pub(super) fn too_long(text: &str, step: usize, total: usize) -> Option<String> {
    let counter = format!("Step {step} of {total}");
    let taken = rows(&heading(&counter, true), text, PANE_WIDTH).len();
    (taken > PANE_ROWS_MAX).then(|| {
        format!(
            "takes {taken} rows of the lesson pane at {PANE_WIDTH} columns: at most \
             {PANE_ROWS_MAX} (shorten it, or split it over two steps)"
        )
    })
}
