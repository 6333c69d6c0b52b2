//! ra2.k8s.009: network-intensive workloads that rely on CPU pinning are shaped so the static
//! CPU manager pins something: a Guaranteed pod with whole-CPU containers.
//!
//! Every check is silent unless the pod is network-intensive (ra2-rules.md §1.2; the linter
//! settles that after reading the whole input) or carries the opt-in annotation.

use crate::model::resources::{QosClass, exclusive_cpus, pod_qos};
use crate::model::{Amount, Container, ContainerKind, PodSpec, Resources};
use crate::parse::view::Located;
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    params: Some(super::params::decoder::<Params>),
    ..Checks::NONE
};

/// The annotation a pod opts in with.
#[derive(Clone, Debug)]
struct Params {
    opt_in_annotation: String,
}

impl RuleParams for Params {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Params {
            opt_in_annotation: params.string("opt_in_annotation"),
        }
    }
}

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let mut report = Reporter {
        opted_in: opted_in(pod, cx),
    };
    let qos = pod_qos(pod, cx.config().pod_level_resources());
    if qos != QosClass::Guaranteed {
        not_guaranteed(pod, qos, &mut report, cx);
        return;
    }
    let pinned: Vec<(&Container<'_>, i128)> = pod
        .workload_containers()
        .map(|c| (c, exclusive_cpus(qos, c)))
        .filter(|(_, cpus)| *cpus > 0)
        .collect();
    if !pinned.iter().any(|(c, _)| c.kind == ContainerKind::Regular) {
        nothing_pinned(pod, &mut report, cx);
        return;
    }
    for container in pod.workload_containers().filter(|c| c.kind != ContainerKind::Init) {
        fractional(container, &mut report, cx);
    }
    for (container, cpus) in pinned {
        odd_cpus(container, cpus, &mut report, cx);
    }
}

/// Reports unconditionally for opted-in pods, else only if the pod is network-intensive.
struct Reporter {
    opted_in: bool,
}

impl Reporter {
    fn report(&mut self, cx: &mut Context<'_>, check: &'static str, at: &Located<'_>, message: String) {
        if self.opted_in {
            cx.report(check, at, message);
        } else {
            cx.report_if_network_intensive(check, at, message);
        }
    }
}

/// The opt-in annotation (`ra2.lint/cpu-pinning: "true"` by default) in the pod's metadata (the
/// template's, for controllers).
fn opted_in(pod: &PodSpec<'_>, cx: &Context<'_>) -> bool {
    let params = cx.params::<Params>();
    let key = &params.opt_in_annotation;
    if key.is_empty() {
        return false;
    }
    pod.annotation(key).is_some_and(|v| v.as_str() == Some("true"))
}

/// cpu-pinning: only Guaranteed pods get exclusive CPUs.
fn not_guaranteed(pod: &PodSpec<'_>, qos: QosClass, report: &mut Reporter, cx: &mut Context<'_>) {
    let pod_level = cx.config().pod_level_resources().then(|| pod.pod_resources()).flatten();
    let breaking = match &pod_level {
        Some(resources) => not_guaranteed_because("the pod's resources", resources),
        None => pod.workload_containers().find_map(|c| {
            let (node, why) = not_guaranteed_because(c.describe(), &c.resources)?;
            Some((node.or_else(|| Some(c.node.clone())), why))
        }),
    };
    let (at, why) = match breaking {
        Some((node, why)) => (node.unwrap_or_else(|| containers_node(pod)), format!(" because {why}")),
        None => (containers_node(pod), String::new()),
    };
    report.report(
        cx,
        "cpu-pinning",
        &at,
        format!(
            "pod is {}{why}; the static CPU manager pins CPUs only for Guaranteed pods",
            qos.as_str()
        ),
    );
}

/// Why a container (or the pod-level resources) keeps the pod from being Guaranteed, and where:
/// a missing cpu or memory limit (at `resources`, or the container when it has none), or a
/// request different from its limit (at the request).
fn not_guaranteed_because<'d>(who: &str, resources: &Resources<'d>) -> Option<(Option<Located<'d>>, String)> {
    let missing: Vec<&str> = ["cpu", "memory"]
        .into_iter()
        .filter(|name| {
            resources
                .limit(name)
                .and_then(Amount::quantity)
                .is_none_or(crate::k8s::quantity::Quantity::is_zero)
        })
        .collect();
    if !missing.is_empty() {
        let why = match missing.as_slice() {
            [one] => format!("{who} sets no {one} limit"),
            _ => format!("{who} sets neither a cpu nor a memory limit"),
        };
        return Some((resources.node.clone(), why));
    }
    ["cpu", "memory"].into_iter().find_map(|name| {
        let request = resources.request(name)?;
        let limit = resources.limit(name)?;
        (request.quantity() != limit.quantity()).then(|| {
            // A defaulted request that differs from its limit is a pod-level one summed from the
            // containers (KEP-2837).
            let why = match request.quantity().filter(|_| request.defaulted) {
                Some(sum) => format!(
                    "{who} request {sum} {name}, the sum of the containers' requests that Kubernetes \
                     defaults spec.resources.requests.{name} to, but limit it to {}",
                    limit.shown()
                ),
                None => format!(
                    "{who} requests {} {name} but limits it to {}",
                    request.shown(),
                    limit.shown()
                ),
            };
            (Some(request.node.clone()), why)
        })
    })
}

fn containers_node<'d>(pod: &PodSpec<'d>) -> Located<'d> {
    pod.get("containers").unwrap_or_else(|| pod.spec.clone())
}

/// cpu-pinning: a Guaranteed pod in which no regular container asks for whole CPUs.
fn nothing_pinned(pod: &PodSpec<'_>, report: &mut Reporter, cx: &mut Context<'_>) {
    let regular: Vec<&Container<'_>> = pod
        .workload_containers()
        .filter(|c| c.kind == ContainerKind::Regular)
        .collect();
    let Some(first) = regular.first() else { return };
    let cpus: Vec<String> = regular
        .iter()
        .filter_map(|c| {
            Some(format!(
                "{} requests {} cpu",
                c.describe(),
                c.resources.request("cpu")?.shown()
            ))
        })
        .collect();
    let at = cpu_node(first);
    let detail = if cpus.is_empty() {
        String::new()
    } else {
        format!(" ({})", cpus.join(", "))
    };
    report.report(
        cx,
        "cpu-pinning",
        &at,
        format!("no container requests a whole number of CPUs{detail}, so the static CPU manager pins none"),
    );
}

/// fractional: in a pod that pins CPUs, a long-running container with a fractional CPU request
/// shares the pool.
fn fractional(container: &Container<'_>, report: &mut Reporter, cx: &mut Context<'_>) {
    let Some(request) = container.resources.request("cpu") else {
        return;
    };
    if request.quantity().is_some_and(|q| !q.is_integer() && !q.is_negative()) {
        report.report(
            cx,
            "fractional",
            &request.node,
            format!(
                "{} requests {} cpu, a fraction, so it runs on the shared CPU pool rather than on pinned CPUs",
                container.describe(),
                request.shown()
            ),
        );
    }
}

/// smt: an odd number of exclusive CPUs cannot be whole physical cores.
fn odd_cpus(container: &Container<'_>, cpus: i128, report: &mut Reporter, cx: &mut Context<'_>) {
    if cpus % 2 == 0 {
        return;
    }
    report.report(
        cx,
        "smt",
        &cpu_node(container),
        format!(
            "{} gets {cpus} exclusive {}, an odd number: with SMT on, nodes whose CPU manager uses the full-pcpus-only option reject the pod",
            container.describe(),
            if cpus == 1 { "CPU" } else { "CPUs" }
        ),
    );
}

/// The container's effective cpu request (its limit's node when defaulted), else its resources.
fn cpu_node<'d>(container: &Container<'d>) -> Located<'d> {
    container
        .resources
        .request("cpu")
        .map(|a| a.node.clone())
        .or_else(|| container.resources.node.clone())
        .unwrap_or_else(|| container.node.clone())
}
