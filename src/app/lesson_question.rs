//! A lesson step's own question, as the app runs it: `A` opens the answer entry on the
//! lesson pane, a choice or a number is given with Enter and graded at once, or, in a class
//! following its teacher (and on the teacher's own screen), locked in until the teacher's
//! reveal grades it. It is graded and counted as the engine's predictions are: the same
//! score in the tab bar and the room, the same collect folder, the same `QuestionId` by
//! which the room counts a class's answers.

use super::action::AnswerKey;
use super::journal::Entry;
use super::{App, Message};
use crate::lesson::Question;
use crate::lesson::pane::{Answering, state_words};
use crate::lesson::question::MAX_NUMBER_CHARS;
use crate::tabkit::tab::{OpenQuestion, QuestionId, Score, Verdict, position_key};

/// What the room calls a lesson's own question, as a stepper's name.
const ASKED_BY: &str = "lesson";

impl App {
    /// Whether the answer entry of the step's question is open: its keys alone act.
    #[must_use]
    pub fn answering(&self) -> bool {
        self.lesson
            .as_ref()
            .and_then(|progress| progress.question())
            .is_some_and(|(_, answer)| answer.entry.is_some())
    }

    /// The answer entry's keys while it is open: the choices' or the number's.
    pub(super) fn answer_keys(&self) -> Option<super::keys::Keys> {
        self.lesson.as_ref()?.question()?.1.entry.as_ref()?;
        self.question_keys()
    }

    /// The keys of the answer entry of the step's question, open or not (for the help).
    pub(super) fn question_keys(&self) -> Option<super::keys::Keys> {
        let (question, _) = self.lesson.as_ref()?.question()?;
        Some(if question.choices().is_some() {
            super::keys::LESSON_CHOICE.into()
        } else {
            super::keys::LESSON_NUMBER.into()
        })
    }

    /// Every graded prediction of the session: the tabs' and the lesson's own questions'.
    #[must_use]
    pub fn predictions(&self) -> Score {
        let lesson = self.lesson.as_ref().map(super::LessonProgress::score);
        self.tabs.predictions().plus(lesson.unwrap_or_default())
    }

    /// The question waiting on this screen, as the room reads it: the step's own while it
    /// takes an answer, else the shown tab's prediction.
    #[must_use]
    pub fn open_question(&self) -> Option<OpenQuestion> {
        self.lesson_question()
            .or_else(|| self.tabs.open_question(self.tab))
    }

    /// The step's own question while it takes an answer or holds one for the reveal.
    fn lesson_question(&self) -> Option<OpenQuestion> {
        let progress = self.lesson.as_ref()?;
        let (question, answer) = progress.question()?;
        if answer.revealed || matches!(answer.graded, Some((_, true))) {
            return None;
        }
        let kind = if question.choices().is_some() {
            "choice"
        } else {
            "number"
        };
        Some(OpenQuestion {
            id: QuestionId {
                stepper: ASKED_BY,
                position: position_key(&(&progress.lesson.title, &question.ask)),
                step: progress.step as u64,
                kind,
                node: 0,
            },
            question: question.ask.clone(),
            held: answer.held.clone(),
            typed: answer.entry.clone().unwrap_or_default(),
        })
    }

    /// Whether answers wait for the teacher's reveal: a student following, or the teacher.
    fn holds_answers(&self) -> bool {
        self.following.is_some() || self.room.is_some()
    }

    /// A key of the answer to the step's own question.
    pub(super) fn lesson_answer(&mut self, key: AnswerKey) {
        let Some((question, answer)) = self.lesson.as_ref().and_then(|p| p.question()) else {
            self.say(Message::error("This step asks no question of its own"));
            return;
        };
        let question = question.clone();
        let entry = answer.entry.clone();
        let said = match (key, entry) {
            (AnswerKey::Open, _) => self.open_entry(&question),
            (AnswerKey::Close, _) => {
                self.set_entry(None);
                Some(Message::info(
                    "Answer closed: nothing given. A opens it again",
                ))
            }
            (AnswerKey::Choose(at), Some(_)) => match question.choices() {
                Some(choices) if usize::from(at) < choices.len() => {
                    self.set_entry(Some(choices[usize::from(at)].clone()));
                    None
                }
                _ => Some(Message::error("No such choice")),
            },
            (AnswerKey::Type(c), Some(mut typed)) if typed.chars().count() < MAX_NUMBER_CHARS => {
                typed.push(c);
                self.set_entry(Some(typed));
                None
            }
            (AnswerKey::Type(_), Some(_)) => Some(Message::error(
                "That is as long as an answer gets: Enter gives it",
            )),
            (AnswerKey::Backspace, Some(mut typed)) => {
                typed.pop();
                self.set_entry(Some(typed));
                None
            }
            (AnswerKey::Give, Some(given)) => Some(self.give(&question, &given)),
            (_, None) => Some(Message::error("The answer is closed: A opens it")),
        };
        if let Some(said) = said {
            self.say(said);
        }
    }

    fn set_entry(&mut self, entry: Option<String>) {
        if let Some(answer) = self.lesson.as_mut().and_then(|p| p.answer_mut()) {
            answer.entry = entry;
        }
    }

    /// `A`: opens the entry, or says why the question takes no answer now.
    fn open_entry(&mut self, question: &Question) -> Option<Message> {
        let (_, answer) = self.lesson.as_ref()?.question()?;
        if let Some(held) = &answer.held {
            return Some(Message::info(format!(
                "Your answer {held} is in: the teacher reveals it to everyone"
            )));
        }
        if !answer.open() {
            return Some(Message::info(format!(
                "Answered: the answer is {}",
                question.right_answer()
            )));
        }
        self.set_entry(Some(String::new()));
        let how = match question.choices() {
            Some(choices) => format!(
                "a-{} chooses, Enter gives it, Esc closes",
                Question::label(choices.len() - 1)
            ),
            None => "type a number, Enter gives it, Esc closes".to_owned(),
        };
        Some(Message::info(format!("{}: {how}", question.ask)))
    }

    /// Enter: the answer graded at once, or locked in while answers wait for the reveal.
    fn give(&mut self, question: &Question, given: &str) -> Message {
        let given = given.trim().to_owned();
        let right = match question.grade(&given) {
            Ok(right) => right,
            Err(why) => return Message::error(why),
        };
        let asked = self.lesson_question();
        let hold = self.holds_answers();
        // A student's answer is part of their place (a restored seat grades it again); a
        // teacher's is held for the reveal and changes nobody's position.
        if self.room.is_none() {
            self.record(Entry::LessonAnswered(given.clone()));
        }
        let Some(answer) = self.lesson.as_mut().and_then(|p| p.answer_mut()) else {
            return Message::error("This step asks no question of its own");
        };
        answer.entry = None;
        if hold {
            answer.held = Some(given.clone());
            return Message::info(format!(
                "Your answer {given} is in: the teacher reveals it to everyone"
            ));
        }
        answer.graded = Some((Some(given.clone()), right));
        answer.score.count(right);
        self.keep_graded(self.tab, asked.map(|asked| Verdict { asked, right }));
        if right {
            Message::info(format!("Right: {given}"))
        } else {
            Message::error(format!("Not quite: {given} is not it. A tries again"))
        }
    }

    /// A student's answer replayed from their journal, as it was given.
    pub(super) fn replay_answer(&mut self, given: &str) {
        let Some((question, _)) = self.lesson.as_ref().and_then(|p| p.question()) else {
            return;
        };
        let question = question.clone();
        let said = self.give(&question, given);
        self.message = Some(said);
    }

    /// The teacher's reveal of the step's own question: the answer held is graded (with
    /// none, the right answer is shown) and the question takes no more answers. What to
    /// say; `None` when the step's question takes no answer now.
    pub(super) fn reveal_lesson(&mut self) -> Option<Message> {
        let asked = self.lesson_question()?;
        let (question, _) = self.lesson.as_ref()?.question()?;
        let question = question.clone();
        let answer = self.lesson.as_mut()?.answer_mut()?;
        answer.entry = None;
        answer.revealed = true;
        let held = answer.held.take();
        let right = held.as_deref().and_then(|given| question.grade(given).ok());
        answer.graded = Some((held.clone(), right == Some(true)));
        if let Some(right) = right {
            answer.score.count(right);
            self.keep_graded(self.tab, Some(Verdict { asked, right }));
        }
        let answer = question.right_answer();
        Some(match (held, right) {
            (Some(given), Some(true)) => Message::info(format!("Right: {given}")),
            (Some(given), _) => Message::error(format!(
                "Not quite: you said {given}; the answer is {answer}"
            )),
            (None, _) => Message::info(format!("The answer: {answer}")),
        })
    }

    /// Where the student is with the step's own question, as the lesson pane says it.
    #[must_use]
    pub fn answering_words(&self) -> Option<(Question, String)> {
        let (question, answer) = self.lesson.as_ref()?.question()?;
        let right = question.right_answer();
        let answering = match (&answer.entry, &answer.held, &answer.graded) {
            (Some(typed), _, _) => Answering::Entry(typed),
            (_, Some(held), _) => Answering::Held(held),
            (_, _, Some((Some(given), true))) => Answering::Right(given),
            (_, _, Some((given, false))) if answer.revealed => {
                Answering::Revealed(given.as_deref(), &right)
            }
            (_, _, Some((Some(given), false))) => Answering::Retry(given),
            _ => Answering::Waiting,
        };
        Some((question.clone(), state_words(answering)))
    }
}
