//! The subcommands: what each reads, what it prints, and its exit status.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};

use ra2_core::{Linter, Report};

use crate::cli::{Cli, Command, DocFormat, ExplainArgs, LintArgs, LintFormat, RulesArgs};
use crate::render;
use crate::settings;
use ra2_input::{self as input, ReadProblem};

pub use ra2_report::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, exit_status};

/// Width for text output when standard output is not a terminal.
const DEFAULT_WIDTH: usize = 100;

pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Lint(args) => lint(&args),
        Command::Audit(args) => crate::audit::run(&args),
        Command::Rules(args) => rules(&args),
        Command::Explain(args) => explain(&args),
        Command::Serve(args) => serve(&args),
        Command::Completions(args) => {
            let mut out = Vec::new();
            clap_complete::generate(
                args.shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "ra2",
                &mut out,
            );
            emit(&String::from_utf8_lossy(&out));
            EXIT_OK
        }
        Command::Man(args) => man(args.command.as_deref()),
    }
}

/// `ra2 man [COMMAND]`: ra2(1), or ra2-COMMAND(1) for a subcommand.
fn man(command: Option<&str>) -> u8 {
    let mut ra2 = <Cli as clap::CommandFactory>::command();
    // Building names each subcommand for its page: ra2-lint, ra2-serve, ...
    ra2.build();
    let page = match command {
        None => ra2,
        Some(name) => {
            let Some(sub) = ra2.find_subcommand(name) else {
                let names: Vec<&str> = ra2.get_subcommands().map(clap::Command::get_name).collect();
                warn(&[format!("error: no command {name:?} (commands: {})", names.join(", "))]);
                return EXIT_ERROR;
            };
            sub.clone()
        }
    };
    let mut out = Vec::new();
    match clap_mangen::Man::new(page).render(&mut out) {
        Ok(()) => {
            emit(&String::from_utf8_lossy(&out));
            EXIT_OK
        }
        Err(e) => {
            warn(&[format!("error: cannot render the man page: {e}")]);
            EXIT_ERROR
        }
    }
}

/// `ra2 serve`: runs until SIGTERM; exit 0 when drained, 2 when it cannot start.
fn serve(args: &crate::cli::ServeArgs) -> u8 {
    let mut options = ra2_serve::Options::new(args.listen, args.cert.clone(), args.key.clone(), args.config.clone());
    options.access_log = args.access_log;
    options.limits.max_in_flight = args.max_in_flight.max(1);
    options.limits.max_body_bytes = args.max_body_bytes;
    options.limits.request_timeout = std::time::Duration::from_secs(args.request_timeout);
    options.document_limits = args.limits.overrides();
    match ra2_serve::server::run_until_signalled(&options) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            warn(&[format!("error: {e}")]);
            EXIT_ERROR
        }
    }
}

/// Writes to standard output. A closed pipe (`ra2 rules | head`) is not an error worth
/// reporting, so write failures are ignored.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

pub(crate) fn warn(lines: &[String]) {
    let mut err = std::io::stderr().lock();
    for line in lines {
        let _ = writeln!(err, "{line}");
    }
}

fn terminal_width() -> Option<usize> {
    let stdout = std::io::stdout();
    if !stdout.is_terminal() {
        return None;
    }
    terminal_size::terminal_size_of(&stdout).map(|(w, _)| usize::from(w.0))
}

fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A linter for `config`, with strict mode's schema checks when the config asks for them.
pub(crate) fn new_linter(config: &ra2_core::Config) -> Linter<'_> {
    let linter = Linter::new(config);
    if !config.strict {
        return linter;
    }
    if let Some(note) = ra2_strict::version_note(config.kubernetes_minor) {
        warn(&[format!("note: {note}")]);
    }
    linter.with_object_hook(Box::new(ra2_strict::Strict::new()))
}

/// `ra2 lint`.
pub fn lint(args: &LintArgs) -> u8 {
    let config = match settings::load(args) {
        Ok(config) => config,
        Err(lines) => {
            warn(&lines);
            return EXIT_ERROR;
        }
    };
    if args.post_render {
        return post_render(args, &config);
    }
    let keep_text = args.format == LintFormat::Text;
    let (kustomized, paths) = if args.kustomize {
        crate::kustomize::split(&args.paths)
    } else {
        (Vec::new(), args.paths.clone())
    };
    // With --kustomize, `paths` is what is left once the kustomization directories are taken.
    let (inputs, mut problems, skipped) = if args.kustomize && paths.is_empty() {
        Default::default()
    } else {
        input::discover(&paths, config.skip_non_k8s)
    };
    let style = render::text::Style {
        color: use_color(),
        width: terminal_width().unwrap_or(DEFAULT_WIDTH),
    };
    let stream = std::cell::RefCell::new(crate::stream::Stream::new(args, &config, style));
    let mut linter = new_linter(&config);
    for dir in &kustomized {
        match crate::kustomize::render(dir) {
            Ok(text) => {
                let name = crate::kustomize::report_name(dir);
                linter.add_file(&name, &text);
                if keep_text {
                    stream.borrow_mut().keep(&name, Some(text));
                }
            }
            Err(problem) => problems.push(problem),
        }
    }
    for file in &skipped {
        linter.record_skipped(file.reason);
    }
    let jobs = args.jobs.map_or_else(ra2_input::parallel::default_jobs, usize::from);
    let mut progress = |linter: &mut Linter<'_>, kept: Option<&mut ra2_input::Kept>| {
        stream.borrow_mut().progress(linter, kept);
    };
    ra2_input::parallel::lint_inputs_with(
        &inputs,
        &mut linter,
        jobs,
        keep_text,
        |item, outcome| {
            stream.borrow_mut().keep(item.name(), outcome.text);
            problems.extend(outcome.problem);
            true
        },
        Some(&mut progress),
    );
    let mut stream = stream.into_inner();
    let mut report = linter.finish();
    let unreadable = !problems.is_empty();
    if args.format != LintFormat::Text {
        // Text output shows these in the report; other formats are for machines, so
        // also tell the person watching standard error.
        warn(
            &problems
                .iter()
                .map(|p| format!("error: {}: {}", p.file, p.message))
                .collect::<Vec<_>>(),
        );
    }
    report
        .errors
        .extend(problems.into_iter().map(ReadProblem::into_lint_error));
    report.finalize();
    if inputs.is_empty() && skipped.is_empty() && kustomized.is_empty() && !unreadable {
        warn(&["warning: no manifests found (looked for *.yaml, *.yml and *.json)".to_owned()]);
    }
    if stream.is_on() {
        return stream.finish(report);
    }
    let mut sources = std::mem::take(&mut stream.sources);
    map_to_templates(args, &mut report, keep_text.then_some(&mut sources));
    if args.format == LintFormat::Policyreport {
        return crate::policyreport::output(args, &report, config.fail_on, None);
    }
    output(args, &report, sources);
    exit_status(&report, config.fail_on)
}

/// Writes a report to standard output in `args.format` (`sources`: the text of each input, for
/// text output's snippets).
pub(crate) fn output(args: &LintArgs, report: &Report, mut sources: BTreeMap<String, String>) {
    if args.format == LintFormat::Text {
        add_config_sources(report, &mut sources);
    }
    match args.format {
        LintFormat::Json => {
            // Streamed: a large report is never held twice (as data and as text).
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let _ = report
                .write_json(&mut out)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
        }
        LintFormat::Jsonl => {
            let _ = ra2_report::jsonl::Lines::new(std::io::BufWriter::new(std::io::stdout().lock())).report(report);
        }
        _ => {
            let style = render::text::Style {
                color: use_color(),
                width: terminal_width().unwrap_or(DEFAULT_WIDTH),
            };
            emit(&render_report(args, report, &sources, style));
        }
    }
}

/// A report in any `--format`. The formats meant for upload name files relative to the
/// source root ([`crate::source_root`]).
fn render_report(
    args: &LintArgs,
    report: &Report,
    sources: &BTreeMap<String, String>,
    style: render::text::Style,
) -> String {
    let root = || crate::source_root::SourceRoot::new(args.source_root.as_deref());
    let rebased = |root: &crate::source_root::SourceRoot| {
        let mut report = report.clone();
        root.rebase(&mut report);
        report
    };
    match args.format {
        LintFormat::Text => render::text::render(report, sources, style),
        LintFormat::Json => {
            let mut json = report.to_json();
            json.push('\n');
            json
        }
        LintFormat::Jsonl => ra2_report::jsonl::render(report),
        LintFormat::Sarif => {
            let root = root();
            let report = rebased(&root);
            let files = report
                .findings
                .iter()
                .map(|f| f.template.as_ref().map_or(f.file.as_str(), |t| t.file.as_str()));
            let line_hashes = line_hashes(files, &root);
            let options = ra2_report::sarif::Options {
                category: args.category.as_deref(),
                source_root: true,
                line_hashes: Some(&line_hashes),
            };
            ra2_report::sarif::render_with(&report, &options)
        }
        LintFormat::Junit => ra2_report::junit::render(report),
        LintFormat::Github => ra2_report::github::render(&rebased(&root())),
        LintFormat::Codeclimate => ra2_report::codeclimate::render(&rebased(&root())),
        // `ra2 lint` and `ra2 audit` write it with the config's fail-on (policyreport::output).
        LintFormat::Policyreport => crate::policyreport::render(
            args,
            report,
            args.fail_on.map_or_else(Default::default, Into::into),
            None,
        )
        .unwrap_or_else(|why| format!("error: {why}\n")),
    }
}

/// The line hashes of `files` (those that findings' primary locations are in: their template
/// when they were mapped), read from under the source root; files that cannot be read
/// (standard input) have none, as with GitHub's upload action.
pub(crate) fn line_hashes<'f>(
    files: impl IntoIterator<Item = &'f str>,
    root: &crate::source_root::SourceRoot,
) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for file in files {
        if out.contains_key(file) || file.starts_with('<') {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(root.path(file)) {
            out.insert(file.to_owned(), ra2_report::line_hash::line_hashes(&text));
        }
    }
    out
}

/// Puts the findings of Helm output on the lines of their chart's templates, when the chart
/// is found ([`crate::chart`]); says once on standard error why a chart or template is not.
/// Text output also needs the templates' text for its snippets.
pub(crate) fn map_to_templates(args: &LintArgs, report: &mut Report, sources: Option<&mut BTreeMap<String, String>>) {
    if report.findings.iter().all(|f| f.source_template.is_none()) {
        return;
    }
    let mut charts = crate::chart::Charts::new(args.chart_root.as_deref());
    charts.map_report(report);
    let notes = charts.take_notes();
    // A post-renderer's report in a machine format is all of standard error.
    if !(args.post_render && args.format != LintFormat::Text) {
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
fn post_render(args: &LintArgs, config: &ra2_core::Config) -> u8 {
    if args.format == LintFormat::Policyreport {
        warn(&["error: --post-render writes its report to standard error, where policy reports are of no use; run `ra2 lint --format policyreport` on the rendered manifests instead".to_owned()]);
        return EXIT_ERROR;
    }
    if args.paths.iter().any(|p| p.as_os_str() != "-") {
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
    map_to_templates(args, &mut report, Some(&mut sources));
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
        let _ = err.write_all(render_report(args, &report, &sources, style).as_bytes());
    }
    if status == EXIT_OK {
        let mut out = std::io::stdout().lock();
        if out.write_all(&bytes).and_then(|()| out.flush()).is_err() {
            return EXIT_ERROR;
        }
    }
    status
}

/// `ra2 rules`.
pub fn rules(args: &RulesArgs) -> u8 {
    // The edition `ra2 lint` would run here: the flag, else `.ra2.yaml`'s, else base.
    let edition = match args.edition {
        Some(edition) => edition.into(),
        None => match ra2_input::config::load(None) {
            Ok(config) => config.edition,
            Err(e) => {
                warn(&e.lines());
                return EXIT_ERROR;
            }
        },
    };
    let mut output = match (args.format, args.all) {
        (DocFormat::Text, false) => ra2_report::catalogue::rules_table(edition),
        (DocFormat::Json, false) => ra2_report::catalogue::rules_json(edition),
        (DocFormat::Text, true) => ra2_report::catalogue::rules_table_all(
            edition,
            terminal_width().unwrap_or(DEFAULT_WIDTH).min(DEFAULT_WIDTH),
        ),
        (DocFormat::Json, true) => ra2_report::catalogue::rules_json_all(edition),
    };
    if !output.ends_with('\n') {
        output.push('\n');
    }
    emit(&output);
    EXIT_OK
}

/// `ra2 explain`.
pub fn explain(args: &ExplainArgs) -> u8 {
    let wanted = args.rule.trim();
    let (id, check) = match wanted.split_once('/') {
        Some((id, check)) => (id, Some(check)),
        None => (wanted, None),
    };
    let Some(doc) = ra2_core::catalogue::get(id) else {
        warn(&[format!("error: unknown rule {wanted:?}{}", settings::hint(wanted))]);
        return EXIT_ERROR;
    };
    if let Some(check) = check {
        if doc.check(check).is_none() {
            let slugs: Vec<&str> = doc.checks.iter().map(|c| c.slug).collect();
            warn(&[format!(
                "error: {id} has no check {check:?}{} (its checks: {})",
                ra2_core::settings::suggest(wanted)
                    .map(|s| format!(" (did you mean {s:?}?)"))
                    .unwrap_or_default(),
                slugs.join(", ")
            )]);
            return EXIT_ERROR;
        }
    }
    let mut output = match args.format {
        DocFormat::Text => {
            ra2_report::catalogue::explain(doc, check, terminal_width().unwrap_or(DEFAULT_WIDTH).min(DEFAULT_WIDTH))
        }
        DocFormat::Json => serde_json::to_string_pretty(doc).unwrap_or_default(),
    };
    if !output.ends_with('\n') {
        output.push('\n');
    }
    emit(&output);
    EXIT_OK
}
