//! k8s.api's decoding refusals (issue 34): what the API server refuses before any validation,
//! when it decodes a built-in kind with strict field validation (kubectl's default since 1.25):
//! unknown fields (`unknown-field`), values of the wrong type (`wrong-type`), and kinds its
//! group version does not have (`unknown-kind`); and `service-type`, a Service field its type
//! (ClusterIP when not set, as the API server defaults it) does not allow.
//!
//! The fields and types come from tables generated from the Kubernetes 1.33 OpenAPI schemas
//! ([`crate::k8s::openapi`]); the walk goes over the parsed tree, so every finding is at the key
//! or value it is about. Kinds the tables do not have (custom resources, removed versions) are
//! not judged; NetworkAttachmentDefinitions have rules of their own.
//!
//! Types follow the decoder (Go's `encoding/json` over the JSON sigs.k8s.io/yaml makes of YAML,
//! YAML 1.1 scalars as ra2 reads them): null is "not set" anywhere; a float with an integral
//! value is written by sigs.k8s.io/yaml as an integer (`replicas: 1.0` is `1`); a string is never
//! converted to a number or boolean, nor a number or boolean to a string.

use std::fmt::Write as _;

use crate::k8s::openapi::{self, Shape};
use crate::k8s::quantity::Quantity;
use crate::model::Object;
use crate::parse::doc::{Doc, NodeId, Value};
use crate::parse::view::Located;
use crate::rules::Context;

use super::api_server::field_path;

/// Judges `object`'s fields, when its kind is built in.
pub(super) fn check(object: &Object<'_>, cx: &mut Context<'_>) {
    let (Some(api_version), Some(kind)) = (object.api_version, object.kind) else {
        return;
    };
    // An object the API server decoded (an admission review's) cannot hold what its decoder
    // refuses, and has its defaults (a Service's type) filled in and validated.
    if cx.decoded() {
        return;
    }
    // Kinds and fields added after the tables' release would be called unknown: for a later
    // target, only types are judged.
    let names = cx.config().kubernetes_minor <= openapi::MINOR;
    let Some(index) = openapi::kind(api_version, kind) else {
        if names {
            unknown_kind(object, api_version, kind, cx);
        }
        return;
    };
    let mut walker = Walker {
        doc: object.root.doc(),
        root: &object.root,
        steps: Vec::new(),
        names,
        cx,
    };
    walker.walk(object.root.id(), Shape::Struct(index));
    if object.is("", "Service") {
        service_type(object, cx);
    }
}

/// `kind: deployment` in `apps/v1`: kubectl finds no resource for it ("no matches for kind"),
/// and the API server cannot decode it. Reported in the API groups (every kind of those is
/// known); in the core group (`v1`), which tools also use for their own files (a kubeconfig's
/// `kind: Config`), only for a near miss of a core kind.
fn unknown_kind(object: &Object<'_>, api_version: &str, kind: &str, cx: &mut Context<'_>) {
    let Some((group, version)) = object.group_version() else {
        return;
    };
    // Alpha and beta versions are judged by ra2.k8s.012/019 and ra2.app.016, lists by their items.
    if version.contains("alpha") || version.contains("beta") || kind == "List" || kind.ends_with("List") {
        return;
    }
    if openapi::kinds_of(api_version).next().is_none() {
        return;
    }
    let suggestion = suggest(kind, openapi::kinds_of(api_version));
    if group.is_empty() && suggestion.is_none() {
        return;
    }
    let Some(at) = object.root.get("kind") else { return };
    let mut message = format!("no matches for kind {kind:?} in version {api_version:?}");
    let help = match suggestion {
        Some(s) => {
            let _ = write!(message, " (did you mean {s:?}?)");
            format!(
                "Write kind: {s}. Kinds are case-sensitive: {api_version} has no {kind:?}, so kubectl finds no resource for the object and the API server cannot decode it, and no rule judges it as a {s}."
            )
        }
        None => format!(
            "Write a kind {api_version} has, or the apiVersion of the kind you mean: kubectl finds no resource for the object and the API server cannot decode it."
        ),
    };
    cx.report_with_help("unknown-kind", &at, message, help);
}

/// The closest allowed name: the same name in another case, or one within a few edits.
fn suggest(name: &str, allowed: impl Iterator<Item = &'static str> + Clone) -> Option<&'static str> {
    let lower = name.to_lowercase();
    if let Some(same) = allowed.clone().find(|a| a.to_lowercase() == lower) {
        return Some(same);
    }
    allowed
        .map(|a| (crate::config::strsim(&lower, &a.to_lowercase()), a))
        .filter(|&(d, a)| d <= (a.len() / 4).max(1))
        .min_by_key(|&(d, a)| (d, a))
        .map(|(_, a)| a)
}

/// The walk over one object's tree, by node id (no view per node: most nodes are fine), with
/// the path as entry and item indices, turned into a view only for a node reported.
struct Walker<'w, 'd, 'c> {
    doc: &'d Doc<'d>,
    root: &'w Located<'d>,
    /// Index of the entry or item taken at each level below the root.
    steps: Vec<u32>,
    names: bool,
    cx: &'w mut Context<'c>,
}

impl<'d> Walker<'_, 'd, '_> {
    /// The view of the node the steps lead to.
    fn located(&self) -> Option<Located<'d>> {
        let mut here = self.root.clone();
        for step in &self.steps {
            let index = *step as usize;
            here = if here.is_map() {
                here.entries().nth(index).map(|(_, child)| child)?
            } else {
                here.items().nth(index)?
            };
        }
        Some(here)
    }

    fn walk(&mut self, id: NodeId, shape: Shape) {
        let value = &self.doc.node(id).value;
        if matches!(value, Value::Null) {
            return;
        }
        match shape {
            Shape::Any => {}
            Shape::Struct(index) => {
                let Some(structure) = openapi::structure(index) else {
                    return;
                };
                if !matches!(value, Value::Map(_)) {
                    self.wrong_type(shape);
                    return;
                }
                for (i, entry) in self.doc.map_entries(id).iter().enumerate() {
                    let field = structure.field(&entry.key);
                    if field.is_none() && (!self.names || entry.key.contains("{{")) {
                        continue;
                    }
                    self.steps.push(u32::try_from(i).unwrap_or(u32::MAX));
                    match field {
                        Some(inner) => self.walk(entry.value, inner),
                        None => self.unknown_field(&entry.key, structure),
                    }
                    self.steps.pop();
                }
            }
            Shape::Map(inner) => {
                if !matches!(value, Value::Map(_)) {
                    self.wrong_type(shape);
                    return;
                }
                if *inner != Shape::Any {
                    for (i, entry) in self.doc.map_entries(id).iter().enumerate() {
                        self.steps.push(u32::try_from(i).unwrap_or(u32::MAX));
                        self.walk(entry.value, *inner);
                        self.steps.pop();
                    }
                }
            }
            Shape::List(inner) => {
                if !matches!(value, Value::Seq(_)) {
                    self.wrong_type(shape);
                    return;
                }
                if *inner != Shape::Any {
                    for (i, item) in self.doc.seq_items(id).iter().enumerate() {
                        self.steps.push(u32::try_from(i).unwrap_or(u32::MAX));
                        self.walk(item.node, *inner);
                        self.steps.pop();
                    }
                }
            }
            Shape::Or(mapping, other) => {
                let inner = if matches!(value, Value::Map(_)) {
                    *mapping
                } else {
                    *other
                };
                self.walk(id, inner);
            }
            Shape::String => {
                if !matches!(value, Value::Str(_)) {
                    self.wrong_type(shape);
                }
            }
            Shape::Bytes => match value {
                Value::Str(s) if is_base64(s) => {}
                _ => self.wrong_type(shape),
            },
            Shape::Bool => {
                if !matches!(value, Value::Bool(_)) {
                    self.wrong_type(shape);
                }
            }
            Shape::Int32 | Shape::Int64 => {
                if integer(value).is_none_or(|i| !in_range(i, shape)) {
                    self.wrong_type(shape);
                }
            }
            Shape::Number => {
                if !matches!(value, Value::Int(_) | Value::Float(_)) {
                    self.wrong_type(shape);
                }
            }
            Shape::IntOrString => match value {
                Value::Str(_) => {}
                _ if integer(value).is_some_and(|i| in_range(i, Shape::Int32)) => {}
                _ => self.wrong_type(shape),
            },
            Shape::Quantity => match value {
                Value::Int(_) | Value::Float(_) => {}
                Value::Str(s) if Quantity::parse(s).is_ok() => {}
                _ => self.wrong_type(shape),
            },
        }
    }

    fn wrong_type(&mut self, shape: Shape) {
        if let Some(node) = self.located() {
            // A template action left in (an unrendered chart): the value is not the one the
            // API server will see.
            if node.as_str().is_some_and(|s| s.contains("{{")) {
                return;
            }
            wrong_type(&node, shape, self.cx);
        }
    }

    fn unknown_field(&mut self, key: &str, structure: &openapi::Struct) {
        if let Some(child) = self.located() {
            let last = self.steps.pop();
            let parent = self.located();
            self.steps.extend(last);
            if let Some(parent) = parent {
                unknown_field(&parent, key, &child, structure, self.cx);
            }
        }
    }
}

/// The integer a Go integer field decodes from this value: an integer, or a float that
/// sigs.k8s.io/yaml writes without a fraction or exponent (`1.0` is written `1`).
pub(super) fn integer(value: &Value<'_>) -> Option<i128> {
    match value {
        Value::Int(i) => Some(i.get()),
        Value::Float(f) => crate::parse::scalar::go_json_float(*f).parse::<i128>().ok(),
        _ => None,
    }
}

/// Does Go's `encoding/json` decode this string into a `[]byte`? Standard base64 with its
/// padding (`base64.StdEncoding`), line breaks ignored.
fn is_base64(s: &str) -> bool {
    let bytes: Vec<u8> = s.bytes().filter(|b| !matches!(b, b'\r' | b'\n')).collect();
    if bytes.len() % 4 != 0 {
        return false;
    }
    let body = bytes
        .strip_suffix(b"==")
        .or_else(|| bytes.strip_suffix(b"="))
        .unwrap_or(&bytes);
    body.iter()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'))
}

fn in_range(i: i128, shape: Shape) -> bool {
    match shape {
        Shape::Int32 => i32::try_from(i).is_ok(),
        _ => i64::try_from(i).is_ok(),
    }
}

fn expected(shape: Shape) -> &'static str {
    match shape {
        Shape::String => "a string",
        Shape::Bytes => "a string in base64",
        Shape::Bool => "a boolean",
        Shape::Int32 => "a 32-bit integer (from -2147483648 to 2147483647)",
        Shape::Int64 => "a 64-bit integer",
        Shape::Number => "a number",
        Shape::IntOrString => "a 32-bit integer or a string",
        Shape::Quantity => "a quantity (a string such as \"500m\" or \"1Gi\", or a number)",
        Shape::List(_) => "a list",
        Shape::Struct(_) | Shape::Map(_) | Shape::Or(..) | Shape::Any => "a mapping",
    }
}

/// "string \"3\"", "boolean true", "a list".
fn found(node: &Located<'_>) -> String {
    match node.value() {
        Value::Str(s) => format!("string {:?}", s.as_ref()),
        Value::Map(_) | Value::Seq(_) => crate::rules::with_article(node.type_name()),
        _ => format!("{} {}", node.type_name(), node.source_text().trim()),
    }
}

fn wrong_type(node: &Located<'_>, shape: Shape, cx: &mut Context<'_>) {
    let what = expected(shape);
    // A secret's value is not repeated in a message.
    let found = if shape == Shape::Bytes && node.as_str().is_some() {
        "a string that is not base64".to_owned()
    } else {
        found(node)
    };
    let message = format!(
        "{}: Invalid type: must be {what}, found {found}",
        field_path(&node.pointer())
    );
    let scalar = !node.is_map() && !node.is_seq();
    let help = match (node.value(), shape) {
        (Value::Str(s), Shape::Int32 | Shape::Int64 | Shape::Number) if s.trim().parse::<i64>().is_ok() => {
            format!(
                "Write {} without quotes: the API server does not convert a string to a number, and refuses the object.",
                s.trim()
            )
        }
        (Value::Str(s), Shape::Bool) if matches!(s.trim(), "true" | "false") => format!(
            "Write {} without quotes: the API server does not convert a string to a boolean, and refuses the object.",
            s.trim()
        ),
        (Value::Str(_), Shape::Bytes) => {
            "Write the value in base64 (as `base64 -w0` prints it), or put the plain text under stringData: the API server decodes data as base64 and refuses the object.".to_owned()
        }
        (Value::Str(s), Shape::Quantity) => format!(
            "{s:?} is not a quantity: write a number with an optional suffix (m, k, M, G, Ki, Mi, Gi, ...); the API server refuses the object."
        ),
        (_, Shape::String) if scalar => format!(
            "Quote the value (\"{}\"): YAML reads it as {}, and the API server does not convert it to a string.",
            node.source_text().trim(),
            crate::rules::with_article(node.type_name())
        ),
        (Value::Float(_), Shape::Int32 | Shape::Int64 | Shape::IntOrString) => {
            "Write a whole number: the API server cannot decode a fraction into an integer field, and refuses the object."
                .to_owned()
        }
        (Value::Int(_), Shape::Int32 | Shape::Int64 | Shape::IntOrString) => format!(
            "Write {what}: the API server cannot decode a number outside that range, and refuses the object."
        ),
        _ => format!("Write {what} here: the API server's decoder refuses a value of another type."),
    };
    cx.report_with_help("wrong-type", node, message, help);
}

fn unknown_field(
    parent: &Located<'_>,
    key: &str,
    child: &Located<'_>,
    structure: &openapi::Struct,
    cx: &mut Context<'_>,
) {
    let parent_path = field_path(&parent.pointer());
    let path = if parent_path == "<root>" {
        key.to_owned()
    } else {
        format!("{parent_path}.{key}")
    };
    let suggestion = suggest(key, structure.names());
    let mut message = format!("unknown field {path:?} in {}", structure.name);
    match suggestion {
        // The one name it is close to, and the mapping does not have it already: renaming
        // is the fix (unsafe: the field then takes effect).
        Some(s) if parent.get(s).is_none() => {
            let _ = write!(message, " (did you mean {s:?}?)");
            let help = format!(
                "Rename it to {s:?}. Kubernetes does not know {key:?} here: strict field validation (kubectl's default) refuses the object, and otherwise the field is silently dropped."
            );
            let ops = vec![crate::report::fix::rename(child, s)];
            cx.report_fixable("unknown-field", child, message, Some(help), ops);
        }
        Some(s) => {
            let _ = write!(message, " (did you mean {s:?}? it is set already)");
            let help = format!(
                "Remove it: {s:?} is set beside it. Kubernetes does not know {key:?} here: strict field validation (kubectl's default) refuses the object, and otherwise the field is silently dropped."
            );
            cx.report_with_help("unknown-field", child, message, help);
        }
        None => cx.report_with_help("unknown-field", child, message, "Remove the field or move it where it belongs. Kubernetes does not know it here: strict field validation (kubectl's default) refuses the object, and otherwise the field is silently dropped.".to_owned()),
    }
}

/// Service fields its type does not allow; `type` defaults to ClusterIP.
fn service_type(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(spec) = object.root.get("spec").filter(Located::is_map) else {
        return;
    };
    let written = spec.get("type").filter(|t| !t.is_null());
    let kind = match &written {
        Some(t) => match t.as_str() {
            Some(k) => k,
            None => return,
        },
        None => "ClusterIP",
    };
    if let Some(ranges) = spec.get("loadBalancerSourceRanges") {
        if kind != "LoadBalancer" && ranges.items().next().is_some() {
            let defaulted = if written.is_none() {
                " (spec.type is not set, and defaults to ClusterIP)"
            } else {
                ""
            };
            cx.report_with_help(
                "service-type",
                &ranges,
                format!(
                    "spec.loadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'{defaulted}"
                ),
                "Remove loadBalancerSourceRanges, or set spec.type to LoadBalancer: the API server refuses them on a Service of another type.",
            );
        }
    }
    if matches!(kind, "NodePort" | "LoadBalancer") {
        if let Some(cluster_ip) = spec.get("clusterIP").filter(|ip| ip.as_str() == Some("None")) {
            cx.report_with_help(
                "service-type",
                &cluster_ip,
                format!("spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for {kind} services"),
                format!("Remove clusterIP: None: a headless Service has no cluster IP, which a {kind} Service needs."),
            );
        }
    }
    if kind != "ClusterIP" {
        return;
    }
    let defaulted = if written.is_none() {
        " (spec.type is not set, and defaults to ClusterIP)"
    } else {
        ""
    };
    let help = |field: &str| {
        format!(
            "Remove {field}, or set spec.type to NodePort or LoadBalancer if the Service is meant to be reachable from outside the cluster: the API server refuses {field} on a ClusterIP Service{defaulted}."
        )
    };
    if let Some(ports) = spec.get("ports") {
        for port in ports.items() {
            let Some(node_port) = port.get("nodePort") else {
                continue;
            };
            if node_port.as_int().is_some_and(|p| p != 0) {
                cx.report_with_help(
                    "service-type",
                    &node_port,
                    format!(
                        "{}: Forbidden: may not be used when `type` is 'ClusterIP'{defaulted}",
                        field_path(&node_port.pointer())
                    ),
                    help("nodePort"),
                );
            }
        }
    }
    let external_ips = spec.get("externalIPs").is_some_and(|ips| ips.items().next().is_some());
    if let Some(policy) = spec.get("externalTrafficPolicy") {
        if !external_ips && policy.as_str().is_some_and(|p| !p.is_empty()) {
            cx.report_with_help(
                "service-type",
                &policy,
                format!(
                    "spec.externalTrafficPolicy: Invalid value: {:?}: may only be set for externally-accessible services{defaulted}",
                    policy.as_str().unwrap_or_default()
                ),
                help("externalTrafficPolicy"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Linter};

    fn checks(text: &str, decoded: bool) -> Vec<String> {
        let config = Config::default();
        let mut linter = Linter::new(&config);
        if decoded {
            linter = linter.with_decoded_objects();
        }
        linter.add_file("t.yaml", text);
        linter
            .finish()
            .findings
            .into_iter()
            .filter(|f| f.rule == "k8s.api")
            .map(|f| format!("{}:{}", f.check, f.line))
            .collect()
    }

    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: \"3\"\n  selector: {matchLabels: {app: d}}\n  template:\n    metadata: {labels: {app: d}}\n    spec:\n      hostnetwork: true\n      containers: [{name: a, image: r/a:1}]\n";

    #[test]
    fn decoding_refusals_in_manifests_not_in_admission() {
        assert_eq!(checks(DEPLOYMENT, false), ["wrong-type:5", "unknown-field:10"]);
        assert!(checks(DEPLOYMENT, true).is_empty());
    }

    #[test]
    fn template_actions_are_not_judged() {
        let text = DEPLOYMENT
            .replace("\"3\"", "\"{{ .Values.replicas }}\"")
            .replace("hostnetwork: true", "\"{{ .Values.key }}\": true");
        assert!(checks(&text, false).is_empty());
    }

    #[test]
    fn a_later_target_judges_types_only() {
        let config = Config::from_yaml("kubernetes-version: \"1.34\"\n", ".ra2.yaml").unwrap();
        let report = crate::lint_str("t.yaml", DEPLOYMENT, &config);
        let found: Vec<&str> = report
            .findings
            .iter()
            .filter(|f| f.rule == "k8s.api")
            .map(|f| f.check.as_str())
            .collect();
        assert_eq!(found, ["wrong-type"]);
    }
}
