//! ra2-core: lint Kubernetes manifests against the Anuket Reference Architecture 2 (RA2).
//!
//! No I/O and no threads: the same code runs in the CLI, in WebAssembly and in Python.
//! Text goes in, a [`Report`] comes out:
//!
//! ```
//! let config = ra2_core::Config::default();
//! let report = ra2_core::lint_str("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: [{name: h, hostPath: {path: /var/lib/x}}]\n  containers: [{name: a, image: r/a:1.0}]\n", &config);
//! let finding = report.findings.iter().find(|f| f.rule == "ra2.app.007").unwrap();
//! assert_eq!((finding.line, finding.column), (5, 23));
//! ```
#![forbid(unsafe_code)]
// Input must never crash the library: no unwrap, expect, panic or unchecked indexing outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

pub mod admission;
pub mod api_versions;
pub mod bundle;
pub mod catalogue;
pub mod config;
pub mod danm;
pub mod data;
pub mod devices;
pub mod doc;
pub mod feature_gates;
pub mod hook;
mod json;
pub mod lint;
pub mod list;
pub mod manifest;
pub mod model;
pub mod multus;
pub mod nad;
pub mod names;
pub mod nfd;
pub mod platform;
pub mod profile;
pub mod quantity;
pub mod report;
pub mod resources;
pub mod rules;
pub mod scalar;
pub mod schema;
pub mod settings;
pub mod source;
pub mod storage;
pub mod view;
pub mod words;

pub use catalogue::Edition;
pub use config::{Config, ConfigError, FailOn};
pub use hook::{HookContext, ObjectHook};
pub use lint::Linter;
pub use report::{Finding, LintError, ObjectRef, Report, Severity, TemplateLocation};

/// Lints one file's text.
pub fn lint_str(file: &str, text: &str, config: &Config) -> Report {
    let mut linter = Linter::new(config);
    linter.add_file(file, text);
    linter.finish()
}

/// Converts a single YAML document to JSON the way sigs.k8s.io/yaml does.
pub fn yaml_to_json(text: &str) -> Result<serde_json::Value, doc::DocError> {
    let (text, bom) = source::strip_bom(text);
    let chunk = source::Chunk {
        text,
        offset: bom,
        line: 0,
    };
    let result = doc::read_chunk(chunk, false, doc::Limits::default());
    if let Some(e) = result.error {
        return Err(e);
    }
    Ok(result
        .docs
        .first()
        .map_or(serde_json::Value::Null, |d| view::Located::root(d).to_json()))
}
