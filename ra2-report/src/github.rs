//! GitHub Actions workflow commands (`--format github`): one `::error`, `::warning` or
//! `::notice` line per finding, which Actions turns into an annotation on the file and line
//! in the run summary and the pull request diff. No upload step or token is needed.

use std::fmt::Write as _;

use ra2_core::{Finding, LintError, Report, Severity};

use crate::summary_line;

/// Escapes a command's message, as the Actions toolkit does (`escapeData`).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a command property's value (`escapeProperty`): also `:` and `,`, which would
/// otherwise end the value.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// The workflow commands of a report, then its summary line as a plain log line.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for error in &report.errors {
        out.push_str(&error_command(error));
    }
    for f in &report.findings {
        out.push_str(&finding_command(f));
    }
    out.push_str(&summary_line(report));
    out.push('\n');
    out
}

/// The `::error` command of a read error, with its line break.
pub fn error_command(error: &LintError) -> String {
    format!(
        "::error file={},line={},col={},title={}::{}\n",
        escape_property(&error.file),
        error.line,
        error.column,
        escape_property(&error.code),
        escape_data(&error.message)
    )
}

/// The workflow command of a finding, with its line break.
pub fn finding_command(f: &Finding) -> String {
    let mut message = f.message.clone();
    if f.object.kind.is_some() {
        let _ = write!(message, "\n{} {}", f.object, f.pointer);
    }
    // Helm output mapped back to its chart: the annotation goes on the template line.
    match (&f.template, &f.source_template) {
        (Some(_), _) => {
            let _ = write!(message, "\nrendered: {}:{}:{}", f.file, f.line, f.column);
        }
        (None, Some(template)) => {
            let _ = write!(message, "\ntemplate: {template}");
        }
        (None, None) => {}
    }
    if f.refused_by_api_server {
        let _ = write!(message, "\n{}", ra2_core::report::REFUSED_BY_API_SERVER);
    }
    if !f.help.is_empty() {
        let _ = write!(message, "\nhelp: {}", f.help);
    }
    let (file, line, column, end_line, end_column) = match &f.template {
        Some(t) => (t.file.as_str(), t.line, t.column, t.line, t.column),
        None => (f.file.as_str(), f.line, f.column, f.end_line, f.end_column),
    };
    format!(
        "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
        command(f.severity),
        escape_property(file),
        line,
        column,
        end_line,
        end_column,
        escape_property(&format!("{}/{}", f.rule, f.check)),
        escape_data(&message)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_toolkit() {
        assert_eq!(escape_data("50% of\r\nlines: a,b"), "50%25 of%0D%0Alines: a,b");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
