//! ra2.app.005: container processes (OCI `process.user`) run as an explicit non-root user or
//! with non-root enforced, and the user settings do not contradict each other.

use crate::model::{Container, PodSpec, Setting};
use crate::rules::{Context, Rule};

pub static RULE: Rule = Rule {
    pod: Some(check_pod),
    ..Rule::new("ra2.app.005")
};

/// Each regular, init or sidecar container, with `runAsUser` and `runAsNonRoot` taken from its
/// own securityContext, else the pod's. Windows pods have no numeric user ids.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if pod.spec.path(&["os", "name"]).and_then(|n| n.as_str()) == Some("windows") {
        return;
    }
    for container in pod.workload_containers() {
        check_container(container, cx);
    }
}

fn check_container(container: &Container<'_>, cx: &mut Context<'_>) {
    let security = &container.security;
    let non_root = security.run_as_non_root.as_ref().and_then(Setting::as_bool) == Some(true);
    match &security.run_as_user {
        Some(user) if user.as_int() == Some(0) => {
            let source = if user.from_pod {
                ", set in the pod's securityContext"
            } else {
                ""
            };
            cx.report(
                "run-as-root",
                &user.node,
                format!("{} runs as user 0 (root){source}", container.describe()),
            );
            if non_root {
                cx.report(
                    "non-root-conflict",
                    &user.node,
                    format!(
                        "{} requires runAsNonRoot but runs as user 0, so the kubelet refuses to start it",
                        container.describe()
                    ),
                );
            }
        }
        // A non-zero id; anything that is not an integer the API server rejects on its own.
        Some(_) => {}
        None if non_root => {}
        None => match &security.run_as_non_root {
            Some(setting) => cx.report(
                "run-as-root",
                &setting.node,
                format!(
                    "{} sets no runAsUser and runAsNonRoot is {}, so the image decides and may run as root",
                    container.describe(),
                    setting.node.source_text()
                ),
            ),
            None => cx.report(
                "run-as-root",
                &container.missing_field_site(),
                format!(
                    "{} sets neither runAsUser nor runAsNonRoot, so the image decides and may run as root",
                    container.describe()
                ),
            ),
        },
    }
}
