//! The teacher's view of the room: one row per student with whether they follow the
//! teacher, their name, how they came in (ssh, or web from a browser), the tab on their screen, their lesson (in a course) and step, their
//! predictions graded right, the answer they locked in and how long since their last key,
//! in a table that scrolls so thirty and more fit at 80x24; under it, the class's answers
//! to the question waiting, counted before the teacher reveals, and the last export the
//! collect folder refused, if any. Read again every second while open.

use super::overlay::clamp_scroll;
use crate::app::room::{Course, Room, Seat, Whereabouts, idle_words};
use crate::app::{App, TabId};
use crate::tabkit::tab::QuestionId;
use crate::widgets::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};
use std::time::Duration;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// A student idle this long is marked: likely lost, or away.
const IDLE_MARK: Duration = Duration::from_secs(120);

/// Columns of the name; longer names are cut with `…` (the log has them whole).
const NAME_WIDTH: usize = 16;

/// Draws the room over `area` (the body of the screen).
pub fn render(app: &App, room: &dyn Room, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let seats = room.seats();
    let here = || seats.iter().filter(|s| !s.away);
    let idle = here().filter(|s| s.idle >= IDLE_MARK).count();
    let following = here().filter(|s| s.at.following).count();
    let away = seats.len() - here().count();
    let away = if away == 0 {
        String::new()
    } else {
        format!(" ({away} away)")
    };
    let title = format!(
        " The room: {} student{}{away}, {following} following you, {idle} idle 2m+ ",
        seats.len(),
        if seats.len() == 1 { "" } else { "s" }
    );
    let tally = answers(app, &seats);
    let note = room.collect_note().map(|note| format!("Collect: {note}"));
    let inner = Block::bordered().inner(area);
    let header = Rect::new(inner.x, inner.y, inner.width, inner.height.min(1));
    let tally_rows = if tally.is_some() { 2 } else { 0 };
    // Wrapped, in at most two rows.
    let note_rows = note.as_ref().map_or(0, |note| {
        if note.width() > usize::from(inner.width) {
            2
        } else {
            1
        }
    });
    let body_height = inner
        .height
        .saturating_sub(header.height)
        .saturating_sub(tally_rows + note_rows);
    let body = Rect::new(inner.x, inner.y + header.height, inner.width, body_height);
    let cursor = app.room_row(&seats);
    keep_in_view(app, cursor, body.height);
    let scroll = clamp_scroll(&app.overlay_scroll, seats.len(), body.height);
    let shown_to = (usize::from(scroll) + usize::from(body.height)).min(seats.len());
    // The count matters only when the rows scroll; otherwise the course keeps the room.
    let rows = if seats.is_empty() || seats.len() <= usize::from(body.height) {
        String::new()
    } else {
        format!(
            " rows {}-{shown_to} of {} ·",
            usize::from(scroll) + 1,
            seats.len()
        )
    };
    let course = room.course();
    // Esc is on the hints row: the border keeps its room for the course.
    let closes = format!("{rows} s: over time · ? help ");
    let room_for_course = usize::from(area.width).saturating_sub(closes.width() + 4);
    let block = Block::bordered()
        .border_type(BorderType::Double)
        .border_style(theme.border_focused)
        .title(Span::styled(title, theme.title))
        .title_bottom(Line::from(course_words(&course, room_for_course)).left_aligned())
        .title_bottom(Line::from(closes).right_aligned());
    Clear.render(area, buf);
    block.render(area, buf);
    if inner.height == 0 {
        return;
    }
    Line::styled(
        row_text(
            " ", "name", "by", "tab", "step", "at", "right", "answer", "idle",
        ),
        theme.dim,
    )
    .render(header, buf);
    if let Some(lines) = tally {
        let at = Rect::new(inner.x, body.y + body.height, inner.width, tally_rows);
        Paragraph::new(lines).render(at, buf);
    }
    if let Some(note) = note {
        let y = body.y + body.height + tally_rows;
        let at = Rect::new(inner.x, y, inner.width, note_rows).intersection(inner);
        Paragraph::new(Line::styled(note, theme.error))
            .wrap(ratatui::widgets::Wrap { trim: true })
            .render(at, buf);
    }
    if seats.is_empty() {
        Line::styled("No students yet: they appear as they log in", theme.dim).render(body, buf);
        return;
    }
    let lines: Vec<Line> = seats
        .iter()
        .enumerate()
        .skip(usize::from(scroll))
        .map(|(at, seat)| seat_line(seat, &course, at == cursor, theme))
        .collect();
    Paragraph::new(lines).render(body, buf);
}

/// Scrolls the table so the cursor's row is shown.
fn keep_in_view(app: &App, cursor: usize, height: u16) {
    let height = usize::from(height.max(1));
    let scroll = usize::from(app.overlay_scroll.get());
    let scroll = if cursor < scroll {
        cursor
    } else if cursor >= scroll + height {
        cursor + 1 - height
    } else {
        scroll
    };
    app.overlay_scroll
        .set(u16::try_from(scroll).unwrap_or(u16::MAX));
}

/// The class's answers to the question on the teacher's screen (or, with none there, the
/// question most students have), counted before the reveal: two lines, or `None` when
/// no student has a question waiting.
fn answers<'a>(app: &App, seats: &[Seat]) -> Option<Vec<Line<'a>>> {
    let (asked, question) = app
        .open_question()
        .map(|question| ((app.tab, question.id), question.question))
        .or_else(|| most_asked(seats))?;
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut waiting = 0;
    for seat in seats {
        let Some(question) = seat.at.question.as_ref() else {
            continue;
        };
        if (seat.at.tab, question.id) != asked {
            continue;
        }
        match &question.held {
            Some(answer) => match counts.iter_mut().find(|(a, _)| a == answer) {
                Some((_, n)) => *n += 1,
                None => counts.push((answer.clone(), 1)),
            },
            None => waiting += 1,
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut tally: Vec<String> = counts.iter().map(|(a, n)| format!("{a}: {n}")).collect();
    tally.push(format!("no answer yet: {waiting}"));
    Some(vec![
        Line::raw(question),
        Line::raw(format!("Answers: {} (v reveals)", tally.join(" · "))),
    ])
}

/// The question most students have waiting: which one (its tab and id), and its words.
fn most_asked(seats: &[Seat]) -> Option<((TabId, QuestionId), String)> {
    let mut questions: Vec<((TabId, QuestionId), &str, usize)> = Vec::new();
    for seat in seats {
        let Some(question) = seat.at.question.as_ref() else {
            continue;
        };
        let asked = (seat.at.tab, question.id);
        match questions.iter_mut().find(|(q, _, _)| *q == asked) {
            Some((_, _, n)) => *n += 1,
            None => questions.push((asked, &question.question, 1)),
        }
    }
    questions
        .into_iter()
        .max_by_key(|&(_, _, n)| n)
        .map(|(asked, words, _)| (asked, words.to_string()))
}

/// The course at the room's foot, in at most `width` columns: the lesson the class is on
/// (its title cut if need be) and the key that moves it on (nothing without a course).
fn course_words(course: &Course, width: usize) -> String {
    let n = course.titles.len();
    if n < 2 {
        return String::new();
    }
    let place = format!(" L{} of {n}: ", course.at + 1);
    let key = if course.at + 1 < n {
        " · n next "
    } else {
        " · p back "
    };
    let room = width.saturating_sub(place.width() + key.width());
    if room < 4 {
        return String::new();
    }
    format!("{place}{}{key}", cut(&course.titles[course.at], room))
}

/// A student's lesson step, `4/9`; in a course, with the lesson's place in it: `L2 4/9`.
fn step_words(at: &Whereabouts, course: &Course) -> String {
    let Some((step, of)) = at.step else {
        return "-".to_string();
    };
    let lesson = (at.lesson.as_ref())
        .and_then(|title| course.titles.iter().position(|t| t == title))
        .filter(|_| course.titles.len() > 1);
    match lesson {
        Some(place) => format!("L{} {step}/{of}", place + 1),
        None => format!("{step}/{of}"),
    }
}

fn seat_line<'a>(seat: &Seat, course: &Course, selected: bool, theme: &Theme) -> Line<'a> {
    let at = &seat.at;
    let step = step_words(at, course);
    let right = if at.score.asked == 0 {
        "-".to_string()
    } else {
        format!("{}/{}", at.score.right, at.score.asked)
    };
    let answer = at
        .question
        .as_ref()
        .map_or("", |question| question.held.as_deref().unwrap_or("…"));
    let mark = if at.following { "●" } else { " " };
    // An away student's place is kept: the row stays, and says so.
    let idle = if seat.away {
        "away".to_string()
    } else {
        idle_words(seat.idle)
    };
    let stepper = at.stepper.as_deref().unwrap_or("-");
    let text = row_text(
        mark,
        &seat.name,
        seat.door.word(),
        at.tab.title(),
        &step,
        stepper,
        &right,
        answer,
        &idle,
    );
    let (text, style) = if seat.away {
        (text, theme.dim)
    } else if seat.idle >= IDLE_MARK {
        (format!("{text} ◀"), theme.error)
    } else {
        (text, Style::default())
    };
    let style = if selected {
        style.add_modifier(Modifier::REVERSED)
    } else {
        style
    };
    Line::styled(text, style)
}

/// One row of the table: the columns in order, each as wide as the header says.
#[allow(clippy::too_many_arguments)] // one per column, named as the header names them
fn row_text(
    mark: &str,
    name: &str,
    door: &str,
    tab: &str,
    step: &str,
    stepper: &str,
    right: &str,
    answer: &str,
    idle: &str,
) -> String {
    let name = fit(name);
    let [door, tab, step, stepper, right, answer, idle] = [
        (door, 3),
        (tab, 15),
        (step, 8),
        (stepper, 5),
        (right, 6),
        (answer, 6),
        (idle, 7),
    ]
    .map(|(text, width)| cut(text, width));
    format!(
        "{mark}{name} {door:<3} {tab:<15} {step:>8} {stepper:>5} {right:>6} {answer:>6} {idle:>7}"
    )
}

/// `text` in at most `width` columns, cut with `…` when longer, so no value pushes the
/// columns after it out of line (a long typed answer, `100/120` steps).
pub(super) fn cut(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut kept = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width - 1 {
            break;
        }
        kept.push(c);
        used += w;
    }
    kept.push('…');
    kept
}

/// `name` in exactly [`NAME_WIDTH`] columns of the screen (see [`fit_to`]).
pub(super) fn fit(name: &str) -> String {
    fit_to(name, NAME_WIDTH)
}

/// `name` in exactly `columns` columns of the screen: cut with `…` when longer, padded
/// with spaces when shorter. Columns, not characters: a CJK character takes two, so
/// counting characters would push the rest of its row out of line.
pub(super) fn fit_to(name: &str, columns: usize) -> String {
    let mut fitted = cut(name, columns);
    let width = fitted.width();
    fitted.extend(std::iter::repeat_n(' ', columns.saturating_sub(width)));
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_take_the_same_columns_whatever_their_script() {
        for name in [
            "Ada",
            "李小龙",
            "Katherine Johnson-Goble",
            "山田太郎山田太郎山田太郎",
        ] {
            let row = row_text(
                " ",
                name,
                "web",
                "Tic-tac-toe",
                "1/7",
                "26",
                "1/2",
                "y",
                "3s",
            );
            let before_door = row.split("web").next().unwrap();
            assert_eq!(before_door.width(), 1 + NAME_WIDTH + 1, "{row:?}");
        }
        assert_eq!(fit("山田太郎山田太郎山田太郎"), "山田太郎山田太… ");
    }

    #[test]
    fn long_values_are_cut_so_every_column_stays_in_line() {
        let short = row_text(
            " ",
            "ada",
            "ssh",
            "Tic-tac-toe",
            "1/7",
            "26",
            "1/2",
            "y",
            "3s",
        );
        let long = row_text(
            " ",
            "ada",
            "web",
            "Tic-tac-toe",
            "L12 100/120",
            "136882/136882",
            "1234/5678",
            "a very long answer",
            "away",
        );
        assert_eq!(long.width(), short.width(), "{long:?}");
        assert!(
            long.contains("L12 100…") && long.contains("1234/…"),
            "{long:?}"
        );
    }
}
