//! The server over real TLS on loopback: the routes, the decision, and bad input of every
//! kind (each gets a clear answer or a closed connection, and the server keeps serving).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use ra2_serve::{Options, Server};
use rustls::pki_types::ServerName;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

#[path = "support/tls_client.rs"]
mod tls_client;

struct Running {
    addr: SocketAddr,
    ca: String,
    dir: PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

impl Running {
    async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(Duration::from_secs(10), &mut self.done)
            .await
            .expect("drained in time")
            .unwrap();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn authority() -> (rcgen::Certificate, rcgen::KeyPair) {
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    (params.self_signed(&key).unwrap(), key)
}

fn issue(ca: &(rcgen::Certificate, rcgen::KeyPair)) -> (String, String) {
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()]).unwrap();
    (params.signed_by(&key, &ca.0, &ca.1).unwrap().pem(), key.serialize_pem())
}

async fn start(name: &str, config: Option<&str>, tune: impl FnOnce(&mut Options)) -> Running {
    let dir = std::env::temp_dir().join(format!("ra2-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ca = authority();
    let (cert, key) = issue(&ca);
    std::fs::write(dir.join("tls.crt"), cert).unwrap();
    std::fs::write(dir.join("tls.key"), key).unwrap();
    let config_path = config.map(|text| {
        let path = dir.join(".ra2.yaml");
        std::fs::write(&path, text).unwrap();
        path
    });
    let mut options = Options::new(
        "127.0.0.1:0".parse().unwrap(),
        dir.join("tls.crt"),
        dir.join("tls.key"),
        config_path,
    );
    tune(&mut options);
    let server = Server::bind(&options).await.unwrap();
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (reload_tx, reload_rx) = tokio::sync::mpsc::channel(1);
    let done = tokio::spawn(async move {
        let _keep = reload_tx;
        server
            .run(
                async move {
                    let _ = stopped.await;
                },
                reload_rx,
            )
            .await;
    });
    Running {
        addr,
        ca: ca.0.pem(),
        dir,
        stop: Some(stop),
        done,
    }
}

fn connector(ca_pem: &str) -> TlsConnector {
    tls_client::connector(ca_pem.as_bytes())
}

/// Sends one request (`Connection: close`) and returns (status, body).
async fn send(running: &Running, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let tcp = TcpStream::connect(running.addr).await.unwrap();
    let mut tls = connector(&running.ca)
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    tls.write_all(head.as_bytes()).await.unwrap();
    tls.write_all(body).await.unwrap();
    let mut out = Vec::new();
    let _ = tls.read_to_end(&mut out).await;
    parse(&out)
}

fn parse(raw: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(raw);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

fn review(uid: &str, operation: &str, object: &Value) -> Value {
    json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": uid,
            "kind": {"group": "", "version": "v1", "kind": object["kind"]},
            "resource": {"group": "", "version": "v1", "resource": "pods"},
            "operation": operation,
            "namespace": "default",
            "object": object,
        },
    })
}

fn privileged_pod() -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "bad", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "registry.example/app:1.0",
                                 "securityContext": {"privileged": true}}]},
    })
}

#[tokio::test]
async fn validate_answers_exactly_the_core_decision() {
    let running = start("decision", None, |_| {}).await;
    for (operation, object) in [("CREATE", privileged_pod()), ("DELETE", privileged_pod())] {
        let sent = review("u-1", operation, &object);
        let (status, body) = send(&running, "POST", "/validate", sent.to_string().as_bytes()).await;
        assert_eq!(status, 200, "{body}");
        let got: Value = serde_json::from_str(&body).unwrap();
        let expected =
            ra2_core::admission::review(ra2_core::admission::Input::Value(&sent), &ra2_core::Config::default()).review;
        assert_eq!(got, expected);
        assert_eq!(got["response"]["uid"], "u-1");
        assert_eq!(got["response"]["allowed"], operation == "DELETE", "{body}");
    }
    let (status, body) = send(&running, "GET", "/metrics", b"").await;
    assert_eq!(status, 200);
    assert!(
        body.contains("ra2_admission_requests_total{kind=\"Pod\",operation=\"CREATE\",verdict=\"denied\"} 1"),
        "{body}"
    );
    assert!(body.contains("operation=\"DELETE\",verdict=\"allowed\"} 1"), "{body}");
    assert_eq!(send(&running, "GET", "/healthz", b"").await.0, 200);
    assert_eq!(send(&running, "GET", "/readyz", b"").await.0, 200);
    assert_eq!(send(&running, "GET", "/validate", b"").await.0, 405);
    assert_eq!(send(&running, "GET", "/nope", b"").await.0, 404);
    running.stop().await;
}

#[tokio::test]
async fn the_config_file_sets_the_threshold() {
    let running = start("config", Some("fail-on: never\n"), |_| {}).await;
    let sent = review("u-2", "CREATE", &privileged_pod());
    let (status, body) = send(&running, "POST", "/validate", sent.to_string().as_bytes()).await;
    assert_eq!(status, 200);
    let got: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(got["response"]["allowed"], true, "{body}");
    assert!(!got["response"]["warnings"].as_array().unwrap().is_empty(), "{body}");
    running.stop().await;
}

#[tokio::test]
async fn limits_on_the_command_line_replace_the_config_files() {
    // A clean Pod whose deepest value sits 7 levels down (spec/containers/0/resources/limits/cpu
    // is 6; metadata/labels 3). The file allows it; the override refuses it, also after a reload.
    let clean = json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "ok", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "registry.example/app:1.0",
                                 "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]},
    });
    let sent = review("u-3", "CREATE", &clean);
    let decide = |config: &str| {
        let config = ra2_core::Config::from_yaml(config, ".ra2.yaml").unwrap();
        ra2_core::admission::review(ra2_core::admission::Input::Value(&sent), &config).review
    };
    let file = "fail-on: never\nlimits: {max-depth: 64}\n";
    let shallow = decide("fail-on: never\nlimits: {max-depth: 3}\n");
    assert_ne!(decide(file), shallow, "the depth limit should change the answer");

    let running = start("limits", Some(file), |options| {
        options.document_limits.max_depth = Some(3);
    })
    .await;
    let (status, body) = send(&running, "POST", "/validate", sent.to_string().as_bytes()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), shallow, "{body}");
    running.stop().await;
}

#[tokio::test]
async fn unreadable_requests_get_400_with_a_reason_and_the_server_keeps_serving() {
    let running = start("bad-input", None, |_| {}).await;
    let cases: [(&[u8], &str); 6] = [
        (b"", "the body is empty"),
        (b"{not json", "not JSON"),
        (b"[1, 2]", "not an object"),
        (
            br#"{"apiVersion": "v1", "kind": "Pod"}"#,
            "expected apiVersion admission.k8s.io/v1",
        ),
        (
            br#"{"apiVersion": "admission.k8s.io/v1", "kind": "Pod"}"#,
            "expected kind AdmissionReview",
        ),
        (
            br#"{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}"#,
            "no request",
        ),
    ];
    for (body, reason) in cases {
        let (status, text) = send(&running, "POST", "/validate", body).await;
        assert_eq!(status, 400, "{}: {text}", String::from_utf8_lossy(body));
        assert!(text.contains(reason), "{reason:?} not in {text:?}");
    }
    // A review ra2 can read but not judge (no object): the core's 400 inside a 200.
    let no_object = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                           "request": {"uid": "u", "operation": "CREATE"}});
    let (status, text) = send(&running, "POST", "/validate", no_object.to_string().as_bytes()).await;
    assert_eq!(status, 200);
    assert!(text.contains("\"code\":400"), "{text}");
    let (_, metrics) = send(&running, "GET", "/metrics", b"").await;
    assert!(
        metrics.contains("ra2_errors_total{reason=\"bad_request\"} 6"),
        "{metrics}"
    );
    running.stop().await;
}

#[tokio::test]
async fn a_10_mib_body_is_refused_without_reading_it() {
    let running = start("big", None, |_| {}).await;
    let tcp = TcpStream::connect(running.addr).await.unwrap();
    let mut tls = connector(&running.ca)
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .unwrap();
    let head = format!(
        "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        10 * 1024 * 1024
    );
    tls.write_all(head.as_bytes()).await.unwrap();
    // The server answers from the headers and does not wait for the 10 MiB.
    let _ = tls.write_all(&vec![b' '; 64 * 1024]).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), tls.read_to_end(&mut out)).await;
    let (status, text) = parse(&out);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("over 7340032 bytes"), "{text}");
    assert_eq!(send(&running, "GET", "/healthz", b"").await.0, 200);
    let (_, metrics) = send(&running, "GET", "/metrics", b"").await;
    assert!(
        metrics.contains("ra2_errors_total{reason=\"body_too_large\"} 1"),
        "{metrics}"
    );
    running.stop().await;
}

#[tokio::test]
async fn a_slow_client_is_cut_off_and_others_are_served() {
    let running = start("slow", None, |o| {
        o.limits.header_timeout = Duration::from_millis(300);
        o.limits.request_timeout = Duration::from_millis(300);
    })
    .await;
    // Headers that never end: the connection is closed.
    let tcp = TcpStream::connect(running.addr).await.unwrap();
    let mut slow = connector(&running.ca)
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .unwrap();
    slow.write_all(b"POST /validate HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let mut out = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut out)).await;
    assert!(read.is_ok(), "the slow connection was not closed");
    // A body that never arrives: 408.
    let tcp = TcpStream::connect(running.addr).await.unwrap();
    let mut slow = connector(&running.ca)
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .unwrap();
    slow.write_all(b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        .await
        .unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut out)).await;
    assert_eq!(parse(&out).0, 408);
    // A TCP connection that never starts TLS does not hold anything up either.
    let _idle = TcpStream::connect(running.addr).await.unwrap();
    assert_eq!(send(&running, "GET", "/healthz", b"").await.0, 200);
    running.stop().await;
}

#[tokio::test]
async fn a_client_that_does_not_trust_the_certificate_fails_the_handshake() {
    let running = start("unknown-ca", None, |_| {}).await;
    let other = authority().0.pem();
    let tcp = TcpStream::connect(running.addr).await.unwrap();
    let refused = connector(&other)
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await;
    assert!(refused.is_err());
    // Plain HTTP on the TLS port: closed, no crash.
    let mut plain = TcpStream::connect(running.addr).await.unwrap();
    plain
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), plain.read_to_end(&mut out)).await;
    assert!(!String::from_utf8_lossy(&out).contains("200 OK"));
    assert_eq!(send(&running, "GET", "/healthz", b"").await.0, 200);
    let (_, metrics) = send(&running, "GET", "/metrics", b"").await;
    assert!(
        metrics.contains("ra2_errors_total{reason=\"tls_handshake\"}"),
        "{metrics}"
    );
    running.stop().await;
}

#[tokio::test]
async fn shutdown_finishes_the_request_in_flight() {
    let running = start("drain", None, |_| {}).await;
    // A request whose body is still arriving when shutdown starts.
    let tcp = TcpStream::connect(running.addr).await.unwrap();
    let mut tls = connector(&running.ca)
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .unwrap();
    let body = review("drain", "CREATE", &privileged_pod()).to_string();
    let head = format!(
        "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    tls.write_all(head.as_bytes()).await.unwrap();
    tls.write_all(&body.as_bytes()[..10]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let Running {
        addr, stop, done, dir, ..
    } = running;
    stop.unwrap().send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    // No new connections once draining.
    assert!(TcpStream::connect(addr).await.is_err());
    tls.write_all(&body.as_bytes()[10..]).await.unwrap();
    let mut out = Vec::new();
    let _ = tls.read_to_end(&mut out).await;
    let (status, text) = parse(&out);
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("\"uid\":\"drain\""), "{text}");
    tokio::time::timeout(Duration::from_secs(10), done)
        .await
        .unwrap()
        .unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
