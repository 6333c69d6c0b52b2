//! The rule registry and the context rules report through.
//!
//! One file per rule. A rule reads views (`Object`, `PodSpec`, `Container`) and calls
//! [`Context::report`] with a check slug, a node and a message; the linter owns kinds,
//! suppression, severity, pointers and positions.

use crate::catalogue::{Edition, RuleDoc};
use crate::config::Config;
use crate::model::bundle::{Bundle, Place};
use crate::model::{Object, PodSpec};
use crate::parse::view::Located;

pub(crate) mod accelerators;
pub(crate) mod alpha_api;
mod api_fields;
pub(crate) mod api_server;
mod attachment_count;
mod beta_api;
mod control_plane;
mod cpu_bounded;
mod cpu_pinning;
mod csi;
pub(crate) mod finding;
mod hardcoded_ips;
mod host_namespaces;
mod host_network;
mod host_path;
mod host_ports;
mod host_users;
mod hostname;
mod hugepages;
mod image_tags;
mod immutable_configmaps;
mod ipam;
mod liveness_probe;
mod local_storage;
mod mounts;
mod nad_reference;
mod nad_shape;
mod network_annotation;
mod nfd_labels;
mod node_port;
mod non_root_ids;
pub mod params;
mod platform_cluster;
mod platform_control;
mod platform_monitoring;
mod platform_node;
mod platform_stack;
mod privilege_escalation;
mod privileged;
mod process;
mod profile_labels;
mod readiness_probe;
mod readonly_root;
mod readonly_root_latest;
mod recommended_labels;
mod resource_limits;
mod root_user;
mod runtime_sockets;
mod selinux_type;
mod sriov_nad;
mod storage_class;
mod tiller;
pub(crate) mod token_automount;
mod update_strategy;
mod user;
pub(crate) mod volume_types;

/// What a rule inspects: the functions that report under one RA2 requirement id. A rule's
/// checks may live in several modules (the workload half and the platform half of
/// `ra2.k8s.012`, say), each with a `Checks` of its own, all registered under the one id in
/// [`RULES`].
#[derive(Debug)]
pub struct Checks {
    /// Runs once per pod spec (every workload kind).
    pub pod: Option<fn(&PodSpec<'_>, &mut Context<'_>)>,
    /// Runs once per object of any kind.
    pub object: Option<fn(&Object<'_>, &mut Context<'_>)>,
    /// Runs once per object while documents are read, recording what the rule's `bundle`
    /// check needs from it (see [`Gather::record`]); only when the rule runs.
    pub gather: Option<fn(&Object<'_>, &mut Gather<'_>)>,
    /// Runs once after every document of the run has been read (cross-document checks).
    pub bundle: Option<fn(&Bundle, &mut BundleContext<'_>)>,
    /// Decodes the checks' parameters once per run (see [`params`]): `Some(params::decoder::<P>)`.
    pub params: Option<params::Decoder>,
    /// Runs once per object, for every rule of the registry that has it whether the rule runs
    /// or not: records facts that several rules' `bundle` checks read (the platform's nodes,
    /// components and kubelets, say), which no one rule's `gather` owns.
    pub collect: Option<Collect>,
    /// Runs once per object after every check and object hook, for every rule of the registry
    /// that has it whether the rule runs or not: settles the object's findings against each
    /// other (marks, drops or adds), given which of them the user silenced (see [`Settle`]).
    pub settle: Option<Settle>,
}

/// A [`Checks::collect`] hook: the run's facts, the object (and its pod spec, when it has one).
pub type Collect = fn(&mut Bundle, Target<'_>, &Object<'_>, Option<&PodSpec<'_>>);

/// A [`Checks::settle`] hook: one object's findings, and whether an annotation or exemption
/// silences a finding.
pub type Settle = fn(&mut Vec<Pending>, &dyn Fn(&crate::report::Finding) -> bool);

impl Checks {
    /// No checks: the base that a rule's `Checks` fills in with `..Checks::NONE`.
    pub const NONE: Checks = Checks {
        pod: None,
        object: None,
        gather: None,
        bundle: None,
        params: None,
        collect: None,
        settle: None,
    };
}

/// A rule of the registry: its id (the RA2 requirement id, e.g. `ra2.app.007`, or a pseudo-rule
/// such as `k8s.api`) and every [`Checks`] that reports under it.
#[derive(Debug)]
pub struct Rule {
    pub id: &'static str,
    pub parts: &'static [&'static Checks],
}

impl Rule {
    const fn new(id: &'static str, parts: &'static [&'static Checks]) -> Self {
        Rule { id, parts }
    }
}

/// Every rule ra2 has, one entry per id, sorted by id (byte order; a test checks it, so
/// [`find`] can search). The platform half (RA2 ch.4 tables 4-1 to 4-3: nodes, the control
/// plane, kubelets) shares ids with workload checks of the same requirement.
pub static RULES: &[Rule] = &[
    Rule::new(api_server::ID, &[&api_server::RULE]),
    Rule::new("ra2.app.001", &[&readonly_root::RULE]),
    Rule::new("ra2.app.002", &[&mounts::RULE]),
    Rule::new("ra2.app.003", &[&process::RULE]),
    Rule::new("ra2.app.004", &[&hostname::RULE]),
    Rule::new("ra2.app.005", &[&user::RULE]),
    Rule::new("ra2.app.006", &[&network_annotation::RULE]),
    Rule::new("ra2.app.007", &[&host_path::RULE]),
    Rule::new("ra2.app.008", &[&control_plane::RULE]),
    Rule::new("ra2.app.009", &[&accelerators::RULE]),
    Rule::new("ra2.app.010", &[&nfd_labels::RULE]),
    Rule::new("ra2.app.013", &[&update_strategy::RULE]),
    Rule::new("ra2.app.016", &[&alpha_api::LATEST_RULE]),
    Rule::new("ra2.app.025", &[&local_storage::RULE]),
    Rule::new("ra2.app.026", &[&liveness_probe::RULE]),
    Rule::new("ra2.app.027", &[&readiness_probe::RULE]),
    Rule::new("ra2.app.028", &[&runtime_sockets::RULE]),
    Rule::new("ra2.app.029", &[&token_automount::RULE]),
    Rule::new("ra2.app.030", &[&host_network::RULE]),
    Rule::new("ra2.app.031", &[&host_namespaces::RULE]),
    Rule::new("ra2.app.032", &[&resource_limits::RULE]),
    Rule::new("ra2.app.033", &[&readonly_root_latest::RULE]),
    Rule::new("ra2.app.034", &[&image_tags::RULE]),
    Rule::new("ra2.app.035", &[&hardcoded_ips::RULE]),
    Rule::new("ra2.app.036", &[&node_port::RULE]),
    Rule::new("ra2.app.037", &[&immutable_configmaps::RULE]),
    Rule::new("ra2.app.041", &[&privileged::RULE]),
    Rule::new("ra2.app.042", &[&root_user::RULE]),
    Rule::new("ra2.app.043", &[&privilege_escalation::RULE]),
    Rule::new("ra2.app.044", &[&non_root_ids::RULE]),
    Rule::new("ra2.app.045", &[&recommended_labels::RULE]),
    Rule::new("ra2.app.047", &[&host_ports::RULE]),
    Rule::new("ra2.app.048", &[&selinux_type::RULE]),
    Rule::new("ra2.ch.001", &[&hugepages::RULE, &platform_node::CH001]),
    Rule::new("ra2.ch.006", &[&cpu_bounded::RULE]),
    Rule::new("ra2.ch.010", &[&platform_node::CH010]),
    Rule::new("ra2.ch.012", &[&platform_node::CH012]),
    Rule::new("ra2.ch.018", &[&platform_node::CH018]),
    Rule::new("ra2.crt.001", &[&platform_node::CRT001]),
    Rule::new("ra2.crt.002", &[&platform_node::CRT002]),
    Rule::new("ra2.k8s.002", &[&platform_cluster::K8S002]),
    Rule::new("ra2.k8s.003", &[&platform_cluster::K8S003]),
    Rule::new("ra2.k8s.004", &[&platform_cluster::K8S004]),
    Rule::new("ra2.k8s.005", &[&platform_node::K8S005, &platform_control::K8S005]),
    Rule::new("ra2.k8s.006", &[&platform_cluster::K8S006]),
    Rule::new("ra2.k8s.008", &[&platform_node::K8S008]),
    Rule::new("ra2.k8s.009", &[&cpu_pinning::RULE, &platform_cluster::K8S009]),
    Rule::new(
        "ra2.k8s.011",
        &[&profile_labels::RULE, &platform_node::K8S011, &platform_cluster::K8S011],
    ),
    Rule::new(
        "ra2.k8s.012",
        &[&alpha_api::RULE, &platform_control::K8S012, &platform_cluster::K8S012],
    ),
    Rule::new("ra2.k8s.019", &[&beta_api::RULE, &platform_control::K8S019]),
    Rule::new("ra2.k8s.020", &[&platform_monitoring::K8S020]),
    Rule::new("ra2.k8s.024", &[&platform_control::K8S024]),
    Rule::new("ra2.mon.001", &[&platform_monitoring::MON001]),
    Rule::new("ra2.mon.002", &[&platform_monitoring::MON002]),
    Rule::new("ra2.mon.003", &[&platform_monitoring::MON003]),
    Rule::new("ra2.ntw.002", &[&platform_cluster::NTW002]),
    Rule::new("ra2.ntw.003", &[&attachment_count::RULE]),
    Rule::new("ra2.ntw.006", &[&nad_shape::RULE_BASE, &platform_cluster::NTW006]),
    Rule::new("ra2.ntw.008", &[&sriov_nad::RULE, &platform_cluster::NTW008]),
    Rule::new("ra2.ntw.009", &[&nad_reference::RULE]),
    Rule::new("ra2.ntw.010", &[&platform_stack::NTW010]),
    Rule::new("ra2.ntw.012", &[&platform_stack::NTW012]),
    Rule::new("ra2.ntw.015", &[&ipam::RULE, &platform_stack::NTW015]),
    Rule::new("ra2.ntw.016", &[&nad_shape::RULE_LATEST]),
    Rule::new("ra2.pkg.001", &[&tiller::RULE]),
    Rule::new("ra2.stg.005", &[&volume_types::RULE]),
    Rule::new("ra2.stg.006", &[&csi::RULE, &platform_stack::STG006]),
    Rule::new("ra2.stg.007", &[&storage_class::RULE]),
    Rule::new("ra2.stg.010", &[&platform_monitoring::STG010]),
    Rule::new("sec.sys.021", &[&host_users::RULE]),
];

/// The rule registered under `id`.
pub fn find(id: &str) -> Option<&'static Rule> {
    RULES
        .binary_search_by(|rule| rule.id.cmp(id))
        .ok()
        .and_then(|index| RULES.get(index))
}

/// How many [`Checks`] the registry holds, over every rule.
pub(crate) const PARTS: usize = parts();

// Evaluated at compile time only: an index out of range would be a build error, not a panic.
#[allow(clippy::indexing_slicing)]
const fn parts() -> usize {
    let (mut i, mut n) = (0, 0);
    while i < RULES.len() {
        n += RULES[i].parts.len();
        i += 1;
    }
    n
}

pub use crate::model::bundle::Target;

/// A finding and the index of the object it belongs to (for suppression).
pub type Pending = (crate::report::Finding, usize);

/// Rule-facing settings for one run.
#[derive(Clone, Copy, Debug)]
pub struct Settings<'c> {
    pub edition: Edition,
    pub config: &'c Config,
    /// The objects come from the API server, decoded already (admission).
    pub decoded: bool,
}

/// What a rule sees while it runs on one object.
pub struct Context<'c> {
    rule: &'static str,
    settings: Settings<'c>,
    target: Target<'c>,
    out: &'c mut Vec<Pending>,
    /// Findings that stand only if the pod turns out network-intensive (pod rules only).
    gated: Option<&'c mut Vec<Pending>>,
    /// The rule's parameters, decoded for the run.
    params: Option<&'c (dyn std::any::Any + Send + Sync)>,
}

/// The rule's parameters: those decoded for the run, else decoded now.
fn params_of<'a, P: params::RuleParams>(
    decoded: Option<&'a (dyn std::any::Any + Send + Sync)>,
    rule: &'static str,
    config: &Config,
) -> std::borrow::Cow<'a, P> {
    match decoded.and_then(|p| p.downcast_ref::<P>()) {
        Some(params) => std::borrow::Cow::Borrowed(params),
        None => std::borrow::Cow::Owned(P::decode(&mut params::Params::new(rule, config))),
    }
}

impl<'c> Context<'c> {
    pub fn new(rule: &'static str, settings: Settings<'c>, target: Target<'c>, out: &'c mut Vec<Pending>) -> Self {
        Context {
            rule,
            settings,
            target,
            out,
            gated: None,
            params: None,
        }
    }

    /// The rule's parameters as decoded for the run (see [`Context::params`]).
    #[must_use]
    pub fn with_params(mut self, params: Option<&'c (dyn std::any::Any + Send + Sync)>) -> Self {
        self.params = params;
        self
    }

    /// The rule's parameters.
    pub fn params<P: params::RuleParams>(&self) -> std::borrow::Cow<'c, P> {
        params_of(self.params, self.rule, self.settings.config)
    }

    /// Where [`Context::report_if_network_intensive`] puts its findings until the linter knows
    /// the pod's profile.
    #[must_use]
    pub fn with_gated(mut self, gated: &'c mut Vec<Pending>) -> Self {
        self.gated = Some(gated);
        self
    }

    /// The rule's catalogue entry, looked up only when a finding or parameter needs it (most
    /// rules find nothing on most objects).
    fn doc(&self) -> Option<&'static RuleDoc> {
        crate::catalogue::get(self.rule)
    }

    /// How many findings this object has so far (to tell whether a helper reported).
    pub fn reported(&self) -> usize {
        self.out.len()
    }

    /// The run's settings (target Kubernetes version, default namespace, ...).
    pub fn config(&self) -> &Config {
        self.settings.config
    }

    /// Do the objects come from the API server, decoded already (an admission review's)?
    pub fn decoded(&self) -> bool {
        self.settings.decoded
    }

    /// Reports `check` at `at`. The message starts lower-case, names the concrete thing and
    /// has no trailing period.
    pub fn report(&mut self, check: &'static str, at: &Located<'_>, message: impl Into<String>) {
        self.push(check, at, message.into(), None);
    }

    /// Like [`Context::report`], with a fix more specific than the rule's remediation.
    pub fn report_with_help(
        &mut self,
        check: &'static str,
        at: &Located<'_>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.push(check, at, message.into(), Some(help.into()));
    }

    /// Like [`Context::report`], but the finding stands only if the pod turns out to target the
    /// network-intensive profile (ra2-rules.md §1.2), which may depend on documents later in the
    /// input; the linter decides once it has read them all. Outside pod rules it reports as usual.
    pub fn report_if_network_intensive(&mut self, check: &'static str, at: &Located<'_>, message: impl Into<String>) {
        if !self.reports(check) {
            return;
        }
        let pending = self.pending(check, at, message.into(), None);
        match self.gated.as_deref_mut() {
            Some(gated) => gated.push(pending),
            None => self.out.push(pending),
        }
    }

    /// Like [`Context::report_with_help`] (`help` `None`: the rule's remediation), with the
    /// finding's fix: `patch` (see [`crate::report::fix::set`]) under the check's catalogue `fix`
    /// entry, which says whether it is safe and gives its title. A check without that entry
    /// reports without a fix (the catalogue test fails on it).
    pub fn report_fixable(
        &mut self,
        check: &'static str,
        at: &Located<'_>,
        message: impl Into<String>,
        help: Option<String>,
        patch: Vec<crate::report::fix::Operation>,
    ) {
        let reported = self.out.len();
        self.push(check, at, message.into(), help);
        let doc = self.doc().and_then(|d| d.check(check)).and_then(|c| c.fix);
        if let (Some((finding, _)), Some(doc)) = (self.out.get_mut(reported), doc) {
            finding.fix = Some(crate::report::fix::Fix {
                applicability: doc.applicability,
                title: doc.title.to_owned(),
                patch,
            });
        }
    }

    fn push(&mut self, check: &'static str, at: &Located<'_>, message: String, help: Option<String>) {
        if !self.reports(check) {
            return;
        }
        let pending = self.pending(check, at, message, help);
        self.out.push(pending);
    }

    /// Does this run's edition report `check`? (A check may be narrower than its rule: see
    /// `editions` of a check in rules/schema.json.)
    pub fn reports(&self, check: &str) -> bool {
        self.doc()
            .and_then(|d| d.check(check))
            .is_none_or(|c| c.in_edition(self.settings.edition))
    }

    fn pending(&self, check: &'static str, at: &Located<'_>, message: String, help: Option<String>) -> Pending {
        let severity = self
            .settings
            .config
            .severity_for(self.rule, check, self.doc(), self.settings.edition);
        let finding = finding::finding_on(self.rule, check, severity, message, help, self.target, at);
        (finding, self.target.object_index)
    }
}

/// `a list`, `an integer`: a noun with its indefinite article, for messages.
pub(crate) fn with_article(noun: &str) -> String {
    let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {noun}")
}

/// What a cross-document rule's `gather` sees on one object while documents are read: where
/// it is, and its own facts so far.
pub struct Gather<'c> {
    pub target: Target<'c>,
    /// The object's namespace, else the run's default.
    pub namespace: &'c str,
    pub(crate) rule: &'static str,
    pub(crate) strings: &'c mut crate::model::bundle::Strings,
    pub(crate) facts: &'c mut crate::model::bundle::RuleFacts,
}

impl Gather<'_> {
    /// Where a fact about `at` points, with its strings shared.
    pub fn place(&mut self, at: &Located<'_>) -> Place {
        Place::shared(self.target, at, self.strings)
    }

    /// `text`, shared with every fact that holds the same string.
    pub fn intern(&mut self, text: &str) -> std::sync::Arc<str> {
        self.strings.get(text)
    }

    /// Keeps `fact` for the rule's `bundle` check (see [`BundleContext::facts`]).
    pub fn record<T: crate::model::bundle::Fact>(&mut self, fact: T) {
        let store = self
            .facts
            .entry((self.rule, std::any::TypeId::of::<T>()))
            .or_insert_with(|| Box::new(Vec::<T>::new()));
        // The key holds `T`'s type, so the store is a `Vec<T>`.
        if let Some(facts) = store.as_any_mut().downcast_mut::<Vec<T>>() {
            facts.push(fact);
        }
    }

    /// The facts of type `T` this linter recorded for the rule so far.
    pub fn recorded<T: crate::model::bundle::Fact>(&self) -> &[T] {
        self.facts
            .get(&(self.rule, std::any::TypeId::of::<T>()))
            .and_then(|store| store.as_any().downcast_ref::<Vec<T>>())
            .map_or(&[], Vec::as_slice)
    }
}

/// What a cross-document rule sees after all documents were read.
pub struct BundleContext<'c> {
    pub(crate) rule: &'static str,
    pub(crate) doc: Option<&'static RuleDoc>,
    pub(crate) settings: Settings<'c>,
    pub(crate) out: &'c mut Vec<crate::model::bundle::BundleFinding>,
    /// Messages and help texts, each kept once.
    pub(crate) texts: &'c mut crate::model::bundle::Strings,
    pub(crate) params: Option<&'c (dyn std::any::Any + Send + Sync)>,
}

impl<'c> BundleContext<'c> {
    /// What the rule's `gather` recorded, in input order.
    pub fn facts<'b, T: crate::model::bundle::Fact>(&self, bundle: &'b Bundle) -> &'b [T] {
        bundle.facts(self.rule)
    }

    /// Reports `check` at a place recorded while the documents were read.
    pub fn report(&mut self, check: &'static str, at: &Place, message: impl Into<String>) {
        self.push(check, at, &message.into(), None);
    }

    /// Like [`BundleContext::report`], with a fix more specific than the rule's remediation.
    pub fn report_with_help(&mut self, check: &'static str, at: &Place, message: impl Into<String>, help: &str) {
        self.push(check, at, &message.into(), Some(help));
    }

    fn push(&mut self, check: &'static str, at: &Place, message: &str, help: Option<&str>) {
        if self
            .doc
            .and_then(|d| d.check(check))
            .is_some_and(|c| !c.in_edition(self.settings.edition))
        {
            return;
        }
        let severity = self
            .settings
            .config
            .severity_for(self.rule, check, self.doc, self.settings.edition);
        self.out.push(crate::model::bundle::BundleFinding {
            rule: self.rule,
            check,
            severity,
            place: at.clone(),
            message: self.texts.get(message),
            help: help.map(|help| self.texts.get(help)),
            fix: None,
        });
    }

    /// Like [`BundleContext::report`], with the finding's fix (as
    /// [`Context::report_fixable`]).
    pub fn report_fixable(
        &mut self,
        check: &'static str,
        at: &Place,
        message: impl Into<String>,
        patch: Vec<crate::report::fix::Operation>,
    ) {
        let reported = self.out.len();
        self.push(check, at, &message.into(), None);
        let doc = self.doc.and_then(|d| d.check(check)).and_then(|c| c.fix);
        if let (Some(finding), Some(doc)) = (self.out.get_mut(reported), doc) {
            finding.fix = Some(Box::new(crate::report::fix::Fix {
                applicability: doc.applicability,
                title: doc.title.to_owned(),
                patch,
            }));
        }
    }

    /// The rule's parameters.
    pub fn params<P: params::RuleParams>(&self) -> std::borrow::Cow<'c, P> {
        params_of(self.params, self.rule, self.settings.config)
    }
}

#[cfg(test)]
mod tests {
    use super::{RULES, find};

    /// The registry-wide hooks run for every rule that has one, whether it runs or not: the
    /// platform facts and the API server's settling, each registered once.
    #[test]
    fn registry_wide_hooks_are_registered_once() {
        let parts = || RULES.iter().flat_map(|r| r.parts.iter());
        assert_eq!(parts().filter(|c| c.collect.is_some()).count(), 1);
        assert_eq!(parts().filter(|c| c.settle.is_some()).count(), 1);
    }

    /// One entry per id, sorted by id, so that [`find`] can search; every id has its catalogue
    /// entry, and every entry registers at least one [`super::Checks`].
    #[test]
    fn the_registry_is_sorted_by_id_with_one_entry_each() {
        for pair in RULES.windows(2) {
            if let [a, b] = pair {
                assert!(a.id < b.id, "{} is registered before {}", a.id, b.id);
            }
        }
        for rule in RULES {
            assert!(
                crate::catalogue::get(rule.id).is_some(),
                "{} has no catalogue entry",
                rule.id
            );
            assert!(!rule.parts.is_empty(), "{} registers no checks", rule.id);
            assert!(find(rule.id).is_some_and(|found| std::ptr::eq(found, rule)));
        }
        assert!(find("ra2.app.999").is_none());
    }
}
