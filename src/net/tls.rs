//! TLS for the table server (`serve --tls-cert FILE --tls-key FILE`): PEM files as Let's Encrypt
//! or any other CA issues them, read again when they change on disk or the process gets SIGHUP,
//! so a renewed certificate is served without a restart. A renewal that cannot be read keeps
//! the certificate already served and says why on stderr.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio_rustls::TlsAcceptor;

/// How often the files' modification times are looked at.
const LOOK_EVERY: Duration = Duration::from_secs(2);

/// The certificate chain and private key files, PEM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain (the server's first), as `fullchain.pem`.
    pub cert: PathBuf,
    /// Its private key (PKCS#8, PKCS#1 or SEC1), as `privkey.pem`.
    pub key: PathBuf,
}

/// The TLS files could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read.
    #[error("cannot read {path}: {error}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The certificate file holds no PEM certificate.
    #[error("{path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)")]
    NoCertificate {
        /// The file.
        path: PathBuf,
    },
    /// The key file holds no PEM private key.
    #[error("{path} holds no PEM private key: {reason}")]
    NoKey {
        /// The file.
        path: PathBuf,
        /// What the PEM reader said.
        reason: String,
    },
    /// The key is of a kind TLS here cannot sign with, or does not match the certificate.
    #[error("the key in {key} cannot serve the certificate in {cert}: {reason}")]
    Mismatch {
        /// The certificate file.
        cert: PathBuf,
        /// The key file.
        key: PathBuf,
        /// What rustls said.
        reason: String,
    },
    /// rustls refused the configuration.
    #[error("TLS cannot be set up: {0}")]
    Config(String),
}

/// The crypto every TLS connection here uses (ring, as the NATS client's).
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|error| TlsError::Read {
        path: path.to_path_buf(),
        error,
    })
}

/// Reads and checks a certificate chain and its key.
pub fn load(files: &TlsFiles) -> Result<CertifiedKey, TlsError> {
    let cert_pem = read(&files.cert)?;
    let key_pem = read(&files.key)?;
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_pem)
        .filter_map(Result::ok)
        .collect();
    if chain.is_empty() {
        return Err(TlsError::NoCertificate {
            path: files.cert.clone(),
        });
    }
    let key = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| TlsError::NoKey {
        path: files.key.clone(),
        reason: e.to_string(),
    })?;
    CertifiedKey::from_der(chain, key, &provider()).map_err(|e| TlsError::Mismatch {
        cert: files.cert.clone(),
        key: files.key.clone(),
        reason: e.to_string(),
    })
}

/// TLS for a client (the window joining a room over `wss://`): the system's trusted roots, and
/// `trust` (PEM certificates) beside them for a server whose certificate no CA signed.
pub fn client_config(trust: Option<&Path>) -> Result<Arc<rustls::ClientConfig>, TlsError> {
    let mut roots = rustls::RootCertStore::empty();
    // Roots the system's store cannot give are skipped; a store with none still takes `trust`.
    let system = rustls_native_certs::load_native_certs();
    roots.add_parsable_certificates(system.certs);
    if let Some(path) = trust {
        let pem = read(path)?;
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&pem)
            .filter_map(Result::ok)
            .collect();
        if certs.is_empty() {
            return Err(TlsError::NoCertificate {
                path: path.to_path_buf(),
            });
        }
        let (_, refused) = roots.add_parsable_certificates(certs);
        if refused > 0 {
            return Err(TlsError::Config(format!(
                "{} holds a certificate that cannot be trusted as a root",
                path.display()
            )));
        }
    }
    let config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The certificate being served, swapped for a new one when its files change.
#[derive(Debug)]
pub struct Reloading {
    files: TlsFiles,
    current: RwLock<Arc<CertifiedKey>>,
}

impl ResolvesServerCert for Reloading {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.current.read().ok().map(|c| Arc::clone(&c))
    }
}

impl Reloading {
    /// Reads the files again: the new certificate is served from the next handshake on; on an
    /// error the one served stays.
    pub fn reload(&self) -> Result<(), TlsError> {
        let fresh = Arc::new(load(&self.files)?);
        if let Ok(mut current) = self.current.write() {
            *current = fresh;
        }
        Ok(())
    }

    /// The files' modification times, to see a renewal.
    fn stamps(&self) -> (Option<SystemTime>, Option<SystemTime>) {
        let at = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        (at(&self.files.cert), at(&self.files.key))
    }

    /// Reloads on SIGHUP, and whenever either file's modification time changes (looked at
    /// every two seconds), until the process ends. Says each reload on stdout and each failed
    /// one on stderr.
    pub async fn keep_fresh(self: Arc<Self>) {
        let mut seen = self.stamps();
        let mut hangups =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
        loop {
            let hangup = async {
                match hangups.as_mut() {
                    Some(signal) => signal.recv().await.is_some(),
                    None => std::future::pending().await,
                }
            };
            let asked = tokio::select! {
                got = hangup => got,
                () = tokio::time::sleep(LOOK_EVERY) => false,
            };
            let stamps = self.stamps();
            if !asked && stamps == seen {
                continue;
            }
            seen = stamps;
            match self.reload() {
                Ok(()) => println!(
                    "TLS certificate reloaded from {}",
                    self.files.cert.display()
                ),
                Err(e) => eprintln!("TLS certificate not reloaded (the one served stays): {e}"),
            }
        }
    }
}

/// TLS for a listener: the acceptor, and the certificate it serves (to keep fresh).
pub struct Tls {
    /// Does each connection's handshake.
    pub acceptor: TlsAcceptor,
    /// The certificate served.
    pub certificate: Arc<Reloading>,
}

impl Tls {
    /// Reads `files` and sets up TLS 1.2 and 1.3 for HTTP/1.1 (the pages and their sockets).
    pub fn new(files: TlsFiles) -> Result<Tls, TlsError> {
        let first = load(&files)?;
        let certificate = Arc::new(Reloading {
            files,
            current: RwLock::new(Arc::new(first)),
        });
        let mut config = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Config(e.to_string()))?
            .with_no_client_auth()
            .with_cert_resolver(certificate.clone());
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Tls {
            acceptor: TlsAcceptor::from(Arc::new(config)),
            certificate,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> TlsFiles {
        TlsFiles {
            cert: dir.join("cert.pem"),
            key: dir.join("key.pem"),
        }
    }

    #[test]
    fn missing_or_empty_files_are_named_in_the_error() {
        let dir = std::env::temp_dir().join(format!("dicetable-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let f = files(&dir);
        assert!(matches!(load(&f), Err(TlsError::Read { path, .. }) if path == f.cert));
        std::fs::write(&f.cert, "not a certificate\n").expect("written");
        std::fs::write(&f.key, "not a key\n").expect("written");
        assert!(matches!(load(&f), Err(TlsError::NoCertificate { path }) if path == f.cert));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
