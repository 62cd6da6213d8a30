//! Issue 30 over SSH: a class for a whole term. A student who leaves (by `q`, or by a
//! client that is killed) comes back to exactly where they were; two students of one name
//! get a seat each; a teacher who leaves frees their followers, who follow again when the
//! teacher is back. Every server is in-process on loopback; timeouts are safety limits.

use crate::serve::{Class, Screen, arcade_shown, class_server, login_as, wait_until_closed};
use russh::client::{Handle, Msg};

pub(crate) type Session = (Handle<crate::common::Client>, russh::Channel<Msg>, Screen);

/// The rows of the tab's body (under the tab bar, above the lesson and status lines).
pub(crate) fn body(screen: &Screen) -> Vec<String> {
    (1..16).map(|row| screen.row(row)).collect()
}

async fn student(class: &Class, name: &str) -> Session {
    let handle = login_as(&class.server, name, &class.student).await;
    let (channel, screen) = arcade_shown(&handle).await;
    (handle, channel, screen)
}

/// The teacher logs in; their session opens on the room, read until `done` holds.
async fn teacher(class: &Class, what: &str, done: impl Fn(&Screen) -> bool) -> Session {
    let handle = login_as(&class.server, "teacher", &class.teacher).await;
    let mut channel = crate::serve::open_arcade(&handle).await;
    let mut screen = Screen::new();
    screen.until(&mut channel, what, done).await;
    (handle, channel, screen)
}

pub(crate) async fn keys(
    session: &mut Session,
    keys: &'static [u8],
    what: &str,
    done: impl Fn(&Screen) -> bool,
) {
    let (_, channel, screen) = session;
    channel.data_bytes(keys).await.unwrap();
    screen.until(channel, what, done).await;
}

/// Waits until the server's log has `n` session ends: a session that ended has parked its
/// app and left its seat away.
async fn ended(class: &Class, n: usize) {
    let deadline = std::time::Instant::now() + crate::common::LIMIT;
    while class.server.log_text().matches("session end").count() < n {
        assert!(
            std::time::Instant::now() < deadline,
            "{}",
            class.server.log_text()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// §1: ada plays the centre, steps the search and goes to the lesson's third step; she
/// leaves with `q` (which asks first), and again by a killed client. Each time she logs in
/// under her name and finds the same screen, the same lesson step and the same search.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_student_who_leaves_comes_back_to_exactly_where_they_were() {
    let class = class_server("resume", Some("02-alphabeta.toml")).await;
    let mut ada = student(&class, "ada").await;
    // Enter closes the explanation the third step opens with.
    keys(&mut ada, b"5]   ]\r", "ada's third step", |s| {
        s.text().contains("Step 3 of") && s.text().contains("nodes 3 ")
    })
    .await;
    let before = body(&ada.2);

    keys(&mut ada, b"q", "the question", |s| {
        s.text().contains("q again to leave")
    })
    .await;
    keys(&mut ada, b"q", "the goodbye", |s| s.closed).await;
    let said = String::from_utf8_lossy(&ada.2.raw).into_owned();
    assert!(
        said.contains("your place is kept: log in again as ada"),
        "{said:?}"
    );
    ended(&class, 1).await;

    let mut ada = student(&class, "ada").await;
    ada.2
        .until(&mut ada.1, "ada back", |s| {
            s.text().contains("Welcome back, ada") && s.text().contains("Step 3 of")
        })
        .await;
    assert_eq!(body(&ada.2), before, "the same search, board and tree");

    // A client that is killed (its connection just closes) keeps her place too.
    keys(&mut ada, b" ", "one more step", |s| {
        s.text().contains("nodes 4 ")
    })
    .await;
    let before = body(&ada.2);
    drop(ada);
    ended(&class, 2).await;
    let mut ada = student(&class, "ada").await;
    ada.2
        .until(&mut ada.1, "ada back again", |s| {
            s.text().contains("Welcome back, ada")
        })
        .await;
    assert_eq!(body(&ada.2), before);

    // The teacher's room has one ada, here, at step 3, never a second row for her.
    teacher(&class, "the room", |s| {
        s.text().contains("The room: 1 student,") && s.text().contains(" 3/")
    })
    .await;
}

/// §3: two students who both log in as `sam` get a seat each: the second is `sam-2` and is
/// told so; the room lists both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_students_of_one_name_get_a_seat_each() {
    let class = class_server("two-sams", Some("02-alphabeta.toml")).await;
    let _first = student(&class, "sam").await;
    let mut second = student(&class, "sam").await;
    second
        .2
        .until(&mut second.1, "told the name", |s| {
            s.text().contains("so you are sam-2. If that sam was you")
        })
        .await;
    teacher(&class, "both sams", |s| {
        s.text().contains("The room: 2 students") && s.text().contains(" sam-2 ")
    })
    .await;
}

/// §2: the teacher leads three students, then leaves with `q`: each is freed at once and
/// told why. When the teacher logs in again, they follow again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn followers_are_freed_when_the_teacher_leaves_and_follow_again_on_return() {
    let class = class_server("teacher-leaves", Some("02-alphabeta.toml")).await;
    let mut students = Vec::new();
    for name in ["ada", "bob"] {
        students.push(student(&class, name).await);
    }
    let mut lead = teacher(&class, "the room", |s| {
        s.text().contains("The room: 2 students")
    })
    .await;
    keys(&mut lead, b"f", "both follow", |s| {
        s.text().contains("2 following you")
    })
    .await;
    for (_, channel, screen) in &mut students {
        screen
            .until(channel, "following", |s| {
                s.text().contains("following the teacher")
            })
            .await;
    }
    keys(&mut lead, b"q", "the question", |s| {
        s.text()
            .contains("the 2 students following you are freed until you come back")
    })
    .await;
    keys(&mut lead, b"q", "gone", |s| s.closed).await;
    wait_until_closed(&lead.0).await;
    for (_, channel, screen) in &mut students {
        screen
            .until(channel, "freed", |s| s.text().contains("The teacher left"))
            .await;
    }

    teacher(&class, "the room again", |s| {
        s.text().contains("2 following you")
    })
    .await;
    for (_, channel, screen) in &mut students {
        screen
            .until(channel, "following again", |s| {
                s.text().contains("Following the teacher")
            })
            .await;
    }
}

/// §1: a student following a demonstration is watching, not idle. With a 2 s idle
/// timeout, ada follows the teacher through 5 s of steps without a key of her own and is
/// still there; bob, who neither types nor follows, is closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_student_following_a_demonstration_is_not_dropped_as_idle() {
    let class = crate::serve::class_server_with("watching", Some("02-alphabeta.toml"), |s| {
        s.idle_timeout = std::time::Duration::from_secs(2);
    })
    .await;
    let mut ada = student(&class, "ada").await;
    let mut lead = teacher(&class, "the room", |s| {
        s.text().contains("The room: 1 student")
    })
    .await;
    keys(&mut lead, b"f", "ada follows", |s| {
        s.text().contains("1 following you")
    })
    .await;
    let channel = &mut lead.1;
    // Esc alone (a lone ESC waits 50 ms for more bytes), then the teacher's move.
    channel.data_bytes(&b"\x1b"[..]).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    channel.data_bytes(&b"5"[..]).await.unwrap();
    let mut bob = student(&class, "bob").await;
    for _ in 0..10 {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        channel.data_bytes(&b" "[..]).await.unwrap();
    }
    bob.2.until(&mut bob.1, "bob closed", |s| s.closed).await;
    let said = String::from_utf8_lossy(&bob.2.raw).into_owned();
    assert!(said.contains("idle for 2s"), "{said:?}");
    ada.2
        .until(&mut ada.1, "ada still following", |s| {
            s.text().contains("following the teacher") && s.text().contains("nodes 1")
        })
        .await;
    // Her session still answers her keys: the help opens.
    keys(&mut ada, b"?", "ada's help", |s| {
        s.text().contains(" Help: ")
    })
    .await;
}

/// §1: seats outlive the process. Ada steps the alpha-beta lesson to its third step; the
/// server shuts down (her session ends and her seat is written to the data dir); a new
/// server on the same data dir gives her back the same screen when she logs in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_restart_gives_every_student_their_place_back() {
    let dir = crate::serve::temp_dir("restart");
    let key = crate::serve::new_key();
    let start = || {
        let mut settings = crate::common::settings(&dir, Some(&[&key]));
        let config = crate::serve::with_lesson(&mut settings, "02-alphabeta.toml");
        crate::serve::start_with(dir.clone(), settings, config, None)
    };
    let server = start().await;
    let class = Class {
        server,
        student: key.clone(),
        teacher: crate::serve::new_key(),
    };
    let mut ada = student(&class, "ada").await;
    // Enter closes the explanation the third step opens with.
    keys(&mut ada, b"5]   ]\r", "ada's third step", |s| {
        s.text().contains("Step 3 of") && s.text().contains("nodes 3 ")
    })
    .await;
    let before = body(&ada.2);
    class
        .server
        .server
        .shutdown(std::time::Duration::from_secs(5))
        .await;
    ada.2.until(&mut ada.1, "the shutdown", |s| s.closed).await;
    assert!(dir.join("seats/ada.json").exists(), "ada's seat is on disk");

    let class = Class {
        server: start().await,
        student: key,
        teacher: crate::serve::new_key(),
    };
    let mut ada = student(&class, "ada").await;
    ada.2
        .until(&mut ada.1, "ada back after the restart", |s| {
            s.text()
                .contains("place was kept while the server restarted")
        })
        .await;
    assert_eq!(body(&ada.2), before, "the same board, search and step");
}

/// Issue 30's measure: a scripted class of 30 from one address follows the teacher
/// through a course, the whole minimax lesson (9 steps) and then the whole alpha-beta
/// lesson (8 steps), a search stepped at each step; the teacher moves the class from the
/// first to the second with `n` in the room. 5 students drop out along the way (their
/// connections just close), two of them during the first lesson and back during the
/// second, and log in again. At the end every one of the 30 is on the teacher's lesson and
/// step, following, with the teacher's screen: the places lost are counted (0 expected)
/// and printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_of_thirty_with_five_dropped_and_resumed_loses_no_place() {
    const CLASS: usize = 30;
    let class = crate::serve::class_server_with("thirty", None, |s| {
        s.max_sessions = 40;
        two_lesson_course(s);
    })
    .await;
    let names: Vec<String> = (1..=CLASS).map(|n| format!("s{n:02}")).collect();
    let mut students = Vec::new();
    for name in &names {
        students.push(Some(student(&class, name).await));
    }
    let mut lead = teacher(&class, "the whole class", |s| {
        s.text().contains(&format!("The room: {CLASS} students"))
    })
    .await;
    keys(&mut lead, b"f", "everyone follows", |s| {
        s.text().contains(&format!("{CLASS} following you"))
    })
    .await;
    // Who drops out after which step of the course (1-8: the first lesson, 9-15: the
    // second),
    // and who comes back: each two steps later.
    let dropped = [(2, 2), (7, 8), (9, 14), (11, 20), (13, 26)];
    let (mut at, mut gone) = (0, 0);
    for (lesson, steps) in [(1, 9), (2, 8)] {
        if lesson == 2 {
            keys(&mut lead, b"Rn", "the question", |s| {
                s.text().contains("n again")
            })
            .await;
            keys(&mut lead, b"n", "the second lesson", |s| {
                s.text().contains("L2 of 2: Alpha-beta")
            })
            .await;
        }
        keys(&mut lead, b"R", "the room closed", |s| {
            !s.text().contains("The room")
        })
        .await;
        keys(&mut lead, b"5", "the teacher's move", |s| {
            s.text().contains("nodes ")
        })
        .await;
        for step in 2..=steps {
            at += 1;
            keys(&mut lead, b" ", "a step of the search", |_| true).await;
            keys(&mut lead, b"]", "the next lesson step", |s| {
                s.text().contains(&format!("Step {step} of {steps}"))
            })
            .await;
            for &(when, who) in &dropped {
                if when == at {
                    students[who] = None;
                    // The server has seen the connection close (a client back within the
                    // keepalive's 75 s of a network that dropped silently is another
                    // student to it, `-2`; see the issue's note).
                    gone += 1;
                    ended(&class, gone).await;
                }
                if when + 2 == at {
                    students[who] = Some(student(&class, &names[who]).await);
                }
            }
        }
    }
    assert!(students.iter().all(Option::is_some), "everyone is back");
    let teacher_body = body(&lead.2);
    let mut lost = 0;
    for (name, session) in names.iter().zip(&mut students) {
        let (_, channel, screen) = session.as_mut().expect("everyone is back");
        let at_the_teacher = |s: &Screen| {
            s.row(0).contains("Alpha-beta and pruning")
                && s.text().contains("Step 8 of 8")
                && s.text().contains("following the teacher")
                && body(s) == teacher_body
        };
        let deadline = tokio::time::Instant::now() + crate::common::LIMIT;
        while !at_the_teacher(screen) && tokio::time::Instant::now() < deadline {
            let Ok(Some(message)) = tokio::time::timeout_at(deadline, channel.wait()).await else {
                break;
            };
            if let russh::ChannelMsg::Data { data } = message {
                screen.feed(&data);
            }
        }
        if !at_the_teacher(screen) {
            lost += 1;
            eprintln!("{name} lost their place:\n{}", screen.text());
        }
    }
    eprintln!(
        "a class of {CLASS}, {} dropped and resumed, a course of 2 lessons and 15 steps: \
         {lost} places lost",
        dropped.len()
    );
    assert_eq!(lost, 0);
}

/// The course of the shipped minimax and alpha-beta lessons, in that order, as `serve
/// --lesson lessons/01-minimax.toml --lesson lessons/02-alphabeta.toml` reads it.
fn two_lesson_course(settings: &mut ai_arcade::serve::Settings) {
    let lessons = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let files = [
        lessons.join("01-minimax.toml"),
        lessons.join("02-alphabeta.toml"),
    ];
    let course =
        ai_arcade::lesson::course::load_course(&files, &ai_arcade::config::Config::default())
            .expect("the shipped lessons load");
    settings.course = (course.into_iter())
        .map(|(lesson, config)| ai_arcade::app::room::Setup {
            config: std::sync::Arc::new(config),
            lesson: Some(std::sync::Arc::new(lesson)),
        })
        .collect();
}

/// §2: a course of two lessons. The class starts on the first; the teacher's `n` (asked
/// once, then confirmed) moves every connected student and the teacher onto the second,
/// and a student who logs in later starts there; the room shows each student's lesson.
/// `n` on the last lesson says so and moves nobody; `p` brings the class back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_teacher_moves_the_whole_class_from_lesson_to_lesson() {
    let class = crate::serve::class_server_with("course", None, two_lesson_course).await;
    let mut bob = student(&class, "bob").await;
    // The first step waits for the centre: 5, then `]`.
    keys(
        &mut bob,
        b"5]",
        "bob on the first lesson's second step",
        |s| s.row(0).contains("Minimax on tic-tac-toe") && s.text().contains("Step 2 of"),
    )
    .await;
    let mut teacher = teacher(&class, "the room on lesson 1", |s| {
        s.text()
            .contains("L1 of 2: Minimax on tic-tac-toe · n next")
            && s.text()
                .lines()
                .any(|l| l.contains("bob") && l.contains("L1 2/"))
    })
    .await;

    keys(&mut teacher, b"n", "the question", |s| {
        s.text()
            .contains("n again: you and 1 student start lesson 2, \"Alpha-beta and pruning\"")
    })
    .await;
    keys(&mut teacher, b"n", "the class moved", |s| {
        s.row(0).contains("Alpha-beta and pruning")
            && s.text()
                .contains("L2 of 2: Alpha-beta and pruning · p back")
            && s.text()
                .lines()
                .any(|l| l.contains("bob") && l.contains("L2 1/"))
    })
    .await;
    bob.2
        .until(&mut bob.1, "bob on the second lesson", |s| {
            s.row(0).contains("Alpha-beta and pruning")
                && s.text().contains("The class moved on to the lesson")
        })
        .await;
    let carol = student(&class, "carol").await;
    assert!(
        carol.2.row(0).contains("Alpha-beta and pruning"),
        "{}",
        carol.2.text()
    );

    keys(&mut teacher, b"n", "no lesson after the last", |s| {
        s.text()
            .contains("The class is on the course's last lesson")
    })
    .await;
    keys(&mut teacher, b"pp", "back to the first", |s| {
        s.row(0).contains("Minimax on tic-tac-toe")
            && s.text()
                .lines()
                .any(|l| l.contains("carol") && l.contains("L1 1/"))
    })
    .await;
    bob.2
        .until(&mut bob.1, "bob back on the first lesson", |s| {
            s.row(0).contains("Minimax on tic-tac-toe")
        })
        .await;
    crate::serve::until_logged(&class.server, "the class moves on to the lesson").await;
}

/// §2: followers see the teacher's overlays. The teacher leads ada, plays the centre and
/// lets the AI answer, then presses `y` (the lesson's "why that move?"): ada's screen
/// shows the AI's reasons too, and they close on hers when the teacher closes them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn followers_see_the_reasons_the_teacher_opens() {
    let class = class_server("overlays", Some("02-alphabeta.toml")).await;
    let mut ada = student(&class, "ada").await;
    let mut lead = teacher(&class, "the room", |s| {
        s.text().contains("The room: 1 student")
    })
    .await;
    keys(&mut lead, b"f", "ada follows", |s| {
        s.text().contains("1 following you")
    })
    .await;
    keys(&mut lead, b"\x1b", "the room closed", |s| {
        !s.text().contains("The room:")
    })
    .await;
    keys(&mut lead, b"5\r", "the AI answered", |s| {
        s.text().contains("AI played O")
    })
    .await;
    keys(&mut lead, b"y", "the teacher's reasons", |s| {
        s.text().contains("Moves: ")
    })
    .await;
    ada.2
        .until(&mut ada.1, "ada sees the reasons", |s| {
            s.text().contains("Moves: ") && s.text().contains("following the teacher")
        })
        .await;
    keys(&mut lead, b"\x1b", "closed", |s| {
        !s.text().contains("Moves: ")
    })
    .await;
    ada.2
        .until(&mut ada.1, "closed on ada's screen", |s| {
            !s.text().contains("Moves: ")
        })
        .await;
}

/// §1: a server that crashes (never drained: nobody's session ended) still gives students
/// their place, all but the last seconds: a student's session is kept on disk while they
/// work, at the latest 5 s after a change. Ada plays the centre on one server; a second
/// server on the same data dir (as a restarted one would after a crash) gives it back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_server_gives_students_their_place_as_kept_while_they_worked() {
    let dir = crate::serve::temp_dir("crash");
    let key = crate::serve::new_key();
    let start = || {
        let mut settings = crate::common::settings(&dir, Some(&[&key]));
        let config = crate::serve::with_lesson(&mut settings, "02-alphabeta.toml");
        crate::serve::start_with(dir.clone(), settings, config, None)
    };
    let first = Class {
        server: start().await,
        student: key.clone(),
        teacher: crate::serve::new_key(),
    };
    let mut ada = student(&first, "ada").await;
    keys(&mut ada, b"5", "ada's move", |s| {
        s.text().contains("nodes ")
    })
    .await;
    let before = body(&ada.2);

    // The first server never ends her session: it is as if it had been killed.
    let second = Class {
        server: start().await,
        student: key,
        teacher: crate::serve::new_key(),
    };
    let mut back = student(&second, "ada").await;
    back.2
        .until(&mut back.1, "ada's place from the crashed server", |s| {
            s.text()
                .contains("place was kept while the server restarted")
        })
        .await;
    assert_eq!(body(&back.2), before, "the same board and search");
    drop(ada);
}

/// Logs in as `name` with the class code, answering the questions after it with `then`,
/// and opens the arcade; what the login showed comes with it.
async fn by_code(
    server: &crate::serve::TestServer,
    name: &str,
    then: &[&str],
) -> (Session, Vec<String>) {
    let mut answers = vec!["maths-club-42"];
    answers.extend_from_slice(then);
    let login = crate::serve::code_login_answering(server, name, &answers).await;
    let handle = login.handle.expect("logged in");
    let (channel, screen) = arcade_shown(&handle).await;
    ((handle, channel, screen), login.seen)
}

/// §1 and §3: a student whose network dropped logs in again before the server noticed.
/// Asked whether the `ada` logged in is them, cut off, ada says y: the old session ends
/// and she is back in her place, exactly. A second `sam` who says no (Enter) is `sam-2`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_student_cut_off_takes_their_place_back_before_the_server_noticed() {
    let dir = crate::serve::temp_dir("take-over");
    let mut settings = crate::serve::class_settings(&dir, "maths-club-42", None, None);
    let config = crate::serve::with_lesson(&mut settings, "02-alphabeta.toml");
    let server = crate::serve::start_with(dir, settings, config, None).await;
    let (mut ada, seen) = by_code(&server, "ada", &[]).await;
    assert!(
        !seen.iter().any(|s| s.contains("logged in already")),
        "{seen:?}"
    );
    keys(&mut ada, b"5  ]", "ada's second step", |s| {
        s.text().contains("Step 2 of") && s.text().contains("nodes 2 ")
    })
    .await;
    let before = body(&ada.2);

    // Her first connection is still open (the server has not noticed it is dead).
    let (mut back, seen) = by_code(&server, "ada", &["y"]).await;
    assert!(
        seen.iter().any(|s| s.contains("ada is logged in already")),
        "{seen:?}"
    );
    back.2
        .until(&mut back.1, "ada's place", |s| {
            s.text().contains("your other connection was ended") && s.text().contains("Step 2 of")
        })
        .await;
    assert_eq!(body(&back.2), before);
    ada.2
        .until(&mut ada.1, "the old session ends", |s| s.closed)
        .await;

    let (_sam, _) = by_code(&server, "sam", &[]).await;
    let (mut other, seen) = by_code(&server, "sam", &[""]).await;
    assert!(
        seen.iter().any(|s| s.contains("sam is logged in already")),
        "{seen:?}"
    );
    other
        .2
        .until(&mut other.1, "a seat of her own", |s| {
            s.text().contains("so you are sam-2")
        })
        .await;
}
