//! `ra2 audit`: the RA2 verdict of a live cluster. Reads the cluster through its API, read
//! only (list with pagination, no watch), with the user's kubeconfig: nodes, the workloads of
//! every namespace, NetworkAttachmentDefinitions, CSIDrivers and StorageClasses; adds the
//! kubelet configuration files given with `--kubelet-config` and any manifests named on the
//! command line (kubeadm configuration, say); and lints it all in one run, reported like
//! `ra2 lint` in every output format.
//!
//! Each resource list becomes one input file, `<server>/<path>` (for example
//! `https://10.0.0.1:6443/api/v1/nodes`), holding one `kind: List` JSON document per page of
//! the listing, with each item's `apiVersion` and `kind` set and `metadata.managedFields` left
//! out, as `kubectl get -o json` prints it; findings point at the object (kind, namespace, name, JSON pointer) and at the line
//! of that text. Objects that a listed workload controls (the ReplicaSets of a Deployment, the
//! pods of any listed controller, the Jobs of a CronJob) are not read twice; mirror pods of
//! static pods (owned by their Node) are kept, as they carry the control plane's command lines.
//!
//! The HTTP client is ureq (blocking, rustls), already in the dependency graph for the test
//! harness; a client for a handful of GETs does not need an async runtime or the kube-rs
//! stack. The kubeconfig reader supports what kubeconfigs written by kubeadm, kind and most
//! installers use: a server, its CA (file or data, or insecure-skip-tls-verify), and a bearer
//! token (inline or file), a client certificate and key (files or data), or an exec credential
//! plugin (`client.authentication.k8s.io/v1` or `v1beta1`, see [`exec`]). Several files in
//! `$KUBECONFIG` are merged as kubectl merges them. Auth-provider plugins (removed from kubectl
//! in 1.26) are refused with a message.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use ra2_run::{EXIT_ERROR, warn};

use crate::cli::AuditArgs;

mod exec;

/// What `ra2 audit` lists: (apiVersion, kind, path). A resource the server does not serve (a
/// CRD that is not installed) is skipped.
const RESOURCES: &[(&str, &str, &str)] = &[
    ("v1", "Node", "/api/v1/nodes"),
    ("v1", "Pod", "/api/v1/pods"),
    ("apps/v1", "Deployment", "/apis/apps/v1/deployments"),
    ("apps/v1", "StatefulSet", "/apis/apps/v1/statefulsets"),
    ("apps/v1", "DaemonSet", "/apis/apps/v1/daemonsets"),
    ("apps/v1", "ReplicaSet", "/apis/apps/v1/replicasets"),
    ("batch/v1", "Job", "/apis/batch/v1/jobs"),
    ("batch/v1", "CronJob", "/apis/batch/v1/cronjobs"),
    (
        "k8s.cni.cncf.io/v1",
        "NetworkAttachmentDefinition",
        "/apis/k8s.cni.cncf.io/v1/network-attachment-definitions",
    ),
    ("storage.k8s.io/v1", "CSIDriver", "/apis/storage.k8s.io/v1/csidrivers"),
    (
        "storage.k8s.io/v1",
        "StorageClass",
        "/apis/storage.k8s.io/v1/storageclasses",
    ),
    // For ra2.k8s.020: cert-manager objects without cert-manager (skipped where not served).
    (
        "cert-manager.io/v1",
        "Certificate",
        "/apis/cert-manager.io/v1/certificates",
    ),
    ("cert-manager.io/v1", "Issuer", "/apis/cert-manager.io/v1/issuers"),
    (
        "cert-manager.io/v1",
        "ClusterIssuer",
        "/apis/cert-manager.io/v1/clusterissuers",
    ),
];

/// Kinds whose controlled objects are read through them.
const LISTED_CONTROLLERS: &[&str] = &["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"];

/// How to reach the cluster, from the kubeconfig.
#[derive(Debug)]
pub struct Access {
    pub server: String,
    pub ca_pem: Option<Vec<u8>>,
    pub insecure: bool,
    pub token: Option<String>,
    /// Client certificate chain and key, PEM.
    pub client: Option<(Vec<u8>, Vec<u8>)>,
}

/// `ra2 audit`.
pub fn run(args: &AuditArgs) -> u8 {
    if args.lint.post_render || args.lint.kustomize {
        warn(&["error: ra2 audit takes neither --post-render nor --kustomize".to_owned()]);
        return EXIT_ERROR;
    }
    if args.lint.fix || args.lint.diff || args.lint.unsafe_fixes {
        // A cluster's objects are not files to rewrite; the findings still carry their fixes.
        warn(&[
            "error: ra2 audit reads a cluster and fixes nothing: --fix, --unsafe-fixes and --diff are for ra2 lint"
                .to_owned(),
        ]);
        return EXIT_ERROR;
    }
    let options = args.lint.options();
    let config = match ra2_run::settings::load(&options) {
        Ok(config) => config,
        Err(lines) => {
            warn(&lines);
            return EXIT_ERROR;
        }
    };
    let access = match kubeconfig_paths(args.kubeconfig.as_deref())
        .and_then(|paths| read_kubeconfig(&paths, args.context.as_deref()))
    {
        Ok(access) => access,
        Err(why) => {
            warn(&[format!("error: {why}")]);
            return EXIT_ERROR;
        }
    };
    let files = match fetch(&access, args.page_size, args.configz) {
        Ok((files, notes)) => {
            warn(&notes.iter().map(|n| format!("note: {n}")).collect::<Vec<_>>());
            files
        }
        Err(why) => {
            warn(&[format!("error: {why}")]);
            return EXIT_ERROR;
        }
    };
    // The uid of each listed object, for the policy reports' subjects.
    let uids = options
        .format
        .report_api()
        .is_some()
        .then(|| ra2_run::policyreport::uids(&files));
    // The listings, then the kubelet configuration files and manifests named.
    let mut paths = args.kubelet_config.clone();
    paths.extend(args.lint.paths.iter().cloned());
    let inputs = ra2_run::Inputs {
        texts: files,
        problems: Vec::new(),
        paths: (!paths.is_empty()).then_some(paths),
        uids,
        fixed: None,
    };
    ra2_run::run(&options, &config, inputs)
}

/// The kubeconfig files to read: `--kubeconfig` alone, else every file of `$KUBECONFIG` that
/// exists (kubectl skips missing ones), else `~/.kube/config`.
fn kubeconfig_paths(given: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    if let Some(path) = given {
        return Ok(vec![path.to_owned()]);
    }
    if let Some(list) = std::env::var_os("KUBECONFIG") {
        let mut paths: Vec<PathBuf> = Vec::new();
        for path in std::env::split_paths(&list).filter(|p| !p.as_os_str().is_empty()) {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        if !paths.is_empty() {
            let existing: Vec<PathBuf> = paths.iter().filter(|p| p.exists()).cloned().collect();
            if existing.is_empty() {
                return Err(format!(
                    "none of the KUBECONFIG files exists ({})",
                    paths
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            return Ok(existing);
        }
    }
    std::env::var_os("HOME")
        .map(|home| vec![Path::new(&home).join(".kube").join("config")])
        .ok_or_else(|| "no kubeconfig: give --kubeconfig, or set KUBECONFIG or HOME".to_owned())
}

/// Kubeconfig files merged as kubectl merges `$KUBECONFIG`: the first file that sets
/// `current-context` wins, and so does the first file that names a cluster, user or context;
/// relative paths in an entry are relative to the file the entry comes from.
struct Kubeconfigs {
    /// Each file, its directory and its content, in order.
    files: Vec<(PathBuf, Value)>,
}

impl Kubeconfigs {
    fn read(paths: &[PathBuf]) -> Result<Kubeconfigs, String> {
        let mut files = Vec::new();
        for path in paths {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read kubeconfig {}: {e}", path.display()))?;
            let config =
                ra2_core::yaml_to_json(&text).map_err(|e| format!("kubeconfig {}: {}", path.display(), e.message))?;
            let config = if config.is_null() {
                Value::Object(serde_json::Map::new())
            } else {
                config
            };
            if !config.is_object() {
                return Err(format!("kubeconfig {}: not a mapping", path.display()));
            }
            files.push((path.clone(), config));
        }
        Ok(Kubeconfigs { files })
    }

    /// What the files are called in messages.
    fn describe(&self) -> String {
        let names: Vec<String> = self.files.iter().map(|(p, _)| p.display().to_string()).collect();
        format!("kubeconfig {}", names.join(":"))
    }

    fn current_context(&self) -> Option<&str> {
        self.files.iter().find_map(|(_, c)| {
            c.get("current-context")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        })
    }

    /// The named entry of a list (`clusters`, `users`, `contexts`) from the first file that has
    /// it, and the directory of that file.
    fn entry(&self, list: &str, name: &str, inner: &str) -> Option<(&Value, &Path)> {
        self.files.iter().find_map(|(path, config)| {
            let value = config
                .get(list)?
                .as_array()?
                .iter()
                .find(|e| e.get("name").and_then(Value::as_str) == Some(name))?
                .get(inner)?;
            Some((value, path.parent().unwrap_or(Path::new("."))))
        })
    }
}

/// Reads the current (or the given) context of the kubeconfig files, merged as kubectl merges
/// them, running the user's exec credential plugin if it has one.
pub fn read_kubeconfig(paths: &[PathBuf], context: Option<&str>) -> Result<Access, String> {
    let configs = Kubeconfigs::read(paths)?;
    let what = |s: &str| format!("{}: {s}", configs.describe());
    let context_name = context
        .or_else(|| configs.current_context())
        .map(str::to_owned)
        .ok_or_else(|| what("no current-context; give --context"))?;
    let (context, _) = configs
        .entry("contexts", &context_name, "context")
        .ok_or_else(|| what(&format!("no context named {context_name:?}")))?;
    let cluster_name = context.get("cluster").and_then(Value::as_str).unwrap_or_default();
    let (cluster, cluster_dir) = configs
        .entry("clusters", cluster_name, "cluster")
        .ok_or_else(|| what(&format!("no cluster named {cluster_name:?}")))?;
    let user_name = context.get("user").and_then(Value::as_str).unwrap_or_default();
    let empty = Value::Object(serde_json::Map::new());
    let (user, user_dir) = configs
        .entry("users", user_name, "user")
        .unwrap_or((&empty, Path::new(".")));
    if user.get("auth-provider").is_some() {
        return Err(what(&format!(
            "user {user_name:?} authenticates through an auth-provider plugin (removed from kubectl in Kubernetes 1.26), which ra2 audit does not run; use an exec plugin, a token or a client certificate"
        )));
    }
    let string = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let file = |base: &Path, name: &str| {
        let p = Path::new(name);
        let p = if p.is_absolute() { p.to_owned() } else { base.join(p) };
        std::fs::read(&p).map_err(|e| what(&format!("cannot read {}: {e}", p.display())))
    };
    let data_or_file = |v: &Value, base: &Path, data: &str, name: &str| -> Result<Option<Vec<u8>>, String> {
        if let Some(encoded) = string(v, data) {
            return base64_decode(&encoded)
                .map(Some)
                .ok_or_else(|| what(&format!("{data} is not base64")));
        }
        string(v, name).map(|n| file(base, &n)).transpose()
    };
    let server = string(cluster, "server").ok_or_else(|| what(&format!("cluster {cluster_name:?} has no server")))?;
    let ca_pem = data_or_file(
        cluster,
        cluster_dir,
        "certificate-authority-data",
        "certificate-authority",
    )?;
    let insecure = cluster
        .get("insecure-skip-tls-verify")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut token = match (string(user, "token"), string(user, "tokenFile")) {
        (Some(token), _) => Some(token),
        (None, Some(name)) => Some(String::from_utf8_lossy(&file(user_dir, &name)?).trim().to_owned()),
        (None, None) => None,
    };
    let cert = data_or_file(user, user_dir, "client-certificate-data", "client-certificate")?;
    let key = data_or_file(user, user_dir, "client-key-data", "client-key")?;
    let mut client = cert.zip(key);
    if let Some(exec) = user.get("exec") {
        let info = ClusterInfo {
            server: &server,
            ca_pem: ca_pem.as_deref(),
            insecure,
            exec_config: cluster
                .get("extensions")
                .and_then(Value::as_array)
                .and_then(|e| {
                    e.iter()
                        .find(|x| x.get("name").and_then(Value::as_str) == Some("client.authentication.k8s.io/exec"))
                })
                .and_then(|x| x.get("extension")),
        };
        let credential = exec::run(exec, user_dir, &info).map_err(|e| what(&format!("user {user_name:?}: {e}")))?;
        if credential.token.is_some() {
            token = credential.token;
        }
        if credential.client.is_some() {
            client = credential.client;
        }
    }
    Ok(Access {
        server: server.trim_end_matches('/').to_owned(),
        ca_pem,
        insecure,
        token,
        client,
    })
}

/// What an exec plugin may be told about the cluster (`provideClusterInfo`).
pub struct ClusterInfo<'a> {
    pub server: &'a str,
    pub ca_pem: Option<&'a [u8]>,
    pub insecure: bool,
    /// The cluster's `client.authentication.k8s.io/exec` extension, passed on as
    /// `spec.cluster.config`.
    pub exec_config: Option<&'a Value>,
}

/// Standard base64 (padding optional, line breaks ignored), as kubeconfig `*-data` fields
/// hold it.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    LENIENT.decode(compact).ok()
}

/// Percent-encodes a query value (continue tokens are base64).
fn query_escape(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn agent(access: &Access) -> Result<ureq::Agent, String> {
    let mut tls = ureq::tls::TlsConfig::builder().disable_verification(access.insecure);
    if let Some(pem) = &access.ca_pem {
        let roots: Vec<ureq::tls::Certificate<'static>> = ureq::tls::parse_pem(pem)
            .filter_map(|item| match item {
                Ok(ureq::tls::PemItem::Certificate(cert)) => Some(cert),
                _ => None,
            })
            .collect();
        if roots.is_empty() {
            return Err("the kubeconfig's certificate authority holds no PEM certificate".to_owned());
        }
        tls = tls.root_certs(ureq::tls::RootCerts::Specific(Arc::new(roots)));
    }
    if let Some((cert, key)) = &access.client {
        let chain: Vec<ureq::tls::Certificate<'static>> = ureq::tls::parse_pem(cert)
            .filter_map(|item| match item {
                Ok(ureq::tls::PemItem::Certificate(cert)) => Some(cert),
                _ => None,
            })
            .collect();
        let key = ureq::tls::PrivateKey::from_pem(key).map_err(|e| format!("client key: {e}"))?;
        tls = tls.client_cert(Some(ureq::tls::ClientCert::new_with_certs(&chain, key)));
    }
    Ok(ureq::Agent::config_builder()
        .tls_config(tls.build())
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into())
}

/// GETs one page.
fn get(agent: &ureq::Agent, access: &Access, url: &str) -> Result<(u16, String), String> {
    let mut request = agent.get(url).header("Accept", "application/json");
    if let Some(token) = &access.token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let mut response = request.call().map_err(|e| format!("GET {url}: {e}"))?;
    let status = response.status().as_u16();
    let body = response
        .body_mut()
        .with_config()
        .limit(u64::MAX)
        .read_to_string()
        .map_err(|e| format!("GET {url}: {e}"))?;
    Ok((status, body))
}

/// Lists every object of a resource, page by page (the pages as the server cut them); `None`
/// when the server does not serve it.
fn list(agent: &ureq::Agent, access: &Access, path: &str, page_size: u32) -> Result<Option<Vec<Vec<Value>>>, String> {
    let mut pages = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let mut url = format!("{}{path}?limit={page_size}", access.server);
        if let Some(token) = &token {
            url.push_str("&continue=");
            url.push_str(&query_escape(token));
        }
        let (status, body) = get(agent, access, &url)?;
        if status == 404 && pages.is_empty() {
            return Ok(None);
        }
        if status != 200 {
            let message = serde_json::from_str::<Value>(&body)
                .ok()
                .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or(body);
            return Err(format!("GET {url}: HTTP {status}: {message}"));
        }
        let mut page: Value = serde_json::from_str(&body).map_err(|e| format!("GET {url}: not JSON: {e}"))?;
        if let Some(Value::Array(items)) = page.get_mut("items").map(Value::take) {
            pages.push(items);
        }
        token = page
            .pointer("/metadata/continue")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_owned);
        if token.is_none() {
            return Ok(Some(pages));
        }
    }
}

/// Is the object controlled by a workload that `ra2 audit` lists itself?
fn controlled(object: &Value) -> bool {
    object
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .is_some_and(|owners| {
            owners.iter().any(|o| {
                o.get("controller").and_then(Value::as_bool) == Some(true)
                    && o.get("kind")
                        .and_then(Value::as_str)
                        .is_some_and(|k| LISTED_CONTROLLERS.contains(&k))
            })
        })
}

/// Sets `apiVersion` and `kind` first (as `kubectl get` prints them) and drops
/// `metadata.managedFields` (which `kubectl get` hides).
fn typed(mut item: Value, api_version: &str, kind: &str) -> Value {
    let Some(object) = item.as_object_mut() else {
        return item;
    };
    let mut typed = serde_json::Map::new();
    typed.insert("apiVersion".to_owned(), Value::from(api_version));
    typed.insert("kind".to_owned(), Value::from(kind));
    if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
        metadata.remove("managedFields");
    }
    typed.extend(std::mem::take(object));
    Value::Object(typed)
}

/// The inputs read from the cluster, `(name, text)`, and notes for the user.
pub type Fetched = (Vec<(String, String)>, Vec<String>);

/// Reads the cluster: one `(name, text)` input per resource that has objects. Each page of the
/// listing is one `kind: List` document of the input (pages separated by `---`), so that no
/// document grows with the cluster beyond the page size (and the document size limit holds
/// for any cluster). With `configz`, one more input per node whose kubelet answers
/// ([`configz_document`]); the second value is notes for the user (nodes skipped, and why).
pub fn fetch(access: &Access, page_size: u32, configz: bool) -> Result<Fetched, String> {
    let agent = agent(access)?;
    let mut files = Vec::new();
    let mut node_names: Vec<String> = Vec::new();
    for &(api_version, kind, path) in RESOURCES {
        let Some(pages) = list(&agent, access, path, page_size)? else {
            continue;
        };
        if kind == "Node" {
            node_names.extend(
                pages
                    .iter()
                    .flatten()
                    .filter_map(|n| n.pointer("/metadata/name").and_then(Value::as_str).map(str::to_owned)),
            );
        }
        let mut text = String::new();
        for page in pages {
            let items: Vec<Value> = page
                .into_iter()
                .filter(|item| !controlled(item))
                .map(|item| typed(item, api_version, kind))
                .collect();
            if items.is_empty() {
                continue;
            }
            if !text.is_empty() {
                text.push_str("\n---\n");
            }
            let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
            text.push_str(&serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?);
        }
        if !text.is_empty() {
            text.push('\n');
            files.push((format!("{}{path}", access.server), text));
        }
    }
    let mut notes = Vec::new();
    if configz {
        for node in &node_names {
            let path = format!("/api/v1/nodes/{}/proxy/configz", query_escape(node));
            let url = format!("{}{path}", access.server);
            let (status, body) = match get(&agent, access, &url) {
                Ok(answer) => answer,
                Err(why) => {
                    notes.push(format!("configz of node {node}: {why}"));
                    continue;
                }
            };
            if status == 403 {
                notes.push(
                    "configz: the API server refuses the node proxy (HTTP 403; it needs get on nodes/proxy), so no node's kubelet configuration was read"
                        .to_owned(),
                );
                break;
            }
            if status != 200 {
                let first = body.lines().next().unwrap_or_default();
                notes.push(format!("configz of node {node}: HTTP {status}: {first}"));
                continue;
            }
            match configz_document(&body) {
                Ok(text) => files.push((url, text)),
                Err(why) => notes.push(format!("configz of node {node}: {why}")),
            }
        }
    }
    Ok((files, notes))
}

/// The kubelet's `/configz` answer (`{"kubeletconfig": {...}}`, the running configuration in
/// the `kubelet.config.k8s.io/v1beta1` field names) as a `KubeletConfiguration` document.
pub fn configz_document(body: &str) -> Result<String, String> {
    let value: Value = serde_json::from_str(body).map_err(|e| format!("not JSON: {e}"))?;
    let Some(Value::Object(config)) = value.get("kubeletconfig") else {
        return Err("no kubeletconfig object in the answer".to_owned());
    };
    let mut document = serde_json::Map::new();
    document.insert("apiVersion".to_owned(), Value::from("kubelet.config.k8s.io/v1beta1"));
    document.insert("kind".to_owned(), Value::from("KubeletConfiguration"));
    for (key, field) in config {
        if key != "apiVersion" && key != "kind" {
            document.insert(key.clone(), field.clone());
        }
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(document)).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_of_kubeconfig_data() {
        assert_eq!(base64_decode("aGVsbG8gd29ybGQ=").unwrap(), b"hello world");
        assert_eq!(base64_decode("aGVsbG8\n gd29ybGQ").unwrap(), b"hello world");
        assert!(base64_decode("a*b").is_none());
    }

    /// The configz parser path (a kubelet is needed to test the fetch itself).
    #[test]
    fn configz_answer_becomes_a_kubelet_configuration() {
        let body = r#"{"kubeletconfig":{"enableServer":true,"cpuManagerPolicy":"static","topologyManagerPolicy":"single-numa-node","reservedSystemCPUs":"0-1","featureGates":{"PodLevelResources":true}}}"#;
        let text = configz_document(body).unwrap();
        let config = ra2_core::Config::default();
        let report = ra2_core::lint_str("configz", &text, &config);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        // Read as a kubelet configuration: its alpha gate is judged.
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.rule == "ra2.k8s.012" && f.check == "alpha-feature-gate"),
            "{:?}",
            report.findings
        );
        assert!(configz_document("{}").is_err());
        assert!(configz_document("<html>").is_err());
        assert!(configz_document(r#"{"kubeletconfig": []}"#).is_err());
    }

    #[test]
    fn continue_tokens_are_escaped() {
        assert_eq!(query_escape("eyJ2Ijoi+/="), "eyJ2Ijoi%2B%2F%3D");
    }

    #[test]
    fn controlled_objects_are_skipped_but_mirror_pods_kept() {
        let replica =
            serde_json::json!({"metadata": {"ownerReferences": [{"kind": "ReplicaSet", "controller": true}]}});
        let mirror = serde_json::json!({"metadata": {"ownerReferences": [{"kind": "Node", "controller": true}]}});
        assert!(controlled(&replica));
        assert!(!controlled(&mirror));
    }

    /// Two files as `KUBECONFIG=a:b` names them: the first to set a name or the current context
    /// wins, and each entry's relative paths are relative to its own file.
    #[test]
    fn kubeconfig_files_merge_as_kubectl_merges_them() {
        let dir = std::env::temp_dir().join(format!("ra2-audit-merge-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::create_dir_all(dir.join("b")).unwrap();
        std::fs::write(dir.join("a/ca.crt"), "CA of a").unwrap();
        std::fs::write(dir.join("b/token"), "token of b").unwrap();
        std::fs::write(
            dir.join("a/config"),
            "apiVersion: v1\nkind: Config\ncurrent-context: edge\nclusters:\n- name: edge\n  cluster: {server: 'https://10.0.0.1:6443', certificate-authority: ca.crt}\ncontexts:\n- name: edge\n  context: {cluster: edge, user: ops}\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("b/config"),
            "apiVersion: v1\nkind: Config\ncurrent-context: other\nclusters:\n- name: edge\n  cluster: {server: 'https://10.9.9.9:6443'}\nusers:\n- name: ops\n  user: {tokenFile: token}\ncontexts:\n- name: other\n  context: {cluster: edge, user: ops}\n",
        )
        .unwrap();
        let paths = [dir.join("a/config"), dir.join("b/config")];
        let access = read_kubeconfig(&paths, None).unwrap();
        assert_eq!(access.server, "https://10.0.0.1:6443");
        assert_eq!(access.ca_pem.as_deref(), Some(&b"CA of a"[..]));
        assert_eq!(access.token.as_deref(), Some("token of b"));
        // The other order: b's current context and b's cluster win.
        let access = read_kubeconfig(&[dir.join("b/config"), dir.join("a/config")], None).unwrap();
        assert_eq!(access.server, "https://10.9.9.9:6443");
        assert_eq!(access.ca_pem, None);
        // A user that no file defines: anonymous, as kubectl would be.
        let access = read_kubeconfig(&paths[..1], None).unwrap();
        assert_eq!(access.token, None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn kubeconfig_with_token_file_and_relative_ca() {
        let dir = std::env::temp_dir().join(format!("ra2-audit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("ca.crt"), "CA").unwrap();
        std::fs::write(dir.join("token"), "s3cret\n").unwrap();
        std::fs::write(
            dir.join("config"),
            "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: c\n  cluster: {server: 'https://127.0.0.1:6443/', certificate-authority: ca.crt}\nusers:\n- name: u\n  user: {tokenFile: token}\n- name: e\n  user: {auth-provider: {name: gcp}}\ncontexts:\n- name: a\n  context: {cluster: c, user: u}\n- name: b\n  context: {cluster: c, user: e}\n",
        )
        .unwrap();
        let access = read_kubeconfig(&[dir.join("config")], None).unwrap();
        assert_eq!(access.server, "https://127.0.0.1:6443");
        assert_eq!(access.ca_pem.as_deref(), Some(&b"CA"[..]));
        assert_eq!(access.token.as_deref(), Some("s3cret"));
        let refused = read_kubeconfig(&[dir.join("config")], Some("b")).unwrap_err();
        assert!(refused.contains("auth-provider"), "{refused}");
        assert!(read_kubeconfig(&[dir.join("config")], Some("nope")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
