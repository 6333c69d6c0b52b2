//! ra2.app.008: workloads do not depend on control-plane nodes: they neither require nor
//! tolerate them, tolerate every taint, or bind to a named node.

use crate::model::{PodSpec, WorkloadKind};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

/// The node label and taint key kubeadm puts on control-plane nodes, and its deprecated name.
const CONTROL_PLANE_KEYS: &[&str] = &[
    "node-role.kubernetes.io/control-plane",
    "node-role.kubernetes.io/master",
];

fn is_control_plane_key(key: &str) -> bool {
    CONTROL_PLANE_KEYS.contains(&key)
}

fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    node_selector(pod, cx);
    required_affinity(pod, cx);
    tolerations(pod, cx);
    node_name(pod, cx);
}

/// A `nodeSelector` key on a control-plane label, whatever its value.
fn node_selector(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(selector) = pod.get("nodeSelector") else {
        return;
    };
    for (key, value) in selector.entries() {
        if is_control_plane_key(key) {
            cx.report(
                "control-plane-selector",
                &value,
                format!("nodeSelector requires nodes labelled {key}"),
            );
        }
    }
}

/// A required node-affinity expression that selects control-plane nodes. `NotIn` and
/// `DoesNotExist` keep pods away from them; preferred terms are not judged (§5.17).
fn required_affinity(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for term in pod.required_node_selector_terms() {
        let Some(expressions) = term.get("matchExpressions") else {
            continue;
        };
        for expression in expressions.items() {
            let Some(key) = expression.str_at("key").filter(|k| is_control_plane_key(k)) else {
                continue;
            };
            let Some(operator) = expression.str_at("operator").filter(|o| matches!(*o, "In" | "Exists")) else {
                continue;
            };
            cx.report(
                "control-plane-selector",
                &expression,
                format!("required node affinity selects nodes labelled {key} (operator {operator})"),
            );
        }
    }
}

/// Tolerations of the control-plane taint, and wildcards that tolerate it with every other.
fn tolerations(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(tolerations) = pod.get("tolerations") else {
        return;
    };
    for toleration in tolerations.items() {
        let key = toleration.str_at("key").unwrap_or("");
        let effect = toleration.str_at("effect").unwrap_or("");
        if is_control_plane_key(key) {
            cx.report(
                "control-plane-toleration",
                &toleration,
                control_plane_message(key, &toleration, effect),
            );
        } else if key.is_empty() && toleration.str_at("operator") == Some("Exists") {
            let message = match effect {
                "" => {
                    "toleration with operator Exists and no key tolerates every taint, including the control-plane one"
                }
                "NoSchedule" => {
                    "toleration with operator Exists and no key tolerates every NoSchedule taint, including the control-plane one"
                }
                _ => continue,
            };
            cx.report_with_help(
                "wildcard-toleration",
                &toleration,
                message,
                "Tolerate only the taints the workload needs, each by its key.",
            );
        }
    }
}

fn control_plane_message(key: &str, toleration: &Located<'_>, effect: &str) -> String {
    let operator = toleration.str_at("operator").unwrap_or("Equal");
    let effect = if effect.is_empty() { "any effect" } else { effect };
    format!("pod tolerates the {key} taint (operator {operator}, {effect})")
}

/// A fixed `nodeName` bypasses the scheduler. Not on a Pod that the cluster bound itself, as
/// `kubectl get pods -o yaml` and `ra2 audit` show every running pod: one that a controller
/// made (the scheduler or the DaemonSet controller set `nodeName`; the controller's template is
/// what is judged) or a mirror pod (the API copy of a static pod, placed by its node's
/// manifest directory).
fn node_name(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if pod.workload == WorkloadKind::Pod && bound_by_the_cluster(pod) {
        return;
    }
    let Some(node) = pod.get("nodeName") else { return };
    let Some(name) = node.as_str().filter(|n| !n.is_empty()) else {
        return;
    };
    cx.report_with_help(
        "node-name",
        &node,
        format!("pod is bound to node {name:?}, bypassing the scheduler"),
        "Remove nodeName and select worker nodes with a nodeSelector or node affinity instead.",
    );
}

/// A Pod with a controller owner, or a mirror pod of a static pod.
fn bound_by_the_cluster(pod: &PodSpec<'_>) -> bool {
    const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";
    let controlled = pod
        .metadata
        .as_ref()
        .and_then(|m| m.get("ownerReferences"))
        .is_some_and(|owners| owners.items().any(|o| o.get("controller").is_some_and(|c| c.is_true())));
    controlled || pod.annotation(MIRROR_ANNOTATION).is_some()
}
