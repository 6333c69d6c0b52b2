//! Strict mode for ra2: every Kubernetes object checked against the OpenAPI schema of its kind.
//!
//! Every run reports what the API server's decoder refuses (unknown fields with "did you mean",
//! values of the wrong type, unknown kinds) as `k8s.api` findings, from tables generated from
//! the same schemas (`tables.rs`, the generator of `ra2-core/src/k8s/openapi/openapi_tables.rs`).
//! Strict mode adds what only a full schema validation finds: missing required fields
//! (`schema/missing-field`, not reported when a misspelt key is the fix) and other schema
//! violations (`schema/invalid-value`), as findings of the pseudo-rule `schema`.
//!
//! The schemas come from k8s-openapi (Kubernetes 1.33) through schemars, tightened by
//! the build script (`build/prepare.rs`), and are validated with the `jsonschema` crate. Each kind's validator is
//! compiled the first time an object of that kind is seen, and reused. Kinds without a
//! built-in schema (custom resources, removed API versions) are skipped and counted in the
//! summary; NetworkAttachmentDefinitions are left to their own rules (ra2.ntw.006/016).
//!
//! ```
//! let config = ra2_core::Config::default();
//! let mut linter = ra2_core::Linter::new(&config).with_object_hook(Box::new(ra2_strict::Strict::new()));
//! linter.add_file("d.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    metadata: {labels: {app: d}}\n    spec: {containers: [{name: a, image: r/a:1}]}\n");
//! let report = linter.finish();
//! let finding = report.findings.iter().find(|f| f.rule == "schema").unwrap();
//! assert_eq!(finding.message, "missing required field \"selector\" in Deployment spec");
//! assert_eq!((finding.line, finding.column), (4, 1));
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

mod kinds;
#[cfg(test)]
#[path = "../build/prepare.rs"]
mod prepare;
mod schema;
#[cfg(test)]
mod tables;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use ra2_core::config::{SCHEMA_RULE, strsim};
use ra2_core::model::Object;
use ra2_core::{HookContext, ObjectHook, Report, Severity};
use serde_json::Value;

/// The Kubernetes version whose schemas are built in.
pub const SCHEMA_VERSION: &str = "1.33";

/// The minor version of [`SCHEMA_VERSION`].
pub const SCHEMA_MINOR: u32 = 33;

/// A note for the user when the target Kubernetes version is not the built-in schema's.
pub fn version_note(target_minor: u32) -> Option<String> {
    let effect = match target_minor.cmp(&SCHEMA_MINOR) {
        std::cmp::Ordering::Equal => return None,
        std::cmp::Ordering::Greater => format!("fields added after {SCHEMA_VERSION} are reported as unknown"),
        std::cmp::Ordering::Less => format!("fields added after 1.{target_minor} pass unreported"),
    };
    Some(format!(
        "strict mode checks against the Kubernetes {SCHEMA_VERSION} schema (the one built in), not 1.{target_minor}: {effect}"
    ))
}

/// A kind's prepared schema and its compiled validator.
struct Compiled {
    schema: Value,
    validator: Validator,
}

/// The strict-mode object hook. Validators are compiled lazily, once per kind, and shared by
/// the hooks of every thread of a run ([`ObjectHook::maker`]); skipped kinds are counted into
/// the report's summary at the end.
pub struct Strict {
    index: Arc<HashMap<(&'static str, &'static str), usize>>,
    /// Per kind: its compiled schema, or `None` if it failed to compile (never expected; the
    /// kind is then skipped).
    compiled: Arc<Vec<OnceLock<Option<Compiled>>>>,
    skipped: BTreeMap<String, usize>,
}

impl Default for Strict {
    fn default() -> Self {
        Self::new()
    }
}

impl Strict {
    pub fn new() -> Self {
        let index = kinds::KINDS
            .iter()
            .enumerate()
            .map(|(i, k)| ((k.api_version, k.kind), i))
            .collect();
        Strict {
            index: Arc::new(index),
            compiled: Arc::new(kinds::KINDS.iter().map(|_| OnceLock::new()).collect()),
            skipped: BTreeMap::new(),
        }
    }

    /// Another hook of the same run: the same validators, its own counts.
    fn sibling(&self) -> Self {
        Strict {
            index: Arc::clone(&self.index),
            compiled: Arc::clone(&self.compiled),
            skipped: BTreeMap::new(),
        }
    }

    /// The compiled schema of kind number `i`, compiling it on first use.
    fn compiled(&self, i: usize) -> Option<&Compiled> {
        self.compiled
            .get(i)?
            .get_or_init(|| {
                let builtin = kinds::KINDS.get(i)?;
                let schema = builtin.schema()?;
                let validator = jsonschema::options()
                    .with_draft(jsonschema::Draft::Draft202012)
                    .should_validate_formats(false)
                    .build(&schema)
                    .ok()?;
                Some(Compiled { schema, validator })
            })
            .as_ref()
    }
}

impl ObjectHook for Strict {
    fn check_object(&mut self, object: &Object<'_>, cx: &mut HookContext<'_>) {
        let (Some(api_version), Some(kind)) = (object.api_version, object.kind) else {
            return;
        };
        // NetworkAttachmentDefinitions have rules of their own (ra2.ntw.006/016), which read
        // the CNI configuration inside; they are neither judged here nor counted as skipped.
        if object.is("k8s.cni.cncf.io", "NetworkAttachmentDefinition") {
            return;
        }
        let compiled = match self.index.get(&(api_version, kind)).copied() {
            Some(i) => self.compiled(i),
            None => None,
        };
        let Some(compiled) = compiled else {
            *self.skipped.entry(format!("{api_version} {kind}")).or_default() += 1;
            return;
        };
        let mut instance = object.root.to_json();
        drop_nulls(&mut instance);
        let mut issues = Vec::new();
        for error in compiled.validator.iter_errors(&instance) {
            collect(&error, &mut issues);
        }
        let checker = Checker {
            object,
            kind,
            schema: &compiled.schema,
            instance: &instance,
        };
        checker.report(&issues, cx);
    }

    /// Adds the kinds skipped to the report's counts (a parallel run's forks add theirs).
    fn finish(&mut self, report: &mut Report) {
        let summary = &mut report.summary;
        *summary.strict_skipped.get_or_insert(0) += self.skipped.values().sum::<usize>();
        for (kind, count) in std::mem::take(&mut self.skipped) {
            *summary.strict_skipped_kinds.entry(kind).or_default() += count;
        }
    }

    /// A verdict depends on the object alone: every linter of a parallel run has its own
    /// hook, all sharing the validators compiled so far.
    fn maker(&self) -> Option<ra2_core::lint::hook::HookMaker> {
        let shared = self.sibling();
        Some(Arc::new(move || Box::new(shared.sibling())))
    }
}

/// Null means "not set" to the API server, wherever it is written (`creationTimestamp: null`
/// in `kubectl create --dry-run` output, an empty `resources:`), so null entries of mappings
/// are removed before validation.
fn drop_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// One schema problem, at a JSON pointer relative to the object.
#[derive(Debug)]
enum Issue {
    Unknown {
        at: String,
        name: String,
    },
    Type {
        at: String,
    },
    Required {
        at: String,
        name: String,
    },
    /// A number outside the range of the field's Go integer type.
    Range {
        at: String,
    },
    Other {
        at: String,
        message: String,
    },
}

impl Issue {
    fn at(&self) -> &str {
        match self {
            Issue::Unknown { at, .. }
            | Issue::Type { at, .. }
            | Issue::Required { at, .. }
            | Issue::Range { at }
            | Issue::Other { at, .. } => at,
        }
    }
}

/// Turns jsonschema errors into issues. For `oneOf`/`anyOf` (CRD schemas in
/// CustomResourceDefinitions), the branch whose type matched explains the problem; when no
/// branch's type matched, the problem is the type.
fn collect(error: &ValidationError<'_>, out: &mut Vec<Issue>) {
    let at = error.instance_path().as_str().to_owned();
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            out.extend(unexpected.iter().map(|name| Issue::Unknown {
                at: at.clone(),
                name: name.clone(),
            }));
        }
        ValidationErrorKind::Type { .. } => out.push(Issue::Type { at }),
        ValidationErrorKind::Minimum { .. } | ValidationErrorKind::Maximum { .. } => out.push(Issue::Range { at }),
        ValidationErrorKind::Required { property } => out.push(Issue::Required {
            at,
            name: property.as_str().unwrap_or_default().to_owned(),
        }),
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            let type_only = |branch: &Vec<ValidationError<'static>>| {
                branch
                    .iter()
                    .all(|e| matches!(e.kind(), ValidationErrorKind::Type { .. }) && e.instance_path().as_str() == at)
            };
            if let Some(branch) = context.iter().find(|b| !type_only(b)) {
                for e in branch {
                    collect(e, out);
                }
            } else {
                out.push(Issue::Type { at });
            }
        }
        _ => out.push(Issue::Other {
            at,
            message: error.to_string(),
        }),
    }
}

fn segments(pointer: &str) -> Vec<String> {
    ra2_core::view::pointer_segments(pointer).collect()
}

/// The closest allowed name: the same name in another case, or one within a few edits.
fn suggest<'a>(name: &str, allowed: &[&'a str]) -> Option<&'a str> {
    let lower = name.to_lowercase();
    if let Some(same) = allowed.iter().find(|a| a.to_lowercase() == lower) {
        return Some(same);
    }
    allowed
        .iter()
        .map(|a| (strsim(&lower, &a.to_lowercase()), *a))
        .filter(|&(d, a)| d <= (a.len() / 4).max(1))
        .min_by_key(|&(d, a)| (d, a))
        .map(|(_, a)| a)
}

fn is_identifier(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$')
}

/// Reports issues of one object.
struct Checker<'o, 'd> {
    object: &'o Object<'d>,
    kind: &'o str,
    schema: &'o Value,
    instance: &'o Value,
}

impl Checker<'_, '_> {
    /// `spec.volumes[0]`, `metadata.labels["app.kubernetes.io/name"]`; empty for the root.
    fn path_text(&self, segments: &[String]) -> String {
        let mut out = String::new();
        let mut here = Some(self.instance);
        for segment in segments {
            match here {
                Some(Value::Array(items)) => {
                    let _ = write!(out, "[{segment}]");
                    here = segment.parse::<usize>().ok().and_then(|i| items.get(i));
                }
                other => {
                    if is_identifier(segment) {
                        if !out.is_empty() {
                            out.push('.');
                        }
                        out.push_str(segment);
                    } else {
                        let _ = write!(out, "[{segment:?}]");
                    }
                    here = other.and_then(|o| o.get(segment));
                }
            }
        }
        out
    }

    /// `Pod spec.volumes[0]`, or `Pod` for the object itself.
    fn place_text(&self, segments: &[String]) -> String {
        let path = self.path_text(segments);
        if path.is_empty() {
            self.kind.to_owned()
        } else {
            format!("{} {path}", self.kind)
        }
    }

    fn report(&self, issues: &[Issue], cx: &mut HookContext<'_>) {
        // A misspelt required field is reported once, as the unknown field with its fix.
        let mut renamed: Vec<(&str, &str)> = Vec::new();
        let mut findings = Vec::new();
        for issue in issues {
            if let Issue::Unknown { at, name } = issue {
                let segs = segments(at);
                let allowed = schema::property_names(self.schema, &segs);
                let suggestion = suggest(name, &allowed);
                if let Some(s) = suggestion {
                    renamed.push((at.as_str(), s));
                }
                findings.push((issue, suggestion));
            } else {
                findings.push((issue, None));
            }
        }
        for (issue, _) in findings {
            let segs = segments(issue.at());
            let Some(node) = self.object.root.at_pointer(issue.at()) else {
                continue;
            };
            match issue {
                // Unknown fields and values of the wrong type are refusals every run reports,
                // as k8s.api/unknown-field and k8s.api/wrong-type (from tables generated from
                // these schemas): strict mode does not repeat them.
                Issue::Unknown { .. } | Issue::Type { .. } | Issue::Range { .. } => {}
                Issue::Required { at, name } => {
                    if renamed.iter().any(|(a, s)| a == at && s == name) {
                        continue;
                    }
                    let message = format!("missing required field {name:?} in {}", self.place_text(&segs));
                    let help = format!("Add {name:?}: the API server rejects the object without it.");
                    cx.report(SCHEMA_RULE, "missing-field", Severity::Error, &node, message, help);
                }
                Issue::Other { message, .. } => {
                    let path = self.path_text(&segs);
                    let message = if path.is_empty() {
                        message.clone()
                    } else {
                        format!("{path}: {message}")
                    };
                    cx.report(
                        SCHEMA_RULE,
                        "invalid-value",
                        Severity::Error,
                        &node,
                        message,
                        "Change the value to one the Kubernetes API accepts.".to_owned(),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_compiles() {
        let strict = Strict::new();
        for i in 0..kinds::KINDS.len() {
            assert!(strict.compiled(i).is_some(), "{:?}", kinds::KINDS.get(i));
        }
    }

    #[test]
    fn version_notes() {
        assert_eq!(version_note(33), None);
        assert_eq!(
            version_note(35).as_deref(),
            Some(
                "strict mode checks against the Kubernetes 1.33 schema (the one built in), not 1.35: fields added after 1.33 are reported as unknown"
            )
        );
        assert!(version_note(30).is_some_and(|n| n.ends_with("fields added after 1.30 pass unreported")));
    }

    #[test]
    fn suggestions() {
        let allowed = ["hostPath", "hostNetwork", "name", "containers", "initContainers"];
        assert_eq!(suggest("hostpath", &allowed), Some("hostPath"));
        assert_eq!(suggest("HostNetwork", &allowed), Some("hostNetwork"));
        assert_eq!(suggest("contaners", &allowed), Some("containers"));
        assert_eq!(suggest("nmae", &allowed), None);
        assert_eq!(suggest("foo", &allowed), None);
    }
}
