//! The subcommands: what each reads, what it prints, and its exit status.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};

use ra2_core::{Linter, Report};

use crate::cli::{Cli, Command, DocFormat, ExplainArgs, LintArgs, LintFormat, RulesArgs};
use crate::input::{self, Input, ReadProblem};
use crate::render;
use crate::settings;

/// Nothing at or above `--fail-on`.
pub const EXIT_OK: u8 = 0;
/// Findings at or above `--fail-on`.
pub const EXIT_FINDINGS: u8 = 1;
/// Usage error, unreadable input or configuration, or a document that could not be parsed.
pub const EXIT_ERROR: u8 = 2;

/// Width for text output when standard output is not a terminal.
const DEFAULT_WIDTH: usize = 100;

pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Lint(args) => lint(&args),
        Command::Rules(args) => rules(&args),
        Command::Explain(args) => explain(&args),
    }
}

/// Writes to standard output. A closed pipe (`ra2 rules | head`) is not an error worth
/// reporting, so write failures are ignored.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn warn(lines: &[String]) {
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

/// `ra2 lint`.
pub fn lint(args: &LintArgs) -> u8 {
    let config = match settings::load(args) {
        Ok(config) => config,
        Err(lines) => {
            warn(&lines);
            return EXIT_ERROR;
        }
    };
    let keep_text = args.format == LintFormat::Text;
    let (inputs, mut problems) = input::discover(&args.paths);
    let mut sources: BTreeMap<String, String> = BTreeMap::new();
    let mut linter = Linter::new(&config);
    for item in &inputs {
        match item {
            Input::Stdin => {
                let mut text = String::new();
                let keep = keep_text.then_some(&mut text);
                let mut stdin = std::io::stdin().lock();
                if let Err(problem) = input::lint_stream(&mut stdin, input::STDIN_NAME, &mut linter, keep) {
                    problems.push(problem);
                }
                if keep_text {
                    sources.insert(input::STDIN_NAME.to_owned(), text);
                }
            }
            Input::File { path, name } => match input::read_file(path, name) {
                Ok(text) => {
                    linter.add_file(name, &text);
                    // JSON needs no snippets: drop each file once linted.
                    if keep_text {
                        sources.insert(name.clone(), text);
                    }
                }
                Err(problem) => problems.push(problem),
            },
        }
    }
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
    if inputs.is_empty() && !unreadable {
        warn(&["warning: no manifests found (looked for *.yaml, *.yml and *.json)".to_owned()]);
    }
    match args.format {
        LintFormat::Text => {
            let style = render::text::Style {
                color: use_color(),
                width: terminal_width().unwrap_or(DEFAULT_WIDTH),
            };
            emit(&render::text::render(&report, &sources, style));
        }
        LintFormat::Json => {
            // Streamed: a large report is never held twice (as data and as text).
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let _ = report
                .write_json(&mut out)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
        }
    }
    exit_status(&report, config.fail_on)
}

/// The exit status of a lint run: read errors outrank findings.
pub fn exit_status(report: &Report, fail_on: ra2_core::FailOn) -> u8 {
    if !report.errors.is_empty() {
        return EXIT_ERROR;
    }
    match (fail_on.threshold(), report.max_severity()) {
        (Some(threshold), Some(max)) if max >= threshold => EXIT_FINDINGS,
        _ => EXIT_OK,
    }
}

/// `ra2 rules`.
pub fn rules(args: &RulesArgs) -> u8 {
    let edition = args.edition.into();
    let mut output = match args.format {
        DocFormat::Text => render::catalogue::rules_table(edition),
        DocFormat::Json => render::catalogue::rules_json(edition),
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
            let slugs: Vec<&str> = doc.checks.iter().map(|c| c.slug.as_str()).collect();
            warn(&[format!(
                "error: {id} has no check {check:?}{} (its checks: {})",
                settings::hint(wanted).trim_end_matches(" (`ra2 rules` lists them)"),
                slugs.join(", ")
            )]);
            return EXIT_ERROR;
        }
    }
    let mut output = match args.format {
        DocFormat::Text => {
            render::catalogue::explain(doc, check, terminal_width().unwrap_or(DEFAULT_WIDTH).min(DEFAULT_WIDTH))
        }
        DocFormat::Json => serde_json::to_string_pretty(doc).unwrap_or_default(),
    };
    if !output.ends_with('\n') {
        output.push('\n');
    }
    emit(&output);
    EXIT_OK
}
