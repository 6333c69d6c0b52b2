//! Output as the run goes, for inputs too large to hold (the README's "Large inputs"). A run
//! holds its results and prints them sorted at the end, as always, until it holds more than
//! [`STREAM_AFTER`] findings, errors and objects (or more than [`TEXT_AFTER`] bytes of input
//! text for snippets). From then on, `--format text`, `github` and `jsonl` print each
//! document's findings and errors as the linter settles them ([`Linter::take_settled`]), in
//! input order, keep only counts for the summary, and print what other documents decide
//! (cross-document findings) at the end; `--format json`, `sarif`, `junit` and `codeclimate`
//! keep what settles in a compact store ([`ra2_report::compact`]) and print it sorted at the
//! end. Helm output read before the output streams stops it from streaming (its findings move
//! to their chart's templates once the whole run is known).

use std::collections::BTreeMap;
use std::io::Write;

use ra2_core::lint::{Finished, Settled};
use ra2_core::report::SeverityCounts;
use ra2_core::{FailOn, Finding, LintError, Linter, Report, Severity};
use ra2_input::Kept;
use ra2_report::compact::Store;

use crate::render::text;
use crate::source_root::SourceRoot;

mod later;
use crate::{Format, Options};

/// Findings, errors and objects a run holds before its output streams.
pub const STREAM_AFTER: usize = 20_000;
/// Bytes of input text kept for snippets before text output streams.
const TEXT_AFTER: usize = 32 << 20;
/// Findings built and printed at a time at the end of a run.
const FINISH_BATCH: usize = 4096;
/// Lines of text kept before the next document, for its snippets' context.
const CONTEXT_LINES: usize = 4;
/// Text for snippets beyond which text output draws on the thread that reads rather than copy
/// it to [`Painter`]'s.
const LARGE_TEXT: usize = 64 << 10;

/// A run's output while it reads (see the module documentation).
pub struct Stream<'a> {
    args: &'a Options,
    /// The run's settings (the conformance reports judge the matrix with them).
    config: &'a ra2_core::Config,
    /// Findings at or above this make the run fail.
    threshold: Option<Severity>,
    fail_on: FailOn,
    /// What settled, for the formats that print the whole report at the end.
    store: Option<Store>,
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
    /// Text output: findings and errors on the last line read, held back until the line after
    /// it is read, with the last lines of their text (see [`Stream::progress`]).
    held: Option<(Vec<Finding>, Vec<LintError>, Kept)>,
    /// Text output: where the text of what prints at the end is read again.
    later: later::Later,
    /// Text output with more than one job: how to draw it, and the thread that draws it once
    /// the output streams.
    style: text::Style,
    painter: Option<Painter>,
}

/// What a streaming run's text output hands to [`Painter`]'s thread: the findings and errors to
/// draw, and the text their snippets come from.
struct Job {
    findings: Vec<Finding>,
    errors: Vec<LintError>,
    sources: BTreeMap<String, String>,
    kept: Option<Kept>,
}

/// Draws streaming text output on a thread of its own while the run reads on: snippets cost
/// more than linting (about two thirds of a long stream's time). Jobs are drawn and written in
/// the order they are sent.
struct Painter {
    jobs: Option<std::sync::mpsc::SyncSender<Vec<Job>>>,
    /// Jobs not sent yet: they go [`Painter::BATCH`] at a time (one document's findings are
    /// too little work to hand over alone).
    pending: Vec<Job>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Painter {
    const BATCH: usize = 64;
    /// Batches sent and not yet drawn, at most: bounds the text held.
    const QUEUE: usize = 4;

    fn start(style: text::Style) -> Option<Painter> {
        let (jobs, queue) = std::sync::mpsc::sync_channel::<Vec<Job>>(Self::QUEUE);
        let thread = std::thread::Builder::new()
            .name("ra2-text".to_owned())
            .spawn(move || {
                let renderer = text::Renderer::new(style);
                let mut out = std::io::BufWriter::new(std::io::stdout());
                let mut drawn = String::new();
                for batch in queue {
                    drawn.clear();
                    for job in &batch {
                        draw(
                            &renderer,
                            &mut drawn,
                            &job.findings,
                            &job.errors,
                            &job.sources,
                            job.kept.as_ref(),
                        );
                    }
                    let _ = out.write_all(drawn.as_bytes());
                }
                let _ = out.flush();
            })
            .ok()?;
        Some(Painter {
            jobs: Some(jobs),
            pending: Vec::with_capacity(Self::BATCH),
            thread: Some(thread),
        })
    }

    /// Queues a job to be drawn; gives back the jobs not drawn if the thread is gone (it
    /// panicked).
    fn send(&mut self, job: Job) -> Result<(), Vec<Job>> {
        self.pending.push(job);
        if self.pending.len() < Self::BATCH {
            return Ok(());
        }
        self.flush()
    }

    /// Sends the jobs queued.
    fn flush(&mut self) -> Result<(), Vec<Job>> {
        let batch = std::mem::replace(&mut self.pending, Vec::with_capacity(Self::BATCH));
        match &self.jobs {
            Some(jobs) => jobs.send(batch).map_err(|std::sync::mpsc::SendError(batch)| batch),
            None => Err(batch),
        }
    }

    /// Waits until everything sent is drawn and written.
    fn finish(self) {
        drop(self);
    }
}

impl Drop for Painter {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            // A thread that is gone (it panicked) leaves these undrawn, as it left its own.
            let _ = self.flush();
        }
        drop(self.jobs.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Draws findings and errors in input order, with snippets from `kept` (the input being read)
/// and the inputs held whole (`sources`).
fn draw(
    renderer: &text::Renderer,
    out: &mut String,
    findings: &[Finding],
    errors: &[LintError],
    sources: &BTreeMap<String, String>,
    kept: Option<&Kept>,
) {
    let fixed: BTreeMap<&str, std::borrow::Cow<'_, str>> = sources
        .iter()
        .map(|(name, text)| (name.as_str(), text::lone_cr_as_lf(text)))
        .collect();
    let kept_text = kept.map(|k| (k, text::lone_cr_as_lf(&k.text)));
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
    merged(findings, errors, |item| match item {
        Item::Error(e) => renderer.error(out, e, lookup(&e.file)),
        Item::Finding(f) => renderer.finding(out, f, &lookup),
    });
}

impl<'a> Stream<'a> {
    /// Never streams: the run holds every result to the end (a baseline judges them all).
    pub fn hold(&mut self) {
        self.eligible = false;
    }

    pub fn new(args: &'a Options, config: &'a ra2_core::Config, style: text::Style) -> Self {
        let whole = matches!(
            args.format,
            Format::Json | Format::Sarif | Format::Junit | Format::Codeclimate
        );
        let eligible =
            !args.post_render && (whole || matches!(args.format, Format::Text | Format::Github | Format::Jsonl));
        Stream {
            args,
            config,
            threshold: config.fail_on.threshold(),
            fail_on: config.fail_on,
            store: whole.then(Store::new),
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
            held: None,
            later: later::Later::default(),
            style,
            painter: None,
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
            if self.renderer.is_some() && crate::run::jobs(self.args) > 1 {
                // Nothing was printed before: the painter's writes are the first.
                let _ = self.out.flush();
                self.painter = Painter::start(self.style);
            }
        }
        let settled = linter.take_settled();
        if let Some(store) = self.store.as_mut() {
            store.take(settled);
            return;
        }
        self.objects += settled.objects.len();
        // What was held back last time: the line after it has been read now (unless this is
        // another file's text).
        if let Some((findings, errors, tail)) = self.held.take() {
            let current = kept
                .as_deref()
                .filter(|k| k.name == tail.name && k.offset <= tail.offset);
            self.print(findings, errors, Some(current.unwrap_or(&tail)), false);
        }
        let (mut findings, mut errors) = (settled.findings, settled.errors);
        let mut held = (Vec::new(), Vec::new());
        if let Some((kept, (last_line, tail))) = kept
            .as_deref()
            .filter(|_| self.renderer.is_some())
            .and_then(|k| Some((k, last_lines(k)?)))
        {
            // A snippet shows the line after its span: hold back what is on the last line read
            // (and starts in the lines kept after it), to print once the next line is read.
            let in_tail = |file: &str, start: usize, end: usize| file == kept.name && end > last_line && start >= tail;
            (held.0, findings) = findings.into_iter().partition(|f| {
                in_tail(&f.file, f.offset, f.offset + f.len) && f.related.iter().all(|r| r.offset >= tail)
            });
            (held.1, errors) = errors
                .into_iter()
                .partition(|e| in_tail(&e.file, e.offset, e.offset + 1));
        }
        self.print(findings, errors, kept.as_deref(), false);
        if self.renderer.is_some() {
            // What prints at the end may need this text again.
            for (name, text) in &self.sources {
                self.later.keep(name, 0, text);
            }
            if let Some(kept) = kept.as_deref() {
                self.later.keep(&kept.name, kept.offset, &kept.text);
            }
        }
        self.sources.clear();
        self.sources_bytes = 0;
        if let Some(kept) = kept {
            kept.keep_last_lines(CONTEXT_LINES);
            if !held.0.is_empty() || !held.1.is_empty() {
                self.held = Some((held.0, held.1, kept.clone()));
            }
        }
    }

    /// Prints findings and errors in input order (an error first at one place). Text output
    /// shows snippets from `kept` (the input being read) and the inputs held whole, or, `at_end`
    /// of the run, from the inputs read again ([`later::Later`]).
    fn print(&mut self, findings: Vec<Finding>, errors: Vec<LintError>, kept: Option<&Kept>, at_end: bool) {
        for f in &findings {
            self.findings.add(f.severity);
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
                if at_end {
                    // What the painter still draws comes first.
                    if let Some(painter) = self.painter.take() {
                        painter.finish();
                    }
                    let later = &mut self.later;
                    merged(&batch.findings, &batch.errors, |item| match item {
                        Item::Error(e) => {
                            let chunk = (!e.code.starts_with("ra2::input::"))
                                .then(|| later.around(&e.file, &[(e.offset, 1)], e.line))
                                .flatten();
                            renderer.error(&mut out, e, chunk.as_ref().map(later::Chunk::source));
                        }
                        Item::Finding(f) => {
                            let mut spans = vec![(f.offset, f.len)];
                            spans.extend(f.related.iter().map(|r| (r.offset, r.len)));
                            let first_line = std::iter::once((f.offset, f.line))
                                .chain(f.related.iter().map(|r| (r.offset, r.line)))
                                .min()
                                .map_or(f.line, |(_, line)| line);
                            let chunk = later.around(&f.file, &spans, first_line);
                            let source = chunk.as_ref().map(later::Chunk::source);
                            renderer.finding(&mut out, f, &|file: &str| source.filter(|s| s.name == file));
                        }
                    });
                    let _ = self.out.write_all(out.as_bytes());
                    return;
                }
                // Large text to copy (the first text of a run that starts streaming once 32 MB
                // are read): drawn here, after what the painter still draws, not copied.
                let large = kept.is_some_and(|k| k.text.len() > LARGE_TEXT)
                    || self.sources.values().map(String::len).sum::<usize>() > LARGE_TEXT;
                let restart = large && self.painter.take().map(Painter::finish).is_some();
                if let Some(painter) = &mut self.painter {
                    if batch.findings.is_empty() && batch.errors.is_empty() {
                        return;
                    }
                    let job = Job {
                        findings: std::mem::take(&mut batch.findings),
                        errors: std::mem::take(&mut batch.errors),
                        sources: self.sources.clone(),
                        kept: kept.cloned(),
                    };
                    // The thread is gone only if it panicked: draw here then.
                    if let Err(jobs) = painter.send(job) {
                        for job in &jobs {
                            draw(
                                renderer,
                                &mut out,
                                &job.findings,
                                &job.errors,
                                &job.sources,
                                job.kept.as_ref(),
                            );
                        }
                        let _ = self.out.write_all(out.as_bytes());
                    }
                    return;
                }
                if restart {
                    draw(renderer, &mut out, &batch.findings, &batch.errors, &self.sources, kept);
                    let _ = self.out.write_all(out.as_bytes());
                    let _ = self.out.flush();
                    self.painter = Painter::start(self.style);
                    return;
                }
                draw(renderer, &mut out, &batch.findings, &batch.errors, &self.sources, kept);
            }
        }
        let _ = self.out.write_all(out.as_bytes());
    }

    /// Ends a streaming run: prints the rest of the run (what [`Linter::finish_in_order`]
    /// decided at the end, a batch at a time, and inputs that could not be read) and the
    /// summary; returns the exit status.
    pub fn finish(mut self, mut finished: Finished) -> u8 {
        if let Some(store) = self.store.take() {
            return self.finish_whole(store, finished);
        }
        if let Some((findings, errors, tail)) = self.held.take() {
            self.print(findings, errors, Some(&tail), false);
        }
        if let Some(painter) = self.painter.take() {
            painter.finish();
        }
        let mut errors = std::mem::take(&mut finished.report.errors);
        errors.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        let mut errors = errors.into_iter().peekable();
        self.objects += finished.report.objects.len();
        loop {
            let findings = finished.next_batch(FINISH_BATCH);
            let Some(last) = findings.last() else { break };
            // The errors that come before the next batch's first finding (an error first at
            // one place).
            let mut before = Vec::new();
            while let Some(e) = errors.next_if(|e| (&e.file, e.line, e.column) <= (&last.file, last.line, last.column))
            {
                before.push(e);
            }
            self.print(findings, before, None, true);
        }
        self.print(Vec::new(), errors.collect(), None, true);
        let Report {
            edition, mut summary, ..
        } = finished.into_report();
        // Everything was printed here: the counts are the stream's.
        summary.findings = self.findings;
        summary.errors = self.errors;
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

impl Stream<'_> {
    /// Ends a streaming run of a format that prints the whole report: adds the rest of
    /// `report` to what settled, sorts it and prints it; returns the exit status.
    fn finish_whole(mut self, mut store: Store, mut finished: Finished) -> u8 {
        loop {
            let findings = finished.next_batch(FINISH_BATCH);
            if findings.is_empty() {
                break;
            }
            for finding in findings {
                store.push_finding(finding);
            }
        }
        store.finish(finished.into_report());
        store.finalize();
        if store.has_source_templates() {
            // Helm output read once the output streamed: its findings move to the chart's
            // templates, which needs the report whole.
            let mut report = store.into_report();
            crate::run::map_to_templates(self.args, &mut report, None);
            crate::run::output(self.args, self.config, &report, BTreeMap::new());
            return ra2_report::exit_status(&report, self.fail_on);
        }
        let out = &mut self.out;
        let _ = match self.args.format {
            Format::Sarif => {
                let root = SourceRoot::new(self.args.source_root.as_deref());
                store.rename_files(|name| root.relative(name));
                let line_hashes = crate::run::line_hashes(store.primary_lines(), &root);
                let options = ra2_report::sarif::Options {
                    category: self.args.category.as_deref(),
                    source_root: true,
                    line_hashes: Some(&line_hashes),
                    // Streamed output does not read the files again for fixes' edits.
                    fixes: None,
                };
                ra2_report::sarif::write(&store, &options, &mut *out)
            }
            Format::Junit => ra2_report::junit::write(&store, &mut *out),
            Format::Codeclimate => {
                let root = SourceRoot::new(self.args.source_root.as_deref());
                store.rename_files(|name| root.relative(name));
                ra2_report::codeclimate::write(&store, &mut *out)
            }
            _ => store
                .write_json(&mut *out)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n")),
        }
        .and_then(|()| out.flush());
        store.verdict(self.fail_on).exit_code
    }
}

/// The absolute byte offsets in `kept`'s file where its last line starts, and where the last
/// `CONTEXT_LINES - 1` lines start (what stays, after the line before them, once `kept`
/// keeps its last `CONTEXT_LINES` lines); `None` when `kept` holds fewer lines.
fn last_lines(kept: &Kept) -> Option<(usize, usize)> {
    let text = kept.text.strip_suffix('\n').unwrap_or(&kept.text);
    let mut starts = text.rmatch_indices('\n').map(|(i, _)| kept.offset + i + 1);
    let last_line = starts.next()?;
    let tail = starts.nth(CONTEXT_LINES.saturating_sub(3))?;
    Some((last_line, tail.min(last_line)))
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
