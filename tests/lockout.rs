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
