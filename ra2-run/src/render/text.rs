//! Human-readable output: miette diagnostics with the source snippet, a label on the
//! offending node, the rule id and the fix.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, SourceCode,
    SourceSpan, SpanContents,
};
use ra2_core::{Finding, LintError, Report, Severity};
use ra2_report::summary_line;

/// How to draw diagnostics.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
    pub width: usize,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            color: false,
            width: 100,
        }
    }
}

struct FindingDiagnostic<'a> {
    finding: &'a Finding,
    source: &'a Window<'a>,
    /// The span in the Helm template the finding was mapped to, when the snippet shows the
    /// template instead of the rendered stream.
    template_span: Option<(usize, usize)>,
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
        let f = self.finding;
        let mut help = f.help.clone();
        if f.refused_by_api_server {
            help = format!("{}\n{help}", ra2_core::report::REFUSED_BY_API_SERVER);
        }
        // The snippet already shows the template when it was mapped and read.
        if let Some(template) = f.source_template.as_ref().filter(|_| self.template_span.is_none()) {
            if !help.is_empty() {
                help.push('\n');
            }
            match &f.template {
                Some(t) => write!(help, "template: {}:{}:{}", t.file, t.line, t.column),
                None => write!(help, "template: {template}"),
            }
            .unwrap_or_default();
        }
        (!help.is_empty()).then(|| Box::new(help) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let f = self.finding;
        if let Some((offset, len)) = self.template_span {
            return Some(Box::new(std::iter::once(LabeledSpan::new_primary_with_span(
                Some(format!(
                    "{} {} (rendered at {}:{}:{})",
                    f.object, f.pointer, f.file, f.line, f.column
                )),
                SourceSpan::new(offset.into(), len.max(1)),
            ))));
        }
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
    source: &'a Window<'a>,
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

/// The lines of a file around one diagnostic, reporting offsets and lines as in the whole
/// file. miette finds a span's line by scanning its source from the start, so handing it the
/// whole file costs time in proportion to the file for every diagnostic; on one large stream
/// (`kubectl get -A -o yaml | ra2 lint -`) that adds up to minutes.
struct Window<'a> {
    name: &'a str,
    text: &'a str,
    /// Byte offset and 0-based line of `text` in the file.
    offset: usize,
    line: usize,
}

/// Lines of context kept on each side of the labelled spans (the handler shows one).
pub(crate) const WINDOW_CONTEXT: usize = 3;

impl<'a> Window<'a> {
    /// The window over `file` covering `spans` (offset, length), given the 1-based line of
    /// the span that starts first.
    fn new(name: &'a str, file: &'a str, spans: &[(usize, usize)], first_span_line: usize) -> Self {
        let whole = Window {
            name,
            text: file,
            offset: 0,
            line: 0,
        };
        let Some(min) = spans.iter().map(|&(o, _)| o).min() else {
            return whole;
        };
        let max = spans.iter().map(|&(o, l)| o + l.max(1)).max().unwrap_or(min);
        let bytes = file.as_bytes();
        let min = min.min(bytes.len());
        let max = max.min(bytes.len());
        // Back to the start of the line, then WINDOW_CONTEXT more lines; `lines_back` counts
        // the line breaks passed.
        let mut start = min;
        let mut lines_back = 0;
        while start > 0 {
            if bytes.get(start - 1) == Some(&b'\n') {
                if lines_back == WINDOW_CONTEXT {
                    break;
                }
                lines_back += 1;
            }
            start -= 1;
        }
        let mut end = max;
        let mut lines_ahead = 0;
        while end < bytes.len() {
            end += 1;
            if bytes.get(end - 1) == Some(&b'\n') {
                lines_ahead += 1;
                if lines_ahead > WINDOW_CONTEXT {
                    break;
                }
            }
        }
        match file.get(start..end) {
            Some(text) if first_span_line > lines_back => Window {
                name,
                text,
                offset: start,
                line: first_span_line - 1 - lines_back,
            },
            _ => whole,
        }
    }
}

impl SourceCode for Window<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let local = span.offset().checked_sub(self.offset).ok_or(MietteError::OutOfBounds)?;
        let inner = self.text.read_span(
            &SourceSpan::new(local.into(), span.len()),
            context_lines_before,
            context_lines_after,
        )?;
        let inner_span = inner.span();
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_owned(),
            inner.data(),
            SourceSpan::new((inner_span.offset() + self.offset).into(), inner_span.len()),
            inner.line() + self.line,
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// `text` with every `\r` that is not followed by `\n` replaced by `\n`, as miette's snippets
/// need (see [`render`]).
pub fn lone_cr_as_lf(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return std::borrow::Cow::Borrowed(text);
    }
    let replaced: String = text
        .char_indices()
        .map(|(i, c)| if lone(i) { '\n' } else { c })
        .collect();
    std::borrow::Cow::Owned(replaced)
}

/// The byte span of the text at 1-based `line` and `column` (characters) of `text`, to the end
/// of that line.
fn template_span(text: &str, line: usize, column: usize) -> Option<(usize, usize)> {
    let mut start = 0;
    for _ in 1..line {
        start += text.get(start..)?.find('\n')? + 1;
    }
    let rest = text.get(start..)?;
    let line_text = rest.split(['\n', '\r']).next().unwrap_or_default();
    let skip: usize = line_text
        .chars()
        .take(column.saturating_sub(1))
        .map(char::len_utf8)
        .sum();
    let len = line_text.get(skip..).unwrap_or_default().trim_end().len();
    Some((start + skip, len))
}

/// The text of a file to show snippets from: `text` starts at absolute byte `offset`, 0-based
/// line `line`, of the file (all of it, or what a streaming run still keeps).
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub offset: usize,
    pub line: usize,
}

/// Draws errors and findings one at a time.
pub struct Renderer {
    handler: GraphicalReportHandler,
}

impl Renderer {
    pub fn new(style: Style) -> Self {
        let theme = if style.color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        Renderer {
            handler: GraphicalReportHandler::new_themed(theme)
                .with_width(style.width)
                .with_links(false)
                .with_context_lines(1),
        }
    }

    /// One error, with a snippet from `source` when it has the error's text.
    pub fn error(&self, out: &mut String, error: &LintError, source: Option<Source<'_>>) {
        // Input that could not be read has no text to point into.
        let source = source
            .filter(|_| !error.code.starts_with("ra2::input::"))
            .and_then(|s| window(s, &[(error.offset, 1)], error.line));
        match source {
            Some(source) => {
                let _ = self
                    .handler
                    .render_report(out, &ErrorDiagnostic { error, source: &source });
            }
            None => {
                let _ = writeln!(
                    out,
                    "  × {}:{}:{}: {} [{}]",
                    error.file, error.line, error.column, error.message, error.code
                );
            }
        }
        out.push('\n');
    }

    /// One finding, with a snippet from its file's (or, mapped, its template's) source when
    /// `sources` has it.
    pub fn finding<'s>(&self, out: &mut String, finding: &Finding, sources: &dyn Fn(&str) -> Option<Source<'s>>) {
        // Helm output mapped back to its chart: the snippet is the template's.
        let template = finding.template.as_ref().and_then(|t| {
            let source = sources(t.file.as_str()).filter(|s| s.offset == 0)?;
            let span = template_span(source.text, t.line, t.column)?;
            Some((Window::new(source.name, source.text, &[span], t.line), span))
        });
        if let Some((source, span)) = template {
            let _ = self.handler.render_report(
                out,
                &FindingDiagnostic {
                    finding,
                    source: &source,
                    template_span: Some(span),
                },
            );
            out.push('\n');
            return;
        }
        let mut spans = vec![(finding.offset, finding.len)];
        spans.extend(finding.related.iter().map(|r| (r.offset, r.len)));
        let first_line = std::iter::once((finding.offset, finding.line))
            .chain(finding.related.iter().map(|r| (r.offset, r.line)))
            .min()
            .map_or(finding.line, |(_, line)| line);
        if let Some(source) = sources(&finding.file).and_then(|s| window(s, &spans, first_line)) {
            let _ = self.handler.render_report(
                out,
                &FindingDiagnostic {
                    finding,
                    source: &source,
                    template_span: None,
                },
            );
        } else {
            let _ = write!(
                out,
                "{}:{}:{}: {} [{}/{}] {}",
                finding.file,
                finding.line,
                finding.column,
                finding.severity,
                finding.rule,
                finding.check,
                finding.message
            );
            match (&finding.template, &finding.source_template) {
                (Some(t), _) => write!(out, " (template: {}:{}:{})", t.file, t.line, t.column),
                (None, Some(template)) => write!(out, " (template: {template})"),
                (None, None) => Ok(()),
            }
            .unwrap_or_default();
            out.push('\n');
        }
        out.push('\n');
    }
}

/// The window of `source` around `spans`, when `source` holds all of them.
fn window<'a>(source: Source<'a>, spans: &[(usize, usize)], first_span_line: usize) -> Option<Window<'a>> {
    if source.offset == 0 {
        return Some(Window::new(source.name, source.text, spans, first_span_line));
    }
    let end = source.offset + source.text.len();
    if spans.iter().any(|&(o, l)| o < source.offset || o + l > end) || first_span_line <= source.line {
        return None;
    }
    let local: Vec<(usize, usize)> = spans.iter().map(|&(o, l)| (o - source.offset, l)).collect();
    let mut w = Window::new(source.name, source.text, &local, first_span_line - source.line);
    w.offset += source.offset;
    w.line += source.line;
    Some(w)
}

/// Renders every error and finding of `report`, in order, then a summary line. `sources`
/// maps file names to their text; a file without text is rendered without snippets.
pub fn render(report: &Report, sources: &BTreeMap<String, String>, style: Style) -> String {
    let renderer = Renderer::new(style);
    let mut out = String::new();
    // A lone `\r` ends a line in YAML, but not for the snippet renderer: show it as the `\n` it
    // stands for (one byte for one, so offsets stay right).
    let sources: BTreeMap<&str, std::borrow::Cow<'_, str>> = sources
        .iter()
        .map(|(name, text)| (name.as_str(), lone_cr_as_lf(text)))
        .collect();
    let lookup = |file: &str| -> Option<Source<'_>> {
        let (name, text) = sources.get_key_value(file)?;
        Some(Source {
            name,
            text,
            offset: 0,
            line: 0,
        })
    };
    for error in &report.errors {
        renderer.error(&mut out, error, lookup(&error.file));
    }
    for finding in &report.findings {
        renderer.finding(&mut out, finding, &lookup);
    }
    out.push_str(&summary_line(report));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_deep_in_a_large_file_keep_their_file_lines() {
        let filler = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n---\n".repeat(300);
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: r/c:1}]\n  volumes:\n    - name: h\n      hostPath: {path: /x}\n";
        let text = format!("{filler}{pod}");
        let config = ra2_core::Config {
            select: vec!["ra2.app.007".to_owned()],
            ..Default::default()
        };
        let report = ra2_core::lint_str("big.yaml", &text, &config);
        let sources = BTreeMap::from([("big.yaml".to_owned(), text)]);
        let out = render(&report, &sources, Style::default());
        assert!(out.contains("[big.yaml:1508:7]"), "{out}");
        assert!(out.contains(" 1508 │       hostPath: {path: /x}"), "{out}");
        assert!(out.contains(" 1507 │     - name: h"), "{out}");
    }

    #[test]
    fn windows_cover_their_spans() {
        let file = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
        let w = Window::new("f", file, &[(8, 1)], 5);
        assert_eq!((w.text, w.offset, w.line), ("b\nc\nd\ne\nf\ng\nh\n", 2, 1));
        let w = Window::new("f", file, &[(0, 1)], 1);
        assert_eq!((w.text, w.offset, w.line), ("a\nb\nc\nd\n", 0, 0));
        let w = Window::new("f", file, &[(99, 1)], 1);
        assert_eq!(w.offset, 0, "out of range spans get the whole file");
    }
}
