//! Fixes: a finding whose remedy is mechanical carries one ([`Fix`]: applicability, title and an
//! RFC 6902 patch on its object), built by the rule that reports it; [`fix_text`] applies them
//! to a file's text, changing only the nodes they edit (see [`edit`]), and keeps a fix only if
//! the result parses, loses the finding it fixes and gains no other (ra2's prediction of the
//! API server's refusals included, since those are findings too).
//!
//! Which checks have a fix, and why it is safe or unsafe, is catalogue data
//! (`rules/<id>.yaml`, `fix:` on the check); a test ties the fixes rules build to it. "Safe"
//! means the object stays valid and means the same except for what RA2 forbids.

pub mod edit;
mod read;

use std::collections::BTreeMap;

use crate::lint::Seed;
use crate::report::Finding;
pub use crate::report::fix::{Applicability, Fix, Op, Operation, object_prefix};
use crate::{Config, Linter, Report};

/// What a finding is counted by when comparing the findings before and after a fix: its
/// rule, check and object. Not its place: a fix that writes a missing `securityContext`
/// moves the other findings about that container's settings into it. The object by its
/// group, not its version: a fix that moves it to the GA version keeps it the same object.
/// Borrowed from the finding, in the order of (rule, check, [`same_object`]).
type Key<'f> = (
    &'f str,
    &'f str,
    Option<&'f str>,
    Option<&'f str>,
    Option<&'f str>,
    Option<&'f str>,
);

fn key(finding: &Finding) -> Key<'_> {
    let object = &finding.object;
    let group = object
        .api_version
        .as_deref()
        .map(|v| v.rsplit_once('/').map_or("", |(group, _)| group));
    (
        &finding.rule,
        &finding.check,
        group,
        object.kind.as_deref(),
        object.namespace.as_deref(),
        object.name.as_deref(),
    )
}

/// `object` with its apiVersion cut to the group: the object whatever version it is written at.
pub fn same_object(object: &crate::report::ObjectRef) -> crate::report::ObjectRef {
    let mut object = object.clone();
    if let Some(api_version) = &mut object.api_version {
        let group = api_version.rsplit_once('/').map_or("", |(group, _)| group);
        *api_version = group.to_owned();
    }
    object
}

/// A finding with its place, to tell apart the findings of one check on one object (two
/// containers) when giving fixes up.
fn place(finding: &Finding) -> (Key<'_>, &str) {
    (
        key(finding),
        finding.named_pointer.as_deref().unwrap_or(&finding.pointer),
    )
}

fn tally(report: &Report) -> BTreeMap<Key<'_>, usize> {
    let mut out = BTreeMap::new();
    for finding in &report.findings {
        *out.entry(key(finding)).or_default() += 1;
    }
    out
}

/// A fix that was not applied, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotApplied {
    pub finding: Finding,
    pub reason: String,
}

/// The result of fixing one file's text.
#[derive(Clone, Debug)]
pub struct Fixed {
    /// The fixed text (the input when nothing applied).
    pub text: String,
    /// The findings whose fixes were applied.
    pub applied: Vec<Finding>,
    /// Fixes that were dropped, with the reason.
    pub dropped: Vec<NotApplied>,
    /// The fixed text's report.
    pub report: Report,
}

/// Passes over a file beyond one per finding: each applies every fix that does not overlap
/// another, so fixes of one node (two keys into a missing `securityContext`) take a pass each.
const MAX_PASSES: usize = 8;

/// Applies the safe fixes of `text`'s findings (and the unsafe ones with `unsafe_fixes`) and
/// lints the result, until nothing more applies. Every fix kept leaves the text parsing,
/// removes its finding and adds none.
pub fn fix_text(file: &str, text: &str, config: &Config, unsafe_fixes: bool) -> Fixed {
    let Done { fixed, report } = fix_with(text, config, unsafe_fixes, &mut read::Lints::Anew { file, config });
    Fixed {
        // Texts linted anew always have their report.
        report: report.unwrap_or_else(|| crate::lint_str(file, &fixed.text, config)),
        text: fixed.text,
        applied: fixed.applied,
        dropped: fixed.dropped,
    }
}

/// What [`fix_text_for_run`] gives besides the run's linter: [`Fixed`] without the report,
/// which the run makes.
#[derive(Clone, Debug)]
pub struct FixedForRun {
    /// The fixed text (the input when nothing applied).
    pub text: String,
    /// The findings whose fixes were applied.
    pub applied: Vec<Finding>,
    /// Fixes that were dropped, with the reason.
    pub dropped: Vec<NotApplied>,
}

impl From<Fixed> for FixedForRun {
    fn from(fixed: Fixed) -> Self {
        FixedForRun {
            text: fixed.text,
            applied: fixed.applied,
            dropped: fixed.dropped,
        }
    }
}

/// What fixing a text did: [`Fixed`], with the fixed text's report when linting made it
/// (not when the text to fix may carry no fix: see [`read::Lints::lint_first`]).
struct Done {
    fixed: FixedForRun,
    report: Option<Report>,
}

/// [`fix_text`] for a run that reads the file next (`seed` is its linter's, `skip_non_k8s` how
/// it reads the file): the fixes are the same; with them, a linter that read the fixed text as
/// the run would (for [`crate::Linter::absorb`]: the run makes the report), `None` when the run
/// must read it itself (its linter has object hooks, or it skips documents `lint_str` reports).
/// Only the chunks a fix changes are read again after each fix, and a text no chunk of which
/// may carry a fix is not reported on.
pub fn fix_text_for_run<'c>(
    seed: &Seed<'c>,
    file: &str,
    text: &str,
    config: &'c Config,
    skip_non_k8s: bool,
    unsafe_fixes: bool,
) -> (FixedForRun, Option<Linter<'c>>) {
    let mut lints = read::Lints::Resume {
        seed,
        file,
        config,
        skip_non_k8s,
        kept: None,
    };
    let fixed = fix_with(text, config, unsafe_fixes, &mut lints).fixed;
    (fixed, lints.into_linter())
}

fn fix_with(text: &str, config: &Config, unsafe_fixes: bool, lints: &mut read::Lints<'_, '_>) -> Done {
    let (report, docs) = lints.lint_first(text);
    let Some(mut report) = report else {
        let fixed = FixedForRun {
            text: text.to_owned(),
            applied: Vec::new(),
            dropped: Vec::new(),
        };
        return Done { fixed, report: None };
    };
    let mut applied = Vec::new();
    let mut dropped: Vec<NotApplied> = Vec::new();
    let wanted = |f: &Finding| {
        f.fix
            .as_ref()
            .is_some_and(|fix| unsafe_fixes || fix.applicability == Applicability::Safe)
    };
    // Each pass applies a fix (and a fix never adds a finding) or gives one up: the bound
    // only guards against a mistake.
    let bound = 2 * report.findings.len() + MAX_PASSES;
    let candidates_of = |report: &Report, dropped: &[NotApplied]| -> Vec<Finding> {
        report
            .findings
            .iter()
            .filter(|f| wanted(f) && !dropped.iter().any(|d| place(&d.finding) == place(f)))
            .cloned()
            .collect()
    };
    // What the last pass prepared for the next (see `edit::Prepared`): its candidates, and
    // their edits on the text it made, planned on the documents linting it parsed. Each pass
    // sets it last, after any fix it gives up: the candidates are this pass's.
    let mut ahead = ahead_of(text, candidates_of(&report, &dropped), config.limits, &docs, false);
    // The candidates of the last pass when it went one fix at a time: the plan together failed
    // for a fix not given up yet, and while no new candidate comes it would almost always fail
    // again for that fix (only a fix that checked out alone went in since), so the next pass
    // goes one at a time straight away. Where the plan together would have checked out after
    // all, the fixes go in one pass each instead of in one pass (on the corpus, the fixed
    // texts are the same as trying the plan together every pass).
    let mut alone: Option<Vec<Finding>> = None;
    let mut current = text.to_owned();
    for _ in 0..bound {
        let Ahead {
            candidates,
            prepared,
            one_by_one,
        } = if let Some(ready) = ahead.take() {
            ready
        } else {
            let candidates = candidates_of(&report, &dropped);
            if candidates.is_empty() {
                break;
            }
            let prepared = edit::prepare(&current, &candidates, config.limits, true);
            Ahead {
                candidates,
                prepared,
                one_by_one: None,
            }
        };
        // Insertions of different keys after the same entry go in together: one pass where
        // passes one at a time took one each (see `edit::Planned::same_order_as`).
        let mut planned = prepared.select(true);
        dropped.append(&mut planned.failed);
        if planned.edits.is_empty() {
            break;
        }
        let go_alone = alone
            .take()
            .is_some_and(|before| candidates.iter().all(|c| before.iter().any(|b| place(b) == place(c))));
        // All at once when that checks out; else one at a time, keeping those that do.
        if !go_alone {
            let together = edit::apply(&current, planned.edits.iter().flat_map(|(_, e)| e.iter()));
            let (after, read, docs) = lints.lint(&together, &current);
            let fixed: Vec<&Finding> = planned.edits.iter().flat_map(|(f, _)| f.iter()).collect();
            if verify(&report, &after, &fixed).is_ok() {
                let next = ahead_of(&together, candidates_of(&after, &dropped), config.limits, &docs, false);
                if planned.together.is_empty()
                    || next
                        .as_ref()
                        .is_none_or(|next| planned.same_order_as(&next.prepared.select(false)))
                {
                    applied.extend(fixed.into_iter().cloned());
                    lints.keep(read);
                    current = together;
                    report = after;
                    ahead = next;
                    continue;
                }
            }
            // The plan without insertions together, as passes one at a time made it.
            if !planned.together.is_empty() {
                let planned = prepared.select(false);
                let together = edit::apply(&current, planned.edits.iter().flat_map(|(_, e)| e.iter()));
                let (after, read, docs) = lints.lint(&together, &current);
                let fixed: Vec<&Finding> = planned.edits.iter().flat_map(|(f, _)| f.iter()).collect();
                if verify(&report, &after, &fixed).is_ok() {
                    applied.extend(fixed.into_iter().cloned());
                    lints.keep(read);
                    ahead = ahead_of(&together, candidates_of(&after, &dropped), config.limits, &docs, false);
                    current = together;
                    report = after;
                    continue;
                }
            }
        }
        // Each fix alone: the first that checks out is kept (the others were planned on the
        // old text, so the next pass plans them again); those that fail are given up.
        // (Its failures are the merged plan's, already given up.)
        let planned = match one_by_one {
            Some(prepared) => prepared.select(false),
            None => edit::plan(&current, &candidates, config.limits, false, false),
        };
        for (findings, edits) in &planned.edits {
            let one = edit::apply(&current, edits.iter());
            let (after, read, docs) = lints.lint(&one, &current);
            let fixed: Vec<&Finding> = findings.iter().collect();
            match verify(&report, &after, &fixed) {
                Ok(()) => {
                    applied.extend(findings.iter().cloned());
                    lints.keep(read);
                    ahead = ahead_of(&one, candidates_of(&after, &dropped), config.limits, &docs, true);
                    current = one;
                    report = after;
                    alone = Some(candidates);
                    break;
                }
                Err(reason) => dropped.extend(findings.iter().map(|f| NotApplied {
                    finding: f.clone(),
                    reason: reason.clone(),
                })),
            }
        }
    }
    // A fix given up early may have been made moot by a later one (a container that shares
    // its settings through an alias is fixed when its anchor is): report only those whose
    // finding remains.
    dropped.retain(|d| report.findings.iter().any(|f| place(f) == place(&d.finding)));
    Done {
        fixed: FixedForRun {
            text: current,
            applied,
            dropped,
        },
        report: Some(report),
    }
}

/// What a pass prepares for the next (see [`edit::Prepared`]): the candidates on the text it
/// made, their edits planned on the documents linting it parsed, and, after a pass that went
/// one fix at a time, their edits one by one (without merging) for a next pass that does too.
struct Ahead {
    candidates: Vec<Finding>,
    prepared: edit::Prepared,
    one_by_one: Option<edit::Prepared>,
}

/// The next pass's candidates and their edits on `text` (which a pass made, or the text to
/// fix), planned on the documents linting `text` parsed (`docs`), also one by one when
/// `alone`; `None` without candidates.
fn ahead_of<'t>(
    text: &'t str,
    candidates: Vec<Finding>,
    limits: crate::doc::Limits,
    docs: &read::Docs<'t>,
    alone: bool,
) -> Option<Ahead> {
    (!candidates.is_empty()).then(|| {
        let prepared = edit::prepare_with(text, &candidates, limits, true, docs);
        let one_by_one = alone.then(|| edit::prepare_with(text, &candidates, limits, false, docs));
        Ahead {
            candidates,
            prepared,
            one_by_one,
        }
    })
}

/// The edits of `finding`'s fix alone on `text`, the file it was found in (for SARIF's
/// `artifactChanges` and editors' code actions): byte ranges of `text` and their new text.
/// Not checked as [`fix_text`] checks what it applies.
pub fn edits_of(text: &str, finding: &Finding, limits: crate::doc::Limits) -> Result<Vec<edit::Edit>, String> {
    let mut planned = edit::plan(text, std::slice::from_ref(finding), limits, false, false);
    if let Some(failed) = planned.failed.pop() {
        return Err(failed.reason);
    }
    planned
        .edits
        .pop()
        .map(|(_, edits)| edits)
        .ok_or_else(|| "the finding has no fix".to_owned())
}

/// Does `after` keep what a fix promises over `before`: no more document errors, each fixed
/// finding gone, and no finding `before` did not have? (The check [`fix_text`] makes, for
/// callers that apply fixes elsewhere too: a Helm chart's files.)
pub fn verify(before: &Report, after: &Report, fixed: &[&Finding]) -> Result<(), String> {
    if after.errors.len() > before.errors.len() {
        let why = after
            .errors
            .iter()
            .find(|e| !before.errors.iter().any(|b| b.message == e.message))
            .map_or_else(String::new, |e| format!(": {}", e.message));
        return Err(format!("the fixed text would not parse{why}"));
    }
    let mut left = tally(before);
    for finding in fixed {
        if let Some(n) = left.get_mut(&key(finding)) {
            *n = n.saturating_sub(1);
        }
    }
    let now = tally(after);
    for (k, n) in &now {
        if *n > left.get(k).copied().unwrap_or(0) {
            let gained = after.findings.iter().find(|f| &key(f) == k);
            return Err(match gained {
                Some(f) => format!("it would add a finding: {}/{}: {}", f.rule, f.check, f.message),
                None => "it would add a finding".to_owned(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{fix_text, fix_text_for_run};
    use crate::{Config, Linter};

    /// A DaemonSet whose middle container is privileged for a Bidirectional mount: taking
    /// `privileged` away would make the API server refuse the mount, so that fix is given up
    /// (the plan together fails for it, and the passes after go one fix at a time until it
    /// comes first); every other fix, in the containers before and after it, is applied.
    #[test]
    fn a_fix_that_would_add_a_finding_is_given_up_and_the_others_applied() {
        let container = |name: &str| {
            format!("      - name: {name}\n        image: r/{name}:1\n        ports:\n        - containerPort: 8080\n")
        };
        let text = format!(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: d\n  namespace: n\nspec:\n  selector:\n    matchLabels: {{app: d}}\n  template:\n    metadata:\n      labels: {{app: d}}\n    spec:\n      containers:\n{}      - name: csi\n        image: r/csi:1\n        volumeMounts:\n        - mountPath: /var/lib/kubelet/pods\n          mountPropagation: Bidirectional\n          name: pods\n        securityContext:\n          privileged: true\n{}      volumes:\n      - name: pods\n        hostPath: {{path: /var/lib/kubelet/pods, type: Directory}}\n",
            container("first"),
            container("last")
        );
        let config = Config::default();
        let fixed = fix_text("d.yaml", &text, &config, true);
        let reasons: Vec<_> = fixed
            .dropped
            .iter()
            .map(|d| (d.finding.check.as_str(), d.reason.as_str()))
            .collect();
        assert_eq!(reasons.len(), 1, "{reasons:?}");
        assert_eq!(reasons[0].0, "privileged");
        assert!(reasons[0].1.contains("Bidirectional"), "{reasons:?}");
        let left: Vec<_> = fixed
            .report
            .findings
            .iter()
            .filter(|f| f.fix.is_some())
            .map(|f| f.check.as_str())
            .collect();
        assert_eq!(left, ["privileged"], "{}", fixed.text);
        for name in ["first", "last"] {
            assert!(
                fixed
                    .applied
                    .iter()
                    .any(|f| f.pointer.contains("/containers/0") == (name == "first")
                        && f.pointer.contains("/containers/2") == (name == "last")),
                "{name}: {:?}",
                fixed.applied.iter().map(|f| &f.pointer).collect::<Vec<_>>()
            );
        }
        // Chunk by chunk, as a run fixes, the same; and fixing again changes nothing.
        let seed = Linter::new(&config).seed();
        let (run, _) = fix_text_for_run(&seed, "d.yaml", &text, &config, false, true);
        assert_eq!(run.text, fixed.text);
        assert_eq!(run.applied, fixed.applied);
        assert_eq!(fix_text("d.yaml", &fixed.text, &config, true).text, fixed.text);
    }
}
