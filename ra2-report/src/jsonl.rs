//! JSON Lines (`--format jsonl`): one finding or error object per line, with exactly the
//! fields of the JSON report's `findings` and `errors` entries plus `"type": "finding"` or
//! `"type": "error"`, in input order (file, then line and column), and a last line
//! `"type": "summary"` with the fields of the JSON report's `summary`.
//!
//! The objects are serialised by the same `serde` derives as the JSON report, so the two
//! formats cannot drift apart; [`Lines`] writes one line at a time, for streaming.

use std::io::Write;

use ra2_core::report::Summary;
use ra2_core::{Finding, LintError, Report};
use serde::Serialize;

/// One line: the object's own fields after its `type`.
#[derive(Serialize)]
struct Line<'a, T: Serialize> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    object: &'a T,
}

/// Writes lines to `out` one at a time.
pub struct Lines<W: Write> {
    out: W,
}

impl<W: Write> Lines<W> {
    pub fn new(out: W) -> Self {
        Self { out }
    }

    fn line<T: Serialize>(&mut self, kind: &'static str, object: &T) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, &Line { kind, object })?;
        self.out.write_all(b"\n")
    }

    pub fn finding(&mut self, finding: &Finding) -> std::io::Result<()> {
        self.line("finding", finding)
    }

    pub fn error(&mut self, error: &LintError) -> std::io::Result<()> {
        self.line("error", error)
    }

    /// The last line.
    pub fn summary(&mut self, summary: &Summary) -> std::io::Result<()> {
        self.line("summary", summary)?;
        self.out.flush()
    }

    /// The findings and errors of one file (or of a whole finalized report), each list sorted
    /// as [`Report::finalize`] sorts it, merged into input order: by file, line and column,
    /// an error before a finding at the same place.
    pub fn merged(&mut self, findings: &[Finding], errors: &[LintError]) -> std::io::Result<()> {
        let mut findings = findings.iter().peekable();
        let mut errors = errors.iter().peekable();
        loop {
            match (findings.peek(), errors.peek()) {
                (Some(f), Some(e)) if (&f.file, f.line, f.column) < (&e.file, e.line, e.column) => {
                    self.finding(f)?;
                    findings.next();
                }
                (_, Some(e)) => {
                    self.error(e)?;
                    errors.next();
                }
                (Some(f), None) => {
                    self.finding(f)?;
                    findings.next();
                }
                (None, None) => return Ok(()),
            }
        }
    }

    /// A whole finalized report.
    pub fn report(&mut self, report: &Report) -> std::io::Result<()> {
        self.merged(&report.findings, &report.errors)?;
        self.summary(&report.summary)
    }
}

/// A finalized report as JSON Lines text.
pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    // Writing to a Vec fails only if serialisation does, which the derives never do.
    let _ = Lines::new(&mut out).report(report);
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_an_object_with_a_type_and_the_json_fields() {
        let config = ra2_core::Config::default();
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  hostNetwork: true\n  containers: [{name: a, image: r/a:1}]\n---\nkind: [\n";
        let report = ra2_core::lint_str("a.yaml", text, &config);
        assert!(!report.findings.is_empty() && !report.errors.is_empty());
        let json = report.to_json_value();
        let lines: Vec<serde_json::Value> = render(&report)
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        let (last, items) = lines.split_last().expect("a summary line");
        let mut summary = last.clone();
        assert_eq!(summary["type"], "summary");
        summary.as_object_mut().expect("object").remove("type");
        assert_eq!(summary, json["summary"]);
        let mut findings = Vec::new();
        let mut errors = Vec::new();
        for item in items {
            let mut item = item.clone();
            let kind = item.as_object_mut().expect("object").remove("type");
            match kind.as_ref().and_then(|k| k.as_str()) {
                Some("finding") => findings.push(item),
                Some("error") => errors.push(item),
                other => panic!("unexpected type {other:?}"),
            }
        }
        assert_eq!(serde_json::Value::Array(findings), json["findings"]);
        assert_eq!(serde_json::Value::Array(errors), json["errors"]);
        // Input order: the error (last document) comes after the findings of the first.
        assert_eq!(items.last().map(|i| &i["type"]), Some(&serde_json::json!("error")));
    }
}
