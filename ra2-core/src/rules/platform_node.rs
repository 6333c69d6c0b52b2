//! Platform checks on one `Node` at a time (RA2 ch.4 tables 4-1, 4-2 and 4-3), read from the
//! node's labels and `status` as `kubectl get nodes -o yaml` prints them: huge pages on
//! network-intensive nodes (ra2.ch.001), disk and memory (ra2.ch.010, ra2.ch.012), NFD labels
//! (ra2.ch.018), the kubelet version (ra2.k8s.005), reservations (ra2.k8s.008), the profile
//! label on workers (ra2.k8s.011) and the container runtime (ra2.crt.001, ra2.crt.002).
//!
//! A node without `status` (a manifest written by hand) is judged only on what it has: the
//! capacity checks need `status.capacity`, the runtime checks `status.nodeInfo`.

use crate::k8s::names::{ResourceName, classify_resource_name};
use crate::k8s::quantity::Quantity;
use crate::model::Object;
use crate::model::platform::{is_control_plane, is_node, node_quantity};
use crate::model::profile::{NETWORK_INTENSIVE, PROFILE_LABEL};
use crate::rules::{Checks, Context};
use crate::telco::nfd::{KeyClass, classify_key};

pub(super) static CH001: Checks = Checks {
    object: Some(hugepages),
    ..Checks::NONE
};

pub(super) static CH010: Checks = Checks {
    object: Some(ephemeral_storage),
    ..Checks::NONE
};

pub(super) static CH012: Checks = Checks {
    object: Some(memory),
    ..Checks::NONE
};

pub(super) static CH018: Checks = Checks {
    object: Some(nfd_labels),
    ..Checks::NONE
};

pub(super) static K8S005: Checks = Checks {
    object: Some(version),
    params: Some(super::params::decoder::<super::platform_control::VersionParams>),
    ..Checks::NONE
};

pub(super) static K8S008: Checks = Checks {
    object: Some(reservations),
    ..Checks::NONE
};

pub(super) static K8S011: Checks = Checks {
    object: Some(worker_label),
    ..Checks::NONE
};

pub(super) static CRT001: Checks = Checks {
    object: Some(oci_runtime),
    ..Checks::NONE
};

pub(super) static CRT002: Checks = Checks {
    object: Some(cri_runtime),
    ..Checks::NONE
};

/// 320 GB, the local filesystem ra2.ch.010 asks for (decimal gigabytes, as the RA2 text writes).
const MIN_EPHEMERAL_STORAGE: i128 = 320_000_000_000;

/// 32 GB of RAM (ra2.ch.012).
const MIN_MEMORY: i128 = 32_000_000_000;

fn gb(bytes: i128) -> String {
    let tenths = bytes / 100_000_000;
    format!("{}.{} GB", tenths / 10, tenths % 10)
}

/// node-hugepages: a node labelled network-intensive exposes allocatable huge pages.
fn hugepages(object: &Object<'_>, cx: &mut Context<'_>) {
    if !is_node(object) {
        return;
    }
    let Some(label) = object
        .label(PROFILE_LABEL)
        .filter(|l| l.as_str() == Some(NETWORK_INTENSIVE))
    else {
        return;
    };
    let Some(allocatable) = object.root.path(&["status", "allocatable"]) else {
        return;
    };
    let pages: Vec<(&str, bool)> = allocatable
        .entries()
        .filter(|(k, _)| matches!(classify_resource_name(k), ResourceName::HugePages { .. }))
        .map(|(k, v)| {
            let nonzero = v
                .scalar_text()
                .and_then(|t| Quantity::parse(&t).ok())
                .is_some_and(|q| !q.is_zero() && !q.is_negative());
            (k, nonzero)
        })
        .collect();
    if pages.iter().any(|(_, nonzero)| *nonzero) {
        return;
    }
    let listed = if pages.is_empty() {
        "no hugepages-<size> resource".to_owned()
    } else {
        let names: Vec<&str> = pages.iter().map(|(k, _)| *k).collect();
        format!("{} at 0", names.join(" and "))
    };
    cx.report_with_help(
        "node-hugepages",
        &label,
        format!(
            "node {} is labelled {PROFILE_LABEL}: {NETWORK_INTENSIVE} but its allocatable resources list {listed}, so no pod that requests huge pages can run on it",
            object.name.unwrap_or_default()
        ),
        "Reserve huge pages on the node (for example the kernel parameters default_hugepagesz=1G hugepagesz=1G hugepages=16, or vm.nr_hugepages for 2Mi pages) and restart the kubelet, so that it exposes hugepages-1Gi or hugepages-2Mi; or remove the network-intensive label.",
    );
}

/// node-ephemeral-storage: the node's local filesystem capacity is at least 320 GB.
fn ephemeral_storage(object: &Object<'_>, cx: &mut Context<'_>) {
    minimum(
        object,
        cx,
        "ephemeral-storage",
        MIN_EPHEMERAL_STORAGE,
        "node-ephemeral-storage",
        "local filesystem",
    );
}

/// node-memory: the node has at least 32 GB of RAM.
fn memory(object: &Object<'_>, cx: &mut Context<'_>) {
    minimum(object, cx, "memory", MIN_MEMORY, "node-memory", "memory");
}

fn minimum(object: &Object<'_>, cx: &mut Context<'_>, resource: &str, min: i128, check: &'static str, what: &str) {
    if !is_node(object) {
        return;
    }
    let Some((quantity, at)) = node_quantity(object, "capacity", resource) else {
        return;
    };
    let bytes = quantity.value();
    if bytes >= min {
        return;
    }
    cx.report(
        check,
        &at,
        format!(
            "node {} has {} ({}) of {what} capacity, less than the {} RA2 requires",
            object.name.unwrap_or_default(),
            at.source_text().trim_matches('"'),
            gb(bytes),
            gb(min)
        ),
    );
}

/// node-nfd-labels: Node Feature Discovery has labelled the node.
fn nfd_labels(object: &Object<'_>, cx: &mut Context<'_>) {
    if !is_node(object) {
        return;
    }
    let labels = object.metadata().and_then(|m| m.get("labels"));
    let has_nfd = labels
        .as_ref()
        .is_some_and(|l| l.entries().any(|(k, _)| classify_key(k, &[], &[]) == KeyClass::Nfd));
    if has_nfd {
        return;
    }
    let at = labels
        .or_else(|| object.metadata())
        .unwrap_or_else(|| object.root.clone());
    cx.report(
        "node-nfd-labels",
        &at,
        format!(
            "node {} carries no Node Feature Discovery label (feature.node.kubernetes.io/...), so NFD does not advertise its capabilities",
            object.name.unwrap_or_default()
        ),
    );
}

/// node-version: the kubelet's minor version lies in the supported window, from
/// `kubernetes-version` minus `skew` to `kubernetes-version`.
fn version(object: &Object<'_>, cx: &mut Context<'_>) {
    if !is_node(object) {
        return;
    }
    let Some(at) = object.root.path(&["status", "nodeInfo", "kubeletVersion"]) else {
        return;
    };
    let Some(text) = at.as_str() else { return };
    let what = format!("node {} runs kubelet", object.name.unwrap_or_default());
    super::platform_control::window(cx, "node-version", &at, text, &what);
}

/// node-reservations: allocatable CPU is below capacity, so some CPU is reserved for the
/// system and Kubernetes daemons (`reservedSystemCPUs`, `systemReserved` or `kubeReserved`).
fn reservations(object: &Object<'_>, cx: &mut Context<'_>) {
    if object.is(crate::model::platform::KUBELET_GROUP, "KubeletConfiguration") {
        kubelet_reservations(object, cx);
        return;
    }
    if !is_node(object) {
        return;
    }
    let (Some((capacity, capacity_at)), Some((allocatable, at))) = (
        node_quantity(object, "capacity", "cpu"),
        node_quantity(object, "allocatable", "cpu"),
    ) else {
        return;
    };
    if allocatable.milli_value() < capacity.milli_value() {
        return;
    }
    cx.report(
        "node-reservations",
        &at,
        format!(
            "node {} has all of its CPUs allocatable ({} of a capacity of {}), so none is reserved for the system and Kubernetes daemons",
            object.name.unwrap_or_default(),
            at.source_text().trim_matches('"'),
            capacity_at.source_text().trim_matches('"')
        ),
    );
}

/// kubelet-reservations: a `KubeletConfiguration` reserves CPUs or resources for the system
/// and Kubernetes daemons (`reservedSystemCPUs`, `systemReserved`, `kubeReserved`).
fn kubelet_reservations(object: &Object<'_>, cx: &mut Context<'_>) {
    let set = |key: &str| {
        object
            .root
            .get(key)
            .is_some_and(|v| v.as_str().is_some_and(|s| !s.is_empty()) || v.entries().next().is_some())
    };
    if ["reservedSystemCPUs", "systemReserved", "kubeReserved"]
        .into_iter()
        .any(set)
    {
        return;
    }
    cx.report(
        "kubelet-reservations",
        &object.root.get("kind").unwrap_or_else(|| object.root.clone()),
        "this kubelet configuration sets none of reservedSystemCPUs, systemReserved and kubeReserved, so every CPU and all memory is allocatable to pods",
    );
}

/// worker-label: a worker node carries `anuket.io/profile`.
fn worker_label(object: &Object<'_>, cx: &mut Context<'_>) {
    if !is_node(object) || is_control_plane(object) || object.label(PROFILE_LABEL).is_some() {
        return;
    }
    let at = object
        .metadata()
        .and_then(|m| m.get("labels").or_else(|| m.get("name")).or(Some(m)))
        .unwrap_or_else(|| object.root.clone());
    cx.report(
        "worker-label",
        &at,
        format!(
            "worker node {} has no {PROFILE_LABEL} label, so it says neither that it meets the basic profile nor the {NETWORK_INTENSIVE} one",
            object.name.unwrap_or_default()
        ),
    );
}

/// Container runtimes by the scheme of `containerRuntimeVersion`: (scheme, implements CRI
/// itself, runs OCI runtimes, note).
const RUNTIMES: &[(&str, bool, bool, &str)] = &[
    ("containerd", true, true, "containerd"),
    ("cri-o", true, true, "CRI-O"),
    (
        "docker",
        false,
        true,
        "Docker Engine, reached through the cri-dockerd adapter",
    ),
];

fn runtime<'d>(object: &Object<'d>) -> Option<(&'d str, crate::parse::view::Located<'d>)> {
    if !is_node(object) {
        return None;
    }
    let at = object.root.path(&["status", "nodeInfo", "containerRuntimeVersion"])?;
    let scheme = at.as_str()?.split_once("://").map_or("", |(s, _)| s);
    Some((scheme, at))
}

/// node-runtime (ra2.crt.001): the runtime is one known to run containers through an OCI 1.0
/// runtime (runc, crun, kata-runtime, ...).
fn oci_runtime(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some((scheme, at)) = runtime(object) else { return };
    if RUNTIMES.iter().any(|(s, _, oci, _)| *s == scheme && *oci) {
        return;
    }
    cx.report(
        "node-runtime",
        &at,
        format!(
            "node {} runs container runtime {}, which ra2 does not know to implement the OCI 1.0 runtime specification (containerd and CRI-O do)",
            object.name.unwrap_or_default(),
            at.source_text()
        ),
    );
}

/// node-runtime (ra2.crt.002): the runtime implements the CRI itself.
fn cri_runtime(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some((scheme, at)) = runtime(object) else { return };
    let name = object.name.unwrap_or_default();
    match RUNTIMES.iter().find(|(s, ..)| *s == scheme) {
        Some((_, true, ..)) => {}
        Some((_, false, _, note)) => cx.report(
            "node-runtime",
            &at,
            format!(
                "node {name} runs {note}: Docker Engine does not implement the Kubernetes CRI; an adapter translates"
            ),
        ),
        None => cx.report(
            "node-runtime",
            &at,
            format!(
                "node {name} runs container runtime {}, which is not a known CRI runtime (containerd, CRI-O)",
                at.source_text()
            ),
        ),
    }
}
