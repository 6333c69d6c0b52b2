//! ra2.app.043: no container allows privilege escalation: `allowPrivilegeEscalation` is
//! explicitly false, and nothing (privileged, CAP_SYS_ADMIN) makes it true anyway.

use crate::model::{Container, PodSpec};
use crate::rules::{Checks, Context, process};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

/// Every container, ephemeral ones included; Windows pods cannot set the field.
fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let windows = pod.is_windows();
    for container in pod.containers() {
        process::escalation(container, windows, cx);
        false_beside_sys_admin(container, cx);
    }
}

/// `false` beside SYS_ADMIN spelled other than `CAP_SYS_ADMIN` (or `ALL`) passes the API server,
/// but the capability still lets the process escalate (ra2-rules.md §3.29). The exact spelling
/// and privileged are reported as a conflict by [`process::escalation`].
fn false_beside_sys_admin(container: &Container<'_>, cx: &mut Context<'_>) {
    let Some(setting) = container
        .security
        .allow_privilege_escalation
        .as_ref()
        .filter(|s| s.as_bool() == Some(false))
    else {
        return;
    };
    if container.security.is_privileged() || process::adds_exact_cap_sys_admin(container) {
        return;
    }
    let Some(capability) = process::sys_admin_grant(container) else {
        return;
    };
    cx.report_with_help(
        "privilege-escalation",
        &setting.node,
        format!(
            "{} sets allowPrivilegeEscalation to false, but capability {capability} lets its processes escalate anyway",
            container.describe()
        ),
        "Remove SYS_ADMIN (and ALL) from capabilities.add and keep allowPrivilegeEscalation: false.",
    );
}
