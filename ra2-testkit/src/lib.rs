//! A real Kubernetes API server for the end-to-end tests: etcd and kube-apiserver, built from
//! their Go modules by `scripts/apiserver-tools`, started on loopback with certificates made
//! for the run, and stopped when the [`Cluster`] is dropped.
//!
//! ```no_run
//! let Some(cluster) = ra2_testkit::Cluster::start_or_skip("my_test") else { return };
//! let verdict = cluster.dry_run(&serde_json::json!({
//!     "apiVersion": "v1", "kind": "Pod",
//!     "metadata": {"name": "p", "namespace": "default"},
//!     "spec": {"containers": [{"name": "c", "image": "busybox"}]},
//! }));
//! assert!(verdict.accepted, "{}", verdict.message);
//! ```
//!
//! Finding the tools: `RA2_KUBE_APISERVER`, `RA2_ETCD` and `RA2_KUBECTL` when set (what
//! `scripts/test` exports), else whatever `scripts/apiserver-tools --cached` has already
//! built. Without them [`Cluster::start_or_skip`] prints why the test is skipped and returns
//! `None` — unless `RA2_REQUIRE_APISERVER=1` (set by `scripts/test`), which turns the skip into a
//! failure so CI can never pass by skipping.
//!
//! A test harness panics on purpose: every failure to set up is a test failure, with the
//! processes' logs in the message.
#![allow(clippy::missing_panics_doc)]

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};
use serde_json::Value;

/// The API server's version (the one `scripts/apiserver-tools` builds).
pub const KUBERNETES_VERSION: &str = "v1.33.13";
/// How long the cluster may take to become ready.
const READY_TIMEOUT: Duration = Duration::from_secs(90);
/// The bearer token of the cluster's administrator (group `system:masters`).
const ADMIN_TOKEN: &str = "ra2-testkit-admin-token";

/// The three programs a cluster needs.
#[derive(Clone, Debug)]
pub struct Tools {
    pub kube_apiserver: PathBuf,
    pub etcd: PathBuf,
    pub kubectl: PathBuf,
}

impl Tools {
    /// The tools from the environment, else from the build cache; `Err` says why not.
    pub fn find() -> Result<Tools, String> {
        let from_env = |name: &str| std::env::var_os(name).map(PathBuf::from);
        let mut found: HashMap<String, PathBuf> = HashMap::new();
        for name in ["RA2_KUBE_APISERVER", "RA2_ETCD", "RA2_KUBECTL"] {
            if let Some(path) = from_env(name) {
                found.insert(name.to_owned(), path);
            }
        }
        if found.len() < 3 {
            let script = workspace_root().join("scripts/apiserver-tools");
            let out = Command::new(&script)
                .arg("--cached")
                .stderr(Stdio::piped())
                .output()
                .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                if let Some((name, path)) = line.split_once('=') {
                    found.entry(name.to_owned()).or_insert_with(|| PathBuf::from(path));
                }
            }
            if found.len() < 3 {
                let why = String::from_utf8_lossy(&out.stderr).trim().to_owned();
                return Err(if why.is_empty() {
                    "kube-apiserver, etcd and kubectl not found (run scripts/apiserver-tools)".to_owned()
                } else {
                    why
                });
            }
        }
        let take = |name: &str| found.get(name).cloned().unwrap_or_default();
        let tools = Tools {
            kube_apiserver: take("RA2_KUBE_APISERVER"),
            etcd: take("RA2_ETCD"),
            kubectl: take("RA2_KUBECTL"),
        };
        for path in [&tools.kube_apiserver, &tools.etcd, &tools.kubectl] {
            if !path.is_file() {
                return Err(format!("{} does not exist", path.display()));
            }
        }
        Ok(tools)
    }
}

/// The repository root (this crate's parent directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// A free TCP port on 127.0.0.1 (free when asked; the caller binds it right after).
pub fn free_port() -> u16 {
    match TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).and_then(|l| l.local_addr()) {
        Ok(address) => address.port(),
        Err(e) => panic!("no free loopback port: {e}"),
    }
}

/// A certificate authority made for one run, which can issue serving certificates.
pub struct Authority {
    key: KeyPair,
    cert: rcgen::Certificate,
}

impl Authority {
    /// A new self-signed CA named `name`.
    pub fn new(name: &str) -> Authority {
        let key = KeyPair::generate().unwrap_or_else(|e| panic!("CA key: {e}"));
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap_or_else(|e| panic!("{e}"));
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let cert = params
            .self_signed(&key)
            .unwrap_or_else(|e| panic!("CA certificate: {e}"));
        Authority { key, cert }
    }

    /// The CA certificate, PEM.
    pub fn cert_pem(&self) -> String {
        self.cert.pem()
    }

    /// A serving certificate for 127.0.0.1, ::1 and localhost: `(certificate PEM, key PEM)`.
    pub fn issue(&self, common_name: &str) -> (String, String) {
        let key = KeyPair::generate().unwrap_or_else(|e| panic!("key: {e}"));
        let mut params = CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()])
            .unwrap_or_else(|e| panic!("{e}"));
        params.distinguished_name.push(DnType::CommonName, common_name);
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
        let cert = params
            .signed_by(&key, &self.cert, &self.key)
            .unwrap_or_else(|e| panic!("certificate: {e}"));
        (cert.pem(), key.serialize_pem())
    }
}

/// A running process the cluster owns, killed on drop.
struct Owned {
    name: &'static str,
    child: Mutex<Child>,
    log: PathBuf,
}

impl Owned {
    /// Whether the process has exited.
    fn exited(&self) -> bool {
        let mut child = self.child.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        !matches!(child.try_wait(), Ok(None))
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        let child = self.child.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// The API server's answer to a request.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// 2xx.
    pub accepted: bool,
    /// The HTTP status.
    pub status: u16,
    /// The Status message of a refusal (empty when accepted).
    pub message: String,
    /// The `Warning` headers' texts.
    pub warnings: Vec<String>,
    /// The response body as JSON (the object when accepted, the Status when refused).
    pub body: Value,
}

/// What `kubectl` did.
#[derive(Clone, Debug)]
pub struct Output {
    pub success: bool,
    pub stdout: String,
    pub stderr: String,
}

/// A resource the API server serves.
#[derive(Clone, Debug)]
struct Resource {
    /// `/api/v1` or `/apis/group/version`.
    prefix: String,
    plural: String,
    namespaced: bool,
}

/// (apiVersion, kind) → where it is served.
type Resources = HashMap<(String, String), Resource>;

/// etcd and kube-apiserver on loopback, with an admin credential and a kubeconfig.
pub struct Cluster {
    /// `https://127.0.0.1:PORT`.
    pub url: String,
    /// The cluster CA (signs the API server's certificate).
    pub authority: Authority,
    /// How long etcd + kube-apiserver took to become ready.
    pub startup: Duration,
    tools: Tools,
    dir: TempDir,
    agent: ureq::Agent,
    resources: Mutex<Option<Arc<Resources>>>,
    apiserver: Owned,
    etcd: Owned,
}

impl Cluster {
    /// Starts a cluster, or prints why `test` is skipped and returns `None` when the tools are
    /// not built (a failure instead when `RA2_REQUIRE_APISERVER=1`).
    pub fn start_or_skip(test: &str) -> Option<Cluster> {
        match Tools::find() {
            Ok(tools) => Some(Cluster::start(&tools)),
            Err(why) => {
                assert!(
                    std::env::var("RA2_REQUIRE_APISERVER").as_deref() != Ok("1"),
                    "{test}: RA2_REQUIRE_APISERVER=1 but {why}"
                );
                eprintln!("SKIPPED {test}: no real API server ({why})");
                None
            }
        }
    }

    /// Starts etcd and kube-apiserver with `tools` and waits until the API server is ready.
    /// Panics (with the processes' logs) when it cannot. A port taken between [`free_port`]
    /// finding it and a server binding it (another test's server, or a connection's ephemeral
    /// port) starts both again on new ports, a few times.
    pub fn start(tools: &Tools) -> Cluster {
        const ATTEMPTS: usize = 4;
        let mut attempt = 1;
        loop {
            match Cluster::launch(tools) {
                Ok(cluster) => return cluster,
                Err(why) if attempt < ATTEMPTS && why.contains("address already in use") => {
                    eprintln!("cluster: a port was taken before its server bound it; starting again on new ports");
                    attempt += 1;
                }
                Err(why) => panic!("cluster: {why}"),
            }
        }
    }

    /// [`Cluster::start`]'s one attempt: `Err` with why and the processes' logs.
    fn launch(tools: &Tools) -> Result<Cluster, String> {
        let begun = Instant::now();
        let dir = TempDir::new("ra2-cluster");
        let path = |name: &str| dir.path().join(name);
        let authority = Authority::new("ra2-testkit-ca");
        let (cert, key) = authority.issue("kube-apiserver");
        write(&path("ca.crt"), &authority.cert_pem());
        write(&path("apiserver.crt"), &cert);
        write(&path("apiserver.key"), &key);
        let sa_key = KeyPair::generate().unwrap_or_else(|e| panic!("service account key: {e}"));
        write(&path("sa.key"), &sa_key.serialize_pem());
        write(&path("sa.pub"), &sa_key.public_key_pem());
        write(
            &path("tokens.csv"),
            &format!("{ADMIN_TOKEN},admin,admin-uid,system:masters\n"),
        );

        let client_port = free_port();
        let peer_port = free_port();
        let etcd_url = format!("http://127.0.0.1:{client_port}");
        let peer_url = format!("http://127.0.0.1:{peer_port}");
        let etcd = spawn(
            "etcd",
            &tools.etcd,
            &[
                "--name=ra2".to_owned(),
                format!("--data-dir={}", path("etcd").display()),
                format!("--listen-client-urls={etcd_url}"),
                format!("--advertise-client-urls={etcd_url}"),
                format!("--listen-peer-urls={peer_url}"),
                format!("--initial-advertise-peer-urls={peer_url}"),
                format!("--initial-cluster=ra2={peer_url}"),
                "--log-level=warn".to_owned(),
                // A test cluster: no fsync per write.
                "--unsafe-no-fsync".to_owned(),
            ],
            &path("etcd.log"),
        );

        let port = free_port();
        let url = format!("https://127.0.0.1:{port}");
        let apiserver = spawn(
            "kube-apiserver",
            &tools.kube_apiserver,
            &[
                format!("--etcd-servers={etcd_url}"),
                "--bind-address=127.0.0.1".to_owned(),
                "--advertise-address=127.0.0.1".to_owned(),
                format!("--secure-port={port}"),
                format!("--tls-cert-file={}", path("apiserver.crt").display()),
                format!("--tls-private-key-file={}", path("apiserver.key").display()),
                format!("--token-auth-file={}", path("tokens.csv").display()),
                format!("--service-account-key-file={}", path("sa.pub").display()),
                format!("--service-account-signing-key-file={}", path("sa.key").display()),
                "--service-account-issuer=https://kubernetes.default.svc".to_owned(),
                "--service-cluster-ip-range=10.0.0.0/24".to_owned(),
                "--authorization-mode=RBAC".to_owned(),
                "--allow-privileged=true".to_owned(),
                // No controller manager creates each namespace's `default` ServiceAccount.
                "--disable-admission-plugins=ServiceAccount".to_owned(),
                format!("--cert-dir={}", path("certs").display()),
                // RA2_APISERVER_PROFILING=1 serves /debug/pprof (a benchmark's CPU profile).
                format!(
                    "--profiling={}",
                    std::env::var("RA2_APISERVER_PROFILING").as_deref() == Ok("1")
                ),
                "--v=1".to_owned(),
            ],
            &path("apiserver.log"),
        );

        let agent = agent(&authority.cert_pem());

        let cluster = Cluster {
            url,
            authority,
            startup: Duration::ZERO,
            tools: tools.clone(),
            dir,
            agent,
            resources: Mutex::new(None),
            apiserver,
            etcd,
        };
        cluster.write_kubeconfig();
        let startup = cluster.wait_ready(begun)?;
        Ok(Cluster { startup, ..cluster })
    }

    fn wait_ready(&self, begun: Instant) -> Result<Duration, String> {
        let mut last = String::new();
        while begun.elapsed() < READY_TIMEOUT {
            for owned in [&self.etcd, &self.apiserver] {
                // A process that exited will never get ready.
                if owned.exited() {
                    return Err(self.failure(&format!("{} exited", owned.name)));
                }
            }
            match self.get("/readyz") {
                Ok((200, _)) => return Ok(begun.elapsed()),
                Ok((status, body)) => last = format!("/readyz {status}: {body}"),
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(self.failure(&format!("not ready after {READY_TIMEOUT:?}: {last}")))
    }

    /// `why`, with the tails of both processes' logs.
    fn failure(&self, why: &str) -> String {
        let mut logs = String::new();
        for owned in [&self.etcd, &self.apiserver] {
            let text = std::fs::read_to_string(&owned.log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(30).collect();
            let _ = write!(logs, "\n--- {} ({}) ---\n", owned.name, owned.log.display());
            for line in tail.iter().rev() {
                logs.push_str(line);
                logs.push('\n');
            }
        }
        format!("{why}{logs}")
    }

    fn write_kubeconfig(&self) {
        let config = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: ra2\n  cluster:\n    server: {}\n    \
             certificate-authority: {}\nusers:\n- name: admin\n  user:\n    token: {ADMIN_TOKEN}\n\
             contexts:\n- name: ra2\n  context:\n    cluster: ra2\n    user: admin\n\
             current-context: ra2\n",
            self.url,
            self.dir.path().join("ca.crt").display()
        );
        write(&self.kubeconfig(), &config);
    }

    /// A kubeconfig for the administrator.
    pub fn kubeconfig(&self) -> PathBuf {
        self.dir.path().join("kubeconfig")
    }

    /// A scratch directory that lives as long as the cluster.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The cluster CA certificate file.
    pub fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.crt")
    }

    /// Why the API server exited, from its log: the Go runtime's `fatal error:` or `panic:` and
    /// the lines after it (kube-apiserver before 1.36 can die of a data race in its CEL type
    /// provider when it compiles a policy's variables while evaluating another request,
    /// kubernetes/kubernetes#135757),
    /// else the log's last lines.
    fn apiserver_exit(&self) -> String {
        let log = self.apiserver_log();
        let lines: Vec<&str> = log.lines().collect();
        let start = lines
            .iter()
            .position(|l| l.starts_with("fatal error:") || l.starts_with("panic:"))
            .unwrap_or(lines.len().saturating_sub(40));
        let excerpt = lines
            .iter()
            .skip(start)
            .take(40)
            .copied()
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "; its log ({}) from line {}:\n{excerpt}",
            self.apiserver.log.display(),
            start + 1
        )
    }

    /// The logs of the API server so far (for failure messages).
    pub fn apiserver_log(&self) -> String {
        std::fs::read_to_string(&self.apiserver.log).unwrap_or_default()
    }

    /// Runs kubectl against the cluster with `args`, feeding `stdin` when given.
    pub fn kubectl(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut command = Command::new(&self.tools.kubectl);
        command
            .arg(format!("--kubeconfig={}", self.kubeconfig().display()))
            .args(args)
            .env("HOME", self.dir.path())
            .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", self.tools.kubectl.display()));
        if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
            pipe.write_all(text.as_bytes())
                .unwrap_or_else(|e| panic!("kubectl stdin: {e}"));
        }
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("kubectl: {e}"));
        Output {
            success: out.status.success(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Creates a namespace (no-op when it exists).
    pub fn create_namespace(&self, name: &str) {
        let verdict = self.create(
            &serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}),
            false,
        );
        assert!(
            verdict.accepted || verdict.status == 409,
            "cannot create namespace {name}: {} {}",
            verdict.status,
            verdict.message
        );
    }

    /// The median time of 200 server-side dry runs of `object` (after 20 to warm up): what
    /// admission costs a request, compared across ways of enforcing (none, ValidatingAdmission-
    /// Policies, a webhook) on the same object.
    pub fn median_dry_run(&self, object: &Value) -> Duration {
        let mut times: Vec<Duration> = (0..220)
            .map(|_| {
                let started = Instant::now();
                self.dry_run(object);
                started.elapsed()
            })
            .skip(20)
            .collect();
        times.sort();
        times[times.len() / 2]
    }

    /// Sends `object` to the API server as a dry-run create (`?dryRun=All`, with
    /// `fieldValidation=Strict`): the API server's own validation and admission, webhooks
    /// included, run, and nothing is stored. A namespaced object without a namespace goes to
    /// `default`.
    pub fn dry_run(&self, object: &Value) -> Verdict {
        self.send(object, true, "Strict")
    }

    /// Creates `object` for real (`dry_run` false) or as a dry run.
    pub fn create(&self, object: &Value, dry_run: bool) -> Verdict {
        self.send(object, dry_run, "Strict")
    }

    /// Sends `object` with the given `fieldValidation` (`Strict`, `Warn` or `Ignore`).
    pub fn send(&self, object: &Value, dry_run: bool, field_validation: &str) -> Verdict {
        let api_version = object.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
        let kind = object.get("kind").and_then(Value::as_str).unwrap_or_default();
        // A kind its group version does not have (`kind: deployment` in apps/v1): kubectl finds
        // no resource for it ("no matches for kind"). When the group version has the kind in
        // another case, the object goes to that resource, for the API server's own verdict.
        let resource = self
            .resource(api_version, kind)
            .or_else(|| self.resource_ignoring_case(api_version, kind));
        let Some(resource) = resource else {
            // Lists (`kind: List`, `DeploymentList`) are split by kubectl, not sent.
            if self.serves(api_version) && !kind.ends_with("List") {
                return Verdict {
                    accepted: false,
                    status: 404,
                    message: format!("no matches for kind {kind:?} in version {api_version:?} (kubectl)"),
                    warnings: Vec::new(),
                    body: serde_json::json!({"reason": "NoKindMatch"}),
                };
            }
            return Verdict {
                accepted: false,
                status: 404,
                message: format!("the API server serves no kind {kind:?} in {api_version:?}"),
                warnings: Vec::new(),
                body: Value::Null,
            };
        };
        let mut path = resource.prefix.clone();
        if resource.namespaced {
            let namespace = object
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .filter(|n| !n.is_empty())
                .unwrap_or("default");
            let _ = write!(path, "/namespaces/{namespace}");
        }
        let _ = write!(path, "/{}?fieldValidation={field_validation}", resource.plural);
        if dry_run {
            path.push_str("&dryRun=All");
        }
        let body = serde_json::to_vec(object).unwrap_or_default();
        // kube-apiserver may close or reset connections under a request ("peer closed
        // connection without sending TLS close_notify", "connection reset by peer"), at times
        // several in a row on a loaded machine: ureq retries only idempotent methods, so the
        // request is sent again on a fresh connection, waiting longer each time (0.2 s,
        // doubling: about 6 s in all). A dry run stores nothing; a real create may have been
        // stored before the connection dropped, so a retry's AlreadyExists is that create's
        // success (the objects the tests create are their own and named).
        let attempts: u32 = 6;
        let mut attempt = 0;
        let (status, warnings, text) = loop {
            attempt += 1;
            match self.post_once(&path, &body) {
                Ok((409, _, text)) if attempt > 1 && !dry_run && text.contains("\"AlreadyExists\"") => {
                    eprintln!("POST {path}: stored by the attempt whose connection dropped");
                    break (201, Vec::new(), text);
                }
                Ok(answer) => break answer,
                // A kube-apiserver that has exited will not answer again: say why it exited.
                Err(e) if self.apiserver.exited() => {
                    panic!("POST {path}: {e}: kube-apiserver has exited{}", self.apiserver_exit())
                }
                Err(e) if attempt < attempts => {
                    eprintln!("POST {path}: {e}; sending it again (attempt {attempt} of {attempts})");
                    std::thread::sleep(Duration::from_millis(100 << attempt));
                }
                Err(e) => panic!("POST {path}: {e} (after {attempt} attempts)"),
            }
        };
        let body: Value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        let accepted = (200..300).contains(&status);
        let message = if accepted {
            String::new()
        } else {
            body.get("message")
                .and_then(Value::as_str)
                .map_or_else(|| body.to_string(), ToOwned::to_owned)
        };
        Verdict {
            accepted,
            status,
            message,
            warnings,
            body,
        }
    }

    /// One POST of `body` to `path`: status, warnings and body text, or the transport error
    /// (the connection failed or closed before the whole answer was read).
    fn post_once(&self, path: &str, body: &[u8]) -> Result<(u16, Vec<String>, String), ureq::Error> {
        let mut response = self
            .agent
            .post(format!("{}{path}", self.url))
            .header("Authorization", format!("Bearer {ADMIN_TOKEN}"))
            .header("Content-Type", "application/json")
            .send(body)?;
        let status = response.status().as_u16();
        let warnings = response
            .headers()
            .get_all("warning")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(warning_text)
            .collect();
        let text = response.body_mut().read_to_string()?;
        Ok((status, warnings, text))
    }

    /// Registers [`webhook_configuration`]: what ra2 judges goes to `url`, trusting `ca_pem`.
    pub fn register_webhook(&self, name: &str, url: &str, ca_pem: &str, failure_policy: &str) {
        let config = webhook_configuration(name, url, ca_pem, failure_policy);
        let verdict = self.create(&config, false);
        assert!(
            verdict.accepted,
            "cannot register webhook {name}: {} {}",
            verdict.status, verdict.message
        );
    }

    /// GET `path` as the administrator: `(status, body)`.
    pub fn get(&self, path: &str) -> Result<(u16, String), String> {
        let mut response = self
            .agent
            .get(format!("{}{path}", self.url))
            .header("Authorization", format!("Bearer {ADMIN_TOKEN}"))
            .call()
            .map_err(|e| format!("GET {path}: {e}"))?;
        let status = response.status().as_u16();
        let body = response.body_mut().read_to_string().unwrap_or_default();
        Ok((status, body))
    }

    fn get_json(&self, path: &str) -> Value {
        match self.get(path) {
            Ok((200, body)) => serde_json::from_str(&body).unwrap_or(Value::Null),
            Ok((status, body)) => panic!("GET {path}: {status} {body}"),
            Err(e) => panic!("{e}"),
        }
    }

    /// Where the API server serves `kind` of `api_version` (discovery, read once).
    fn resource(&self, api_version: &str, kind: &str) -> Option<Resource> {
        let mut cached = self.resources.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let map = cached.get_or_insert_with(|| Arc::new(self.discover())).clone();
        drop(cached);
        map.get(&(api_version.to_owned(), kind.to_owned())).cloned()
    }

    /// The resource of a kind that differs from `kind` only in case, in the same group version.
    fn resource_ignoring_case(&self, api_version: &str, kind: &str) -> Option<Resource> {
        let map = self.resources_map();
        map.iter()
            .find(|((v, k), _)| v == api_version && k.eq_ignore_ascii_case(kind))
            .map(|(_, r)| r.clone())
    }

    /// Does the API server serve this group version (any kind of it)?
    pub fn serves(&self, api_version: &str) -> bool {
        self.resources_map().keys().any(|(v, _)| v == api_version)
    }

    fn resources_map(&self) -> Arc<Resources> {
        let mut cached = self.resources.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cached.get_or_insert_with(|| Arc::new(self.discover())).clone()
    }

    fn discover(&self) -> Resources {
        let mut map = HashMap::new();
        let mut versions = vec![("v1".to_owned(), "/api/v1".to_owned())];
        let groups = self.get_json("/apis");
        for group in groups.get("groups").and_then(Value::as_array).into_iter().flatten() {
            for version in group.get("versions").and_then(Value::as_array).into_iter().flatten() {
                if let Some(gv) = version.get("groupVersion").and_then(Value::as_str) {
                    versions.push((gv.to_owned(), format!("/apis/{gv}")));
                }
            }
        }
        for (group_version, prefix) in versions {
            let list = self.get_json(&prefix);
            for r in list.get("resources").and_then(Value::as_array).into_iter().flatten() {
                let (Some(plural), Some(kind)) = (
                    r.get("name").and_then(Value::as_str),
                    r.get("kind").and_then(Value::as_str),
                ) else {
                    continue;
                };
                if plural.contains('/') {
                    continue;
                }
                map.insert(
                    (group_version.clone(), kind.to_owned()),
                    Resource {
                        prefix: prefix.clone(),
                        plural: plural.to_owned(),
                        namespaced: r.get("namespaced").and_then(Value::as_bool).unwrap_or(false),
                    },
                );
            }
        }
        map
    }
}

/// GET `url` over HTTPS trusting only `ca_pem`: `(status, body)`.
pub fn https_get(url: &str, ca_pem: &str) -> Result<(u16, String), String> {
    let agent = agent(ca_pem);
    let mut response = agent.get(url).call().map_err(|e| format!("GET {url}: {e}"))?;
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().unwrap_or_default();
    Ok((status, body))
}

/// POST `body` as JSON to `url` over HTTPS trusting only `ca_pem`: `(status, body)`.
pub fn https_post(url: &str, ca_pem: &str, body: &str) -> Result<(u16, String), String> {
    let agent = agent(ca_pem);
    let mut response = agent
        .post(url)
        .header("Content-Type", "application/json")
        .send(body)
        .map_err(|e| format!("POST {url}: {e}"))?;
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().unwrap_or_default();
    Ok((status, body))
}

/// A blocking HTTPS client trusting only `ca_pem`, with HTTP errors as answers.
fn agent(ca_pem: &str) -> ureq::Agent {
    let roots = vec![
        ureq::tls::Certificate::from_pem(ca_pem.as_bytes())
            .unwrap_or_else(|e| panic!("CA certificate: {e}"))
            .to_owned(),
    ];
    let tls = ureq::tls::TlsConfig::builder()
        .root_certs(ureq::tls::RootCerts::Specific(Arc::new(roots)))
        .build();
    ureq::Agent::config_builder()
        .tls_config(tls)
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// A ValidatingWebhookConfiguration that sends what ra2 judges (the resources and operations
/// of `ra2-wasm/metadata.yml`) to `url`.
pub fn webhook_configuration(name: &str, url: &str, ca_pem: &str, failure_policy: &str) -> Value {
    let ca_bundle = base64(ca_pem.as_bytes());
    serde_json::json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingWebhookConfiguration",
        "metadata": {"name": name},
        "webhooks": [{
            "name": format!("{name}.ra2.dev"),
            "clientConfig": {"url": url, "caBundle": ca_bundle},
            "rules": [
                {"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"],
                 "resources": ["pods", "podtemplates", "replicationcontrollers", "persistentvolumes"]},
                {"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"],
                 "resources": ["deployments", "replicasets", "statefulsets", "daemonsets"]},
                {"apiGroups": ["batch"], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"],
                 "resources": ["jobs", "cronjobs"]},
                {"apiGroups": ["apps.openshift.io"], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"],
                 "resources": ["deploymentconfigs"]},
                {"apiGroups": ["argoproj.io"], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"],
                 "resources": ["rollouts"]},
                {"apiGroups": ["serving.knative.dev"], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"],
                 "resources": ["services", "configurations"]},
            ],
            "sideEffects": "None",
            "admissionReviewVersions": ["v1"],
            "failurePolicy": failure_policy,
            "timeoutSeconds": 5,
            "namespaceSelector": {"matchExpressions": [{
                "key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["kube-system"],
            }]},
        }],
    })
}

/// The text of a `Warning` header (`299 - "text"`).
fn warning_text(header: &str) -> String {
    let rest = header.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
    let rest = rest.strip_prefix('-').unwrap_or(rest).trim_start();
    rest.strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .map_or_else(|| header.to_owned(), |r| r.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

fn spawn(name: &'static str, program: &Path, args: &[String], log: &Path) -> Owned {
    let file = std::fs::File::create(log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
    let err = file.try_clone().unwrap_or_else(|e| panic!("{}: {e}", log.display()));
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    Owned {
        name,
        child: Mutex::new(child),
        log: log.to_path_buf(),
    }
}

/// A directory removed on drop (kept when `RA2_KEEP_TMP=1`, for debugging).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(prefix: &str) -> TempDir {
        static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!("{prefix}-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var("RA2_KEEP_TMP").as_deref() != Ok("1") {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Reads a whole file as text (test helper).
pub fn read(path: &Path) -> String {
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_string(&mut text))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

/// A typical Pod that RA2 admits in both editions, with warnings at most (non-root ids,
/// read-only root, limits, probes), in `namespace`: the object the admission latency
/// comparisons send.
pub fn typical_pod(namespace: &str) -> Value {
    serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "canary", "namespace": namespace},
        "spec": {
            "containers": [{"name": "c", "image": "registry.example/app:1.0",
                "securityContext": {"runAsUser": 10001, "runAsGroup": 10001, "readOnlyRootFilesystem": true},
                "resources": {"limits": {"cpu": "1", "memory": "1Gi"}},
                "livenessProbe": {"tcpSocket": {"port": 80}}, "readinessProbe": {"tcpSocket": {"port": 80}}}]
        }
    })
}
