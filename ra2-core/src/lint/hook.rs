//! Object checks supplied from outside ra2-core.
//!
//! Some checks are too heavy for the core library, which must stay small enough for the
//! browser: strict mode (`ra2-strict`) validates every object against the Kubernetes OpenAPI
//! schema and pulls in `k8s-openapi` and `jsonschema`. Such a check implements
//! [`ObjectHook`] and is handed to [`crate::Linter::with_object_hook`]. The linter calls it
//! once per object, after the rules, with the object it already parsed (no second parse), and
//! its findings go through select/ignore, severity overrides, annotations, exemptions and
//! sorting exactly like a rule's. A hook that can be made again ([`ObjectHook::maker`]) runs in
//! every linter of a parallel run ([`crate::Linter::fork`]); one that cannot keeps the run on
//! one thread.

use crate::config::Config;
use crate::model::Object;
use crate::parse::view::Located;
use crate::report::{Report, Severity};
use crate::rules::{Pending, Target};

/// Makes a hook afresh, for a linter that reads part of the same run on another thread.
pub type HookMaker = std::sync::Arc<dyn Fn() -> Box<dyn ObjectHook + Send> + Send + Sync>;

/// An extra check on every object.
pub trait ObjectHook {
    /// Checks one object (a document, or one item of a `kind: List`) that has an apiVersion
    /// and a kind.
    fn check_object(&mut self, object: &Object<'_>, cx: &mut HookContext<'_>);

    /// Called once by [`crate::Linter::finish`] after the findings are collected and before
    /// the report is sorted and counted, for example to add summary counts; and for each
    /// forked linter's hook when [`crate::Linter::absorb`] takes that linter in, with the
    /// fork's report. What it adds must therefore add up across the parts of a run.
    fn finish(&mut self, report: &mut Report) {
        let _ = report;
    }

    /// How to make this hook again for a forked linter ([`crate::Linter::fork`]): a hook whose
    /// verdict on an object depends on that object alone can run on every thread. `None` (the
    /// default): a run with this hook reads on one thread.
    fn maker(&self) -> Option<HookMaker> {
        None
    }
}

/// What a hook sees while it checks one object: the run's settings and a way to report.
pub struct HookContext<'c> {
    pub(crate) config: &'c Config,
    pub(crate) target: Target<'c>,
    pub(crate) out: &'c mut Vec<Pending>,
}

impl HookContext<'_> {
    /// The run's settings (target Kubernetes version, ...).
    pub fn config(&self) -> &Config {
        self.config
    }

    /// Reports `rule`/`check` at `at` (a node of the object being checked). `severity` is the
    /// default; a `severity` override in the config for `rule/check` or `rule` wins.
    pub fn report(
        &mut self,
        rule: &str,
        check: &str,
        severity: Severity,
        at: &Located<'_>,
        message: String,
        help: String,
    ) {
        let severity = self
            .config
            .severity
            .get(&format!("{rule}/{check}"))
            .or_else(|| self.config.severity.get(rule))
            .copied()
            .unwrap_or(severity);
        let finding = crate::rules::finding::finding_on(rule, check, severity, message, Some(help), self.target, at);
        self.out.push((finding, self.target.object_index));
    }
}
