//! The little HTTP the web listener speaks: one request's head read within a size and a
//! time, the page's files answered from the binary, and the WebSocket upgrade checked
//! (its Origin first) and accepted. Every answer closes the connection but the upgrade.

use httparse::{EMPTY_HEADER, Request, Status};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _};
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;

/// The most bytes of a request's head read (a browser's is well under 2 KiB).
pub const MAX_HEAD: usize = 8192;

/// How long a client may take to send its request's head: a browser sends it at once.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(10);

/// The headers a request may have.
const MAX_HEADERS: usize = 48;

/// A request's head, as much of it as the listener uses.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Head {
    /// `GET`, `HEAD`, …
    pub method: String,
    /// The path, without the query (which is never read, nor logged).
    pub path: String,
    /// The `Host` header.
    pub host: Option<String>,
    /// The `Origin` header.
    pub origin: Option<String>,
    /// Whether `Upgrade: websocket` and `Connection: upgrade` ask for a WebSocket.
    pub upgrade: bool,
    /// `Sec-WebSocket-Version`.
    pub version: Option<String>,
    /// `Sec-WebSocket-Key`.
    pub key: Option<String>,
}

/// Why a request's head could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HeadError {
    /// The connection closed first.
    #[error("closed before its request")]
    Closed,
    /// Longer than [`MAX_HEAD`].
    #[error("a request head over {MAX_HEAD} bytes")]
    TooLong,
    /// Not HTTP.
    #[error("not an HTTP request")]
    Malformed,
    /// More than the head came before the answer (a client must wait for the upgrade).
    #[error("bytes after the request head")]
    Trailing,
}

/// Reads one request's head from `stream` (bounded by [`MAX_HEAD`]; the caller bounds
/// the time).
pub async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Result<Head, HeadError> {
    let mut buffer = vec![0; MAX_HEAD];
    let mut filled = 0;
    loop {
        if filled == buffer.len() {
            return Err(HeadError::TooLong);
        }
        let read = stream
            .read(&mut buffer[filled..])
            .await
            .map_err(|_| HeadError::Closed)?;
        if read == 0 {
            return Err(HeadError::Closed);
        }
        filled += read;
        if let Some(head) = parse(&buffer[..filled])? {
            return Ok(head);
        }
    }
}

/// The head in `bytes`, `None` while it is not all there.
fn parse(bytes: &[u8]) -> Result<Option<Head>, HeadError> {
    let mut headers = [EMPTY_HEADER; MAX_HEADERS];
    let mut request = Request::new(&mut headers);
    let length = match request.parse(bytes) {
        Ok(Status::Complete(length)) => length,
        Ok(Status::Partial) => return Ok(None),
        Err(_) => return Err(HeadError::Malformed),
    };
    if length != bytes.len() {
        return Err(HeadError::Trailing);
    }
    let header = |name: &str| {
        (request.headers.iter())
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .and_then(|h| std::str::from_utf8(h.value).ok())
            .map(|v| v.trim().to_string())
    };
    let has_token = |name: &str, token: &str| {
        header(name).is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    };
    let path = request.path.unwrap_or("/");
    Ok(Some(Head {
        method: request.method.unwrap_or_default().to_string(),
        path: path.split('?').next().unwrap_or("/").to_string(),
        host: header("host"),
        origin: header("origin"),
        upgrade: has_token("upgrade", "websocket") && has_token("connection", "upgrade"),
        version: header("sec-websocket-version"),
        key: header("sec-websocket-key"),
    }))
}

/// Whether a WebSocket asked for by `head` comes from this server's own page: its
/// `Origin` names the host the request was sent to (`Host`), the scheme's default port
/// left out on either side. A page elsewhere cannot open a session in a visitor's name;
/// behind a proxy that keeps `Host` (HAProxy does) the check holds as it is.
pub fn same_origin(head: &Head) -> bool {
    let (Some(origin), Some(host)) = (&head.origin, &head.host) else {
        return false;
    };
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return false,
    };
    let plain = |a: &str| {
        let a = a.trim_end_matches('/').to_ascii_lowercase();
        a.strip_suffix(default_port)
            .map_or(a.clone(), str::to_string)
    };
    !authority.contains('/') && plain(authority) == plain(host)
}

/// Whether `host` (a `Host` header) names this machine's loopback: `localhost` (or a name
/// under it), `127.0.0.1` and the rest of 127/8, or `[::1]`, with any port.
pub fn loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => host
            .rsplit_once(':')
            .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
            .map_or(host, |(name, _)| name),
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.to_canonical().is_loopback())
}

/// Which hosts a WebSocket may be asked for under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hosts {
    /// Any host the page was served under (a class server, reached by its name).
    Any,
    /// Only loopback names: an open server (no class code) listening on this machine, for
    /// one student at home. A page elsewhere whose name the attacker points at 127.0.0.1
    /// (DNS rebinding) passes the Origin check, as its Origin and Host agree; it names no
    /// loopback host, and is refused.
    Loopback,
}

impl Hosts {
    /// The hosts for a connection that came in at `local` (this end's address): loopback
    /// names only when it came in on loopback to an `open` server no proxy stands before.
    pub fn for_connection(local: std::net::IpAddr, open: bool, proxied: bool) -> Self {
        // A dual-stack listener (`[::]`) sees 127.0.0.1 as `::ffff:127.0.0.1`.
        if local.to_canonical().is_loopback() && open && !proxied {
            Self::Loopback
        } else {
            Self::Any
        }
    }
}

/// What the listener answers a request with.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// One of the page's files.
    File(&'static super::page::File),
    /// The WebSocket's upgrade, with the key to accept.
    Upgrade(String),
    /// A refusal: the status line and a one-line reason.
    Refuse(&'static str, &'static str),
}

/// The answer to `head`, a WebSocket taken only under `hosts`.
pub fn answer(head: &Head, hosts: Hosts) -> Answer {
    if head.path == super::page::SOCKET_PATH {
        if head.method != "GET" || !head.upgrade {
            return Answer::Refuse("400 Bad Request", "this address takes a WebSocket\n");
        }
        if head.version.as_deref() != Some("13") {
            return Answer::Refuse("426 Upgrade Required", "WebSocket version 13 only\n");
        }
        if !same_origin(head) {
            return Answer::Refuse("403 Forbidden", "not from this server's page\n");
        }
        if hosts == Hosts::Loopback && !head.host.as_deref().is_some_and(loopback_host) {
            return Answer::Refuse(
                "403 Forbidden",
                "an open server on this machine answers at localhost only\n",
            );
        }
        return match &head.key {
            Some(key) => Answer::Upgrade(derive_accept_key(key.as_bytes())),
            None => Answer::Refuse("400 Bad Request", "no Sec-WebSocket-Key\n"),
        };
    }
    if !matches!(head.method.as_str(), "GET" | "HEAD") {
        return Answer::Refuse("405 Method Not Allowed", "GET only\n");
    }
    match super::page::file(&head.path) {
        Some(file) => Answer::File(file),
        None => Answer::Refuse("404 Not Found", "not here\n"),
    }
}

/// The headers every answer carries: nothing cached but the vendored files, no framing
/// by other pages, scripts from this server only.
const COMMON_HEADERS: &str = "X-Content-Type-Options: nosniff\r\n\
    X-Frame-Options: DENY\r\n\
    Referrer-Policy: no-referrer\r\n\
    Content-Security-Policy: default-src 'none'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; \
    base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n\
    Connection: close\r\n";

/// Writes `answer` (a file or a refusal; the body left out for `HEAD`).
pub async fn write_answer<S: AsyncWrite + Unpin>(
    stream: &mut S,
    answer: &Answer,
    head_only: bool,
) -> std::io::Result<()> {
    let (status, kind, cache, body): (&str, &str, &str, &[u8]) = match answer {
        Answer::File(file) => ("200 OK", file.kind, file.cache, file.body),
        Answer::Refuse(status, why) => (
            status,
            "text/plain; charset=utf-8",
            "no-store",
            why.as_bytes(),
        ),
        Answer::Upgrade(accept) => return write_upgrade(stream, accept).await,
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: {cache}\r\n{COMMON_HEADERS}\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    if !head_only {
        stream.write_all(body).await?;
    }
    stream.flush().await
}

/// The `101 Switching Protocols` that makes the connection a WebSocket.
async fn write_upgrade<S: AsyncWrite + Unpin>(stream: &mut S, accept: &str) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await?;
    stream.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Head {
        parse(text.as_bytes()).unwrap().unwrap()
    }

    fn upgrade(origin: &str, host: &str) -> Head {
        head(&format!(
            "GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n\
             Connection: keep-alive, Upgrade\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        ))
    }

    #[test]
    fn the_upgrade_is_accepted_with_rfc_6455s_example_key() {
        let answer = answer(
            &upgrade("http://127.0.0.1:8080", "127.0.0.1:8080"),
            Hosts::Any,
        );
        assert_eq!(
            answer,
            Answer::Upgrade("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".into())
        );
    }

    #[test]
    fn loopback_hosts_are_told_from_other_names() {
        for host in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.:8080",
            "arcade.localhost:80",
            "127.0.0.1:8080",
            "127.4.5.6",
            "[::1]:8080",
            "[::1]",
            "[::ffff:127.0.0.1]:8080",
        ] {
            assert!(loopback_host(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "localhost.evil.example",
            "10.0.0.1:8080",
            "[::2]:80",
            "",
        ] {
            assert!(!loopback_host(host), "{host}");
        }
    }

    /// Loopback names only for an open server reached on loopback with no proxy, on a
    /// dual-stack listener too (127.0.0.1 arrives there as `::ffff:127.0.0.1`).
    #[test]
    fn only_an_open_server_reached_on_loopback_takes_loopback_names_only() {
        use std::net::IpAddr;
        let at = |ip: &str| ip.parse::<IpAddr>().unwrap();
        for home in ["127.0.0.1", "::1", "::ffff:127.0.0.1"] {
            assert_eq!(
                Hosts::for_connection(at(home), true, false),
                Hosts::Loopback,
                "{home}"
            );
            assert_eq!(Hosts::for_connection(at(home), false, false), Hosts::Any);
            assert_eq!(Hosts::for_connection(at(home), true, true), Hosts::Any);
        }
        for away in ["192.168.1.5", "::ffff:10.0.0.1", "2001:db8::1"] {
            assert_eq!(Hosts::for_connection(at(away), true, false), Hosts::Any);
        }
    }

    /// DNS rebinding: another site's name pointed at 127.0.0.1 passes the Origin check
    /// (Origin and Host agree), but an open server on loopback takes loopback names only.
    #[test]
    fn an_open_server_on_loopback_refuses_a_socket_under_another_name() {
        let rebound = upgrade("http://evil.example:8080", "evil.example:8080");
        assert!(matches!(answer(&rebound, Hosts::Any), Answer::Upgrade(_)));
        assert_eq!(
            answer(&rebound, Hosts::Loopback),
            Answer::Refuse(
                "403 Forbidden",
                "an open server on this machine answers at localhost only\n"
            )
        );
        let home = upgrade("http://localhost:8080", "localhost:8080");
        assert!(matches!(answer(&home, Hosts::Loopback), Answer::Upgrade(_)));
    }

    #[test]
    fn a_socket_from_another_origin_or_none_is_refused() {
        for (origin, host) in [
            ("http://evil.example", "arcade.school:8080"),
            ("http://arcade.school:8081", "arcade.school:8080"),
            ("null", "arcade.school"),
            ("https://arcade.school.evil.example", "arcade.school"),
        ] {
            assert_eq!(
                answer(&upgrade(origin, host), Hosts::Any),
                Answer::Refuse("403 Forbidden", "not from this server's page\n"),
                "{origin} to {host}"
            );
        }
        let mut no_origin = upgrade("http://a", "a");
        no_origin.origin = None;
        assert!(matches!(
            answer(&no_origin, Hosts::Any),
            Answer::Refuse("403 Forbidden", _)
        ));
    }

    #[test]
    fn default_ports_and_case_do_not_tell_origins_apart() {
        for (origin, host) in [
            ("https://Arcade.School", "arcade.school:443"),
            ("http://arcade.school:80", "arcade.school"),
            ("https://arcade.school", "arcade.school"),
        ] {
            assert!(same_origin(&upgrade(origin, host)), "{origin} to {host}");
        }
    }

    #[test]
    fn the_query_is_dropped_and_unknown_paths_are_not_found() {
        let page = head("GET /?code=K7QF HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!(page.path, "/");
        assert!(matches!(answer(&page, Hosts::Any), Answer::File(_)));
        let other = head("GET /etc/passwd HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!(
            answer(&other, Hosts::Any),
            Answer::Refuse("404 Not Found", "not here\n")
        );
        let post = head("POST / HTTP/1.1\r\nHost: a\r\n\r\n");
        assert!(matches!(
            answer(&post, Hosts::Any),
            Answer::Refuse("405 Method Not Allowed", _)
        ));
    }

    #[test]
    fn a_plain_get_of_the_socket_or_an_old_version_is_refused() {
        let plain = head("GET /ws HTTP/1.1\r\nHost: a\r\n\r\n");
        assert!(matches!(
            answer(&plain, Hosts::Any),
            Answer::Refuse("400 Bad Request", _)
        ));
        let mut old = upgrade("http://a", "a");
        old.version = Some("8".into());
        assert!(matches!(
            answer(&old, Hosts::Any),
            Answer::Refuse("426 Upgrade Required", _)
        ));
    }

    #[tokio::test]
    async fn heads_too_long_trailing_or_not_http_are_refused() {
        let long = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(
            read_head(&mut long.as_bytes()).await,
            Err(HeadError::TooLong)
        );
        let trailing = b"GET / HTTP/1.1\r\nHost: a\r\n\r\nextra";
        assert_eq!(
            read_head(&mut &trailing[..]).await,
            Err(HeadError::Trailing)
        );
        assert_eq!(
            read_head(&mut &b"SSH-2.0-OpenSSH\r\n\r\n"[..]).await,
            Err(HeadError::Malformed)
        );
        assert_eq!(
            read_head(&mut &b"GET / HT"[..]).await,
            Err(HeadError::Closed)
        );
    }
}
