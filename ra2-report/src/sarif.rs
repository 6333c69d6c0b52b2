//! SARIF 2.1.0 (`--format sarif`), for GitHub code scanning and other SARIF viewers: the rule
//! catalogue as `tool.driver.rules`, one result per finding, unreadable documents as tool
//! execution notifications. Private serde structs over exactly the parts we fill in.
//!
//! `ruleId` is the RA2 requirement id, so a code-scanning alert links to the rule's
//! documentation; the check slug travels in the result's `properties.check`. Two
//! fingerprints: `primaryLocationLineHash`, the one GitHub code scanning matches alerts by,
//! computed from the primary location's file as GitHub's upload action computes it
//! ([`crate::line_hash`]); and ra2's own `ra2/v1`, which hashes what identifies a finding
//! (rule, check, file, object, JSON pointer), never its line.
//!
//! Files are named relative to the source root (`uriBaseId: "%SRCROOT%"`) when the caller
//! says so ([`Options::source_root`]), and Helm output mapped back to its chart has the
//! template line as its primary location and the rendered position as a related location;
//! the message links every related location (`[text](id)`), since GitHub shows only those.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ra2_core::catalogue::{self, Edition, PseudoRule, RuleDoc};
use ra2_core::{Finding, LintError, Report, Severity};
use serde::Serialize;
use serde::ser::SerializeSeq as _;

use crate::compact::Store;

use crate::{object_path, rule_doc_url};

const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The key of our fingerprint in `partialFingerprints`; bump the suffix if its inputs change.
const FINGERPRINT_KEY: &str = "ra2/v1";
/// The key of the baseline identity's fingerprint ([`identity_fingerprint`]).
const IDENTITY_KEY: &str = "ra2/v2";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    #[serde(skip_serializing_if = "Option::is_none")]
    automation_details: Option<AutomationDetails>,
    invocations: [Invocation; 1],
    #[serde(rename = "originalUriBaseIds", skip_serializing_if = "BTreeMap::is_empty")]
    original_uri_base_ids: BTreeMap<&'static str, BaseId>,
    results: Results<'a>,
    /// Our columns count characters.
    column_kind: &'static str,
    properties: RunProperties<'a>,
}

#[derive(Serialize)]
struct AutomationDetails {
    id: String,
}

/// `%SRCROOT%`: described, not located, so that no absolute path of the machine that ran ra2
/// ends up in an upload; code scanning resolves relative URIs against the repository root.
#[derive(Serialize)]
struct BaseId {
    description: Text,
}

/// What the SARIF log needs beyond the report.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// `runs[0].automationDetails.id` (`--category`); a `/` is added as GitHub's upload
    /// action adds it, so the category is the same whichever way the log is uploaded.
    pub category: Option<&'a str>,
    /// File names in the report are relative to the source root: URIs get
    /// `uriBaseId: "%SRCROOT%"`.
    pub source_root: bool,
    /// The line hashes ([`crate::line_hash`]) of the lines that results point at, by file name
    /// as the report gives it and 1-based line ([`crate::line_hash::hashes_of_lines`]).
    pub line_hashes: Option<&'a BTreeMap<String, BTreeMap<usize, crate::line_hash::LineHash>>>,
    /// The text edits of findings' fixes ([`FixKey`]), for `fixes[].artifactChanges`: made
    /// by the caller, which has the files.
    pub fixes: Option<&'a BTreeMap<FixKey, Vec<Change>>>,
}

/// Which finding a fix's edits are for: its file (as the report names it), byte offset, rule
/// and check.
pub type FixKey = (String, usize, String, String);

/// The key of `finding` in [`Options::fixes`].
pub fn fix_key(finding: &Finding) -> FixKey {
    (
        finding.file.clone(),
        finding.offset,
        finding.rule.clone(),
        finding.check.clone(),
    )
}

/// A fix's edits of one file: the finding's own file, or (for Helm output mapped to its chart)
/// a template or values file of the chart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The file, named as the report names files.
    pub file: String,
    pub replacements: Vec<Replacement>,
}

/// One edit of a fix: replace the region (1-based lines, character columns; empty for an
/// insertion) with `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    pub start_line: usize,
    pub start_column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Text,
    artifact_changes: Vec<ArtifactChange>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<SarifReplacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifReplacement {
    deleted_region: Region,
    #[serde(skip_serializing_if = "Option::is_none")]
    inserted_content: Option<Text>,
}

#[derive(Serialize)]
struct RunProperties<'a> {
    edition: &'a str,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: String,
    /// A friendly name: the title in UpperCamelCase (`HostVolumesAreNotUsed`).
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    help_uri: String,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
    /// How often a result is a true finding: ra2's checks read what the manifest says, so
    /// `very-high`; `high` for the heuristics (hard-coded addresses, unused exemptions).
    precision: &'static str,
    /// Security controls only (`security-severity` in the catalogue): code scanning files
    /// their results as security alerts with this score.
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    security_severity: Option<&'static str>,
    /// The rule's check slugs: the values of a result's `properties.check`.
    checks: Vec<String>,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
    descriptor: Descriptor,
    locations: [Location; 1],
}

#[derive(Serialize)]
struct Descriptor {
    id: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix>,
    properties: ResultProperties<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultProperties<'a> {
    check: &'a str,
    pointer: &'a str,
    document: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_template: Option<&'a str>,
}

// Field names are SARIF's.
#[allow(clippy::struct_field_names)]
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<usize>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    fully_qualified_name: String,
    kind: &'static str,
}

/// SARIF result and notification levels.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A title as an UpperCamelCase name: `Host volumes are not used` → `HostVolumesAreNotUsed`.
pub fn friendly_name(title: &str) -> String {
    title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Rules whose checks are heuristics rather than readings of the manifest.
fn precision(id: &str) -> &'static str {
    match id {
        "ra2.app.035" | "exemption" => "high",
        _ => "very-high",
    }
}

fn catalogue_rule(doc: &RuleDoc, edition: Edition) -> Rule {
    let checks: Vec<String> = doc
        .checks_in(edition)
        .map(|c| format!("- {}: {}", c.slug, c.description.trim()))
        .collect();
    let checks_markdown: Vec<String> = doc
        .checks_in(edition)
        .map(|c| format!("- `{}` ({}): {}", c.slug, c.title, c.description.trim()))
        .collect();
    Rule {
        id: doc.id.to_owned(),
        name: friendly_name(doc.title),
        short_description: Text {
            text: doc.title.to_owned(),
        },
        full_description: Text {
            text: doc.requirement.trim().to_owned(),
        },
        help: Help {
            text: format!(
                "{}\n\nFix: {}\n\nChecks:\n{}",
                doc.rationale.trim(),
                doc.remediation.trim(),
                checks.join("\n")
            ),
            markdown: format!(
                "{}\n\n**Fix:** {}\n\n**Checks**\n\n{}",
                doc.rationale.trim(),
                doc.remediation.trim(),
                checks_markdown.join("\n")
            ),
        },
        help_uri: rule_doc_url(doc.id),
        default_configuration: Configuration {
            level: level(doc.severity.get(edition).unwrap_or(Severity::Warning)),
        },
        properties: RuleProperties {
            tags: if doc.security_severity.is_some() {
                vec!["kubernetes", "anuket-ra2", "security"]
            } else {
                vec!["kubernetes", "anuket-ra2"]
            },
            precision: precision(doc.id),
            security_severity: doc.security_severity,
            checks: doc.checks_in(edition).map(|c| c.slug.to_owned()).collect(),
        },
    }
}

fn pseudo_rule(rule: &PseudoRule) -> Rule {
    Rule {
        id: rule.id.to_owned(),
        name: friendly_name(rule.title),
        short_description: Text {
            text: rule.title.to_owned(),
        },
        full_description: Text {
            text: rule.description.to_owned(),
        },
        help: Help {
            text: rule.description.to_owned(),
            markdown: rule.description.to_owned(),
        },
        help_uri: rule_doc_url(rule.id),
        default_configuration: Configuration {
            level: level(rule.severity),
        },
        properties: RuleProperties {
            tags: vec!["kubernetes"],
            precision: precision(rule.id),
            security_severity: None,
            checks: Vec::new(),
        },
    }
}

/// A file name as a URI reference: relative names stay relative (resolved against the
/// checkout by code scanning), absolute paths become `file://` URIs; anything outside the
/// unreserved characters is percent-encoded, so `<stdin>` is a valid reference too.
pub fn file_uri(name: &str) -> String {
    let path = name.replace('\\', "/");
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 2 && bytes.first().is_some_and(u8::is_ascii_alphabetic) && bytes.get(1) == Some(&b':');
    let (prefix, rest) = if drive {
        ("file:///", path.as_str())
    } else if path.starts_with('/') {
        ("file://", path.as_str())
    } else {
        ("", path.as_str())
    };
    let mut out = String::from(prefix);
    for (i, b) in rest.bytes().enumerate() {
        let keep = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') || (drive && i == 1);
        if keep {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// FNV-1a, 128 bits: stable across runs, platforms and versions, unlike std's hasher.
fn fnv1a_128(parts: &[&str]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    let mut hash = OFFSET;
    for part in parts {
        // A separator that cannot occur in the parts keeps ("ab", "c") apart from ("a", "bc").
        for b in part.bytes().chain(std::iter::once(0)) {
            hash ^= u128::from(b);
            hash = hash.wrapping_mul(PRIME);
        }
    }
    hash
}

/// What identifies a finding across runs: rule, check, file, object and pointer. Not the
/// line, column, message or document index, which move when unrelated text changes.
pub fn fingerprint(finding: &Finding) -> String {
    let object = &finding.object;
    format!(
        "{:032x}",
        fnv1a_128(&[
            &finding.rule,
            &finding.check,
            &finding.file,
            object.kind.as_deref().unwrap_or(""),
            object.namespace.as_deref().unwrap_or(""),
            object.name.as_deref().unwrap_or(""),
            &finding.pointer,
        ])
    )
}

/// A baseline's identity of a finding ([`crate::baseline::Identity`], with the file as the
/// report names it), hashed: unlike [`fingerprint`], list items count by name and a List
/// item's place in its List does not count, so it survives reordering too.
pub fn identity_fingerprint(finding: &Finding) -> String {
    let id = crate::baseline::Identity::of(finding, &finding.file);
    format!(
        "{:032x}",
        fnv1a_128(&[
            &id.file,
            &id.group,
            &id.kind,
            &id.namespace,
            &id.name,
            &id.rule,
            &id.check,
            &id.pointer,
        ])
    )
}

/// A file name as an artifact location: relative to `%SRCROOT%` when the report's names are
/// and the name is a path (not `<stdin>`, not absolute).
fn artifact(name: &str, options: &Options<'_>) -> ArtifactLocation {
    let uri = file_uri(name);
    let relative = !(name.starts_with('<') || uri.starts_with("file:"));
    ArtifactLocation {
        uri,
        uri_base_id: (options.source_root && relative).then_some("%SRCROOT%"),
    }
}

/// Escapes the brackets of message text that carries links (`[text](id)`), as SARIF requires.
fn escape_brackets(text: &str) -> String {
    text.replace('[', "\\[").replace(']', "\\]")
}

fn region(line: usize, column: usize, end_line: usize, end_column: usize) -> Region {
    Region {
        start_line: line.max(1),
        start_column: column.max(1),
        end_line: Some(end_line.max(line.max(1))),
        end_column: Some(end_column.max(1)),
    }
}

fn result<'a>(finding: &'a Finding, index: &BTreeMap<String, usize>, options: &Options<'_>) -> SarifResult<'a> {
    let has_object = finding.object.kind.is_some();
    let mut message = if has_object {
        format!("{} ({})", finding.message, finding.object)
    } else {
        finding.message.clone()
    };
    if finding.refused_by_api_server {
        message = format!("{message}. {}", ra2_core::report::REFUSED_BY_API_SERVER);
    }
    // Brackets are escaped only where the message carries links.
    let links = finding.template.is_some() || finding.source_template.is_some() || !finding.related.is_empty();
    let mut message = if links { escape_brackets(&message) } else { message };
    let mut related_locations: Vec<Location> = Vec::new();
    let mut link = |location: Location, text: &str, message: &mut String| {
        let id = related_locations.len();
        let _ = write!(message, " [{}]({id})", escape_brackets(text));
        related_locations.push(Location {
            id: Some(id),
            ..location
        });
    };
    // The primary location: the template line when the finding was mapped to its chart.
    let (primary_file, primary_region) = if let Some(template) = &finding.template {
        let rendered = Location {
            id: None,
            physical_location: PhysicalLocation {
                artifact_location: artifact(&finding.file, options),
                region: Some(region(
                    finding.line,
                    finding.column,
                    finding.end_line,
                    finding.end_column,
                )),
            },
            logical_locations: Vec::new(),
            message: Some(Text {
                text: format!("rendered at {}:{}:{}", finding.file, finding.line, finding.column),
            }),
        };
        link(rendered, "rendered output", &mut message);
        // A point: the template line and column where the key or action starts.
        let point = Region {
            start_line: template.line.max(1),
            start_column: template.column.max(1),
            end_line: None,
            end_column: None,
        };
        (template.file.as_str(), point)
    } else {
        if let Some(template) = &finding.source_template {
            let source = Location {
                id: None,
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri: file_uri(template),
                        uri_base_id: None,
                    },
                    region: None,
                },
                logical_locations: Vec::new(),
                message: Some(Text {
                    text: format!("rendered from Helm template {template}"),
                }),
            };
            link(source, &format!("Helm template {template}"), &mut message);
        }
        (
            finding.file.as_str(),
            region(finding.line, finding.column, finding.end_line, finding.end_column),
        )
    };
    for related in &finding.related {
        let location = Location {
            id: None,
            physical_location: PhysicalLocation {
                artifact_location: artifact(&finding.file, options),
                region: Some(region(
                    related.line,
                    related.column,
                    related.end_line,
                    related.end_column,
                )),
            },
            logical_locations: Vec::new(),
            message: Some(Text {
                text: related.message.clone(),
            }),
        };
        link(location, &related.message, &mut message);
    }
    let mut partial_fingerprints = BTreeMap::from([
        (FINGERPRINT_KEY, fingerprint(finding)),
        (IDENTITY_KEY, identity_fingerprint(finding)),
    ]);
    if let Some(hash) = options
        .line_hashes
        .and_then(|hashes| hashes.get(primary_file))
        .and_then(|hashes| hashes.get(&primary_region.start_line))
    {
        partial_fingerprints.insert("primaryLocationLineHash", hash.to_string());
    }
    SarifResult {
        rule_id: &finding.rule,
        rule_index: index.get(finding.rule.as_str()).copied(),
        level: level(finding.severity),
        message: Text { text: message },
        locations: [Location {
            id: None,
            physical_location: PhysicalLocation {
                artifact_location: artifact(primary_file, options),
                region: Some(primary_region),
            },
            logical_locations: if has_object {
                vec![LogicalLocation {
                    fully_qualified_name: object_path(&finding.object),
                    kind: "resource",
                }]
            } else {
                Vec::new()
            },
            message: None,
        }],
        related_locations,
        partial_fingerprints,
        fixes: sarif_fix(finding, options),
        properties: ResultProperties {
            check: &finding.check,
            pointer: &finding.pointer,
            document: finding.document,
            source_template: finding.source_template.as_deref(),
        },
    }
}

/// `fixes`: the finding's fix as edits of files, when the caller made them (for a finding
/// mapped to a Helm template, of the chart's files where the fix goes into the chart).
fn sarif_fix(finding: &Finding, options: &Options<'_>) -> Vec<SarifFix> {
    let (Some(fix), Some(changes)) = (
        finding.fix.as_ref(),
        options.fixes.and_then(|fixes| fixes.get(&fix_key(finding))),
    ) else {
        return Vec::new();
    };
    if changes.is_empty() {
        return Vec::new();
    }
    vec![SarifFix {
        description: Text {
            text: format!("{} ({})", fix.title, fix.applicability.as_str()),
        },
        artifact_changes: changes
            .iter()
            .map(|change| ArtifactChange {
                artifact_location: artifact(&change.file, options),
                replacements: change
                    .replacements
                    .iter()
                    .map(|r| SarifReplacement {
                        deleted_region: Region {
                            start_line: r.start_line,
                            start_column: r.start_column,
                            end_line: Some(r.end_line),
                            end_column: Some(r.end_column),
                        },
                        inserted_content: (!r.text.is_empty()).then(|| Text { text: r.text.clone() }),
                    })
                    .collect(),
            })
            .collect(),
    }]
}

fn notification(error: &LintError, options: &Options<'_>) -> Notification {
    Notification {
        level: "error",
        message: Text {
            text: error.message.clone(),
        },
        descriptor: Descriptor { id: error.code.clone() },
        locations: [Location {
            id: None,
            physical_location: PhysicalLocation {
                artifact_location: artifact(&error.file, options),
                region: Some(Region {
                    start_line: error.line.max(1),
                    start_column: error.column.max(1),
                    end_line: None,
                    end_column: None,
                }),
            },
            logical_locations: Vec::new(),
            message: None,
        }],
    }
}

/// The results, one at a time, from the findings of a [`Store`].
struct Results<'a> {
    store: &'a Store,
    index: &'a BTreeMap<String, usize>,
    options: &'a Options<'a>,
    /// [`Store::repeats`].
    repeats: &'a [(usize, usize)],
}

impl Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.store.finding_count()))?;
        let mut repeats = self.repeats.iter().peekable();
        // Repeats of the identity fingerprint, numbered as those of `ra2/v1` are.
        let mut identities: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for (i, finding) in self.store.findings().enumerate() {
            let mut result = result(&finding, self.index, self.options);
            // Two findings with the same identity (the same object written twice in one
            // file) must not share a fingerprint, or code scanning would merge them: number
            // the repeats.
            if let Some(&(_, count)) = repeats.next_if(|(at, _)| *at == i) {
                if let Some(fingerprint) = result.partial_fingerprints.get_mut(FINGERPRINT_KEY) {
                    let _ = write!(fingerprint, ":{count}");
                }
            }
            if let Some(fingerprint) = result.partial_fingerprints.get_mut(IDENTITY_KEY) {
                let seen = identities.entry(fingerprint.clone()).or_default();
                if *seen > 0 {
                    let _ = write!(fingerprint, ":{seen}");
                }
                *seen += 1;
            }
            seq.serialize_element(&result)?;
        }
        seq.end()
    }
}

/// The SARIF log of a report, pretty-printed, with file names as the report gives them.
pub fn render(report: &Report) -> String {
    render_with(report, &Options::default())
}

/// The SARIF log of a report, pretty-printed.
pub fn render_with(report: &Report, options: &Options<'_>) -> String {
    let mut out = Vec::new();
    // Writing to memory fails only if serialization does, and it does not.
    let _ = write(&Store::from_report(report), options, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the SARIF log of a report held in a [`Store`] (sorted: [`Store::finalize`]),
/// pretty-printed, one result at a time: the bytes of [`render_with`] for the same report.
pub fn write(store: &Store, options: &Options<'_>, mut out: impl std::io::Write) -> std::io::Result<()> {
    let edition = Edition::parse(&store.edition).unwrap_or_default();
    let mut rules: Vec<Rule> = catalogue::all()
        .iter()
        .filter(|doc| doc.in_edition(edition))
        .map(|doc| catalogue_rule(doc, edition))
        .collect();
    // Strict mode's pseudo-rule is listed only when strict mode ran.
    let strict = store.summary.strict_skipped.is_some();
    rules.extend(
        catalogue::PSEUDO_RULES
            .iter()
            .filter(|r| strict || r.id != catalogue::SCHEMA_RULE)
            .map(pseudo_rule),
    );
    let index: BTreeMap<String, usize> = rules.iter().enumerate().map(|(i, r)| (r.id.clone(), i)).collect();
    let repeats = store.repeats();
    let log = Log {
        schema: SCHEMA_URI,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "ra2",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: env!("CARGO_PKG_REPOSITORY"),
                    rules,
                },
            },
            automation_details: options.category.map(|category| AutomationDetails {
                id: if category.ends_with('/') {
                    category.to_owned()
                } else {
                    format!("{category}/")
                },
            }),
            invocations: [Invocation {
                execution_successful: store.errors().is_empty(),
                tool_execution_notifications: store.errors().iter().map(|e| notification(e, options)).collect(),
            }],
            original_uri_base_ids: if options.source_root {
                BTreeMap::from([(
                    "%SRCROOT%",
                    BaseId {
                        description: Text {
                            text: "The source root: the repository's top directory (ra2 --source-root).".to_owned(),
                        },
                    },
                )])
            } else {
                BTreeMap::new()
            },
            results: Results {
                store,
                index: &index,
                options,
                repeats: &repeats,
            },
            column_kind: "unicodeCodePoints",
            properties: RunProperties {
                edition: &store.edition,
            },
        }],
    };
    serde_json::to_writer_pretty(&mut out, &log)?;
    out.write_all(b"\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn friendly_names() {
        assert_eq!(friendly_name("Host volumes are not used"), "HostVolumesAreNotUsed");
        assert_eq!(
            friendly_name("Objects match the Kubernetes OpenAPI schema (strict mode)"),
            "ObjectsMatchTheKubernetesOpenAPISchemaStrictMode"
        );
        assert_eq!(
            friendly_name("CPU requests stay below the node's CPU"),
            "CPURequestsStayBelowTheNodeSCPU"
        );
    }

    #[test]
    fn message_links_escape_brackets() {
        assert_eq!(escape_brackets("add: [NET_ADMIN]"), "add: \\[NET_ADMIN\\]");
    }

    #[test]
    fn uris_are_valid_references() {
        assert_eq!(file_uri("manifests/upf.yaml"), "manifests/upf.yaml");
        assert_eq!(file_uri("<stdin>"), "%3Cstdin%3E");
        assert_eq!(file_uri("a b/c:d.yaml"), "a%20b/c%3Ad.yaml");
        assert_eq!(file_uri("/tmp/x.yaml"), "file:///tmp/x.yaml");
        assert_eq!(file_uri("C:\\x\\y.yaml"), "file:///C:/x/y.yaml");
        assert_eq!(file_uri("é.yaml"), "%C3%A9.yaml");
    }

    #[test]
    fn fingerprints_ignore_positions() {
        let config = ra2_core::Config::default();
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: core}\nspec:\n  volumes: [{name: h, hostPath: {path: /x}}]\n  containers: [{name: c, image: r/c:1}]\n";
        let shifted = format!("# a comment\n# another\n{pod}");
        let find = |text: &str| {
            let report = ra2_core::lint_str("p.yaml", text, &config);
            let f = report
                .findings
                .iter()
                .find(|f| f.rule == "ra2.app.007")
                .cloned()
                .expect("finding");
            (f.line, fingerprint(&f))
        };
        let (line_a, a) = find(pod);
        let (line_b, b) = find(&shifted);
        assert_ne!(line_a, line_b);
        assert_eq!(a, b);
        assert_eq!(a.len(), 32);
        let other = find(&pod.replace("name: p,", "name: q,")).1;
        assert_ne!(a, other, "another object is another finding");
    }

    /// `ra2/v2` is the baseline's identity: containers count by name, so reordering them
    /// keeps it, while `ra2/v1` (by index) changes.
    #[test]
    fn identity_fingerprints_follow_names_not_places() {
        let config = ra2_core::Config::default();
        let pod = |containers: &str| {
            format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers: [{containers}]\n")
        };
        let a = "{name: a, image: r/a:1, securityContext: {privileged: true}}";
        let b = "{name: b, image: r/b:1}";
        let prints = |text: &str| {
            let report = ra2_core::lint_str("p.yaml", text, &config);
            let f = report
                .findings
                .iter()
                .find(|f| f.check == "privileged-device")
                .cloned()
                .expect("finding");
            (fingerprint(&f), identity_fingerprint(&f))
        };
        let (v1, v2) = prints(&pod(&format!("{a}, {b}")));
        let (v1_moved, v2_moved) = prints(&pod(&format!("{b}, {a}")));
        assert_ne!(v1, v1_moved);
        assert_eq!(v2, v2_moved);
        let (_, renamed) = prints(&pod(&format!("{}, {b}", a.replace("name: a", "name: c"))));
        assert_ne!(v2, renamed, "another container is another finding");
    }

    /// The same object twice in one file: the repeats of a fingerprint are numbered, in the
    /// order of the results, as code scanning needs them apart.
    #[test]
    fn repeated_fingerprints_are_numbered() {
        let config = ra2_core::Config::default();
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: core}\nspec:\n  volumes: [{name: h, hostPath: {path: /x}}]\n  containers: [{name: c, image: r/c:1}]\n";
        let text = format!("{pod}---\n{}---\n{pod}---\n{pod}", pod.replace("name: p,", "name: q,"));
        let report = ra2_core::lint_str("p.yaml", &text, &config);
        let log: serde_json::Value = serde_json::from_str(&render(&report)).expect("SARIF");
        let got: Vec<&str> = log["runs"][0]["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| r["partialFingerprints"][FINGERPRINT_KEY].as_str().unwrap_or_default())
            .collect();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let expected: Vec<String> = report
            .findings
            .iter()
            .map(|f| {
                let plain = fingerprint(f);
                let count = seen.entry(plain.clone()).or_default();
                *count += 1;
                if *count > 1 {
                    format!("{plain}:{}", *count - 1)
                } else {
                    plain
                }
            })
            .collect();
        assert_eq!(got, expected);
        assert!(got.iter().any(|f| f.ends_with(":2")), "{got:?}");
    }
}
