//! The overlay page and what it loads (its script, three.js, the dice meshes and numbered
//! atlases), as one router with its own state: the table's server serves it for the window's
//! feed, the table server (`serve`) for each room's page.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;

use super::assets::{self, Asset, Keep};
use super::error::HttpError;
use super::feed::FeedDie;
use crate::dice::DieKind;
use crate::dice::marks::FaceMarks;
use crate::dice::mesh::{MeshArrays, atlas_png, die_mesh_arrays};
use crate::dice::style::{DiceLook, DieStyle, Material, Rgb, Typeface};
use crate::errors::ErrorCode;

/// The first path segments the pages take (a room may not be named so).
pub const RESERVED: [&str; 11] = [
    "overlay",
    "overlay.css",
    "overlay.js",
    "written.js",
    "legible.js",
    "labels.js",
    "patient.js",
    "die-look.js",
    "three",
    "dice",
    "favicon.ico",
];

/// Atlases kept made (each a few hundred KiB): the table's colours many times over.
pub const ATLASES_KEPT: usize = 64;

/// Each die's atlas PNG in each style, made once: pages asking for one being made wait for it
/// (a streamer's OBS page, desktop and phone ask for the same dice at the same moment).
type AtlasCache =
    HashMap<(DieKind, DieStyle, Option<FaceMarks>), Arc<tokio::sync::OnceCell<Arc<Vec<u8>>>>>;

/// What the pages serve besides the compiled-in files: the atlases made so far.
pub struct Pages {
    atlases: Mutex<AtlasCache>,
}

impl Pages {
    /// The pages, with no atlas made yet.
    pub fn new() -> Arc<Pages> {
        Arc::new(Pages {
            atlases: Mutex::new(HashMap::new()),
        })
    }
}

/// A compiled-in file as the answer to a GET with `headers`.
pub fn file(name: &str, headers: &HeaderMap) -> Response {
    assets::serve(name, headers)
}

/// A route serving the compiled-in file `name`.
fn route_to<S: Clone + Send + Sync + 'static>(
    name: &'static str,
) -> axum::routing::MethodRouter<S> {
    get(move |headers: HeaderMap| async move { file(name, &headers) })
}

/// `/overlay`, `/overlay.js`, `/written.js`, `/legible.js`, `/labels.js`, `/patient.js`,
/// `/die-look.js`,
/// `/three/{file}`,
/// `/dice/geometry.json`, `/dice/atlas/{kind}`, `/dice/look`: public, no token (they say
/// nothing about the table).
pub fn router<S: Clone + Send + Sync + 'static>(pages: Arc<Pages>) -> Router<S> {
    Router::new()
        .route("/overlay", route_to("overlay.html"))
        .route("/overlay.css", route_to("overlay.css"))
        .route("/overlay.js", route_to("overlay.js"))
        .route("/written.js", route_to("written.js"))
        .route("/legible.js", route_to("legible.js"))
        .route("/labels.js", route_to("labels.js"))
        .route("/patient.js", route_to("patient.js"))
        .route("/die-look.js", route_to("die-look.js"))
        .route("/three/{file}", get(three))
        .route("/dice/geometry.json", get(geometry))
        .route("/dice/atlas/{kind}", get(atlas))
        .route("/dice/look", get(look))
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

/// three.js, under the name with its hash (`/three/three.HASH.min.js`) the overlay imports.
async fn three(Path(file): Path<String>, headers: HeaderMap) -> Response {
    let path = assets::three_path();
    if path.trim_start_matches("/three/") != file {
        return HttpError::not_found(format!("/three/{file}: this server's three.js is {path}"))
            .into_response();
    }
    assets::serve(path.trim_start_matches('/'), &headers)
}

/// A die's entry in `geometry.json`: its mesh, or the id of an earlier die with the same mesh
/// (a d3 is the d6's cube, a d17 the d18's trapezohedron), so each solid travels once.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum GeometryEntry {
    Mesh(MeshArrays),
    SameAs(&'static str),
}

/// Every die's render mesh, by id: the same vertex list as the window's.
async fn geometry(headers: HeaderMap) -> Response {
    static JSON: OnceLock<Asset> = OnceLock::new();
    let json = JSON.get_or_init(|| {
        let meshes: Vec<(DieKind, MeshArrays)> = DieKind::ALL
            .iter()
            .map(|k| (*k, die_mesh_arrays(*k)))
            .collect();
        let all: HashMap<&str, GeometryEntry> = meshes
            .iter()
            .enumerate()
            .map(|(i, (kind, mesh))| {
                let entry = match meshes[..i].iter().find(|(_, earlier)| earlier == mesh) {
                    Some((earlier, _)) => GeometryEntry::SameAs(earlier.id()),
                    None => GeometryEntry::Mesh(mesh.clone()),
                };
                (kind.id(), entry)
            })
            .collect();
        let text = serde_json::to_string(&all).unwrap_or_default();
        Asset::new(text.into_bytes(), "application/json", Keep::Revalidate)
    });
    json.respond(&headers)
}

/// A page's query refused (422, `invalid`), saying what to write.
fn refusal(why: &str) -> HttpError {
    HttpError::new(
        axum::http::StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::Invalid,
        why,
    )
}

/// [`refusal`] as the answer.
fn invalid(why: &str) -> Response {
    refusal(why).into_response()
}

/// The look a page's query names: its colours, and its material and typeface (absent:
/// plastic, sans), or the refusal saying what to write.
fn named_look(
    body: &str,
    ink: &str,
    material: Option<&str>,
    typeface: Option<&str>,
) -> Result<DiceLook, HttpError> {
    let (Some(body), Some(ink)) = (Rgb::parse(body), Rgb::parse(ink)) else {
        return Err(refusal("give the colours as ?body=rrggbb&ink=rrggbb"));
    };
    let material = material
        .map_or(Some(Material::Plastic), Material::named)
        .ok_or_else(|| refusal("material: plastic, translucent, metal, stone or wood"))?;
    let typeface = typeface
        .map_or(Some(Typeface::Sans), Typeface::named)
        .ok_or_else(|| refusal("typeface: sans, serif or mono"))?;
    Ok(DiceLook {
        body,
        ink,
        material,
        pips: false,
        typeface,
    })
}

/// A look as a picker has it before it is chosen (`?body=rrggbb&ink=rrggbb&material=…&pips=true
/// &typeface=…`).
#[derive(Deserialize)]
struct LookQuery {
    body: String,
    ink: String,
    #[serde(default)]
    material: Option<String>,
    #[serde(default)]
    pips: bool,
    #[serde(default)]
    typeface: Option<String>,
}

/// A look as every client would draw it.
#[derive(serde::Serialize)]
struct LookAnswer {
    /// A d20 and a d6 of the look, as the feed gives dice (the numerals' colour as drawn).
    dice: [FeedDie; 2],
    /// The look in words, as the log will say it.
    words: String,
}

/// What a look would be drawn as (`/dice/look?…`): a picker's live die asks it, so the page
/// shows the numerals' colour the contrast rule draws, the material's surface and the pips the
/// server will send, without a copy of those rules in the page.
async fn look(
    query: Result<Query<LookQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        return invalid(
            "give the look as ?body=rrggbb&ink=rrggbb[&material=…][&pips=true][&typeface=…]",
        );
    };
    let named = named_look(
        &query.body,
        &query.ink,
        query.material.as_deref(),
        query.typeface.as_deref(),
    );
    let look = match named {
        Ok(look) => DiceLook {
            pips: query.pips,
            ..look
        },
        Err(refused) => return refused.into_response(),
    };
    let drawn = look.drawn();
    axum::Json(LookAnswer {
        dice: [
            FeedDie::of(DieKind::D20, drawn),
            FeedDie::of(DieKind::D6, drawn),
        ],
        words: format!("{} dice: {}", look.material.name(), look.colours()),
    })
    .into_response()
}

#[derive(Deserialize)]
struct AtlasQuery {
    body: String,
    ink: String,
    /// A game's own die: its faces' marks, each followed by '|' ([`FaceMarks::key`]).
    #[serde(default)]
    marks: Option<String>,
    /// Its material: stone and wood carry their grain in the atlas (absent: plastic).
    #[serde(default)]
    material: Option<String>,
    /// The numerals' typeface (absent: sans).
    #[serde(default)]
    typeface: Option<String>,
}

/// A die's numbered atlas in a body and ink colour (`?body=rrggbb&ink=rrggbb`), as PNG; a
/// game's own die with `&marks=` its faces' marks instead of numbers; `&material=` for the
/// grain of stone or wood, `&typeface=` for serif or mono numerals.
async fn atlas(
    State(pages): State<Arc<Pages>>,
    peer: crate::net::runtime::Peer,
    Path(kind): Path<String>,
    query: Result<Query<AtlasQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Some(kind) = DieKind::from_id(kind.trim_end_matches(".png")) else {
        return HttpError::not_found(format!("no die '{kind}'")).into_response();
    };
    let Ok(Query(query)) = query else {
        return invalid("give the colours as ?body=rrggbb&ink=rrggbb");
    };
    let marks = match query.marks.as_deref() {
        None => None,
        Some(key) => match FaceMarks::from_key(key, kind) {
            Some(marks) => Some(marks),
            None => {
                return invalid(&format!(
                    "marks: one mark per face of a {}, each followed by '|' (a glyph of the dice's typeface, :n for pips, nothing for a blank)",
                    kind.name()
                ));
            }
        },
    };
    let named = named_look(
        &query.body,
        &query.ink,
        query.material.as_deref(),
        query.typeface.as_deref(),
    );
    let look = match named {
        Ok(look) => look,
        Err(refused) => return refused.into_response(),
    };
    // The colours as asked (the server sends them readable already), and only a material's
    // grain (the client draws the surface): materials without one share the plain atlas.
    let style = DieStyle {
        material: Some(look.material)
            .filter(|m| m.surface().grain > 0.0)
            .unwrap_or(Material::Plastic),
        typeface: look.typeface,
        ..DieStyle::plastic(look.body.0, look.ink.0)
    };
    let Ok(cell) = pages.atlases.lock().map(|mut m| {
        // Bounded: a page asking for every colour there is makes each of them once, and the
        // cache keeps the latest few.
        let key = (kind, style, marks.clone());
        if m.len() >= ATLASES_KEPT && !m.contains_key(&key) {
            m.clear();
        }
        m.entry(key).or_default().clone()
    }) else {
        return failed("the atlases' cache is broken".into()).into_response();
    };
    // Made by the first to ask, in its turn; the others wait for it. A maker refused as busy
    // leaves the next asker to make it.
    let made = cell
        .get_or_try_init(|| async move {
            match crate::work::pictures()
                .run(peer.client(), move |_| {
                    atlas_png(kind, style, marks.as_ref())
                })
                .await
            {
                Ok(Ok(png)) => Ok(Arc::new(png)),
                Ok(Err(e)) => Err(failed(e)),
                Err(e) => Err(HttpError::from(e)),
            }
        })
        .await;
    let png = match made {
        Ok(png) => png.clone(),
        Err(refused) => return refused.into_response(),
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
