//! The per-object pass: each document's objects are checked by the running rules and the
//! object hooks, their profile is recorded, and the facts cross-document rules need are kept.

use super::suppress::suppressions_of;
use super::{Linter, PREVIOUS_OBJECT};
use crate::lint::hook::HookContext;
use crate::model::Object;
use crate::model::bundle::Place;
use crate::parse::doc::Doc;
use crate::parse::view::Located;
use crate::report::{Finding, LintError, ObjectRef, ObjectSummary, Profile};
use crate::rules::finding::duplicate_key;
use crate::rules::{Context, Gather, Pending, Settings, Target};

impl Linter<'_> {
    pub(super) fn error(&mut self, file: &str, document: usize, at: &Located<'_>, code: &str, message: String) {
        let span = at.site().span;
        let pos = at.doc().position(span.start);
        self.report.errors.push(LintError {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            document,
            message,
            code: code.to_owned(),
            offset: span.start,
        });
    }

    pub(super) fn lint_doc(&mut self, file: &str, document: usize, doc: &Doc<'_>, template: Option<&str>) {
        let root = Located::root(doc);
        if !root.is_map() {
            let what = root.type_name();
            self.error(
                file,
                document,
                &root,
                "ra2::object::not-a-mapping",
                format!("document is a {what}, not a Kubernetes object (a mapping with apiVersion and kind)"),
            );
            return;
        }
        let is_list = root.str_at("kind").is_some_and(|k| k == "List" || k.ends_with("List"))
            && root.get("items").is_some_and(|i| i.is_seq());
        let first_object = self.suppressions.len();
        if is_list {
            if let Some(items) = root.get("items") {
                for node in items.items() {
                    self.lint_object(file, document, node, template);
                }
            }
        } else {
            self.lint_object(file, document, root, template);
        }
        self.push_problems(file, document, doc, template, first_object);
    }

    /// Reports the duplicate keys of `doc`, on the last object read and suppressed as the
    /// first object of the document (`first_object`) is.
    pub(super) fn push_problems(
        &mut self,
        file: &str,
        document: usize,
        doc: &Doc<'_>,
        template: Option<&str>,
        first_object: usize,
    ) {
        for problem in &doc.problems {
            let pos = doc.position(problem.span.start);
            let end = doc.position(problem.span.end);
            let object = self.last_object.clone();
            self.pending.push((
                duplicate_key(
                    problem,
                    file,
                    document,
                    (pos, end, problem.span.start),
                    object.unwrap_or_default(),
                    template,
                ),
                if self.suppressions.is_empty() {
                    // No object of this linter's own yet: the run's previous object, which
                    // [`Linter::absorb`] resolves when this linter was forked.
                    PREVIOUS_OBJECT
                } else {
                    first_object.min(self.suppressions.len() - 1)
                },
            ));
        }
    }

    pub(super) fn lint_object(&mut self, file: &str, document: usize, node: Located<'_>, template: Option<&str>) {
        if !node.is_map() {
            self.error(
                file,
                document,
                &node,
                "ra2::object::not-a-mapping",
                format!("list item is a {}, not a Kubernetes object", node.type_name()),
            );
            return;
        }
        let object = Object::new(node).with_declared(&self.config.workload_kinds);
        for key in ["apiVersion", "kind"] {
            match object.root.get(key) {
                None => {
                    self.error(
                        file,
                        document,
                        &object.root,
                        "ra2::object::missing-field",
                        format!("object has no {key}, so Kubernetes cannot read it"),
                    );
                    return;
                }
                Some(v) if v.as_str().is_none() => {
                    self.error(
                        file,
                        document,
                        &v,
                        "ra2::object::wrong-type",
                        format!("{key} must be a string, found {} {}", v.type_name(), v.source_text()),
                    );
                    return;
                }
                Some(_) => {}
            }
        }
        let object_index = self.suppressions.len();
        let object_ref = ObjectRef {
            api_version: object.api_version.map(str::to_owned),
            kind: object.kind.map(str::to_owned),
            namespace: object.namespace.map(str::to_owned),
            name: object.name.map(str::to_owned),
        };
        let pod = object.pod_spec();
        let target = Target {
            file,
            document,
            object: &object_ref,
            object_index,
        };
        let mut found: Vec<Pending> = Vec::new();
        let suppressions = suppressions_of(&object, pod, target, self.config.today.as_deref(), &mut found);
        self.suppressions
            .push((suppressions.all.is_some() || !suppressions.keys.is_empty()).then(|| Box::new(suppressions)));
        self.templates.push(template.map(Box::from));
        let settings = Settings {
            edition: self.config.edition,
            config: self.config,
            decoded: self.origin == super::Origin::ApiServer,
        };
        let mut gated: Vec<Pending> = Vec::new();
        for (rule, params) in self.rules.rules.iter().zip(&self.rules.params) {
            let params = params.as_deref();
            if let Some(check) = rule.checks.object {
                check(
                    &object,
                    &mut Context::new(rule.id, settings, target, &mut found).with_params(params),
                );
            }
            if let (Some(check), Some(pod)) = (rule.checks.pod, pod) {
                check(
                    pod,
                    &mut Context::new(rule.id, settings, target, &mut found)
                        .with_gated(&mut gated)
                        .with_params(params),
                );
            }
        }
        let profile = pod.map(|pod| self.record_profile(target, &object, pod));
        match profile {
            Some(Some(Profile::NetworkIntensive)) => found.append(&mut gated),
            Some(None) => self.deferred.append(&mut gated),
            _ => {}
        }
        for hook in &mut self.hooks {
            let mut cx = HookContext {
                config: self.config,
                target,
                out: &mut found,
            };
            hook.check_object(&object, &mut cx);
        }
        let silenced = |f: &Finding| self.silences(object_index, template, f);
        for settle in &self.rules.settle {
            settle(&mut found, &silenced);
        }
        let line = object.root.doc().position(object.root.span().start).line;
        if profile == Some(None) {
            self.taken.undecided.insert(object_index);
        }
        self.taken.saw_templates |= template.is_some();
        self.report.objects.push(ObjectSummary {
            file: file.to_owned(),
            document,
            api_version: object_ref.api_version.clone(),
            kind: object_ref.kind.clone(),
            name: object_ref.name.clone(),
            namespace: object_ref.namespace.clone(),
            // Undecided pods start basic; `finish` upgrades them when other documents tell.
            profile: profile.map(|p| p.unwrap_or(Profile::Basic)),
            line,
            source_template: template.map(str::to_owned),
            hook: helm_hook(&object),
            rendered: template
                .filter(|_| object.root.id() == object.root.doc().root)
                .map(|_| object.root.doc().chunk.text)
                .filter(|text| text.len() <= crate::report::RENDERED_TEXT_LIMIT)
                .map(std::sync::Arc::from),
        });
        self.collect_facts(target, &object);
        for collect in &self.rules.collect {
            collect(&mut self.bundle, target, &object, pod);
        }
        self.pending.extend(found);
        self.last_object = Some(object_ref);
    }

    /// Records the pod's profile facts (ra2-rules.md §1.2) and returns its profile, or `None`
    /// when `NetworkAttachmentDefinitions` elsewhere in the input decide it.
    fn record_profile(
        &mut self,
        target: Target<'_>,
        object: &Object<'_>,
        pod: &crate::model::PodSpec<'_>,
    ) -> Option<Profile> {
        let namespace = object.namespace.unwrap_or(&self.config.default_namespace);
        let place = |node: &Located<'_>| Place::of(target, node);
        let facts =
            crate::model::profile::facts(pod, namespace, target.object_index, self.config, &self.devices, &place);
        let profile = if facts.local.is_some() {
            Some(Profile::NetworkIntensive)
        } else if facts.undecided() {
            None
        } else {
            return Some(Profile::Basic);
        };
        self.bundle.workloads.push(facts);
        profile
    }

    /// Records what cross-document rules need from this object: the objects several rules
    /// look up, and each running rule's own facts.
    fn collect_facts(&mut self, target: Target<'_>, object: &Object<'_>) {
        let namespace = object.namespace.unwrap_or(&self.config.default_namespace);
        self.bundle.record(target, object, namespace);
        for rule in &self.rules.rules {
            if let Some(gather) = rule.checks.gather {
                let mut cx = Gather {
                    target,
                    namespace,
                    rule: rule.id,
                    strings: &mut self.bundle.strings,
                    facts: &mut self.bundle.rule_facts,
                };
                gather(object, &mut cx);
            }
        }
    }
}

/// Is this object a Helm test hook? `helm.sh/hook` holds a comma-separated list of hooks.
fn helm_hook(object: &Object<'_>) -> Option<String> {
    let hooks = object.annotation("helm.sh/hook")?;
    hooks
        .as_str()?
        .split(',')
        .map(str::trim)
        .any(|h| h == "test" || h == "test-success")
        .then(|| "test".to_owned())
}
