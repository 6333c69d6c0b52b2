//! What one request or connection may cost: body size, time to send headers, time to be
//! answered, TLS handshake time, requests judged at once, and the drain on shutdown.

use std::time::Duration;

use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;

/// The API server refuses objects over 3 MiB; an UPDATE review carries the object and the
/// old object, plus the envelope (user info, options). 7 MiB holds the largest review the
/// API server can send; anything longer is not from an API server.
pub const MAX_BODY_BYTES: usize = 7 * 1024 * 1024;

/// The limits of a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest request body, in bytes (413 beyond).
    pub max_body_bytes: usize,
    /// Time for a client to send a request's headers (the connection is closed after).
    pub header_timeout: Duration,
    /// Time to read a request's body and answer it (408 or 503 after).
    pub request_timeout: Duration,
    /// Time for a TLS handshake (the connection is closed after).
    pub handshake_timeout: Duration,
    /// Requests judged at once; more get 503 at once rather than queue behind them (the API
    /// server retries or applies its failure policy).
    pub max_in_flight: usize,
    /// Longest header block, in bytes.
    pub max_header_bytes: usize,
    /// How long SIGTERM waits for in-flight requests.
    pub drain: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: MAX_BODY_BYTES,
            header_timeout: Duration::from_secs(5),
            // The API server waits at most 30 s (timeoutSeconds) for a webhook.
            request_timeout: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(5),
            max_in_flight: 1024,
            max_header_bytes: 64 * 1024,
            drain: Duration::from_secs(25),
        }
    }
}

/// Why a body could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum BodyError {
    /// Longer than the limit (HTTP 413).
    TooLarge,
    /// The client sent too slowly (HTTP 408).
    Timeout,
    /// The connection failed or the encoding was broken (HTTP 400).
    Broken(String),
}

/// Reads a whole body, at most `limits.max_body_bytes`, within `limits.request_timeout`.
/// A `Content-Length` over the limit is refused before reading.
pub async fn read_body(
    body: Incoming,
    content_length: Option<u64>,
    limits: &Limits,
) -> Result<hyper::body::Bytes, BodyError> {
    if content_length.is_some_and(|n| n > limits.max_body_bytes as u64) {
        return Err(BodyError::TooLarge);
    }
    read_limited(body, limits).await
}

async fn read_limited<B>(body: B, limits: &Limits) -> Result<hyper::body::Bytes, BodyError>
where
    B: hyper::body::Body,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let limited = Limited::new(body, limits.max_body_bytes);
    match tokio::time::timeout(limits.request_timeout, limited.collect()).await {
        Err(_) => Err(BodyError::Timeout),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) => {
            if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() {
                Err(BodyError::TooLarge)
            } else {
                Err(BodyError::Broken(e.to_string()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::Full;
    use http_body_util::StreamBody;
    use hyper::body::{Bytes, Frame};

    fn small() -> Limits {
        Limits {
            max_body_bytes: 10,
            request_timeout: Duration::from_millis(200),
            ..Limits::default()
        }
    }

    #[tokio::test]
    async fn a_body_at_the_limit_is_read_and_one_byte_more_is_refused() {
        let ok = read_limited(Full::new(Bytes::from_static(b"0123456789")), &small()).await;
        assert_eq!(ok.unwrap(), Bytes::from_static(b"0123456789"));
        let over = read_limited(Full::new(Bytes::from_static(b"0123456789X")), &small()).await;
        assert_eq!(over.unwrap_err(), BodyError::TooLarge);
    }

    #[tokio::test]
    async fn a_body_that_never_ends_times_out() {
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Frame<Bytes>, std::io::Error>>(1);
        tx.send(Ok(Frame::data(Bytes::from_static(b"{")))).await.unwrap();
        let stream = StreamBody::new(ReceiverStream(rx));
        let started = std::time::Instant::now();
        assert_eq!(read_limited(stream, &small()).await.unwrap_err(), BodyError::Timeout);
        assert!(started.elapsed() >= Duration::from_millis(200));
        drop(tx);
    }

    #[tokio::test]
    async fn a_broken_body_says_why() {
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Frame<Bytes>, std::io::Error>>(1);
        tx.send(Err(std::io::Error::other("connection reset"))).await.unwrap();
        let err = read_limited(StreamBody::new(ReceiverStream(rx)), &small())
            .await
            .unwrap_err();
        assert_eq!(err, BodyError::Broken("connection reset".to_owned()));
    }

    /// A stream over a channel receiver (what tokio-stream would give).
    struct ReceiverStream<T>(tokio::sync::mpsc::Receiver<T>);

    impl<T> futures_core::Stream for ReceiverStream<T> {
        type Item = T;
        fn poll_next(
            mut self: std::pin::Pin<&mut Self>,
            cx: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<T>> {
            self.0.poll_recv(cx)
        }
    }
}
