//! `ra2 lint --fix` (and `ra2 fix`), `--unsafe-fixes`, `--diff`: each input file's fixes are
//! applied by [`ra2_core::fix::fix_text`] (which keeps every byte it does not edit and drops a
//! fix whose result would not parse or would gain a finding), then the file is rewritten
//! atomically (a temporary file and a rename, permissions kept), or its unified diff printed.
//! Standard input with `--fix` is fixed to standard output. The run then reports what remains
//! as `ra2 lint` would.

use std::io::{Read as _, Write as _};

use ra2_core::Config;
use ra2_input::{Discovery, Input};

use crate::Options;

/// What fixing did before the run reports what remains.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// Fixes applied (or, with `--diff`, that would be).
    pub(crate) applied: usize,
    /// Files changed (or that would be).
    pub(crate) files: usize,
    /// Lines for standard error: fixes that were dropped, files that could not be written.
    pub(crate) notes: Vec<String>,
    /// A file could not be written.
    pub(crate) failed: bool,
}

/// Fixes the files `options` name (standard input is left to [`fix_stdin`]).
pub(crate) fn fix_files(options: &Options, config: &Config) -> Outcome {
    let how = Discovery {
        skip_non_k8s: config.skip_non_k8s,
        respect_ignore_files: !options.no_ignore,
    };
    let (inputs, _, _) = ra2_input::discover(&options.paths, how);
    let mut outcome = Outcome::default();
    let mut diffs = String::new();
    for input in inputs {
        let Input::File { path, name, .. } = input else {
            continue;
        };
        // Unreadable and non-UTF-8 files are the lint's to report.
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let fixed = ra2_core::fix::fix_text(&name, &text, config, options.unsafe_fixes);
        note_dropped(&name, &fixed.dropped, &mut outcome.notes);
        if fixed.text == text {
            continue;
        }
        outcome.applied += fixed.applied.len();
        outcome.files += 1;
        if options.diff {
            diffs.push_str(&unified_diff(&name, &text, &fixed.text));
            continue;
        }
        if let Err(e) = crate::baseline::write_atomically(&path, fixed.text.as_bytes()) {
            outcome.notes.push(format!("error: cannot write the fixed {name}: {e}"));
            outcome.failed = true;
        }
    }
    if options.diff {
        crate::emit(&diffs);
    }
    outcome
}

/// `ra2 lint --fix -`: reads standard input, writes the fixed text to standard output (or its
/// diff with `--diff`), and returns what remains to report.
pub(crate) fn fix_stdin(options: &Options, config: &Config) -> Result<(ra2_core::Report, Outcome), String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("error: cannot read standard input: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| "error: standard input is not UTF-8".to_owned())?;
    let name = ra2_input::STDIN_NAME;
    let fixed = ra2_core::fix::fix_text(name, &text, config, options.unsafe_fixes);
    let mut outcome = Outcome::default();
    note_dropped(name, &fixed.dropped, &mut outcome.notes);
    if fixed.text != text {
        outcome.applied = fixed.applied.len();
        outcome.files = 1;
    }
    let out = if options.diff {
        unified_diff(name, &text, &fixed.text)
    } else {
        fixed.text.clone()
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush());
    let mut report = fixed.report;
    report.summary.fixed = Some(outcome.applied);
    Ok((report, outcome))
}

fn note_dropped(name: &str, dropped: &[ra2_core::fix::NotApplied], notes: &mut Vec<String>) {
    for d in dropped {
        let f = &d.finding;
        notes.push(format!(
            "note: {name}:{}:{}: the fix of {}/{} was not applied: {}",
            f.line, f.column, f.rule, f.check, d.reason
        ));
    }
}

/// A unified diff of one file, as `diff -u` and `git diff` write it.
fn unified_diff(name: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}
