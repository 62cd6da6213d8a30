//! Issue 17 on loopback, without a balancer: the PROXY protocol (whose header names the
//! client in the log and the limits, and without which a connection is closed), the health
//! check, SIGTERM's drain, a host key that must be there, and the JSON log. The HAProxy
//! test in `tests/haproxy.rs` runs the same through a real balancer. Timeouts are safety
//! limits only.

use ai_arcade::app::Models;
use ai_arcade::config::Config;
use ai_arcade::serve::proxy::TrustedProxies;
use ai_arcade::serve::session::RESTARTING;
use ai_arcade::serve::{Log, Server, Settings, keys};
use russh::ChannelMsg;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

use crate::common;
use crate::common::{LIMIT, Process, health_check, line_with};

/// An empty temporary folder named after `tag`, and its path; the folder is removed when the
/// guard is dropped (a failed test too), after the servers declared later have ended.
fn temp_dir(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::Builder::new()
        .prefix(&format!("ai-arcade-scale-{tag}-"))
        .tempdir()
        .unwrap();
    let dir = temp.path().to_path_buf();
    (temp, dir)
}

/// An open server (anyone in) on an ephemeral loopback port.
fn settings(dir: &Path) -> Settings {
    common::settings(dir, None)
}

struct TestServer {
    server: Server,
    log: Arc<Mutex<Vec<String>>>,
}

impl TestServer {
    async fn start(settings: Settings) -> Self {
        Self::try_start(settings).await.expect("server starts")
    }

    async fn try_start(settings: Settings) -> Result<Self, String> {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        let log_fn: Log = Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string()));
        let server = Server::start(
            settings,
            Config::default(),
            Models::default(),
            Some(1),
            log_fn,
        )
        .await
        .map_err(|e| e.to_string())?;
        Ok(Self { server, log })
    }

    fn log_text(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }

    /// Waits until the log has a line with every one of `words`.
    async fn logged(&self, words: &[&str]) -> String {
        line_with(&self.log, words).await
    }
}

/// A v1 header naming `client` as the source.
fn v1_header(client: &str, server: SocketAddr) -> String {
    let (ip, port) = client.rsplit_once(':').unwrap();
    format!(
        "PROXY TCP4 {ip} {} {port} {}\r\n",
        server.ip(),
        server.port()
    )
}

/// A v2 header naming `client`, as HAProxy's `send-proxy-v2` writes it.
fn v2_header(client: &str, server: SocketAddr) -> Vec<u8> {
    let client: SocketAddr = client.parse().unwrap();
    ppp::v2::Builder::with_addresses(
        ppp::v2::Version::Two | ppp::v2::Command::Proxy,
        ppp::v2::Protocol::Stream,
        (client, server),
    )
    .build()
    .unwrap()
}

/// A TCP connection to `addr` that has sent `header`.
async fn with_header(addr: SocketAddr, header: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(header).await.unwrap();
    stream
}

/// Reads until the server closes the connection; true when it did within the limit.
async fn closed_by_server(mut stream: TcpStream) -> bool {
    let mut sink = [0; 1024];
    let read = async {
        loop {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(LIMIT, read).await.is_ok()
}

/// Everything a channel shows until `done` holds of the text, through a terminal emulator.
async fn screen_until(
    channel: &mut russh::Channel<russh::client::Msg>,
    parser: &mut vt100::Parser,
    what: &str,
    done: impl Fn(&str) -> bool,
) {
    let deadline = tokio::time::Instant::now() + LIMIT;
    let mut raw = Vec::new();
    while !done(&parser.screen().contents()) && !done(&String::from_utf8_lossy(&raw)) {
        let message = tokio::time::timeout_at(deadline, channel.wait())
            .await
            .unwrap_or_else(|_| panic!("no {what}; screen:\n{}", parser.screen().contents()));
        match message {
            Some(ChannelMsg::Data { data }) => {
                raw.extend_from_slice(&data);
                parser.process(&data);
            }
            Some(ChannelMsg::Close) | None => {
                let text = String::from_utf8_lossy(&raw).to_string();
                assert!(done(&text), "closed before {what}: {text:?}");
                return;
            }
            Some(_) => {}
        }
    }
}

fn new_screen() -> vt100::Parser {
    vt100::Parser::new(
        std::num::NonZeroU16::new(24).unwrap(),
        std::num::NonZeroU16::new(80).unwrap(),
        0,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_s_header_names_the_client_in_the_log_and_in_the_limits() {
    let (_temp, dir) = temp_dir("proxied");
    let mut settings = settings(&dir);
    settings.proxies = TrustedProxies::new(vec!["127.0.0.1/32".parse().unwrap()]);
    settings.max_failures_per_minute = 2;
    let server = TestServer::start(settings).await;
    let addr = server.server.local_addr;

    // A client that logs in through the proxy is logged under its own address (v2).
    let stream = with_header(addr, &v2_header("198.51.100.4:40000", addr)).await;
    let (_ada, mut channel) = common::connect_stream(stream, "ada", None).await.unwrap();
    let mut screen = new_screen();
    screen_until(&mut channel, &mut screen, "the tab bar", |s| {
        s.contains("F4 Tic-tac-toe")
    })
    .await;
    server
        .logged(&["session start", "addr=198.51.100.4:40000", "\"ada\""])
        .await;

    // Another client (v1) ends connections without trying to log in: past twenty a minute
    // (ten times the limit of two, as they cost little) its address is refused, and the
    // log names it, not the proxy.
    let mut tries = 0;
    while !server.log_text().contains("refused connection") {
        tries += 1;
        assert!(tries <= 40, "never refused:\n{}", server.log_text());
        let header = v1_header(&format!("203.0.113.9:{}", 5000 + tries), addr);
        let mut stream = with_header(addr, header.as_bytes()).await;
        stream.shutdown().await.unwrap();
        assert!(closed_by_server(stream).await);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(tries > 20, "refused after {tries} connections");
    let refused = server
        .logged(&["refused connection", "addr=203.0.113.9:"])
        .await;
    assert!(refused.contains("before logging in"), "{refused}");

    // The proxy's other clients are not held back by it.
    let stream = with_header(addr, &v2_header("198.51.100.5:40001", addr)).await;
    let (_bob, mut channel) = common::connect_stream(stream, "bob", None).await.unwrap();
    let mut screen = new_screen();
    screen_until(&mut channel, &mut screen, "bob's tab bar", |s| {
        s.contains("F4 Tic-tac-toe")
    })
    .await;
    assert!(
        !server.log_text().contains("addr=127.0.0.1"),
        "{}",
        server.log_text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_from_others_or_without_a_header_are_closed_and_logged() {
    let (_temp, dir) = temp_dir("untrusted");
    let mut untrusting = settings(&dir);
    untrusting.proxies = TrustedProxies::new(vec!["10.9.9.9/32".parse().unwrap()]);
    let server = TestServer::start(untrusting).await;
    let addr = server.server.local_addr;
    // A header does not help one who is not a trusted proxy.
    let stream = with_header(addr, &v2_header("198.51.100.4:40000", addr)).await;
    assert!(closed_by_server(stream).await);
    server
        .logged(&[
            "refused connection: not from a trusted proxy",
            "addr=127.0.0.1:",
        ])
        .await;

    // An SSH client straight to the replica, no header.
    let server = trusting(&dir).await;
    assert!(
        common::connect(server.server.local_addr, "ada", None)
            .await
            .is_err()
    );
    server
        .logged(&[
            "refused connection: no PROXY header",
            "\"SSH-2.\"",
            "via=127.0.0.1:",
        ])
        .await;
    // A header that is cut short and never ends: closed at the deadline.
    let server = trusting(&dir).await;
    let stalled = with_header(
        server.server.local_addr,
        b"PROXY TCP4 198.51.100.4 127.0.0.1 4",
    )
    .await;
    assert!(closed_by_server(stalled).await);
    server
        .logged(&["refused connection: no PROXY header within 5s"])
        .await;
    // An oversized v2 header.
    let server = trusting(&dir).await;
    let mut oversized = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    oversized.extend_from_slice(&[0x21, 0x11, 0xff, 0xff]);
    assert!(closed_by_server(with_header(server.server.local_addr, &oversized).await).await);
    server
        .logged(&["refused connection: a PROXY header of 65551 bytes, too long"])
        .await;
}

/// A server that trusts loopback as its proxy (each refusal below gets its own, as the log
/// sums up refusals that come close together).
async fn trusting(dir: &Path) -> TestServer {
    let mut settings = settings(dir);
    settings.proxies = TrustedProxies::new(vec!["127.0.0.0/8".parse().unwrap()]);
    TestServer::start(settings).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_s_drain_turns_the_health_check_to_503_warns_players_then_ends_their_sessions() {
    let (_temp, dir) = temp_dir("drain");
    let mut settings = settings(&dir);
    settings.health_listen = Some("127.0.0.1:0".parse().unwrap());
    settings.max_sessions = 2;
    let server = TestServer::start(settings).await;
    let (addr, health) = (server.server.local_addr, server.server.health_addr.unwrap());
    assert_eq!(
        health_check(health).await,
        (200, "accepting: 0 of 2 sessions\n".into())
    );

    let (_ada, mut channel) = common::connect(addr, "ada", None).await.unwrap();
    let mut screen = new_screen();
    screen_until(&mut channel, &mut screen, "the tab bar", |s| {
        s.contains("F4 Tic-tac-toe")
    })
    .await;
    assert_eq!(
        health_check(health).await,
        (200, "accepting: 1 of 2 sessions\n".into())
    );
    let (_bob, mut bob) = common::connect(addr, "bob", None).await.unwrap();
    screen_until(&mut bob, &mut new_screen(), "bob's tab bar", |s| {
        s.contains("F4 Tic-tac-toe")
    })
    .await;
    assert_eq!(
        health_check(health).await,
        (503, "full: 2 of 2 sessions\n".into())
    );
    drop(bob);

    let grace = Duration::from_millis(1500);
    let checks = async {
        screen_until(&mut channel, &mut screen, "the restart notice", |s| {
            s.contains("Server restarting: this session ends in 1500ms, then reconnect.")
        })
        .await;
        assert_eq!(
            health_check(health).await,
            (503, "draining: the server is restarting\n".into())
        );
        // No one new gets in.
        assert!(common::connect(addr, "carol", None).await.is_err());
    };
    tokio::join!(server.server.drain(grace), checks);
    server
        .logged(&["draining: new connections refused", "grace=1500ms"])
        .await;
    let log = Arc::clone(&server.log);
    server.server.shutdown(Duration::from_secs(3)).await;
    screen_until(&mut channel, &mut screen, "the farewell", |s| {
        s.contains(RESTARTING)
    })
    .await;
    let log = log.lock().unwrap().join("\n");
    assert!(log.contains("reason=\"server restarting\""), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_host_key_must_be_there_and_every_replica_shows_it() {
    let (_temp, dir) = temp_dir("hostkey");
    let mut required = settings(&dir);
    required.host_key_required = true;
    let error = TestServer::try_start(required.clone()).await.err().unwrap();
    assert!(error.contains("--host-key-required"), "{error}");
    assert!(!required.host_key.exists(), "no key was made");

    // The secret every replica mounts.
    let (key, _) = keys::host_key(&required.host_key).unwrap();
    let written = std::fs::read(&required.host_key).unwrap();
    let first = TestServer::start(required.clone()).await;
    let second = TestServer::start(required.clone()).await;
    let fingerprint = keys::fingerprint(key.public_key());
    assert_eq!(first.server.fingerprint, fingerprint);
    assert_eq!(second.server.fingerprint, fingerprint);
    assert!(!first.server.host_key_created && !second.server.host_key_created);
    assert_eq!(std::fs::read(&required.host_key).unwrap(), written);
}

const BIN: &str = env!("CARGO_BIN_EXE_ai-arcade");

/// The binary serving openly on an ephemeral loopback port with `args` added.
fn serve_binary(dir: &Path, args: &[&str]) -> Process {
    Process::spawn(
        std::process::Command::new(BIN)
            .args(["--data-dir", dir.to_str().unwrap(), "serve", "--open"])
            .args(["--listen", "127.0.0.1:0"])
            .args(args),
    )
}

/// The binary, in JSON, with a health port: every stderr line is one JSON object; SIGTERM
/// drains (the health check says so) and the process exits by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_logs_json_and_drains_on_sigterm() {
    let (_temp, dir) = temp_dir("json");
    let args = ["--health-listen", "127.0.0.1:0", "--log-format", "json"];
    let mut server = serve_binary(&dir, &[&args[..], &["--drain-grace", "5s"]].concat());
    let health_line = server.logged(&["health checks on http://"]).await;
    let seen: Vec<serde_json::Value> = (server.lines.lock().unwrap().iter())
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?} is not JSON: {e}"))
        })
        .collect();
    assert!(
        seen.iter()
            .all(|v| v["time"].as_str().is_some_and(|t| t.ends_with('Z')))
    );
    assert_eq!(seen[0]["event"], "server");
    assert!(
        seen[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("server: serving on 127.0.0.1:")
    );
    let value: serde_json::Value = serde_json::from_str(&health_line).unwrap();
    let health: SocketAddr = (value["message"].as_str().unwrap())
        .strip_prefix("server: health checks on http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(health_check(health).await.0, 200);
    server.signal(rustix::process::Signal::TERM);
    let draining = server.logged(&["\"event\":\"draining\""]).await;
    let draining: serde_json::Value = serde_json::from_str(&draining).unwrap();
    assert_eq!(
        (&draining["sessions"], &draining["grace"]),
        (&0.into(), &"5s".into())
    );
    // With nobody playing, the drain ends at once and the process exits.
    let status = server.exit_status().await;
    assert!(status.success(), "{status:?}");
}

/// A player still playing when the drain ends reads the farewell: the process waits for
/// the connection to close before it exits, so the last bytes are not lost with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_of_the_binary_reads_the_farewell_before_it_exits() {
    let (_temp, dir) = temp_dir("farewell");
    let mut server = serve_binary(&dir, &["--drain-grace", "1s"]);
    let serving = server.logged(&["ai-arcade: serving on "]).await;
    let addr: SocketAddr = serving["ai-arcade: serving on ".len()..].parse().unwrap();
    let (_handle, mut channel) = common::connect(addr, "ada", None).await.unwrap();
    let mut screen = new_screen();
    screen_until(&mut channel, &mut screen, "the tab bar", |s| {
        s.contains("F4 Tic-tac-toe")
    })
    .await;
    server.signal(rustix::process::Signal::TERM);
    screen_until(&mut channel, &mut screen, "the farewell", |s| {
        s.contains(RESTARTING)
    })
    .await;
    server.exit_status().await;
}
