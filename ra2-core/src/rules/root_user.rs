//! ra2.app.042: pods do not run as the root user: no container's effective `runAsUser` is 0,
//! and a container that names no user has non-root enforced.

use crate::model::PodSpec;
use crate::rules::user::{RunAs, enforce_non_root, image_decides, root_message, run_as};
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

/// Regular, init and sidecar containers; Windows pods have no numeric user ids.
fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if pod.is_windows() {
        return;
    }
    for container in pod.workload_containers() {
        match run_as(container) {
            RunAs::Root { user, non_root } => {
                let mut message = root_message(container, user);
                if non_root {
                    message.push_str(", although runAsNonRoot is true, so the kubelet refuses to start it");
                }
                cx.report("run-as-root", &user.node, message);
            }
            RunAs::ImageDecides { non_root } => {
                let (at, message) = image_decides(container, non_root);
                cx.report_fixable("user-unset", &at, message, None, enforce_non_root(container));
            }
            RunAs::NonRoot => {}
        }
    }
}
