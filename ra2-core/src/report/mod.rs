//! Findings, errors and the report: plain data in the shape of the JSON output contract
//! (DESIGN.md, version 1), sorted and deterministic.

pub mod fix;
pub mod words;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which object a finding is about.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ObjectRef {
    #[serde(rename = "apiVersion", skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl std::fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind.as_deref().unwrap_or("object"))?;
        match (&self.namespace, &self.name) {
            (Some(ns), Some(name)) => write!(f, " {ns}/{name}"),
            (None, Some(name)) => write!(f, " {name}"),
            _ => Ok(()),
        }
    }
}

/// A second place a finding refers to (for example the anchor an alias expanded).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Related {
    pub message: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    /// Byte offsets in the file, for renderers that show source.
    #[serde(skip)]
    pub offset: usize,
    #[serde(skip)]
    pub len: usize,
}

/// A finding's place in the Helm template that wrote it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TemplateLocation {
    /// The template file, named like the report's other files.
    pub file: String,
    /// 1-based line and column (characters) in the template file.
    pub line: usize,
    pub column: usize,
    /// How the line was found: `key` (the offending key written literally), `action` (the
    /// template action that writes the field: `toYaml`, `include`, `tpl`, `range`, ...),
    /// `ancestor` (the deepest enclosing key written literally, for a field that is absent),
    /// or `document` (the document's first line: nothing closer could be found).
    pub mapped: String,
}

/// One rule violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub rule: String,
    pub check: String,
    pub severity: Severity,
    pub message: String,
    pub help: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub document: usize,
    pub object: ObjectRef,
    pub pointer: String,
    /// The Helm template the document was rendered from (`helm template` writes it in a
    /// `# Source:` comment at the top of each document), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_template: Option<String>,
    /// Where in the chart's template file the finding was mapped (Helm output whose chart was
    /// found on disk): the primary location of every output meant for review. Set by the
    /// CLI, which reads the chart; the core never does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<TemplateLocation>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    /// The API server itself refuses the object for this condition, so it can never be created
    /// (`k8s.api` findings, and RA2 findings of a condition the API server also refuses).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refused_by_api_server: bool,
    /// [`pointer`](Self::pointer) with each list index replaced by the item's name where it
    /// has one (see [`crate::view::Located::named_pointer`]), `None` when that is the pointer
    /// itself or the finding was not made on a node: what baselines and SARIF's `ra2/v2`
    /// fingerprint identify the finding by. Not part of the JSON output contract.
    #[serde(skip)]
    pub named_pointer: Option<String>,
    /// The mechanical remedy, when the check has one (the fix contract): applied by
    /// `ra2 lint --fix` and [`crate::report::fix::fix_text`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<fix::Fix>,
    /// Byte offset and length of the primary span in the file, for renderers that show source.
    #[serde(skip)]
    pub offset: usize,
    #[serde(skip)]
    pub len: usize,
}

/// The JSON Schema of the report ([`Report::to_json`], the JSON output contract), as shipped.
pub const SCHEMA: &str = include_str!("../../schemas/report.schema.json");

/// The sentence every human-facing output adds to a finding with `refused_by_api_server`.
pub const REFUSED_BY_API_SERVER: &str = "The API server refuses this object, so it can never be created.";

impl Finding {
    pub(crate) fn sort_key(&self) -> (&str, usize, usize, &str, &str, &str) {
        (
            &self.file,
            self.line,
            self.column,
            &self.rule,
            &self.check,
            &self.message,
        )
    }
}

/// Input that could not be read or is not a Kubernetes object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LintError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub document: usize,
    pub message: String,
    /// A stable code such as `ra2::parse::yaml`.
    pub code: String,
    #[serde(skip)]
    pub offset: usize,
}

/// The workload profile of an object (ra2-rules.md §1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    Basic,
    NetworkIntensive,
}

/// One object that was linted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectSummary {
    pub file: String,
    pub document: usize,
    #[serde(rename = "apiVersion", skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    pub kind: Option<String>,
    pub name: Option<String>,
    pub namespace: Option<String>,
    /// Only for objects with a pod spec.
    pub profile: Option<Profile>,
    pub line: usize,
    /// The Helm template the document was rendered from, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_template: Option<String>,
    /// `test` for a Helm test hook (`helm.sh/hook: test` or `test-success`): linted like any
    /// other object, but not deployed with the release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
    /// The text of the document the object was read from, kept for Helm output (an object
    /// with a [`source_template`](Self::source_template) that is its document's root, up to
    /// [`RENDERED_TEXT_LIMIT`] bytes): what maps a finding in a list to the template item
    /// that wrote it. Not part of the JSON output contract.
    #[serde(skip)]
    pub rendered: Option<std::sync::Arc<str>>,
}

/// The largest rendered document whose text [`ObjectSummary::rendered`] keeps.
pub const RENDERED_TEXT_LIMIT: usize = 1 << 20;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeverityCounts {
    pub error: usize,
    pub warning: usize,
    pub info: usize,
}

impl SeverityCounts {
    /// Counts one finding of `severity`.
    pub fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.error += 1,
            Severity::Warning => self.warning += 1,
            Severity::Info => self.info += 1,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub files: usize,
    pub documents: usize,
    pub objects: usize,
    pub errors: usize,
    pub findings: SeverityCounts,
    /// Findings silenced by annotations or config exemptions.
    pub suppressed: usize,
    /// The same findings counted by the reason the annotation or exemption gives
    /// (`(no reason)` for an annotation with an empty value).
    #[serde(default)]
    pub suppressed_by_reason: BTreeMap<String, usize>,
    /// Files and documents not linted because they are not Kubernetes manifests (kustomize
    /// inputs, Helm chart files, docker-compose files, documents with neither apiVersion nor
    /// kind; see `ra2_core::manifest`): found by walking a directory, or with `skip-non-k8s`.
    #[serde(default)]
    pub skipped: usize,
    /// The same, counted by reason.
    #[serde(default)]
    pub skipped_by_reason: BTreeMap<String, usize>,
    /// Strict mode only: objects not checked against a schema because their kind has none
    /// built in (custom resources, removed API versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict_skipped: Option<usize>,
    /// Strict mode only: the same objects counted by `apiVersion kind`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub strict_skipped_kinds: BTreeMap<String, usize>,
    /// With a baseline (`--baseline`): findings not reported because the baseline records
    /// them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baselined: Option<usize>,
    /// With a baseline: findings the baseline records that this run no longer found (fixed,
    /// or their object or file renamed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stale: Option<usize>,
    /// The waivers (suppression annotations and config exemptions, not expired) that silenced
    /// findings in this run, with how many each silenced.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waivers: Vec<Waiver>,
    /// With `--fix`: fixes applied before this report was made (it shows what remains).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed: Option<usize>,
}

/// Where a waiver is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WaiverSource {
    /// An `ignore-check.ra2.dev/...` or `ra2.dev/ignore-all` annotation on the object.
    Annotation,
    /// An entry of `exemptions` in `.ra2.yaml`.
    Exemption,
}

/// A waiver in force: what it silences, why, until when, and how many findings it silenced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiver {
    pub source: WaiverSource,
    /// The rule (or prefix, or `rule.check` / `rule/check`) it names; `*` for
    /// `ra2.dev/ignore-all`.
    pub rule: String,
    /// The annotated object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectRef>,
    /// What the exemption matches (`ra2.app.007 on DaemonSet monitoring/node-*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exemption: Option<String>,
    pub reason: String,
    /// The last day it holds (`YYYY-MM-DD`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    pub suppressed: usize,
}

impl Summary {
    /// One more finding silenced by `waiver` (counted with the waiver's earlier ones).
    pub(crate) fn count_waiver(&mut self, waiver: Waiver) {
        let same = |w: &&mut Waiver| {
            w.source == waiver.source
                && w.rule == waiver.rule
                && w.object == waiver.object
                && w.exemption == waiver.exemption
        };
        match self.waivers.iter_mut().rev().find(same) {
            Some(w) => w.suppressed += 1,
            None => self.waivers.push(Waiver {
                suppressed: 1,
                ..waiver
            }),
        }
    }

    /// One more finding silenced, for `reason`.
    pub(crate) fn count_suppressed(&mut self, reason: &str) {
        self.suppressed += 1;
        *self.suppressed_by_reason.entry(reason.to_owned()).or_default() += 1;
    }

    /// One more file or document not linted, for `reason`.
    pub(crate) fn count_skipped(&mut self, reason: &str) {
        self.skipped += 1;
        *self.skipped_by_reason.entry(reason.to_owned()).or_default() += 1;
    }
}

/// Everything one lint run found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub edition: String,
    pub findings: Vec<Finding>,
    pub errors: Vec<LintError>,
    pub objects: Vec<ObjectSummary>,
    pub summary: Summary,
}

/// The JSON output contract, version 1. `F` and `O` serialize as sequences of [`Finding`] and
/// [`ObjectSummary`] (slices, or a report held in another form: see [`write_json_parts`]).
#[derive(Serialize)]
struct JsonReport<'a, F: ?Sized, O: ?Sized> {
    version: u32,
    tool: Tool,
    edition: &'a str,
    findings: &'a F,
    errors: &'a [LintError],
    objects: &'a O,
    summary: &'a Summary,
}

/// Writes the JSON output contract, pretty-printed, from its parts: `findings` and `objects`
/// must serialize as sequences of [`Finding`] and [`ObjectSummary`], in the report's order.
/// For writers that hold a large report in another form than [`Report`] and rebuild each
/// entry while writing; [`Report::write_json`] writes the same bytes.
pub fn write_json_parts<F: Serialize + ?Sized, O: Serialize + ?Sized>(
    writer: impl std::io::Write,
    edition: &str,
    findings: &F,
    errors: &[LintError],
    objects: &O,
    summary: &Summary,
) -> serde_json::Result<()> {
    serde_json::to_writer_pretty(writer, &json_view(edition, findings, errors, objects, summary))
}

fn json_view<'a, F: ?Sized, O: ?Sized>(
    edition: &'a str,
    findings: &'a F,
    errors: &'a [LintError],
    objects: &'a O,
    summary: &'a Summary,
) -> JsonReport<'a, F, O> {
    JsonReport {
        version: 1,
        tool: Tool {
            name: "ra2",
            version: env!("CARGO_PKG_VERSION"),
        },
        edition,
        findings,
        errors,
        objects,
        summary,
    }
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

impl Report {
    /// Sorts findings (file, line, column, rule) and errors, and recounts the summary.
    pub fn finalize(&mut self) {
        self.findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        self.findings.dedup();
        self.errors
            .sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        self.objects
            .sort_by(|a, b| (&a.file, a.document, a.line).cmp(&(&b.file, b.document, b.line)));
        let mut counts = SeverityCounts::default();
        for f in &self.findings {
            counts.add(f.severity);
        }
        self.summary.findings = counts;
        self.summary.errors = self.errors.len();
        self.summary.objects = self.objects.len();
    }

    /// Renames files (`rename` gives the new name, or `None` to keep it) everywhere the report
    /// names one: findings, their template locations, errors and objects.
    pub fn rename_files(&mut self, rename: impl Fn(&str) -> Option<String>) {
        rename_files(&mut self.findings, &mut self.errors, &mut self.objects, rename);
    }

    /// The highest severity of any finding.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// The JSON output contract as a value.
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::to_value(self.json_view()).unwrap_or(serde_json::Value::Null)
    }

    /// Writes the JSON output contract, pretty-printed, to `writer` without building it in
    /// memory first.
    pub fn write_json(&self, writer: impl std::io::Write) -> serde_json::Result<()> {
        serde_json::to_writer_pretty(writer, &self.json_view())
    }

    /// The JSON output contract on one line, fields in contract order (for faces that hand
    /// JSON text across a boundary, such as the wasm module).
    pub fn to_json_compact(&self) -> String {
        serde_json::to_string(&self.json_view()).unwrap_or_default()
    }

    /// The JSON output contract, pretty-printed.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.json_view()).unwrap_or_default()
    }

    fn json_view(&self) -> JsonReport<'_, [Finding], [ObjectSummary]> {
        json_view(
            &self.edition,
            self.findings.as_slice(),
            &self.errors,
            self.objects.as_slice(),
            &self.summary,
        )
    }
}

/// [`Report::rename_files`] over the parts of a report held apart (as a compact store holds
/// its findings, errors and objects).
pub fn rename_files(
    findings: &mut [Finding],
    errors: &mut [LintError],
    objects: &mut [ObjectSummary],
    rename: impl Fn(&str) -> Option<String>,
) {
    let rename_in = |name: &mut String| {
        if let Some(new) = rename(name) {
            *name = new;
        }
    };
    for finding in findings {
        rename_in(&mut finding.file);
        if let Some(template) = &mut finding.template {
            rename_in(&mut template.file);
        }
    }
    for error in errors {
        rename_in(&mut error.file);
    }
    for object in objects {
        rename_in(&mut object.file);
    }
}
