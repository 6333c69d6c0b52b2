//! Human-readable output: miette diagnostics with the source snippet, a label on the
//! offending node, the rule id and the fix.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};
use ra2_core::{Finding, LintError, Report, Severity};

/// How to draw diagnostics.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
    pub width: usize,
}

impl Default for Style {
    fn default() -> Self {
        Style { color: false, width: 100 }
    }
}

struct FindingDiagnostic<'a> {
    finding: &'a Finding,
    source: &'a NamedSource<String>,
}

impl std::fmt::Debug for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.finding.message)
    }
}

impl std::fmt::Display for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.finding.message)
    }
}

impl std::error::Error for FindingDiagnostic<'_> {}

fn miette_severity(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    }
}

impl Diagnostic for FindingDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        let f = self.finding;
        Some(Box::new(format!("{}/{}", f.rule, f.check)))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(miette_severity(self.finding.severity))
    }

    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        (!self.finding.help.is_empty()).then(|| Box::new(&self.finding.help) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let f = self.finding;
        let mut labels = vec![LabeledSpan::new_primary_with_span(
            Some(format!("{} {}", f.object, f.pointer)),
            SourceSpan::new(f.offset.into(), f.len.max(1)),
        )];
        for r in &f.related {
            labels.push(LabeledSpan::new_with_span(
                Some(r.message.clone()),
                SourceSpan::new(r.offset.into(), r.len.max(1)),
            ));
        }
        Some(Box::new(labels.into_iter()))
    }
}

struct ErrorDiagnostic<'a> {
    error: &'a LintError,
    source: &'a NamedSource<String>,
}

impl std::fmt::Debug for ErrorDiagnostic<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.error.message)
    }
}

impl std::fmt::Display for ErrorDiagnostic<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.error.message)
    }
}

impl std::error::Error for ErrorDiagnostic<'_> {}

impl Diagnostic for ErrorDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        Some(Box::new(&self.error.code))
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(LabeledSpan::new_primary_with_span(
            Some(format!("document {}", self.error.document)),
            SourceSpan::new(self.error.offset.into(), 1),
        ))))
    }
}

/// Renders every error and finding of `report`, in order, then a summary line. `sources`
/// maps file names to their text; a file without text is rendered without snippets.
pub fn render(report: &Report, sources: &BTreeMap<String, String>, style: Style) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false)
        .with_context_lines(1);
    let mut out = String::new();
    let mut named: BTreeMap<String, NamedSource<String>> = BTreeMap::new();
    let mut source_for = |file: &str| -> Option<NamedSource<String>> {
        if let Some(s) = named.get(file) {
            return Some(s.clone());
        }
        let text = sources.get(file)?;
        let source = NamedSource::new(file, text.clone()).with_language("yaml");
        named.insert(file.to_owned(), source.clone());
        Some(source)
    };
    for error in &report.errors {
        // Input that could not be read has no text to point into.
        let source = if error.code.starts_with("ra2::input::") { None } else { source_for(&error.file) };
        match source {
            Some(source) => {
                let _ = handler.render_report(&mut out, &ErrorDiagnostic { error, source: &source });
            }
            None => {
                let _ = writeln!(out, "  × {}:{}:{}: {} [{}]", error.file, error.line, error.column, error.message, error.code);
            }
        }
        out.push('\n');
    }
    for finding in &report.findings {
        match source_for(&finding.file) {
            Some(source) => {
                let _ = handler.render_report(&mut out, &FindingDiagnostic { finding, source: &source });
            }
            None => {
                let _ = writeln!(
                    out,
                    "{}:{}:{}: {} [{}/{}] {}",
                    finding.file, finding.line, finding.column, finding.severity, finding.rule, finding.check, finding.message
                );
            }
        }
        out.push('\n');
    }
    out.push_str(&summary_line(report));
    out.push('\n');
    out
}

/// `3 errors, 1 warning, 0 infos in 12 objects (4 files); 1 document could not be read`.
pub fn summary_line(report: &Report) -> String {
    let s = &report.summary;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut line = format!(
        "{}, {}, {} in {} ({}), edition {}",
        plural(s.findings.error, "error"),
        plural(s.findings.warning, "warning"),
        plural(s.findings.info, "info"),
        plural(s.objects, "object"),
        plural(s.files, "file"),
        report.edition,
    );
    if s.errors > 0 {
        let _ = write!(line, "; {} could not be read", plural(s.errors, "document"));
    }
    if s.suppressed > 0 {
        let _ = write!(line, "; {} suppressed", plural(s.suppressed, "finding"));
    }
    line
}
