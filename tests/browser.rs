//! The page in a real browser: headless Chromium driven through chromedriver (WebDriver)
//! by `tests/browser/drive.py` (Debian's python3-selenium), against a server on loopback.
//! The test logic is here; the script only speaks WebDriver. A missing browser fails:
//! `.ci/run` installs chromium, chromium-driver and python3-selenium.

use crate::common::LIMIT;
use crate::serve::{TestServer, class_settings, start, temp_dir};
use serde_json::{Value, json};
use std::io::{BufRead as _, BufReader, Write as _};
use std::net::SocketAddr;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const CODE: &str = "Maths-Club-42";

/// WebDriver's key codes for the keys the page's tests press.
pub(crate) mod key {
    pub(crate) const ENTER: &str = "\u{e007}";
    pub(crate) const ESCAPE: &str = "\u{e00c}";
    pub(crate) const F4: &str = "\u{e034}";
}

/// A headless Chromium with the page open.
pub(crate) struct Browser {
    child: Child,
    commands: ChildStdin,
    answers: BufReader<ChildStdout>,
}

impl Browser {
    /// Opens the page at `addr` in a window of `size` pixels.
    pub(crate) fn open(addr: SocketAddr, size: [u32; 2]) -> Self {
        Self::open_url(&format!("http://{addr}/"), size, false)
    }

    /// Opens `url`; `insecure` accepts a self-signed certificate.
    pub(crate) fn open_url(url: &str, size: [u32; 2], insecure: bool) -> Self {
        for needed in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
            assert!(
                std::path::Path::new(needed).exists(),
                "{needed} is missing: install chromium, chromium-driver and python3-selenium \
                 (.ci/run does)"
            );
        }
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/drive.py");
        let mut child = Command::new("/usr/bin/python3")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs the WebDriver script");
        let commands = child.stdin.take().unwrap();
        let answers = BufReader::new(child.stdout.take().unwrap());
        let mut browser = Self {
            child,
            commands,
            answers,
        };
        browser.ask(&json!({"open": url, "size": size, "insecure": insecure}));
        browser
    }

    /// Sends `command` and returns its answer; panics with the script's error.
    fn ask(&mut self, command: &Value) -> Value {
        tokio::task::block_in_place(|| {
            writeln!(self.commands, "{command}").unwrap();
            let mut line = String::new();
            self.answers.read_line(&mut line).unwrap();
            let answer: Value = serde_json::from_str(&line)
                .unwrap_or_else(|_| panic!("the driver said {line:?} to {command}"));
            match answer.get("ok") {
                Some(ok) => ok.clone(),
                None => panic!("{command}: {}", answer["error"]),
            }
        })
    }

    /// Pastes `text` into the page's terminal (xterm.js's own paste, as Ctrl-V runs it).
    pub(crate) fn paste(&mut self, text: &str) {
        self.ask(&json!({ "paste": text }));
    }

    /// Types `keys` into the page's terminal.
    pub(crate) fn keys(&mut self, keys: &str) {
        self.ask(&json!({ "keys": keys }));
    }

    /// The terminal's rows, as the page shows them, and its size in characters.
    pub(crate) fn screen(&mut self) -> (String, u16, u16) {
        let answer = self.ask(&json!({"text": true}));
        let rows: Vec<String> = serde_json::from_value(answer["rows"].clone()).unwrap();
        let size = |name: &str| answer[name].as_u64().unwrap_or(0) as u16;
        (rows.join("\n"), size("columns"), size("lines"))
    }

    /// The terminal's font size in pixels, as the page chose it for the window.
    pub(crate) fn font_size(&mut self) -> u64 {
        self.ask(&json!({"text": true}))["font"]
            .as_u64()
            .unwrap_or(0)
    }

    pub(crate) fn text(&mut self) -> String {
        self.screen().0
    }

    /// Waits until `done` holds for the screen's text; panics (naming `what`) past the
    /// safety limit.
    pub(crate) fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + LIMIT;
        loop {
            let text = self.text();
            if done(&text) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; the page shows:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub(crate) fn shows(&mut self, words: &str) {
        self.until(words, |text| text.contains(words));
    }

    /// Waits until the terminal's size satisfies `done`; the size.
    pub(crate) fn size_until(&mut self, what: &str, done: impl Fn(u16, u16) -> bool) -> (u16, u16) {
        let deadline = Instant::now() + LIMIT;
        loop {
            let (_, columns, rows) = self.screen();
            if done(columns, rows) {
                return (columns, rows);
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {columns}x{rows}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Opens the page at `addr` in a new window, which the next commands act on; its number.
    pub(crate) fn open_window(&mut self, addr: SocketAddr) -> u64 {
        let answer = self.ask(&json!({ "window": format!("http://{addr}/") }));
        answer.as_u64().expect("the window's number")
    }

    /// Makes window `number` the one the next commands act on.
    pub(crate) fn switch_to(&mut self, number: u64) {
        self.ask(&json!({ "switch": number }));
    }

    /// Loads the page again, as the browser's reload does.
    pub(crate) fn reload(&mut self) {
        self.ask(&json!({ "reload": true }));
    }

    pub(crate) fn resize(&mut self, size: [u32; 2]) {
        self.ask(&json!({ "size": size }));
    }

    /// The page's note above the terminal ("" while hidden).
    pub(crate) fn note(&mut self) -> String {
        self.ask(&json!({"note": true}))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The files the page offered to download, as listed under the terminal.
    pub(crate) fn files(&mut self) -> Vec<String> {
        serde_json::from_value(self.ask(&json!({"files": true}))).unwrap()
    }

    pub(crate) fn screenshot(&mut self, path: &std::path::Path) {
        self.ask(&json!({ "screenshot": path }));
    }

    /// Types a name and the class code, and waits for the arcade's tab bar.
    pub(crate) fn log_in(&mut self, name: &str, code: &str) {
        self.shows("Your name:");
        self.keys(&format!("{name}{}", key::ENTER));
        self.shows("Class code:");
        self.keys(&format!("{code}{}", key::ENTER));
        self.shows("F4 Tic-tac-toe");
    }

    /// Closes the course, and goes to tic-tac-toe.
    pub(crate) fn go_to_tic_tac_toe(&mut self) {
        self.keys(key::ESCAPE);
        self.until("the course closed", |text| !text.contains("Start here"));
        // A person's next key comes later than the wait that tells Esc from a sequence.
        std::thread::sleep(Duration::from_millis(200));
        self.keys(key::F4);
        self.shows("Your move");
    }

    /// Plays each square in turn whenever it is the student's move, until the tally
    /// under the board counts the game.
    pub(crate) fn play_to_the_end(&mut self) {
        let over = |text: &str| text.contains("won ") && !text.contains("won 0  lost 0  drawn 0");
        for _ in 0..9 {
            for square in '1'..='9' {
                self.until("the student's move", |text| {
                    over(text) || text.contains("Your move")
                });
                if over(&self.text()) {
                    return;
                }
                self.keys(&format!("{square} "));
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        self.until("the game's end", over);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = writeln!(self.commands, "{}", json!({"quit": true}));
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A class server with the code [`CODE`] and the page on loopback.
async fn class_server(tag: &str) -> (TestServer, SocketAddr) {
    let dir = temp_dir(tag);
    let mut settings = class_settings(&dir, CODE, None, None);
    settings.web = Some("127.0.0.1:0".parse().unwrap());
    let server = start(dir, settings).await;
    let addr = server.server.web_addr.unwrap();
    (server, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_a_student_logs_in_and_plays_tic_tac_toe_to_the_end() {
    let (_server, addr) = class_server("chromium-play").await;
    let mut browser = Browser::open(addr, [1000, 700]);
    // The class code pasted, as a student copies it from the teacher's message.
    browser.shows("Your name:");
    browser.keys(&format!("Ada{}", key::ENTER));
    browser.shows("Class code:");
    browser.paste(CODE);
    browser.keys(key::ENTER);
    browser.shows("F4 Tic-tac-toe");
    browser.go_to_tic_tac_toe();
    browser.play_to_the_end();
    let text = browser.text();
    assert!(
        text.contains("The AI won") || text.contains("You won") || text.contains("draw"),
        "{text}"
    );
    // D: the tree as text, downloaded and listed under the terminal.
    browser.keys("D");
    browser.shows("Downloaded as search-tree.txt");
    let deadline = Instant::now() + LIMIT;
    while browser.files().is_empty() {
        assert!(Instant::now() < deadline, "no file listed");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(browser.files(), ["search-tree.txt"]);
    // Left and the page loaded again: a new session, the same files listed.
    browser.keys("qq");
    browser.until("the session's end", |text| text.contains("reload the page"));
    browser.reload();
    browser.shows("Your name:");
    assert_eq!(browser.files(), ["search-tree.txt"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_resizing_the_window_resizes_the_arcade_never_under_80x24() {
    let (_server, addr) = class_server("chromium-resize").await;
    let mut browser = Browser::open(addr, [1000, 700]);
    browser.log_in("Grace", CODE);
    let (_, columns, rows) = browser.screen();
    assert!(columns >= 80 && rows >= 24, "{columns}x{rows}");
    browser.resize([1600, 1000]);
    let (wide, tall) = browser.size_until("a larger terminal", |c, r| c > columns && r > rows);
    // The arcade drew at the new size: its status line is on the last row.
    browser.until("the arcade redrawn to the last row", |text| {
        text.lines()
            .nth(usize::from(tall) - 1)
            .is_some_and(|row| row.contains("? help"))
    });
    assert!(
        browser
            .text()
            .lines()
            .next()
            .unwrap()
            .contains("F1 Subtraction Nim")
    );
    browser.resize([500, 300]);
    browser.size_until("80x24 in a small window", |c, r| (c, r) == (80, 24));
    let note = browser.note();
    assert!(
        note.contains("the arcade needs 80x24"),
        "{note:?} at {wide}x{tall}"
    );
    // At 80 columns the arcade shortens the tab titles.
    browser.shows("F1 Subtraction F2");
}

/// A browser student and an SSH student in one class: the teacher's follow-me reaches
/// both, and a prediction round counts both answers and grades both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_and_over_ssh_one_class_follows_the_teacher_and_predicts() {
    use crate::serve::{Screen, arcade_shown, class_server_with, login_as, open_arcade};
    use ai_arcade::serve::class_code::ClassCode;
    let class = class_server_with("chromium-class", Some("02-alphabeta.toml"), |settings| {
        settings.web = Some("127.0.0.1:0".parse().unwrap());
        settings.class_code = Some(ClassCode::given(CODE).unwrap());
    })
    .await;
    let server = &class.server;
    let ssh = login_as(server, "shelley", &class.student).await;
    let (mut shelley, mut shelley_screen) = arcade_shown(&ssh).await;
    let mut browser = Browser::open(server.server.web_addr.unwrap(), [1000, 700]);
    browser.log_in("webster", CODE);

    let handle = login_as(server, "teacher", &class.teacher).await;
    let mut lead = open_arcade(&handle).await;
    let mut room = Screen::new();
    room.until(&mut lead, "the room", |s| {
        s.text().contains("The room: 2 students")
    })
    .await;
    lead.data_bytes(&b"f"[..]).await.unwrap();
    room.until(&mut lead, "both follow", |s| {
        s.text().contains("2 following you")
    })
    .await;
    // The teacher closes the room, plays the centre and steps the AI's search.
    lead.data_bytes(&b"R5    "[..]).await.unwrap();
    room.until(&mut lead, "the teacher's search stepped", |s| {
        s.text().contains("nodes 4 ")
    })
    .await;
    shelley_screen
        .until(&mut shelley, "shelley follows", |s| {
            s.text().contains("following the teacher") && s.text().contains("nodes 4 ")
        })
        .await;
    browser.until("webster follows", |text| {
        text.contains("following the teacher") && text.contains("nodes 4 ")
    });

    // Predict mode: the teacher steps to a value question; each student answers.
    lead.data_bytes(&b"P"[..]).await.unwrap();
    for _ in 0..60 {
        if room.text().contains("Predict: what value") {
            break;
        }
        let before = room.text();
        lead.data_bytes(&b" "[..]).await.unwrap();
        room.until(&mut lead, "a step", |s| s.text() != before)
            .await;
    }
    assert!(
        room.text().contains("Predict: what value"),
        "{}",
        room.text()
    );
    shelley_screen
        .until(&mut shelley, "the question", |s| {
            s.text().contains("Predict: what value")
        })
        .await;
    shelley.data_bytes(&b"0\r"[..]).await.unwrap();
    browser.shows("Predict: what value");
    browser.keys(&format!("1{}", key::ENTER));
    browser.shows("is in: the teacher");
    shelley_screen
        .until(&mut shelley, "locked in", |s| {
            s.text().contains("is in: the teacher")
        })
        .await;
    lead.data_bytes(&b"R"[..]).await.unwrap();
    room.until(&mut lead, "both answers counted", |s| {
        s.text().contains("Answers: 0: 1 · 1: 1 · no answer yet: 0")
    })
    .await;
    lead.data_bytes(&b"v"[..]).await.unwrap();
    shelley_screen
        .until(&mut shelley, "revealed", |s| {
            s.text().contains("Revealed. ")
        })
        .await;
    browser.shows("Revealed. ");
}

/// The README's picture of the page at 80x24: the window is sized until the terminal is
/// exactly 80x24 with no note, then photographed. With `AI_ARCADE_SCREENSHOT=PATH` the
/// picture is kept there (`docs/web-80x24.png` in the README).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_the_page_at_80x24_is_photographed() {
    let (_server, addr) = class_server("chromium-photo").await;
    let mut browser = Browser::open(addr, [820, 560]);
    browser.log_in("Ada", CODE);
    browser.go_to_tic_tac_toe();
    browser.keys("5 ");
    browser.shows("1. X5 O");
    // The page's largest font (16 px) at exactly 80x24: a smaller font means the window
    // is too small for 80x24 at 16 px, more columns or rows that it is too large.
    let mut size = [820, 560];
    for _ in 0..120 {
        browser.resize(size);
        std::thread::sleep(Duration::from_millis(200));
        let (_, columns, rows) = browser.screen();
        let font = browser.font_size();
        if (columns, rows, font) == (80, 24, 16) {
            break;
        }
        if font < 16 {
            size = [size[0] + 8, size[1] + 8];
            continue;
        }
        if columns > 80 {
            size[0] -= 2;
        }
        if rows > 24 {
            size[1] -= 2;
        }
    }
    let (text, columns, rows) = browser.screen();
    assert_eq!((columns, rows), (80, 24), "{size:?}:\n{text}");
    assert!(
        text.contains("F4 Tic-tac-toe") && text.contains("1. X5 O"),
        "{text}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::var_os("AI_ARCADE_SCREENSHOT")
        .map_or_else(|| dir.path().join("page.png"), std::path::PathBuf::from);
    browser.screenshot(&path);
    let png = std::fs::read(&path).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{}",
        png.len()
    );
}

/// A class behind one school address: thirty windows of one Chromium, each its own
/// student, with the limits a teacher runs with (48 sessions from one address, 4 logging
/// in at a time). Every one logs in, and every one is still live once all are in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_thirty_students_from_one_address_all_get_in() {
    const STUDENTS: u64 = 30;
    let dir = temp_dir("chromium-thirty");
    let mut settings = class_settings(&dir, CODE, None, None);
    settings.web = Some("127.0.0.1:0".parse().unwrap());
    let defaults = ai_arcade::config::ServeConfig::default();
    settings.max_sessions = defaults.max_sessions;
    settings.max_sessions_per_address = defaults.max_sessions_per_address;
    settings.per_source_max_startups = defaults.per_source_max_startups;
    let server = start(dir, settings).await;
    let addr = server.server.web_addr.unwrap();
    let mut browser = Browser::open(addr, [820, 560]);
    for _ in 1..STUDENTS {
        browser.open_window(addr);
    }
    for window in 0..STUDENTS {
        browser.switch_to(window);
        browser.log_in(&format!("Student-{window}"), CODE);
    }
    assert_eq!(server.server.sessions(), STUDENTS as usize);
    // Every window still holds its own live session: a key there is answered there.
    for window in 0..STUDENTS {
        browser.switch_to(window);
        browser.keys(key::ESCAPE);
        browser.until("the course closed", |text| !text.contains("Start here"));
        assert!(
            browser.note().is_empty(),
            "window {window}: {}",
            browser.note()
        );
    }
    let log = server.log_text();
    assert_eq!(
        log.matches("session start").count(),
        STUDENTS as usize,
        "{log}"
    );
    assert!(!log.contains("refused"), "{log}");
}

/// TLS from the reverse proxy: HAProxy with `deploy/haproxy-web.cfg` as written, a
/// self-signed certificate made here, in front of a server that takes connections only
/// from it with a PROXY header (and answers its health checks). A student in Chromium
/// opens `https://`, logs in and plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_through_haproxy_with_tls_a_student_logs_in() {
    use ai_arcade::serve::proxy::TrustedProxies;
    let dir = temp_dir("chromium-tls");
    let pem = self_signed_pem(&dir);
    let mut settings = class_settings(&dir, CODE, None, None);
    settings.web = Some("127.0.0.1:0".parse().unwrap());
    settings.ssh = false;
    settings.health_listen = Some("127.0.0.1:0".parse().unwrap());
    settings.proxies = TrustedProxies::new(vec!["127.0.0.1/32".parse().unwrap()]);
    let server = start(dir.clone(), settings).await;
    let web = server.server.web_addr.unwrap();
    let health = server.server.health_addr.unwrap();
    let listen = free_address();
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/haproxy-web.cfg");
    let haproxy = crate::common::Process::spawn(
        Command::new("haproxy")
            .args(["-db", "-f", config])
            .env("ARCADE_WEB_LISTEN", listen.to_string())
            .env("ARCADE_TLS_PEM", &pem)
            .env("ARCADE_WEB", web.to_string())
            .env("ARCADE_WEB_HEALTH_PORT", health.port().to_string()),
    );
    let deadline = Instant::now() + LIMIT;
    while std::net::TcpStream::connect(listen).is_err() {
        assert!(Instant::now() < deadline, "haproxy:\n{}", haproxy.text());
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut browser = Browser::open_url(&format!("https://{listen}/"), [1000, 700], true);
    browser.log_in("Ada", CODE);
    browser.go_to_tic_tac_toe();
    crate::serve::until_logged(&server, "session start").await;
    let log = server.log_text();
    assert!(log.contains("door=web"), "{log}");
    // Straight to the page's port, without the header: closed.
    let (status, _, _) = crate::web::http_get_or_closed(web, "/").await;
    assert_eq!(
        status, None,
        "a connection without a PROXY header is closed"
    );
}

/// A free loopback address (the port is bound, read and let go).
fn free_address() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

/// A self-signed certificate for 127.0.0.1 and its key in one PEM file, as HAProxy reads
/// it, made with the openssl command.
fn self_signed_pem(dir: &std::path::Path) -> std::path::PathBuf {
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    let made = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args([
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("openssl makes a certificate (.ci/run installs it)");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let pem = dir.join("arcade.pem");
    let both = [std::fs::read(&cert).unwrap(), std::fs::read(&key).unwrap()].concat();
    std::fs::write(&pem, both).unwrap();
    pem
}
