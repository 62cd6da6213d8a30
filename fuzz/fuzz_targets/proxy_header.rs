//! The PROXY header reader against any bytes, split into reads of any sizes: it must not
//! panic, must end (the stream ends after the input), must read no more than a header's
//! bound, and must give the same answer as when the bytes come whole.
#![no_main]

#[path = "../../src/serve/proxy.rs"]
#[allow(dead_code, missing_docs)]
mod proxy;

use libfuzzer_sys::fuzz_target;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncReadExt as _, ReadBuf};

/// Hands out the input `step` bytes at a time, then ends.
struct Chunked<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl AsyncRead for Chunked<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let take = self.step.min(self.bytes.len()).min(buf.remaining());
        buf.put_slice(&self.bytes[..take]);
        self.bytes = &self.bytes[take..];
        Poll::Ready(Ok(()))
    }
}

fn read(bytes: &[u8], step: usize) -> (Result<proxy::Origin, proxy::HeaderError>, usize) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut stream = Chunked { bytes, step };
        let origin = proxy::read_header(&mut stream, proxy::HEADER_DEADLINE).await;
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).await.unwrap();
        (origin, bytes.len() - rest.len())
    })
}

fuzz_target!(|input: &[u8]| {
    let Some((&step, bytes)) = input.split_first() else {
        return;
    };
    let whole = read(bytes, usize::MAX);
    let split = read(bytes, usize::from(step % 16) + 1);
    assert_eq!(whole, split);
    assert!(whole.1 <= proxy::V2_MAX);
});
