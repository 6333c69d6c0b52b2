//! ra2.app.003: container processes run without extra privileges (OCI process parameter group):
//! not privileged, no privilege escalation, only baseline capabilities, a seccomp filter.

use crate::model::{Container, PodSpec};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

/// The capabilities the Pod Security Standards baseline lets a container add.
const BASELINE_CAPABILITIES: &[&str] = &[
    "AUDIT_WRITE",
    "CHOWN",
    "DAC_OVERRIDE",
    "FOWNER",
    "FSETID",
    "KILL",
    "MKNOD",
    "NET_BIND_SERVICE",
    "SETFCAP",
    "SETGID",
    "SETPCAP",
    "SETUID",
    "SYS_CHROOT",
];

/// Capabilities DPDK and other data-plane CNFs commonly need: reported like the rest, with a
/// gentler fix.
const DATA_PLANE_CAPABILITIES: &[&str] = &["NET_ADMIN", "NET_RAW", "IPC_LOCK"];

fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    // The API forbids allowPrivilegeEscalation in Windows pods, so asking for it is wrong there.
    let windows = pod.is_windows();
    for container in pod.containers() {
        privileged(container, cx);
        escalation(container, windows, cx);
        capabilities(container, cx);
        container_seccomp(container, cx);
    }
    pod_seccomp(pod, cx);
}

/// `privileged: true` (any YAML 1.1 spelling of true). Shared with ra2.app.041.
pub(super) fn privileged(container: &Container<'_>, cx: &mut Context<'_>) {
    if let Some(setting) = container.security.privileged_true() {
        cx.report_fixable(
            "privileged",
            &setting.node,
            format!("{} is privileged", container.describe()),
            Some("Remove privileged: add back only the capabilities the process needs, and request devices through a device plugin.".to_owned()),
            crate::report::fix::set(&container.node, &["securityContext", "privileged"], false.into()),
        );
    }
}

/// A capability name as the runtime reads it: upper-cased, without the `CAP_` prefix.
fn normalize_capability(name: &str) -> String {
    let upper = name.to_ascii_uppercase();
    match upper.strip_prefix("CAP_") {
        Some(rest) => rest.to_owned(),
        None => upper,
    }
}

/// The API server's own test: only the exact spelling `CAP_SYS_ADMIN` conflicts with
/// `allowPrivilegeEscalation: false`.
pub(super) fn adds_exact_cap_sys_admin(container: &Container<'_>) -> bool {
    container
        .security
        .added_capabilities()
        .iter()
        .any(|(name, _)| *name == "CAP_SYS_ADMIN")
}

/// `SYS_ADMIN` in any spelling: the process can escalate whatever the manifest says.
fn adds_sys_admin(container: &Container<'_>) -> bool {
    container
        .security
        .added_capabilities()
        .iter()
        .any(|(name, _)| normalize_capability(name) == "SYS_ADMIN")
}

/// The first added capability that grants SYS_ADMIN, in any spelling or through `ALL`.
pub(super) fn sys_admin_grant<'d>(container: &Container<'d>) -> Option<&'d str> {
    container
        .security
        .added_capabilities()
        .into_iter()
        .map(|(name, _)| name)
        .find(|name| matches!(normalize_capability(name).as_str(), "SYS_ADMIN" | "ALL"))
}

/// `allowPrivilegeEscalation` must be explicitly `false`; `false` beside `privileged: true` or
/// `CAP_SYS_ADMIN` is rejected by the API server and reported as a conflict instead. Shared with
/// ra2.app.043.
pub(super) fn escalation(container: &Container<'_>, windows: bool, cx: &mut Context<'_>) {
    let who = container.describe();
    let setting = container.security.allow_privilege_escalation.as_ref();
    if let Some(node) = setting.map(|s| &s.node).filter(|n| n.as_bool() == Some(false)) {
        let mut reasons = Vec::new();
        if container.security.is_privileged() {
            reasons.push("privileged: true");
        }
        if adds_exact_cap_sys_admin(container) {
            reasons.push("capability CAP_SYS_ADMIN");
        }
        if !reasons.is_empty() {
            cx.report_with_help(
                "privileged-escalation-conflict",
                node,
                format!(
                    "{who} sets allowPrivilegeEscalation to false together with {}, which the API server rejects",
                    reasons.join(" and ")
                ),
                "Remove privileged and CAP_SYS_ADMIN and keep allowPrivilegeEscalation: false; the container cannot be both.",
            );
        }
        return;
    }
    if windows {
        return;
    }
    let (at, message) = match setting.map(|s| &s.node) {
        Some(node) if node.is_true() => (node.clone(), format!("{who} sets allowPrivilegeEscalation to true")),
        Some(node) => (
            node.clone(),
            format!(
                "{who} sets allowPrivilegeEscalation to the {} {}, not the boolean false",
                node.type_name(),
                node.source_text()
            ),
        ),
        None => (
            container
                .node
                .get("securityContext")
                .filter(Located::is_map)
                .unwrap_or_else(|| container.node.clone()),
            format!("{who} leaves allowPrivilegeEscalation unset, so its processes can gain privileges"),
        ),
    };
    let help = if container.security.is_privileged() {
        "A privileged container can always escalate, and the API server rejects allowPrivilegeEscalation: false beside privileged: true; remove privileged, then set it to false."
    } else if adds_sys_admin(container) {
        "CAP_SYS_ADMIN lets a process escalate whatever this setting says; remove the capability and set allowPrivilegeEscalation to false."
    } else {
        "Set allowPrivilegeEscalation: false in the container's securityContext."
    };
    if container.security.is_privileged() || adds_sys_admin(container) {
        cx.report_with_help("privilege-escalation", &at, message, help);
        return;
    }
    let patch = crate::report::fix::set(
        &container.node,
        &["securityContext", "allowPrivilegeEscalation"],
        false.into(),
    );
    cx.report_fixable("privilege-escalation", &at, message, Some(help.to_owned()), patch);
}

/// Every `capabilities.add` entry outside the Pod Security Standards baseline.
fn capabilities(container: &Container<'_>, cx: &mut Context<'_>) {
    for (name, node) in container.security.added_capabilities() {
        let capability = normalize_capability(name);
        if BASELINE_CAPABILITIES.contains(&capability.as_str()) {
            continue;
        }
        let who = container.describe();
        if capability == "ALL" {
            cx.report_with_help(
                "capabilities",
                &node,
                format!("{who} adds ALL capabilities"),
                "Add only the capabilities the process needs, by name, with capabilities.drop: [ALL] beside them.",
            );
        } else if DATA_PLANE_CAPABILITIES.contains(&capability.as_str()) {
            cx.report_with_help(
                "capabilities",
                &node,
                format!("{who} adds capability {name}"),
                format!("Data-plane CNFs often need {capability}: keep it only if the process uses it, with capabilities.drop: [ALL] beside it."),
            );
        } else {
            cx.report_with_help(
                "capabilities",
                &node,
                format!("{who} adds capability {name}"),
                format!("Remove {capability} unless the process cannot work without it, and keep capabilities.drop: [ALL] beside the ones you add."),
            );
        }
    }
}

const SECCOMP_HELP: &str =
    "Use seccompProfile type RuntimeDefault, or a Localhost profile that allows the system calls the process needs.";

/// A container's own `seccompProfile.type: Unconfined`.
fn container_seccomp(container: &Container<'_>, cx: &mut Context<'_>) {
    let Some(profile) = container.security.seccomp_profile.as_ref().filter(|s| !s.from_pod) else {
        return;
    };
    if let Some(kind) = unconfined(&profile.node) {
        let patch = crate::report::fix::set(
            &container.node,
            &["securityContext", "seccompProfile", "type"],
            "RuntimeDefault".into(),
        );
        cx.report_fixable(
            "seccomp-unconfined",
            &kind,
            format!(
                "{} runs without a seccomp filter (seccompProfile type Unconfined)",
                container.describe()
            ),
            Some(SECCOMP_HELP.to_owned()),
            patch,
        );
    }
}

/// The pod's `seccompProfile.type: Unconfined`, when some container inherits it.
fn pod_seccomp(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(kind) = pod
        .spec
        .path(&["securityContext", "seccompProfile"])
        .and_then(|p| unconfined(&p))
    else {
        return;
    };
    let inheritors: Vec<&str> = pod
        .workload_containers()
        .filter(|c| c.security.seccomp_profile.as_ref().is_some_and(|s| s.from_pod))
        .map(Container::describe)
        .collect();
    if inheritors.is_empty() {
        return;
    }
    let patch = crate::report::fix::set(
        &pod.spec,
        &["securityContext", "seccompProfile", "type"],
        "RuntimeDefault".into(),
    );
    cx.report_fixable(
        "seccomp-unconfined",
        &kind,
        format!(
            "pod seccompProfile type Unconfined leaves {} without a seccomp filter",
            inheritors.join(", ")
        ),
        Some(SECCOMP_HELP.to_owned()),
        patch,
    );
}

/// The `type` node of a seccomp profile, if it is `Unconfined`.
fn unconfined<'d>(profile: &Located<'d>) -> Option<Located<'d>> {
    profile.get("type").filter(|t| t.as_str() == Some("Unconfined"))
}

#[cfg(test)]
mod tests {
    use super::normalize_capability;

    #[test]
    fn capabilities_are_read_like_the_runtime_reads_them() {
        assert_eq!(normalize_capability("cap_net_admin"), "NET_ADMIN");
        assert_eq!(normalize_capability("CAP_CHOWN"), "CHOWN");
        assert_eq!(normalize_capability("sys_admin"), "SYS_ADMIN");
        assert_eq!(normalize_capability("all"), "ALL");
    }
}
