//! ra2.app.005: container processes (OCI `process.user`) run as an explicit non-root user or
//! with non-root enforced, and the user settings do not contradict each other.

use crate::model::{Container, PodSpec, Setting};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

/// Each regular, init or sidecar container, with `runAsUser` and `runAsNonRoot` taken from its
/// own securityContext, else the pod's. Windows pods have no numeric user ids.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if pod.is_windows() {
        return;
    }
    for container in pod.workload_containers() {
        check_container(container, cx);
    }
}

fn check_container(container: &Container<'_>, cx: &mut Context<'_>) {
    match run_as(container) {
        RunAs::Root { user, non_root } => {
            cx.report("run-as-root", &user.node, root_message(container, user));
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
        RunAs::ImageDecides { non_root } => {
            let (at, message) = image_decides(container, non_root);
            cx.report_fixable("run-as-root", &at, message, None, enforce_non_root(container));
        }
        RunAs::NonRoot => {}
    }
}

/// Who a container's process runs as, from its effective `runAsUser` and `runAsNonRoot`
/// (shared with ra2.app.042).
pub(super) enum RunAs<'a, 'd> {
    /// The effective `runAsUser` is 0; `non_root` says whether `runAsNonRoot` is true as well.
    Root { user: &'a Setting<'d>, non_root: bool },
    /// No `runAsUser` and `runAsNonRoot` is not true: the image's user applies, which may be root.
    /// `non_root` is the `runAsNonRoot` setting when one is written.
    ImageDecides { non_root: Option<&'a Setting<'d>> },
    /// A non-zero user id, or non-root enforced by the kubelet. A value that is not an integer
    /// is the API server's to reject.
    NonRoot,
}

pub(super) fn run_as<'a, 'd>(container: &'a Container<'d>) -> RunAs<'a, 'd> {
    let security = &container.security;
    let non_root = security.run_as_non_root.as_ref().and_then(Setting::as_bool) == Some(true);
    match &security.run_as_user {
        Some(user) if user.as_int() == Some(0) => RunAs::Root { user, non_root },
        Some(_) => RunAs::NonRoot,
        None if non_root => RunAs::NonRoot,
        None => RunAs::ImageDecides {
            non_root: security.run_as_non_root.as_ref(),
        },
    }
}

/// `container "a" runs as user 0 (root)`, saying when the pod's securityContext set it.
pub(super) fn root_message(container: &Container<'_>, user: &Setting<'_>) -> String {
    let source = if user.from_pod {
        ", set in the pod's securityContext"
    } else {
        ""
    };
    format!("{} runs as user 0 (root){source}", container.describe())
}

/// The fix of a container whose image decides its user: `runAsNonRoot: true` in its own
/// securityContext (the kubelet then refuses to start an image whose user is root).
pub(super) fn enforce_non_root(container: &Container<'_>) -> Vec<crate::report::fix::Operation> {
    crate::report::fix::set(&container.node, &["securityContext", "runAsNonRoot"], true.into())
}

/// Where and how to say that the image decides the user: at a written `runAsNonRoot` that is
/// not true, else where the container's securityContext is (or would be).
pub(super) fn image_decides<'d>(container: &Container<'d>, non_root: Option<&Setting<'d>>) -> (Located<'d>, String) {
    match non_root {
        Some(setting) => (
            setting.node.clone(),
            format!(
                "{} sets no runAsUser and runAsNonRoot is {}, so the image decides and may run as root",
                container.describe(),
                setting.node.source_text()
            ),
        ),
        None => (
            container.missing_field_site(),
            format!(
                "{} sets neither runAsUser nor runAsNonRoot, so the image decides and may run as root",
                container.describe()
            ),
        ),
    }
}
