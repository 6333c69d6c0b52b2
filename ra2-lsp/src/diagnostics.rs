//! A document's lint as diagnostics: one per finding (severity, source `ra2`, code
//! `<rule>/<check>`, the finding's range, its related places) and one per document that could
//! not be read (code: the error's, such as `ra2::parse::yaml`).

use std::fmt::Write as _;

use lsp_types::{Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, Url};
use ra2_core::{Config, Finding, LintError, Severity};

use crate::position::Lines;

/// The diagnostics' source: how editors tell ra2's from other servers'.
pub(crate) const SOURCE: &str = "ra2";

/// One document's lint: its findings with their ranges, for hover and code actions.
#[derive(Debug)]
pub(crate) struct Analysis {
    /// The document version linted.
    pub(crate) version: i32,
    pub(crate) findings: Vec<(Finding, Range)>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// Lints `text`, named `name` as `ra2 lint` run in the workspace root names it, as `ra2 lint`
/// lints a file (strict mode as configured). Documents that are not Kubernetes objects (no
/// apiVersion or kind) are skipped, not reported: an editor opens every YAML file.
pub(crate) fn lint(name: &str, text: &str, config: &Config) -> ra2_core::Report {
    let mut linter = ra2_run::new_linter(config).with_unused_exemptions(false);
    linter.add_file_with(name, text, true);
    linter.finish()
}

/// The analysis of `text` (version `version`) from its report.
pub(crate) fn analyse(uri: &Url, version: i32, name: &str, text: &str, report: ra2_core::Report) -> Analysis {
    let lines = Lines::new(text);
    let mut findings = Vec::new();
    let mut diagnostics = Vec::new();
    for finding in report.findings {
        // Findings on other files (the config's) belong to those files.
        if finding.file != name {
            continue;
        }
        let range = lines.range_of_ra2((finding.line, finding.column), (finding.end_line, finding.end_column));
        diagnostics.push(of_finding(uri, &finding, range, &lines));
        findings.push((finding, range));
    }
    for error in report.errors.iter().filter(|e| e.file == name) {
        diagnostics.push(of_error(error, &lines));
    }
    Analysis {
        version,
        findings,
        diagnostics,
    }
}

pub(crate) fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// The diagnostic of a finding at `range` of the document `uri`.
pub(crate) fn of_finding(uri: &Url, finding: &Finding, range: Range, lines: &Lines<'_>) -> Diagnostic {
    let related: Vec<DiagnosticRelatedInformation> = finding
        .related
        .iter()
        .map(|r| DiagnosticRelatedInformation {
            location: Location::new(
                uri.clone(),
                lines.range_of_ra2((r.line, r.column), (r.end_line, r.end_column)),
            ),
            message: r.message.clone(),
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(severity(finding.severity)),
        code: Some(NumberOrString::String(format!("{}/{}", finding.rule, finding.check))),
        code_description: None,
        source: Some(SOURCE.to_owned()),
        message: message(finding),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// A finding's message, with the sentence every human-facing output adds for a condition the
/// API server refuses.
fn message(finding: &Finding) -> String {
    if finding.refused_by_api_server {
        format!("{} ({})", finding.message, ra2_core::report::REFUSED_BY_API_SERVER)
    } else {
        finding.message.clone()
    }
}

/// The diagnostic of a document that could not be read: its whole first line.
pub(crate) fn of_error(error: &LintError, lines: &Lines<'_>) -> Diagnostic {
    let start = lines.of_ra2(error.line, error.column);
    let end = lines.line_range(start.line as usize).end.max(start);
    Diagnostic {
        range: Range::new(start, end),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(error.code.clone())),
        code_description: None,
        source: Some(SOURCE.to_owned()),
        message: error.message.clone(),
        related_information: None,
        tags: None,
        data: None,
    }
}

/// The diagnostics of an invalid `.ra2.yaml` (its text: `text`).
pub(crate) fn of_config_errors(errors: &[ra2_core::ConfigError], text: &str) -> Vec<Diagnostic> {
    let lines = Lines::new(text);
    errors
        .iter()
        .map(|e| {
            let start = lines.of_ra2(e.line, e.column);
            let end = lines.line_range(start.line as usize).end.max(start);
            Diagnostic {
                range: Range::new(start, end),
                severity: Some(DiagnosticSeverity::ERROR),
                code: Some(NumberOrString::String(e.code.to_owned())),
                code_description: None,
                source: Some(SOURCE.to_owned()),
                message: format!("{} (the previous settings stay in use)", e.message),
                related_information: None,
                tags: None,
                data: None,
            }
        })
        .collect()
}

/// Hover text for the findings at a position: each one's message, then what `ra2 explain
/// <rule>/<check>` prints (fenced, as it is laid out for a terminal).
pub(crate) fn hover_text(findings: &[&Finding]) -> String {
    let mut out = String::new();
    for (i, finding) in findings.iter().enumerate() {
        if i > 0 {
            out.push_str("\n---\n\n");
        }
        let _ = write!(
            out,
            "**{}/{}** ({}): {}\n\n",
            finding.rule, finding.check, finding.severity, finding.message
        );
        if !finding.help.is_empty() {
            out.push_str(&finding.help);
            out.push_str("\n\n");
        }
        if let Some(doc) = ra2_core::catalogue::get(&finding.rule) {
            let check = doc.check(&finding.check).map(|c| c.slug);
            let text = ra2_report::catalogue::explain(doc, check, HOVER_WIDTH);
            out.push_str("```text\n");
            out.push_str(text.trim_end());
            out.push_str("\n```\n");
        }
    }
    out
}

/// The width `ra2 explain` wraps hover text to.
const HOVER_WIDTH: usize = 80;
