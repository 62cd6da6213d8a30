//! Issue 30 §4 over SSH: a named class lives past one sitting. A student answers on day 1;
//! the server stops, and starts again for the same class on day 8 (the clock the settings
//! carry, set by the test) with a new class code; the student logs in with the new code
//! and is back at their place, and the teacher's summary of the class shows the day-1
//! answer and both days. Every server is in-process on loopback; timeouts are safety
//! limits.

use crate::serve::{Screen, TestDir, code_login, login_as, new_key, open_arcade, start_with};
use ai_arcade::serve::class_code::ClassCode;
use ai_arcade::serve::clock::Clock;
use ai_arcade::serve::named_class;
use russh::keys::PrivateKey;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::class_term::{Session, body, keys};

/// 09:00 on `day` (days from 1970-01-01): day 20,000 is 2024-10-04.
fn morning(day: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(day * 86_400 + 9 * 3_600)
}

/// A server for the class `physics-7b` in `dir`, letting students in with `code` and the
/// teacher with `teacher`'s key, its days read from `clock`, running the alpha-beta lesson.
async fn physics_7b(
    dir: &TestDir,
    code: &str,
    teacher: &PrivateKey,
    clock: &Clock,
) -> crate::serve::TestServer {
    let mut settings = crate::common::settings(dir, None);
    let class = named_class::folders(dir, "physics-7b").unwrap();
    settings.seats = Some(class.seats.clone());
    settings.collect = Some(class.collect.clone());
    settings.class = Some(class);
    settings.clock = clock.clone();
    settings.class_code = Some(ClassCode::given(code).unwrap());
    let teachers = dir.join("teacher_keys");
    std::fs::write(&teachers, teacher.public_key().to_openssh().unwrap() + "\n").unwrap();
    settings.teacher_keys = Some(teachers);
    let config = crate::serve::with_lesson(&mut settings, "02-alphabeta.toml");
    start_with(dir.clone(), settings, config, None).await
}

/// `name` logs in with the class code and their arcade opens.
async fn student(server: &crate::serve::TestServer, name: &str, code: &str) -> Session {
    let handle = code_login(server, name, code)
        .await
        .handle
        .unwrap_or_else(|| panic!("{name} logs in with {code}"));
    let mut channel = open_arcade(&handle).await;
    let mut screen = Screen::new();
    screen
        .until(&mut channel, "the tab bar", |s| {
            s.text().contains("Tic-tac-toe")
        })
        .await;
    (handle, channel, screen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_class_resumed_after_a_restart_on_another_day() {
    let dir = crate::serve::temp_dir("named-class");
    let teacher = new_key();
    let clock = Clock::set_to(morning(20_000));

    // Day 1: ada plays the centre, turns predict mode on, steps to a question, answers.
    let server = physics_7b(&dir, "monday-7b", &teacher, &clock).await;
    let mut ada = student(&server, "ada", "monday-7b").await;
    keys(&mut ada, b"5P", "predict mode", |s| {
        s.text().contains("Predict mode on")
    })
    .await;
    for _ in 0..60 {
        if ada.2.text().contains("Predict: what value") {
            break;
        }
        let before = ada.2.text();
        keys(&mut ada, b" ", "a step", |s| s.text() != before).await;
    }
    keys(&mut ada, b"0\r", "ada's answer graded", |s| {
        s.text().contains("Right") || s.text().contains("Wrong")
    })
    .await;
    let before = body(&ada.2);
    server.server.shutdown(Duration::from_secs(5)).await;
    ada.2.until(&mut ada.1, "the shutdown", |s| s.closed).await;
    let class = dir.join("classes/physics-7b");
    assert!(
        class.join("seats/ada.json").exists(),
        "ada's seat is in the class"
    );
    assert!(
        !dir.join("seats").exists(),
        "not in the data dir's own seats"
    );
    assert!(class.join("progress.json").exists(), "the class's record");
    let results = std::fs::read_to_string(class.join("collect/results.csv")).unwrap();
    assert!(results.contains("2024-10-04T09:00:00Z,ada,"), "{results}");

    // Day 8: the same class with a new code; the old one no longer lets anyone in.
    clock.set(morning(20_007));
    let server = physics_7b(&dir, "tuesday-7b", &teacher, &clock).await;
    assert!(
        code_login(&server, "ada", "monday-7b")
            .await
            .handle
            .is_none()
    );
    let mut ada = student(&server, "ada", "tuesday-7b").await;
    ada.2
        .until(&mut ada.1, "ada back on day 8", |s| {
            s.text()
                .contains("place was kept while the server restarted")
        })
        .await;
    assert_eq!(body(&ada.2), before, "the same board, search and question");
    keys(&mut ada, b"M", "ada's own progress", |s| {
        s.text().contains("My progress: ada")
    })
    .await;
    let own = ada.2.text();
    assert!(
        own.contains("Days you came: 2 (first 2024-10-04, last 2024-10-11)"),
        "{own}"
    );
    assert!(
        own.contains("Tic-tac-toe: Predict"),
        "her day-1 answer: {own}"
    );

    let handle = login_as(&server, "teacher", &teacher).await;
    let mut channel = open_arcade(&handle).await;
    let mut room = Screen::new();
    room.until(&mut channel, "the room", |s| {
        s.text().contains("The room: 1 student")
    })
    .await;
    channel.data_bytes(&b"s"[..]).await.unwrap();
    room.until(&mut channel, "the class over time", |s| {
        s.text().contains("class physics-7b: 1 student, 1 question")
    })
    .await;
    let summary = room.text();
    assert!(
        summary.contains(" ada ") && summary.contains("2 2024-10-11"),
        "{summary}"
    );
    assert!(
        summary.contains("Q1 ") && summary.contains("Tic-tac-toe: Predict"),
        "{summary}"
    );
}
