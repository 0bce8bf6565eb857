//! The files the pages load, compiled into the binary so an installed server runs from any
//! folder: our pages, scripts and style, and three.js bundled and minified by esbuild
//! (`web/vendor/three.min.js`, made by `web/bundle.mjs`). Each is served gzip-compressed to a
//! browser that takes it (compressed once, when first asked for) with an ETag, so a page that
//! has a file already revalidates it without its body; three.js is served under its content
//! hash and kept by browsers for good. `DICETABLE_WEB_DIR=web` serves the pages from that
//! folder instead, read at every request, for working on them.

use std::collections::HashMap;
use std::io::Write;
use std::sync::LazyLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// How long a browser keeps a file before it asks again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Asks every time (revalidating with the ETag): pages and our scripts, which change with
    /// the server.
    Revalidate,
    /// Keeps it for good: a file whose name carries its content's hash.
    Forever,
}

/// A file as served: its bytes, their gzip, its type and its ETag.
#[derive(Debug)]
pub struct Asset {
    bytes: Vec<u8>,
    gzip: Option<Vec<u8>>,
    content_type: &'static str,
    etag: String,
    keep: Keep,
}

/// The first 16 hex digits of the SHA-256 of `bytes`: a file's version in its name and ETag.
pub fn short_hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `bytes` gzip-compressed at the best level (None if that is no smaller).
fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).ok()?;
    let out = encoder.finish().ok()?;
    (out.len() < bytes.len()).then_some(out)
}

impl Asset {
    /// A file of `content_type`, compressed now.
    pub fn new(bytes: Vec<u8>, content_type: &'static str, keep: Keep) -> Asset {
        Asset {
            gzip: gzip(&bytes),
            etag: format!("\"{}\"", short_hash(&bytes)),
            bytes,
            content_type,
            keep,
        }
    }

    /// The uncompressed bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The answer to a GET with these headers: 304 when the browser has this version, the
    /// gzip when it takes gzip, the bytes otherwise.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        let cache = match self.keep {
            Keep::Revalidate => "no-cache",
            Keep::Forever => "public, max-age=31536000, immutable",
        };
        let mut headers = HeaderMap::new();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        if let Ok(etag) = HeaderValue::from_str(&self.etag) {
            headers.insert(header::ETAG, etag);
        }
        let has_it = request
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|tags| tags.split(',').any(|t| t.trim() == self.etag));
        if has_it {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(self.content_type),
        );
        match &self.gzip {
            Some(gz) if takes_gzip(request) => {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
                (headers, gz.clone()).into_response()
            }
            _ => (headers, self.bytes.clone()).into_response(),
        }
    }
}

/// Whether a request's `Accept-Encoding` takes gzip (and does not refuse it with `q=0`).
fn takes_gzip(request: &HeaderMap) -> bool {
    request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| p.replace(' ', "") == "q=0");
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// The content type of a file by its name.
fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        _ => "text/javascript; charset=utf-8",
    }
}

/// three.js, bundled and minified (`web/bundle.mjs`).
const THREE_JS: &[u8] = include_bytes!("../../web/vendor/three.min.js");
/// Where overlay.js imports three.js from; the served overlay.js names the hashed file.
const THREE_PLACEHOLDER: &str = "/three/three.min.js";

/// Our files, by the name they are served under (at the server's root).
const FILES: [(&str, &str); 24] = [
    ("overlay.html", include_str!("../../web/overlay.html")),
    ("overlay.css", include_str!("../../web/overlay.css")),
    ("overlay.js", include_str!("../../web/overlay.js")),
    ("written.js", include_str!("../../web/written.js")),
    ("room.html", include_str!("../../web/room.html")),
    ("front.html", include_str!("../../web/front.html")),
    ("table.css", include_str!("../../web/table.css")),
    ("common.js", include_str!("../../web/common.js")),
    ("check.js", include_str!("../../web/check.js")),
    ("front.js", include_str!("../../web/front.js")),
    ("room.js", include_str!("../../web/room.js")),
    ("entries.js", include_str!("../../web/entries.js")),
    ("gesture.js", include_str!("../../web/gesture.js")),
    ("fields.js", include_str!("../../web/fields.js")),
    ("odds-chart.js", include_str!("../../web/odds-chart.js")),
    ("tray-queue.js", include_str!("../../web/tray-queue.js")),
    ("draft-asker.js", include_str!("../../web/draft-asker.js")),
    (
        "notation-odds.js",
        include_str!("../../web/notation-odds.js"),
    ),
    ("legible.js", include_str!("../../web/legible.js")),
    ("labels.js", include_str!("../../web/labels.js")),
    ("patient.js", include_str!("../../web/patient.js")),
    ("die-look.js", include_str!("../../web/die-look.js")),
    ("die-preview.js", include_str!("../../web/die-preview.js")),
    (
        "vendor/sha256.min.js",
        include_str!("../../web/vendor/sha256.min.js"),
    ),
];

/// Every file, made (and compressed) once, when first asked for.
static ASSETS: LazyLock<HashMap<String, Asset>> = LazyLock::new(|| {
    let three = three_path();
    let mut assets: HashMap<String, Asset> = FILES
        .iter()
        .map(|(name, text)| {
            let text = text.replace(THREE_PLACEHOLDER, &three);
            let asset = Asset::new(text.into_bytes(), content_type(name), Keep::Revalidate);
            (name.to_string(), asset)
        })
        .collect();
    let name = three.trim_start_matches('/').to_string();
    assets.insert(
        name,
        Asset::new(THREE_JS.to_vec(), content_type("js"), Keep::Forever),
    );
    assets
});

/// The path three.js is served at: `/three/three.HASH.min.js`.
pub fn three_path() -> String {
    static PATH: LazyLock<String> =
        LazyLock::new(|| format!("/three/three.{}.min.js", short_hash(THREE_JS)));
    PATH.clone()
}

/// The file served as `name` (`room.js`, `three/three.HASH.min.js`), if there is one.
pub fn asset(name: &str) -> Option<&'static Asset> {
    ASSETS.get(name)
}

/// The folder `DICETABLE_WEB_DIR` names, if set: the pages are then read from it at every
/// request (for working on them without building again), not from the binary.
fn web_dir() -> Option<&'static std::path::Path> {
    static DIR: LazyLock<Option<std::path::PathBuf>> =
        LazyLock::new(|| std::env::var_os("DICETABLE_WEB_DIR").map(Into::into));
    DIR.as_deref()
}

/// The file `name` read from the working folder (see [`web_dir`]), as it would be served.
fn from_web_dir(dir: &std::path::Path, name: &str) -> Option<Asset> {
    if !FILES.iter().any(|(f, _)| *f == name) {
        return None;
    }
    let text = std::fs::read_to_string(dir.join(name)).ok()?;
    let text = text.replace(THREE_PLACEHOLDER, &three_path());
    Some(Asset::new(
        text.into_bytes(),
        content_type(name),
        Keep::Revalidate,
    ))
}

/// The answer to a GET of `name`: the file, or 404.
pub fn serve(name: &str, request: &HeaderMap) -> Response {
    if let Some(fresh) = web_dir().and_then(|dir| from_web_dir(dir, name)) {
        return fresh.respond(request);
    }
    match asset(name) {
        Some(a) => a.respond(request),
        None => super::error::HttpError::not_found(format!("/{name}")).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(k.clone(), HeaderValue::from_str(v).expect("a header"));
        }
        h
    }

    #[test]
    fn a_file_goes_compressed_to_who_takes_gzip_and_not_again_to_who_has_it() {
        let room = asset("room.js").expect("room.js");
        let plain = room.respond(&HeaderMap::new());
        assert_eq!(plain.status(), StatusCode::OK);
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        let zipped = room.respond(&ask(&[(header::ACCEPT_ENCODING, "br, gzip;q=0.8")]));
        assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(zipped.headers()[header::CACHE_CONTROL], "no-cache");
        let refused = room.respond(&ask(&[(header::ACCEPT_ENCODING, "gzip;q=0")]));
        assert!(refused.headers().get(header::CONTENT_ENCODING).is_none());
        let etag = zipped.headers()[header::ETAG]
            .to_str()
            .expect("ascii")
            .to_string();
        let again = room.respond(&ask(&[(header::IF_NONE_MATCH, &etag)]));
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    }

    #[test]
    fn three_is_served_under_its_hash_for_good_and_the_overlay_imports_that_file() {
        let path = three_path();
        assert!(
            path.starts_with("/three/three.") && path.ends_with(".min.js"),
            "{path}"
        );
        let three = asset(path.trim_start_matches('/')).expect("three.js");
        assert_eq!(three.bytes(), THREE_JS);
        let answer = three.respond(&ask(&[(header::ACCEPT_ENCODING, "gzip")]));
        assert_eq!(
            answer.headers()[header::CACHE_CONTROL],
            "public, max-age=31536000, immutable"
        );
        let overlay = String::from_utf8_lossy(asset("overlay.js").expect("overlay").bytes());
        assert!(overlay.contains(&path), "overlay.js imports {path}");
        assert!(!overlay.contains(THREE_PLACEHOLDER));
        // Bundled and minified: well under the 2.1 MB of three.module.js and three.core.js.
        assert!(THREE_JS.len() < 700_000, "{}", THREE_JS.len());
        assert!(three.gzip.as_ref().is_some_and(|g| g.len() < 200_000));
    }
}
