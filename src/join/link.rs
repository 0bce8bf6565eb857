//! The client of the table server, in a thread of its own with a tokio runtime: it joins,
//! hands every checked log line to the window, sends the window's proposals, and reconnects
//! by itself.

use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;

use tokio::sync::mpsc as tokio_mpsc;

use super::Connection;
use crate::online::client::{Client, JoinAs, ThrowError};
use crate::online::log::{Proposal, Role};
use crate::online::room::Checks;
use crate::record::Gesture;

/// `play --join`: where and as whom.
#[derive(Clone, Debug)]
pub struct JoinOptions {
    /// `ws://HOST:PORT/ROOM`.
    pub url: String,
    /// Your name.
    pub name: String,
    /// The passcode (the game master's own for the game master).
    pub passcode: String,
    /// Your role.
    pub role: Role,
    /// The characters you play.
    pub seats: Vec<String>,
}

/// From the window to the client.
#[derive(Debug)]
pub(super) enum ToServer {
    /// Propose a throw.
    Throw {
        what: Proposal,
        gesture: Option<Gesture>,
        label: Option<String>,
    },
}

/// From the client to the window.
#[derive(Debug)]
pub(super) enum FromServer {
    /// The connection changed.
    Connection(Connection),
    /// The next checked log line.
    Line(String),
    /// An own proposal logged.
    Logged,
    /// A proposal refused, with the reason.
    Refused(String),
}

/// Both ends, held by the window.
pub(super) struct Link {
    to_server: tokio_mpsc::UnboundedSender<ToServer>,
    from_server: Mutex<mpsc::Receiver<FromServer>>,
}

impl Link {
    /// Starts the client's thread.
    pub(super) fn start(join: JoinOptions) -> Result<Link, String> {
        crate::online::client::room_of(&join.url)?;
        let (to_server, inbox) = tokio_mpsc::unbounded_channel();
        let (outbox, from_server) = mpsc::channel();
        std::thread::Builder::new()
            .name("table-server-client".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(run(join, inbox, outbox)),
                    Err(e) => {
                        let _ = outbox.send(FromServer::Connection(Connection::Failed(format!(
                            "no async runtime: {e}"
                        ))));
                    }
                }
            })
            .map_err(|e| format!("cannot start the client: {e}"))?;
        Ok(Link {
            to_server,
            from_server: Mutex::new(from_server),
        })
    }

    /// Sends a proposal.
    pub(super) fn send(&self, msg: ToServer) {
        let _ = self.to_server.send(msg);
    }

    /// What came since the last frame.
    pub(super) fn drain(&self) -> Vec<FromServer> {
        self.from_server
            .lock()
            .map(|r| r.try_iter().collect())
            .unwrap_or_default()
    }
}

/// The client's loop: join (trying again until it works), then proposals and news.
async fn run(
    join: JoinOptions,
    mut inbox: tokio_mpsc::UnboundedReceiver<ToServer>,
    outbox: mpsc::Sender<FromServer>,
) {
    let as_ = JoinAs {
        url: join.url.clone(),
        name: join.name.clone(),
        role: join.role,
        seats: join.seats.clone(),
        passcode: join.passcode.clone(),
    };
    let say = |m: FromServer| outbox.send(m).is_ok();
    let mut client = loop {
        match Client::connect(as_.clone(), None, Checks::default()).await {
            Ok(c) => break c,
            Err(e)
                if e.contains("wrong passcode")
                    || e.contains("no room")
                    || e.contains("already played")
                    || e.contains("is the game master")
                    || e.contains("no character") =>
            {
                say(FromServer::Connection(Connection::Failed(e)));
                return;
            }
            Err(e) => {
                if !say(FromServer::Connection(Connection::Connecting(format!(
                    "cannot reach the server ({e}); trying again"
                )))) {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        }
    };
    say(FromServer::Connection(Connection::Connected));
    let mut sent = 0;
    let mut logged = 0;
    loop {
        // The lines first, then that a proposal was logged: the window never sees a gap.
        for line in &client.lines[sent..] {
            if !say(FromServer::Line(line.clone())) {
                return;
            }
        }
        sent = client.lines.len();
        for _ in 0..std::mem::take(&mut logged) {
            say(FromServer::Logged);
        }
        let reconnects = client.reconnects;
        tokio::select! {
            msg = inbox.recv() => match msg {
                None => return,
                Some(ToServer::Throw { what, gesture, label }) => {
                    match client.throw(what, gesture, false, label).await {
                        Ok(_) => logged += 1,
                        Err(ThrowError::Refused(r)) => { say(FromServer::Refused(r)); }
                        Err(ThrowError::Connection(e)) => { say(FromServer::Refused(e)); }
                    }
                }
            },
            more = client.wait_for_more(Duration::from_millis(500)) => {
                if let Err(e) = more {
                    say(FromServer::Connection(Connection::Failed(e)));
                    return;
                }
            }
        }
        if client.reconnects != reconnects {
            say(FromServer::Connection(Connection::Connected));
        }
    }
}
