//! The TLS client of the server tests and of the load generator (`examples/load.rs`, which
//! includes this file): it trusts the certificates of one PEM CA bundle, with the ring provider
//! and rustls's safe protocol versions, as the API server's webhook client would.

use std::sync::Arc;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio_rustls::TlsConnector;

/// A connector that trusts the certificates in `ca_pem`.
pub(crate) fn connector(ca_pem: &[u8]) -> TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem) {
        roots.add(cert.unwrap()).unwrap();
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    TlsConnector::from(Arc::new(config))
}
