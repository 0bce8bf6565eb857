//! The overlay page and what it loads (its script, three.js, the dice meshes and numbered
//! atlases), as one router with its own state: the table's server serves it for the window's
//! feed, the table server (`serve`) for each room's page.

use std::collections::HashMap;
use std::path::{Path as FsPath, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;

use super::error::HttpError;
use super::feed::parse_hex;
use crate::dice::DieKind;
use crate::dice::mesh::{DieStyle, MeshArrays, atlas_png, die_mesh_arrays};
use crate::errors::ErrorCode;

/// The overlay page and its script (ours, compiled in).
pub const OVERLAY_HTML: &str = include_str!("../../web/overlay.html");
const OVERLAY_JS: &str = include_str!("../../web/overlay.js");
/// A free roll written out, rerolled faces struck through: the overlay's and the room page's.
const WRITTEN_JS: &str = include_str!("../../web/written.js");
/// three.js as npm installs it under the web folder: its module and the core it imports.
const THREE_DIR: &str = "node_modules/three/build";
const THREE_FILES: [&str; 2] = ["three.module.js", "three.core.js"];
/// The first path segments the pages take (a room may not be named so).
pub const RESERVED: [&str; 6] = [
    "overlay",
    "overlay.js",
    "written.js",
    "three",
    "dice",
    "favicon.ico",
];

/// The web folder of this checkout (or DICETABLE_WEB).
pub fn default_web_dir() -> PathBuf {
    std::env::var_os("DICETABLE_WEB")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/web")))
}

/// Each die's atlas PNG in each style, made once.
/// Atlases kept made (each a few hundred KiB): the table's colours many times over.
pub const ATLASES_KEPT: usize = 64;

type AtlasCache = HashMap<(DieKind, DieStyle), Arc<Vec<u8>>>;

/// What the pages serve: three.js read once from the web folder, the atlases made so far.
pub struct Pages {
    three: HashMap<&'static str, Vec<u8>>,
    web_dir: PathBuf,
    atlases: Mutex<AtlasCache>,
}

impl Pages {
    /// The pages, with three.js from `web_dir` (where `npm ci` put it; missing: results only).
    pub fn new(web_dir: &FsPath) -> Arc<Pages> {
        Arc::new(Pages {
            three: THREE_FILES
                .iter()
                .filter_map(|f| Some((*f, std::fs::read(web_dir.join(THREE_DIR).join(f)).ok()?)))
                .collect(),
            web_dir: web_dir.to_path_buf(),
            atlases: Mutex::new(HashMap::new()),
        })
    }
}

/// `/overlay`, `/overlay.js`, `/written.js`, `/three/{file}`, `/dice/geometry.json`, `/dice/atlas/{kind}`:
/// public, no token (they say nothing about the table).
pub fn router<S: Clone + Send + Sync + 'static>(pages: Arc<Pages>) -> Router<S> {
    Router::new()
        .route("/overlay", get(|| async { html(OVERLAY_HTML) }))
        .route(
            "/overlay.js",
            get(|| async { script(OVERLAY_JS.as_bytes().to_vec()) }),
        )
        .route(
            "/written.js",
            get(|| async { script(WRITTEN_JS.as_bytes().to_vec()) }),
        )
        .route("/three/{file}", get(three))
        .route("/dice/geometry.json", get(geometry))
        .route("/dice/atlas/{kind}", get(atlas))
        .with_state(pages)
}

/// An atlas that could not be made (500).
fn failed(why: String) -> HttpError {
    HttpError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::Internal,
        format!("the dice could not be drawn: {why}"),
    )
}

/// A page of ours, as HTML.
pub fn html(text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], text).into_response()
}

fn script(bytes: Vec<u8>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        bytes,
    )
        .into_response()
}

async fn three(State(pages): State<Arc<Pages>>, Path(file): Path<String>) -> Response {
    if !THREE_FILES.contains(&file.as_str()) {
        return HttpError::not_found(format!("/three/{file}")).into_response();
    }
    match pages.three.get(file.as_str()) {
        // The library does not change while the server runs: a page's later loads keep it.
        Some(bytes) => (
            [(
                header::CACHE_CONTROL,
                HeaderValue::from_static("max-age=86400"),
            )],
            script(bytes.clone()),
        )
            .into_response(),
        None => HttpError::not_found(format!(
            "three.js is not installed in {}: run `npm ci --prefix {}` (./play does it)",
            pages.web_dir.display(),
            pages.web_dir.display()
        ))
        .into_response(),
    }
}

/// Every die's render mesh, by id: the same vertex list as the window's.
async fn geometry() -> Response {
    static JSON: OnceLock<String> = OnceLock::new();
    let json = JSON.get_or_init(|| {
        let all: HashMap<&str, MeshArrays> = DieKind::ALL
            .iter()
            .map(|k| (k.id(), die_mesh_arrays(*k)))
            .collect();
        serde_json::to_string(&all).unwrap_or_default()
    });
    ([(header::CONTENT_TYPE, "application/json")], json.clone()).into_response()
}

#[derive(Deserialize)]
struct AtlasQuery {
    body: String,
    ink: String,
}

/// A die's numbered atlas in a body and ink colour (`?body=rrggbb&ink=rrggbb`), as PNG.
async fn atlas(
    State(pages): State<Arc<Pages>>,
    Path(kind): Path<String>,
    query: Result<Query<AtlasQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Some(kind) = DieKind::from_id(kind.trim_end_matches(".png")) else {
        return HttpError::not_found(format!("no die '{kind}'")).into_response();
    };
    let colours = query
        .ok()
        .and_then(|Query(q)| Some((parse_hex(&q.body)?, parse_hex(&q.ink)?)));
    let Some((body, ink)) = colours else {
        return HttpError::new(
            axum::http::StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::Invalid,
            "give the colours as ?body=rrggbb&ink=rrggbb",
        )
        .into_response();
    };
    let style = DieStyle { body, ink };
    let cached = pages
        .atlases
        .lock()
        .ok()
        .and_then(|m| m.get(&(kind, style)).cloned());
    let png = match cached {
        Some(png) => png,
        None => {
            let made = tokio::task::spawn_blocking(move || atlas_png(kind, style)).await;
            match made {
                Ok(Ok(png)) => {
                    let png = Arc::new(png);
                    if let Ok(mut m) = pages.atlases.lock() {
                        // Bounded: a page asking for every colour there is makes each of them
                        // once, and the cache keeps the latest few.
                        if m.len() >= ATLASES_KEPT {
                            m.clear();
                        }
                        m.insert((kind, style), png.clone());
                    }
                    png
                }
                Ok(Err(e)) => return failed(e).into_response(),
                Err(e) => return failed(e.to_string()).into_response(),
            }
        }
    };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/png")),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("max-age=3600"),
            ),
        ],
        (*png).clone(),
    )
        .into_response()
}
