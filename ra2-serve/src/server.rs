//! The HTTPS server: accept, TLS, HTTP/1.1 with keep-alive, the routes, reloads, signals and
//! the drain on shutdown.
//!
//! Routes: `POST /validate` (an AdmissionReview in, one out, judged by
//! `ra2_core::admission::review`), `GET /healthz`, `GET /readyz`, `GET /metrics`. A body that
//! is not an AdmissionReview gets 400 with the reason; nothing a client sends stops the server.

use std::convert::Infallible;
use std::fmt::Write as _;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use ra2_core::admission;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;

use crate::limits::{BodyError, Limits, read_body};
use crate::metrics::Metrics;
use crate::settings::Settings;
use crate::tls::{Certificates, server_config};

/// How often the certificate and config files are looked at for changes.
pub const RELOAD_INTERVAL: Duration = Duration::from_secs(1);

/// What `ra2 serve` is started with.
#[derive(Clone, Debug)]
pub struct Options {
    pub listen: SocketAddr,
    pub cert: PathBuf,
    pub key: PathBuf,
    pub config: Option<PathBuf>,
    /// One JSON line per request on standard error.
    pub access_log: bool,
    pub limits: Limits,
    /// Limits on one document that replace the config file's `limits:`.
    pub document_limits: ra2_core::doc::LimitOverrides,
    pub reload_interval: Duration,
}

impl Options {
    /// Options with the default limits and reload interval.
    pub fn new(listen: SocketAddr, cert: PathBuf, key: PathBuf, config: Option<PathBuf>) -> Options {
        Options {
            listen,
            cert,
            key,
            config,
            access_log: false,
            limits: Limits::default(),
            document_limits: ra2_core::doc::LimitOverrides::default(),
            reload_interval: RELOAD_INTERVAL,
        }
    }
}

/// Everything the requests share.
#[derive(Debug)]
struct State {
    certificates: Arc<Certificates>,
    settings: Settings,
    metrics: Metrics,
    limits: Limits,
    access_log: bool,
    in_flight: Semaphore,
    ready: AtomicBool,
}

/// A bound server, not yet running.
pub struct Server {
    listener: TcpListener,
    acceptor: TlsAcceptor,
    state: Arc<State>,
    reload_interval: Duration,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

/// One line on standard error (start, reload, error).
pub fn log(message: &str) {
    eprintln!("ra2 serve: {message}");
}

impl Server {
    /// Loads the certificate and settings and binds the address. Errors are for the
    /// operator: the server does not start.
    pub async fn bind(options: &Options) -> Result<Server, String> {
        let certificates = Arc::new(Certificates::new(&options.cert, &options.key)?);
        let settings = Settings::new(options.config.as_deref(), options.document_limits)?;
        let tls = server_config(certificates.clone())?;
        let listener = TcpListener::bind(options.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
        let state = Arc::new(State {
            certificates,
            settings,
            metrics: Metrics::default(),
            limits: options.limits,
            access_log: options.access_log,
            in_flight: Semaphore::new(options.limits.max_in_flight),
            ready: AtomicBool::new(true),
        });
        Ok(Server {
            listener,
            acceptor: TlsAcceptor::from(tls),
            state,
            reload_interval: options.reload_interval,
        })
    }

    /// The bound address (the port when `:0` was asked).
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Serves until `shutdown` resolves, reloading what changed on disk and the config on
    /// each message of `reload` (SIGHUP); then stops accepting, lets in-flight requests finish
    /// (at most `limits.drain`) and returns.
    pub async fn run(self, shutdown: impl Future<Output = ()>, mut reload: tokio::sync::mpsc::Receiver<()>) {
        let Server {
            listener,
            acceptor,
            state,
            reload_interval,
        } = self;
        let config = state
            .settings
            .path()
            .map_or_else(|| "defaults".to_owned(), |p| p.display().to_string());
        let settings = state.settings.current();
        log(&format!(
            "listening on https://{} (config: {config}, edition {}, fail-on {})",
            listener.local_addr().map_or_else(|_| "?".to_owned(), |a| a.to_string()),
            settings.edition.as_str(),
            fail_on(&settings)
        ));
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut ticker = tokio::time::interval(reload_interval);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                () = &mut shutdown => break,
                _ = ticker.tick() => reload_changed(&state),
                Some(()) = reload.recv() => reload_config(&state),
                accepted = listener.accept() => match accepted {
                    Ok((tcp, peer)) => {
                        let _ = tcp.set_nodelay(true);
                        spawn_connection(tcp, peer, acceptor.clone(), state.clone(), &graceful);
                    }
                    Err(e) => {
                        // Out of file descriptors and the like: say so, wait a little, go on.
                        state.metrics.error("accept");
                        log(&format!("accept failed: {e}"));
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
            }
        }
        state.ready.store(false, Ordering::SeqCst);
        drop(listener);
        log("shutting down: draining in-flight requests");
        if tokio::time::timeout(state.limits.drain, graceful.shutdown())
            .await
            .is_err()
        {
            log(&format!(
                "drain took longer than {:?}; exiting anyway",
                state.limits.drain
            ));
        }
        log("stopped");
    }
}

fn fail_on(config: &ra2_core::Config) -> String {
    format!("{:?}", config.fail_on).to_lowercase()
}

fn reload_changed(state: &State) {
    match state.certificates.reload_if_changed() {
        None => {}
        Some(Ok(())) => {
            state.metrics.reload("certificate", "ok");
            log("reloaded the certificate");
        }
        Some(Err(e)) => {
            state.metrics.reload("certificate", "error");
            log(&format!("kept the old certificate: {e}"));
        }
    }
    if let Some(result) = state.settings.reload_if_changed() {
        config_reloaded(state, result);
    }
}

fn reload_config(state: &State) {
    match state.settings.reload() {
        None => log("SIGHUP: no config file to reload"),
        Some(result) => config_reloaded(state, result),
    }
}

fn config_reloaded(state: &State, result: Result<(), String>) {
    match result {
        Ok(()) => {
            state.metrics.reload("config", "ok");
            let c = state.settings.current();
            log(&format!(
                "reloaded the config (edition {}, fail-on {})",
                c.edition.as_str(),
                fail_on(&c)
            ));
        }
        Err(e) => {
            state.metrics.reload("config", "error");
            log(&format!("kept the old config: {e}"));
        }
    }
}

fn spawn_connection(
    tcp: tokio::net::TcpStream,
    peer: SocketAddr,
    acceptor: TlsAcceptor,
    state: Arc<State>,
    graceful: &hyper_util::server::graceful::GracefulShutdown,
) {
    let watcher = graceful.watcher();
    tokio::spawn(async move {
        let handshake = tokio::time::timeout(state.limits.handshake_timeout, acceptor.accept(tcp)).await;
        let stream = match handshake {
            Ok(Ok(stream)) => stream,
            Ok(Err(_)) => {
                state.metrics.error("tls_handshake");
                return;
            }
            Err(_) => {
                state.metrics.error("tls_handshake_timeout");
                return;
            }
        };
        let service_state = state.clone();
        let service = service_fn(move |request| {
            let state = service_state.clone();
            async move { Ok::<_, Infallible>(handle(request, peer, &state).await) }
        });
        // HTTP/2 when the client chose it by ALPN (kube-apiserver does), else HTTP/1.1.
        let h2 = stream.get_ref().1.alpn_protocol() == Some(b"h2".as_slice());
        state.metrics.connection(if h2 { "h2" } else { "http/1.1" });
        let served = if h2 {
            let mut builder = hyper::server::conn::http2::Builder::new(TokioExecutor::new());
            builder
                .timer(TokioTimer::new())
                .max_header_list_size(u32::try_from(state.limits.max_header_bytes.max(8192)).unwrap_or(u32::MAX))
                // A peer gone silent (no PING answered in the header timeout) is dropped.
                .keep_alive_interval(Some(std::time::Duration::from_secs(30)))
                .keep_alive_timeout(state.limits.header_timeout);
            watcher
                .watch(builder.serve_connection(TokioIo::new(stream), service))
                .await
        } else {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(state.limits.header_timeout)
                .max_buf_size(state.limits.max_header_bytes.max(8192))
                .keep_alive(true);
            watcher
                .watch(builder.serve_connection(TokioIo::new(stream), service))
                .await
        };
        if served.is_err() {
            // Closed mid-request, headers too slow or too long: the client's problem, counted.
            state.metrics.error("connection");
        }
    });
}

type Answer = Response<Full<Bytes>>;

fn answer(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Answer {
    let body: Bytes = body.into();
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn text(status: StatusCode, message: &str) -> Answer {
    answer(status, "text/plain; charset=utf-8", format!("{message}\n"))
}

async fn handle(request: Request<Incoming>, peer: SocketAddr, state: &State) -> Answer {
    let path = request.uri().path();
    match (request.method(), path) {
        (&Method::POST, "/validate") => validate(request, peer, state).await,
        (_, "/validate") => text(StatusCode::METHOD_NOT_ALLOWED, "POST an AdmissionReview to /validate"),
        (&Method::GET, "/healthz") => text(StatusCode::OK, "ok"),
        (&Method::GET, "/readyz") => {
            if state.ready.load(Ordering::SeqCst) {
                text(StatusCode::OK, "ready")
            } else {
                text(StatusCode::SERVICE_UNAVAILABLE, "shutting down")
            }
        }
        (&Method::GET, "/metrics") => answer(
            StatusCode::OK,
            "text/plain; version=0.0.4; charset=utf-8",
            state.metrics.render(),
        ),
        _ => text(
            StatusCode::NOT_FOUND,
            "not found: ra2 serves /validate, /healthz, /readyz and /metrics",
        ),
    }
}

/// What the access log and the metrics say about one review.
#[derive(Default)]
struct Seen {
    uid: String,
    kind: String,
    operation: String,
    verdict: &'static str,
}

async fn validate(request: Request<Incoming>, peer: SocketAddr, state: &State) -> Answer {
    let started = Instant::now();
    let _in_flight = state.metrics.start();
    let mut seen = Seen::default();
    let response = match state.in_flight.try_acquire() {
        Err(_) => {
            state.metrics.error("overloaded");
            text(StatusCode::SERVICE_UNAVAILABLE, "too many requests in flight; retry")
        }
        Ok(_permit) => {
            let judged = tokio::time::timeout(state.limits.request_timeout, judge(request, state, &mut seen)).await;
            judged.unwrap_or_else(|_| {
                state.metrics.error("timeout");
                text(StatusCode::SERVICE_UNAVAILABLE, "the request took too long")
            })
        }
    };
    let took = started.elapsed();
    if seen.verdict.is_empty() {
        state.metrics.observe(took);
    } else {
        state.metrics.request(&seen.kind, &seen.operation, seen.verdict, took);
    }
    if state.access_log {
        access_log(peer, &response, &seen, took);
    }
    response
}

async fn judge(request: Request<Incoming>, state: &State, seen: &mut Seen) -> Answer {
    let content_length = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let body = match read_body(request.into_body(), content_length, &state.limits).await {
        Ok(body) => body,
        Err(BodyError::TooLarge) => {
            state.metrics.error("body_too_large");
            return text(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!(
                    "the body is over {} bytes: not an AdmissionReview from an API server",
                    state.limits.max_body_bytes
                ),
            );
        }
        Err(BodyError::Timeout) => {
            state.metrics.error("body_timeout");
            return text(StatusCode::REQUEST_TIMEOUT, "the body did not arrive in time");
        }
        Err(BodyError::Broken(why)) => {
            state.metrics.error("bad_request");
            return text(StatusCode::BAD_REQUEST, &format!("cannot read the body: {why}"));
        }
    };
    let config = state.settings.current();
    let answered = admission::review(admission::Input::Bytes(&body), &config);
    if let Some(why) = answered.not_a_review() {
        state.metrics.error("bad_request");
        return text(StatusCode::BAD_REQUEST, &why.status_message());
    }
    *seen = Seen {
        verdict: answered.verdict.label(),
        uid: answered.uid,
        kind: answered.kind,
        operation: answered.operation,
    };
    answer(
        StatusCode::OK,
        "application/json",
        serde_json::to_vec(&answered.review).unwrap_or_default(),
    )
}

fn access_log(peer: SocketAddr, response: &Answer, seen: &Seen, took: Duration) {
    let time = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    let mut line = String::new();
    let _ = write!(
        line,
        "{}",
        serde_json::json!({
            "time": time,
            "peer": peer.to_string(),
            "path": "/validate",
            "status": response.status().as_u16(),
            "uid": seen.uid,
            "kind": seen.kind,
            "operation": seen.operation,
            "verdict": seen.verdict,
            "micros": u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
        })
    );
    eprintln!("{line}");
}

/// Runs the server on its own runtime until SIGTERM or SIGINT, reloading the config on
/// SIGHUP. Returns when drained; `Err` when it could not start.
pub fn run_until_signalled(options: &Options) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async {
        use tokio::signal::unix::{SignalKind, signal};
        let server = Server::bind(options).await?;
        let mut term = signal(SignalKind::terminate()).map_err(|e| format!("SIGTERM: {e}"))?;
        let mut int = signal(SignalKind::interrupt()).map_err(|e| format!("SIGINT: {e}"))?;
        let mut hup = signal(SignalKind::hangup()).map_err(|e| format!("SIGHUP: {e}"))?;
        let (reload_tx, reload_rx) = tokio::sync::mpsc::channel(1);
        tokio::spawn(async move {
            while hup.recv().await.is_some() {
                let _ = reload_tx.try_send(());
            }
        });
        let shutdown = async move {
            tokio::select! {
                _ = term.recv() => log("SIGTERM"),
                _ = int.recv() => log("SIGINT"),
            }
        };
        server.run(shutdown, reload_rx).await;
        Ok(())
    })
}
