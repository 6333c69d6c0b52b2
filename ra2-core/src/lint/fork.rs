//! What the parallel input layer needs: linters for the same run made on other threads
//! ([`Seed`], [`Linter::fork`]) and what they read taken back in input order ([`Linter::absorb`]).

use std::sync::Arc;

use super::rule_set::RuleSet;
use super::{Linter, PREVIOUS_OBJECT, Taken};
use crate::config::Config;
use crate::model::bundle::Bundle;
use crate::parse::doc::Limits;
use crate::report::Report;
use crate::rules::Pending;

/// What a linter for a run is made from: the config and the rules it selects, with their
/// catalogue entries and decoded parameters. Shared between threads, it makes linters for the
/// same run ([`Seed::linter`]) without selecting and decoding again.
#[derive(Clone)]
pub struct Seed<'c> {
    config: &'c Config,
    limits: Limits,
    rules: Arc<RuleSet>,
    devices: crate::k8s::devices::Classifier,
    report_unused_exemptions: bool,
    json_reader: bool,
    split_lists: bool,
    origin: super::Origin,
    /// The object hooks of the run, made afresh for each linter.
    hook_makers: Vec<super::hook::HookMaker>,
}

impl std::fmt::Debug for Seed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seed")
            .field("limits", &self.limits)
            .field("hooks", &self.hook_makers.len())
            .finish_non_exhaustive()
    }
}

impl<'c> Seed<'c> {
    pub(super) fn new(config: &'c Config) -> Self {
        Seed {
            config,
            limits: config.limits,
            rules: RuleSet::of(config),
            devices: crate::k8s::devices::Classifier::new(config),
            report_unused_exemptions: true,
            json_reader: true,
            split_lists: true,
            origin: super::Origin::Manifests,
            hook_makers: Vec::new(),
        }
    }

    /// A linter for the run with nothing read yet (see [`Linter::fork`]).
    #[must_use]
    pub fn linter(&self) -> Linter<'c> {
        self.clone().into_linter()
    }

    pub(super) fn into_linter(self) -> Linter<'c> {
        let config = self.config;
        Linter {
            config,
            limits: self.limits,
            rules: self.rules,
            report: Report {
                edition: config.edition.as_str().to_owned(),
                ..Report::default()
            },
            bundle: Bundle::default(),
            suppressions: Vec::new(),
            templates: Vec::new(),
            report_unused_exemptions: self.report_unused_exemptions,
            pending: Vec::new(),
            deferred: Vec::new(),
            devices: self.devices,
            hooks: self
                .hook_makers
                .iter()
                .map(|make| -> Box<dyn crate::lint::hook::ObjectHook + Send + 'c> { make() })
                .collect(),
            hook_makers: Some(self.hook_makers),
            json_reader: self.json_reader,
            split_lists: self.split_lists,
            origin: self.origin,
            last_object: None,
            used: vec![false; config.exemptions.len()],
            taken: Taken::default(),
        }
    }
}

impl<'c> Linter<'c> {
    /// A linter for the same run with nothing read yet, to read some files independently
    /// (on another thread, say) and hand back with [`Linter::absorb`]. Object hooks are made
    /// again ([`crate::lint::hook::ObjectHook::maker`]); a run with a hook that cannot be reads
    /// in one linter ([`Linter::can_fork`]).
    #[must_use]
    pub fn fork(&self) -> Linter<'c> {
        self.seed().into_linter()
    }

    /// What [`Linter::fork`] makes its linters from, for threads that make their own.
    #[must_use]
    pub fn seed(&self) -> Seed<'c> {
        Seed {
            config: self.config,
            limits: self.limits,
            rules: Arc::clone(&self.rules),
            devices: self.devices.clone(),
            report_unused_exemptions: self.report_unused_exemptions,
            json_reader: self.json_reader,
            split_lists: self.split_lists,
            origin: self.origin,
            hook_makers: self.hook_makers.clone().unwrap_or_default(),
        }
    }

    /// Whether [`Linter::fork`] gives linters that read like this one (every object hook can
    /// be made again).
    pub fn can_fork(&self) -> bool {
        self.hook_makers.is_some()
    }

    /// Takes in what a [`Linter::fork`] read, as if this linter had read the same files right
    /// now: forks absorbed in input order give the same report, byte for byte, as one linter
    /// reading every file in that order.
    pub fn absorb(&mut self, mut later: Linter<'c>) {
        // The fork's hooks add what they counted to its report, which is taken in below.
        for hook in &mut later.hooks {
            hook.finish(&mut later.report);
        }
        let base = self.suppressions.len();
        let previous = self.last_object.clone();
        if later.last_object.is_some() {
            self.last_object.clone_from(&later.last_object);
        }
        self.taken
            .undecided
            .extend(later.taken.undecided.iter().map(|i| i + base));
        for (used, later) in self.used.iter_mut().zip(&later.used) {
            *used |= later;
        }
        self.taken.saw_templates |= later.taken.saw_templates;
        let resolve = |(mut finding, index): Pending| {
            let index = if index == PREVIOUS_OBJECT {
                finding.object = previous.clone().unwrap_or_default();
                base.saturating_sub(1)
            } else {
                index + base
            };
            (finding, index)
        };
        self.pending.extend(later.pending.into_iter().map(resolve));
        self.deferred
            .extend(later.deferred.into_iter().map(|(f, i)| (f, i + base)));
        self.suppressions.extend(later.suppressions);
        self.templates.extend(later.templates);
        self.bundle.absorb(later.bundle, base);
        let report = later.report;
        self.report.objects.extend(report.objects);
        self.report.errors.extend(report.errors);
        self.report.findings.extend(report.findings);
        self.report.summary.files += report.summary.files;
        self.report.summary.documents += report.summary.documents;
        self.report.summary.skipped += report.summary.skipped;
        for (reason, count) in report.summary.skipped_by_reason {
            *self.report.summary.skipped_by_reason.entry(reason).or_default() += count;
        }
        if let Some(n) = report.summary.strict_skipped {
            *self.report.summary.strict_skipped.get_or_insert(0) += n;
        }
        for (kind, count) in report.summary.strict_skipped_kinds {
            *self.report.summary.strict_skipped_kinds.entry(kind).or_default() += count;
        }
    }
}

impl Linter<'_> {
    /// Makes room for what absorbing each of `later` adds, so that joining many linters
    /// ([`crate::fix`] joins one per `---` section for each fix it checks) grows nothing again.
    pub(crate) fn reserve_for<'l, 'c: 'l, I>(&mut self, later: &I)
    where
        I: Iterator<Item = &'l Linter<'c>> + Clone,
    {
        let total = |count: fn(&Linter<'_>) -> usize| later.clone().map(count).sum::<usize>();
        self.pending.reserve(total(|l| l.pending.len()));
        self.deferred.reserve(total(|l| l.deferred.len()));
        self.suppressions.reserve(total(|l| l.suppressions.len()));
        self.templates.reserve(total(|l| l.templates.len()));
        self.report.objects.reserve(total(|l| l.report.objects.len()));
        self.report.errors.reserve(total(|l| l.report.errors.len()));
        self.report.findings.reserve(total(|l| l.report.findings.len()));
    }

    /// Moves everything read to where its documents are now in their file, `by` documents,
    /// lines and bytes (what a fix made of the text before them: see [`crate::fix`]); object
    /// indices are [`Linter::absorb`]'s business (`by.objects` is ignored).
    pub(crate) fn move_by(&mut self, by: crate::model::bundle::Shift) {
        let by = crate::model::bundle::Shift { objects: 0, ..by };
        if !by.moves() {
            return;
        }
        let report = &mut self.report;
        for finding in report
            .findings
            .iter_mut()
            .chain(self.pending.iter_mut().map(|(f, _)| f))
            .chain(self.deferred.iter_mut().map(|(f, _)| f))
        {
            by.finding(finding);
        }
        for error in &mut report.errors {
            by.document(&mut error.document);
            by.line(&mut error.line);
            by.byte(&mut error.offset);
        }
        for object in &mut report.objects {
            by.document(&mut object.document);
            by.line(&mut object.line);
        }
        self.bundle.shift(by);
    }
}

/// A forked linter goes to another thread and back (see [`Linter::fork`]).
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Linter<'static>>();
};
