//! One browser's WebSocket, once upgraded: the login typed at prompts in the page's
//! terminal (the student's name, then the class code, and whether a session under that
//! name is theirs, as an SSH login asks), then the arcade, fed the page's keys and sizes
//! and drawing back through a [`WsLink`]. What the page sends is bounded: messages in
//! size, and in rate (a flood waits, as a fast SSH client's input does).

use super::line::{LineEditor, Typed};
use crate::app::room::Door;
use crate::serve::class_code::{self, MAX_NAME_CHARS, Verdict};
use crate::serve::gate::Pending;
use crate::serve::session::{
    Admitted, ArcadeStart, FULL, Login, NotAdmitted, Outgoing, RESTARTING, Via, WsLink, admit,
    clamp_size, start_arcade, take_over_words,
};
use crate::serve::shared::Shared;
use crate::serve::terminal::SharedSize;
use crate::shell::LoopEvent;
use crossterm::event::Event;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt as _, StreamExt as _};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tracing::info;

/// The largest message (and frame) the page may send: a paste of 64 KiB is one.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// Messages a second the page may send once its burst is spent; more wait.
pub const MESSAGES_PER_SECOND: f64 = 100.0;

/// Messages the page may send at once before the rate holds it.
pub const MESSAGE_BURST: f64 = 200.0;

/// What the server may hold unsent for one page before the session is given up on: above
/// the largest download (`MAX_DOWNLOAD`, 8 MiB of JSON), so a download always fits.
const MAX_WRITE_BUFFER: usize = 12 * 1024 * 1024;

/// Frames waiting for the socket's writer.
const OUT_QUEUE: usize = 8;

/// How often the server pings a quiet page, so a browser that vanished is noticed.
const PING_EVERY: Duration = Duration::from_secs(20);

/// How long a page may send nothing, not even the answer to a ping, before its session
/// ends: as over SSH, a dropped network frees its student's seat within about a minute.
const READ_TIMEOUT: Duration = Duration::from_secs(75);

/// How long the socket waits for its arcade to end (and park the seat) once the page is
/// gone, before its places are let go.
const END_WAIT: Duration = Duration::from_secs(10);

/// Wrong class codes one page may type before it is closed.
const MAX_CODE_TRIES: usize = 6;

/// Names that will not do one page may type before it is closed.
const MAX_NAME_TRIES: usize = 6;

/// The largest control message (a size) read; longer text is ignored.
const MAX_CONTROL: usize = 256;

/// What a page sent, as the session takes it.
enum Incoming {
    /// Bytes a terminal would send: keys, a paste, mouse reports.
    Keys(Vec<u8>),
    /// The terminal's new size (clamped as an SSH window's is).
    Size(u16, u16),
    /// The page is gone: why.
    Gone(&'static str),
}

/// Holds a fast sender to [`MESSAGES_PER_SECOND`] after a burst of [`MESSAGE_BURST`].
struct Rate {
    tokens: f64,
    at: Instant,
}

impl Rate {
    fn new() -> Self {
        Self {
            tokens: MESSAGE_BURST,
            at: Instant::now(),
        }
    }

    /// Waits until one more message may be taken.
    async fn take(&mut self) {
        let wait = self.take_at(Instant::now());
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
    }

    /// Takes one message at `now`: how long it must wait first.
    fn take_at(&mut self, now: Instant) -> Duration {
        let earned = now.duration_since(self.at).as_secs_f64() * MESSAGES_PER_SECOND;
        self.tokens = (self.tokens + earned).min(MESSAGE_BURST) - 1.0;
        self.at = now;
        if self.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-self.tokens / MESSAGES_PER_SECOND)
        }
    }
}

/// The page's side of a session: what it sends, read with its bounds, and the queue to
/// its writer.
struct Page {
    incoming: SplitStream<WebSocketStream<TcpStream>>,
    out: mpsc::Sender<Outgoing>,
    size: Arc<SharedSize>,
    rate: Rate,
}

impl Page {
    /// Shows `text` on the page's terminal; `false` when the page is gone.
    async fn say(&self, text: &str) -> bool {
        let frame = Outgoing::Frame(text.replace('\n', "\r\n").into_bytes());
        self.out.send(frame).await.is_ok()
    }

    /// The next thing the page sends that the session uses.
    async fn next(&mut self) -> Incoming {
        loop {
            let message = match tokio::time::timeout(READ_TIMEOUT, self.incoming.next()).await {
                Err(_) => return Incoming::Gone("the browser stopped answering"),
                Ok(None | Some(Err(_))) => return Incoming::Gone("the browser's connection ended"),
                Ok(Some(Ok(message))) => message,
            };
            match message {
                Message::Binary(bytes) => {
                    self.rate.take().await;
                    return Incoming::Keys(bytes.to_vec());
                }
                Message::Text(text) => {
                    self.rate.take().await;
                    if let Some((columns, rows)) = size_asked(text.as_str()) {
                        self.size.set(columns, rows);
                        return Incoming::Size(columns, rows);
                    }
                }
                Message::Close(_) => return Incoming::Gone("the browser closed the page"),
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            }
        }
    }

    /// A line typed at a prompt, echoed as it is typed; `None` when the page leaves.
    async fn line(&mut self, mut editor: LineEditor) -> Option<String> {
        loop {
            match self.next().await {
                Incoming::Keys(bytes) => {
                    let (echo, done) = editor.feed(&bytes);
                    if !echo.is_empty() {
                        let echoed = String::from_utf8_lossy(&echo).into_owned();
                        if !self.say(&echoed).await {
                            return None;
                        }
                    }
                    match done {
                        Some(Typed::Line(line)) => return Some(line),
                        Some(Typed::Leave) => return None,
                        None => {}
                    }
                }
                Incoming::Size(..) => {}
                Incoming::Gone(_) => return None,
            }
        }
    }
}

/// The size in a control message, `{"resize":[columns,rows]}`, clamped.
fn size_asked(text: &str) -> Option<(u16, u16)> {
    #[derive(serde::Deserialize)]
    struct Control {
        resize: [u32; 2],
    }
    if text.len() > MAX_CONTROL {
        return None;
    }
    let control: Control = serde_json::from_str(text).ok()?;
    Some(clamp_size(control.resize[0], control.resize[1]))
}

/// Sends the arcade's frames (and pings while it is quiet) until the arcade closes the
/// session or the page stops taking them; then the socket is closed.
async fn write_out(
    mut sink: SplitSink<WebSocketStream<TcpStream>, Message>,
    mut queue: mpsc::Receiver<Outgoing>,
) {
    // On a fixed beat, frames or not: a student who watches (a demonstration, a network
    // training) sends nothing, and only the browser's answers to pings say it is there.
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        let message = tokio::select! {
            outgoing = queue.recv() => match outgoing {
                Some(Outgoing::Frame(bytes)) => Message::Binary(bytes.into()),
                Some(Outgoing::Text(text)) => Message::Text(text.into()),
                Some(Outgoing::Close) | None => break,
            },
            _ = ping.tick() => Message::Ping(Vec::new().into()),
        };
        let sent = tokio::time::timeout(crate::serve::session::OUTPUT_TIMEOUT, sink.send(message));
        if !matches!(sent.await, Ok(Ok(()))) {
            // Dropping the queue tells the arcade its client is gone.
            return;
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), sink.close()).await;
}

/// Runs one upgraded connection: the login, within `login_deadline` and while the gate
/// keeps its place, then the arcade until either side ends it.
pub(super) async fn run(
    stream: TcpStream,
    peer: SocketAddr,
    shared: Arc<Shared>,
    mut pending: Pending,
    login_deadline: Instant,
) {
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
        .max_write_buffer_size(MAX_WRITE_BUFFER);
    let socket = WebSocketStream::from_raw_socket(stream, Role::Server, Some(config)).await;
    let (sink, incoming) = socket.split();
    let (out, queue) = mpsc::channel(OUT_QUEUE);
    let writer = tokio::spawn(write_out(sink, queue));
    let mut page = Page {
        incoming,
        out,
        size: Arc::new(SharedSize::new(80, 24)),
        rate: Rate::new(),
    };
    let cut = pending.cut_signal();
    let logged_in = tokio::select! {
        login = log_in(&mut page, &shared, peer, &mut pending) => login,
        () = tokio::time::sleep_until(login_deadline) => {
            page.say("\nai-arcade: the login took too long; reload the page to try again.\n").await;
            None
        }
        () = cut.notified() => {
            shared.log_cut(peer);
            None
        }
    };
    let Some((login, admitted)) = logged_in else {
        let _ = page.out.send(Outgoing::Close).await;
        let _ = tokio::time::timeout(END_WAIT, writer).await;
        return;
    };
    pending.logged_in();
    play(page, &shared, peer, login, writer).await;
    drop(admitted);
}

/// The session after its login: a place among the arcades, the arcade started on it, and
/// the page's keys and sizes handed to it until either side ends.
async fn play(
    mut page: Page,
    shared: &Arc<Shared>,
    peer: SocketAddr,
    login: Login,
    mut writer: tokio::task::JoinHandle<()>,
) {
    let refusal = if shared.is_draining() {
        Some(("draining", RESTARTING))
    } else {
        None
    };
    let slot = match refusal {
        None => shared.slots.take(shared.settings.max_sessions),
        Some(_) => None,
    };
    let Some(slot) = slot else {
        let (why, words) = refusal.unwrap_or(("server full", FULL));
        shared.refused(|| {
            info!(event = "refused session", addr = %peer, user = login.name.as_str(), door = %"web", "{why}");
        });
        page.say(&format!("{words}\n")).await;
        let _ = page.out.send(Outgoing::Close).await;
        let _ = tokio::time::timeout(END_WAIT, writer).await;
        return;
    };
    let link = WsLink {
        out: page.out.clone(),
        runtime: tokio::runtime::Handle::current(),
    };
    let started = start_arcade(ArcadeStart {
        shared: Arc::clone(shared),
        peer,
        login,
        term: "xterm.js".into(),
        size: Arc::clone(&page.size),
        color: true,
        door: Door::Web,
        link: Arc::new(link),
        slot,
    });
    let Some(running) = started else {
        page.say("ai-arcade: the server could not start an arcade; try again later.\n")
            .await;
        let _ = page.out.send(Outgoing::Close).await;
        return;
    };
    // Until the page goes or the arcade ends (its writer then closes the socket, whatever
    // the page goes on sending).
    let why = loop {
        let incoming = tokio::select! {
            incoming = page.next() => incoming,
            _ = &mut writer => return,
        };
        let taken = match incoming {
            Incoming::Keys(bytes) => running.feed(&bytes).await,
            Incoming::Size(columns, rows) => {
                let resize = LoopEvent::Input(Event::Resize(columns, rows));
                running.send(resize).await
            }
            Incoming::Gone(why) => break why,
        };
        if !taken {
            break "the arcade ended";
        }
    };
    running.closed(why);
    // The arcade parks the student's seat, then closes the socket's queue: its places
    // are let go after that, so a student who comes straight back finds their place.
    drop(page);
    let _ = tokio::time::timeout(END_WAIT, writer).await;
}

/// What a page is told first.
fn welcome(code: bool) -> &'static str {
    if code {
        "ai-arcade: the arcade in your browser.\n\
         Type your name and press Enter, then the class code your teacher gave you.\n\n"
    } else {
        "ai-arcade: the arcade in your browser.\n\
         Type your name and press Enter: the arcade keeps your place under it.\n\n"
    }
}

/// The login at the page's prompts: a good name, the class code when the server has
/// one, and, when a session runs under that name, whether it is the student's own, cut
/// off. The login and the places it holds, or `None` when the page leaves or is refused
/// (told why, and logged).
async fn log_in(
    page: &mut Page,
    shared: &Arc<Shared>,
    peer: SocketAddr,
    pending: &mut Pending,
) -> Option<(Login, Admitted)> {
    let code = shared.settings.class_code.as_ref();
    if code.is_none() && !shared.settings.is_open() {
        // Keys log in over SSH only: a page has none to offer.
        page.say("ai-arcade: this server lets no one in from a browser.\n")
            .await;
        return None;
    }
    page.say(welcome(code.is_some())).await;
    let name = ask_name(page, shared, peer, pending).await?;
    // A person types from here on: its handshake place goes to the next.
    pending.at_prompt();
    if let Some(code) = code {
        // Asked to log in: ending without counts against the address.
        pending.tried();
        ask_code(page, shared, peer, &name, code).await?;
    }
    let mut takes_over = false;
    // Only a student the code let in may say a session under their name is theirs: on
    // an open server anyone could type any name (an open SSH login is never asked).
    if code.is_some() && shared.room.present(&name) {
        let another = shared.session_caps.under_name(&name) < shared.settings.max_sessions_per_name;
        page.say(&format!("{}\n", take_over_words(&name, another)))
            .await;
        page.say(crate::serve::session::TAKE_OVER_PROMPT).await;
        let answer = page.line(LineEditor::new(8, false)).await?;
        takes_over = answer.trim().eq_ignore_ascii_case("y");
    }
    let via = if code.is_some() {
        Via::ClassCode
    } else {
        Via::Open
    };
    let login = Login {
        name,
        via,
        takes_over,
    };
    match admit(shared, peer, &login) {
        Ok(admitted) => {
            shared.log(|| {
                info!(
                    event = "login",
                    addr = %peer,
                    user = login.name.as_str(),
                    via = %login.via_name(),
                    door = %"web"
                );
            });
            Some((login, admitted))
        }
        Err(NotAdmitted::Over(over)) => {
            page.say(&format!("ai-arcade: {}\n", over.words(&login.name)))
                .await;
            None
        }
        Err(NotAdmitted::Full) => {
            page.say(&format!("{FULL}\n")).await;
            None
        }
    }
}

/// Asks for a name until a good one is typed: at most [`MAX_NAME_TRIES`], each refusal
/// answered after the failure delay (and counted against the address, as a refused login
/// is). The class code itself is no name: typed at the wrong prompt, it would show in
/// the room and the log.
async fn ask_name(
    page: &mut Page,
    shared: &Arc<Shared>,
    peer: SocketAddr,
    pending: &mut Pending,
) -> Option<String> {
    let code = shared.settings.class_code.as_ref();
    for _ in 0..MAX_NAME_TRIES {
        page.say("Your name: ").await;
        let typed = page.line(LineEditor::new(MAX_NAME_CHARS, false)).await?;
        let is_code = code.is_some_and(|code| {
            code.check(typed.as_bytes(), shared.started.elapsed()) == Verdict::Right
        });
        let why = match class_code::student_name(&typed) {
            Ok(_) if is_code => "it is the class code. Type your name first".to_string(),
            Ok(name) => return Some(name.to_string()),
            Err(why) => {
                shared.refused(|| {
                    info!(event = "refused name", addr = %peer, door = %"web", user = typed.as_str(), "{why}");
                });
                why.to_string()
            }
        };
        pending.tried();
        tokio::time::sleep(shared.settings.auth_failure_delay).await;
        page.say(&format!("That name will not do: {why}.\n")).await;
    }
    page.say("ai-arcade: no name to let in; reload the page to try again.\n")
        .await;
    None
}

/// Asks for the class code: `Some` once it is right; `None` after
/// [`MAX_CODE_TRIES`] wrong ones, once it has expired, or when the page leaves. Each wrong
/// code is answered after the failure delay, as over SSH.
async fn ask_code(
    page: &mut Page,
    shared: &Arc<Shared>,
    peer: SocketAddr,
    name: &str,
    code: &class_code::ClassCode,
) -> Option<()> {
    for _ in 0..MAX_CODE_TRIES {
        page.say(class_code::PROMPT).await;
        let answer = page
            .line(LineEditor::new(class_code::MAX_ANSWER_BYTES, true))
            .await?;
        match code.check(answer.as_bytes(), shared.started.elapsed()) {
            Verdict::Right => return Some(()),
            Verdict::Wrong => {
                shared.refused(|| {
                    info!(event = "refused class code", addr = %peer, door = %"web", user = name);
                });
                tokio::time::sleep(shared.settings.auth_failure_delay).await;
                page.say("That is not the class code; try again.\n").await;
            }
            Verdict::Expired => {
                shared.log(|| {
                    info!(event = "refused class code", addr = %peer, door = %"web", user = name, "{}", class_code::EXPIRED);
                });
                page.say(&format!(
                    "ai-arcade: {}; ask for a new one.\n",
                    class_code::EXPIRED
                ))
                .await;
                return None;
            }
        }
    }
    page.say("ai-arcade: too many wrong codes; reload the page to try again.\n")
        .await;
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_is_read_from_its_control_message_and_clamped() {
        assert_eq!(size_asked(r#"{"resize":[100,30]}"#), Some((100, 30)));
        assert_eq!(size_asked(r#"{"resize":[0,99999]}"#), Some((1, 200)));
        assert_eq!(size_asked(r#"{"resize":[80]}"#), None);
        assert_eq!(size_asked("not json"), None);
        let long = format!(r#"{{"resize":[80,24],"x":"{}"}}"#, "a".repeat(MAX_CONTROL));
        assert_eq!(size_asked(&long), None);
    }

    #[test]
    fn the_welcome_fits_80_columns() {
        for code in [true, false] {
            for line in welcome(code).lines() {
                assert!(line.chars().count() <= 80, "{line:?}");
            }
        }
    }

    #[test]
    fn the_rate_lets_a_burst_through_then_holds_to_its_pace() {
        let mut rate = Rate::new();
        let start = rate.at;
        for _ in 0..MESSAGE_BURST as usize {
            assert_eq!(
                rate.take_at(start),
                Duration::ZERO,
                "the burst waits for nothing"
            );
        }
        // A flood at one instant: the hundredth more waits a second.
        let waits: Vec<Duration> = (0..100).map(|_| rate.take_at(start)).collect();
        assert!(
            (waits[99].as_secs_f64() - 1.0).abs() < 1e-9,
            "{:?}",
            waits[99]
        );
        // Sending at the pace, it waits for nothing again once it has caught up.
        let later = start + Duration::from_secs(2);
        assert_eq!(rate.take_at(later), Duration::ZERO);
    }
}
