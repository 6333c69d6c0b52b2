//! The serving certificate: read from PEM files, handed to rustls through a resolver whose
//! certificate can be swapped while connections are open, and reloaded when the files change
//! on disk (cert-manager rotates them in place). A new pair that does not load is refused and
//! the old one kept. TLS 1.2 and 1.3, HTTP/1.1 by ALPN.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use rustls::ServerConfig;
use rustls::crypto::ring;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

/// Loads a certificate chain and its private key from PEM files.
pub fn load(cert: &Path, key: &Path) -> Result<CertifiedKey, String> {
    let cert_pem = std::fs::read(cert).map_err(|e| format!("cannot read certificate {}: {e}", cert.display()))?;
    let key_pem = std::fs::read(key).map_err(|e| format!("cannot read key {}: {e}", key.display()))?;
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("certificate {}: {e}", cert.display()))?;
    if chain.is_empty() {
        return Err(format!("certificate {} holds no PEM certificate", cert.display()));
    }
    let private = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| format!("key {}: {e}", key.display()))?;
    let signing = ring::sign::any_supported_type(&private).map_err(|e| format!("key {}: {e}", key.display()))?;
    let certified = CertifiedKey::new(chain, signing);
    certified.keys_match().map_err(|e| {
        format!(
            "key {} does not match certificate {}: {e}",
            key.display(),
            cert.display()
        )
    })?;
    Ok(certified)
}

/// The current certificate, swapped on reload.
#[derive(Debug)]
pub struct Certificates {
    cert: PathBuf,
    key: PathBuf,
    current: RwLock<Arc<CertifiedKey>>,
    stamp: RwLock<Option<(SystemTime, SystemTime)>>,
}

impl Certificates {
    /// Loads the pair once; an error here stops the server from starting.
    pub fn new(cert: &Path, key: &Path) -> Result<Certificates, String> {
        let loaded = load(cert, key)?;
        Ok(Certificates {
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
            current: RwLock::new(Arc::new(loaded)),
            stamp: RwLock::new(stamp(cert, key)),
        })
    }

    /// The certificate being served.
    pub fn current(&self) -> Arc<CertifiedKey> {
        self.current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Reloads when either file changed since the last look. `None`: unchanged; `Some(Ok)`:
    /// the new pair is served; `Some(Err)`: the new pair was refused, the old one is kept.
    /// A rotation that writes the two files one after the other can be seen half done: that
    /// attempt fails (key and certificate do not match) and the next look succeeds.
    pub fn reload_if_changed(&self) -> Option<Result<(), String>> {
        let now = stamp(&self.cert, &self.key);
        let mut last = self.stamp.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        if now == *last {
            return None;
        }
        *last = now;
        drop(last);
        Some(self.reload())
    }

    /// Reloads now.
    pub fn reload(&self) -> Result<(), String> {
        let loaded = load(&self.cert, &self.key)?;
        *self.current.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(loaded);
        Ok(())
    }
}

/// The files' modification times (a symlink swap, as Kubernetes does for Secret volumes,
/// changes them too since metadata follows links).
fn stamp(cert: &Path, key: &Path) -> Option<(SystemTime, SystemTime)> {
    let time = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    Some((time(cert)?, time(key)?))
}

#[derive(Debug)]
struct Resolver(Arc<Certificates>);

impl ResolvesServerCert for Resolver {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.0.current())
    }
}

/// The rustls configuration: TLS 1.2 and 1.3, no client certificates, HTTP/2 or HTTP/1.1 by
/// ALPN (kube-apiserver takes HTTP/2 when offered), the certificate from `certificates` at
/// each handshake.
pub fn server_config(certificates: Arc<Certificates>) -> Result<Arc<ServerConfig>, String> {
    let mut config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(Resolver(certificates)));
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(name: &str) -> (String, String) {
        let key = rcgen::KeyPair::generate().unwrap();
        let params = rcgen::CertificateParams::new(vec![name.to_owned()]).unwrap();
        let cert = params.self_signed(&key).unwrap();
        (cert.pem(), key.serialize_pem())
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ra2-serve-tls-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn reloads_a_changed_pair_and_keeps_the_old_one_when_the_new_is_bad() {
        let d = dir("reload");
        let (cert, key) = (d.join("tls.crt"), d.join("tls.key"));
        let (c1, k1) = pair("one.example");
        std::fs::write(&cert, &c1).unwrap();
        std::fs::write(&key, &k1).unwrap();
        let certs = Certificates::new(&cert, &key).unwrap();
        let first = certs.current().cert[0].clone();
        assert!(certs.reload_if_changed().is_none());

        // Rotated: a new pair is served.
        let (c2, k2) = pair("two.example");
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&cert, &c2).unwrap();
        std::fs::write(&key, &k2).unwrap();
        assert_eq!(certs.reload_if_changed(), Some(Ok(())));
        let second = certs.current().cert[0].clone();
        assert_ne!(first, second);

        // Half a rotation (a certificate whose key is not there yet): refused, old kept.
        let (c3, _) = pair("three.example");
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&cert, &c3).unwrap();
        let refused = certs.reload_if_changed().unwrap().unwrap_err();
        assert!(refused.contains("does not match"), "{refused}");
        assert_eq!(certs.current().cert[0], second);

        // Garbage: refused, old kept.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&cert, "not a certificate").unwrap();
        assert!(certs.reload_if_changed().unwrap().is_err());
        assert_eq!(certs.current().cert[0], second);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_missing_or_empty_file_is_a_clear_error() {
        let d = dir("missing");
        let err = Certificates::new(&d.join("nope.crt"), &d.join("nope.key")).unwrap_err();
        assert!(err.contains("cannot read certificate"), "{err}");
        std::fs::write(d.join("empty.crt"), "").unwrap();
        std::fs::write(d.join("empty.key"), "").unwrap();
        let err = Certificates::new(&d.join("empty.crt"), &d.join("empty.key")).unwrap_err();
        assert!(err.contains("no PEM certificate"), "{err}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
