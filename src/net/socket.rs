//! The loop both servers' feeds run: a first message, then whatever the feed has next, until
//! the page goes. What the page sends is read to notice it leaving, and handed on where the
//! feed answers its page (a room's tray asking for the dice of a hidden roll it may see).

use axum::extract::ws::{Message, WebSocket};
use axum::http::HeaderMap;
use futures_util::{SinkExt, Stream, StreamExt};
use std::time::Duration;

use super::error::HttpError;
use crate::errors::ErrorCode;

/// The largest message a feed's page may send (its passcode, a room's tray's `unseal` of a few
/// dozen bytes), so no page can make the server buffer more.
pub const FEED_MESSAGE_MAX: usize = 4 * 1024;

/// What a feed has next.
pub enum Next {
    /// Messages to send; more may follow.
    Send(Vec<Message>),
    /// Messages to send, then close (an error the page is told of).
    Last(Vec<Message>),
    /// Nothing more: close.
    Done,
}

/// How often a server pings a WebSocket that idles at most `idle`: three pings a timeout, so
/// a live page or client (whose browser or library answers each ping) is never taken for idle.
pub fn ping_every(idle: Duration) -> Duration {
    (idle / 3).max(Duration::from_millis(30))
}

/// A timer for a socket's pings: the first one after `every`, not at once.
pub fn pings(every: Duration) -> tokio::time::Interval {
    let mut timer = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    timer
}

/// How long one message may take to be written to a socket: a client that stopped reading is
/// dropped after it, with what waited for it (the kernel's buffers full, nothing moves).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(15);

/// Writes `m`, within [`SEND_TIMEOUT`]: whether it went.
pub async fn send_in_time<S>(sink: &mut S, m: Message) -> bool
where
    S: futures_util::Sink<Message> + Unpin,
{
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, sink.send(m)).await,
        Ok(Ok(()))
    )
}

/// Sends `hello`, then every message the `feed` yields, until the page closes or the feed ends;
/// pings the page every `ping` meanwhile.
pub async fn hello_then_forward(
    socket: WebSocket,
    hello: Message,
    feed: impl Stream<Item = Next>,
    ping: Duration,
) {
    hello_then_forward_hearing(socket, hello, feed, ping, None).await;
}

/// [`hello_then_forward`], handing each text the page sends to `heard` (dropped while `heard`
/// is full: a page that asks faster than it is answered loses its extra asks, never the feed).
pub async fn hello_then_forward_hearing(
    socket: WebSocket,
    hello: Message,
    feed: impl Stream<Item = Next>,
    ping: Duration,
    heard: Option<tokio::sync::mpsc::Sender<String>>,
) {
    let (mut sink, mut stream) = socket.split();
    if !send_in_time(&mut sink, hello).await {
        return;
    }
    let mut feed = std::pin::pin!(feed);
    let mut pings = pings(ping);
    loop {
        let (messages, last) = tokio::select! {
            _ = pings.tick() => (vec![Message::Ping(Default::default())], false),
            n = feed.next() => match n {
                Some(Next::Send(m)) => (m, false),
                Some(Next::Last(m)) => (m, true),
                Some(Next::Done) | None => break,
            },
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(Message::Text(text))) => {
                    if let Some(heard) = &heard {
                        let _ = heard.try_send(text.to_string());
                    }
                    continue;
                }
                Some(Ok(_)) => continue,
            },
        };
        for m in messages {
            if !send_in_time(&mut sink, m).await {
                return;
            }
        }
        if last {
            break;
        }
    }
    let _ = sink.close().await;
}

/// The upgrade of a WebSocket route, or its refusal: a page of another origin (403,
/// `foreign_origin`), a plain HTTP request (400, `not_a_socket`, with `how` to connect).
pub fn websocket_only<U, E>(
    headers: &HeaderMap,
    upgrade: Result<U, E>,
    how: impl FnOnce() -> String,
) -> Result<U, HttpError> {
    if !super::auth::origin_allowed(headers) {
        return Err(HttpError::new(
            axum::http::StatusCode::FORBIDDEN,
            ErrorCode::ForeignOrigin,
            "this page's origin may not open this socket",
        ));
    }
    upgrade.map_err(|_| {
        HttpError::new(
            axum::http::StatusCode::BAD_REQUEST,
            ErrorCode::NotASocket,
            how(),
        )
    })
}
