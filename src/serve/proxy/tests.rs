//! The header reader against every way a stream can arrive: whole or split at any byte,
//! short, oversized, stalled, or not a header at all. It must never panic, never wait past
//! its deadline, never read a byte past the header, and give the same answer however the
//! bytes are split.

use super::*;
use proptest::prelude::*;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::ReadBuf;

/// A stream that hands out its bytes in the given chunks, one chunk (or less) per read,
/// then ends, or stalls forever when `stall` is set.
struct Chunked {
    chunks: Vec<Vec<u8>>,
    next: usize,
    offset: usize,
    stall: bool,
}

impl Chunked {
    fn new(bytes: &[u8], cuts: &[usize]) -> Self {
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let mut chunks = Vec::new();
        let mut start = 0;
        for cut in cuts.into_iter().chain([bytes.len()]) {
            if cut > start {
                chunks.push(bytes[start..cut].to_vec());
                start = cut;
            }
        }
        Self {
            chunks,
            next: 0,
            offset: 0,
            stall: false,
        }
    }

    fn stalling(bytes: &[u8]) -> Self {
        Self {
            stall: true,
            ..Self::new(bytes, &[])
        }
    }
}

impl AsyncRead for Chunked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let Some(chunk) = self.chunks.get(self.next).cloned() else {
            return if self.stall {
                Poll::Pending
            } else {
                Poll::Ready(Ok(()))
            };
        };
        let take = (chunk.len() - self.offset).min(buf.remaining());
        buf.put_slice(&chunk[self.offset..self.offset + take]);
        self.offset += take;
        if self.offset == chunk.len() {
            self.next += 1;
            self.offset = 0;
        }
        Poll::Ready(Ok(()))
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

/// The header's answer, and every byte left after it.
fn read(bytes: &[u8], cuts: &[usize]) -> (Result<Origin, HeaderError>, Vec<u8>) {
    runtime().block_on(async {
        let mut stream = Chunked::new(bytes, cuts);
        let origin = read_header(&mut stream, HEADER_DEADLINE).await;
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).await.unwrap();
        (origin, rest)
    })
}

fn v1(source: SocketAddr, destination: SocketAddr) -> Vec<u8> {
    let family = if source.is_ipv4() { "TCP4" } else { "TCP6" };
    format!(
        "PROXY {family} {} {} {} {}\r\n",
        source.ip(),
        destination.ip(),
        source.port(),
        destination.port()
    )
    .into_bytes()
}

fn v2(source: SocketAddr, destination: SocketAddr, tlv: &[u8]) -> Vec<u8> {
    let family = if source.is_ipv4() {
        ppp::v2::AddressFamily::IPv4
    } else {
        ppp::v2::AddressFamily::IPv6
    };
    let mut builder = ppp::v2::Builder::with_addresses(
        ppp::v2::Version::Two | ppp::v2::Command::Proxy,
        ppp::v2::Protocol::Stream,
        (source, destination),
    );
    if !tlv.is_empty() {
        builder = builder.write_tlv(ppp::v2::Type::NoOp, tlv).unwrap();
    }
    let bytes = builder.build().unwrap();
    assert_eq!(bytes[13] & 0xf0, family as u8);
    bytes
}

fn address() -> impl Strategy<Value = SocketAddr> {
    prop_oneof![
        (any::<[u8; 4]>(), any::<u16>()).prop_map(|(ip, port)| (Ipv4Addr::from(ip), port).into()),
        (any::<[u8; 16]>(), any::<u16>()).prop_map(|(ip, port)| (Ipv6Addr::from(ip), port).into()),
    ]
}

/// A source and destination of one family, as a proxy writes them.
fn addresses() -> impl Strategy<Value = (SocketAddr, SocketAddr)> {
    (address(), address()).prop_map(|(source, destination)| {
        if source.is_ipv4() == destination.is_ipv4() {
            (source, destination)
        } else {
            (source, source)
        }
    })
}

const SSH: &[u8] = b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n";

proptest! {
    #[test]
    fn a_v1_header_split_anywhere_gives_the_client_and_leaves_the_ssh_bytes(
        (source, destination) in addresses(),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let mut bytes = v1(source, destination);
        bytes.extend_from_slice(SSH);
        let (origin, rest) = read(&bytes, &cuts);
        prop_assert_eq!(origin, Ok(Origin::Client(source)));
        prop_assert_eq!(rest, SSH);
    }

    #[test]
    fn a_v2_header_split_anywhere_gives_the_client_and_leaves_the_ssh_bytes(
        (source, destination) in addresses(),
        tlv in prop::collection::vec(any::<u8>(), 0..200),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let mut bytes = v2(source, destination, &tlv);
        bytes.extend_from_slice(SSH);
        let (origin, rest) = read(&bytes, &cuts);
        prop_assert_eq!(origin, Ok(Origin::Client(source)));
        prop_assert_eq!(rest, SSH);
    }

    /// Any bytes at all: an answer (never a panic or a wait, the stream ends), the same
    /// however they are split, and no more read than a header's bound.
    #[test]
    fn any_bytes_split_anywhere_get_one_answer(
        bytes in prop::collection::vec(any::<u8>(), 0..2048),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let whole = read(&bytes, &[]);
        let split = read(&bytes, &cuts);
        prop_assert_eq!(&whole, &split);
        prop_assert!(bytes.len() - whole.1.len() <= V2_MAX);
        if matches!(whole.0, Err(HeaderError::Missing(_))) {
            prop_assert_eq!(bytes.len() - whole.1.len(), SNIFF);
        }
    }

    /// Headers with bytes changed, cut short or run on: the bytes that start like a header
    /// are where a parser breaks.
    #[test]
    fn damaged_headers_get_one_answer(
        (source, destination) in addresses(),
        version_two in any::<bool>(),
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 0..4),
        keep in any::<usize>(),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let mut bytes = if version_two { v2(source, destination, &[]) } else { v1(source, destination) };
        for (at, byte) in flips {
            let at = at % bytes.len();
            bytes[at] = byte;
        }
        bytes.truncate(keep % (bytes.len() + 1));
        let whole = read(&bytes, &[]);
        prop_assert_eq!(&whole, &read(&bytes, &cuts));
        if bytes.len() < SNIFF {
            prop_assert_eq!(whole.0, Err(HeaderError::Closed));
        }
    }
}

#[test]
fn an_ipv4_client_written_as_ipv6_is_itself() {
    let mapped: SocketAddr = "[::ffff:203.0.113.9]:4000".parse().unwrap();
    let server: SocketAddr = "[::1]:22".parse().unwrap();
    let (origin, _) = read(&v2(mapped, server, &[]), &[]);
    assert_eq!(
        origin,
        Ok(Origin::Client("203.0.113.9:4000".parse().unwrap()))
    );
    let (origin, _) = read(&v1(mapped, server), &[]);
    assert_eq!(
        origin,
        Ok(Origin::Client("203.0.113.9:4000".parse().unwrap()))
    );
}

#[test]
fn local_and_unknown_stand_for_the_proxy() {
    let local = ppp::v2::Builder::with_addresses(
        ppp::v2::Version::Two | ppp::v2::Command::Local,
        ppp::v2::Protocol::Unspecified,
        ppp::v2::Addresses::Unspecified,
    )
    .build()
    .unwrap();
    assert_eq!(read(&local, &[]).0, Ok(Origin::Proxy));
    assert_eq!(
        read(b"PROXY UNKNOWN\r\nSSH", &[]),
        (Ok(Origin::Proxy), b"SSH".to_vec())
    );
}

#[test]
fn an_ssh_client_without_a_header_is_refused_after_six_bytes() {
    let (origin, rest) = read(SSH, &[]);
    assert_eq!(origin, Err(HeaderError::Missing(b"SSH-2.".to_vec())));
    assert_eq!(rest, &SSH[SNIFF..]);
    assert!(origin.unwrap_err().to_string().contains("no PROXY header"));
}

#[test]
fn an_oversized_v2_length_is_refused_before_its_body_is_waited_for() {
    let mut bytes = V2_SIGNATURE.to_vec();
    bytes.extend_from_slice(&[0x21, 0x11, 0xff, 0xff]);
    let stalled = runtime().block_on(async {
        read_header(&mut Chunked::stalling(&bytes), Duration::from_secs(60)).await
    });
    assert_eq!(stalled, Err(HeaderError::TooLong(16 + 0xffff)));
}

#[test]
fn a_v1_line_without_its_end_is_refused_at_the_bound() {
    let mut bytes = b"PROXY TCP4 ".to_vec();
    bytes.extend(std::iter::repeat_n(b'1', 500));
    let (origin, rest) = read(&bytes, &[]);
    assert_eq!(origin, Err(HeaderError::TooLong(V1_MAX + 1)));
    assert_eq!(rest.len(), bytes.len() - V1_MAX);
}

#[test]
fn a_stalled_header_times_out() {
    let stalled = runtime().block_on(async {
        read_header(
            &mut Chunked::stalling(b"PROXY TCP4 1.2"),
            Duration::from_millis(20),
        )
        .await
    });
    assert_eq!(stalled, Err(HeaderError::TimedOut));
}

#[test]
fn trusted_proxies_are_addresses_and_networks() {
    let trusted = TrustedProxies::new(vec![
        "10.1.0.0/16".parse().unwrap(),
        "127.0.0.1/32".parse().unwrap(),
        "fd00::/8".parse().unwrap(),
    ]);
    assert!(trusted.enabled());
    assert!(trusted.trusts("10.1.200.3".parse().unwrap()));
    assert!(trusted.trusts("127.0.0.1".parse().unwrap()));
    assert!(trusted.trusts("::ffff:127.0.0.1".parse().unwrap()));
    assert!(trusted.trusts("fd12::1".parse().unwrap()));
    assert!(!trusted.trusts("10.2.0.1".parse().unwrap()));
    assert!(!trusted.trusts("127.0.0.2".parse().unwrap()));
    assert!(!TrustedProxies::default().enabled());
    assert_eq!(trusted.listed(), "10.1.0.0/16, 127.0.0.1/32, fd00::/8");
}
