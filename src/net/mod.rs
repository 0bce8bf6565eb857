//! The network layer shared by the stream server (`crate::stream`, in the window) and the table
//! server (`crate::server`): who may (`auth`: tokens, passcodes, origins, the one constant-time
//! compare), errors into responses with their stable codes (`error`), every answer's security
//! headers (`headers`), the runtime and the
//! listening socket (`runtime`), its TLS (`tls`) and the clients a trusted reverse proxy names
//! (`proxy`), the feed's events and its socket loop (`feed`, `socket`), and the page routes
//! (`pages`) and the files they serve, compiled in (`assets`), and the bell a server rings to
//! wake the app it hands work to (`bell`).

pub mod assets;
pub mod auth;
pub mod bell;
pub mod error;
pub mod feed;
pub mod headers;
pub mod pages;
pub mod proxy;
pub mod runtime;
pub mod socket;
#[cfg(test)]
pub(crate) mod testing;
pub mod tls;
