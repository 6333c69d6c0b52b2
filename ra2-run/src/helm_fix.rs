//! `--fix` on Helm output whose chart is found: each fix goes into the chart's own files.
//!
//! A fix is an edit of the rendered text ([`ra2_core::fix::edits_of`]); here it is carried to
//! the file that wrote those bytes, when that can be proved from the texts alone:
//!
//! - **the template**, where the edited node (or, for a missing key, the last line of its
//!   mapping, or the line after it) is a template line written literally — no template action
//!   on it, the same text as the rendered line — outside any `range` or `define`, in the same
//!   `if`/`with` blocks as the mapping's own line: the same edit at the same column;
//! - **the values file** (the chart's `values.yaml`, a subchart's own), where the node is a
//!   whole scalar `{{ .Values.x }}` (also `"{{ .Values.x }}"` and `{{ .Values.x | quote }}`) or
//!   lies in a block `{{ toYaml .Values.x | nindent N }}` written under its key, the values file
//!   holds that path with the value that was rendered, and every other use of it in the chart's
//!   templates is fixed the same way in the same step: the values file is edited as fixes edit
//!   any YAML file (a missing key after the mapping's last entry), and the rendered text the way
//!   `toYaml` writes it (keys in order);
//! - otherwise the fix stays a suggestion at its template line, with the reason.
//!
//! Fixes are applied in passes: each takes every fix whose edits (of the rendered text and of
//! each chart file) come near no other's, and the rendered text with them must pass
//! [`ra2_core::fix::verify`] (it parses, loses the fixed findings, gains none), else the first
//! fix goes alone or is dropped. Then the chart files are edited in memory, the templates
//! mapped as they now read, and the next pass linted. The rendered text so fixed is the output
//! as the fixed chart renders it (`ra2-cli/tests/helm_fix.rs` renders both with the real helm).
//! Chart files are written (or diffed) by the caller, once every input is fixed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ra2_core::fix::edit::Edit;
use ra2_core::fix::{NotApplied, Op, Operation};
use ra2_core::{Config, Finding, Report};

use crate::chart::Charts;

/// The chart files fixing reads and edits: each read once, kept as read and as fixes left it.
#[derive(Debug, Default)]
pub(crate) struct ChartFiles {
    files: BTreeMap<PathBuf, (String, String)>,
    /// The input whose fixes first changed each file, and the input being fixed: another
    /// input's output was rendered from the chart as it was, so it is not fixed through a file
    /// changed since.
    owner: BTreeMap<PathBuf, String>,
    input: String,
}

impl ChartFiles {
    pub(crate) fn text(&mut self, path: &Path) -> Result<String, String> {
        if let Some((_, now)) = self.files.get(path) {
            return Ok(now.clone());
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", shown(path)))?;
        self.files.insert(path.to_path_buf(), (text.clone(), text.clone()));
        Ok(text)
    }

    fn set(&mut self, path: &Path, text: String) {
        if let Some(entry) = self.files.get_mut(path) {
            entry.1 = text;
            self.owner
                .entry(path.to_path_buf())
                .or_insert_with(|| self.input.clone());
        }
    }

    /// Fixes from now on are of the output `input`.
    pub(crate) fn begin(&mut self, input: &str) {
        input.clone_into(&mut self.input);
    }

    /// Why `path` may not be edited for this input: another input's fixes changed it.
    fn changed_by_other(&self, path: &Path) -> Option<String> {
        let other = self.owner.get(path).filter(|o| **o != self.input)?;
        Some(format!(
            "{} was changed by the fixes of {other}; render the chart again and fix that",
            shown(path)
        ))
    }

    /// The files fixing changed: path, text as read, text now.
    pub(crate) fn changed(&self) -> impl Iterator<Item = (&Path, &str, &str)> {
        self.files
            .iter()
            .filter(|(_, (before, now))| before != now)
            .map(|(path, (before, now))| (path.as_path(), before.as_str(), now.as_str()))
    }
}

/// A path as notes name it: relative to the working directory when under it.
pub(crate) fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&cwd).unwrap_or(path).display().to_string()
}

/// A fix that stays a suggestion at its template line, and why.
#[derive(Clone, Debug)]
pub(crate) struct Suggestion {
    pub(crate) finding: Finding,
    pub(crate) why: String,
}

/// What fixing one rendered text did.
#[derive(Debug, Default)]
pub(crate) struct HelmFixed {
    /// The rendered text with the fixes applied (as the fixed chart renders it).
    pub(crate) text: String,
    /// Fixes applied (to chart files, or to the rendered text where no chart is mapped).
    pub(crate) applied: usize,
    pub(crate) dropped: Vec<NotApplied>,
    pub(crate) suggestions: Vec<Suggestion>,
    /// What remains: the fixed text's report, mapped to the templates as they now read.
    pub(crate) report: Report,
}

/// Does `text` look like Helm output (a `# Source:` comment)?
pub(crate) fn is_helm_output(text: &str) -> bool {
    text.contains("# Source: ")
}

/// Where one patch operation's edit goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// No chart mapped: the rendered text, as any file.
    Rendered,
    /// The same bytes of a template.
    Template(PathBuf, Edit),
    /// A values file; the value's uses in the templates (file, 0-based line), this one's first.
    Values {
        file: PathBuf,
        edit: Edit,
        uses: Vec<(PathBuf, usize)>,
    },
}

/// One operation: the edit of the rendered text and where it goes.
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub(crate) rendered: Edit,
    pub(crate) target: Target,
}

/// Fixes the Helm output `text` (a file called `name`): fixes of findings mapped into a chart
/// go into `files`; the others edit the rendered text.
pub(crate) fn fix(
    name: &str,
    text: &str,
    config: &Config,
    unsafe_fixes: bool,
    charts: &mut Charts,
    files: &mut ChartFiles,
) -> HelmFixed {
    let mut out = HelmFixed {
        text: text.to_owned(),
        ..HelmFixed::default()
    };
    // A finding by its check, document and place (fixes do not add or remove documents).
    let mut given_up: Vec<(String, String, usize, String)> = Vec::new();
    let place = |f: &Finding| (f.rule.clone(), f.check.clone(), f.document, f.pointer.clone());
    let mut report = lint(name, &out.text, config, charts);
    if report.findings.iter().all(|f| f.template.is_none()) {
        // No chart found: the rendered text is fixed as any file.
        let fixed = ra2_core::fix::fix_text(name, text, config, unsafe_fixes);
        return HelmFixed {
            text: fixed.text,
            applied: fixed.applied.len(),
            dropped: fixed.dropped,
            suggestions: Vec::new(),
            report: fixed.report,
        };
    }
    let bound = 2 * report.findings.len() + 8;
    for _ in 0..bound {
        let candidates: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| {
                f.fix
                    .as_ref()
                    .is_some_and(|fix| unsafe_fixes || fix.applicability == ra2_core::fix::Applicability::Safe)
                    && !given_up.contains(&place(f))
            })
            .collect();
        // Every fix that does not come near another's edits goes in this pass; the first
        // alone when they do not check out together.
        let mut batch: Vec<(&Finding, Vec<Step>)> = Vec::new();
        let mut first: Option<Vec<(&Finding, Vec<Step>)>> = None;
        for finding in &candidates {
            if batch.iter().any(|(f, _)| std::ptr::eq(*f, *finding)) {
                continue;
            }
            let group = steps_of(&out.text, &report, finding, charts, files).and_then(|steps| {
                group_of(finding, steps, &candidates, &out.text, &report, charts, files).map_err(Refusal::Suggestion)
            });
            let group = match group {
                Ok(group) => group,
                Err(refusal) => {
                    given_up.push(place(finding));
                    let finding = (*finding).clone();
                    match refusal {
                        Refusal::Suggestion(why) => out.suggestions.push(Suggestion { finding, why }),
                        Refusal::Dropped(reason) => out.dropped.push(NotApplied { finding, reason }),
                    }
                    continue;
                }
            };
            if first.is_none() {
                first = Some(group.clone());
            }
            if !conflicts(&batch, &group) {
                for member in group {
                    if !batch.iter().any(|(f, _)| std::ptr::eq(*f, member.0)) {
                        batch.push(member);
                    }
                }
            }
        }
        let Some(first) = first else { break };
        let several = batch.len() > first.len();
        let mut tried = apply_group(name, config, (&mut out.text, &report), &batch, charts, files);
        if tried.is_err() && several {
            tried = apply_group(name, config, (&mut out.text, &report), &first, charts, files);
        }
        match tried {
            Ok(n) => out.applied += n,
            Err(reason) => {
                let Some((finding, _)) = first.first() else { break };
                given_up.push(place(finding));
                out.dropped.push(NotApplied {
                    finding: (*finding).clone(),
                    reason,
                });
                continue;
            }
        }
        report = lint(name, &out.text, config, charts);
    }
    // Given up early but made moot by a later fix: only those whose finding remains.
    let remains = |f: &Finding| report.findings.iter().any(|r| place(r) == place(f));
    out.dropped.retain(|d| remains(&d.finding));
    out.suggestions.retain(|s| remains(&s.finding));
    out.report = report;
    out
}

/// The notes on the fixes that stayed suggestions: one line (each with `verbose`).
pub(crate) fn suggestion_notes(suggestions: &[Suggestion], verbose: bool) -> Vec<String> {
    const SHOWN: usize = 3;
    if suggestions.is_empty() {
        return Vec::new();
    }
    if verbose {
        // A template line rendered twice (a range) is said once.
        let mut lines: Vec<String> = suggestions
            .iter()
            .map(|s| {
                let f = &s.finding;
                let (file, line, column) = f.template.as_ref().map_or((f.file.as_str(), f.line, f.column), |t| {
                    (t.file.as_str(), t.line, t.column)
                });
                format!(
                    "note: {file}:{line}:{column}: the fix of {}/{} stays a suggestion (not applied): {}",
                    f.rule, f.check, s.why
                )
            })
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        lines.retain(|l| seen.insert(l.clone()));
        return lines;
    }
    let mut why: Vec<(&str, usize)> = Vec::new();
    for s in suggestions {
        match why.iter_mut().find(|(w, _)| *w == s.why) {
            Some((_, n)) => *n += 1,
            None => why.push((&s.why, 1)),
        }
    }
    why.sort_by_key(|w| std::cmp::Reverse(w.1));
    let mut reasons: Vec<String> = why.iter().take(SHOWN).map(|(w, n)| format!("{n}: {w}")).collect();
    if why.len() > SHOWN {
        reasons.push(format!("{} more reasons", why.len() - SHOWN));
    }
    let n = suggestions.len();
    vec![format!(
        "note: {n} {} of Helm output stayed {} at {} template {} (not applied: {}); --verbose lists each",
        if n == 1 { "fix" } else { "fixes" },
        if n == 1 { "a suggestion" } else { "suggestions" },
        if n == 1 { "its" } else { "their" },
        if n == 1 { "line" } else { "lines" },
        reasons.join("; ")
    )]
}

/// Lints `text` and maps its findings into their charts' templates as fixing left them.
fn lint(name: &str, text: &str, config: &Config, charts: &mut Charts) -> Report {
    let mut report = ra2_core::lint_str(name, text, config);
    charts.map_report(&mut report);
    report
}

/// Why a fix is not carried into the chart.
pub(crate) enum Refusal {
    /// It is a fix all the same: shown at its template line.
    Suggestion(String),
    /// It cannot be made at all.
    Dropped(String),
}

/// The steps of `finding`'s fix: one per patch operation.
pub(crate) fn steps_of(
    text: &str,
    report: &Report,
    finding: &Finding,
    charts: &mut Charts,
    files: &mut ChartFiles,
) -> Result<Vec<Step>, Refusal> {
    let Some(fix) = &finding.fix else {
        return Err(Refusal::Dropped("the finding has no fix".to_owned()));
    };
    let mut steps = Vec::new();
    for op in &fix.patch {
        if op.op == Op::Move && finding.template.is_some() {
            return Err(Refusal::Suggestion(
                "a key renamed in the rendered output is not carried into the chart yet".to_owned(),
            ));
        }
        let mut one = finding.clone();
        if let Some(fix) = one.fix.as_mut() {
            fix.patch = vec![op.clone()];
        }
        let edits = ra2_core::fix::edits_of(text, &one, ra2_core::doc::Limits::default()).map_err(Refusal::Dropped)?;
        let [rendered] = edits.as_slice() else {
            return Err(Refusal::Suggestion(
                "one change of the rendered text makes several edits".to_owned(),
            ));
        };
        let target = if finding.template.is_none() {
            crate::helm_place::Routed::Rendered
        } else {
            let at = crate::helm_place::Place::of(text, report, finding, charts, files).map_err(Refusal::Suggestion)?;
            at.target(op, rendered, files).map_err(Refusal::Suggestion)?
        };
        let (rendered, target) = match target {
            crate::helm_place::Routed::Rendered => (rendered.clone(), Target::Rendered),
            crate::helm_place::Routed::Chart(rendered, target) => (rendered, target),
        };
        let template = finding
            .source_template
            .as_deref()
            .and_then(|source| charts.template_path(source));
        let edited = match &target {
            Target::Rendered => None,
            Target::Template(file, _) | Target::Values { file, .. } => Some(file.clone()),
        };
        if let Some(why) = template.iter().chain(&edited).find_map(|f| files.changed_by_other(f)) {
            return Err(Refusal::Suggestion(why));
        }
        steps.push(Step { rendered, target });
    }
    Ok(steps)
}

/// A values file, an edit of it, and the uses of the value it edits.
type Shared = (PathBuf, Edit, Vec<(PathBuf, usize)>);

/// The fixes to make together with `finding`'s: where a value it edits is used elsewhere in
/// the chart, the other findings whose fixes make the same edit of it, so that every use is
/// fixed in the same step (or a reason why not).
fn group_of<'f>(
    finding: &'f Finding,
    steps: Vec<Step>,
    candidates: &[&'f Finding],
    text: &str,
    report: &Report,
    charts: &mut Charts,
    files: &mut ChartFiles,
) -> Result<Vec<(&'f Finding, Vec<Step>)>, String> {
    let shared: Vec<Shared> = steps
        .iter()
        .filter_map(|s| match &s.target {
            Target::Values { file, edit, uses } if uses.len() > 1 => Some((file.clone(), edit.clone(), uses.clone())),
            _ => None,
        })
        .collect();
    let mut group = vec![(finding, steps)];
    for (file, edit, uses) in shared {
        let mut covered: Vec<(PathBuf, usize)> = uses.first().cloned().into_iter().collect();
        for other in candidates.iter().filter(|c| !std::ptr::eq(**c, finding)) {
            let Ok(steps) = steps_of(text, report, other, charts, files) else {
                continue;
            };
            let same = steps.iter().find_map(|s| match &s.target {
                Target::Values { file: f, edit: e, uses } if *f == file && *e == edit => uses.first().cloned(),
                _ => None,
            });
            if let Some(own) = same {
                covered.push(own);
                if !group.iter().any(|(g, _)| std::ptr::eq(*g, *other)) {
                    group.push((other, steps));
                }
            }
        }
        if let Some((path, line)) = uses.iter().find(|u| !covered.contains(u)) {
            return Err(format!(
                "the value is also used at {}:{}, which this fix does not reach",
                charts.display(path),
                line + 1
            ));
        }
    }
    // A step two findings of the group share (the same edit of the same node) is made once.
    let mut seen: Vec<(Edit, Target)> = Vec::new();
    for (_, steps) in &mut group {
        steps.retain(|s| {
            let key = (s.rendered.clone(), s.target.clone());
            let new = !seen.contains(&key);
            seen.push(key);
            new
        });
    }
    Ok(group)
}

/// Applies a group of fixes when the rendered text with their edits keeps what a fix
/// promises ([`ra2_core::fix::verify`]): the chart files' edits, and the rendered text; the
/// number of fixes.
fn apply_group(
    name: &str,
    config: &Config,
    (text, report): (&mut String, &Report),
    group: &[(&Finding, Vec<Step>)],
    charts: &mut Charts,
    files: &mut ChartFiles,
) -> Result<usize, String> {
    // Two findings one edit fixes (two rules, one remedy) make it once.
    let mut rendered: Vec<&Edit> = group.iter().flat_map(|(_, s)| s.iter().map(|s| &s.rendered)).collect();
    rendered.sort();
    rendered.dedup();
    if near(&rendered) {
        return Err("its edits overlap another's".to_owned());
    }
    let after_text = ra2_core::fix::edit::apply(text, rendered.into_iter());
    let fixed: Vec<&Finding> = group.iter().map(|(f, _)| *f).collect();
    let after = ra2_core::lint_str(name, &after_text, config);
    ra2_core::fix::verify(report, &after, &fixed)?;
    edit_chart(group.iter().flat_map(|(_, s)| s.iter()), charts, files)?;
    *text = after_text;
    Ok(group.len())
}

/// Do any two of the edits overlap or touch (two insertions at one place, or at the end of a
/// line and the start of the next: which goes first is not known)?
fn near(edits: &[&Edit]) -> bool {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort();
    sorted.dedup();
    sorted.windows(2).any(|w| match w {
        [a, b] => b.start <= a.end + 1,
        _ => false,
    })
}

/// Would `group` go in the same pass as `batch` only with edits near one of its own?
fn conflicts(batch: &[(&Finding, Vec<Step>)], group: &[(&Finding, Vec<Step>)]) -> bool {
    let steps = || batch.iter().chain(group).flat_map(|(_, s)| s.iter());
    let rendered: Vec<&Edit> = steps().map(|s| &s.rendered).collect();
    if near(&rendered) {
        return true;
    }
    let mut by_file: BTreeMap<&Path, Vec<&Edit>> = BTreeMap::new();
    for step in steps() {
        if let Target::Template(file, edit) | Target::Values { file, edit, .. } = &step.target {
            by_file.entry(file).or_default().push(edit);
        }
    }
    by_file.values().any(|edits| near(edits))
}

/// Makes the steps' edits of chart files (each edit once).
fn edit_chart<'s>(
    steps: impl Iterator<Item = &'s Step>,
    charts: &mut Charts,
    files: &mut ChartFiles,
) -> Result<(), String> {
    let mut by_file: BTreeMap<PathBuf, Vec<Edit>> = BTreeMap::new();
    for step in steps {
        let (file, edit) = match &step.target {
            Target::Rendered => continue,
            Target::Template(file, edit) | Target::Values { file, edit, .. } => (file, edit),
        };
        let edits = by_file.entry(file.clone()).or_default();
        if !edits.contains(edit) {
            edits.push(edit.clone());
        }
    }
    for (file, edits) in &by_file {
        let mut sorted = edits.clone();
        sorted.sort();
        if sorted
            .windows(2)
            .any(|w| matches!(w, [a, b] if a.end > b.start || a.start == b.start))
        {
            return Err(format!("its edits of {} overlap", charts.display(file)));
        }
    }
    for (file, edits) in by_file {
        let text = files.text(&file)?;
        let fixed = ra2_core::fix::edit::apply(&text, edits.iter());
        if file.file_name().is_some_and(|n| n != "values.yaml") {
            charts.set_text(&file, &fixed);
        }
        files.set(&file, fixed);
    }
    Ok(())
}

/// A one-operation fix of the values file at `path` (segments), as a finding the edit machinery
/// plans.
pub(crate) fn values_finding(finding: &Finding, op: Op, path: &[String], value: &serde_json::Value) -> Finding {
    let mut pointer = String::new();
    for segment in path {
        pointer.push('/');
        pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    }
    let mut out = finding.clone();
    out.pointer = String::new();
    out.named_pointer = None;
    out.offset = 0;
    if let Some(fix) = out.fix.as_mut() {
        fix.patch = vec![Operation {
            op,
            from: None,
            path: pointer,
            value: Some(value.clone()),
        }];
    }
    out
}
