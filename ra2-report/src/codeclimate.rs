//! GitLab Code Quality (`--format codeclimate`): the Code Climate issue list GitLab reads from
//! a job's `artifacts:reports:codequality` and shows on the merge request's diff. One issue per
//! finding (on the Helm template line when the chart was found) and per unreadable document.
//!
//! GitLab compares fingerprints between the base and the head of a merge request to tell new
//! from fixed issues, so the fingerprint is ra2's own (rule, check, file, object, pointer;
//! never the line), numbered when one identity repeats.

use ra2_core::{Finding, Report, Severity};
use serde::Serialize;
use serde::ser::SerializeSeq as _;

use crate::compact::Store;

#[derive(Serialize)]
struct Issue<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    check_name: String,
    description: String,
    categories: [&'static str; 1],
    severity: &'static str,
    fingerprint: String,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

/// Code Climate severities: `info`, `minor`, `major`, `critical`, `blocker`.
fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

fn description(finding: &Finding) -> String {
    let mut text = finding.message.clone();
    if finding.object.kind.is_some() {
        text = format!("{text} ({} {})", finding.object, finding.pointer);
    }
    if finding.refused_by_api_server {
        text = format!("{text}. {}", ra2_core::report::REFUSED_BY_API_SERVER);
    }
    text
}

/// Where an issue is: the template line when the finding was mapped to its chart.
fn location(finding: &Finding) -> Location<'_> {
    match &finding.template {
        Some(t) => Location {
            path: &t.file,
            lines: Lines {
                begin: t.line.max(1),
                end: t.line.max(1),
            },
        },
        None => Location {
            path: &finding.file,
            lines: Lines {
                begin: finding.line.max(1),
                end: finding.end_line.max(finding.line).max(1),
            },
        },
    }
}

/// An unreadable document's identity: code, file, document and message (FNV-1a, 64 bits).
fn error_fingerprint(error: &ra2_core::LintError) -> String {
    let document = error.document.to_string();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [error.code.as_str(), &error.file, &document, &error.message] {
        for b in part.bytes().chain(std::iter::once(0)) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// The Code Quality report, pretty-printed.
pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    // Writing to memory fails only if serialization does, and it does not.
    let _ = write(&Store::from_report(report), &mut out);
    String::from_utf8(out).unwrap_or_else(|_| "[]\n".to_owned())
}

/// Writes the Code Quality report of a report held in a [`Store`] (sorted:
/// [`Store::finalize`]), pretty-printed, one issue at a time: the bytes of [`render`] for the
/// same report.
pub fn write(store: &Store, mut out: impl std::io::Write) -> std::io::Result<()> {
    let repeats = store.repeats();
    serde_json::to_writer_pretty(
        &mut out,
        &Issues {
            store,
            repeats: &repeats,
        },
    )?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The issues, one at a time: an unreadable document's, then each finding's.
struct Issues<'a> {
    store: &'a Store,
    /// [`Store::repeats`].
    repeats: &'a [(usize, usize)],
}

impl Serialize for Issues<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let errors = self.store.errors();
        let mut seq = serializer.serialize_seq(Some(errors.len() + self.store.finding_count()))?;
        for error in errors {
            seq.serialize_element(&Issue {
                kind: "issue",
                check_name: error.code.clone(),
                description: error.message.clone(),
                categories: ["Bug Risk"],
                severity: "critical",
                fingerprint: error_fingerprint(error),
                location: Location {
                    path: &error.file,
                    lines: Lines {
                        begin: error.line.max(1),
                        end: error.line.max(1),
                    },
                },
            })?;
        }
        let mut repeats = self.repeats.iter().peekable();
        for (i, finding) in self.store.findings().enumerate() {
            let mut fingerprint = crate::sarif::fingerprint(&finding);
            // One identity twice (the same object written twice in one file): numbered, so
            // that GitLab does not take them for one issue.
            if let Some(&(_, count)) = repeats.next_if(|(at, _)| *at == i) {
                fingerprint = format!("{fingerprint}:{count}");
            }
            seq.serialize_element(&Issue {
                kind: "issue",
                check_name: format!("{}/{}", finding.rule, finding.check),
                description: description(&finding),
                categories: ["Bug Risk"],
                severity: severity(finding.severity),
                fingerprint,
                location: location(&finding),
            })?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_become_issues_with_unique_fingerprints() {
        let config = ra2_core::Config::default();
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: [{name: h, hostPath: {path: /x}}]\n  containers: [{name: c, image: r/c:1}]\n";
        let report = ra2_core::lint_str("p.yaml", &format!("{pod}---\n{pod}---\n: [\n"), &config);
        let issues: serde_json::Value = serde_json::from_str(&render(&report)).unwrap();
        let issues = issues.as_array().unwrap();
        assert!(issues.len() > 2);
        let fingerprints: std::collections::BTreeSet<&str> =
            issues.iter().map(|i| i["fingerprint"].as_str().unwrap()).collect();
        assert_eq!(fingerprints.len(), issues.len(), "fingerprints are unique");
        let host_path: Vec<&serde_json::Value> = issues
            .iter()
            .filter(|i| i["check_name"] == "ra2.app.007/host-path")
            .collect();
        assert_eq!(host_path.len(), 2);
        assert_eq!(host_path[0]["location"]["path"], "p.yaml");
        assert_eq!(host_path[0]["location"]["lines"]["begin"], 5);
        assert_eq!(host_path[1]["location"]["lines"]["begin"], 12);
        assert_eq!(host_path[0]["type"], "issue");
        assert!(
            issues.iter().any(|i| i["severity"] == "critical"),
            "the unreadable document is an issue"
        );
    }
}
