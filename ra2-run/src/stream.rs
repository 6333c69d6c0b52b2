//! Output as the run goes, for inputs too large to hold (the README's "Large inputs"). A run
//! holds its results and prints them sorted at the end, as always, until it holds more than
//! [`STREAM_AFTER`] findings, errors and objects (or more than [`TEXT_AFTER`] bytes of input
//! text for snippets). From then on, `--format text`, `github` and `jsonl` print each
//! document's findings and errors as the linter settles them ([`Linter::take_settled`]), in
//! input order, keep only counts for the summary, and print what other documents decide
//! (cross-document findings) at the end. Helm output, whose findings move to their chart's
//! templates once the whole run is known, is never streamed.

use std::collections::BTreeMap;
use std::io::Write;

use ra2_core::lint::Settled;
use ra2_core::report::SeverityCounts;
use ra2_core::{Finding, LintError, Linter, Report, Severity};
use ra2_input::Kept;

use crate::render::text;
use crate::source_root::SourceRoot;
use crate::{Format, Options};

/// Findings, errors and objects a run holds before its output streams.
pub const STREAM_AFTER: usize = 20_000;
/// Bytes of input text kept for snippets before text output streams.
const TEXT_AFTER: usize = 32 << 20;
/// Lines of text kept before the next document, for its snippets' context.
const CONTEXT_LINES: usize = 4;

/// A run's output while it reads (see the module documentation).
pub struct Stream<'a> {
    args: &'a Options,
    /// Findings at or above this make the run fail.
    threshold: Option<Severity>,
    /// Results print as they settle.
    on: bool,
    /// This run may stream: a streaming format, and no Helm output.
    eligible: bool,
    /// The text of each input read so far, for snippets, until the output streams.
    pub sources: BTreeMap<String, String>,
    sources_bytes: usize,
    out: std::io::BufWriter<std::io::Stdout>,
    renderer: Option<text::Renderer>,
    root: Option<SourceRoot>,
    /// What was printed, for the summary and the exit status.
    findings: SeverityCounts,
    failing: usize,
    errors: usize,
    objects: usize,
    /// Whole inputs that could not be read, printed (the summary line counts them apart).
    input_errors: Vec<LintError>,
}

impl<'a> Stream<'a> {
    pub fn new(args: &'a Options, config: &ra2_core::Config, style: text::Style) -> Self {
        let eligible = !args.post_render && matches!(args.format, Format::Text | Format::Github | Format::Jsonl);
        Stream {
            args,
            threshold: config.fail_on.threshold(),
            on: false,
            eligible,
            sources: BTreeMap::new(),
            sources_bytes: 0,
            out: std::io::BufWriter::new(std::io::stdout()),
            renderer: (args.format == Format::Text).then(|| text::Renderer::new(style)),
            root: None,
            findings: SeverityCounts::default(),
            failing: 0,
            errors: 0,
            objects: 0,
            input_errors: Vec::new(),
        }
    }

    /// Whether the output streams (from some point of the run on).
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Keeps an input's text for snippets, until the output streams.
    pub fn keep(&mut self, name: &str, text: Option<String>) {
        if let (Some(text), false) = (text, self.on) {
            self.sources_bytes += text.len();
            self.sources.insert(name.to_owned(), text);
        }
    }

    /// After each input, document or List item: starts streaming when the run holds too much,
    /// and once streaming, prints what the linter settled. `kept` is the text of the input
    /// being read, which snippets come from; only its last lines are kept after.
    pub fn progress(&mut self, linter: &mut Linter<'_>, kept: Option<&mut Kept>) {
        if !self.eligible {
            return;
        }
        if !self.on {
            let text = self.sources_bytes + kept.as_ref().map_or(0, |k| k.text.len());
            if linter.held() <= self.args.stream_after && text <= TEXT_AFTER {
                return;
            }
            if linter.saw_templates() {
                self.eligible = false;
                return;
            }
            self.on = true;
        }
        let settled = linter.take_settled();
        self.objects += settled.objects.len();
        self.print(settled.findings, settled.errors, kept.as_deref());
        self.sources.clear();
        self.sources_bytes = 0;
        if let Some(kept) = kept {
            kept.keep_last_lines(CONTEXT_LINES);
        }
    }

    /// Prints findings and errors in input order (an error first at one place).
    fn print(&mut self, findings: Vec<Finding>, errors: Vec<LintError>, kept: Option<&Kept>) {
        for f in &findings {
            match f.severity {
                Severity::Error => self.findings.error += 1,
                Severity::Warning => self.findings.warning += 1,
                Severity::Info => self.findings.info += 1,
            }
            if self.threshold.is_some_and(|t| f.severity >= t) {
                self.failing += 1;
            }
        }
        self.errors += errors.len();
        self.input_errors
            .extend(errors.iter().filter(|e| e.code.starts_with("ra2::input::")).cloned());
        let mut batch = Settled {
            findings,
            errors,
            objects: Vec::new(),
        };
        let mut out = String::new();
        match self.args.format {
            Format::Jsonl => {
                let _ = ra2_report::jsonl::Lines::new(&mut self.out).merged(&batch.findings, &batch.errors);
                return;
            }
            Format::Github => {
                let root = self
                    .root
                    .get_or_insert_with(|| SourceRoot::new(self.args.source_root.as_deref()));
                let mut report = Report {
                    findings: std::mem::take(&mut batch.findings),
                    errors: std::mem::take(&mut batch.errors),
                    ..Report::default()
                };
                root.rebase(&mut report);
                merged(&report.findings, &report.errors, |item| {
                    out.push_str(&match item {
                        Item::Error(e) => ra2_report::github::error_command(e),
                        Item::Finding(f) => ra2_report::github::finding_command(f),
                    });
                });
            }
            _ => {
                let Some(renderer) = self.renderer.as_ref() else {
                    return;
                };
                let fixed: BTreeMap<&str, std::borrow::Cow<'_, str>> = self
                    .sources
                    .iter()
                    .map(|(name, text)| (name.as_str(), text::lone_cr_fixed(text)))
                    .collect();
                let kept_text = kept.map(|k| (k, text::lone_cr_fixed(&k.text)));
                let lookup = |file: &str| -> Option<text::Source<'_>> {
                    if let Some((k, t)) = kept_text.as_ref().filter(|(k, _)| k.name == file) {
                        return Some(text::Source {
                            name: &k.name,
                            text: t,
                            offset: k.offset,
                            line: k.line,
                        });
                    }
                    let (name, text) = fixed.get_key_value(file)?;
                    Some(text::Source {
                        name,
                        text,
                        offset: 0,
                        line: 0,
                    })
                };
                merged(&batch.findings, &batch.errors, |item| match item {
                    Item::Error(e) => renderer.error(&mut out, e, lookup(&e.file)),
                    Item::Finding(f) => renderer.finding(&mut out, f, &lookup),
                });
            }
        }
        let _ = self.out.write_all(out.as_bytes());
    }

    /// Ends a streaming run: prints the rest of `report` (what [`Linter::finish`] decided at
    /// the end, and inputs that could not be read) and the summary; returns the exit status.
    pub fn finish(mut self, report: Report) -> u8 {
        let Report {
            edition,
            findings,
            errors,
            objects,
            mut summary,
        } = report;
        self.objects += objects.len();
        let (printed_findings, printed_errors) = (self.findings, self.errors);
        self.print(findings, errors, None);
        // `summary` counts what `report` holds; add what was printed before.
        summary.findings.error += printed_findings.error;
        summary.findings.warning += printed_findings.warning;
        summary.findings.info += printed_findings.info;
        summary.errors += printed_errors;
        summary.objects = self.objects;
        if self.args.format == Format::Jsonl {
            let _ = ra2_report::jsonl::Lines::new(&mut self.out).summary(&summary);
        } else {
            let whole = Report {
                edition,
                errors: std::mem::take(&mut self.input_errors),
                summary,
                ..Report::default()
            };
            let mut line = ra2_report::summary_line(&whole);
            line.push('\n');
            let _ = self.out.write_all(line.as_bytes());
        }
        let _ = self.out.flush();
        if self.errors > 0 {
            ra2_report::EXIT_ERROR
        } else if self.failing > 0 {
            ra2_report::EXIT_FINDINGS
        } else {
            ra2_report::EXIT_OK
        }
    }
}

enum Item<'r> {
    Error(&'r LintError),
    Finding(&'r Finding),
}

/// Findings and errors, each sorted as in the report, in input order: by file, line and column,
/// an error before a finding at one place.
fn merged<'r>(findings: &'r [Finding], errors: &'r [LintError], mut each: impl FnMut(Item<'r>)) {
    let mut findings = findings.iter().peekable();
    let mut errors = errors.iter().peekable();
    loop {
        match (findings.peek(), errors.peek()) {
            (Some(f), Some(e)) if (&f.file, f.line, f.column) < (&e.file, e.line, e.column) => {
                each(Item::Finding(f));
                findings.next();
            }
            (_, Some(e)) => {
                each(Item::Error(e));
                errors.next();
            }
            (Some(f), None) => {
                each(Item::Finding(f));
                findings.next();
            }
            (None, None) => return,
        }
    }
}
