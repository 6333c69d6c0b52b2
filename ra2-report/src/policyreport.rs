//! Kubernetes policy reports (`--format policyreport`): the `wgpolicyk8s.io/v1alpha2`
//! PolicyReport and ClusterPolicyReport objects that Kyverno and Kubewarden write and Policy
//! Reporter shows, as a YAML stream for `kubectl create -f` (the CRDs: `deploy/crds/`).
//!
//! - One PolicyReport named `ra2` per namespace that holds a linted object (even one without
//!   findings, so that applying a clean run replaces an old report's results), one
//!   ClusterPolicyReport named `ra2` for cluster-scoped objects (nodes, persistent volumes,
//!   storage classes, the kubelet and kubeadm configuration, ...), and one PolicyReport named
//!   `ra2-no-namespace`, without a namespace, for namespaced objects whose manifest names none
//!   (kubectl puts it where it puts them) and for documents that could not be read.
//! - One result per finding: `policy` the rule id, `rule` the check, `result` `fail` when the
//!   finding is at or above `fail-on` (it fails the run) and `warn` below it (`scored` says the
//!   same), `severity` `high`/`medium`/`low` for error/warning/info (values that every
//!   published version of the CRD accepts), the object as the one `resources` entry (with its
//!   uid when the caller knows it: `ra2 audit` reads it from the API server), `source: ra2`,
//!   and in `properties` the JSON `pointer`, the `location` (`file:line`), the chart
//!   `template` line when the finding was mapped to one, and the `help`. A document that could
//!   not be read is an `error` result whose policy is the error code.
//! - `summary` counts the results (`pass` and `skip` stay 0: ra2 reports what it found).
//! - Every result's `timestamp` is the one the caller passes (the schema requires one): the
//!   CLI gives the time of the run, or `SOURCE_DATE_EPOCH` for reproducible output. Everything
//!   else is a function of the report: the same input gives the same bytes.
//!
//! `--format openreports` writes the same reports in the API the Policy working group moved them
//! to, OpenReports (`openreports.io/v1alpha1`, which Kyverno 1.15 writes and Policy Reporter 3.2
//! reads): Report and ClusterReport, with the same grouping, names and results, `source: ra2`
//! on the report as well, and `info` (which that API has) for ra2's info severity.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ra2_core::{FailOn, Finding, ObjectRef, Report, Severity};

/// Which report API to write.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Api {
    /// `wgpolicyk8s.io/v1alpha2` PolicyReport and ClusterPolicyReport.
    #[default]
    PolicyReport,
    /// `openreports.io/v1alpha1` Report and ClusterReport.
    OpenReports,
}

impl Api {
    /// The API group and version of the reports.
    pub fn api_version(self) -> &'static str {
        match self {
            Api::PolicyReport => API_VERSION,
            Api::OpenReports => OPENREPORTS_API_VERSION,
        }
    }

    /// The kinds of a namespaced and of a cluster-scoped report.
    pub fn kinds(self) -> (&'static str, &'static str) {
        match self {
            Api::PolicyReport => ("PolicyReport", "ClusterPolicyReport"),
            Api::OpenReports => ("Report", "ClusterReport"),
        }
    }
}

/// What a policy report needs beyond the report.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// The report API.
    pub api: Api,
    /// Findings at or above it are `fail` results; the others `warn`.
    pub fail_on: FailOn,
    /// Seconds since the Unix epoch, for every result's `timestamp`.
    pub timestamp: i64,
    /// The uid of each object, where known (from the API server).
    pub uids: Option<&'a BTreeMap<ObjectRef, String>>,
}

/// The API group and version of PolicyReports.
pub const API_VERSION: &str = "wgpolicyk8s.io/v1alpha2";

/// The API group and version of OpenReports.
pub const OPENREPORTS_API_VERSION: &str = "openreports.io/v1alpha1";

/// The groups of the node configuration files ra2 lints (kubeadm, kubelet, kube-proxy): not
/// API objects, they configure the cluster.
const CONFIG_GROUPS: &[&str] = &["kubeadm.k8s.io/", "kubelet.config.k8s.io/", "kubeproxy.config.k8s.io/"];

/// Kinds whose objects have no namespace: Kubernetes' cluster-scoped built-in kinds and those
/// of the add-ons ra2 reads (DANM, NFD).
const CLUSTER_SCOPED: &[&str] = &[
    "APIService",
    "CertificateSigningRequest",
    "ClusterNetwork",
    "ClusterPolicyReport",
    "ClusterReport",
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterTrustBundle",
    "ComponentStatus",
    "CSIDriver",
    "CSINode",
    "CustomResourceDefinition",
    "DeviceClass",
    "FlowSchema",
    "IngressClass",
    "IPAddress",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration",
    "Namespace",
    "Node",
    "NodeFeatureRule",
    "PersistentVolume",
    "PodSecurityPolicy",
    "PriorityClass",
    "PriorityLevelConfiguration",
    "RuntimeClass",
    "ServiceCIDR",
    "StorageClass",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    "VolumeAttachment",
];

/// Which report an object's results go to. Ordered as the reports are written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Scope {
    Cluster,
    Namespace(String),
    /// Namespaced objects whose manifest names no namespace, and what belongs to no object.
    Unnamespaced,
}

fn scope(api_version: Option<&str>, kind: Option<&str>, namespace: Option<&str>) -> Scope {
    let node_config = api_version.is_some_and(|v| CONFIG_GROUPS.iter().any(|group| v.starts_with(group)));
    if node_config || kind.is_some_and(|kind| CLUSTER_SCOPED.contains(&kind)) {
        return Scope::Cluster;
    }
    namespace.map_or(Scope::Unnamespaced, |ns| Scope::Namespace(ns.to_owned()))
}

fn object_scope(object: &ObjectRef) -> Scope {
    if object.kind.is_none() {
        return Scope::Unnamespaced;
    }
    scope(
        object.api_version.as_deref(),
        object.kind.as_deref(),
        object.namespace.as_deref(),
    )
}

/// A YAML value, written in block style in the order it was built.
enum Node {
    Map(Vec<(&'static str, Node)>),
    /// A mapping whose keys are data (`properties`, `labels`).
    Dict(Vec<(String, Node)>),
    Seq(Vec<Node>),
    Str(String),
    Int(i64),
    Bool(bool),
}

impl Node {
    fn str(s: impl Into<String>) -> Node {
        Node::Str(s.into())
    }

    fn int(n: usize) -> Node {
        Node::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// Writes the value after `key:` (or `- `) at `indent`.
    fn write(&self, out: &mut String, indent: usize) {
        match self {
            Node::Str(s) => {
                out.push(' ');
                quote(out, s);
                out.push('\n');
            }
            Node::Int(n) => {
                let _ = writeln!(out, " {n}");
            }
            Node::Bool(b) => {
                let _ = writeln!(out, " {b}");
            }
            Node::Map(m) if m.is_empty() => out.push_str(" {}\n"),
            Node::Dict(m) if m.is_empty() => out.push_str(" {}\n"),
            Node::Seq(s) if s.is_empty() => out.push_str(" []\n"),
            Node::Map(m) => {
                out.push('\n');
                for (key, value) in m {
                    write_entry(out, indent, key, value);
                }
            }
            Node::Dict(m) => {
                out.push('\n');
                for (key, value) in m {
                    write_entry(out, indent, key, value);
                }
            }
            Node::Seq(items) => {
                out.push('\n');
                for item in items {
                    pad(out, indent);
                    out.push('-');
                    match item {
                        // The first entry of a mapping item shares the dash's line.
                        Node::Map(m) if !m.is_empty() => {
                            for (i, (key, value)) in m.iter().enumerate() {
                                if i == 0 {
                                    out.push(' ');
                                    out.push_str(key);
                                    out.push(':');
                                    value.write(out, indent + 4);
                                } else {
                                    write_entry(out, indent + 2, key, value);
                                }
                            }
                        }
                        other => other.write(out, indent + 2),
                    }
                }
            }
        }
    }
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn write_entry(out: &mut String, indent: usize, key: &str, value: &Node) {
    pad(out, indent);
    if is_plain_key(key) {
        out.push_str(key);
    } else {
        quote(out, key);
    }
    out.push(':');
    value.write(out, indent + 2);
}

/// Keys written unquoted: what this module and Kubernetes label keys use.
fn is_plain_key(key: &str) -> bool {
    key.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-' | '_'))
}

/// A YAML double-quoted scalar: every character that YAML would fold, strip or refuse
/// (controls, the C1 range, the Unicode line and paragraph separators, byte-order marks and
/// non-characters) is escaped, so the string reads back unchanged.
fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c < ' '
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}') =>
            {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[derive(Default)]
struct Counts {
    fail: usize,
    warn: usize,
    error: usize,
}

#[derive(Default)]
struct Group {
    results: Vec<Node>,
    counts: Counts,
}

/// The report severity of a finding: `low` for info in PolicyReports (every published version
/// of that CRD accepts it), `info` in OpenReports (whose API has it).
fn severity(severity: Severity, api: Api) -> &'static str {
    match (severity, api) {
        (Severity::Error, _) => "high",
        (Severity::Warning, _) => "medium",
        (Severity::Info, Api::PolicyReport) => "low",
        (Severity::Info, Api::OpenReports) => "info",
    }
}

fn timestamp(seconds: i64) -> Node {
    Node::Map(vec![("seconds", Node::Int(seconds)), ("nanos", Node::Int(0))])
}

fn subject(object: &ObjectRef, uid: Option<&String>) -> Node {
    let mut fields: Vec<(&'static str, Node)> = Vec::new();
    let parts = [
        ("apiVersion", &object.api_version),
        ("kind", &object.kind),
        ("namespace", &object.namespace),
        ("name", &object.name),
    ];
    for (key, value) in parts {
        if let Some(value) = value {
            fields.push((key, Node::str(value)));
        }
    }
    if let Some(uid) = uid {
        fields.push(("uid", Node::str(uid)));
    }
    Node::Map(fields)
}

fn finding_result(finding: &Finding, options: &Options<'_>) -> (Node, bool) {
    let fails = options
        .fail_on
        .threshold()
        .is_some_and(|threshold| finding.severity >= threshold);
    let mut message = finding.message.clone();
    if finding.refused_by_api_server {
        message = format!("{message}. {}", ra2_core::report::REFUSED_BY_API_SERVER);
    }
    let mut properties: Vec<(String, Node)> = vec![
        ("pointer".to_owned(), Node::str(&finding.pointer)),
        (
            "location".to_owned(),
            Node::str(format!("{}:{}", finding.file, finding.line)),
        ),
    ];
    if let Some(template) = &finding.template {
        properties.push((
            "template".to_owned(),
            Node::str(format!("{}:{}", template.file, template.line)),
        ));
    } else if let Some(source) = &finding.source_template {
        properties.push(("template".to_owned(), Node::str(source)));
    }
    if !finding.help.is_empty() {
        properties.push(("help".to_owned(), Node::str(&finding.help)));
    }
    let mut fields: Vec<(&'static str, Node)> = vec![
        ("source", Node::str("ra2")),
        ("policy", Node::str(&finding.rule)),
        ("rule", Node::str(&finding.check)),
        ("category", Node::str("Anuket RA2")),
        ("severity", Node::str(severity(finding.severity, options.api))),
        ("result", Node::str(if fails { "fail" } else { "warn" })),
        ("scored", Node::Bool(fails)),
        ("timestamp", timestamp(options.timestamp)),
        ("message", Node::Str(message)),
    ];
    if finding.object.kind.is_some() {
        let uid = options.uids.and_then(|uids| uids.get(&finding.object));
        fields.push(("resources", Node::Seq(vec![subject(&finding.object, uid)])));
    }
    fields.push(("properties", Node::Dict(properties)));
    (Node::Map(fields), fails)
}

fn error_result(error: &ra2_core::LintError, options: &Options<'_>) -> Node {
    Node::Map(vec![
        ("source", Node::str("ra2")),
        ("policy", Node::str(&error.code)),
        ("category", Node::str("Anuket RA2")),
        ("result", Node::str("error")),
        ("scored", Node::Bool(true)),
        ("timestamp", timestamp(options.timestamp)),
        ("message", Node::str(&error.message)),
        (
            "properties",
            Node::Dict(vec![(
                "location".to_owned(),
                Node::str(format!("{}:{}", error.file, error.line)),
            )]),
        ),
    ])
}

fn document(scope: &Scope, group: Group, api: Api) -> Node {
    let (namespaced, cluster) = api.kinds();
    let (kind, name, namespace) = match scope {
        Scope::Cluster => (cluster, "ra2", None),
        Scope::Namespace(ns) => (namespaced, "ra2", Some(ns.as_str())),
        Scope::Unnamespaced => (namespaced, "ra2-no-namespace", None),
    };
    let mut metadata: Vec<(&'static str, Node)> = vec![("name", Node::str(name))];
    if let Some(ns) = namespace {
        metadata.push(("namespace", Node::str(ns)));
    }
    metadata.push((
        "labels",
        Node::Dict(vec![("app.kubernetes.io/managed-by".to_owned(), Node::str("ra2"))]),
    ));
    let mut fields: Vec<(&'static str, Node)> = vec![
        ("apiVersion", Node::str(api.api_version())),
        ("kind", Node::str(kind)),
        ("metadata", Node::Map(metadata)),
    ];
    if api == Api::OpenReports {
        fields.push(("source", Node::str("ra2")));
    }
    fields.push((
        "summary",
        Node::Map(vec![
            ("pass", Node::int(0)),
            ("fail", Node::int(group.counts.fail)),
            ("warn", Node::int(group.counts.warn)),
            ("error", Node::int(group.counts.error)),
            ("skip", Node::int(0)),
        ]),
    ));
    if !group.results.is_empty() {
        fields.push(("results", Node::Seq(group.results)));
    }
    Node::Map(fields)
}

/// The policy reports of a report, as a YAML stream (empty when nothing was linted).
pub fn render(report: &Report, options: &Options<'_>) -> String {
    let mut groups: BTreeMap<Scope, Group> = BTreeMap::new();
    for object in &report.objects {
        let scope = scope(
            object.api_version.as_deref(),
            object.kind.as_deref(),
            object.namespace.as_deref(),
        );
        groups.entry(scope).or_default();
    }
    if !report.errors.is_empty() {
        let group = groups.entry(Scope::Unnamespaced).or_default();
        for error in &report.errors {
            group.results.push(error_result(error, options));
            group.counts.error += 1;
        }
    }
    for finding in &report.findings {
        let group = groups.entry(object_scope(&finding.object)).or_default();
        let (result, fails) = finding_result(finding, options);
        group.results.push(result);
        if fails {
            group.counts.fail += 1;
        } else {
            group.counts.warn += 1;
        }
    }
    let mut out = String::new();
    for (scope, group) in groups {
        out.push_str("---\n");
        if let Node::Map(fields) = document(&scope, group, options.api) {
            for (key, value) in &fields {
                write_entry(&mut out, 0, key, value);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(fail_on: FailOn) -> Options<'static> {
        Options {
            api: Api::PolicyReport,
            fail_on,
            timestamp: 1_700_000_000,
            uids: None,
        }
    }

    const INPUT: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: core}\nspec:\n  volumes: [{name: h, hostPath: {path: /x}}]\n  containers: [{name: c, image: r/c:1}]\n---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\nspec: {hostPath: {path: /srv}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: quiet, namespace: empty}\n---\n: [\n";

    #[test]
    fn one_report_per_namespace_and_one_for_the_cluster() {
        let report = ra2_core::lint_str("p.yaml", INPUT, &ra2_core::Config::default());
        let text = render(&report, &options(FailOn::Warning));
        let docs: Vec<serde_json::Value> = text
            .split("---\n")
            .filter(|d| !d.is_empty())
            .map(|d| ra2_core::yaml_to_json(d).expect("valid YAML"))
            .collect();
        let heads: Vec<(String, String, String)> = docs
            .iter()
            .map(|d| {
                (
                    d["kind"].as_str().unwrap().to_owned(),
                    d["metadata"]["name"].as_str().unwrap().to_owned(),
                    d["metadata"]["namespace"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        let expected = [
            ("ClusterPolicyReport", "ra2", ""),
            ("PolicyReport", "ra2", "core"),
            ("PolicyReport", "ra2", "empty"),
            ("PolicyReport", "ra2-no-namespace", ""),
        ];
        assert_eq!(
            heads,
            expected.map(|(a, b, c)| (a.to_owned(), b.to_owned(), c.to_owned()))
        );
        let pod = &docs[1]["results"][0];
        assert_eq!(pod["policy"], "ra2.app.007");
        assert_eq!(pod["rule"], "host-path");
        assert_eq!(pod["result"], "fail", "a warning fails with --fail-on warning");
        assert_eq!(pod["severity"], "medium");
        assert_eq!(pod["resources"][0]["kind"], "Pod");
        assert_eq!(pod["properties"]["pointer"], "/spec/volumes/0/hostPath");
        assert_eq!(pod["properties"]["location"], "p.yaml:5");
        assert_eq!(pod["timestamp"]["seconds"], 1_700_000_000);
        assert!(
            docs[2].get("results").is_none(),
            "a clean namespace has an empty report"
        );
        assert_eq!(docs[3]["summary"]["error"], 1);
        assert_eq!(docs[3]["results"][0]["result"], "error");
    }

    /// OpenReports: the same reports and results under the other API's names, the engine named on
    /// each report too, and info as info.
    #[test]
    fn openreports_are_the_same_reports_in_the_new_api() {
        let input = format!(
            "{INPUT}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: q, namespace: core}}\nspec: {{containers: [{{name: c, image: r/c:1}}]}}\n"
        );
        let report = ra2_core::lint_str("p.yaml", &input, &ra2_core::Config::default());
        let old = render(&report, &options(FailOn::Warning));
        let new = render(
            &report,
            &Options {
                api: Api::OpenReports,
                ..options(FailOn::Warning)
            },
        );
        let docs: Vec<serde_json::Value> = new
            .split("---\n")
            .filter(|d| !d.is_empty())
            .map(|d| ra2_core::yaml_to_json(d).expect("valid YAML"))
            .collect();
        let kinds: Vec<&str> = docs.iter().filter_map(|d| d["kind"].as_str()).collect();
        assert_eq!(kinds, ["ClusterReport", "Report", "Report", "Report"]);
        for doc in &docs {
            assert_eq!(doc["apiVersion"], "openreports.io/v1alpha1");
            assert_eq!(doc["source"], "ra2");
        }
        let severities: Vec<&str> = docs
            .iter()
            .flat_map(|d| d["results"].as_array().into_iter().flatten())
            .filter_map(|r| r["severity"].as_str())
            .collect();
        assert!(severities.contains(&"info"), "{severities:?}");
        // Apart from the names, the source line and the severity of info, the same bytes.
        let mapped = old
            .replace(
                "apiVersion: \"wgpolicyk8s.io/v1alpha2\"\nkind: \"ClusterPolicyReport\"",
                "apiVersion: \"openreports.io/v1alpha1\"\nkind: \"ClusterReport\"",
            )
            .replace(
                "apiVersion: \"wgpolicyk8s.io/v1alpha2\"\nkind: \"PolicyReport\"",
                "apiVersion: \"openreports.io/v1alpha1\"\nkind: \"Report\"",
            )
            .replace("summary:", "source: \"ra2\"\nsummary:")
            .replace("severity: \"low\"", "severity: \"info\"");
        assert_eq!(mapped, new);
    }

    #[test]
    fn below_fail_on_is_a_warning() {
        let report = ra2_core::lint_str("p.yaml", INPUT, &ra2_core::Config::default());
        let text = render(&report, &options(FailOn::Error));
        assert!(text.contains("result: \"warn\""));
        assert!(!text.contains("result: \"fail\""));
        let never = render(&report, &options(FailOn::Never));
        assert!(!never.contains("result: \"fail\""));
    }

    #[test]
    fn strings_read_back_unchanged() {
        let hostile = "a\"b\\c\nd\te\u{85}f\u{2028}g\u{feff}h: #i 'j' {k} \u{7}";
        let mut out = String::from("k:");
        Node::str(hostile).write(&mut out, 2);
        let value = ra2_core::yaml_to_json(&out).expect("valid YAML");
        assert_eq!(value["k"], hostile);
    }

    #[test]
    fn uids_are_added_when_known() {
        let report = ra2_core::lint_str("p.yaml", INPUT, &ra2_core::Config::default());
        let pod = report
            .findings
            .iter()
            .find(|f| f.object.kind.as_deref() == Some("Pod"))
            .unwrap();
        let uids = BTreeMap::from([(pod.object.clone(), "0b7e-uid".to_owned())]);
        let text = render(
            &report,
            &Options {
                uids: Some(&uids),
                ..options(FailOn::Error)
            },
        );
        let on_pod = report.findings.iter().filter(|f| f.object == pod.object).count();
        assert!(on_pod > 1);
        assert_eq!(text.matches("uid: \"0b7e-uid\"").count(), on_pod, "{text}");
        assert_eq!(text.matches("uid:").count(), on_pod);
    }

    #[test]
    fn kubeadm_kinds_are_cluster_scoped_only_in_their_groups() {
        assert_eq!(
            scope(Some("kubeadm.k8s.io/v1beta4"), Some("ClusterConfiguration"), None),
            Scope::Cluster
        );
        assert_eq!(
            scope(Some("example.com/v1"), Some("KubeletConfiguration"), Some("x")),
            Scope::Namespace("x".to_owned())
        );
        assert_eq!(scope(Some("v1"), Some("Node"), None), Scope::Cluster);
        assert_eq!(scope(Some("v1"), Some("Pod"), None), Scope::Unnamespaced);
    }
}
