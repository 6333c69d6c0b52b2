//! ra2.app.026: every long-running container has a liveness probe.

use crate::model::{Container, ContainerKind, PodSpec, WorkloadKind};
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    missing_probe(pod, "livenessProbe", "liveness-probe", |_, _| false, cx);
}

/// The handlers a probe can use; the API server rejects a probe without exactly one.
const HANDLERS: [&str; 4] = ["exec", "httpGet", "tcpSocket", "grpc"];

/// Each regular or sidecar container (the containers that keep running; plain init containers
/// cannot have probes) without a usable `key` probe, unless the platform gives it one
/// (`defaulted`). In pods that run to completion the finding is the `run-to-completion` check
/// instead of `check`. Shared with ra2.app.027.
pub(super) fn missing_probe(
    pod: &PodSpec<'_>,
    key: &str,
    check: &'static str,
    defaulted: fn(&PodSpec<'_>, &Container<'_>) -> bool,
    cx: &mut Context<'_>,
) {
    let completion = runs_to_completion(pod);
    let (check, suffix) = match completion {
        Some(why) => ("run-to-completion", format!(" ({why}, so it runs to completion)")),
        None => (check, String::new()),
    };
    for container in pod
        .workload_containers()
        .filter(|c| matches!(c.kind, ContainerKind::Regular | ContainerKind::Sidecar))
    {
        let who = container.describe();
        match container.node.get(key).filter(|p| !p.is_null()) {
            None if defaulted(pod, container) => {}
            None => cx.report(check, &container.node, format!("{who} has no {key}{suffix}")),
            Some(probe) if !HANDLERS.iter().any(|h| probe.get(h).is_some()) => cx.report(
                check,
                &probe,
                format!("{who} has a {key} without an exec, httpGet, tcpSocket or grpc handler, which the API server rejects"),
            ),
            Some(_) => {}
        }
    }
}

/// Why the pod's containers are meant to exit: a Job or CronJob, or a pod whose
/// `restartPolicy` does not restart them.
fn runs_to_completion(pod: &PodSpec<'_>) -> Option<String> {
    match pod.workload {
        WorkloadKind::Job => return Some("the pod belongs to a Job".to_owned()),
        WorkloadKind::CronJob => return Some("the pod belongs to a CronJob".to_owned()),
        _ => {}
    }
    pod.get("restartPolicy")
        .and_then(|p| p.as_str())
        .filter(|p| matches!(*p, "Never" | "OnFailure"))
        .map(|p| format!("the pod has restartPolicy {p}"))
}
