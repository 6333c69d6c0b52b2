//! ra2.app.027: every long-running container has a readiness probe.

use crate::model::{Container, ContainerKind, PodSpec, WorkloadKind};
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    super::liveness_probe::missing_probe(pod, "readinessProbe", "readiness-probe", defaulted_by_knative, cx);
}

/// Does Knative give this container a readiness probe when it has none? Knative Serving
/// defines a TCP probe on the traffic port for the serving container of a revision (the only
/// container, or the one that declares a port) when the user defines no readiness probe; it
/// defines none for the other containers, nor a liveness probe for any.
fn defaulted_by_knative(pod: &PodSpec<'_>, container: &Container<'_>) -> bool {
    if !matches!(
        pod.workload,
        WorkloadKind::KnativeService | WorkloadKind::KnativeConfiguration
    ) || container.kind != ContainerKind::Regular
    {
        return false;
    }
    let declares_port = |c: &Container<'_>| c.node.get("ports").is_some_and(|p| p.items().next().is_some());
    let regular = || pod.workload_containers().filter(|c| c.kind == ContainerKind::Regular);
    declares_port(container) || regular().count() == 1 && !regular().any(declares_port)
}
