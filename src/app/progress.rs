//! A class over time, as plain data (issue 30 §4): for each student, the lessons they
//! finished, their graded answers counted by question, and the days they came. The server
//! keeps it (and, for a named class, writes it to the class's folder); the teacher's app
//! reads the whole class through `Room::progress`, a student's app their own through
//! `SeatReport::progress`. Everything a stranger can grow is bounded here, where it grows.

use crate::tabs::TabId;
use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// The most lessons a student's record lists as done.
pub const MAX_LESSONS: usize = 64;
/// The most questions a student's record counts one by one; answers to more are counted
/// in the totals only.
pub const MAX_QUESTIONS: usize = 200;
/// The longest question kept, in characters (the engine's are under 80).
pub const MAX_QUESTION_CHARS: usize = 200;
/// The longest lesson title kept, in characters.
pub const MAX_TITLE_CHARS: usize = 120;

/// A calendar day, counted from 1970-01-01 (UTC): what "days seen" counts, so a student
/// seen twice on one day is seen one day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Day(pub u32);

impl Day {
    /// The day `time` falls on (a time before 1970 is day 0).
    #[must_use]
    pub fn of(time: SystemTime) -> Self {
        let days = time
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs() / 86_400);
        Self(u32::try_from(days).unwrap_or(u32::MAX))
    }
}

impl std::fmt::Display for Day {
    /// `2025-03-04`: the proleptic Gregorian date of the day (Howard Hinnant's
    /// `civil_from_days`), so the app needs no calendar crate.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let z = i64::from(self.0) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

/// One question's graded answers by one student.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionTally {
    /// The tab that asked.
    pub tab: TabId,
    /// The question in words: students following one lesson are asked the same words.
    pub question: String,
    /// Answers graded right.
    pub right: u32,
    /// Answers graded wrong.
    pub wrong: u32,
}

/// One student's record over the class's sittings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudentProgress {
    /// The student's name in the class.
    pub name: String,
    /// The lessons whose last step they reached, in the order they finished them.
    pub lessons_done: Vec<String>,
    /// Their graded answers by question, in the order first asked.
    pub questions: Vec<QuestionTally>,
    /// Every answer graded right, the questions past [`MAX_QUESTIONS`] included.
    pub right: u32,
    /// Every answer graded wrong.
    pub wrong: u32,
    /// How many different days they came.
    pub days_seen: u32,
    /// The first day they came.
    pub first_seen: Option<Day>,
    /// The last day they came.
    pub last_seen: Option<Day>,
}

impl StudentProgress {
    /// A student with nothing on record yet.
    #[must_use]
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_string(),
            lessons_done: Vec::new(),
            questions: Vec::new(),
            right: 0,
            wrong: 0,
            days_seen: 0,
            first_seen: None,
            last_seen: None,
        }
    }

    /// The student came on `day`; whether that is a day not counted yet.
    pub fn seen(&mut self, day: Day) -> bool {
        if self.last_seen.is_some_and(|last| last >= day) {
            return false;
        }
        self.days_seen = self.days_seen.saturating_add(1);
        self.first_seen.get_or_insert(day);
        self.last_seen = Some(day);
        true
    }

    /// The student reached the last step of `lesson`; whether it was not done before.
    pub fn lesson_done(&mut self, lesson: &str) -> bool {
        let lesson = cut(lesson, MAX_TITLE_CHARS);
        if self.lessons_done.contains(&lesson) || self.lessons_done.len() >= MAX_LESSONS {
            return false;
        }
        self.lessons_done.push(lesson);
        true
    }

    /// Counts an answer to `question` on `tab`, graded `right` or not.
    pub fn graded(&mut self, tab: TabId, question: &str, right: bool) {
        let count = |tally: &mut u32| *tally = tally.saturating_add(1);
        count(if right {
            &mut self.right
        } else {
            &mut self.wrong
        });
        let question = cut(question, MAX_QUESTION_CHARS);
        let found = (self.questions.iter()).position(|q| q.tab == tab && q.question == question);
        let at = match found {
            Some(at) => at,
            None if self.questions.len() < MAX_QUESTIONS => {
                self.questions.push(QuestionTally {
                    tab,
                    question,
                    right: 0,
                    wrong: 0,
                });
                self.questions.len() - 1
            }
            None => return,
        };
        let tally = &mut self.questions[at];
        count(if right {
            &mut tally.right
        } else {
            &mut tally.wrong
        });
    }

    /// Why this record cannot be what the server wrote (a file edited by hand, or
    /// damaged), if it cannot.
    ///
    /// # Errors
    /// The bound it breaks, in words.
    pub fn check(&self) -> Result<(), String> {
        let name = &self.name;
        if self.lessons_done.len() > MAX_LESSONS {
            return Err(format!("{name}: more than {MAX_LESSONS} lessons done"));
        }
        if self.questions.len() > MAX_QUESTIONS {
            return Err(format!("{name}: more than {MAX_QUESTIONS} questions"));
        }
        let long = self
            .lessons_done
            .iter()
            .any(|t| t.chars().count() > MAX_TITLE_CHARS)
            || (self.questions.iter()).any(|q| q.question.chars().count() > MAX_QUESTION_CHARS);
        if long {
            return Err(format!("{name}: a lesson title or question is too long"));
        }
        Ok(())
    }
}

/// `text` in at most `most` characters.
fn cut(text: &str, most: usize) -> String {
    text.chars().take(most).collect()
}

/// One question across the class: how many students answered it, and how many of them
/// got it wrong at least once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassQuestion {
    /// The tab that asked.
    pub tab: TabId,
    /// The question in words.
    pub question: String,
    /// Students who answered it.
    pub answered: u32,
    /// Students who answered it wrong at least once.
    pub missed: u32,
}

impl ClassQuestion {
    /// Whether most of those who answered it got it wrong.
    #[must_use]
    pub fn mostly_missed(&self) -> bool {
        self.missed * 2 > self.answered
    }
}

/// The whole class over time, as the teacher's summary reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassProgress {
    /// The class's name (`serve --class`), if it has one: only a named class outlives
    /// the server.
    pub class: Option<String>,
    /// Every student on record, by name.
    pub students: Vec<StudentProgress>,
}

impl ClassProgress {
    /// Every question any student answered, in the order the class first met them.
    #[must_use]
    pub fn questions(&self) -> Vec<ClassQuestion> {
        let mut questions: Vec<ClassQuestion> = Vec::new();
        for student in &self.students {
            for tally in &student.questions {
                let found = (questions.iter())
                    .position(|q| q.tab == tally.tab && q.question == tally.question);
                let at = found.unwrap_or_else(|| {
                    questions.push(ClassQuestion {
                        tab: tally.tab,
                        question: tally.question.clone(),
                        answered: 0,
                        missed: 0,
                    });
                    questions.len() - 1
                });
                let question = &mut questions[at];
                question.answered += 1;
                question.missed += u32::from(tally.wrong > 0);
            }
        }
        questions
    }

    /// The questions most of the class got wrong, the most missed first (then in the
    /// order met).
    #[must_use]
    pub fn most_missed(&self) -> Vec<ClassQuestion> {
        let mut missed: Vec<ClassQuestion> = (self.questions().into_iter())
            .filter(ClassQuestion::mostly_missed)
            .collect();
        missed.sort_by_key(|q| std::cmp::Reverse(q.missed));
        missed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn days_are_calendar_days_and_read_as_dates() {
        assert_eq!(Day(0).to_string(), "1970-01-01");
        assert_eq!(Day(19_786).to_string(), "2024-03-04");
        assert_eq!(Day(11_016).to_string(), "2000-02-29");
        let morning = UNIX_EPOCH + Duration::from_secs(19_786 * 86_400 + 60);
        let night = morning + Duration::from_secs(86_400 - 120);
        assert_eq!(Day::of(morning), Day::of(night));
        assert_eq!(Day::of(night + Duration::from_secs(120)), Day(19_787));
    }

    #[test]
    fn a_student_is_counted_once_a_day_a_lesson_once_and_answers_by_question() {
        let mut ada = StudentProgress::new("ada");
        assert!(ada.seen(Day(10)) && !ada.seen(Day(10)) && ada.seen(Day(17)));
        assert!(!ada.seen(Day(12)), "a clock set back counts no day");
        assert_eq!(
            (ada.days_seen, ada.first_seen, ada.last_seen),
            (2, Some(Day(10)), Some(Day(17)))
        );
        assert!(ada.lesson_done("Alpha-beta") && !ada.lesson_done("Alpha-beta"));
        ada.graded(TabId::TicTacToe, "cut-off at X7?", false);
        ada.graded(TabId::TicTacToe, "cut-off at X7?", true);
        ada.graded(TabId::ConnectFour, "cut-off at X7?", true);
        assert_eq!(
            ada.questions.len(),
            2,
            "a question is its tab and its words"
        );
        assert_eq!((ada.questions[0].right, ada.questions[0].wrong), (1, 1));
        assert_eq!((ada.right, ada.wrong), (2, 1));
        assert_eq!(ada.check(), Ok(()));
    }

    #[test]
    fn what_a_student_can_grow_is_bounded() {
        let mut sam = StudentProgress::new("sam");
        for n in 0..MAX_QUESTIONS + 5 {
            sam.graded(TabId::TicTacToe, &format!("q{n}"), false);
        }
        sam.graded(TabId::TicTacToe, &"x".repeat(1_000), true);
        for n in 0..MAX_LESSONS + 5 {
            sam.lesson_done(&format!("lesson {n}"));
        }
        assert_eq!(sam.questions.len(), MAX_QUESTIONS);
        assert_eq!(
            (sam.right, sam.wrong),
            (1, MAX_QUESTIONS as u32 + 5),
            "totals go on"
        );
        assert_eq!(sam.lessons_done.len(), MAX_LESSONS);
        assert_eq!(sam.check(), Ok(()));
        sam.questions.push(sam.questions[0].clone());
        assert!(sam.check().unwrap_err().contains("more than 200 questions"));
    }

    #[test]
    fn the_questions_most_of_the_class_missed_come_first() {
        let mut class = ClassProgress::default();
        for (name, first_right, second_right) in [
            ("ada", true, false),
            ("bob", false, false),
            ("cy", true, false),
        ] {
            let mut student = StudentProgress::new(name);
            student.graded(TabId::TicTacToe, "first", first_right);
            student.graded(TabId::TicTacToe, "second", second_right);
            class.students.push(student);
        }
        class.students[2].graded(TabId::TicTacToe, "third", false);
        let questions = class.questions();
        let words: Vec<&str> = questions.iter().map(|q| q.question.as_str()).collect();
        assert_eq!(words, ["first", "second", "third"]);
        assert_eq!((questions[0].answered, questions[0].missed), (3, 1));
        let missed: Vec<String> = class
            .most_missed()
            .into_iter()
            .map(|q| q.question)
            .collect();
        assert_eq!(missed, ["second", "third"], "first: 1 of 3 missed it");
    }
}
