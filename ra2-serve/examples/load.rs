//! Load generator for `ra2 serve` (used by `scripts/bench-serve`; not a test).
//!
//! `load certs DIR` writes `ca.crt`, `tls.crt`, `tls.key` for 127.0.0.1.
//! `load run ADDR CA BODY CONCURRENCY SECONDS` sends real AdmissionReviews over TLS with
//! keep-alive from CONCURRENCY connections for SECONDS and prints one line: requests/s,
//! p50/p99/p99.9 latency and errors. BODY: `typical` (a Pod with warnings), `large` (a
//! Deployment with 20 containers and much env), `deny` (a privileged Pod) or `mix` (the three
//! in turn).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn review(object: &Value, n: usize) -> Vec<u8> {
    json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": format!("00000000-0000-0000-0000-{n:012}"),
            "kind": {"group": object["apiVersion"].as_str().unwrap_or("").split('/').rev().nth(1).unwrap_or(""),
                     "version": "v1", "kind": object["kind"]},
            "resource": {"group": "", "version": "v1", "resource": "pods"},
            "operation": "CREATE", "namespace": "bench",
            "userInfo": {"username": "system:serviceaccount:kube-system:replicaset-controller",
                         "groups": ["system:serviceaccounts", "system:authenticated"]},
            "object": object, "oldObject": null, "dryRun": false,
        },
    })
    .to_string()
    .into_bytes()
}

fn container(name: &str, privileged: bool, env: usize) -> Value {
    let env: Vec<Value> = (0..env)
        .map(|i| json!({"name": format!("SETTING_{i}"), "value": format!("value-{i}-{}", "x".repeat(40))}))
        .collect();
    json!({
        "name": name, "image": format!("registry.example/{name}:1.4.2"),
        "ports": [{"containerPort": 8080, "name": "http"}],
        "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"cpu": "500m", "memory": "256Mi"}},
        "securityContext": {"privileged": privileged, "runAsNonRoot": true, "readOnlyRootFilesystem": true,
                            "allowPrivilegeEscalation": privileged},
        "env": env,
        "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080}},
    })
}

fn bodies(kind: &str) -> Vec<Vec<u8>> {
    let pod = |name: &str, privileged: bool| {
        json!({"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": name, "namespace": "bench", "labels": {"app": name}},
               "spec": {"containers": [container("app", privileged, 4)]}})
    };
    let containers: Vec<Value> = (0..20).map(|i| container(&format!("c{i}"), false, 30)).collect();
    let large = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "large", "namespace": "bench"},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "large"}},
                 "template": {"metadata": {"labels": {"app": "large"}}, "spec": {"containers": containers}}}});
    match kind {
        "typical" => vec![review(&pod("web", false), 1)],
        "large" => vec![review(&large, 2)],
        "deny" => vec![review(&pod("priv", true), 3)],
        _ => vec![
            review(&pod("web", false), 1),
            review(&large, 2),
            review(&pod("priv", true), 3),
        ],
    }
}

fn certs(dir: &str) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .unwrap()
        .signed_by(&key, &ca_cert, &ca_key)
        .unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(format!("{dir}/ca.crt"), ca_cert.pem()).unwrap();
    std::fs::write(format!("{dir}/tls.crt"), cert.pem()).unwrap();
    std::fs::write(format!("{dir}/tls.key"), key.serialize_pem()).unwrap();
}

/// Reads one HTTP/1.1 response (Content-Length framed); returns the status.
async fn read_response<S: AsyncReadExt + Unpin>(stream: &mut S, buf: &mut Vec<u8>) -> Option<u16> {
    buf.clear();
    let mut chunk = vec![0u8; 16384];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let status = head.split(' ').nth(1)?.parse().ok()?;
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())?;
            while buf.len() < end + 4 + length {
                let n = stream.read(&mut chunk).await.ok()?;
                if n == 0 {
                    return None;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Some(status);
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

async fn worker(
    addr: String,
    connector: tokio_rustls::TlsConnector,
    bodies: Arc<Vec<Vec<u8>>>,
    offset: usize,
    until: Instant,
) -> (Vec<u32>, usize) {
    let mut latencies = Vec::new();
    let mut errors = 0;
    let tcp = TcpStream::connect(&addr).await.unwrap();
    tcp.set_nodelay(true).unwrap();
    let mut tls = connector
        .connect(ServerName::try_from("127.0.0.1").unwrap(), tcp)
        .await
        .unwrap();
    let mut buf = Vec::with_capacity(64 * 1024);
    let mut i = offset;
    while Instant::now() < until {
        let body = &bodies[i % bodies.len()];
        i += 1;
        let mut request = format!(
            "POST /validate HTTP/1.1\r\nHost: ra2\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        let started = Instant::now();
        if tls.write_all(&request).await.is_err() {
            errors += 1;
            break;
        }
        match read_response(&mut tls, &mut buf).await {
            Some(200) => latencies.push(u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX)),
            Some(_) => errors += 1,
            None => {
                errors += 1;
                break;
            }
        }
    }
    (latencies, errors)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("certs") => certs(&args[2]),
        Some("run") => {
            let (addr, ca, kind) = (args[2].clone(), &args[3], &args[4]);
            let concurrency: usize = args[5].parse().unwrap();
            let seconds: u64 = args[6].parse().unwrap();
            let mut roots = rustls::RootCertStore::empty();
            for cert in CertificateDer::pem_file_iter(ca).unwrap() {
                roots.add(cert.unwrap()).unwrap();
            }
            let config =
                rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                    .with_safe_default_protocol_versions()
                    .unwrap()
                    .with_root_certificates(roots)
                    .with_no_client_auth();
            let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
            let bodies = Arc::new(bodies(kind));
            let started = Instant::now();
            let until = started + Duration::from_secs(seconds);
            let tasks: Vec<_> = (0..concurrency)
                .map(|n| tokio::spawn(worker(addr.clone(), connector.clone(), bodies.clone(), n, until)))
                .collect();
            let mut all = Vec::new();
            let mut errors = 0;
            for task in tasks {
                let (latencies, e) = task.await.unwrap();
                all.extend(latencies);
                errors += e;
            }
            let elapsed = started.elapsed().as_secs_f64();
            all.sort_unstable();
            let pct = |p: f64| {
                #[allow(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    clippy::cast_precision_loss
                )]
                let i = ((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1));
                f64::from(all.get(i).copied().unwrap_or(0)) / 1000.0
            };
            #[allow(clippy::cast_precision_loss)]
            let rate = all.len() as f64 / elapsed;
            println!(
                "body={kind:8} c={concurrency:<3} requests={:<7} rps={rate:>8.0} p50={:.3}ms p99={:.3}ms p99.9={:.3}ms errors={errors}",
                all.len(),
                pct(0.50),
                pct(0.99),
                pct(0.999),
            );
        }
        _ => eprintln!("usage: load certs DIR | load run ADDR CA BODY CONCURRENCY SECONDS"),
    }
}
