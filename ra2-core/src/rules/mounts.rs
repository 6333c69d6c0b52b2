//! ra2.app.002: container mounts (OCI `mounts`) name declared volumes, stay inside them, do not
//! propagate back to the node unprivileged, and leave /proc, /sys and /dev to the runtime.

use crate::model::{Container, Object, PodSpec, WorkloadKind};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    // An object rule rather than a pod rule: a StatefulSet's volumeClaimTemplates, outside the
    // pod spec, declare volumes too.
    object: Some(check_object),
    ..Checks::NONE
};

/// The kernel interfaces the container runtime sets up itself.
const SYSTEM_PATHS: [&str; 3] = ["proc", "sys", "dev"];

fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(pod) = object.pod_spec() else { return };
    let declared = declared_volumes(object, pod.volumes());
    let stateful_set = pod.workload == WorkloadKind::StatefulSet;
    for container in pod.containers() {
        let mounts = list(container, "volumeMounts");
        let devices = list(container, "volumeDevices");
        for (item, usage) in mounts
            .iter()
            .map(|m| (m, Use::Mount))
            .chain(devices.iter().map(|d| (d, Use::Device)))
        {
            check_declared(container, item, usage, &declared, stateful_set, cx);
        }
        check_unique_paths(container, &mounts, &devices, cx);
        for mount in &mounts {
            check_sub_path(container, mount, cx);
            check_propagation(container, mount, cx);
            check_system_path(container, mount, pod, cx);
        }
        check_proc_mount(container, cx);
    }
}

/// The names of the pod's volumes and, for a `StatefulSet`, of its `volumeClaimTemplates`.
fn declared_volumes<'d>(object: &Object<'d>, volumes: impl Iterator<Item = Located<'d>>) -> Vec<&'d str> {
    let mut names: Vec<&'d str> = volumes.filter_map(|v| v.str_at("name")).collect();
    if object.workload_kind() == Some(WorkloadKind::StatefulSet) {
        if let Some(templates) = object.root.path(&["spec", "volumeClaimTemplates"]) {
            names.extend(
                templates
                    .items()
                    .filter_map(|t| t.path(&["metadata", "name"])?.as_str()),
            );
        }
    }
    names
}

/// A container's `volumeMounts` or `volumeDevices` entries.
fn list<'d>(container: &Container<'d>, key: &str) -> Vec<Located<'d>> {
    container
        .node
        .get(key)
        .map(|l| l.items().filter(Located::is_map).collect())
        .unwrap_or_default()
}

fn volume_name<'d>(item: &Located<'d>) -> &'d str {
    item.str_at("name").unwrap_or("?")
}

/// How a container uses a volume: `volumeMounts` or `volumeDevices`.
#[derive(Clone, Copy)]
enum Use {
    Mount,
    Device,
}

/// A mount or device must name a volume the pod declares.
fn check_declared(
    container: &Container<'_>,
    item: &Located<'_>,
    usage: Use,
    declared: &[&str],
    stateful_set: bool,
    cx: &mut Context<'_>,
) {
    let Some(name) = item.str_at("name") else { return };
    if declared.contains(&name) {
        return;
    }
    let Some(name_node) = item.get("name") else { return };
    let help = if stateful_set {
        format!(
            "Declare a volume named {name:?} in the pod template's volumes, or a volumeClaimTemplate with that name."
        )
    } else {
        format!("Declare a volume named {name:?} in the pod's volumes.")
    };
    let message = match usage {
        Use::Mount => format!(
            "{} mounts volume {name:?}, which the pod does not declare",
            container.describe()
        ),
        Use::Device => format!(
            "{} attaches volume {name:?} as a block device, but the pod does not declare it",
            container.describe()
        ),
    };
    cx.report_with_help("undeclared-volume", &name_node, message, help);
}

/// No two mounts of one container at the same path, and no mount at one of its device paths.
/// Paths compare as written, as the API server compares them.
fn check_unique_paths(
    container: &Container<'_>,
    mounts: &[Located<'_>],
    devices: &[Located<'_>],
    cx: &mut Context<'_>,
) {
    let device_paths: Vec<(&str, &str)> = devices
        .iter()
        .filter_map(|d| Some((d.str_at("devicePath")?, volume_name(d))))
        .collect();
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for mount in mounts {
        // The node is looked up only for a report.
        let Some(path) = mount.str_at("mountPath") else {
            continue;
        };
        let path_node = || mount.get("mountPath");
        let name = volume_name(mount);
        if let Some((_, earlier)) = seen.iter().find(|(p, _)| *p == path) {
            let Some(path_node) = path_node() else { continue };
            cx.report(
                "duplicate-mount-path",
                &path_node,
                format!(
                    "{} mounts volume {name:?} at {path}, where it already mounts volume {earlier:?}",
                    container.describe()
                ),
            );
        } else if let Some((_, device)) = device_paths.iter().find(|(p, _)| *p == path) {
            let Some(path_node) = path_node() else { continue };
            cx.report(
                "duplicate-mount-path",
                &path_node,
                format!(
                    "{} mounts volume {name:?} at {path}, which is the device path of volume {device:?}",
                    container.describe()
                ),
            );
        }
        seen.push((path, name));
    }
}

/// `subPath` and `subPathExpr` must be relative and must not climb out through a `..` element.
fn check_sub_path(container: &Container<'_>, mount: &Located<'_>, cx: &mut Context<'_>) {
    for key in ["subPath", "subPathExpr"] {
        let Some(sub_path) = mount.str_at(key) else { continue };
        let problem = if sub_path.starts_with('/') {
            "is absolute"
        } else if climbs_out(sub_path) {
            "climbs out of the volume"
        } else {
            continue;
        };
        let Some(node) = mount.get(key) else { continue };
        cx.report(
            "subpath",
            &node,
            format!(
                "{} mounts volume {:?} with {key} {sub_path}, which {problem}",
                container.describe(),
                volume_name(mount)
            ),
        );
    }
}

/// The API server rejects a `..` path element; `..data` or `a..b` are ordinary names.
fn climbs_out(sub_path: &str) -> bool {
    sub_path.split('/').any(|element| element == "..")
}

/// Only a container that is itself privileged may propagate mounts back to the node.
fn check_propagation(container: &Container<'_>, mount: &Located<'_>, cx: &mut Context<'_>) {
    if mount.str_at("mountPropagation") != Some("Bidirectional") || container.security.is_privileged() {
        return;
    }
    let Some(node) = mount.get("mountPropagation") else {
        return;
    };
    cx.report(
        "bidirectional-propagation",
        &node,
        format!(
            "{} mounts volume {:?} with Bidirectional propagation but is not privileged",
            container.describe(),
            volume_name(mount)
        ),
    );
}

/// A mount at or below /proc, /sys or /dev replaces what the runtime put there. The two
/// documented memory-backed exceptions pass: a `medium: Memory` emptyDir at /dev/shm (how
/// Kubernetes sizes shared memory) and a huge-page emptyDir at /dev/hugepages.
fn check_system_path(container: &Container<'_>, mount: &Located<'_>, pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(path) = mount.str_at("mountPath") else { return };
    let cleaned = runtime_path(path);
    let Some(top) = system_root(&cleaned) else { return };
    let Some(node) = mount.get("mountPath") else { return };
    let medium = pod
        .volumes()
        .find(|v| v.str_at("name") == mount.str_at("name"))
        .and_then(|v| v.get("emptyDir"))
        .map(|e| e.str_at("medium").unwrap_or_default());
    let memory_backed = match (&*cleaned, medium) {
        ("/dev/shm", Some("Memory")) => true,
        ("/dev/hugepages", Some(m)) => m.starts_with("HugePages"),
        _ => false,
    };
    if memory_backed {
        return;
    }
    let at = if cleaned == path {
        path.to_owned()
    } else {
        format!("{path} (that is {cleaned})")
    };
    let place = if cleaned.len() == top.len() + 1 {
        "over"
    } else {
        "inside"
    };
    cx.report(
        "host-system-path",
        &node,
        format!(
            "{} mounts volume {:?} at {at}, {place} the runtime-managed /{top}",
            container.describe(),
            volume_name(mount)
        ),
    );
}

/// The path the runtime mounts at: the kubelet makes a relative `mountPath` absolute by
/// prefixing `/` (`MakeAbsolutePath`), and repeated slashes, `.` and `..` resolve as in Go's
/// `path.Clean` for a rooted path.
pub(super) fn runtime_path(path: &str) -> std::borrow::Cow<'_, str> {
    // Most paths are clean already (rooted, no empty, `.` or `..` element, no trailing slash).
    let clean = path == "/"
        || path
            .strip_prefix('/')
            .is_some_and(|rest| rest.split('/').all(|element| !matches!(element, "" | "." | "..")));
    if clean {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut elements: Vec<&str> = Vec::new();
    for element in path.split('/') {
        match element {
            "" | "." => {}
            ".." => {
                elements.pop();
            }
            other => elements.push(other),
        }
    }
    std::borrow::Cow::Owned(format!("/{}", elements.join("/")))
}

/// The system directory a cleaned absolute path is, or lies below, compared by element.
fn system_root(cleaned: &str) -> Option<&'static str> {
    let first = cleaned.trim_start_matches('/').split('/').next()?;
    SYSTEM_PATHS.into_iter().find(|top| *top == first)
}

fn check_proc_mount(container: &Container<'_>, cx: &mut Context<'_>) {
    let Some(setting) = &container.security.proc_mount else {
        return;
    };
    if setting.node.as_str() == Some("Unmasked") {
        cx.report(
            "unmasked-proc",
            &setting.node,
            format!(
                "{} sets procMount to Unmasked, so the runtime does not mask sensitive /proc paths",
                container.describe()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_paths_are_rooted_and_cleaned() {
        assert_eq!(runtime_path("/dev/shm"), "/dev/shm");
        assert_eq!(runtime_path("//dev//shm/"), "/dev/shm");
        assert_eq!(runtime_path("/var/../proc/./x"), "/proc/x");
        assert_eq!(runtime_path("/../../sys"), "/sys");
        assert_eq!(runtime_path("dev/shm"), "/dev/shm");
        assert_eq!(runtime_path("/"), "/");
        assert_eq!(runtime_path("/var/log/x"), "/var/log/x");
        assert_eq!(runtime_path("/var/log/"), "/var/log");
        assert_eq!(runtime_path("/var/.hidden/..x/"), "/var/.hidden/..x");
        assert_eq!(runtime_path("///"), "/");
        assert_eq!(runtime_path(""), "/");
        assert_eq!(runtime_path("."), "/");
    }

    #[test]
    fn system_paths_match_whole_elements() {
        assert_eq!(system_root("/proc"), Some("proc"));
        assert_eq!(system_root("/sys/fs/cgroup"), Some("sys"));
        assert_eq!(system_root("/dev/shm"), Some("dev"));
        assert_eq!(system_root("/devices"), None);
        assert_eq!(system_root("/sysconfig"), None);
        assert_eq!(system_root("/var/dev"), None);
        assert_eq!(system_root("/"), None);
    }

    #[test]
    fn only_a_dotdot_element_climbs_out() {
        assert!(climbs_out(".."));
        assert!(climbs_out("../etc"));
        assert!(climbs_out("a/../../b"));
        assert!(climbs_out("a/.."));
        assert!(!climbs_out("..data"));
        assert!(!climbs_out("a..b"));
        assert!(!climbs_out("devices/..index"));
        assert!(!climbs_out(""));
    }
}
