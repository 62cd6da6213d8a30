//! Issue 17, through a real balancer: HAProxy, run with `deploy/haproxy.cfg` as written, in
//! front of two `ai-arcade serve` replicas on loopback. Clients connect from their own
//! loopback addresses (127.0.0.2, .3, …) through it; each replica logs the clients' own
//! addresses (from the PROXY v2 header), a client flooding connections is refused without
//! holding back the others, SIGTERM drains one replica while the other keeps serving, and
//! every client is shown the one host key.
//!
//! HAProxy is a Debian package: `.ci/run` installs it. Where it is missing the test says so
//! and passes, but not under CI (`CI=true`), where a missing HAProxy fails the run rather
//! than skipping unseen. Timeouts are safety limits only.

use ai_arcade::serve::keys;
use ai_arcade::serve::session::RESTARTING;
use russh::ChannelMsg;
use russh::client::{self, Handle, Msg};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use crate::common::{Client, LIMIT, Process, health_check};

const BIN: &str = env!("CARGO_BIN_EXE_ai-arcade");

/// One `ai-arcade serve` replica, as the deploy notes run it.
struct Replica {
    process: Process,
    ssh: SocketAddr,
    health: SocketAddr,
}

impl Replica {
    async fn start(dir: &Path, host_key: &Path) -> Self {
        let process = Process::spawn(
            Command::new(BIN)
                .args([
                    "--data-dir",
                    dir.to_str().unwrap(),
                    "--seed",
                    "1",
                    "serve",
                    "--open",
                ])
                .args(["--listen", "127.0.0.1:0", "--health-listen", "127.0.0.1:0"])
                .args(["--proxy-protocol", "127.0.0.1"])
                .args([
                    "--host-key",
                    host_key.to_str().unwrap(),
                    "--host-key-required",
                ])
                .args(["--max-failures-per-minute", "5", "--drain-grace", "3s"]),
        );
        let serving = process.logged(&["serving on "]).await;
        let health = process.logged(&["health checks on http://"]).await;
        let ssh = serving.rsplit(' ').next().unwrap().parse().unwrap();
        let health = health["ai-arcade: health checks on http://".len()..]
            .split('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        Self {
            process,
            ssh,
            health,
        }
    }
}

/// A player connected from their own loopback address, with the arcade on their screen.
struct Player {
    _handle: Handle<Client>,
    channel: russh::Channel<Msg>,
    screen: vt100::Parser,
    raw: Vec<u8>,
    host_key: String,
    port: u16,
}

/// A TCP connection from `source` (a loopback address of its own) to `to`.
async fn connect_from(source: &str, to: SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(source.parse::<IpAddr>().unwrap(), 0))
        .unwrap();
    tokio::time::timeout(LIMIT, socket.connect(to))
        .await
        .expect("connects in time")
        .unwrap()
}

impl Player {
    async fn join(source: &str, balancer: SocketAddr, name: &str) -> Self {
        let stream = connect_from(source, balancer).await;
        let port = stream.local_addr().unwrap().port();
        let host_key = Arc::new(Mutex::new(None));
        let handler = Client {
            host_key: Arc::clone(&host_key),
        };
        let config = Arc::new(client::Config::default());
        let mut handle =
            tokio::time::timeout(LIMIT, client::connect_stream(config, stream, handler))
                .await
                .expect("the handshake in time")
                .unwrap();
        assert!(handle.authenticate_none(name).await.unwrap().success());
        let channel = handle.channel_open_session().await.unwrap();
        channel
            .request_pty(true, "xterm-256color", 80, 24, 0, 0, &[])
            .await
            .unwrap();
        channel.request_shell(true).await.unwrap();
        let host_key = keys::fingerprint(host_key.lock().unwrap().as_ref().unwrap());
        let mut player = Self {
            _handle: handle,
            channel,
            screen: vt100::Parser::new(
                std::num::NonZeroU16::new(24).unwrap(),
                std::num::NonZeroU16::new(80).unwrap(),
                0,
            ),
            raw: Vec::new(),
            host_key,
            port,
        };
        player.sees("the tab bar", "F4 Tic-tac-toe").await;
        player
    }

    /// Reads until `text` is on the screen (or, once the channel closed, in what came).
    async fn sees(&mut self, what: &str, text: &str) {
        let deadline = tokio::time::Instant::now() + LIMIT;
        while !self.screen.screen().contents().contains(text) {
            let message = tokio::time::timeout_at(deadline, self.channel.wait())
                .await
                .unwrap_or_else(|_| {
                    panic!("no {what}; screen:\n{}", self.screen.screen().contents())
                });
            match message {
                Some(ChannelMsg::Data { data }) => {
                    self.raw.extend_from_slice(&data);
                    self.screen.process(&data);
                }
                Some(ChannelMsg::Close) | None => {
                    let said = String::from_utf8_lossy(&self.raw).to_string();
                    assert!(
                        said.contains(text),
                        "closed before {what}: ...{:?}",
                        &said[said.len().saturating_sub(300)..]
                    );
                    return;
                }
                Some(_) => {}
            }
        }
    }

    async fn press(&mut self, keys: &str) {
        self.channel.data(keys.as_bytes()).await.unwrap();
    }
}

/// A free loopback port for HAProxy to listen on.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn haproxy_missing() -> bool {
    Command::new("haproxy").arg("-v").output().is_err()
}

/// An empty temporary folder named after `tag`, and its path; the folder is removed when the
/// guard is dropped (a failed test too), after the processes declared later have ended.
fn temp_dir(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::Builder::new()
        .prefix(&format!("ai-arcade-haproxy-{tag}-"))
        .tempdir()
        .unwrap();
    let dir = temp.path().to_path_buf();
    (temp, dir)
}

/// HAProxy with `deploy/haproxy.cfg` as written, its addresses from the environment, in
/// front of the two replicas; returns once it listens.
async fn start_balancer(first: &Replica, second: &Replica) -> (Process, SocketAddr) {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/haproxy.cfg");
    let balancer: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let haproxy = Process::spawn(
        Command::new("haproxy")
            .args(["-db", "-f", config.to_str().unwrap()])
            .env("ARCADE_LISTEN", balancer.to_string())
            .env("ARCADE_REPLICA_1", first.ssh.to_string())
            .env(
                "ARCADE_REPLICA_1_HEALTH_PORT",
                first.health.port().to_string(),
            )
            .env("ARCADE_REPLICA_2", second.ssh.to_string())
            .env(
                "ARCADE_REPLICA_2_HEALTH_PORT",
                second.health.port().to_string(),
            ),
    );
    let deadline = std::time::Instant::now() + LIMIT;
    while tokio::net::TcpStream::connect(balancer).await.is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "haproxy:\n{}",
            haproxy.text()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (haproxy, balancer)
}

/// Which replica logged a session from `at` (waiting for the line).
async fn landed_on(replicas: &[&Replica; 2], at: &str) -> usize {
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        if let Some(i) = (replicas.iter()).position(|r| r.process.has(&["session start", at])) {
            return i;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no session from {at}:\n{}\n--\n{}",
            replicas[0].process.text(),
            replicas[1].process.text()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `count` connections from `source` that send junk instead of SSH and never log in.
async fn flood(source: &str, balancer: SocketAddr, count: usize) {
    for _ in 0..count {
        let mut flood = connect_from(source, balancer).await;
        let _ = flood
            .write_all(b"SSH-2.0-flood\r\nnot ssh at all\r\n")
            .await;
        let mut sink = Vec::new();
        let _ = tokio::time::timeout(LIMIT, flood.read_to_end(&mut sink)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn haproxy_in_front_of_two_replicas_passes_clients_limits_drains_and_one_host_key() {
    if haproxy_missing() {
        assert!(
            std::env::var_os("CI").is_none(),
            "haproxy is not installed: .ci/run installs it (apt-get install haproxy)"
        );
        eprintln!("skipped: haproxy is not installed (apt-get install haproxy runs this test)");
        return;
    }
    let (_temp, dir) = temp_dir("two");
    // The secret every replica mounts.
    let host_key = dir.join("secret").join(keys::HOST_KEY_FILE);
    let (key, _) = keys::host_key(&host_key).unwrap();
    let fingerprint = keys::fingerprint(key.public_key());
    let first = Replica::start(&dir.join("one"), &host_key).await;
    let second = Replica::start(&dir.join("two"), &host_key).await;
    let (haproxy, balancer) = start_balancer(&first, &second).await;
    let replicas = [&first, &second];

    // Two players, through the balancer, from their own addresses: least connections puts
    // them on different replicas, and each replica logs the player's own address.
    let mut ada = Player::join("127.0.0.2", balancer, "ada").await;
    let mut bob = Player::join("127.0.0.3", balancer, "bob").await;
    let ada_at = format!("addr=127.0.0.2:{}", ada.port);
    let bob_at = format!("addr=127.0.0.3:{}", bob.port);
    let (ada_on, bob_on) = (
        landed_on(&replicas, &ada_at).await,
        landed_on(&replicas, &bob_at).await,
    );
    assert_ne!(ada_on, bob_on, "least connections spreads the two");
    for replica in replicas {
        assert!(
            !replica.process.has(&["session start", "addr=127.0.0.1:"]),
            "{}",
            replica.process.text()
        );
    }

    // A flood from one address: connections that send junk and never try to log in.
    // Past fifty a minute on a replica (ten times its failure limit of five, as they cost
    // it little), that address is refused there, by its own address.
    flood("127.0.0.9", balancer, 120).await;
    let refused = replicas
        .iter()
        .filter(|r| {
            r.process
                .has(&["refused connection", "addr=127.0.0.9:", "before logging in"])
        })
        .count();
    assert!(
        refused >= 1,
        "{}\n--\n{}",
        first.process.text(),
        second.process.text()
    );
    // …while another client gets in at once.
    let carol = Player::join("127.0.0.4", balancer, "carol").await;

    // SIGTERM drains ada's replica: its health check says 503, ada is told, new players go
    // to the other replica, and bob's session there goes on.
    let (draining, serving) = (replicas[ada_on], replicas[1 - ada_on]);
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&draining.process.child),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    draining
        .process
        .logged(&["draining: new connections refused"])
        .await;
    ada.sees(
        "the restart notice",
        "Server restarting: this session ends in 3s, then reconnect.",
    )
    .await;
    assert_eq!(health_check(draining.health).await.0, 503);
    assert_eq!(health_check(serving.health).await.0, 200);
    let dave = Player::join("127.0.0.5", balancer, "dave").await;
    serving
        .process
        .logged(&["session start", &format!("addr=127.0.0.5:{}", dave.port)])
        .await;
    if bob_on != ada_on {
        bob.press("?").await;
        bob.sees("help on the replica that stays", "Help: Tic-tac-toe")
            .await;
    }
    ada.sees("the farewell", RESTARTING).await;
    draining
        .process
        .logged(&["session end", &ada_at, "reason=\"server restarting\""])
        .await;

    // One host key, whichever replica a player landed on.
    for player in [&ada, &bob, &carol, &dave] {
        assert_eq!(player.host_key, fingerprint);
    }
    drop(haproxy);
}
