//! `ai-arcade serve --web` end to end on loopback: the page's files over plain HTTP, and
//! WebSocket clients that do what the page's script does (keys as binary messages, sizes
//! as `{"resize":[c,r]}`), their screens read through a terminal emulator. The browser
//! itself drives the page in `browser.rs`. Timeouts here are safety limits only.

use crate::common::LIMIT;
use crate::serve::{
    TestServer, arcade_shown, class_settings, login_named, new_key, start, temp_dir, until_logged,
};
use futures_util::{SinkExt as _, StreamExt as _};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const CODE: &str = "Maths-Club-42";

/// A class server with the code [`CODE`], SSH and the page both on loopback.
async fn class_server(tag: &str) -> TestServer {
    let dir = temp_dir(tag);
    let mut settings = class_settings(&dir, CODE, None, None);
    settings.web = Some("127.0.0.1:0".parse().unwrap());
    start(dir, settings).await
}

fn nonzero(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).unwrap()
}

fn web_addr(server: &TestServer) -> SocketAddr {
    server.server.web_addr.expect("the page is served")
}

/// One plain HTTP request: the status line, the head and the body.
pub(crate) async fn http_get(addr: SocketAddr, path: &str) -> (String, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(LIMIT, stream.read_to_end(&mut answer))
        .await
        .expect("answered in time")
        .unwrap();
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(answer[..split].to_vec()).unwrap();
    let status = head.lines().next().unwrap().to_string();
    (status, head, answer[split + 4..].to_vec())
}

/// A browser's tab, as the page's script drives it.
pub(crate) struct Page {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    parser: vt100::Parser,
    pub(crate) closed: bool,
}

impl Page {
    /// Opens the page's WebSocket on `addr` from `origin`.
    pub(crate) async fn open_from(addr: SocketAddr, origin: &str) -> Result<Self, String> {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        let (socket, _) = tokio::time::timeout(LIMIT, tokio_tungstenite::connect_async(request))
            .await
            .expect("answered in time")
            .map_err(|e| e.to_string())?;
        Ok(Self {
            socket,
            parser: vt100::Parser::new(nonzero(24), nonzero(80), 0),
            closed: false,
        })
    }

    /// Opens the page's WebSocket as the page served from `addr` does, 80x24.
    pub(crate) async fn open(addr: SocketAddr) -> Self {
        let mut page = Self::open_from(addr, &format!("http://{addr}"))
            .await
            .expect("the page's own origin is let in");
        page.resize(80, 24).await;
        page
    }

    pub(crate) fn text(&self) -> String {
        self.parser.screen().contents()
    }

    /// Types `keys` as the terminal sends them.
    pub(crate) async fn keys(&mut self, keys: &str) {
        let keys = keys.as_bytes().to_vec();
        self.socket
            .send(Message::Binary(keys.into()))
            .await
            .unwrap();
    }

    /// Resizes the terminal, and tells the server as the page does.
    pub(crate) async fn resize(&mut self, columns: u16, rows: u16) {
        self.parser
            .screen_mut()
            .set_size(nonzero(rows), nonzero(columns));
        let control = format!(r#"{{"resize":[{columns},{rows}]}}"#);
        self.socket
            .send(Message::Text(control.into()))
            .await
            .unwrap();
    }

    /// Reads until `done` holds for the screen; panics (naming `what`) past the safety
    /// limit, or when the socket closes first.
    pub(crate) async fn until(&mut self, what: &str, done: impl Fn(&Self) -> bool) {
        let deadline = tokio::time::Instant::now() + LIMIT;
        while !done(self) {
            let message = tokio::time::timeout_at(deadline, self.socket.next())
                .await
                .unwrap_or_else(|_| {
                    panic!("timed out waiting for {what}; screen:\n{}", self.text())
                });
            match message {
                Some(Ok(Message::Binary(bytes))) => self.parser.process(&bytes),
                Some(Ok(Message::Close(_)) | Err(_)) | None => {
                    self.closed = true;
                    assert!(done(self), "closed before {what}; screen:\n{}", self.text());
                    return;
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// Waits until the screen shows `words`.
    pub(crate) async fn shows(&mut self, words: &str) {
        self.until(words, |page| page.text().contains(words)).await;
    }

    /// Plays tic-tac-toe until the game ends: each square in turn whenever it is the
    /// student's move (a taken one is refused, and the next tried).
    pub(crate) async fn play_to_the_end(&mut self) {
        // The tally under the board counts the game once it ends.
        let over = |page: &Self| {
            let text = page.text();
            text.contains("won ") && !text.contains("won 0  lost 0  drawn 0")
        };
        for _ in 0..9 {
            for square in '1'..='9' {
                if over(self) {
                    return;
                }
                self.until("the student's move", |p| {
                    over(p) || p.text().contains("Your move")
                })
                .await;
                self.keys(&format!("{square} ")).await;
                // The square's answer: taken, or the AI's reply drawn.
                let _ = tokio::time::timeout(
                    std::time::Duration::from_millis(100),
                    self.until("", |_| false),
                )
                .await;
            }
        }
        self.until("the game's end", over).await;
    }

    /// Types `name` and the class code at the prompts, and waits for the arcade.
    pub(crate) async fn log_in(&mut self, name: &str, code: &str) {
        self.shows("Your name:").await;
        self.keys(&format!("{name}\r")).await;
        self.shows("Class code:").await;
        self.keys(&format!("{code}\r")).await;
        self.shows("F4 Tic-tac-toe").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_files_are_served_with_a_strict_policy() {
    let server = class_server("web-page").await;
    let addr = web_addr(&server);
    let (status, head, body) = http_get(addr, "/").await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    let page = String::from_utf8(body).unwrap();
    assert!(page.contains(r#"<script src="/xterm.js">"#), "{page}");
    assert!(head.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"));
    assert!(head.contains("X-Frame-Options: DENY"));
    for path in [
        "/xterm.js",
        "/xterm.css",
        "/addon-fit.js",
        "/arcade.js",
        "/licences.txt",
    ] {
        let (status, _, body) = http_get(addr, path).await;
        assert_eq!(status, "HTTP/1.1 200 OK", "{path}");
        assert!(!body.is_empty(), "{path}");
    }
    let (status, _, _) = http_get(addr, "/../Cargo.toml").await;
    assert_eq!(status, "HTTP/1.1 404 Not Found");
    let (status, _, _) = http_get(addr, "/ws").await;
    assert_eq!(
        status, "HTTP/1.1 400 Bad Request",
        "a socket's address, asked as a page"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_opened_by_another_sites_page_is_refused() {
    let server = class_server("web-origin").await;
    let addr = web_addr(&server);
    let refused = Page::open_from(addr, "http://evil.example").await;
    let error = refused.err().expect("refused");
    assert!(error.contains("403"), "{error}");
    let log = server.log_text();
    assert!(log.contains("403 Forbidden"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_student_types_name_and_code_in_the_page_and_plays_tic_tac_toe_to_the_end() {
    let server = class_server("web-play").await;
    let mut page = Page::open(web_addr(&server)).await;
    page.shows("Your name:").await;
    page.keys("Ada\r").await;
    page.shows("Class code:").await;
    page.keys("wrong-code\r").await;
    page.shows("That is not the class code; try again.").await;
    assert!(
        !page.text().contains("wrong-code"),
        "the code is not echoed"
    );
    page.keys(&format!("{CODE}\r")).await;
    page.shows("F4 Tic-tac-toe").await;
    // Close the course (a lone Esc), go to tic-tac-toe (F4), and play until the game ends.
    page.keys("\x1b").await;
    page.until("the course closed", |p| !p.text().contains("Start here"))
        .await;
    // A person's next key comes later than the wait that tells Esc from a sequence.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    page.keys("\x1bOS").await;
    page.until("the board", |p| p.text().contains("Your move"))
        .await;
    page.play_to_the_end().await;
    until_logged(&server, "session start").await;
    let log = server.log_text();
    assert!(log.contains("via=class-code door=web"), "{log}");
    assert!(
        !log.contains("Maths-Club"),
        "the code is never logged:\n{log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resizing_the_page_redraws_the_arcade_at_the_new_size() {
    let server = class_server("web-resize").await;
    let mut page = Page::open(web_addr(&server)).await;
    page.log_in("Grace", CODE).await;
    page.resize(100, 30).await;
    page.until("a redraw 100 wide", |p| {
        p.parser
            .screen()
            .contents()
            .lines()
            .any(|line| line.chars().count() > 80)
    })
    .await;
    page.resize(60, 20).await;
    page.shows("80x24").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_teachers_room_marks_a_browser_student_beside_an_ssh_one() {
    let dir = temp_dir("web-room");
    let mut settings = class_settings(&dir, CODE, None, None);
    settings.web = Some("127.0.0.1:0".parse().unwrap());
    let teacher = new_key();
    let teachers = dir.join("teacher_keys");
    std::fs::write(&teachers, teacher.public_key().to_openssh().unwrap() + "\n").unwrap();
    settings.teacher_keys = Some(teachers);
    let server = start(dir.clone(), settings).await;
    let mut page = Page::open(web_addr(&server)).await;
    page.log_in("Webster", CODE).await;
    let ssh = crate::serve::code_login(&server, "Shelley", CODE).await;
    let student = ssh.handle.expect("the SSH student logs in");
    let _student_screen = arcade_shown(&student).await;
    let (handle, _) = login_named(&server, "teacher", Some(&teacher))
        .await
        .expect("the teacher logs in");
    let (mut channel, mut screen) = arcade_shown(&handle).await;
    screen
        .until(&mut channel, "both students in the room", |s| {
            let text = s.text();
            let row = |name: &str| text.lines().find(|l| l.contains(name)).map(str::to_string);
            row("Webster").is_some_and(|r| r.contains(" web "))
                && row("Shelley").is_some_and(|r| r.contains(" ssh "))
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_alone_serves_no_ssh() {
    let dir = temp_dir("web-alone");
    let mut settings = class_settings(&dir, CODE, None, None);
    settings.web = Some("127.0.0.1:0".parse().unwrap());
    settings.ssh = false;
    let server = start(dir.clone(), settings).await;
    assert_eq!(server.server.web_addr, Some(server.server.local_addr));
    assert!(
        server.server.fingerprint.is_empty(),
        "no host key read or made"
    );
    let mut page = Page::open(web_addr(&server)).await;
    page.log_in("Ada", CODE).await;
}
