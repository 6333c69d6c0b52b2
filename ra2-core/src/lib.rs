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
// Crate-private unless lib.rs re-exports it, so the compiler sees dead code.
#![warn(unreachable_pub)]
// Input must never crash the library: no unwrap, expect, panic or unchecked indexing outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

// The modules follow the flow of a lint, stage by stage; a stage imports only the ones above it:
//   parse     text -> spanned document trees (source, doc, json, scalar, list, view)
//   k8s       Kubernetes semantics: names, quantities, devices, API versions, feature gates
//   telco     Multus, DANM, NetworkAttachmentDefinitions, Node Feature Discovery
//   model     trees -> Kubernetes objects and their pod specs, effective resources, volumes and
//             claims; the platform the input describes (nodes, control plane, kubelets);
//             cross-document facts (bundle)
//   rules     the rules, one file per rule (or family); platform_*: the chapter-4 checks
//   lint      objects -> rules -> findings; object hooks
//   fix       findings' fixes applied to the text, each checked by linting the result
//   admission an AdmissionReview (or Kubewarden's ValidationRequest) in, the answer and its verdict
//             out: the one entry serve, the policy, JS and Python decide through
//   report    findings and the report, the fix model rules build (fix); how messages name
//             values (words)
//   catalogue the rule catalogue compiled in (data: the compiled-in tables)
//   config    `.ra2.yaml` and every face's settings
//   export    the checks for other engines (ValidatingAdmissionPolicies)
// The public API is what lib.rs re-exports below; everything else is crate-private.
pub mod admission;
pub mod catalogue;
pub mod config;
mod data;
pub mod export;
pub mod fix;
mod k8s;
pub mod lint;
pub mod model;
mod parse;
pub mod report;
pub mod rules;
mod telco;

pub use catalogue::Edition;
pub use config::settings;
pub use config::{Config, ConfigError, FailOn};
pub use k8s::{devices, names, quantity};
pub use lint::Linter;
pub use lint::hook::{HookContext, ObjectHook};
pub use model::platform::{flags, runtime_config};
pub use model::{manifest, resources};

pub use parse::{doc, list, scalar, source, view};
pub use report::words;
pub use report::{Finding, LintError, ObjectRef, Report, Severity, TemplateLocation, Waiver, WaiverSource};

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
