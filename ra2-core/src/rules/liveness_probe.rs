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
    let long_running = completion.is_none();
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
            None => {
                let message = format!("{who} has no {key}{suffix}");
                match single_tcp_port(container).filter(|_| long_running && container.node.get(key).is_none()) {
                    Some(port) => {
                        let probe = serde_json::json!({"tcpSocket": {"port": port}});
                        let patch = crate::report::fix::set(&container.node, &[key], probe);
                        cx.report_fixable(check, &container.node, message, None, patch);
                    }
                    None => cx.report(check, &container.node, message),
                }
            }
            Some(probe) if !HANDLERS.iter().any(|h| probe.get(h).is_some()) => cx.report(
                check,
                &probe,
                format!("{who} has a {key} without an exec, httpGet, tcpSocket or grpc handler, which the API server rejects"),
            ),
            Some(_) => {}
        }
    }
}

/// The container's one port, when it declares exactly one and that one is TCP: a probe that
/// connects to it is what the fix writes (Knative's default readiness probe does the same).
fn single_tcp_port(container: &Container<'_>) -> Option<u16> {
    let ports = container.node.get("ports")?;
    let mut items = ports.items();
    let (Some(port), None) = (items.next(), items.next()) else {
        return None;
    };
    let tcp = port.get("protocol").is_none_or(|p| p.as_str() == Some("TCP"));
    let number = u16::try_from(port.get("containerPort")?.as_int()?).ok()?;
    (tcp && number > 0).then_some(number)
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
