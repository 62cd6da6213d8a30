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
    let (dir, settings) = web_class(tag);
    start(dir, settings).await
}

/// The settings of [`class_server`], to change before it starts, and its folder.
fn web_class(tag: &str) -> (crate::serve::TestDir, ai_arcade::serve::Settings) {
    let dir = temp_dir(tag);
    let mut settings = class_settings(&dir, CODE, None, None);
    settings.web = Some("127.0.0.1:0".parse().unwrap());
    (dir, settings)
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

/// [`http_get`], or `None` for the status when the server closes without an answer.
pub(crate) async fn http_get_or_closed(
    addr: SocketAddr,
    path: &str,
) -> (Option<String>, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    let _ = stream.write_all(request.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(LIMIT, stream.read_to_end(&mut answer))
        .await
        .expect("answered or closed in time");
    let Some(split) = answer.windows(4).position(|w| w == b"\r\n\r\n") else {
        return (None, String::new(), answer);
    };
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let status = head.lines().next().map(str::to_string);
    (status, head, answer[split + 4..].to_vec())
}

/// A browser's tab, as the page's script drives it.
pub(crate) struct Page {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    parser: vt100::Parser,
    pub(crate) closed: bool,
    /// The files the server offered to download: `{"download":{"name":…,"text":…}}`.
    pub(crate) downloads: Vec<serde_json::Value>,
}

impl Page {
    /// Opens the page's WebSocket on `addr` from `origin`.
    pub(crate) async fn open_from(addr: SocketAddr, origin: &str) -> Result<Self, String> {
        Self::open_as(addr, origin, &addr.to_string()).await
    }

    /// Opens the WebSocket at `addr` as a page from `origin` would, asking for `host`
    /// (as a browser does when a name is pointed at `addr`).
    pub(crate) async fn open_as(
        addr: SocketAddr,
        origin: &str,
        host: &str,
    ) -> Result<Self, String> {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        request.headers_mut().insert("Host", host.parse().unwrap());
        let (socket, _) = tokio::time::timeout(LIMIT, tokio_tungstenite::connect_async(request))
            .await
            .expect("answered in time")
            .map_err(|e| e.to_string())?;
        Ok(Self {
            socket,
            parser: vt100::Parser::new(nonzero(24), nonzero(80), 0),
            closed: false,
            downloads: Vec::new(),
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
                Some(Ok(Message::Text(text))) => {
                    self.downloads
                        .push(serde_json::from_str(text.as_str()).unwrap());
                }
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

    /// Closes the course (a lone Esc) and goes to tic-tac-toe (F4).
    pub(crate) async fn go_to_tic_tac_toe(&mut self) {
        self.keys("\x1b").await;
        self.until("the course closed", |p| !p.text().contains("Start here"))
            .await;
        // A person's next key comes later than the wait that tells Esc from a sequence.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        self.keys("\x1bOS").await;
        self.until("the board", |p| p.text().contains("Your move"))
            .await;
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
        "/favicon.svg",
    ] {
        let (status, _, body) = http_get(addr, path).await;
        assert_eq!(status, "HTTP/1.1 200 OK", "{path}");
        assert!(!body.is_empty(), "{path}");
    }
    let (_, head, _) = http_get(addr, "/favicon.svg").await;
    assert!(head.contains("Content-Type: image/svg+xml"), "{head}");
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

/// DNS rebinding: a site points its own name at 127.0.0.1, so its page's Origin and Host
/// agree. An open server on this machine (no class code to stop it) takes its page's
/// socket under loopback names only; a class server, reached by its name, is unchanged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_server_at_home_refuses_a_socket_asked_under_another_name() {
    let (dir, mut settings) = web_class("web-rebind");
    settings.class_code = None;
    settings.authorized_keys = None;
    let server = start(dir, settings).await;
    let addr = web_addr(&server);
    let rebound = format!("evil.example:{}", addr.port());
    let refused = Page::open_as(addr, &format!("http://{rebound}"), &rebound).await;
    let error = refused.err().expect("refused");
    assert!(error.contains("403"), "{error}");
    let home = format!("localhost:{}", addr.port());
    let mut page = Page::open_as(addr, &format!("http://{home}"), &home)
        .await
        .expect("localhost is let in");
    page.shows("Your name:").await;

    let class = class_server("web-rebind-class").await;
    let addr = web_addr(&class);
    let named = format!("arcade.school:{}", addr.port());
    assert!(
        Page::open_as(addr, &format!("http://{named}"), &named)
            .await
            .is_ok()
    );
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
    page.go_to_tic_tac_toe().await;
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
    let (dir, mut settings) = web_class("web-room");
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
    let (dir, mut settings) = web_class("web-alone");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_help_in_a_browser_says_what_the_page_offers_for_the_keys_a_browser_keeps() {
    let server = class_server("web-help").await;
    let mut page = Page::open(web_addr(&server)).await;
    page.log_in("Ada", CODE).await;
    page.resize(120, 40).await;
    page.keys("?").await;
    page.shows("Help:").await;
    // Scrolled a line at a time to its end, as a reader would.
    for _ in 0..80 {
        if page.text().contains("the buttons above the terminal") {
            break;
        }
        let before = page.text();
        page.keys("j").await;
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(200),
            page.until("a line scrolled", |p| p.text() != before),
        )
        .await;
    }
    page.shows("the buttons above the terminal").await;
}

/// A class behind one school address: thirty pages at once, all within the per-address
/// limits (at most 4 logging in at a time, the rest waiting their turn; 48 sessions).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_browser_sessions_from_one_address_all_get_in() {
    let (dir, mut settings) = web_class("web-thirty");
    // The defaults a teacher runs with: 64 sessions, 48 from one address, 4 logging in.
    let defaults = ai_arcade::config::ServeConfig::default();
    settings.max_sessions = defaults.max_sessions;
    settings.max_sessions_per_address = defaults.max_sessions_per_address;
    settings.per_source_max_startups = defaults.per_source_max_startups;
    let server = start(dir, settings).await;
    let addr = web_addr(&server);
    let students = (0..30).map(|n| {
        tokio::spawn(async move {
            let mut page = Page::open(addr).await;
            page.log_in(&format!("student{n}"), CODE).await;
            page
        })
    });
    let mut pages = Vec::new();
    for student in students {
        pages.push(student.await.expect("every student gets in"));
    }
    assert_eq!(server.server.sessions(), 30);
    let log = server.log_text();
    assert_eq!(log.matches("session start").count(), 30, "{log}");
    assert!(!log.contains("refused"), "{log}");
}

/// An export in a browser: the page is sent the file to download, and the teacher's
/// collect folder keeps it too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_is_downloaded_by_the_page_and_kept_for_the_teacher() {
    let (dir, mut settings) = web_class("web-export");
    let collect = dir.join("collect");
    std::fs::create_dir_all(&collect).unwrap();
    settings.collect = Some(collect.clone());
    let server = start(dir, settings).await;
    let mut page = Page::open(web_addr(&server)).await;
    page.log_in("Ada", CODE).await;
    page.go_to_tic_tac_toe().await;
    page.keys("5 ").await;
    page.shows("1. X5 O").await;
    // D: the tree as text.
    page.keys("D").await;
    page.until("the download", |p| !p.downloads.is_empty())
        .await;
    let file = page.downloads[0]["download"].clone();
    let name = file["name"].as_str().unwrap();
    assert_eq!(name, "search-tree.txt", "{file}");
    assert!(file["text"].as_str().unwrap().contains("root"), "{file}");
    // Said in one line of the status bar.
    page.shows("Downloaded as search-tree.txt; kept for the teacher as Ada/search-tree.txt")
        .await;
    let kept = std::fs::read_to_string(collect.join("Ada").join(name)).unwrap();
    assert_eq!(kept, file["text"].as_str().unwrap());
}

/// A class behind one school address loads the page together: seven files each, thirty
/// students. None of it counts against the address at the login gate, and every student
/// then gets in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_students_loading_the_page_together_are_not_taken_for_an_attack() {
    let server = class_server("web-files").await;
    let addr = web_addr(&server);
    let files = [
        "/",
        "/arcade.css",
        "/xterm.css",
        "/xterm.js",
        "/addon-fit.js",
        "/arcade.js",
    ];
    let loads = (0..30)
        .flat_map(|_| files)
        .map(|path| tokio::spawn(async move { http_get(addr, path).await.0 }));
    for load in loads.collect::<Vec<_>>() {
        assert_eq!(load.await.unwrap(), "HTTP/1.1 200 OK");
    }
    let mut page = Page::open(addr).await;
    page.log_in("Ada", CODE).await;
    let log = server.log_text();
    assert!(!log.contains("refused"), "{log}");
}

/// When every place of an address is taken (here by connections that never send their
/// request), one more request from it waits in line and is answered once places are freed,
/// rather than being closed unanswered: a browser that gets no answer shows a broken page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_beyond_the_address_places_waits_for_one_and_is_answered() {
    use ai_arcade::serve::web::FILES_PER_ADDRESS;
    let server = class_server("web-wait").await;
    let addr = web_addr(&server);
    let mut silent = Vec::new();
    for _ in 0..FILES_PER_ADDRESS {
        silent.push(TcpStream::connect(addr).await.unwrap());
    }
    // Let the server take a place for each before the request comes.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let load = tokio::spawn(async move { http_get_or_closed(addr, "/arcade.css").await.0 });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    drop(silent);
    assert_eq!(load.await.unwrap().as_deref(), Some("HTTP/1.1 200 OK"));
}

/// On an open server anyone may type any name: a second "Ada" is never offered the first
/// one's session (an open SSH login is never asked either); she comes in as Ada-2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_an_open_server_a_name_in_use_cannot_take_the_session_over() {
    let (dir, mut settings) = web_class("web-open");
    settings.class_code = None;
    settings.authorized_keys = None;
    let server = start(dir, settings).await;
    let addr = web_addr(&server);
    let mut first = Page::open(addr).await;
    first.shows("Your name:").await;
    first.keys("Ada\r").await;
    first.shows("F4 Tic-tac-toe").await;
    let mut second = Page::open(addr).await;
    second.shows("Your name:").await;
    second.keys("Ada\r").await;
    second.shows("F4 Tic-tac-toe").await;
    assert!(!second.text().contains("logged in already"));
    second.shows("so you are Ada-2").await;
    assert!(!first.closed);
}

/// The class code typed at the name prompt is refused as a name (it would show in the
/// room and the log), and the student is asked again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_class_code_typed_as_a_name_is_refused() {
    let server = class_server("web-code-as-name").await;
    let mut page = Page::open(web_addr(&server)).await;
    page.shows("Your name:").await;
    page.keys(&format!("{CODE}\r")).await;
    page.shows("That name will not do: it is the class code. Type your name first.")
        .await;
    page.log_in("Ada", CODE).await;
    let log = server.log_text();
    assert!(!log.contains("Maths-Club"), "{log}");
}

/// A student who quits: the arcade ends, and the socket is closed by the server, even
/// though the page would go on answering its pings for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_arcade_ends_the_server_closes_the_socket() {
    let server = class_server("web-quit").await;
    let mut page = Page::open(web_addr(&server)).await;
    page.log_in("Ada", CODE).await;
    // q asks first on a served session; q again quits.
    page.keys("qq").await;
    page.until("the socket closed", |p| p.closed).await;
    assert!(
        page.text()
            .contains("your place is kept: reload the page and log in as Ada to carry on."),
        "{}",
        page.text()
    );
    crate::serve::until_logged(&server, "session end").await;
    assert_eq!(server.server.sessions(), 0);
}

/// The page alone answers health checks as an SSH server does: 200 while it takes
/// sessions, with the count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_alone_answers_health_checks() {
    let (dir, mut settings) = web_class("web-health");
    settings.ssh = false;
    settings.health_listen = Some("127.0.0.1:0".parse().unwrap());
    let server = start(dir, settings).await;
    let mut page = Page::open(web_addr(&server)).await;
    page.log_in("Ada", CODE).await;
    let health = server.server.health_addr.unwrap();
    let (status, body) = crate::common::health_check(health).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("accepting: 1 of"), "{body}");
}
