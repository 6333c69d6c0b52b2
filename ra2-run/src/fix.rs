//! `ra2 lint --fix` (and `ra2 fix`), `--unsafe-fixes`, `--diff`: each input file's fixes are
//! applied by [`ra2_core::fix::fix_text`] (which keeps every byte it does not edit and drops a
//! fix whose result would not parse or would gain a finding), then the file is rewritten
//! atomically (a temporary file and a rename, permissions kept), or its unified diff printed.
//! Standard input with `--fix` is fixed to standard output. The run then reports what remains
//! as `ra2 lint` would.

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::path::Path;

use ra2_core::Config;
use ra2_input::{Discovery, Input};

use crate::Options;

/// What fixing did before the run reports what remains.
#[derive(Debug, Default)]
pub(crate) struct Outcome<'c> {
    /// The files fixing read (and wrote) as the run would read them: it takes them in instead.
    pub(crate) prelinted: ra2_input::parallel::Prelinted<'c>,
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
pub(crate) fn fix_files<'c>(options: &Options, config: &'c Config) -> Outcome<'c> {
    let how = Discovery {
        skip_non_k8s: config.skip_non_k8s,
        respect_ignore_files: !options.no_ignore,
    };
    let found = ra2_input::discover(&options.paths, how);
    let files: Vec<(std::path::PathBuf, String, bool)> = found
        .0
        .iter()
        .filter_map(|input| match input {
            Input::File {
                path,
                name,
                skip_non_k8s,
            } => Some((path.clone(), name.clone(), *skip_non_k8s)),
            Input::Stdin => None,
        })
        .collect();
    // Helm output whose chart is found is fixed in the chart's files (one file after the
    // other: they may share a chart); the rest as any file, in parallel.
    let mut chart = HelmRun::new(options);
    let (helm, files): (Vec<_>, Vec<_>) = files
        .into_iter()
        .partition(|(path, _, _)| std::fs::read_to_string(path).is_ok_and(|t| chart.has_chart(&t)));
    let results = fix_all(&files, config, options.unsafe_fixes, crate::run::jobs(options));
    let mut outcome = Outcome::default();
    // Fixing changes no file's name: the run takes this walk instead of walking again.
    outcome.prelinted.found(&options.paths, how, found);
    let mut diffs = String::new();
    for (path, name, _) in &helm {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let fixed = chart.fix(name, &text, config, options.unsafe_fixes);
        note_dropped(name, &fixed.dropped, &mut outcome.notes);
        if fixed.text != text {
            outcome.applied += fixed.applied;
            outcome.files += 1;
            write_or_diff(options, (path, name), (&text, &fixed.text), &mut diffs, &mut outcome);
        }
    }
    let mut written: Vec<&std::path::Path> = Vec::new();
    for ((path, name, _), result) in files.iter().zip(results) {
        let Some((text, fixed, linter)) = result else { continue };
        note_dropped(name, &fixed.dropped, &mut outcome.notes);
        if let Some(linter) = linter {
            outcome.prelinted.insert(path.clone(), linter, fixed.text.clone());
        }
        if fixed.text == text {
            continue;
        }
        written.push(path);
        outcome.applied += fixed.applied.len();
        outcome.files += 1;
        write_or_diff(options, (path, name), (&text, &fixed.text), &mut diffs, &mut outcome);
    }
    let changed = chart.finish(options, &written, &mut diffs, &mut outcome);
    if !changed.is_empty() {
        // A chart file the fixes of Helm output changed is read again.
        outcome
            .prelinted
            .forget(|path| changed.iter().any(|changed| same_file(path, changed)));
    }
    if options.diff {
        crate::emit(&diffs);
    }
    outcome
}

/// Writes a fixed file atomically, or with `--diff` adds its diff to `diffs`.
fn write_or_diff(
    options: &Options,
    (path, name): (&std::path::Path, &str),
    (before, after): (&str, &str),
    diffs: &mut String,
    outcome: &mut Outcome<'_>,
) {
    if options.diff {
        diffs.push_str(&unified_diff(name, before, after));
        return;
    }
    if let Err(e) = crate::baseline::write_atomically(path, after.as_bytes()) {
        outcome.notes.push(format!("error: cannot write the fixed {name}: {e}"));
        outcome.failed = true;
    }
}

/// The charts that Helm output is fixed into, over one run.
struct HelmRun {
    charts: crate::chart::Charts,
    files: crate::helm_fix::ChartFiles,
    suggestions: Vec<crate::helm_fix::Suggestion>,
}

impl HelmRun {
    fn new(options: &Options) -> Self {
        HelmRun {
            charts: crate::chart::Charts::new(options.chart_root.as_deref()),
            files: crate::helm_fix::ChartFiles::default(),
            suggestions: Vec::new(),
        }
    }

    /// Is `text` Helm output of a chart that is found?
    fn has_chart(&mut self, text: &str) -> bool {
        if !crate::helm_fix::is_helm_output(text) {
            return false;
        }
        let names = source_charts(text);
        names.into_iter().any(|name| self.charts.has_chart(name))
    }

    fn fix(&mut self, name: &str, text: &str, config: &Config, unsafe_fixes: bool) -> crate::helm_fix::HelmFixed {
        self.files.begin(name);
        let mut fixed = crate::helm_fix::fix(name, text, config, unsafe_fixes, &mut self.charts, &mut self.files);
        self.suggestions.append(&mut fixed.suggestions);
        fixed
    }

    /// Writes the chart files fixing changed (or their diffs), and notes the suggestions.
    /// `written`: the input files fixed as such (a chart file among them is not written twice).
    /// The chart files changed.
    fn finish(
        mut self,
        options: &Options,
        written: &[&std::path::Path],
        diffs: &mut String,
        outcome: &mut Outcome<'_>,
    ) -> Vec<std::path::PathBuf> {
        // The lint after fixing says what it says about charts not found.
        let _ = self.charts.take_notes(false);
        let mut changed = Vec::new();
        for (path, before, after) in self.files.changed() {
            changed.push(path.to_path_buf());
            if written.iter().any(|w| same_file(w, path)) {
                outcome.notes.push(format!(
                    "error: {} is both an input and a file of the chart its Helm output is fixed in: its chart fixes were not written",
                    self.charts.display(path)
                ));
                outcome.failed = true;
                continue;
            }
            outcome.files += 1;
            let name = self.charts.display(path);
            write_or_diff(options, (path, &name), (before, after), diffs, outcome);
        }
        outcome
            .notes
            .extend(crate::helm_fix::suggestion_notes(&self.suggestions, options.verbose));
        changed
    }
}

/// The charts the `# Source: <chart>/<template>` lines of `text` name (lines as
/// [`str::lines`] splits them). Found with a vectorised substring search rather than line by
/// line: this runs over every input file before fixing.
fn source_charts(text: &str) -> std::collections::BTreeSet<&str> {
    const SOURCE: &str = "# Source: ";
    memchr::memmem::find_iter(text.as_bytes(), SOURCE)
        // At the start of a line.
        .filter(|&at| at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n'))
        .filter_map(|at| {
            let rest = text.get(at + SOURCE.len()..)?;
            let line = rest.split_once('\n').map_or(rest, |(line, _)| line);
            line.split_once('/').map(|(name, _)| name)
        })
        .collect()
}

/// Reads and fixes `files` (path, report name, whether the run skips documents that are not
/// Kubernetes) on `jobs` threads; the results in the files' order (`None` for a file that
/// cannot be read as UTF-8 text: the lint reports it), each with a linter that read the fixed
/// text as the run would, when one can (see [`ra2_core::fix::fix_text_for_run`]).
fn fix_all<'c>(
    files: &[(std::path::PathBuf, String, bool)],
    config: &'c Config,
    unsafe_fixes: bool,
    jobs: usize,
) -> Vec<Option<(String, ra2_core::fix::FixedForRun, Option<ra2_core::Linter<'c>>)>> {
    // The run's linter has object hooks (strict mode) only with `config.strict`; such a run
    // reads the fixed files itself.
    let seed = (!config.strict).then(|| ra2_core::Linter::new(config).seed());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some((path, name, skip_non_k8s)) = files.get(i) else {
                break;
            };
            let result = std::fs::read_to_string(path).ok().map(|text| {
                if let Some(seed) = &seed {
                    let (fixed, linter) =
                        ra2_core::fix::fix_text_for_run(seed, name, &text, config, *skip_non_k8s, unsafe_fixes);
                    (text, fixed, linter)
                } else {
                    let fixed = ra2_core::fix::fix_text(name, &text, config, unsafe_fixes);
                    (text, fixed.into(), None)
                }
            });
            done.push((i, result));
        }
        done
    };
    let mut results: Vec<Option<(String, ra2_core::fix::FixedForRun, Option<ra2_core::Linter<'c>>)>> =
        files.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..jobs.min(files.len()).max(1)).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for helper in helpers {
            // A helper that panicked left its files unfixed; the lint still reports them.
            all.extend(helper.join().unwrap_or_default());
        }
        for (i, result) in all {
            if let Some(slot) = results.get_mut(i) {
                *slot = result;
            }
        }
    });
    results
}

/// `ra2 lint --fix -`: reads standard input, writes the fixed text to standard output (or its
/// diff with `--diff`), and returns what remains to report.
pub(crate) fn fix_stdin<'c>(options: &Options, config: &'c Config) -> Result<(ra2_core::Report, Outcome<'c>), String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("error: cannot read standard input: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| "error: standard input is not UTF-8".to_owned())?;
    let name = ra2_input::STDIN_NAME;
    let mut outcome = Outcome::default();
    let mut chart = HelmRun::new(options);
    let fixed = if crate::helm_fix::is_helm_output(&text) {
        let fixed = chart.fix(name, &text, config, options.unsafe_fixes);
        let (applied, report) = (fixed.applied, fixed.report);
        (fixed.text, applied, fixed.dropped, report)
    } else {
        let fixed = ra2_core::fix::fix_text(name, &text, config, options.unsafe_fixes);
        (fixed.text, fixed.applied.len(), fixed.dropped, fixed.report)
    };
    let (fixed_text, applied, dropped, report) = fixed;
    note_dropped(name, &dropped, &mut outcome.notes);
    if fixed_text != text {
        outcome.applied = applied;
        outcome.files = 1;
    }
    // The chart files a chart found takes the fixes into: written (or their diffs first).
    let mut out = String::new();
    let _ = chart.finish(options, &[], &mut out, &mut outcome);
    if options.diff {
        out.push_str(&unified_diff(name, &text, &fixed_text));
    } else {
        out.clone_from(&fixed_text);
    }
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush());
    let mut report = report;
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

/// The edits of each finding's fix, for SARIF's `fixes[].artifactChanges`, each file with
/// fixable findings read again from under the source root, as the line hashes are (files that
/// cannot be read, standard input, get none). A finding of Helm output mapped to its chart gets
/// the edits `--fix` would make of the chart's files (the template where the key is written,
/// `values.yaml` where the value comes from one `.Values` path); one whose fix stays a
/// suggestion at its template line, or edits a value used elsewhere too, gets none.
pub(crate) fn sarif_edits(
    findings: &[ra2_core::Finding],
    root: &crate::source_root::SourceRoot,
    config: &Config,
    chart_root: Option<&Path>,
) -> BTreeMap<ra2_report::sarif::FixKey, Vec<ra2_report::sarif::Change>> {
    let mut by_file: BTreeMap<&str, Vec<&ra2_core::Finding>> = BTreeMap::new();
    for finding in findings {
        if finding.fix.is_some() && !finding.file.starts_with('<') {
            by_file.entry(&finding.file).or_default().push(finding);
        }
    }
    let mut out = BTreeMap::new();
    let mut charts = None;
    let mut chart_files = crate::helm_fix::ChartFiles::default();
    for (file, findings) in by_file {
        let Ok(text) = std::fs::read_to_string(root.path(file)) else {
            continue;
        };
        // The Helm output's findings as fixing sees them: linted again and mapped to the chart.
        let helm = findings.iter().any(|f| f.template.is_some()).then(|| {
            let charts = charts.get_or_insert_with(|| crate::chart::Charts::new(chart_root));
            let mut report = ra2_core::lint_str(file, &text, config);
            charts.map_report(&mut report);
            report
        });
        for finding in findings {
            let changes = match (&helm, charts.as_mut()) {
                (Some(report), Some(charts)) if finding.template.is_some() => {
                    chart_changes(&text, report, finding, (charts, &mut chart_files), root)
                }
                _ => ra2_core::fix::edits_of(&text, finding, ra2_core::doc::Limits::default())
                    .ok()
                    .map(|edits| {
                        vec![ra2_report::sarif::Change {
                            file: finding.file.clone(),
                            replacements: replacements(&text, edits),
                        }]
                    }),
            };
            if let Some(changes) = changes {
                out.insert(ra2_report::sarif::fix_key(finding), changes);
            }
        }
    }
    out
}

/// The edits of the chart's files that fix `finding` (Helm output in `text`, `report` its
/// findings mapped to the chart), by file; `None` where the fix stays a suggestion.
fn chart_changes(
    text: &str,
    report: &ra2_core::Report,
    finding: &ra2_core::Finding,
    (charts, files): (&mut crate::chart::Charts, &mut crate::helm_fix::ChartFiles),
    root: &crate::source_root::SourceRoot,
) -> Option<Vec<ra2_report::sarif::Change>> {
    let key = ra2_report::sarif::fix_key(finding);
    let mapped = report.findings.iter().find(|f| ra2_report::sarif::fix_key(f) == key)?;
    let steps = crate::helm_fix::steps_of(text, report, mapped, charts, files).ok()?;
    let mut by_file: BTreeMap<String, (String, Vec<ra2_core::fix::edit::Edit>)> = BTreeMap::new();
    for step in steps {
        let (name, file_text, edit) = match step.target {
            crate::helm_fix::Target::Rendered => (finding.file.clone(), text.to_owned(), step.rendered),
            crate::helm_fix::Target::Template(path, edit) => {
                (chart_file(&path, charts, root), files.text(&path).ok()?, edit)
            }
            crate::helm_fix::Target::Values { file, edit, uses } => {
                // An edit of a value used elsewhere too would change those places as well.
                if uses.len() > 1 {
                    return None;
                }
                (chart_file(&file, charts, root), files.text(&file).ok()?, edit)
            }
        };
        by_file
            .entry(name)
            .or_insert_with(|| (file_text, Vec::new()))
            .1
            .push(edit);
    }
    Some(
        by_file
            .into_iter()
            .map(|(file, (text, mut edits))| {
                edits.sort();
                ra2_report::sarif::Change {
                    file,
                    replacements: replacements(&text, edits),
                }
            })
            .collect(),
    )
}

/// A chart file as the (rebased) report names files: relative to the source root when inside it.
fn chart_file(path: &Path, charts: &crate::chart::Charts, root: &crate::source_root::SourceRoot) -> String {
    let shown = charts.display(path);
    root.relative(&shown).unwrap_or(shown)
}

/// Byte-range edits of `text` as SARIF replacements: positions as findings have them (lines end
/// at `\n`, `\r\n` or `\r`; columns count characters).
fn replacements(text: &str, edits: Vec<ra2_core::fix::edit::Edit>) -> Vec<ra2_report::sarif::Replacement> {
    let lines = ra2_core::source::LineIndex::new(&ra2_core::source::Chunk {
        text,
        offset: 0,
        line: 0,
    });
    edits
        .into_iter()
        .map(|edit| {
            let start = lines.position(text, edit.start);
            let end = lines.position(text, edit.end);
            ra2_report::sarif::Replacement {
                start_line: start.line,
                start_column: start.column,
                end_line: end.line,
                end_column: end.column,
                text: edit.text,
            }
        })
        .collect()
}

/// A unified diff of one file, as `diff -u` and `git diff` write it.
fn unified_diff(name: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

/// Do two paths name the same file?
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    /// The charts named by `# Source:` lines, found by a substring search, are those a walk over
    /// the lines finds: at the start, after LF and CRLF, without a template, not at a line start.
    #[test]
    fn source_charts_are_those_of_the_source_lines() {
        let by_lines = |text: &str| -> std::collections::BTreeSet<String> {
            text.lines()
                .filter_map(|l| l.strip_prefix("# Source: ")?.split_once('/'))
                .map(|(name, _)| name.to_owned())
                .collect()
        };
        let texts = [
            "",
            "# Source: a/templates/x.yaml\nkind: Pod\n",
            "---\n# Source: b/templates/x.yaml\r\n---\r\n# Source: c/t.yaml\r\n",
            "x: 1 # Source: d/t.yaml\n  # Source: e/t.yaml\n# Source: f\n# Source: /g\n# Source: h/",
            "# Source: i/t.yaml\n# Source: i/u.yaml\n# Source: j\r/t\n#Source: k/t\n# Source: l/t",
            "# Source: ",
            "\n# Source: m/n/o\n\n",
        ];
        for text in texts {
            let found: std::collections::BTreeSet<String> =
                super::source_charts(text).into_iter().map(str::to_owned).collect();
            assert_eq!(found, by_lines(text), "{text:?}");
        }
    }
}
