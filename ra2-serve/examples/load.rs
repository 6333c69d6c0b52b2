//! Load generator for `ra2 serve` (used by `scripts/bench-serve`; not a test).
//!
//! `load certs DIR` writes `ca.crt`, `tls.crt`, `tls.key` for 127.0.0.1.
//! `load run ADDR CA BODY CONCURRENCY SECONDS` sends real AdmissionReviews over TLS with
//! keep-alive from CONCURRENCY connections for SECONDS and prints one line: requests/s,
//! p50/p99/p99.9 latency and errors. BODY: `typical` (a Pod with warnings), `large` (a
//! Deployment with 20 containers and much env), `deny` (a privileged Pod) or `mix` (the three
//! in turn).
//! `load bodies DIR` writes the AdmissionReviews of each BODY as `DIR/BODY-N.json` (for the
//! waPC side of `scripts/bench-serve`).
//! `load soak ADDR CA BODY RATE SECONDS` sends RATE requests per second in all (paced, from 4
//! keep-alive connections) for SECONDS and prints a line every 30 seconds (requests, errors,
//! p50/p99 of that interval), then a total line; `scripts/soak-serve` runs it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::pki_types::ServerName;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[path = "../tests/support/tls_client.rs"]
mod tls_client;

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
        let request = validate_request(body);
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

/// One paced keep-alive connection of the soak: a request every `period`, latencies and errors
/// into the shared tallies, until `until`.
async fn soak_worker(
    addr: String,
    connector: tokio_rustls::TlsConnector,
    bodies: Arc<Vec<Vec<u8>>>,
    period: Duration,
    until: Instant,
    tally: Arc<std::sync::Mutex<(Vec<u32>, usize)>>,
) {
    let connect = || async {
        let tcp = TcpStream::connect(&addr).await.ok()?;
        tcp.set_nodelay(true).ok()?;
        connector
            .connect(ServerName::try_from("127.0.0.1").ok()?, tcp)
            .await
            .ok()
    };
    let mut tls = connect().await;
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut buf = Vec::with_capacity(64 * 1024);
    let mut i = 0;
    while Instant::now() < until {
        ticks.tick().await;
        let body = &bodies[i % bodies.len()];
        i += 1;
        let request = validate_request(body);
        let started = Instant::now();
        let status = match tls.as_mut() {
            Some(stream) => {
                if stream.write_all(&request).await.is_ok() {
                    read_response(stream, &mut buf).await
                } else {
                    None
                }
            }
            None => None,
        };
        {
            let mut tally = tally.lock().unwrap();
            if status == Some(200) {
                tally
                    .0
                    .push(u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX));
            } else {
                tally.1 += 1;
            }
        }
        // A broken connection counts once, and the next request goes over a new one.
        if status.is_none() {
            tls = connect().await;
        }
    }
}

fn percentile_ms(sorted: &[u32], p: f64) -> f64 {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let i = ((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1));
    f64::from(sorted.get(i).copied().unwrap_or(0)) / 1000.0
}

/// A keep-alive `POST /validate` of `body`.
fn validate_request(body: &[u8]) -> Vec<u8> {
    let mut request = format!(
        "POST /validate HTTP/1.1\r\nHost: ra2\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    request
}

/// The TLS client, trusting the CA certificates in the file `ca`.
fn client(ca: &str) -> tokio_rustls::TlsConnector {
    tls_client::connector(&std::fs::read(ca).unwrap())
}

async fn soak(addr: &str, ca: &str, kind: &str, rate: u32, seconds: u64) {
    const CONNECTIONS: u32 = 4;
    let connector = client(ca);
    let bodies = Arc::new(bodies(kind));
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let period = Duration::from_secs(1) * CONNECTIONS / rate.max(1);
    let tally = Arc::new(std::sync::Mutex::new((Vec::new(), 0)));
    let tasks: Vec<_> = (0..CONNECTIONS)
        .map(|_| {
            tokio::spawn(soak_worker(
                addr.to_owned(),
                connector.clone(),
                bodies.clone(),
                period,
                until,
                tally.clone(),
            ))
        })
        .collect();
    let (mut total, mut total_errors, mut worst_p99) = (0usize, 0usize, 0.0f64);
    let mut report = |at: u64, tally: &std::sync::Mutex<(Vec<u32>, usize)>| {
        let (mut latencies, errors) = std::mem::take(&mut *tally.lock().unwrap());
        latencies.sort_unstable();
        total += latencies.len();
        total_errors += errors;
        worst_p99 = worst_p99.max(percentile_ms(&latencies, 0.99));
        println!(
            "t={at:>4}s requests={:<6} errors={errors} p50={:.3}ms p99={:.3}ms",
            latencies.len(),
            percentile_ms(&latencies, 0.5),
            percentile_ms(&latencies, 0.99),
        );
    };
    let mut at = 0;
    while at + 30 <= seconds {
        tokio::time::sleep_until((started + Duration::from_secs(at + 30)).into()).await;
        at += 30;
        report(at, &tally);
    }
    for task in tasks {
        task.await.unwrap();
    }
    if at < seconds {
        report(seconds, &tally);
    }
    println!(
        "soak body={kind} rate={rate}/s seconds={seconds} requests={total} errors={total_errors} worst-interval-p99={worst_p99:.3}ms"
    );
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
            let connector = client(ca);
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
        Some("bodies") => {
            for kind in ["typical", "large", "deny", "mix"] {
                for (n, body) in bodies(kind).iter().enumerate() {
                    std::fs::write(format!("{}/{kind}-{n}.json", args[2]), body).unwrap();
                }
            }
        }
        Some("soak") => {
            let (rate, seconds) = (args[5].parse().unwrap(), args[6].parse().unwrap());
            soak(&args[2], &args[3], &args[4], rate, seconds).await;
        }
        _ => eprintln!(
            "usage: load certs DIR | load bodies DIR | load run ADDR CA BODY CONCURRENCY SECONDS | load soak ADDR CA BODY RATE SECONDS"
        ),
    }
}
