//! ra2.app.047: pods do not use host ports: no `hostPort`, and no container port on the
//! host network (where every container port is a host port).

use crate::model::{Container, PodSpec};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

/// Regular, init and sidecar containers (ephemeral containers cannot declare ports). On the
/// host network, API defaulting sets every `hostPort` to its `containerPort` (ra2-rules.md §3.30).
fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let host_network = pod.flag("hostNetwork");
    for container in pod.workload_containers() {
        let Some(ports) = container.node.get("ports") else {
            continue;
        };
        for port in ports.items() {
            if let Some(host_port) = port.get("hostPort").filter(is_set) {
                cx.report(
                    "host-port",
                    &host_port,
                    format!(
                        "{} binds host port {}",
                        describe_port(container, &port),
                        host_port.source_text()
                    ),
                );
            } else if host_network {
                let at = port.get("containerPort").unwrap_or_else(|| port.clone());
                cx.report(
                    "host-network-port",
                    &at,
                    format!(
                        "{} is a host port because the pod uses the host network",
                        describe_port(container, &port)
                    ),
                );
            }
        }
    }
}

/// `hostPort: 0` (or null) asks for no host port.
fn is_set(value: &Located<'_>) -> bool {
    !value.is_null() && value.as_int() != Some(0)
}

/// `port 8080 ("metrics") of container "a"`.
fn describe_port(container: &Container<'_>, port: &Located<'_>) -> String {
    let number = port
        .get("containerPort")
        .map_or_else(|| "?".to_owned(), |p| p.source_text().to_owned());
    match port.str_at("name") {
        Some(name) => format!("port {number} ({name:?}) of {}", container.describe()),
        None => format!("port {number} of {}", container.describe()),
    }
}
