//! Configuration (`.ra2.yaml`, the policy settings, library options): read with ra2's YAML
//! reader, validated against the shipped JSON Schema with errors at the offending line, then
//! checked against the rule catalogue.

pub mod params;
pub mod schema;
pub mod settings;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::catalogue::{self, Edition, RuleDoc};
use crate::parse::doc::{Limits, read_chunk};
use crate::parse::source::{Position, chunks, strip_bom};
use crate::parse::view::Located;
use crate::report::{ObjectRef, Severity};

/// The JSON Schema of the configuration, as shipped.
pub const SCHEMA: &str = include_str!("../../schemas/config.schema.json");

// `CONFIG_SCHEMA: Json`: [`SCHEMA`] compiled by build.rs.
include!(concat!(env!("OUT_DIR"), "/config_schema.rs"));

fn schema() -> &'static crate::data::Json {
    &CONFIG_SCHEMA
}

pub use crate::catalogue::SCHEMA_RULE;

/// The checks of [`SCHEMA_RULE`].
pub const SCHEMA_CHECKS: &[&str] = &["unknown-field", "wrong-type", "missing-field", "invalid-value"];

/// Kubernetes 1.33: the version the newest RA2 requires.
pub const DEFAULT_KUBERNETES_MINOR: u32 = 33;

/// Parses `1.33` into 33.
pub fn parse_kubernetes_version(s: &str) -> Option<u32> {
    s.strip_prefix("1.")?.parse().ok()
}

/// When a lint run counts as failed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    #[default]
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    /// The lowest severity that fails, or `None` for `never`.
    pub fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "error" => Some(FailOn::Error),
            "warning" => Some(FailOn::Warning),
            "info" => Some(FailOn::Info),
            "never" => Some(FailOn::Never),
            _ => None,
        }
    }
}

/// One or several rule selectors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// Suppresses a rule for matching objects.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exemption {
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Glob over the Helm template a document was rendered from (its `# Source:` comment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    pub reason: String,
    /// The last day the exemption holds (`YYYY-MM-DD`); after it, the findings it silenced
    /// are reported again, with an `exemption/expired` warning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    /// Where the exemption is written, when it was read from a file: an exemption that
    /// matched nothing is reported there.
    #[serde(skip)]
    pub site: Option<ConfigSite>,
}

/// A place in a configuration file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigSite {
    pub file: String,
    pub pointer: String,
    pub start: Position,
    pub end: Position,
    /// Byte offset and length in the file, for renderers that show source.
    pub offset: usize,
    pub len: usize,
}

impl Exemption {
    /// Does this exemption cover a finding of `rule`/`check` on `object` (which has no Helm
    /// template)?
    pub fn matches(&self, rule: &str, check: &str, object: &ObjectRef) -> bool {
        self.matches_in(rule, check, object, None)
    }

    /// Does this exemption cover a finding of `rule`/`check` on `object`, rendered from
    /// `template`? A `template` pattern never matches a document without one.
    pub fn matches_in(&self, rule: &str, check: &str, object: &ObjectRef, template: Option<&str>) -> bool {
        let field = |pattern: &Option<String>, value: Option<&str>| match pattern {
            None => true,
            Some(p) => glob(p, value.unwrap_or("")),
        };
        selector_matches(&self.rule, rule, check)
            && field(&self.kind, object.kind.as_deref())
            && field(&self.namespace, object.namespace.as_deref())
            && field(&self.name, object.name.as_deref())
            && self
                .template
                .as_deref()
                .is_none_or(|p| template.is_some_and(|t| glob(p, t)))
    }

    /// The expiry date, when it has passed by `today` (`None` without a clock: nothing
    /// expires).
    pub fn lapsed(&self, today: Option<&str>) -> Option<&str> {
        self.expires.as_deref().filter(|date| expired(date, today))
    }

    /// What the exemption matches, for messages: `ra2.app.007 on DaemonSet monitoring/node-*`.
    pub fn describe(&self) -> String {
        let mut out = self.rule.clone();
        let mut parts = Vec::new();
        if let Some(kind) = &self.kind {
            parts.push(format!("kind {kind}"));
        }
        if let Some(namespace) = &self.namespace {
            parts.push(format!("namespace {namespace}"));
        }
        if let Some(name) = &self.name {
            parts.push(format!("name {name}"));
        }
        if let Some(template) = &self.template {
            parts.push(format!("template {template}"));
        }
        if !parts.is_empty() {
            out.push_str(" (");
            out.push_str(&parts.join(", "));
            out.push(')');
        }
        out
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    edition: Option<Edition>,
    fail_on: Option<FailOn>,
    kubernetes_version: Option<String>,
    select: Option<OneOrMany>,
    ignore: Option<OneOrMany>,
    #[serde(default)]
    severity: BTreeMap<String, Severity>,
    #[serde(default)]
    params: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
    #[serde(default)]
    exemptions: Vec<Exemption>,
    default_namespace: Option<String>,
    #[serde(default)]
    workload_kinds: Vec<RawWorkloadKind>,
    strict: Option<bool>,
    skip_non_k8s: Option<bool>,
    limits: Option<RawLimits>,
    baseline: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawWorkloadKind {
    api_version: String,
    kind: String,
    template: String,
    resource: Option<String>,
}

/// A kind the config declares to carry a pod template (`workload-kinds`), judged like the
/// built-in workload kinds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeclaredWorkload {
    /// `group/version`, matched exactly.
    pub api_version: String,
    pub kind: String,
    /// The keys from the object to its pod template (`["spec", "template"]`).
    pub template: Vec<String>,
    /// The resource the exported policies match (`clonesets`).
    pub resource: String,
}

impl DeclaredWorkload {
    /// The group of [`DeclaredWorkload::api_version`].
    pub fn group(&self) -> &str {
        self.api_version.split_once('/').map_or("", |(g, _)| g)
    }

    /// The version of [`DeclaredWorkload::api_version`].
    pub fn version(&self) -> &str {
        self.api_version
            .split_once('/')
            .map_or(self.api_version.as_str(), |(_, v)| v)
    }
}

/// The keys are the config file's (`max-depth`), hence their shared prefix.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[allow(clippy::struct_field_names)]
struct RawLimits {
    max_document_bytes: Option<u64>,
    max_depth: Option<u64>,
    max_alias_expansion: Option<u64>,
}

/// A `workload-kinds` entry the schema let through: a group to tell it from core kinds and a
/// template path of non-empty keys. (An entry for a kind ra2 already judges is left to the
/// built-in reading: `model::Object::workload_kind`.)
fn check_workload_kind(item: &Located<'_>, error: &mut dyn FnMut(&Located<'_>, String)) {
    let text = |key: &str| {
        item.get(key)
            .and_then(|n| n.as_str().map(|s| (n.clone(), s.to_owned())))
    };
    if let Some((node, api_version)) = text("api-version") {
        if !api_version
            .split_once('/')
            .is_some_and(|(g, v)| !g.is_empty() && !v.is_empty() && !v.contains('/'))
        {
            error(
                &node,
                format!("api-version must be group/version (apps.kruise.io/v1alpha1), found {api_version:?}"),
            );
        }
    }
    if let Some((node, template)) = text("template") {
        if template.split('.').any(str::is_empty) {
            error(
                &node,
                format!("template must be keys joined by dots (spec.template), found {template:?}"),
            );
        }
    }
}

/// Validated settings for a lint run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Config {
    pub edition: Edition,
    pub fail_on: FailOn,
    /// The target Kubernetes minor version (`1.33` is `33`).
    pub kubernetes_minor: u32,
    /// Rule selectors to run (empty: all).
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    /// Severity overrides by `rule` or `rule/check`.
    pub severity: BTreeMap<String, Severity>,
    pub params: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
    pub exemptions: Vec<Exemption>,
    pub default_namespace: String,
    /// More kinds that carry a pod template (`workload-kinds`).
    pub workload_kinds: Vec<DeclaredWorkload>,
    /// Strict mode: check objects against the Kubernetes OpenAPI schema (unknown fields, wrong
    /// types). Carried here so every face reads the same settings; ra2-core itself does not
    /// run it (the CLI adds `ra2-strict` as an object hook when this is set).
    pub strict: bool,
    /// What one document may cost: its size, its nesting, and the nodes aliases may add.
    pub limits: Limits,
    /// Skip (and count) files and documents that are not Kubernetes manifests even when they
    /// are named explicitly or read from standard input (directory walks always skip them).
    pub skip_non_k8s: bool,
    /// Today's date (`YYYY-MM-DD`, UTC), against which waivers' expiry dates are judged: set by
    /// the face that has a clock (the CLI reads `SOURCE_DATE_EPOCH`, else the system clock).
    /// `None`: no waiver expires.
    #[serde(skip)]
    pub today: Option<String>,
    /// `baseline: FILE`: the baseline file `ra2 lint` reports new findings against, as
    /// written (the CLI reads it relative to the config file's directory). Only `ra2 lint`
    /// reads baselines; the other faces ignore it.
    pub baseline: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            edition: Edition::default(),
            fail_on: FailOn::default(),
            kubernetes_minor: DEFAULT_KUBERNETES_MINOR,
            select: Vec::new(),
            ignore: Vec::new(),
            severity: BTreeMap::new(),
            params: BTreeMap::new(),
            exemptions: Vec::new(),
            default_namespace: "default".to_owned(),
            workload_kinds: Vec::new(),
            strict: false,
            limits: Limits::default(),
            skip_non_k8s: false,
            today: None,
            baseline: None,
        }
    }
}

/// A configuration problem, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ConfigError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// `ra2::config::schema`, `ra2::config::unknown-rule`, `ra2::config::yaml`, ...
    pub code: &'static str,
    /// JSON pointer of the offending value (`/fail-on`), empty when the problem is the text
    /// itself. Faces that take settings as objects (JS options, policy settings) show it
    /// instead of a line.
    pub pointer: String,
}

/// Is `s` a calendar date written `YYYY-MM-DD`? (Such dates compare as strings in date
/// order, which is how expiry dates are judged.)
pub fn valid_date(s: &str) -> bool {
    calendar_date(s).is_some()
}

/// A `YYYY-MM-DD` day of the calendar.
fn calendar_date(s: &str) -> Option<time::Date> {
    let bytes = s.as_bytes();
    if bytes.len() != 10 || bytes.get(4) != Some(&b'-') || bytes.get(7) != Some(&b'-') {
        return None;
    }
    let number = |range: std::ops::Range<usize>| {
        s.get(range)
            .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))?
            .parse::<u32>()
            .ok()
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (Ok(year), Ok(month), Ok(day)) = (i32::try_from(year), u8::try_from(month), u8::try_from(day)) else {
        return None;
    };
    time::Date::from_calendar_date(year, time::Month::try_from(month).ok()?, day).ok()
}

/// The day after `date` (`YYYY-MM-DD`): the first day a waiver that holds through `date` no
/// longer holds. A text that is not a day of the calendar comes back as it is.
pub fn day_after(date: &str) -> String {
    calendar_date(date).and_then(time::Date::next_day).map_or_else(
        || date.to_owned(),
        |d| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day()),
    )
}

/// The date `days` after 1970-01-01, written `YYYY-MM-DD`: how a face that has a clock sets
/// [`Config::today`].
pub fn date_of_day(days: i64) -> String {
    // 1970-01-01 is Julian day 2,440,588.
    let date = i32::try_from(days.saturating_add(2_440_588))
        .ok()
        .and_then(|julian| time::Date::from_julian_day(julian).ok())
        .unwrap_or(time::Date::MIN);
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

/// Has a waiver that holds through `expires` lapsed by `today` (both `YYYY-MM-DD`)?
pub fn expired(expires: &str, today: Option<&str>) -> bool {
    today.is_some_and(|today| expires < today)
}

/// Does `selector` (an id, a prefix of dotted segments, or `id/check`) select this check?
pub fn selector_matches(selector: &str, rule: &str, check: &str) -> bool {
    if let Some((sel_rule, sel_check)) = selector.split_once('/') {
        return sel_rule == rule && sel_check == check;
    }
    rule == selector || rule.strip_prefix(selector).is_some_and(|rest| rest.starts_with('.'))
}

/// `*` and `?` wildcards.
pub fn glob(pattern: &str, text: &str) -> bool {
    fn go(p: &[char], t: &[char]) -> bool {
        match (p.first(), t.first()) {
            (None, None) => true,
            (Some('*'), _) => go(p.get(1..).unwrap_or(&[]), t) || (!t.is_empty() && go(p, t.get(1..).unwrap_or(&[]))),
            (Some('?'), Some(_)) => go(p.get(1..).unwrap_or(&[]), t.get(1..).unwrap_or(&[])),
            (Some(a), Some(b)) if a == b => go(p.get(1..).unwrap_or(&[]), t.get(1..).unwrap_or(&[])),
            _ => false,
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    go(&p, &t)
}

pub(crate) fn known_selector(selector: &str) -> bool {
    let docs = catalogue::all();
    let (rule, check) = match selector.split_once('/') {
        Some((r, c)) => (r, Some(c)),
        None => (selector, None),
    };
    match check {
        Some(check) if rule == SCHEMA_RULE => SCHEMA_CHECKS.contains(&check),
        Some(check) => catalogue::get(rule).is_some_and(|d| d.check(check).is_some()),
        None => {
            catalogue::pseudo_rule(rule).is_some()
                || docs
                    .iter()
                    .map(|d| d.id)
                    .any(|id| id == rule || id.strip_prefix(rule).is_some_and(|r| r.starts_with('.')))
        }
    }
}

pub(crate) fn near_miss<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (strsim(word, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance.
pub fn strsim(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = prev.get(j).copied().unwrap_or(0) + usize::from(ca != *cb);
            let delete = prev.get(j + 1).copied().unwrap_or(0) + 1;
            let insert = cur.get(j).copied().unwrap_or(0) + 1;
            cur.push(substitute.min(delete).min(insert));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

impl Config {
    /// Reads and validates a configuration file's text.
    // One arm per top-level key of `.ra2.yaml`, in the schema's order.
    #[allow(clippy::too_many_lines)]
    pub fn from_yaml(text: &str, file: &str) -> Result<Config, Vec<ConfigError>> {
        let (text, bom) = strip_bom(text);
        let chunk = chunks(text, bom, 0)
            .into_iter()
            .next()
            .unwrap_or(crate::parse::source::Chunk {
                text,
                offset: bom,
                line: 0,
            });
        let result = read_chunk(chunk, false, Limits::default());
        let error_at = |pos: Position, pointer: &str, message: String, code| ConfigError {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            message,
            code,
            pointer: pointer.to_owned(),
        };
        if let Some(e) = result.error {
            let pos = crate::parse::source::LineIndex::new(&chunk).position(chunk.text, e.span.start);
            return Err(vec![error_at(pos, "", e.message, "ra2::config::yaml")]);
        }
        let Some(doc) = result.docs.first() else {
            return Ok(Config::default());
        };
        let root = Located::root(doc);
        if root.is_null() {
            return Ok(Config::default());
        }
        let mut errors: Vec<ConfigError> = Vec::new();
        for problem in &doc.problems {
            errors.push(error_at(
                doc.position(problem.span.start),
                "",
                problem.message.clone(),
                "ra2::config::duplicate-key",
            ));
        }
        for v in crate::config::schema::validate(&root, schema(), schema()) {
            let site = v.at.site();
            let mut message = v.message;
            if v.unknown_key {
                let pointer = v.at.pointer();
                let key = pointer.rsplit('/').next().unwrap_or("");
                let known = schema()
                    .get("properties")
                    .and_then(crate::data::Json::as_object)
                    .map(|p| p.iter().map(|(k, _)| *k).collect::<Vec<_>>())
                    .unwrap_or_default();
                if pointer.matches('/').count() == 1 {
                    if let Some(s) = near_miss(key, known.into_iter()) {
                        message = format!("{message} (did you mean {s:?}?)");
                    }
                }
            }
            errors.push(error_at(
                doc.position(site.span.start),
                &v.at.pointer(),
                message,
                "ra2::config::schema",
            ));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let raw: RawConfig = match serde_json::from_value(root.to_json()) {
            Ok(raw) => raw,
            Err(e) => {
                return Err(vec![error_at(
                    doc.position(root.span().start),
                    "",
                    e.to_string(),
                    "ra2::config::schema",
                )]);
            }
        };
        // Semantic checks against the catalogue, each at its line.
        let ids = || catalogue::all().iter().map(|d| d.id);
        let mut selectors: Vec<(Located<'_>, String)> = Vec::new();
        for key in ["select", "ignore"] {
            if let Some(node) = root.get(key) {
                if let Some(s) = node.as_str() {
                    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                        selectors.push((node.clone(), part.to_owned()));
                    }
                }
                for item in node.items() {
                    if let Some(s) = item.as_str() {
                        selectors.push((item.clone(), s.to_owned()));
                    }
                }
            }
        }
        if let Some(node) = root.get("severity") {
            for (key, value) in node.entries() {
                selectors.push((value, key.to_owned()));
            }
        }
        if let Some(node) = root.get("exemptions") {
            for expires in node.items().filter_map(|item| item.get("expires")) {
                // The schema reports a value that is not a string; this, a string that is not
                // a day of the calendar.
                if expires.as_str().is_some_and(|s| !valid_date(s)) {
                    errors.push(error_at(
                        doc.position(expires.site().span.start),
                        &expires.pointer(),
                        format!(
                            "expires must be a date written YYYY-MM-DD (the last day the exemption holds), found {}",
                            expires.source_text()
                        ),
                        "ra2::config::date",
                    ));
                }
            }
            for rule in node.items().filter_map(|item| item.get("rule")) {
                if let Some(s) = rule.as_str() {
                    selectors.push((rule.clone(), s.to_owned()));
                }
            }
        }
        if let Some(node) = root.get("params") {
            for (rule, params) in node.entries() {
                if catalogue::get(rule).is_none() {
                    selectors.push((params, rule.to_owned()));
                }
            }
        }
        for (node, selector) in &selectors {
            if !known_selector(selector) {
                let hint = near_miss(selector, ids())
                    .map(|s| format!(" (did you mean {s:?}?)"))
                    .unwrap_or_default();
                errors.push(error_at(
                    doc.position(node.site().span.start),
                    &node.pointer(),
                    format!("unknown rule {selector:?}{hint}"),
                    "ra2::config::unknown-rule",
                ));
            }
        }
        if let Some(node) = root.get("params") {
            for (rule, params) in node.entries() {
                let Some(doc_rule) = catalogue::get(rule) else { continue };
                for (name, value) in params.entries() {
                    validate_param(doc_rule, name, &value, &mut |at: &Located<'_>, message: String| {
                        errors.push(error_at(
                            doc.position(at.site().span.start),
                            &at.pointer(),
                            message,
                            "ra2::config::param",
                        ));
                    });
                }
            }
        }
        for (key, value) in root.get("limits").iter().flat_map(Located::entries) {
            if value.as_int().is_some_and(|n| n < 1) {
                errors.push(error_at(
                    doc.position(value.site().span.start),
                    &value.pointer(),
                    format!("limits.{key} must be at least 1, found {}", value.source_text()),
                    "ra2::config::schema",
                ));
            }
        }
        if let Some(node) = root.get("kubernetes-version") {
            if node.as_str().and_then(parse_kubernetes_version).is_none() {
                errors.push(error_at(
                    doc.position(node.site().span.start),
                    &node.pointer(),
                    format!(
                        "kubernetes-version must be a version like \"1.33\", found {}",
                        node.source_text()
                    ),
                    "ra2::config::schema",
                ));
            }
        }
        for item in root.get("workload-kinds").iter().flat_map(Located::items) {
            check_workload_kind(&item, &mut |at: &Located<'_>, message: String| {
                errors.push(error_at(
                    doc.position(at.site().span.start),
                    &at.pointer(),
                    message,
                    "ra2::config::workload-kind",
                ));
            });
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let list = |v: Option<OneOrMany>| -> Vec<String> {
            match v {
                None => Vec::new(),
                Some(OneOrMany::One(s)) => s
                    .split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .map(str::to_owned)
                    .collect(),
                Some(OneOrMany::Many(v)) => v,
            }
        };
        let mut exemptions = raw.exemptions;
        if let Some(node) = root.get("exemptions") {
            for (exemption, item) in exemptions.iter_mut().zip(node.items()) {
                let span = item.site().span;
                exemption.site = Some(ConfigSite {
                    file: file.to_owned(),
                    pointer: item.pointer(),
                    start: doc.position(span.start),
                    end: doc.position(span.end),
                    offset: span.start,
                    len: span.len(),
                });
            }
        }
        Ok(Config {
            edition: raw.edition.unwrap_or_default(),
            fail_on: raw.fail_on.unwrap_or_default(),
            kubernetes_minor: raw
                .kubernetes_version
                .as_deref()
                .and_then(parse_kubernetes_version)
                .unwrap_or(DEFAULT_KUBERNETES_MINOR),
            select: list(raw.select),
            ignore: list(raw.ignore),
            severity: raw.severity,
            params: raw.params,
            exemptions,
            default_namespace: raw
                .default_namespace
                .unwrap_or_else(|| Config::default().default_namespace),
            workload_kinds: raw
                .workload_kinds
                .into_iter()
                .map(|w| DeclaredWorkload {
                    template: w.template.split('.').map(str::to_owned).collect(),
                    resource: w.resource.unwrap_or_else(|| format!("{}s", w.kind.to_lowercase())),
                    api_version: w.api_version,
                    kind: w.kind,
                })
                .collect(),
            strict: raw.strict.unwrap_or(false),
            limits: {
                let raw = raw.limits.unwrap_or_default();
                let default = Limits::default();
                Limits {
                    max_document_bytes: raw
                        .max_document_bytes
                        .map_or(default.max_document_bytes, |n| usize::try_from(n).unwrap_or(usize::MAX)),
                    max_depth: raw
                        .max_depth
                        .map_or(default.max_depth, |n| usize::try_from(n).unwrap_or(usize::MAX)),
                    max_alias_expansion: raw.max_alias_expansion.unwrap_or(default.max_alias_expansion),
                }
            },
            skip_non_k8s: raw.skip_non_k8s.unwrap_or(false),
            today: None,
            baseline: raw.baseline,
        })
    }

    /// Reads and validates settings given as a JSON value (JS options, admission policy
    /// settings): the same schema and checks as `.ra2.yaml`. `null` means the defaults. Errors
    /// carry the JSON pointer of the offending value; their line numbers refer to the value
    /// pretty-printed, so show the pointer instead.
    pub fn from_json(value: &serde_json::Value, source: &str) -> Result<Config, Vec<ConfigError>> {
        // No settings (what a policy-server sends unless told otherwise): the defaults, without
        // reading and validating `{}` for every fresh policy instance.
        if value.is_null() || value.as_object().is_some_and(serde_json::Map::is_empty) {
            return Ok(Config::default());
        }
        // JSON is YAML: one reader, one validator, the same messages as the config file.
        let text = serde_json::to_string_pretty(value).unwrap_or_default();
        Config::from_yaml(&text, source)
    }

    /// Is this check of this rule enabled by select/ignore?
    pub fn enabled(&self, rule: &str, check: &str) -> bool {
        let selected = self.select.is_empty() || self.select.iter().any(|s| selector_matches(s, rule, check));
        selected && !self.ignore.iter().any(|s| selector_matches(s, rule, check))
    }

    /// Could any check of this rule be enabled?
    pub fn rule_enabled(&self, rule: &str) -> bool {
        let selected = self.select.is_empty()
            || self
                .select
                .iter()
                .any(|s| selector_matches(s.split('/').next().unwrap_or(s), rule, ""));
        selected
            && !self
                .ignore
                .iter()
                .any(|s| !s.contains('/') && selector_matches(s, rule, ""))
    }

    /// The severity of a check: config override (check, then rule), else the catalogue.
    pub fn severity_for(&self, rule: &str, check: &str, doc: Option<&RuleDoc>, edition: Edition) -> Severity {
        // Most configs override nothing: no key to build for every finding then.
        let configured = || {
            self.severity
                .get(&format!("{rule}/{check}"))
                .or_else(|| self.severity.get(rule))
        };
        (!self.severity.is_empty())
            .then(configured)
            .flatten()
            .copied()
            .or_else(|| doc.map(|d| d.severity_of(check, edition)))
            .unwrap_or(Severity::Warning)
    }

    /// Pod-level `spec.resources` decide QoS from Kubernetes 1.34 (PodLevelResources beta,
    /// on by default); before that the field is ignored.
    pub fn pod_level_resources(&self) -> bool {
        self.kubernetes_minor >= 34
    }

    pub fn param(&self, rule: &str, name: &str) -> Option<&serde_json::Value> {
        self.params.get(rule)?.get(name)
    }
}

fn validate_param(rule: &RuleDoc, name: &str, value: &Located<'_>, report: &mut dyn FnMut(&Located<'_>, String)) {
    let Some(param) = rule.param(name) else {
        let known: Vec<&str> = rule.params.iter().map(|p| p.name).collect();
        let hint = match near_miss(name, known.iter().copied()) {
            Some(s) => format!(" (did you mean {s:?}?)"),
            None if known.is_empty() => String::from(" (this rule has no parameters)"),
            None => format!(" (known: {})", known.join(", ")),
        };
        report(value, format!("unknown parameter {name:?} for {}{hint}", rule.id));
        return;
    };
    let ok = match param.kind {
        "string" => value.as_str().is_some(),
        // A quantity may be written as a YAML number (`16`) or a string (`"15500m"`).
        "quantity" => {
            let scalar = value.as_str().is_some() || value.as_int().is_some() || value.type_name() == "number";
            scalar
                && value
                    .scalar_text()
                    .is_some_and(|t| crate::k8s::quantity::Quantity::parse_json_text(&t).is_ok())
        }
        "integer" => value.as_int().is_some(),
        "boolean" => value.as_bool().is_some(),
        "string-list" => value.is_seq() && value.items().all(|i| i.as_str().is_some()),
        _ => true,
    };
    if !ok {
        report(
            value,
            format!(
                "parameter {name:?} of {} must be a {}, found {}",
                rule.id,
                param.kind,
                value.type_name()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_settings_are_the_defaults() {
        let read = Config::from_yaml("{}", "test").unwrap();
        assert_eq!(read, Config::default());
        assert_eq!(Config::from_json(&serde_json::json!({}), "test").unwrap(), read);
    }

    #[test]
    fn compiled_schema_equals_its_file() {
        let source: serde_json::Value = serde_json::from_str(SCHEMA).unwrap();
        assert_eq!(*schema(), source);
        assert_eq!(schema().to_value(), source);
    }
}
