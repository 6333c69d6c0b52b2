//! ra2.app.032: every container, and every namespace, has cpu and memory limits.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::model::bundle::{Bundle, Fact, Place};
use crate::model::{Container, Object, PodSpec};
use crate::rules::{BundleContext, Checks, Context, Gather};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    gather: Some(gather),
    bundle: Some(check_bundle),
    ..Checks::NONE
};

/// The resources every container must limit.
const LIMITED: [&str; 2] = ["cpu", "memory"];

/// Each regular, init or sidecar container without a cpu or memory limit of its own. A
/// pod-level limit (`spec.resources.limits`) covers the containers when the target Kubernetes
/// version honours it (1.34 and later).
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let pod_limits = pod.pod_resources();
    let pod_limit = |name: &str| pod_limits.as_ref().and_then(|r| r.limit(name)).is_some();
    let honoured = cx.config().pod_level_resources();
    for container in pod.workload_containers() {
        let missing: Vec<&str> = LIMITED
            .into_iter()
            .filter(|name| container.resources.limit(name).is_none() && !(honoured && pod_limit(name)))
            .collect();
        if !missing.is_empty() {
            let ignored = missing.iter().any(|name| pod_limit(name));
            report_missing(container, &missing, ignored, cx);
        }
        zero_limits(container, cx);
    }
}

fn report_missing(container: &Container<'_>, missing: &[&str], pod_level_ignored: bool, cx: &mut Context<'_>) {
    let resources = container.resources.node.as_ref();
    let site = resources
        .and_then(|r| r.get("limits"))
        .or_else(|| resources.cloned())
        .unwrap_or_else(|| container.node.clone());
    let what = format!("{} sets no {} limit", container.describe(), missing.join(" or "));
    let message = if pod_level_ignored {
        format!(
            "{what} (the pod-level limit in spec.resources counts only from Kubernetes 1.34; the target is 1.{})",
            cx.config().kubernetes_minor
        )
    } else {
        what
    };
    match limits_from_requests(container, missing) {
        Some(patch) => cx.report_fixable("container-limits", &site, message, None, patch),
        None => cx.report("container-limits", &site, message),
    }
}

/// The fix of a container's missing limits: each set to the container's request of the same
/// resource; none unless every missing limit has a request to copy.
fn limits_from_requests(container: &Container<'_>, missing: &[&str]) -> Option<Vec<crate::report::fix::Operation>> {
    let mut values = serde_json::Map::new();
    for name in missing {
        let value = container.resources.request(name)?.copyable()?;
        values.insert((*name).to_owned(), value);
    }
    let limits = container.resources.node.as_ref().and_then(|r| r.get("limits"));
    if limits.is_some() {
        return Some(
            values
                .into_iter()
                .flat_map(|(name, value)| {
                    crate::report::fix::set(&container.node, &["resources", "limits", &name], value)
                })
                .collect(),
        );
    }
    Some(crate::report::fix::set(
        &container.node,
        &["resources", "limits"],
        serde_json::Value::Object(values),
    ))
}

/// A zero limit is no limit: the kubelet sets no cgroup bound for it.
fn zero_limits(container: &Container<'_>, cx: &mut Context<'_>) {
    for name in LIMITED {
        let Some(limit) = container.resources.limit(name) else {
            continue;
        };
        if limit.quantity().is_some_and(crate::k8s::quantity::Quantity::is_zero) {
            cx.report(
                "container-limits",
                &limit.node,
                format!(
                    "{} sets its {name} limit to {}, which the kubelet treats as no limit",
                    container.describe(),
                    limit.node.source_text()
                ),
            );
        }
    }
}

/// What a namespace has in the input.
#[derive(Clone, Debug)]
enum Namespace {
    /// Its first object with a pod spec: where its namespace is written, else its metadata.
    FirstWorkload(Arc<str>, Place),
    /// A `ResourceQuota` or a `LimitRange` of it.
    Limited(Arc<str>),
}

impl Fact for Namespace {
    fn shift(&mut self, by: crate::model::bundle::Shift) {
        if let Namespace::FirstWorkload(_, place) = self {
            place.shift(by);
        }
    }
}

fn gather(object: &Object<'_>, cx: &mut Gather<'_>) {
    let namespace = cx.namespace;
    if object.is("", "ResourceQuota") || object.is("", "LimitRange") {
        let fact = Namespace::Limited(cx.intern(namespace));
        cx.record(fact);
        return;
    }
    if object.pod_spec().is_none()
        || cx
            .recorded::<Namespace>()
            .iter()
            .any(|f| matches!(f, Namespace::FirstWorkload(n, _) if **n == *namespace))
    {
        return;
    }
    let metadata = object.metadata();
    let site = metadata
        .as_ref()
        .and_then(|m| m.get("namespace"))
        .or(metadata)
        .unwrap_or_else(|| object.root.clone());
    let fact = Namespace::FirstWorkload(cx.intern(namespace), cx.place(&site));
    cx.record(fact);
}

/// Once per namespace, on its first workload in the input: neither a `ResourceQuota` nor a
/// `LimitRange` of that namespace is in the input.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let mut first: BTreeMap<&str, &Place> = BTreeMap::new();
    let mut limited: BTreeSet<&str> = BTreeSet::new();
    for fact in cx.facts::<Namespace>(bundle) {
        match fact {
            // The first workload of the whole run wins, as when read in one pass.
            Namespace::FirstWorkload(namespace, place) => {
                first.entry(namespace).or_insert(place);
            }
            Namespace::Limited(namespace) => {
                limited.insert(namespace);
            }
        }
    }
    for (namespace, place) in first {
        if limited.contains(namespace) {
            continue;
        }
        cx.report(
            "namespace-limits",
            place,
            format!(
                "namespace {namespace:?} has neither a ResourceQuota nor a LimitRange in the input, so nothing limits the namespace as a whole"
            ),
        );
    }
}
