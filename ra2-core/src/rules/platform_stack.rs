//! Platform checks on the network, device and storage stack the input shows (RA2 ch.4 tables 4-4
//! and 4-6): user-plane CNI plugins when network-intensive nodes or workloads exist
//! (ra2.ntw.010), a device plugin for every device a workload requests (ra2.ntw.012), the
//! daemon of the cluster-wide IPAM plugin that NetworkAttachmentDefinitions name (ra2.ntw.015),
//! and CSI drivers registered for the storage classes (ra2.stg.006).
//!
//! Like the other cluster-wide checks, each runs only when the input describes the part of the
//! cluster it judges: `Node` objects and DaemonSets for the network stack, `Node` objects for
//! devices, `Node` objects and StorageClasses for storage. A manifest directory of workloads
//! alone is never judged by them.

use crate::model::bundle::Bundle;
use crate::model::platform::{IPAM_DAEMONS, Stack};
use crate::rules::{BundleContext, Checks};

pub(super) static NTW010: Checks = Checks {
    bundle: Some(user_plane),
    ..Checks::NONE
};

pub(super) static NTW012: Checks = Checks {
    bundle: Some(device_plugins),
    ..Checks::NONE
};

pub(super) static NTW015: Checks = Checks {
    bundle: Some(ipam_daemons),
    ..Checks::NONE
};

pub(super) static STG006: Checks = Checks {
    bundle: Some(csi_drivers),
    ..Checks::NONE
};

/// user-plane-cni: network-intensive nodes or workloads exist, the input shows the cluster's
/// DaemonSets, none runs a user-plane CNI plugin, and no NetworkAttachmentDefinition configures
/// one (whose binary may have been installed on the hosts).
fn user_plane(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    if !facts.shows_stack() || facts.runs(Stack::UserPlaneCni) || facts.nads.iter().any(|n| n.user_plane) {
        return;
    }
    let Some((reason, place)) = super::platform_cluster::network_intensive_site(bundle) else {
        return;
    };
    cx.report_with_help(
        "user-plane-cni",
        place,
        format!(
            "{reason}, but no DaemonSet of the input ({} in all) runs a user-plane CNI plugin (SR-IOV CNI, userspace CNI for DPDK or VPP, Calico/VPP) and no NetworkAttachmentDefinition configures one",
            facts.daemonsets.len()
        ),
        "Deploy a CNI plugin for the fast path, such as the SR-IOV CNI (kube-sriov-cni-ds) or the userspace CNI, and define its networks with NetworkAttachmentDefinitions; if the plugin is installed on the hosts, a NetworkAttachmentDefinition of its type shows it.",
    );
}

/// no-device-plugin: a container requests an extended resource and none of the input's nodes
/// has it allocatable.
fn device_plugins(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    if !facts.has_nodes() || facts.resource_requests.is_empty() {
        return;
    }
    // Once for the cluster, not once per request: a dump has thousands of each.
    let advertised: std::collections::BTreeSet<&str> = facts
        .nodes
        .iter()
        .flat_map(|n| n.allocatable.iter().filter(|(_, v)| **v > 0).map(|(k, _)| k.as_str()))
        .collect();
    for request in &facts.resource_requests {
        if advertised.contains(request.resource.as_str()) {
            continue;
        }
        cx.report_with_help(
            "no-device-plugin",
            &request.place,
            format!(
                "{} requests {}, but none of the {} nodes of the input has it allocatable: no device plugin advertises it",
                request.who,
                request.resource,
                facts.nodes.len()
            ),
            "Deploy the device plugin for this hardware (for example the SR-IOV network device plugin with a resource of this name in its ConfigMap) on the nodes that have it, or request the resource name the plugin advertises.",
        );
    }
}

/// ipam-not-deployed: a NetworkAttachmentDefinition names a cluster-wide IPAM plugin that needs
/// its own daemon, the input shows the cluster's DaemonSets, and none runs it.
fn ipam_daemons(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    if !facts.shows_stack() {
        return;
    }
    for nad in &facts.nads {
        for ipam in &nad.ipam {
            let Some((kind, deployment)) = IPAM_DAEMONS.iter().find(|(k, _)| k == ipam) else {
                continue;
            };
            if facts.runs(Stack::Ipam(kind)) {
                continue;
            }
            cx.report_with_help(
                "ipam-not-deployed",
                &nad.config_place,
                format!(
                    "the NetworkAttachmentDefinition {} takes its addresses from the {kind} IPAM plugin, but no DaemonSet of the input ({} in all) runs it",
                    nad.name,
                    facts.daemonsets.len()
                ),
                &format!("Deploy {deployment} on every node that attaches this network, so the plugin can allocate addresses across the cluster."),
            );
            break;
        }
    }
}

/// no-csi-driver and unregistered-driver: judged when the input describes nodes and storage
/// classes.
fn csi_drivers(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    if !facts.has_nodes() {
        return;
    }
    let Some(first) = facts.storage_classes.first() else {
        return;
    };
    if facts.csi_drivers.is_empty() {
        cx.report_with_help(
            "no-csi-driver",
            &first.place,
            format!(
                "the cluster registers no CSIDriver object, so none of its {} storage classes provisions through a CSI driver that Kubernetes knows",
                facts.storage_classes.len()
            ),
            "Install the storage backend's CSI driver (its deployment registers a CSIDriver object) and provision volumes through a StorageClass that names it; when dumping a cluster for ra2 lint, include csidrivers.",
        );
        return;
    }
    for class in &facts.storage_classes {
        let provisioner = class.provisioner.as_str();
        if crate::model::storage::is_in_tree_provisioner(provisioner)
            || provisioner == "kubernetes.io/no-provisioner"
            || facts.csi_drivers.iter().any(|d| d == provisioner)
        {
            continue;
        }
        cx.report(
            "unregistered-driver",
            &class.place,
            format!(
                "storage class {} provisions through {provisioner}, but no CSIDriver object of that name is registered (the cluster registers {}): the driver is missing, or the provisioner is not a CSI driver",
                class.name,
                facts.csi_drivers.join(", ")
            ),
        );
    }
}
