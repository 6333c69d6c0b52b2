//! ra2.ch.006: CPU requests and limits are set, and (when the node's allocatable CPU is known)
//! the pod's stay below it, so CPUs are never oversubscribed.

use crate::k8s::quantity::Quantity;
use crate::model::resources::{Effective, Side, pod_effective};
use crate::model::{Amount, Container, PodSpec, Resources};
use crate::parse::view::Located;
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    params: Some(super::params::decoder::<Params>),
    ..Checks::NONE
};

/// The node's allocatable CPU; `None` when unset (`0`, the default) or unreadable.
#[derive(Clone, Debug)]
struct Params {
    node_allocatable_cpu: Option<Quantity>,
}

impl RuleParams for Params {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Params {
            node_allocatable_cpu: params
                .quantity("node_allocatable_cpu")
                .filter(|q| q > &Quantity::zero()),
        }
    }
}

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let pod_level = cx
        .config()
        .pod_level_resources()
        .then(|| pod.pod_resources())
        .flatten()
        .filter(bounded);
    if let Some(resources) = &pod_level {
        pod_level_below_allocatable(resources, cx);
        return;
    }
    for container in pod.workload_containers() {
        cpu_bounded(container, cx);
    }
    let Some(allocatable) = allocatable(cx) else {
        return;
    };
    for side in [Side::Requests, Side::Limits] {
        if let Effective::Bounded(effective) = pod_effective(pod, "cpu", side) {
            let at = largest(pod, side).unwrap_or_else(|| pod.get("containers").unwrap_or_else(|| pod.spec.clone()));
            below_allocatable(side, &effective, &allocatable, &at, cx);
        }
    }
}

/// With pod-level resources (Kubernetes 1.34 and later) the pod's own cpu request and limit
/// are its effective values, and they bound every container.
fn pod_level_below_allocatable(resources: &Resources<'_>, cx: &mut Context<'_>) {
    let Some(allocatable) = allocatable(cx) else {
        return;
    };
    for (side, amount) in [
        (Side::Requests, resources.request("cpu")),
        (Side::Limits, resources.limit("cpu")),
    ] {
        if let Some(amount) = amount {
            let effective = amount.quantity().cloned().unwrap_or_default();
            below_allocatable(side, &effective, &allocatable, &amount.node, cx);
        }
    }
}

/// Resources with a positive cpu limit (and so, after defaulting, a request).
fn bounded(resources: &Resources<'_>) -> bool {
    positive(resources.limit("cpu")) && resources.request("cpu").is_some()
}

fn positive(amount: Option<&Amount<'_>>) -> bool {
    amount.and_then(Amount::quantity).is_some_and(|q| q > &Quantity::zero())
}

/// cpu-bounded: a container without a cpu request or a cpu limit cannot be shown to stay below
/// the node's allocatable CPU.
fn cpu_bounded(container: &Container<'_>, cx: &mut Context<'_>) {
    let resources = &container.resources;
    let who = container.describe();
    let at = resources.node.clone().unwrap_or_else(|| container.node.clone());
    let message = match (resources.request("cpu"), resources.limit("cpu")) {
        (None, None) => format!("{who} sets no cpu request or limit"),
        (Some(request), None) => {
            let message = format!(
                "{who} requests {} cpu but sets no cpu limit, so its CPU use is unbounded",
                request.shown()
            );
            // The fix limits the container to what it asks for.
            if let Some(value) = request.copyable() {
                let patch = crate::report::fix::set(&container.node, &["resources", "limits", "cpu"], value);
                cx.report_fixable("cpu-bounded", &at, message, None, patch);
                return;
            }
            message
        }
        (_, Some(limit)) if limit.quantity().is_some_and(Quantity::is_zero) => {
            let at = limit.node.clone();
            cx.report(
                "cpu-bounded",
                &at,
                format!("{who} limits cpu to 0, which the kubelet treats as no limit"),
            );
            return;
        }
        (_, Some(_)) => return,
    };
    cx.report("cpu-bounded", &at, message);
}

/// The configured `node_allocatable_cpu`, if any.
fn allocatable(cx: &Context<'_>) -> Option<Quantity> {
    cx.params::<Params>().node_allocatable_cpu.clone()
}

/// below-allocatable: the pod's effective cpu request and limit stay strictly below the node's
/// allocatable CPU.
fn below_allocatable(side: Side, effective: &Quantity, allocatable: &Quantity, at: &Located<'_>, cx: &mut Context<'_>) {
    if effective < allocatable {
        return;
    }
    let noun = match side {
        Side::Requests => "request",
        Side::Limits => "limit",
    };
    cx.report(
        "below-allocatable",
        at,
        format!("the pod's effective cpu {noun}, {effective}, is not below the node's allocatable cpu, {allocatable}"),
    );
}

/// The largest cpu amount on one side among the pod's containers, to point at.
fn largest<'d>(pod: &PodSpec<'d>, side: Side) -> Option<Located<'d>> {
    pod.workload_containers()
        .filter_map(|c| {
            let amount = match side {
                Side::Requests => c.resources.request("cpu"),
                Side::Limits => c.resources.limit("cpu"),
            }?;
            Some((amount.quantity()?.clone(), amount.node.clone()))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, node)| node)
}
