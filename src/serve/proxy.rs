//! The PROXY protocol (v1 and v2, HAProxy's `send-proxy` and `send-proxy-v2`): behind a TCP
//! load balancer every connection comes from the balancer, so the balancer writes the
//! client's own address in a header before the SSH bytes. With `--proxy-protocol` the
//! server reads that header from the trusted proxies it names and uses the client's address
//! for its per-address budgets and its log; a connection from anyone else, or one without a
//! header, is closed.
//!
//! The header is parsed by the `ppp` crate. What is here is the framing: reading exactly
//! the header's bytes and not one more (what follows is the client's SSH, which the server
//! reads next), within a bound on its size and a deadline, whatever way the bytes are split
//! over reads. It uses nothing else of the crate, so `fuzz/` builds this file alone.

use ipnet::IpNet;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt as _};

/// How long a trusted proxy has to send the header: a balancer writes it at once.
pub const HEADER_DEADLINE: Duration = Duration::from_secs(5);

/// The longest v1 header, as the protocol's specification bounds it (CRLF included).
pub const V1_MAX: usize = 107;

/// The longest v2 header read (16 bytes and its address block and TLVs): HAProxy's own
/// headers are well under it; the protocol would allow 64 KiB.
pub const V2_MAX: usize = 1024;

/// v1 starts with these bytes.
const V1_PREFIX: &[u8; 6] = b"PROXY ";

/// v2's 12-byte signature.
const V2_SIGNATURE: &[u8; 12] = b"\r\n\r\n\0\r\nQUIT\n";

/// The bytes read first: enough to tell v1 from v2 from neither, and fewer than any
/// header, so nothing of the SSH stream is read when there is no header.
const SNIFF: usize = 6;

/// Who may send a header: the trusted proxies' addresses and networks. Empty: the PROXY
/// protocol is off and every connection is its own client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// These networks (a single address is a /32 or /128).
    pub fn new(networks: Vec<IpNet>) -> Self {
        Self(networks)
    }

    /// Whether the PROXY protocol is on.
    pub fn enabled(&self) -> bool {
        !self.0.is_empty()
    }

    /// Whether `address` is one of the trusted proxies (an IPv4 address mapped into IPv6
    /// counts as itself).
    pub fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|net| net.contains(&address))
    }

    /// The list as the banner writes it.
    pub fn listed(&self) -> String {
        let names: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        names.join(", ")
    }
}

/// What a header said about the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A client's connection relayed by the proxy, from this address.
    Client(SocketAddr),
    /// The proxy's own connection (v2 `LOCAL`, v1 `UNKNOWN`, or an address family with no
    /// IP, such as a UNIX socket): it stands for itself.
    Proxy,
}

/// Why a header was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderError {
    /// The connection did not start with a header; these are its first bytes.
    Missing(Vec<u8>),
    /// A v1 header longer than [`V1_MAX`], or a v2 one longer than [`V2_MAX`].
    TooLong(usize),
    /// The bytes have a header's start but `ppp` refused them.
    Malformed(String),
    /// The connection ended before the header did.
    Closed,
    /// Reading failed.
    Io(String),
    /// The header did not come within [`HEADER_DEADLINE`].
    TimedOut,
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing(first) => write!(
                f,
                "no PROXY header (it began {:?})",
                String::from_utf8_lossy(first)
            ),
            Self::TooLong(length) => write!(f, "a PROXY header of {length} bytes, too long"),
            Self::Malformed(why) => write!(f, "a malformed PROXY header ({why})"),
            Self::Closed => write!(f, "closed before its PROXY header ended"),
            Self::Io(why) => write!(f, "reading its PROXY header failed: {why}"),
            Self::TimedOut => write!(f, "no PROXY header within {}s", HEADER_DEADLINE.as_secs()),
        }
    }
}

/// Reads one PROXY header from `stream`, and nothing after it, within `deadline`.
///
/// # Errors
/// Why the connection should be closed.
pub async fn read_header<R: AsyncRead + Unpin>(
    stream: &mut R,
    deadline: Duration,
) -> Result<Origin, HeaderError> {
    tokio::time::timeout(deadline, read_header_bytes(stream))
        .await
        .map_err(|_| HeaderError::TimedOut)?
        .and_then(|bytes| parse(&bytes))
}

/// The header's bytes, exactly: v1 up to its CRLF, v2 its 16 bytes and the length they
/// give.
async fn read_header_bytes<R: AsyncRead + Unpin>(stream: &mut R) -> Result<Vec<u8>, HeaderError> {
    let mut bytes = vec![0; SNIFF];
    fill(stream, &mut bytes).await?;
    if bytes.as_slice() == V1_PREFIX {
        read_v1_line(stream, bytes).await
    } else if bytes.as_slice() == &V2_SIGNATURE[..SNIFF] {
        read_v2_rest(stream, bytes).await
    } else {
        Err(HeaderError::Missing(bytes))
    }
}

/// A v1 header is a line: read a byte at a time up to its CRLF, so that none of the SSH
/// bytes after it is taken.
async fn read_v1_line<R: AsyncRead + Unpin>(
    stream: &mut R,
    mut bytes: Vec<u8>,
) -> Result<Vec<u8>, HeaderError> {
    while !bytes.ends_with(b"\r\n") {
        if bytes.len() >= V1_MAX {
            return Err(HeaderError::TooLong(bytes.len() + 1));
        }
        let mut byte = [0];
        fill(stream, &mut byte).await?;
        bytes.push(byte[0]);
    }
    Ok(bytes)
}

/// A v2 header says its own length in its 15th and 16th bytes.
async fn read_v2_rest<R: AsyncRead + Unpin>(
    stream: &mut R,
    mut bytes: Vec<u8>,
) -> Result<Vec<u8>, HeaderError> {
    bytes.resize(16, 0);
    fill(stream, &mut bytes[SNIFF..]).await?;
    if &bytes[..12] != V2_SIGNATURE {
        return Err(HeaderError::Malformed("not the v2 signature".into()));
    }
    let length = 16 + usize::from(u16::from_be_bytes([bytes[14], bytes[15]]));
    if length > V2_MAX {
        return Err(HeaderError::TooLong(length));
    }
    bytes.resize(length, 0);
    fill(stream, &mut bytes[16..]).await?;
    Ok(bytes)
}

/// Fills `buffer` from `stream`, an end of the stream being [`HeaderError::Closed`].
async fn fill<R: AsyncRead + Unpin>(stream: &mut R, buffer: &mut [u8]) -> Result<(), HeaderError> {
    match stream.read_exact(buffer).await {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => Err(HeaderError::Closed),
        Err(error) => Err(HeaderError::Io(error.to_string())),
    }
}

/// What a whole header says, by `ppp`.
fn parse(bytes: &[u8]) -> Result<Origin, HeaderError> {
    match ppp::HeaderResult::parse(bytes) {
        ppp::HeaderResult::V1(Ok(header)) => Ok(match header.addresses {
            ppp::v1::Addresses::Tcp4(ip) => {
                Origin::Client(SocketAddr::from((ip.source_address, ip.source_port)))
            }
            ppp::v1::Addresses::Tcp6(ip) => Origin::Client(SocketAddr::new(
                IpAddr::V6(ip.source_address).to_canonical(),
                ip.source_port,
            )),
            ppp::v1::Addresses::Unknown => Origin::Proxy,
        }),
        ppp::HeaderResult::V2(Ok(header)) => Ok(match (header.command, header.addresses) {
            (ppp::v2::Command::Proxy, ppp::v2::Addresses::IPv4(ip)) => {
                Origin::Client(SocketAddr::from((ip.source_address, ip.source_port)))
            }
            // An IPv4 client written as IPv6 (`::ffff:a.b.c.d`) is counted as itself, not
            // with every other one in the /64 `::`.
            (ppp::v2::Command::Proxy, ppp::v2::Addresses::IPv6(ip)) => Origin::Client(
                SocketAddr::new(IpAddr::V6(ip.source_address).to_canonical(), ip.source_port),
            ),
            _ => Origin::Proxy,
        }),
        ppp::HeaderResult::V1(Err(error)) => Err(HeaderError::Malformed(error.to_string())),
        ppp::HeaderResult::V2(Err(error)) => Err(HeaderError::Malformed(error.to_string())),
    }
}

#[cfg(test)]
mod tests;
