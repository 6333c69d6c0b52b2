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

/// The `rule pointer` a `rule pointer: message` line starts with.
pub fn rule_and_pointer(line: &str) -> String {
    // Pointers escape `/` and `~` only, so the first `: ` after the rule id ends the pointer
    // unless a map key in it contains `: `; the fixtures have none.
    line.split_once(": ").map_or(line, |(head, _)| head).to_owned()
}
