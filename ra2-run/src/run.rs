//! The run: what `ra2 lint` (and `ra2 audit`) reads, what it prints, and its exit status.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use ra2_core::{Linter, ObjectRef, Report};
use ra2_input::{self as input, ReadProblem};

use crate::{Format, Options, render, settings};
use ra2_report::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, exit_status};

/// Width for text output when standard output is not a terminal.
pub const DEFAULT_WIDTH: usize = 100;

/// Writes to standard output. A closed pipe (`ra2 rules | head`) is not an error worth
/// reporting, so write failures are ignored.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Writes lines to standard error.
pub fn warn(lines: &[String]) {
    let mut err = std::io::stderr().lock();
    for line in lines {
        let _ = writeln!(err, "{line}");
    }
}

/// The width of the terminal on standard output, if it is one.
pub fn terminal_width() -> Option<usize> {
    let stdout = std::io::stdout();
    if !stdout.is_terminal() {
        return None;
    }
    terminal_size::terminal_size_of(&stdout).map(|(w, _)| usize::from(w.0))
}

fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn stdout_style() -> render::text::Style {
    render::text::Style {
        color: use_color(),
        width: terminal_width().unwrap_or(DEFAULT_WIDTH),
    }
}

/// A linter for `config`, with strict mode's schema checks when the config asks for them.
pub fn new_linter(config: &ra2_core::Config) -> Linter<'_> {
    let linter = Linter::new(config);
    if !config.strict {
        return linter;
    }
    if let Some(note) = ra2_strict::version_note(config.kubernetes_minor) {
        warn(&[format!("note: {note}")]);
    }
    linter.with_object_hook(Box::new(ra2_strict::Strict::new()))
}

/// What a run reads: manifests already in hand, then the files found on some paths.
#[derive(Debug, Default)]
pub struct Inputs {
    /// Manifests read already, by report name (kustomize's output, `ra2 audit`'s listings):
    /// linted first, in this order.
    pub texts: Vec<(String, String)>,
    /// Inputs that could not be read; they are errors of the report.
    pub problems: Vec<ReadProblem>,
    /// Files and directories to find manifests in (none: the working directory); `None` reads
    /// nothing more.
    pub paths: Option<Vec<PathBuf>>,
    /// `--format policyreport`: the uid of each object, as the API server listed it.
    pub uids: Option<BTreeMap<ObjectRef, String>>,
    /// `--fix`: the fixes applied before this run, for its summary.
    pub fixed: Option<usize>,
}

/// `--fix` and `--diff` before the run: fixes the files (standard input straight to standard
/// output, with what remains reported on standard error). `Ok`: fixes applied and the files
/// read already, and the run goes on to report what remains; `Err`: the run's exit status.
fn fix_first<'c>(
    options: &Options,
    config: &'c ra2_core::Config,
) -> Result<(usize, input::parallel::Prelinted<'c>), u8> {
    let stdin = options.paths.iter().any(|p| p.as_os_str() == "-");
    if stdin {
        if options.paths.len() > 1 {
            warn(&["error: with --fix or --diff, `-` must be the only path".to_owned()]);
            return Err(EXIT_ERROR);
        }
        let (report, outcome) = crate::fix::fix_stdin(options, config).map_err(|line| {
            warn(&[line]);
            EXIT_ERROR
        })?;
        warn(&outcome.notes);
        if options.diff {
            return Err(if outcome.files > 0 { EXIT_FINDINGS } else { EXIT_OK });
        }
        // The fixed stream took standard output: what remains goes to standard error.
        let mut lines: Vec<String> = report
            .findings
            .iter()
            .map(|f| {
                // Helm output mapped to its chart: the template's line, as `ra2 lint` gives it.
                let (file, line, column) = f.template.as_ref().map_or((f.file.as_str(), f.line, f.column), |t| {
                    (t.file.as_str(), t.line, t.column)
                });
                format!(
                    "{file}:{line}:{column}: {} {}/{}: {}",
                    f.severity, f.rule, f.check, f.message
                )
            })
            .collect();
        lines.push(ra2_report::summary_line(&report));
        warn(&lines);
        return Err(exit_status(&report, config.fail_on));
    }
    let outcome = crate::fix::fix_files(options, config);
    warn(&outcome.notes);
    if outcome.failed {
        return Err(EXIT_ERROR);
    }
    if options.diff {
        return Err(if outcome.files > 0 { EXIT_FINDINGS } else { EXIT_OK });
    }
    Ok((outcome.applied, outcome.prelinted))
}

/// `ra2 lint` (and `python -m ra2`): reads the config, the inputs, lints, prints the report;
/// returns the exit status.
pub fn lint(options: &Options) -> u8 {
    let config = match settings::load(options) {
        Ok(config) => config,
        Err(lines) => {
            warn(&lines);
            return EXIT_ERROR;
        }
    };
    if options.post_render {
        return post_render(options, &config);
    }
    let mut fixed = None;
    let mut prelinted = None;
    if options.fix || options.diff {
        match fix_first(options, &config) {
            Ok((n, read)) => {
                fixed = Some(n);
                prelinted = Some(read);
            }
            Err(status) => return status,
        }
    }
    if !options.kustomize {
        let inputs = Inputs {
            paths: Some(options.paths.clone()),
            fixed,
            ..Inputs::default()
        };
        return run_prelinted(options, &config, inputs, prelinted.as_ref());
    }
    let (kustomized, paths) = crate::kustomize::split(&options.paths);
    let mut inputs = Inputs {
        // What is left once the kustomization directories are taken.
        paths: (!paths.is_empty()).then_some(paths),
        fixed,
        ..Inputs::default()
    };
    for dir in &kustomized {
        match crate::kustomize::render(dir) {
            Ok(text) => inputs.texts.push((crate::kustomize::report_name(dir), text)),
            Err(problem) => inputs.problems.push(problem),
        }
    }
    run(options, &config, inputs)
}

/// Lints `inputs` with `config` and prints the report as `options` say (the paths of
/// `options` are not read: `inputs.paths` are); returns the exit status.
pub fn run(options: &Options, config: &ra2_core::Config, inputs: Inputs) -> u8 {
    run_prelinted(options, config, inputs, None)
}

/// [`run`], taking in the files `prelinted` read (fixing did) instead of reading them again.
fn run_prelinted<'c>(
    options: &Options,
    config: &'c ra2_core::Config,
    inputs: Inputs,
    prelinted: Option<&input::parallel::Prelinted<'c>>,
) -> u8 {
    let Inputs {
        texts,
        problems: given,
        paths,
        uids,
        fixed,
    } = inputs;
    let baseline = match crate::baseline::Plan::of(options, config) {
        Ok(plan) => plan,
        Err(line) => {
            warn(&[line]);
            return EXIT_ERROR;
        }
    };
    let keep_text = options.format == Format::Text;
    let read_texts = !texts.is_empty();
    let mut stream = crate::stream::Stream::new(options, config, stdout_style());
    if baseline.is_some() || fixed.is_some() {
        // A baseline judges the whole run at once; a fixing run's summary counts the fixes.
        stream.hold();
    }
    let stream = std::cell::RefCell::new(stream);
    let mut linter = new_linter(config);
    for (name, text) in texts {
        linter.add_file(&name, &text);
        if keep_text {
            stream.borrow_mut().keep(&name, Some(text));
        }
    }
    let mut progress = |linter: &mut Linter<'_>, kept: Option<&mut input::Kept>| {
        stream.borrow_mut().progress(linter, kept);
    };
    // Inputs that could not be read, in the order they are read.
    let mut unread = Vec::new();
    let found = match &paths {
        Some(paths) => input::parallel::lint_paths_prelinted(
            paths,
            input::Discovery {
                skip_non_k8s: config.skip_non_k8s,
                respect_ignore_files: !options.no_ignore,
            },
            &mut linter,
            jobs(options),
            keep_text,
            |item, outcome| {
                stream.borrow_mut().keep(item.name(), outcome.text);
                unread.extend(outcome.problem);
                true
            },
            Some(&mut progress),
            prelinted,
        ),
        None => input::parallel::Found::default(),
    };
    for file in &found.skipped {
        linter.record_skipped(file.reason);
    }
    let mut problems = found.problems;
    problems.extend(given);
    problems.extend(unread);
    let mut stream = stream.into_inner();
    let mut finished = linter.finish_in_order();
    let unreadable = !problems.is_empty();
    if options.format != Format::Text {
        // Text output shows these in the report; other formats are for machines, so
        // also tell the person watching standard error.
        warn(
            &problems
                .iter()
                .map(|p| format!("error: {}: {}", p.file, p.message))
                .collect::<Vec<_>>(),
        );
    }
    finished
        .report
        .errors
        .extend(problems.into_iter().map(ReadProblem::into_lint_error));
    if found.inputs == 0 && found.skipped.is_empty() && !read_texts && !unreadable {
        warn(&["warning: no manifests found (looked for *.yaml, *.yml and *.json)".to_owned()]);
    }
    if stream.is_on() {
        return stream.finish(finished);
    }
    let mut report = finished.into_report();
    report.finalize();
    let mut sources = std::mem::take(&mut stream.sources);
    map_to_templates(options, &mut report, keep_text.then_some(&mut sources));
    report.summary.fixed = fixed;
    match baseline.run(options, &mut report) {
        Ok(notes) => warn(&notes),
        Err(line) => {
            warn(&[line]);
            return EXIT_ERROR;
        }
    }
    if options.format.report_api().is_some() {
        return crate::policyreport::output(options, &report, config.fail_on, uids.as_ref());
    }
    output(options, config, &report, sources);
    let status = if matches!(baseline, crate::baseline::Plan::Write(_)) && !unreadable && report.summary.errors == 0 {
        // Recording findings is the point of the run, not a failure.
        EXIT_OK
    } else {
        exit_status(&report, config.fail_on)
    };
    let large = report.findings.len() + report.objects.len() > DROP_ASIDE_FROM;
    drop_aside(report, large);
    status
}

/// Items (findings, objects) or source bytes from which a run's report is freed aside: below
/// this, freeing costs less than starting a thread.
const DROP_ASIDE_FROM: usize = 4096;

/// Frees a `large` value on a thread of its own: the run's answer need not wait for it (and a
/// command that exits first leaves it to the operating system). A small one is freed here.
fn drop_aside<T: Send + 'static>(value: T, large: bool) {
    if large {
        // If no thread can be made, the value is dropped here.
        let _ = std::thread::Builder::new().spawn(move || drop(value));
    }
}

/// The threads a run uses (`--jobs`; all cores by default).
pub(crate) fn jobs(options: &Options) -> usize {
    options.jobs.map_or_else(input::parallel::default_jobs, |n| n.max(1))
}

/// Writes a report to standard output in `options.format` (`sources`: the text of each input,
/// for text output's snippets).
pub(crate) fn output(
    options: &Options,
    config: &ra2_core::Config,
    report: &Report,
    mut sources: BTreeMap<String, String>,
) {
    if options.format == Format::Text {
        add_config_sources(report, &mut sources);
    }
    match options.format {
        Format::Json => {
            // Streamed: a large report is never held twice (as data and as text).
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let _ = report
                .write_json(&mut out)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
        }
        Format::Jsonl => {
            let _ = ra2_report::jsonl::Lines::new(std::io::BufWriter::new(std::io::stdout().lock())).report(report);
        }
        _ => emit(&render_report(options, config, report, &sources, stdout_style())),
    }
    let large = sources.values().map(String::len).sum::<usize>() > DROP_ASIDE_FROM * 256;
    drop_aside(sources, large);
}

/// A report in any `--format`. The formats meant for upload name files relative to the
/// source root ([`crate::source_root`]).
fn render_report(
    options: &Options,
    config: &ra2_core::Config,
    report: &Report,
    sources: &BTreeMap<String, String>,
    style: render::text::Style,
) -> String {
    let root = || crate::source_root::SourceRoot::new(options.source_root.as_deref());
    let rebased = |root: &crate::source_root::SourceRoot| {
        let mut report = report.clone();
        root.rebase(&mut report);
        report
    };
    match options.format {
        Format::Text => render::text::render(report, sources, style),
        Format::Json => {
            let mut json = report.to_json();
            json.push('\n');
            json
        }
        Format::Jsonl => ra2_report::jsonl::render(report),
        Format::Sarif => {
            let root = root();
            let report = rebased(&root);
            let places = report.findings.iter().map(|f| match &f.template {
                Some(t) => (t.file.as_str(), t.line.max(1)),
                None => (f.file.as_str(), f.line.max(1)),
            });
            let line_hashes = line_hashes(places, &root);
            let fixes = crate::fix::sarif_edits(&report.findings, &root, config, options.chart_root.as_deref());
            let options = ra2_report::sarif::Options {
                category: options.category.as_deref(),
                source_root: true,
                line_hashes: Some(&line_hashes),
                fixes: Some(&fixes),
            };
            ra2_report::sarif::render_with(&report, &options)
        }
        Format::Junit => ra2_report::junit::render(report),
        Format::Github => ra2_report::github::render(&rebased(&root())),
        Format::Codeclimate => ra2_report::codeclimate::render(&rebased(&root())),
        // A run writes it with the config's fail-on (policyreport::output).
        Format::Markdown | Format::Html => crate::conformance::render(options, config, report, sources),
        Format::Policyreport | Format::Openreports => {
            crate::policyreport::render(options, report, options.fail_on.unwrap_or_default(), None)
                .unwrap_or_else(|why| format!("error: {why}\n"))
        }
    }
}

/// The line hashes of the lines findings' primary locations are on (`places`: file and 1-based
/// line; their template when they were mapped), read from the files under the source root,
/// which are read twice a line at a time ([`ra2_report::line_hash::hashes_of_lines`]). Files
/// that cannot be read (standard input) have none, as with GitHub's upload action.
pub(crate) fn line_hashes<'f>(
    places: impl IntoIterator<Item = (&'f str, usize)>,
    root: &crate::source_root::SourceRoot,
) -> BTreeMap<String, BTreeMap<usize, ra2_report::line_hash::LineHash>> {
    let mut lines: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (file, line) in places {
        if !file.starts_with('<') {
            lines.entry(file).or_default().push(line);
        }
    }
    let mut out = BTreeMap::new();
    for (file, lines) in lines {
        let path = root.path(file);
        let open = || std::fs::File::open(&path).map(std::io::BufReader::new);
        if let Ok(hashes) = ra2_report::line_hash::hashes_of_lines(open, &lines) {
            out.insert(file.to_owned(), hashes);
        }
    }
    out
}

/// Puts the findings of Helm output on the lines of their chart's templates, when the chart
/// is found ([`crate::chart`]); says once on standard error why a chart or template is not.
/// Text output also needs the templates' text for its snippets.
pub(crate) fn map_to_templates(options: &Options, report: &mut Report, sources: Option<&mut BTreeMap<String, String>>) {
    if report.findings.iter().all(|f| f.source_template.is_none()) {
        return;
    }
    let mut charts = crate::chart::Charts::new(options.chart_root.as_deref());
    charts.map_report(report);
    let notes = charts.take_notes(options.verbose);
    // A post-renderer's report in a machine format is all of standard error.
    if !(options.post_render && options.format != Format::Text) {
        warn(&notes);
    }
    if let Some(sources) = sources {
        for finding in &report.findings {
            if let Some(template) = &finding.template {
                if !sources.contains_key(&template.file) {
                    if let Ok(text) = std::fs::read_to_string(&template.file) {
                        sources.insert(template.file.clone(), text);
                    }
                }
            }
        }
    }
}

/// Text output shows snippets of the config file for `exemption/unused` findings.
fn add_config_sources(report: &Report, sources: &mut BTreeMap<String, String>) {
    for finding in report
        .findings
        .iter()
        .filter(|f| f.rule == ra2_core::catalogue::EXEMPTION_RULE)
    {
        if !sources.contains_key(&finding.file) {
            if let Ok(text) = std::fs::read_to_string(&finding.file) {
                sources.insert(finding.file.clone(), text);
            }
        }
    }
}

/// `ra2 lint --post-render`: Helm's post-renderer contract. Helm pipes the rendered manifests
/// in and applies what comes out, and shows standard error only when the command fails; so
/// the stream is copied through byte for byte when it passes, and nothing reaches standard
/// output when it does not.
fn post_render(options: &Options, config: &ra2_core::Config) -> u8 {
    if options.format.report_api().is_some() {
        warn(&[format!(
            "error: --post-render writes its report to standard error, where policy reports are of no use; run `ra2 lint --format {}` on the rendered manifests instead",
            options.format.name()
        )]);
        return EXIT_ERROR;
    }
    if options.paths.iter().any(|p| p.as_os_str() != "-") {
        warn(&["error: --post-render reads standard input only; remove the paths".to_owned()]);
        return EXIT_ERROR;
    }
    let mut bytes = Vec::new();
    if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes) {
        warn(&[format!("error: {}: cannot read: {e}", input::STDIN_NAME)]);
        return EXIT_ERROR;
    }
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(e) => {
            let problem = input::utf8_problem(input::STDIN_NAME, &bytes, e.valid_up_to(), 0);
            warn(&[format!("error: {problem}")]);
            return EXIT_ERROR;
        }
    };
    let mut linter = new_linter(config);
    linter.add_file(input::STDIN_NAME, text);
    let mut report = linter.finish();
    let mut sources = BTreeMap::from([(input::STDIN_NAME.to_owned(), text.to_owned())]);
    map_to_templates(options, &mut report, Some(&mut sources));
    let status = exit_status(&report, config.fail_on);
    if !report.findings.is_empty() || !report.errors.is_empty() {
        add_config_sources(&report, &mut sources);
        let stderr = std::io::stderr();
        let style = render::text::Style {
            color: stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            width: if stderr.is_terminal() {
                terminal_size::terminal_size_of(&stderr).map_or(DEFAULT_WIDTH, |(w, _)| usize::from(w.0))
            } else {
                DEFAULT_WIDTH
            },
        };
        let mut err = stderr.lock();
        let _ = err.write_all(render_report(options, config, &report, &sources, style).as_bytes());
    }
    if status == EXIT_OK {
        let mut out = std::io::stdout().lock();
        if out.write_all(&bytes).and_then(|()| out.flush()).is_err() {
            return EXIT_ERROR;
        }
    }
    status
}
