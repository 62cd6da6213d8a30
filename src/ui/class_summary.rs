//! The class over time (issue 30 §4), in two views. The teacher's summary, opened from
//! the room: first the questions most of the class got wrong, then one row per student
//! (days seen, the last, lessons done, answers right and wrong, and a mark per question:
//! `✓` right, `✗` wrong, `±` both, `·` not answered), then the questions those marks stand
//! for and the lessons done; thirty students and more scroll under the fixed header at
//! 80x24. A student's own progress: the days they came, their lessons done, their answers
//! by question.

use super::overlay::{clamp_scroll, wrap};
use super::room::{cut, fit_to};
use crate::app::App;
use crate::app::progress::{ClassProgress, ClassQuestion, Day, StudentProgress};
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

/// Columns of the name (the room's table has fewer: it has a column more).
const NAME_WIDTH: usize = 20;

/// The columns before the marks by question.
const COLUMNS_WIDTH: usize = 1 + NAME_WIDTH + 1 + 4 + 1 + 10 + 1 + 4 + 1 + 5 + 1 + 5 + 2;

/// Draws the teacher's summary of `class` over `area` (the body of the screen).
pub fn render_class(app: &App, class: &ClassProgress, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let questions = class.questions();
    let name = class.class.as_deref().map_or_else(
        || "this sitting".to_string(),
        |name| format!("class {name}"),
    );
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let title = format!(
        " The class over time, {name}: {}, {} ",
        count(class.students.len(), "student"),
        count(questions.len(), "question")
    );
    let inner = Block::bordered().inner(area);
    let width = usize::from(inner.width);
    let marks = width.saturating_sub(COLUMNS_WIDTH).min(questions.len());
    let mut fixed = missed_lines(class, &questions, width);
    let marked = match questions.len() {
        0 => String::new(),
        n if marks == n => format!("Q1-{n}"),
        n => format!("Q1-{marks} of {n}"),
    };
    fixed.push(Line::styled(
        row(
            " ",
            "name",
            "days",
            "last seen",
            "done",
            "right",
            "wrong",
            &marked,
        ),
        theme.dim,
    ));
    let mut lines: Vec<Line> = (class.students.iter())
        .map(|student| Line::raw(student_row(student, &questions[..marks])))
        .collect();
    if class.students.is_empty() {
        lines.push(Line::styled(
            "No students yet: they appear as they log in",
            theme.dim,
        ));
    }
    lines.extend(legend(class, &questions, width, theme));
    draw(app, &title, fixed, lines, area, buf, theme);
}

/// The questions most of the class got wrong, the most missed first, as `Q3 18/25`.
fn missed_lines<'a>(
    class: &ClassProgress,
    questions: &[ClassQuestion],
    width: usize,
) -> Vec<Line<'a>> {
    let missed: Vec<String> = (class.most_missed().iter())
        .filter_map(|q| {
            let n = questions.iter().position(|all| all == q)? + 1;
            Some(format!("Q{n} {}/{}", q.missed, q.answered))
        })
        .collect();
    let text = if missed.is_empty() {
        "No question was missed by most of those who answered it".to_string()
    } else {
        format!("Most of the class got wrong: {}", missed.join(" · "))
    };
    // Two rows at most: the legend below has every question in full.
    let mut rows = wrap(&text, width, "  ");
    if rows.len() > 2 {
        rows.truncate(2);
        let kept: String = rows[1].chars().take(width.saturating_sub(1)).collect();
        rows[1] = kept + "…";
    }
    rows.into_iter().map(Line::raw).collect()
}

/// One student's row: their numbers, then a mark for each of `questions`.
fn student_row(student: &StudentProgress, questions: &[ClassQuestion]) -> String {
    let last = student
        .last_seen
        .map_or_else(|| "-".to_string(), |day| day.to_string());
    let marks: String = (questions.iter())
        .map(|q| {
            let tally =
                (student.questions.iter()).find(|t| t.tab == q.tab && t.question == q.question);
            match tally.map(|t| (t.right > 0, t.wrong > 0)) {
                Some((true, false)) => '✓',
                Some((false, true)) => '✗',
                Some((true, true)) => '±',
                _ => '·',
            }
        })
        .collect();
    row(
        " ",
        &student.name,
        &student.days_seen.to_string(),
        &last,
        &student.lessons_done.len().to_string(),
        &student.right.to_string(),
        &student.wrong.to_string(),
        &marks,
    )
}

/// One row of the table, each column as wide as the header says.
#[allow(clippy::too_many_arguments)] // one per column, named as the header names them
fn row(
    mark: &str,
    name: &str,
    days: &str,
    last: &str,
    done: &str,
    right: &str,
    wrong: &str,
    marks: &str,
) -> String {
    let name = fit_to(name, NAME_WIDTH);
    let [days, last, done, right, wrong] =
        [(days, 4), (last, 10), (done, 4), (right, 5), (wrong, 5)].map(|(t, w)| cut(t, w));
    format!("{mark}{name} {days:>4} {last:>10} {done:>4} {right:>5} {wrong:>5}  {marks}")
}

/// Under the table: every question the marks stand for, with how many missed it, and
/// every lesson with how many finished it.
fn legend<'a>(
    class: &ClassProgress,
    questions: &[ClassQuestion],
    width: usize,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let mut lines = vec![Line::raw("")];
    if questions.is_empty() {
        lines.push(Line::styled("No answers graded yet", theme.dim));
    }
    for (n, q) in questions.iter().enumerate() {
        let flag = if q.mostly_missed() { "◀ " } else { "" };
        let text = format!(
            "Q{} {flag}missed by {} of {}: {}: {}",
            n + 1,
            q.missed,
            q.answered,
            q.tab.title(),
            q.question
        );
        lines.extend(wrap(&text, width, "    ").into_iter().map(Line::raw));
    }
    let mut lessons: Vec<(&str, usize)> = Vec::new();
    for title in class.students.iter().flat_map(|s| &s.lessons_done) {
        match lessons.iter_mut().find(|(t, _)| t == title) {
            Some((_, n)) => *n += 1,
            None => lessons.push((title, 1)),
        }
    }
    if !lessons.is_empty() {
        let done: Vec<String> = (lessons.iter())
            .map(|(t, n)| format!("\"{t}\" by {n}"))
            .collect();
        let text = format!("Lessons done: {}", done.join(" · "));
        lines.push(Line::raw(""));
        lines.extend(wrap(&text, width, "  ").into_iter().map(Line::raw));
    }
    lines
}

/// Draws a student's own `progress` over `area`.
pub fn render_student(
    app: &App,
    progress: &StudentProgress,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let title = format!(" My progress: {} ", progress.name);
    let width = usize::from(Block::bordered().inner(area).width);
    let day = |day: Option<Day>| day.map_or_else(|| "-".to_string(), |d| d.to_string());
    let days = format!(
        "Days you came: {} (first {}, last {})",
        progress.days_seen,
        day(progress.first_seen),
        day(progress.last_seen)
    );
    let lessons = match progress.lessons_done.len() {
        0 => "Lessons done: none yet (a lesson is done at its last step)".to_string(),
        n => format!("Lessons done ({n}): {}", progress.lessons_done.join(" · ")),
    };
    let answers = format!(
        "Answers graded: {} right, {} wrong",
        progress.right, progress.wrong
    );
    let mut lines: Vec<Line> = [days, lessons, answers]
        .iter()
        .flat_map(|text| wrap(text, width, "  "))
        .map(Line::raw)
        .collect();
    lines.push(Line::raw(""));
    if progress.questions.is_empty() {
        lines.push(Line::styled(
            "No answers graded yet: predict mode asks questions",
            theme.dim,
        ));
    }
    for q in &progress.questions {
        let text = format!(
            "✓{} ✗{}  {}: {}",
            q.right,
            q.wrong,
            q.tab.title(),
            q.question
        );
        let style = if q.wrong > 0 { theme.error } else { theme.info };
        lines.extend(
            wrap(&text, width, "      ")
                .into_iter()
                .map(|l| Line::styled(l, style)),
        );
    }
    draw(app, &title, Vec::new(), lines, area, buf, theme);
}

/// Draws a bordered overlay titled `title`: the `fixed` lines at the top, then `lines`
/// scrolled by the app's overlay scroll, with which rows show in the bottom border.
fn draw(
    app: &App,
    title: &str,
    fixed: Vec<Line>,
    lines: Vec<Line>,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let inner = Block::bordered().inner(area);
    let fixed_rows = (fixed.len() as u16).min(inner.height);
    let body = Rect::new(
        inner.x,
        inner.y + fixed_rows,
        inner.width,
        inner.height - fixed_rows,
    );
    let scroll = clamp_scroll(&app.overlay_scroll, lines.len(), body.height);
    let shown_to = (usize::from(scroll) + usize::from(body.height)).min(lines.len());
    let rows = format!(
        " rows {}-{shown_to} of {} · ↑↓ PgUp PgDn scroll · Esc closes ",
        usize::from(scroll) + 1,
        lines.len()
    );
    let block = Block::bordered()
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(title.to_string(), theme.title))
        .title_bottom(Line::from(rows).right_aligned());
    Clear.render(area, buf);
    block.render(area, buf);
    Paragraph::new(fixed).render(Rect::new(inner.x, inner.y, inner.width, fixed_rows), buf);
    Paragraph::new(lines).scroll((scroll, 0)).render(body, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn every_row_keeps_the_columns_of_the_header() {
        let header = row(
            " ",
            "name",
            "days",
            "last seen",
            "done",
            "right",
            "wrong",
            "Q1-3",
        );
        let mut ada = StudentProgress::new("Katherine Johnson-Goble");
        ada.seen(Day(20_000));
        ada.right = 123_456;
        let line = student_row(&ada, &[]);
        assert_eq!(header.width(), COLUMNS_WIDTH + 4, "{header:?}");
        assert_eq!(line.width(), COLUMNS_WIDTH, "{line:?}");
        assert!(
            line.contains("Katherine Johnson-G…") && line.contains(" 1234…"),
            "{line:?}"
        );
    }
}
