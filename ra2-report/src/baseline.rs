//! Baselines: the findings a chart already has, recorded (`ra2 lint --write-baseline FILE`) so
//! that later runs (`--baseline FILE`) report only what is new.
//!
//! A finding is recorded by an identity that survives edits which only move it ([`Identity`]):
//! the file (relative to the source root; Helm output by its template's `# Source:` path), the
//! object (API group, kind, namespace, name), rule, check, and the JSON pointer with list
//! indices replaced by the item's name where it has one. Lines added above, documents
//! reordered, reindentation and comments leave it unchanged; renaming the object or the file
//! does not (the finding is then new, and its old entry stale). Equal identities are counted,
//! so a baseline of two equal findings hides two, not every later one.
//!
//! The file is JSON, sorted, one identity per entry, so its diff in a pull request shows which
//! findings were fixed or accepted.

use std::collections::BTreeMap;

use ra2_core::Finding;
use serde::{Deserialize, Serialize};

/// The key that marks a ra2 baseline file; its value is the format version.
const FORMAT_KEY: &str = "ra2-baseline";
/// The format version this ra2 writes and reads.
pub const FORMAT_VERSION: u64 = 1;

/// What identifies a finding across edits (see the module documentation). Field order is the
/// sort order of a baseline file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    pub file: String,
    /// The API group (`apps`; empty for the core group), not the version: moving an object
    /// from `v1beta1` to `v1` keeps its findings' identity.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub rule: String,
    pub check: String,
    /// The JSON pointer in the object, list items named where they have a name
    /// (`/spec/containers/name=app/image`).
    pub pointer: String,
}

impl Identity {
    /// The identity of `finding`, whose file the report names `file` (give it relative to the
    /// source root). Helm output is named by its template (`# Source:`), wherever it was
    /// rendered to.
    pub fn of(finding: &Finding, file: &str) -> Identity {
        let object = &finding.object;
        let group = object
            .api_version
            .as_deref()
            .and_then(|v| v.rsplit_once('/'))
            .map_or("", |(group, _)| group);
        let pointer = finding.named_pointer.as_deref().unwrap_or(&finding.pointer);
        Identity {
            file: finding.source_template.as_deref().unwrap_or(file).to_owned(),
            group: group.to_owned(),
            kind: object.kind.clone().unwrap_or_default(),
            namespace: object.namespace.clone().unwrap_or_default(),
            name: object.name.clone().unwrap_or_default(),
            rule: finding.rule.clone(),
            check: finding.check.clone(),
            pointer: in_object(pointer).to_owned(),
        }
    }
}

/// `pointer` relative to its object: an item of a `kind: List` is `/items/N/...` in the
/// document, and N changes when items are reordered, while the object, which the identity
/// names apart, does not.
fn in_object(pointer: &str) -> &str {
    ra2_core::fix::object_prefix(pointer).map_or(pointer, |prefix| pointer.get(prefix.len()..).unwrap_or_default())
}

/// One recorded identity and how many findings had it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    #[serde(flatten)]
    identity: Identity,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    count: usize,
}

fn one() -> usize {
    1
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_one(n: &usize) -> bool {
    *n == 1
}

#[derive(Serialize, Deserialize)]
struct Tool {
    name: String,
    version: String,
}

/// The file as written.
#[derive(Serialize, Deserialize)]
struct File {
    #[serde(rename = "ra2-baseline")]
    format: u64,
    tool: Tool,
    edition: String,
    findings: Vec<Entry>,
}

/// Recorded findings, counted by identity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    /// The edition the baseline was written with.
    pub edition: String,
    /// The ra2 version that wrote it.
    pub version: String,
    entries: BTreeMap<Identity, usize>,
}

/// Findings a baseline hid, and the recorded ones not found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    pub baselined: usize,
    pub stale: usize,
}

impl Baseline {
    /// A baseline of `findings`; `file` names each finding's file as the identity wants it
    /// (relative to the source root).
    pub fn record<'f>(
        edition: &str,
        findings: impl IntoIterator<Item = &'f Finding>,
        file: impl Fn(&Finding) -> String,
    ) -> Baseline {
        let mut entries = BTreeMap::new();
        for finding in findings {
            *entries.entry(Identity::of(finding, &file(finding))).or_default() += 1;
        }
        Baseline {
            edition: edition.to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            entries,
        }
    }

    /// Findings recorded (counting repeats).
    pub fn len(&self) -> usize {
        self.entries.values().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The file's text: pretty JSON, entries sorted by identity, ending in a newline.
    pub fn to_json(&self) -> String {
        let file = File {
            format: FORMAT_VERSION,
            tool: Tool {
                name: "ra2".to_owned(),
                version: self.version.clone(),
            },
            edition: self.edition.clone(),
            findings: self
                .entries
                .iter()
                .map(|(identity, &count)| Entry {
                    identity: identity.clone(),
                    count,
                })
                .collect(),
        };
        // Plain data of strings and numbers: serializing it cannot fail.
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a baseline file's text; `name` is how errors name the file. Anything that is not
    /// a ra2 baseline this version can read is an error saying why, never an empty baseline.
    pub fn parse(text: &str, name: &str) -> Result<Baseline, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            format!(
                "{name}:{}:{}: not a ra2 baseline: the file is not JSON ({e})",
                e.line(),
                e.column()
            )
        })?;
        let Some(format) = value.get(FORMAT_KEY) else {
            return Err(format!(
                "{name}: not a ra2 baseline: it has no \"{FORMAT_KEY}\" key (another tool's file? \
                 write one with `ra2 lint --write-baseline {name}`)"
            ));
        };
        match format.as_u64() {
            Some(FORMAT_VERSION) => {}
            Some(newer) if newer > FORMAT_VERSION => {
                return Err(format!(
                    "{name}: the baseline is format version {newer}, written by a newer ra2; this ra2 ({}) \
                     reads version {FORMAT_VERSION}: upgrade ra2",
                    env!("CARGO_PKG_VERSION")
                ));
            }
            _ => {
                return Err(format!(
                    "{name}: not a ra2 baseline: \"{FORMAT_KEY}\" is {format}, not a format version ({FORMAT_VERSION})"
                ));
            }
        }
        let file: File = serde_json::from_value(value).map_err(|e| format!("{name}: not a valid ra2 baseline: {e}"))?;
        let mut entries = BTreeMap::new();
        for entry in file.findings {
            if entry.count == 0 {
                return Err(format!(
                    "{name}: not a valid ra2 baseline: an entry for {}/{} has count 0",
                    entry.identity.rule, entry.identity.check
                ));
            }
            *entries.entry(entry.identity).or_default() += entry.count;
        }
        Ok(Baseline {
            edition: file.edition,
            version: file.tool.version,
            entries,
        })
    }

    /// Removes from `findings` those the baseline records (each recorded identity hides as
    /// many findings as it counts) and says how many it hid and how many recorded ones were
    /// not found. `file` names files as for [`Baseline::record`].
    pub fn apply(&self, findings: &mut Vec<Finding>, file: impl Fn(&Finding) -> String) -> Applied {
        let mut left = self.entries.clone();
        let before = findings.len();
        findings.retain(|finding| {
            let identity = Identity::of(finding, &file(finding));
            match left.get_mut(&identity) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            }
        });
        Applied {
            baselined: before - findings.len(),
            stale: left.values().sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(pointer: &str, named: Option<&str>) -> Finding {
        Finding {
            rule: "ra2.app.007".to_owned(),
            check: "host-path".to_owned(),
            severity: ra2_core::Severity::Warning,
            message: "m".to_owned(),
            help: String::new(),
            file: "a.yaml".to_owned(),
            line: 3,
            column: 1,
            end_line: 3,
            end_column: 2,
            document: 0,
            object: ra2_core::ObjectRef {
                api_version: Some("apps/v1".to_owned()),
                kind: Some("Deployment".to_owned()),
                namespace: None,
                name: Some("upf".to_owned()),
            },
            pointer: pointer.to_owned(),
            source_template: None,
            template: None,
            related: Vec::new(),
            refused_by_api_server: false,
            named_pointer: named.map(str::to_owned),
            fix: None,
            offset: 0,
            len: 0,
        }
    }

    #[test]
    fn list_items_and_names_leave_the_identity() {
        let plain = Identity::of(&finding("/spec/volumes/0", Some("/spec/volumes/name=data")), "a.yaml");
        let listed = Identity::of(
            &finding("/items/7/spec/volumes/2", Some("/items/7/spec/volumes/name=data")),
            "a.yaml",
        );
        assert_eq!(plain, listed);
        assert_eq!(plain.group, "apps");
        assert_eq!(in_object("/items/12"), "");
        assert_eq!(in_object("/items/x/y"), "/items/x/y");
        assert_eq!(in_object("/itemsy"), "/itemsy");
    }

    #[test]
    fn counts_hide_as_many_as_recorded() {
        let one = finding("/spec/volumes/0", None);
        let baseline = Baseline::record("base", [&one], |f| f.file.clone());
        let mut findings = vec![one.clone(), one.clone()];
        let applied = baseline.apply(&mut findings, |f| f.file.clone());
        assert_eq!(applied, Applied { baselined: 1, stale: 0 });
        assert_eq!(findings.len(), 1);
        let applied = baseline.apply(&mut Vec::new(), |f| f.file.clone());
        assert_eq!(applied, Applied { baselined: 0, stale: 1 });
    }

    #[test]
    fn the_file_round_trips_and_bad_files_say_why() {
        let baseline = Baseline::record("base", [&finding("/spec/volumes/0", None)], |f| f.file.clone());
        let text = baseline.to_json();
        assert_eq!(Baseline::parse(&text, "b.json"), Ok(baseline));
        let errors = [
            ("{", "not JSON"),
            ("{\"results\": []}", "no \"ra2-baseline\" key"),
            ("{\"ra2-baseline\": 2}", "newer ra2"),
            ("{\"ra2-baseline\": \"1\"}", "not a format version"),
            (
                "{\"ra2-baseline\": 1, \"tool\": {\"name\": \"ra2\", \"version\": \"0\"}, \"edition\": \"base\", \"findings\": [{\"rule\": \"x\"}]}",
                "not a valid ra2 baseline",
            ),
        ];
        for (text, why) in errors {
            let error = Baseline::parse(text, "b.json").err().unwrap_or_default();
            assert!(error.starts_with("b.json") && error.contains(why), "{text}: {error}");
        }
    }
}
