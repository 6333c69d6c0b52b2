//! The linter: documents -> objects -> rules -> findings, with suppression, select/ignore and
//! cross-document checks. One path for every face.
//!
//! [`Linter`] holds a run's state; its work is split by job:
//! - input: `file` (whole files, `---` sections, read errors), `list` (`kind: List` item by
//!   item) and `feed` (a file handed over line by line as it is read: [`Feed`]);
//! - `object`: the per-object pass (rules, object hooks, the registry's settle and collect
//!   hooks, profiles, facts for cross-document rules), with the rules a run uses in `rule_set`;
//! - `suppress`: annotations and config exemptions;
//! - `finish`: cross-document rules, profile settling and findings in report order
//!   ([`Linter::finish`], [`Finished`], [`Linter::take_settled`]);
//! - `fork`: linters for the same run on other threads and what they read taken back
//!   ([`Seed`], [`Linter::fork`], [`Linter::absorb`]).

mod feed;
mod file;
mod finish;
mod fork;
pub mod hook;
mod list;
mod object;
mod rule_set;
mod suppress;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::catalogue::Edition;
use crate::config::Config;
use crate::lint::hook::ObjectHook;
use crate::model::bundle::Bundle;
use crate::parse::doc::Limits;
use crate::report::{Finding, ObjectRef, ObjectSummary, Report};
use crate::rules::Pending;

pub use feed::{Feed, FeedWatch};
pub(crate) use file::{FileState, KeptDoc};
pub use finish::{Finished, Settled};
pub use fork::Seed;
use rule_set::RuleSet;
use suppress::Suppressions;

/// The object index of a duplicate-key finding in a document with no object, read before any
/// object of its linter: the previous object of the run (see [`Linter::absorb`]).
const PREVIOUS_OBJECT: usize = usize::MAX;

/// Lints any number of files and produces one report.
pub struct Linter<'c> {
    config: &'c Config,
    limits: Limits,
    /// The rules that run, shared by every linter of a config that selects, ignores and sets
    /// nothing (see [`RuleSet::of`]).
    rules: Arc<RuleSet>,
    report: Report,
    bundle: Bundle,
    /// What each object's annotations suppress (`None`: nothing, the common case, in a word).
    suppressions: Vec<Option<Box<Suppressions>>>,
    /// The Helm template of each object (same index as `suppressions`).
    templates: Vec<Option<Box<str>>>,
    /// Report config exemptions that matched nothing (off for single-object admission
    /// reviews, where every exemption for another object would look stale).
    report_unused_exemptions: bool,
    /// (finding, object index) before suppression.
    pending: Vec<(Finding, usize)>,
    /// Findings of network-intensive-only checks on pods whose profile depends on documents
    /// not read yet; settled in [`Linter::finish`].
    deferred: Vec<Pending>,
    /// The device table of this run (workload profile).
    devices: crate::k8s::devices::Classifier,
    /// Extra object checks from outside ra2-core (strict mode), run after the rules.
    hooks: Vec<Box<dyn ObjectHook + Send + 'c>>,
    /// How to make each hook again for a fork; `None` if one of them cannot be.
    hook_makers: Option<Vec<hook::HookMaker>>,
    /// Read strict JSON with the JSON reader (off only to test it against libyaml).
    json_reader: bool,
    /// Read `kind: List` documents item by item (off only to test against reading them whole).
    split_lists: bool,
    /// Where the objects come from (an admission review's were decoded by the API server).
    origin: Origin,
    /// The last object read (duplicate keys in a document without one are reported on it).
    last_object: Option<ObjectRef>,
    /// Which config exemptions matched a finding.
    used: Vec<bool>,
    /// What [`Linter::take_settled`] handed out so far (see [`Taken`]).
    taken: Taken,
}

/// What [`Linter::take_settled`] handed out, for the summary, and the objects it holds back.
#[derive(Clone, Debug, Default)]
struct Taken {
    findings: crate::report::SeverityCounts,
    errors: usize,
    /// Objects handed out or held back: `report.objects` starts at this object index.
    objects_base: usize,
    objects: usize,
    /// Objects whose profile other documents may still decide (see [`Linter::finish`]),
    /// by object index.
    undecided: std::collections::BTreeSet<usize>,
    held: BTreeMap<usize, ObjectSummary>,
    /// An object came from Helm output (`# Source:`).
    saw_templates: bool,
}

/// Where a linter's objects come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Manifests as written.
    Manifests,
    /// The API server, which decoded them (and applied defaults) already: an admission review.
    ApiServer,
}

impl<'c> Linter<'c> {
    pub fn new(config: &'c Config) -> Self {
        Seed::new(config).into_linter()
    }

    /// A copy of this linter and what it read, to go on reading or finish apart from it;
    /// `None` for a linter with object hooks (they cannot be copied).
    pub fn try_clone(&self) -> Option<Linter<'c>> {
        if !self.hooks.is_empty() {
            return None;
        }
        Some(Linter {
            config: self.config,
            limits: self.limits,
            rules: Arc::clone(&self.rules),
            report: self.report.clone(),
            bundle: self.bundle.clone(),
            suppressions: self.suppressions.clone(),
            templates: self.templates.clone(),
            report_unused_exemptions: self.report_unused_exemptions,
            pending: self.pending.clone(),
            deferred: self.deferred.clone(),
            devices: self.devices.clone(),
            hooks: Vec::new(),
            hook_makers: self.hook_makers.clone(),
            json_reader: self.json_reader,
            split_lists: self.split_lists,
            origin: self.origin,
            last_object: self.last_object.clone(),
            used: self.used.clone(),
            taken: self.taken.clone(),
        })
    }

    /// Adds a check that runs on every object after the rules (see [`crate::lint::hook`]).
    #[must_use]
    pub fn with_object_hook(mut self, hook: Box<dyn ObjectHook + Send + 'c>) -> Self {
        match (hook.maker(), self.hook_makers.as_mut()) {
            (Some(maker), Some(makers)) => makers.push(maker),
            _ => self.hook_makers = None,
        }
        self.hooks.push(hook);
        self
    }

    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Reads JSON documents with libyaml instead of the JSON reader: the reference the JSON
    /// reader is tested against (the reports must be identical).
    #[doc(hidden)]
    #[must_use]
    pub fn with_libyaml_only(mut self) -> Self {
        self.json_reader = false;
        self
    }

    /// Reads `kind: List` documents whole, as one tree, instead of item by item: the reference
    /// reading Lists item by item is tested against (the reports must be identical).
    #[doc(hidden)]
    #[must_use]
    pub fn with_whole_lists(mut self) -> Self {
        self.split_lists = false;
        self
    }

    /// Marks the input as objects the API server has decoded already (an admission review's):
    /// the checks of what its decoder refuses (`k8s.api/unknown-field`, `wrong-type`,
    /// `unknown-kind`, `service-type`) are skipped, as such an object cannot hold those.
    #[must_use]
    pub fn with_decoded_objects(mut self) -> Self {
        self.origin = Origin::ApiServer;
        self
    }

    /// Whether config exemptions that matched no finding are reported (`exemption/unused`,
    /// on by default).
    #[must_use]
    pub fn with_unused_exemptions(mut self, report: bool) -> Self {
        self.report_unused_exemptions = report;
        self
    }

    pub fn edition(&self) -> Edition {
        self.config.edition
    }

    /// Whether documents that are not Kubernetes objects are skipped by default (the config's
    /// `skip-non-k8s`).
    pub fn skips_non_k8s(&self) -> bool {
        self.config.skip_non_k8s
    }

    /// The limits documents are read with.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether an object read came from Helm output (a `# Source:` comment names its template).
    pub fn saw_templates(&self) -> bool {
        self.taken.saw_templates
    }

    /// Read errors so far (not handed out).
    pub(crate) fn read_errors(&self) -> usize {
        self.report.errors.len()
    }

    /// Documents (and files) skipped as not Kubernetes so far.
    pub(crate) fn skipped(&self) -> usize {
        self.report.summary.skipped
    }

    /// Findings, errors and objects read and not handed out yet (to decide when to take).
    pub fn held(&self) -> usize {
        self.pending.len() + self.report.errors.len() + self.report.objects.len()
    }
}
