//! The table server's own pages: the front page that opens a room (`/`), a room's page (a seat
//! at the table in the browser, served at `/{room}` to whoever does not ask for the WebSocket),
//! their style and scripts, and the scenes the front page offers (`serve --scenes DIR`). The
//! pages only draw and ask: they open and join rooms over the room's WebSocket, like the window.

use std::path::{Path as FsPath, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;

use super::Hub;
use super::guard::Opening;
use super::store::LogStore;
use crate::errors::ErrorCode;
use crate::net::error::HttpError;
use crate::net::pages::file;
use crate::net::runtime::Peer;
use crate::rules::scene::{Scene, scene_files};

/// The scripts and style both pages load (compiled in: `crate::net::assets`), and the library
/// bundles they import (`web/vendor/`).
const FILES: [&str; 14] = [
    "table.css",
    "common.js",
    "check.js",
    "front.js",
    "room.js",
    "entries.js",
    "gesture.js",
    "fields.js",
    "odds-chart.js",
    "tray-queue.js",
    "draft-asker.js",
    "notation-odds.js",
    "die-preview.js",
    "vendor/sha256.min.js",
];
/// The first path segments these pages take (a room may not be named so): the API, the
/// generated contract, and each file's first segment.
pub fn reserved(segment: &str) -> bool {
    segment == "api"
        || segment == "protocol"
        || segment == "contract.js"
        || FILES.iter().any(|f| f.split('/').next() == Some(segment))
}
/// Scenes listed at most (a folder of thousands is not a menu).
const SCENES_LISTED: usize = 200;
/// The largest scene file offered, bytes (a room's `create` carries it).
const SCENE_BYTES: u64 = crate::online::protocol::MAX_MESSAGE as u64 / 2;

/// `/`, the pages' scripts and style, `/api/odds`, `/api/scenes` and `/api/scenes/{id}`.
pub fn router<S: LogStore>(hub: Arc<Hub<S>>) -> Router {
    let mut router = Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| async move { file("front.html", &headers) }),
        )
        .route("/api/scenes", get(scenes::<S>))
        .route("/contract.js", get(contract))
        .route("/protocol/{file}", get(protocol_schema))
        .route("/api/odds", get(odds::<S>))
        .route("/api/scenes/{id}", get(scene_text::<S>))
        .route(
            "/api/scene-preview",
            axum::routing::post(scene_preview)
                .layer(axum::extract::DefaultBodyLimit::max(SCENE_BYTES as usize)),
        );
    for name in FILES {
        router = router.route(
            &format!("/{name}"),
            get(move |headers: HeaderMap| async move { file(name, &headers) }),
        );
    }
    router.with_state(hub)
}

/// `/contract.js`: the protocol version, the tray and the limits, made from this build.
async fn contract(headers: HeaderMap) -> Response {
    static JS: std::sync::OnceLock<crate::net::assets::Asset> = std::sync::OnceLock::new();
    JS.get_or_init(|| {
        crate::net::assets::Asset::new(
            super::contract::contract_js().into_bytes(),
            "text/javascript; charset=utf-8",
            crate::net::assets::Keep::Revalidate,
        )
    })
    .respond(&headers)
}

/// `/protocol/client.schema.json` and `/protocol/server.schema.json`: the room protocol's
/// messages as JSON Schema, made from their Rust types (the same files as `docs/protocol/`).
async fn protocol_schema(Path(file): Path<String>, headers: HeaderMap) -> Response {
    use crate::net::assets::{Asset, Keep};
    use crate::online::protocol::{Side, schema};
    static SCHEMAS: std::sync::OnceLock<[(Side, Asset); 2]> = std::sync::OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| {
        [Side::Client, Side::Server].map(|side| {
            let json = schema(side).into_bytes();
            (side, Asset::new(json, "application/json", Keep::Revalidate))
        })
    });
    match schemas.iter().find(|(side, _)| side.file() == file) {
        Some((_, asset)) => asset.respond(&headers),
        None => HttpError::not_found(format!("/protocol/{file}")).into_response(),
    }
}

/// A scene the front page offers.
#[derive(Serialize, Debug, PartialEq)]
pub struct SceneChoice {
    /// Its file's name without `.ron`: what `/api/scenes/{id}` takes.
    pub id: String,
    /// Its name.
    pub title: String,
    /// The ruleset it plays by.
    pub ruleset: String,
    /// Which rules: the shipped ones, or its own and the settings that differ.
    pub rules: String,
    /// What happens in it.
    pub description: String,
}

/// What the front page needs: the scenes, whether this address may open rooms, and the key
/// that signs the server's exports.
#[derive(Serialize)]
struct FrontInfo {
    scenes: Vec<SceneChoice>,
    opening: Opening,
    server_key: Option<String>,
}

/// A scene file the front page offers (it reads, makes sense and fits in a `create`): its
/// choice and its text, read once.
fn offered(path: &FsPath) -> Option<(SceneChoice, String)> {
    if std::fs::metadata(path).ok()?.len() > SCENE_BYTES {
        return None;
    }
    let id = path.file_stem()?.to_str()?.to_string();
    let (scene, text) = Scene::load_text(path).ok()?;
    if text.len() as u64 > SCENE_BYTES {
        return None;
    }
    let choice = SceneChoice {
        id,
        ruleset: scene.ruleset().as_str().to_string(),
        rules: scene.rules_in_words(),
        title: scene.name,
        description: scene.description,
    };
    Some((choice, text))
}

/// The scene files of `dir` the front page offers, in name order (broken ones are left out:
/// `play` and the window list them with their errors).
fn offered_files(dir: &FsPath) -> impl Iterator<Item = PathBuf> {
    scene_files(dir).into_iter().take(SCENES_LISTED)
}

/// The scenes of `dir` the front page offers, by file name.
pub fn scene_choices(dir: &FsPath) -> Vec<SceneChoice> {
    offered_files(dir)
        .filter_map(|path| offered(&path).map(|(choice, _)| choice))
        .collect()
}

/// The text of the offered scene `id`: only a name the listing gives, so no path leaves the
/// folder.
fn offered_text(dir: &FsPath, id: &str) -> Option<String> {
    let path = offered_files(dir).find(|p| p.file_stem().is_some_and(|s| s == id))?;
    offered(&path).map(|(_, text)| text)
}

async fn scenes<S: LogStore>(State(hub): State<Arc<Hub<S>>>, peer: Peer) -> Response {
    let dir = hub.scenes.clone();
    let scenes = tokio::task::spawn_blocking(move || scene_choices(&dir))
        .await
        .unwrap_or_default();
    axum::Json(FrontInfo {
        scenes,
        opening: hub.guard.opening_for(peer),
        server_key: hub.server_key.clone(),
    })
    .into_response()
}

async fn scene_text<S: LogStore>(
    State(hub): State<Arc<Hub<S>>>,
    Path(id): Path<String>,
) -> Response {
    let (dir, asked) = (hub.scenes.clone(), id.clone());
    let text = tokio::task::spawn_blocking(move || offered_text(&dir, &asked))
        .await
        .ok()
        .flatten();
    match text {
        Some(text) => ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response(),
        None => HttpError::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NotFound,
            format!("this server has no scene '{id}'"),
        )
        .into_response(),
    }
}

/// What a scene seats, for the front page to show before a room is opened with it.
#[derive(Serialize, Debug, PartialEq)]
pub struct ScenePreview {
    /// Its name.
    pub title: String,
    /// The ruleset it plays by.
    pub ruleset: String,
    /// Which rules: the shipped ones, or its own and the settings that differ.
    pub rules: String,
    /// The game its own rules name, and how that game resolves things (a system file's); None
    /// for a shipped ruleset.
    pub game: Option<GameWords>,
    /// What happens in it.
    pub description: String,
    /// The turn tracker's heading as the room opens ("Round 1: Ana's turn").
    pub heading: String,
    /// Each character, in seat order.
    pub characters: Vec<CharacterPreview>,
}

/// A game of a system file's, by its own words.
#[derive(Serialize, Debug, PartialEq)]
pub struct GameWords {
    /// Its name.
    pub name: String,
    /// How it resolves things.
    pub about: String,
}

/// One character a scene seats.
#[derive(Serialize, Debug, PartialEq)]
pub struct CharacterPreview {
    /// Its name.
    pub name: String,
    /// Whether a player may take it (false: the game master plays it).
    pub players_play: bool,
    /// What it starts with, in the ruleset's words.
    pub status: Vec<String>,
}

/// The preview of scene text, read as opening a room reads it.
pub(crate) fn preview(text: &str) -> Result<ScenePreview, super::error::ServerError> {
    use crate::rules::{Rulebook, table::TableState};
    let scene = super::session::uploaded_scene(text)?;
    let book = Rulebook::builtin().map_err(|e| super::error::ServerError::Scene(e.to_string()))?;
    let table = TableState::new(&scene, &book, 0);
    let game = table.game().map(|(name, about)| GameWords {
        name: name.to_string(),
        about: about.to_string(),
    });
    let characters = table
        .tracker()
        .into_iter()
        .enumerate()
        .map(|(seat, row)| CharacterPreview {
            players_play: scene.players_play(seat),
            name: row.name,
            status: row.status,
        })
        .collect();
    Ok(ScenePreview {
        title: scene.name.clone(),
        ruleset: scene.ruleset().as_str().to_string(),
        rules: scene.rules_in_words(),
        game,
        description: scene.description.clone(),
        heading: table.heading(),
        characters,
    })
}

/// `POST /api/scene-preview`: scene text in, what it seats out (or why it does not open, with
/// the line and column), so a game master sees an uploaded scene before opening a room.
async fn scene_preview(body: String) -> Response {
    match tokio::task::spawn_blocking(move || preview(&body)).await {
        Ok(Ok(preview)) => axum::Json(preview).into_response(),
        Ok(Err(e)) => HttpError::new(StatusCode::BAD_REQUEST, ErrorCode::BadScene, e.to_string())
            .into_response(),
        Err(_) => HttpError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Internal,
            "the scene could not be read",
        )
        .into_response(),
    }
}

#[derive(serde::Deserialize)]
struct OddsQuery {
    notation: String,
    /// `?estimate=1`: a quick estimate (≈) within 50 ms instead of the exact odds.
    #[serde(default)]
    estimate: Option<u8>,
}

/// How long an estimate may take: its answer comes within 50 ms.
const ESTIMATE_TIME: std::time::Duration = std::time::Duration::from_millis(30);

/// A quick estimate of `notation`'s odds as JSON, marked as one.
fn estimate_json(notation: &crate::odds::notation::Notation) -> Option<serde_json::Value> {
    let e = crate::odds::notation::estimate::estimate(notation, ESTIMATE_TIME)?;
    let mut json = serde_json::json!({
        "title": notation.source(),
        "estimate": true,
        "samples": e.samples,
        "error": e.error,
        "confidence": crate::odds::notation::estimate::CONFIDENCE,
        "mean": e.mean,
        "summary": crate::odds::words::summary(&crate::odds::words::Shape {
            chances: &e.chances,
            open: 0.0,
            flat: false,
            mean: e.mean,
            points: &e.points,
        }),
        "distribution": e.chances.iter()
            .map(|(point, p)| {
                let value = e.value_of(*point);
                let mut entry = serde_json::json!({"value": value.to_json_number(), "p": p});
                if value.as_whole().is_none() {
                    entry["shown"] = serde_json::json!(value.to_string());
                }
                entry
            })
            .collect::<Vec<_>>(),
    });
    if let Some(c) = notation.check() {
        json["target"] = serde_json::json!(c.target);
        json["p_success"] = serde_json::json!(e.p_where(|v| c.holds(v)));
    }
    Some(json)
}

/// What became of an odds request's work.
enum Worked {
    Odds(serde_json::Value),
    TooLarge(String),
    Stopped,
}

/// `GET /api/odds?notation=…`: the exact odds of a free roll, as `odds --json` prints them;
/// with `&estimate=1`, a quick estimate to show (marked ≈) while the exact odds come. Both
/// are worked out in the odds pool, in this client's turn (`crate::work::odds`).
async fn odds<S: LogStore>(
    State(hub): State<Arc<Hub<S>>>,
    peer: Peer,
    query: Result<axum::extract::Query<OddsQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    use crate::odds::notation::{Notation, OddsError};
    let Ok(axum::extract::Query(query)) = query else {
        return HttpError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::Invalid,
            "give the dice as ?notation=2d6%2B1",
        )
        .into_response();
    };
    // What cannot be thrown has no odds here: the throw would be refused.
    let thrown = Notation::parse(&query.notation)
        .map_err(crate::roll::RollError::from)
        .and_then(|n| crate::roll::notation_dice(&n).map(|_| n));
    let notation = match thrown {
        Ok(n) => n,
        Err(e) => {
            return HttpError::new(StatusCode::UNPROCESSABLE_ENTITY, e.code(), e.to_string())
                .into_response();
        }
    };
    let estimate = query.estimate.unwrap_or(0) != 0;
    let work = crate::work::odds().run(peer.client(), move |cancel| {
        if estimate {
            return match estimate_json(&notation) {
                Some(json) => Worked::Odds(json),
                None => Worked::TooLarge(
                    "no roll of this notation could be read within its caps".into(),
                ),
            };
        }
        match crate::rules::Odds::of_notation_until(&notation, cancel) {
            Ok(odds) => match odds.to_json_until(notation.source(), cancel) {
                Ok(json) => Worked::Odds(json),
                Err(_) => Worked::Stopped,
            },
            Err(OddsError::TooLarge(why)) => {
                Worked::TooLarge(format!("exact odds are not worked out: {why}"))
            }
            Err(OddsError::Stopped(_)) => Worked::Stopped,
        }
    });
    // Dropping the work at the deadline sets its cancel: it stops at its next check.
    let deadline = hub.tuning.odds_time;
    match tokio::time::timeout(deadline, work).await {
        Ok(Ok(Worked::Odds(json))) => axum::Json(json).into_response(),
        Ok(Ok(Worked::TooLarge(why))) => HttpError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::OddsTooLarge,
            why,
        )
        .into_response(),
        Ok(Err(e)) => HttpError::from(e).into_response(),
        Ok(Ok(Worked::Stopped)) => HttpError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Internal,
            "the odds could not be worked out",
        )
        .into_response(),
        Err(_) => HttpError::new(
            StatusCode::GATEWAY_TIMEOUT,
            ErrorCode::Timeout,
            format!(
                "the exact odds of {} take longer than {} s to work out here",
                query.notation,
                deadline.as_secs()
            ),
        )
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_scenes_are_offered_by_file_name() {
        let scenes = scene_choices(&FsPath::new(env!("CARGO_MANIFEST_DIR")).join("scenes"));
        let ids: Vec<&str> = scenes.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "action-dice-knight-and-magician",
                "d20-check-crypt",
                "d4-pool-goblin-ambush",
                "open-d6-fred-and-peter",
                "step-dice-vault-dangerous",
                "step-dice-vault",
                "system-bone-dice",
                "system-challenge-dice",
                "system-count-sixes",
                "system-d20-advantage",
                "system-highest-d6",
                "system-moves-2d6",
                "system-narrative-dice",
            ]
        );
        assert_eq!(
            (
                scenes[9].title.as_str(),
                scenes[9].ruleset.as_str(),
                scenes[9].rules.as_str()
            ),
            (
                "The toll bridge",
                "system-file",
                "system file: d20 against a DC"
            )
        );
        let crypt = &scenes[1];
        assert_eq!(
            (
                crypt.title.as_str(),
                crypt.ruleset.as_str(),
                crypt.rules.as_str()
            ),
            ("Into the crypt", "d20-check", "shipped rules")
        );
        assert_eq!(scenes[4].rules, "its own rules: dangerous_encounters");
        // Its text, as a room records it, carries the rules file's settings.
        let dir = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let text = offered_text(&dir, "step-dice-vault-dangerous").unwrap_or_default();
        assert!(text.contains("dangerous_encounters: true"), "{text}");
        assert!(!text.contains("File("), "{text}");
    }
}
