//! Issue 35: nobody locks a class out. Each test is a hostile reproduction run against a
//! server on loopback, bounded in count and time, that failed before its fix.

use crate::common::{Client, LIMIT, settings};
use crate::serve::{arcade_shown, new_key, start, temp_dir, until_logged};
use russh::client::{self, KeyboardInteractiveAuthResponse as Reply};
use russh::keys::PrivateKeyWithHashAlg;
use std::sync::Arc;

/// Connects to `server` without logging in.
async fn connect(server: &crate::serve::TestServer) -> client::Handle<Client> {
    let handler = Client::default();
    let config = Arc::new(client::Config::default());
    tokio::time::timeout(
        LIMIT,
        client::connect(config, server.server.local_addr, handler),
    )
    .await
    .expect("connects in time")
    .expect("connects")
}

/// §2: OpenSSH and dropbear ask for "none" first, then offer keys. On an open server with
/// teacher keys, "none" used to log them in as a student before the teacher's key was
/// offered; a student's own key did the same. The teacher's key must always win.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_an_open_server_the_teacher_key_wins_over_none_and_other_keys() {
    let dir = temp_dir("open-teacher");
    let mut open = settings(&dir, None);
    let teacher = new_key();
    let teachers = dir.join("teacher_keys");
    std::fs::write(&teachers, teacher.public_key().to_openssh().unwrap() + "\n").unwrap();
    open.teacher_keys = Some(teachers);
    let server = start(dir.clone(), open).await;

    // The teacher's client, as OpenSSH does it: none, then a key of its own, then the
    // teacher's key.
    let mut handle = connect(&server).await;
    let none = handle.authenticate_none("teacher").await.unwrap();
    assert!(
        !none.success(),
        "none must not log the teacher in as a student"
    );
    let other = PrivateKeyWithHashAlg::new(Arc::new(new_key()), None);
    let other = handle
        .authenticate_publickey("teacher", other)
        .await
        .unwrap();
    assert!(!other.success(), "another key must not either");
    let key = PrivateKeyWithHashAlg::new(Arc::new(teacher.clone()), None);
    let key = handle.authenticate_publickey("teacher", key).await.unwrap();
    assert!(key.success(), "the teacher's key logs in");
    let _ = arcade_shown(&handle).await;
    until_logged(&server, "user=\"teacher\" via=teacher").await;

    // A student with no teacher key still gets in, by keyboard-interactive, with no prompt.
    let mut student = connect(&server).await;
    assert!(!student.authenticate_none("ada").await.unwrap().success());
    let reply = student
        .authenticate_keyboard_interactive_start("ada", None)
        .await
        .unwrap();
    assert!(matches!(reply, Reply::Success), "{reply:?}");
    let _ = arcade_shown(&student).await;
    until_logged(&server, "user=\"ada\" via=open").await;
}

/// §1: one NUL byte a second kept a session alive past the idle timeout, so one student
/// could hold seats all day. Input that changes nothing on the screen is not activity.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_that_changes_nothing_does_not_keep_a_session_from_its_idle_close() {
    let dir = temp_dir("nul-idle");
    let mut quick = settings(&dir, None);
    quick.idle_timeout = std::time::Duration::from_secs(2);
    let server = start(dir.clone(), quick).await;
    let (handle, _) = crate::serve::login_named(&server, "ada", None)
        .await
        .unwrap();
    let (mut channel, _) = arcade_shown(&handle).await;
    let started = tokio::time::Instant::now();
    let mut screen = crate::serve::Screen::new();
    loop {
        let closed = tokio::time::timeout(std::time::Duration::from_millis(200), async {
            screen
                .until(&mut channel, "the idle close", |s| s.closed)
                .await;
        })
        .await
        .is_ok();
        if closed {
            break;
        }
        assert!(started.elapsed() < LIMIT, "NUL bytes kept it open");
        channel.data(&b"\0"[..]).await.unwrap();
    }
    until_logged(&server, "reason=\"idle for 2s\"").await;
}

/// §1: one student with the code took every seat from one address, and ten classmates
/// were told the server was full. A name, and an address, hold at most their caps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_name_or_one_address_cannot_take_every_seat() {
    use crate::serve::{class_settings, code_login, code_login_answering};
    let dir = temp_dir("name-cap");
    let mut class = class_settings(&dir, "maths-club-42", None, None);
    class.max_sessions = 8;
    class.max_sessions_per_name = 2;
    class.max_sessions_per_address = 3;
    let server = start(dir.clone(), class).await;
    let mut kept = Vec::new();
    let first = code_login(&server, "Ada", "maths-club-42").await;
    let first = first.handle.expect("Ada gets in");
    kept.push(arcade_shown(&first).await);
    // Enter at "Ada is logged in already": in as another Ada.
    let second = code_login_answering(&server, "Ada", &["maths-club-42", ""]).await;
    let second = second.handle.expect("a second Ada gets in");
    kept.push(arcade_shown(&second).await);
    let third = code_login_answering(&server, "ada", &["maths-club-42", ""]).await;
    assert!(third.handle.is_none(), "a third Ada is over the cap");
    assert!(
        (third.seen.iter()).any(|s| s.contains("log in under another name: this one has all")),
        "the question offers no Enter past the cap: {:?}",
        third.seen
    );
    assert!(
        third
            .seen
            .iter()
            .any(|s| s.contains("2 sessions are logged in already as")),
        "{:?}",
        third.seen
    );
    until_logged(&server, "2 sessions under this name already").await;
    // Taking her own place back is never over the cap.
    let back = code_login_answering(&server, "Ada", &["maths-club-42", "y"]).await;
    let back = back.handle.expect("Ada takes her place back");
    kept.push(arcade_shown(&back).await);
    // Bob is the address's third, once the session Ada took her place from has ended.
    let deadline = tokio::time::Instant::now() + LIMIT;
    let mut handles = Vec::new();
    loop {
        let bob = code_login(&server, "Bob", "maths-club-42").await;
        if let Some(bob) = bob.handle {
            kept.push(arcade_shown(&bob).await);
            handles.push(bob);
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{:?}", bob.seen);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Cy is its fourth.
    let cy = code_login(&server, "Cy", "maths-club-42").await;
    assert!(cy.handle.is_none(), "the address is over its cap");
    assert!(
        cy.seen
            .iter()
            .any(|s| s.contains("3 sessions are logged in from your address")),
        "{:?}",
        cy.seen
    );
}

/// A connection to `server` from the loopback address `from`.
async fn connect_from(
    server: &crate::serve::TestServer,
    from: [u8; 4],
) -> Option<client::Handle<Client>> {
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket
        .bind((std::net::Ipv4Addr::from(from), 0).into())
        .ok()?;
    let stream = socket.connect(server.server.local_addr).await.ok()?;
    let config = Arc::new(client::Config::default());
    client::connect_stream(config, stream, Client::default())
        .await
        .ok()
}

/// §1, at a scale a test can run: strangers from four addresses hold every handshake
/// place (stalled after "none"), two more fill the class code prompt's pool, and others
/// fill the queue with silent connections. A class of six from its own address, typing the
/// code, used to be refused ("8 connections logging in already"); now every one gets in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_gets_in_while_strangers_fill_every_pool() {
    use ai_arcade::serve::client::answer_prompts;
    let dir = temp_dir("fill-every-pool");
    let mut class = crate::serve::class_settings(&dir, "maths-club-42", None, None);
    class.max_startups = "4:30:8".parse().unwrap();
    class.per_source_max_startups = 2;
    class.max_sessions = 8;
    let server = start(dir.clone(), class).await;
    let mut strangers = Vec::new();
    // The prompt's pool: four parked from each of two addresses.
    for last in [4, 5] {
        for _ in 0..4 {
            let mut handle = connect_from(&server, [127, 0, 0, last]).await.unwrap();
            let _ = handle
                .authenticate_keyboard_interactive_start("parked", None)
                .await;
            strangers.push(handle);
        }
    }
    // Every handshake place: two stalled after "none" from each of four addresses.
    for last in 11..=14 {
        for _ in 0..2 {
            if let Some(mut handle) = connect_from(&server, [127, 0, 1, last]).await {
                let _ = handle.authenticate_none("stalled").await;
                strangers.push(handle);
            }
        }
    }
    // The queue: silent connections from two more addresses, as many as it takes.
    let mut silent = Vec::new();
    for last in [2, 3] {
        for _ in 0..8 {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket
                .bind((std::net::Ipv4Addr::new(127, 0, 0, last), 0).into())
                .unwrap();
            if let Ok(stream) = socket.connect(server.server.local_addr).await {
                silent.push(stream);
            }
        }
    }
    let students: Vec<_> = (0..6)
        .map(|n| {
            let server = server.server.local_addr;
            tokio::spawn(async move {
                let socket = tokio::net::TcpSocket::new_v4().unwrap();
                socket.bind(([127, 0, 0, 10], 0).into()).unwrap();
                let stream = socket.connect(server).await.map_err(|e| e.to_string())?;
                let config = Arc::new(client::Config::default());
                let mut handle = client::connect_stream(config, stream, Client::default())
                    .await
                    .map_err(|e| e.to_string())?;
                let name = format!("student{n}");
                let typing = std::time::Duration::from_millis(200);
                answer_prompts(&mut handle, &name, &["maths-club-42"], typing)
                    .await
                    .map(|in_| in_.then_some(handle))
            })
        })
        .collect();
    let mut logged_in = 0;
    let mut failed = Vec::new();
    for student in students {
        match tokio::time::timeout(LIMIT, student).await {
            Ok(Ok(Ok(Some(_)))) => logged_in += 1,
            Ok(Ok(Ok(None))) => failed.push("refused".to_string()),
            Ok(Ok(Err(why))) => failed.push(why),
            Ok(Err(error)) => failed.push(error.to_string()),
            Err(_) => failed.push("no answer in time".into()),
        }
    }
    assert_eq!(logged_in, 6, "{failed:?}\n{}", server.log_text());
    assert!(
        server.log_text().contains("cut connection"),
        "strangers' places went to the class"
    );
    drop((strangers, silent));
}

/// §5: 200 silent sockets held on `--health-listen` made 7 of 8 health checks wait over
/// 4 s, and a balancer whose check times out at 2 s takes a healthy replica out. Now a
/// stranger's address holds only its own few places: the balancer's check is answered
/// while the stranger's first silent sockets are still open (each is held up to a second,
/// so before, the check waited for them to be let go).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_sockets_on_the_health_port_do_not_delay_a_check() {
    let dir = temp_dir("health-silent");
    let mut replica = settings(&dir, None);
    replica.health_listen = Some("127.0.0.1:0".parse().unwrap());
    let server = start(dir.clone(), replica).await;
    let health = server.server.health_addr.expect("a health port");
    let mut silent = Vec::new();
    for _ in 0..200 {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(([127, 0, 0, 5], 0).into()).unwrap();
        if let Ok(stream) = socket.connect(health).await {
            silent.push(stream);
        }
    }
    let (code, body) = crate::common::health_check(health).await;
    assert_eq!(code, 200, "{body}");
    // The stranger's first sockets (its four places) are still open: not one ended yet.
    let mut byte = [0u8; 1];
    let open = silent[..4]
        .iter()
        .filter(|s| matches!(s.try_read(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock))
        .count();
    assert_eq!(
        open, 4,
        "the check waited for the stranger's sockets to end"
    );
}

/// §4: a session flooding keys (3,000 at once) is found flooding: the keys past the rate are
/// dropped, its thread drops to the lowest priority, so bystanders are served first, and
/// its end is seen at once when its client leaves; a person typing is not. Before, thirty
/// flooders made a bystander's `?` wait 55 ms at the 99th percentile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_session_is_found_and_a_typing_one_is_not() {
    let dir = temp_dir("flood");
    let server = start(dir.clone(), settings(&dir, None)).await;
    let (typist, _) = crate::serve::login_named(&server, "ada", None)
        .await
        .unwrap();
    let (typing, _) = arcade_shown(&typist).await;
    for _ in 0..20 {
        typing.data(&b"?"[..]).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    }
    typist
        .disconnect(russh::Disconnect::ByApplication, "", "en")
        .await
        .unwrap();
    until_logged(&server, "user=\"ada\" via=open").await;
    until_logged(&server, "flooding=false").await;
    let (flooder, _) = crate::serve::login_named(&server, "bob", None)
        .await
        .unwrap();
    let (mut flood, _) = arcade_shown(&flooder).await;
    for _ in 0..3 {
        flood.data(&[b'?'; 1_000][..]).await.unwrap();
    }
    // Its frames are read for two seconds, long enough for all of it to be taken in.
    let reading = tokio::time::Instant::now() + std::time::Duration::from_secs(2);
    while tokio::time::timeout_at(reading, flood.wait())
        .await
        .is_ok_and(|m| m.is_some())
    {}
    flooder
        .disconnect(russh::Disconnect::ByApplication, "", "en")
        .await
        .unwrap();
    until_logged(&server, "flooding=true").await;
    assert!(
        server
            .log_text()
            .lines()
            .any(|line| line.contains("user=\"bob\"")
                && line.contains("flooding=true")
                && !line.contains("keys_dropped=0 ")),
        "{}",
        server.log_text()
    );
}
