//! `POST /{room}/cast`: the characters a player may take in a room and who plays each, for the
//! room page's join form (a player picks from the list instead of guessing names). It asks the
//! room's passcode, as the room's page does, and wrong ones back off the same way.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use super::error::ServerError;
use super::room_task::Command;
use super::store::LogStore;
use super::{Hub, watch};
use crate::errors::ErrorCode;
use crate::net::error::HttpError;
use crate::net::runtime::Peer;
use crate::online::room::CastSeat;

/// What the join form sends: the passcode it was given (the players' or the game master's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastAsk {
    passcode: String,
}

/// The answer: the players' characters in seat order, each with who plays it.
#[derive(Serialize, Debug, PartialEq)]
pub struct Cast {
    /// The characters players may take.
    pub characters: Vec<CastSeat>,
}

/// `POST /{room}/cast` with `{"passcode": "…"}`.
pub async fn cast<S: LogStore>(
    State(hub): State<Arc<Hub<S>>>,
    Path(room): Path<String>,
    peer: Peer,
    body: Result<Json<CastAsk>, JsonRejection>,
) -> Response {
    let Ok(Json(ask)) = body else {
        return HttpError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::Invalid,
            r#"send the room's passcode as JSON: {"passcode": "…"}"#,
        )
        .into_response();
    };
    match cast_of(&hub, &room, ask.passcode, peer).await {
        Ok(cast) => Json(cast).into_response(),
        Err(e) => HttpError::new(e.http_status(), e.code(), e.to_string())
            .with_retry_after(e.retry_after())
            .into_response(),
    }
}

async fn cast_of<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
    passcode: String,
    peer: Peer,
) -> Result<Cast, ServerError> {
    let handle = watch::watch_room(hub, room, passcode, peer).await?;
    let (reply, answer) = oneshot::channel();
    handle
        .commands
        .send(Command::Cast { reply })
        .await
        .map_err(|_| ServerError::RoomStopped)?;
    let characters = answer.await.map_err(|_| ServerError::RoomStopped)?;
    Ok(Cast { characters })
}
