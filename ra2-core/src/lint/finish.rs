//! The end of a run: cross-document rules, profiles other documents decide, findings settled
//! (select/ignore, suppression, exemptions) and handed out in report order, all at once
//! ([`Linter::finish`]), in batches ([`Finished`]) or as they settle ([`Linter::take_settled`]).

use super::suppress::{expired_exemption, is_meta, unused_exemption};
use super::{Linter, PREVIOUS_OBJECT};
use crate::catalogue::EXEMPTION_RULE;
use crate::model::bundle::BundleFinding;
use crate::report::{Finding, LintError, ObjectSummary, Profile, Report};
use crate::rules::finding::finding_at;
use crate::rules::{BundleContext, Settings};

/// The findings, errors and objects of the documents read so far that no later document can
/// change (see [`Linter::take_settled`]), each sorted as in the report.
#[derive(Debug, Default)]
pub struct Settled {
    pub findings: Vec<Finding>,
    pub errors: Vec<LintError>,
    pub objects: Vec<ObjectSummary>,
}

impl Linter<'_> {
    /// Settles the profile of pods that depended on other documents: upgrades their
    /// `objects[].profile` and releases their network-intensive-only findings.
    fn settle_profiles(&mut self) {
        let network_intensive: std::collections::BTreeSet<usize> = self
            .bundle
            .workloads
            .iter()
            .filter(|w| w.undecided() && crate::model::profile::resolve(w, &self.bundle).is_some())
            .map(|w| w.object_index)
            .collect();
        for &index in &network_intensive {
            let object = match index.checked_sub(self.taken.objects_base) {
                Some(i) => self.report.objects.get_mut(i),
                None => self.taken.held.get_mut(&index),
            };
            if let Some(object) = object {
                object.profile = Some(Profile::NetworkIntensive);
            }
        }
        for (finding, index) in std::mem::take(&mut self.deferred) {
            if network_intensive.contains(&index) {
                self.pending.push((finding, index));
            }
        }
    }

    /// Runs cross-document rules, applies suppression and exemptions, sorts, and returns the
    /// report.
    pub fn finish(self) -> Report {
        self.finish_in_order().into_report()
    }

    /// [`Linter::finish`] for a caller that hands the findings on as it gets them: the
    /// report's findings come out of [`Finished::next_batch`] in report order (sorted and
    /// deduplicated as [`Report::finalize`] does), each built only then, so that a run with a
    /// cross-document finding per pod never holds them all as [`Finding`]s.
    pub fn finish_in_order(mut self) -> Finished {
        // Read before any object of the run: there is no previous object.
        for (_, index) in &mut self.pending {
            if *index == PREVIOUS_OBJECT {
                *index = 0;
            }
        }
        self.settle_profiles();
        let settings = Settings {
            edition: self.config.edition,
            config: self.config,
            decoded: self.origin == super::Origin::ApiServer,
        };
        let mut bundle_findings: Vec<BundleFinding> = Vec::new();
        let mut texts = crate::model::bundle::Strings::default();
        let fix_facts = self.bundle.holds_fix();
        for ((rule, params), doc) in self.rules.rules.iter().zip(&self.rules.params).zip(&self.rules.docs) {
            if let Some(check) = rule.checks.bundle {
                let mut cx = BundleContext {
                    rule: rule.id,
                    doc: *doc,
                    settings,
                    out: &mut bundle_findings,
                    texts: &mut texts,
                    params: params.as_deref(),
                };
                check(&self.bundle, &mut cx);
            }
        }
        debug_assert!(
            fix_facts || bundle_findings.iter().all(|f| f.fix.is_none()),
            "a cross-document fix made of facts whose type does not say it carries one (Fact::CARRIES_FIX)"
        );
        // The facts are not needed any more: freed before the findings they lead to are built.
        drop(std::mem::take(&mut self.bundle));
        drop(texts);
        // In the order `finish` always collected them (which a stable sort keeps for equal
        // keys): findings already in the report, pending ones, cross-document ones, then what
        // hooks and unused exemptions add.
        let mut before = std::mem::take(&mut self.report.findings);
        for (finding, index) in std::mem::take(&mut self.pending) {
            if let Some(finding) = self.settle(finding, index) {
                before.push(finding);
            }
        }
        // Cross-document findings (one per pod for some rules) stay in their compact form:
        // suppressed and exempted ones are dropped (and counted) now, the rest are sorted as
        // the report is and built one at a time as they are handed out.
        bundle_findings.retain(|f| {
            let object = f.place.object.to_ref();
            self.keeps(f.rule, f.check, &object, f.place.object_index)
        });
        let mut order: Vec<usize> = (0..bundle_findings.len()).collect();
        order.sort_by(|&a, &b| match (bundle_findings.get(a), bundle_findings.get(b)) {
            (Some(a), Some(b)) => bundle_key(a).cmp(&bundle_key(b)),
            _ => std::cmp::Ordering::Equal,
        });
        // Last first: handed out by popping.
        order.reverse();
        permute(&mut bundle_findings, order);
        // Objects held back by [`Linter::take_settled`] until their profile was decided.
        let held = std::mem::take(&mut self.taken.held);
        self.report.objects.extend(held.into_values());
        for hook in &mut self.hooks {
            hook.finish(&mut self.report);
        }
        let mut after = std::mem::take(&mut self.report.findings);
        let today = self.config.today.as_deref();
        if self.report_unused_exemptions && self.config.enabled(EXEMPTION_RULE, "unused") {
            for (exemption, &used) in self.config.exemptions.iter().zip(&self.used) {
                if !used && exemption.lapsed(today).is_none() && self.could_apply(exemption) {
                    if let Some(site) = &exemption.site {
                        after.push(unused_exemption(exemption, site));
                    }
                }
            }
        }
        if self.report_unused_exemptions && self.config.enabled(EXEMPTION_RULE, "expired") {
            for exemption in &self.config.exemptions {
                if let (Some(date), Some(site)) = (exemption.lapsed(today), &exemption.site) {
                    after.push(expired_exemption(exemption, site, date));
                }
            }
        }
        self.report.finalize();
        // What was handed out before counts too.
        let summary = &mut self.report.summary;
        summary.errors += self.taken.errors;
        summary.objects += self.taken.objects;
        let sorted = |mut findings: Vec<Finding>| {
            findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            findings.reverse();
            findings
        };
        Finished {
            report: self.report,
            before: sorted(before),
            bundle: bundle_findings,
            after: sorted(after),
            templates: self.templates,
            last: None,
            counts: self.taken.findings,
        }
    }

    /// Hands out what the documents read so far settled: their findings (suppressed and
    /// exempted ones left out, and counted), read errors and objects. What other documents
    /// decide stays for [`Linter::finish`]: cross-document findings, findings of pods whose
    /// profile is not decided yet, and those pods' objects. `finish` then reports the rest,
    /// and its summary counts everything, taken or not. Taking changes nothing else: the
    /// findings taken plus those of `finish` are the findings of a run that takes nothing.
    pub fn take_settled(&mut self) -> Settled {
        let mut findings = Vec::new();
        for (finding, index) in std::mem::take(&mut self.pending) {
            if index == PREVIOUS_OBJECT {
                // Read before any object of the run: settled in `finish`.
                self.pending.push((finding, index));
            } else if let Some(finding) = self.settle(finding, index) {
                findings.push(finding);
            }
        }
        let mut batch = Report {
            findings,
            errors: std::mem::take(&mut self.report.errors),
            ..Report::default()
        };
        batch.finalize();
        let counts = batch.summary.findings;
        self.taken.findings.error += counts.error;
        self.taken.findings.warning += counts.warning;
        self.taken.findings.info += counts.info;
        self.taken.errors += batch.errors.len();
        let base = self.taken.objects_base;
        let read = std::mem::take(&mut self.report.objects);
        self.taken.objects_base += read.len();
        let mut objects = Vec::with_capacity(read.len());
        for (i, object) in read.into_iter().enumerate() {
            if self.taken.undecided.remove(&(base + i)) {
                self.taken.held.insert(base + i, object);
            } else {
                objects.push(object);
            }
        }
        self.taken.objects += objects.len();
        Settled {
            findings: batch.findings,
            errors: batch.errors,
            objects,
        }
    }
}

/// The end of a run ([`Linter::finish_in_order`]): its findings, handed out in report order.
pub struct Finished {
    /// The report without its findings: edition, errors and objects (sorted), and the
    /// summary. [`Finished::into_report`] puts the findings not handed out in, and counts
    /// every finding of the run in the summary.
    pub report: Report,
    /// Findings collected before the cross-document ones, sorted, last first.
    before: Vec<Finding>,
    /// Cross-document findings, sorted, last first.
    bundle: Vec<BundleFinding>,
    /// Findings collected after the cross-document ones (hooks, unused exemptions), sorted,
    /// last first.
    after: Vec<Finding>,
    /// The Helm template of each object.
    templates: Vec<Option<Box<str>>>,
    /// The last finding handed out, to leave out its duplicates.
    last: Option<Finding>,
    /// The findings handed out, by [`Linter::take_settled`] and here.
    counts: crate::report::SeverityCounts,
}

impl std::fmt::Debug for Finished {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Finished")
            .field("left", &(self.before.len() + self.bundle.len() + self.after.len()))
            .finish_non_exhaustive()
    }
}

impl Finished {
    /// Up to `max` (at least one) more findings, in report order: sorted by file, line,
    /// column, rule, check and message, equal ones in the order they were collected, and a
    /// finding equal to the one before it left out, as [`Report::finalize`] does. Empty once
    /// every finding was handed out.
    pub fn next_batch(&mut self, max: usize) -> Vec<Finding> {
        let batch = self.take(max);
        if let Some(last) = batch.last() {
            self.last = Some(last.clone());
        }
        batch
    }

    /// [`Finished::next_batch`] without remembering the last finding handed out (for the last
    /// batch, after which nothing is compared with it).
    fn take(&mut self, max: usize) -> Vec<Finding> {
        let mut batch: Vec<Finding> = Vec::new();
        while batch.len() < max.max(1) {
            let Some(finding) = self.next_finding() else { break };
            if batch.last().or(self.last.as_ref()) == Some(&finding) {
                continue;
            }
            self.counts.add(finding.severity);
            batch.push(finding);
        }
        batch
    }

    /// The report: the findings not handed out yet, and a summary that counts every finding
    /// of the run, handed out or not.
    pub fn into_report(mut self) -> Report {
        let findings = self.take(usize::MAX);
        self.report.findings = findings;
        self.report.summary.findings = self.counts;
        self.report
    }

    /// The first of the findings left (ties: collected first), taken out.
    fn next_finding(&mut self) -> Option<Finding> {
        let keys = [
            self.before.last().map(Finding::sort_key),
            self.bundle.last().map(bundle_key),
            self.after.last().map(Finding::sort_key),
        ];
        let mut first: Option<(usize, SortKey<'_>)> = None;
        for (i, key) in keys.into_iter().enumerate() {
            if let Some(key) = key {
                if first.as_ref().is_none_or(|(_, best)| key < *best) {
                    first = Some((i, key));
                }
            }
        }
        let which = first.map(|(i, _)| i)?;
        let finding = match which {
            0 => self.before.pop(),
            1 => self.bundle.pop().map(|f| {
                let index = f.place.object_index;
                let help = f.help.as_deref().map(str::to_owned);
                let mut finding = finding_at(f.rule, f.check, f.severity, f.message.to_string(), help, f.place);
                finding.fix = f.fix.map(|fix| *fix);
                if !is_meta(&finding.rule) {
                    finding.source_template = self.templates.get(index).and_then(Option::as_deref).map(str::to_owned);
                }
                finding
            }),
            _ => self.after.pop(),
        };
        shrink(&mut self.before);
        shrink(&mut self.bundle);
        shrink(&mut self.after);
        finding
    }
}

/// The order of findings in a report: file, line, column, rule, check, message.
type SortKey<'f> = (&'f str, usize, usize, &'f str, &'f str, &'f str);

/// A cross-document finding's [`SortKey`], as the [`Finding`] built from it has it.
fn bundle_key(f: &BundleFinding) -> SortKey<'_> {
    (
        &f.place.file,
        f.place.start.line,
        f.place.start.column,
        f.rule,
        f.check,
        &f.message,
    )
}

/// Frees the memory of a large list as it empties.
fn shrink<T>(items: &mut Vec<T>) {
    if items.len() * 2 < items.capacity() && items.capacity() > 4096 {
        items.shrink_to_fit();
    }
}

/// Puts `items` in `order`: position `i` gets the item at `order[i]` (a permutation of the
/// positions), moving items in place.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut at = start;
        while let Some(next) = order.get_mut(at).map(|next| std::mem::replace(next, at)) {
            if next == start || next == at {
                break;
            }
            items.swap(at, next);
            at = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Edition;
    use crate::config::Config;

    #[test]
    fn permuting_moves_each_item_to_its_place() {
        let mut items = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        permute(&mut items, vec![3, 0, 1, 2, 5, 4]);
        assert_eq!(items, ['d', 'a', 'b', 'c', 'f', 'e']);
        let mut same = vec![1, 2, 3];
        permute(&mut same, vec![0, 1, 2]);
        assert_eq!(same, [1, 2, 3]);
    }

    /// Findings handed out a few at a time (cross-document ones built as they go) are the
    /// report's findings, in its order, with its summary; an annotation still suppresses a
    /// cross-document finding.
    #[test]
    fn findings_in_batches_are_the_reports() {
        let fixture = include_str!("../../../tests/fixtures/ra2.app.029.yaml");
        let pod = |name: &str, extra: &str| {
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: core\n{extra}spec:\n  hostNetwork: true\n  containers: [{{name: a, image: r/a:1}}]\n"
            )
        };
        let quiet = pod("quiet", "  annotations: {ignore-check.ra2.dev/ra2.app.029: tested}\n");
        let twice = pod("twice", "");
        let config = Config {
            edition: Edition::Latest,
            ..Config::default()
        };
        let run = || {
            let mut linter = Linter::new(&config);
            linter.add_file("b.yaml", fixture);
            linter.add_file("a.yaml", &format!("{twice}---\n{quiet}---\n{twice}"));
            linter.add_file("c.yaml", include_str!("../../../examples/broken/cnf.yaml"));
            linter
        };
        let report = run().finish();
        assert!(report.findings.iter().filter(|f| f.rule == "ra2.app.029").count() > 3);
        assert!(report.summary.suppressed > 0);
        for size in [1, 3, 1000] {
            let mut finished = run().finish_in_order();
            let mut findings = Vec::new();
            loop {
                let batch = finished.next_batch(size);
                if batch.is_empty() {
                    break;
                }
                assert!(batch.len() <= size);
                findings.extend(batch);
            }
            let rest = finished.into_report();
            assert!(rest.findings.is_empty());
            assert_eq!(findings, report.findings, "batches of {size}");
            assert_eq!(rest.summary, report.summary, "batches of {size}");
            assert_eq!(
                (rest.errors, rest.objects),
                (report.errors.clone(), report.objects.clone())
            );
        }
    }
}
