//! A waPC host for the built ra2 policy (wasmtime through `wasmtime-provider`, the engine
//! Kubewarden's policy-server uses), and where the tests and the benchmark find the artefacts.
//!
//! Paths come from the environment when set (`RA2_POLICY_WASM`, `RA2_WEB_PKG`, `RA2_BIN`),
//! else from the layout `scripts/build-wasm` and `cargo build` leave.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{Value, json};
use wapc::WapcHost;
use wasmtime_provider::{WasmtimeEngineProviderBuilder, WasmtimeEngineProviderPre};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// The policy `scripts/build-wasm` builds.
pub fn policy_path() -> PathBuf {
    env_path("RA2_POLICY_WASM").unwrap_or_else(|| root().join("ra2-wasm/dist/policy.wasm"))
}

/// The npm package `scripts/build-wasm` builds.
pub fn web_pkg() -> PathBuf {
    env_path("RA2_WEB_PKG").unwrap_or_else(|| root().join("ra2-wasm/pkg"))
}

/// The `ra2` binary: `RA2_BIN`, else the debug build in the cargo target directory.
pub fn ra2_bin() -> PathBuf {
    env_path("RA2_BIN").unwrap_or_else(|| {
        let target = env_path("CARGO_TARGET_DIR").unwrap_or_else(|| root().join("target"));
        target.join("debug").join("ra2")
    })
}

/// Reads an artefact, or fails with how to build it.
pub fn read_artefact(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; build the wasm artefacts first with scripts/build-wasm",
            path.display()
        )
    })
}

/// One instance of the policy in a waPC host.
pub struct Policy {
    host: WapcHost,
}

/// Compiles a policy module once; instances are then cheap, as in policy-server.
pub fn compile(module: &[u8]) -> Result<WasmtimeEngineProviderPre, String> {
    WasmtimeEngineProviderBuilder::new()
        .module_bytes(module)
        .build_pre()
        .map_err(|e| format!("cannot compile the policy: {e}"))
}

impl Policy {
    /// A fresh instance of the built policy (compiled once per process: a debug build of
    /// cranelift takes seconds over it).
    pub fn load() -> Policy {
        static COMPILED: OnceLock<Result<WasmtimeEngineProviderPre, String>> = OnceLock::new();
        let compiled = COMPILED.get_or_init(|| compile(&read_artefact(&policy_path())));
        compiled
            .as_ref()
            .map_err(Clone::clone)
            .and_then(Policy::instantiate)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Instantiates a compiled policy the way policy-server does: WASI with nothing granted,
    /// and a host callback that refuses every host capability (ra2 asks for none).
    pub fn instantiate(compiled: &WasmtimeEngineProviderPre) -> Result<Policy, String> {
        let engine = compiled
            .rehydrate(None)
            .map_err(|e| format!("cannot instantiate the policy: {e}"))?;
        let refuse = |_id: u64, binding: &str, namespace: &str, operation: &str, _payload: &[u8]| {
            Err(format!("host capability {binding}/{namespace}/{operation} is not offered").into())
        };
        let host = WapcHost::new(Box::new(engine), Some(Box::new(refuse))).map_err(|e| format!("waPC host: {e}"))?;
        Ok(Policy { host })
    }

    /// Calls a waPC operation.
    pub fn call(&self, operation: &str, payload: &[u8]) -> Result<Vec<u8>, String> {
        self.host.call(operation, payload).map_err(|e| e.to_string())
    }

    /// `validate` on a ValidationRequest; the ValidationResponse as JSON.
    pub fn validate(&self, request: &Value) -> Value {
        self.call_json("validate", &serde_json::to_vec(request).unwrap_or_default())
    }

    /// `validate_settings`; the answer as JSON.
    pub fn validate_settings(&self, settings: &Value) -> Value {
        self.call_json("validate_settings", &serde_json::to_vec(settings).unwrap_or_default())
    }

    /// Calls an operation and reads its answer as JSON, failing the test on anything else.
    pub fn call_json(&self, operation: &str, payload: &[u8]) -> Value {
        let out = self
            .call(operation, payload)
            .unwrap_or_else(|e| panic!("{operation} failed in the guest: {e}"));
        serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{operation} answered with non-JSON ({e}): {out:?}"))
    }
}

/// The Kubewarden ValidationRequest for an AdmissionReview: its request and the settings.
pub fn validation_request(review: &Value, settings: &Value) -> Value {
    json!({"request": review.get("request").cloned().unwrap_or(Value::Null), "settings": settings})
}

/// A module compiled once and instantiated afresh for every request, as Kubewarden's
/// policy-server runs policies (`WasmtimeEngineProviderPre::rehydrate` per evaluation, so no
/// state survives from one request to the next).
pub struct FreshPerRequest {
    compiled: WasmtimeEngineProviderPre,
}

impl FreshPerRequest {
    pub fn new(module: &[u8]) -> Result<FreshPerRequest, String> {
        compile(module).map(|compiled| FreshPerRequest { compiled })
    }

    /// One evaluation in a new instance, which is dropped afterwards.
    pub fn call(&self, operation: &str, payload: &[u8]) -> Result<Vec<u8>, String> {
        Policy::instantiate(&self.compiled)?.call(operation, payload)
    }

    /// A new instance, with no evaluation: what [`FreshPerRequest::call`] pays before the
    /// guest runs.
    pub fn instantiate(&self) -> Result<Policy, String> {
        Policy::instantiate(&self.compiled)
    }
}

/// The floor guest (`host-tests/floor`: parse the request JSON, accept), built for
/// wasm32-wasip1 in release, as the policy is; returns the module's path.
pub fn build_floor_guest() -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = dir.join("target/floor");
    let status = std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "build",
            "--quiet",
            "--locked",
            "--release",
            "--target",
            "wasm32-wasip1",
            "--manifest-path",
        ])
        .arg(dir.join("floor/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .status()
        .map_err(|e| format!("cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building the floor guest failed ({status})"));
    }
    Ok(target.join("wasm32-wasip1/release/ra2_floor_guest.wasm"))
}

/// The objects of a YAML or JSON text, the way the API server would hand them over (`List`
/// items one by one; unreadable documents left out).
pub fn objects(text: &str) -> Vec<Value> {
    let (text, bom) = ra2_core::source::strip_bom(text);
    let mut out = Vec::new();
    for chunk in ra2_core::source::chunks(text, bom, 0) {
        let Ok(value) = ra2_core::yaml_to_json(chunk.text) else {
            continue;
        };
        let is_list = value["kind"].as_str().is_some_and(|k| k.ends_with("List")) && value["items"].is_array();
        if is_list {
            out.extend(value["items"].as_array().into_iter().flatten().cloned());
        } else if !value.is_null() {
            out.push(value);
        }
    }
    out
}

/// An AdmissionReview that creates `object`.
pub fn create_review(object: &Value) -> Value {
    let (group, version) = match object["apiVersion"].as_str().unwrap_or_default().rsplit_once('/') {
        Some((group, version)) => (group.to_owned(), version.to_owned()),
        None => (
            String::new(),
            object["apiVersion"].as_str().unwrap_or_default().to_owned(),
        ),
    };
    json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
        "uid": "ra2", "operation": "CREATE",
        "namespace": object["metadata"]["namespace"].as_str().unwrap_or("default"),
        "name": object["metadata"]["name"],
        "kind": {"group": group, "version": version, "kind": object["kind"]},
        "object": object,
    }})
}

/// A Deployment the size of a big CNF: 24 containers with env, mounts, probes and resources,
/// and as many volumes, some of them hostPath.
pub fn large_deployment() -> Value {
    let containers: Vec<Value> = (0..24)
        .map(|i| {
            json!({
                "name": format!("worker-{i}"),
                "image": format!("registry.example.com/cnf/worker:{i}.0.0"),
                "imagePullPolicy": "IfNotPresent",
                "args": ["--config=/etc/worker/config.yaml", "--log-level=info", format!("--shard={i}")],
                "env": (0..20).map(|e| json!({"name": format!("WORKER_SETTING_{e}"), "value": format!("value-{i}-{e}")})).collect::<Vec<_>>(),
                "ports": [{"name": "metrics", "containerPort": 9000 + i, "protocol": "TCP"}],
                "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}, "limits": {"cpu": "1", "memory": "1Gi"}},
                "livenessProbe": {"httpGet": {"path": "/healthz", "port": 9000 + i}, "periodSeconds": 10},
                "readinessProbe": {"httpGet": {"path": "/ready", "port": 9000 + i}, "periodSeconds": 5},
                "securityContext": {"runAsNonRoot": true, "runAsUser": 10001, "readOnlyRootFilesystem": true,
                                    "allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}},
                "volumeMounts": [
                    {"name": format!("config-{i}"), "mountPath": "/etc/worker"},
                    {"name": format!("data-{i}"), "mountPath": "/var/lib/worker"},
                    {"name": "logs", "mountPath": "/var/log/worker"},
                ],
            })
        })
        .collect();
    let mut volumes: Vec<Value> = (0..24)
        .flat_map(|i| {
            [
                json!({"name": format!("config-{i}"), "configMap": {"name": format!("worker-{i}")}}),
                json!({"name": format!("data-{i}"), "emptyDir": {}}),
            ]
        })
        .collect();
    volumes.push(json!({"name": "logs", "hostPath": {"path": "/var/log/cnf", "type": "DirectoryOrCreate"}}));
    json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
        "uid": "bench", "operation": "CREATE", "namespace": "core", "name": "workers",
        "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
        "resource": {"group": "apps", "version": "v1", "resource": "deployments"},
        "object": {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "workers", "namespace": "core", "labels": {"app": "workers"}},
                   "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "workers"}},
                            "template": {"metadata": {"labels": {"app": "workers"},
                                                      "annotations": {"k8s.v1.cni.cncf.io/networks": "core/n3, core/n6"}},
                                         "spec": {"containers": containers, "volumes": volumes,
                                                  "nodeSelector": {"feature.node.kubernetes.io/cpu-cpuid.AVX512F": "true"}}}}}}})
}

/// The `rule pointer` a `rule pointer: message` line starts with.
pub fn rule_and_pointer(line: &str) -> String {
    // Pointers escape `/` and `~` only, so the first `: ` after the rule id ends the pointer
    // unless a map key in it contains `: `; the fixtures have none.
    line.split_once(": ").map_or(line, |(head, _)| head).to_owned()
}
