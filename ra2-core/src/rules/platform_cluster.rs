//! Platform checks over the whole cluster the input describes (RA2 ch.4 table 4-2): etcd
//! members (ra2.k8s.002), control-plane and worker nodes in every zone (ra2.k8s.003,
//! ra2.k8s.004), the control-plane services on each control-plane node (ra2.k8s.012), and the
//! kubelet's CPU and topology managers when network-intensive nodes or workloads exist
//! (ra2.k8s.006, ra2.k8s.009), a node for every network-intensive workload (ra2.k8s.011), and
//! the network stack's DaemonSets: a default CNI (ra2.ntw.002), a multiplexer for
//! NetworkAttachmentDefinitions (ra2.ntw.006) and the SR-IOV device plugin (ra2.ntw.008).
//!
//! These run after the whole input is read (nodes, pods and configuration files may come in any
//! order). A check that counts the cluster's parts runs only when the input describes those
//! parts: the member count only when the input has `Node` objects or kubeadm names external
//! etcd endpoints, the services check only when some control-plane pod says where it runs.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::bundle::Bundle;
use crate::model::platform::{Component, Stack};
use crate::model::profile::{NETWORK_INTENSIVE, PROFILE_LABEL};
use crate::model::{Object, PodSpec};
use crate::rules::{BundleContext, Checks, Target};

pub(super) static K8S002: Checks = Checks {
    bundle: Some(etcd),
    collect: Some(platform_facts),
    ..Checks::NONE
};

/// Records the platform facts of each object (see [`crate::model::platform::collect`]), which every
/// cluster-wide platform check (here and in `platform_stack`) reads: registered once, here.
fn platform_facts(bundle: &mut Bundle, target: Target<'_>, object: &Object<'_>, pod: Option<&PodSpec<'_>>) {
    crate::model::platform::collect(&mut bundle.platform, target, object, pod);
}

pub(super) static K8S003: Checks = Checks {
    bundle: Some(control_plane_zones),
    ..Checks::NONE
};

pub(super) static K8S004: Checks = Checks {
    bundle: Some(worker_zones),
    ..Checks::NONE
};

pub(super) static K8S006: Checks = Checks {
    bundle: Some(topology_manager),
    ..Checks::NONE
};

pub(super) static K8S009: Checks = Checks {
    bundle: Some(cpu_manager),
    ..Checks::NONE
};

pub(super) static K8S011: Checks = Checks {
    bundle: Some(no_host),
    ..Checks::NONE
};

pub(super) static NTW002: Checks = Checks {
    bundle: Some(default_network),
    ..Checks::NONE
};

pub(super) static NTW006: Checks = Checks {
    bundle: Some(multiplexer),
    ..Checks::NONE
};

pub(super) static NTW008: Checks = Checks {
    bundle: Some(sriov_device_plugin),
    ..Checks::NONE
};

pub(super) static K8S012: Checks = Checks {
    bundle: Some(services),
    ..Checks::NONE
};

/// etcd-members and etcd-on-worker.
fn etcd(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    let pods: Vec<_> = facts
        .components
        .iter()
        .filter(|c| c.component == Component::Etcd)
        .collect();
    for pod in &pods {
        let Some(node) = pod.node.as_deref().and_then(|n| facts.node(n)) else {
            continue;
        };
        if !node.control_plane {
            cx.report(
                "etcd-on-worker",
                &pod.place,
                format!(
                    "etcd runs on node {}, a worker (it has no node-role.kubernetes.io/control-plane label)",
                    node.name
                ),
            );
        }
    }
    for (count, place) in &facts.external_etcd {
        if ![3, 5, 7].contains(count) {
            cx.report(
                "etcd-members",
                place,
                format!(
                    "kubeadm names {count} external etcd endpoint(s); an etcd cluster of 3, 5 or 7 members is required"
                ),
            );
        }
    }
    if !facts.external_etcd.is_empty() || !facts.has_nodes() {
        return;
    }
    let Some(first) = pods.first() else {
        return;
    };
    let hosts: BTreeSet<&str> = pods.iter().filter_map(|p| p.node.as_deref()).collect();
    let members = hosts
        .len()
        .max(pods.iter().map(|p| p.initial_cluster.len()).max().unwrap_or(0));
    let members = if hosts.is_empty() {
        members.max(pods.len())
    } else {
        members
    };
    if ![3, 5, 7].contains(&members) {
        cx.report(
            "etcd-members",
            &first.place,
            format!(
                "the cluster runs {members} etcd member(s) ({}); RA2 requires 3, 5 or 7",
                if hosts.is_empty() {
                    "counted from the etcd pods and their --initial-cluster".to_owned()
                } else {
                    format!("on {}", hosts.into_iter().collect::<Vec<_>>().join(", "))
                }
            ),
        );
    }
}

/// The zones the nodes name, and for each whether it has a control-plane and a worker node.
fn zones(bundle: &Bundle) -> BTreeMap<&str, (bool, bool, &crate::model::bundle::Place)> {
    let mut zones: BTreeMap<&str, (bool, bool, &crate::model::bundle::Place)> = BTreeMap::new();
    for node in &bundle.platform.nodes {
        let (Some(zone), Some(place)) = (node.zone.as_deref(), node.zone_place.as_ref()) else {
            continue;
        };
        let entry = zones.entry(zone).or_insert((false, false, place));
        if node.control_plane {
            entry.0 = true;
        } else {
            entry.1 = true;
        }
    }
    zones
}

/// control-plane-zone: every zone with nodes has a control-plane node. Judged only when the
/// input shows control-plane nodes at all (a managed control plane shows none).
fn control_plane_zones(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    if !bundle.platform.nodes.iter().any(|n| n.control_plane) {
        return;
    }
    for (zone, (control_plane, _, place)) in zones(bundle) {
        if !control_plane {
            cx.report(
                "control-plane-zone",
                place,
                format!("zone {zone} has worker nodes but no control-plane node"),
            );
        }
    }
}

/// worker-zone: every zone with nodes has a worker node. Judged only when the input shows
/// worker nodes at all.
fn worker_zones(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    if !bundle.platform.nodes.iter().any(|n| !n.control_plane) {
        return;
    }
    for (zone, (_, worker, place)) in zones(bundle) {
        if !worker {
            cx.report(
                "worker-zone",
                place,
                format!("zone {zone} has control-plane nodes but no worker node"),
            );
        }
    }
}

/// control-plane-services: each control-plane node runs kube-apiserver, kube-scheduler and
/// kube-controller-manager. Judged only when some control-plane pod names its node.
fn services(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    let placed: Vec<_> = facts
        .components
        .iter()
        .filter(|c| c.component != Component::Etcd && c.node.is_some())
        .collect();
    if placed.is_empty() {
        return;
    }
    for node in facts.nodes.iter().filter(|n| n.control_plane) {
        let missing: Vec<&str> = [Component::ApiServer, Component::Scheduler, Component::ControllerManager]
            .into_iter()
            .filter(|component| {
                !placed
                    .iter()
                    .any(|c| c.component == *component && c.node.as_deref() == Some(node.name.as_str()))
            })
            .map(Component::binary)
            .collect();
        if !missing.is_empty() {
            cx.report_with_help(
                "control-plane-services",
                &node.place,
                format!("control-plane node {} runs no {} pod", node.name, missing.join(", no ")),
                "Run kube-apiserver, kube-scheduler and kube-controller-manager on every control-plane node (kubeadm places them as static pods in /etc/kubernetes/manifests).",
            );
        }
    }
}

/// What makes the cluster host network-intensive workloads: a node labelled for them, else a
/// network-intensive workload in the input.
fn network_intensive_reason(bundle: &Bundle) -> Option<String> {
    network_intensive_site(bundle).map(|(reason, _)| reason)
}

/// [`network_intensive_reason`], and where it is written (the node's name, or the workload's
/// signal).
pub(crate) fn network_intensive_site(bundle: &Bundle) -> Option<(String, &crate::model::bundle::Place)> {
    if let Some(node) = bundle.platform.nodes.iter().find(|n| n.network_intensive()) {
        return Some((
            format!("node {} is labelled {PROFILE_LABEL}: {NETWORK_INTENSIVE}", node.name),
            &node.place,
        ));
    }
    bundle
        .workloads
        .iter()
        .find_map(|w| crate::model::profile::resolve(w, bundle))
        .map(|(signal, place)| (format!("the input has a network-intensive workload ({signal})"), place))
}

/// kubelet-topology-manager: with network-intensive nodes or workloads, some kubelet
/// configuration of the input enables the topology manager (and keeps its gates on).
fn topology_manager(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let kubelets = &bundle.platform.kubelets;
    if kubelets.iter().any(|k| k.topology_manager && k.gate_off.is_none()) {
        return;
    }
    let Some(reason) = network_intensive_reason(bundle) else {
        return;
    };
    for kubelet in kubelets {
        let message = match &kubelet.gate_off {
            Some(gate) => format!("this kubelet configuration turns the {gate} feature gate off, but {reason}"),
            None => format!(
                "this kubelet configuration leaves the topology manager policy at none, but {reason}: set topologyManagerPolicy (single-numa-node)"
            ),
        };
        cx.report("kubelet-topology-manager", &kubelet.topology_place, message);
    }
}

/// kubelet-cpu-manager: with network-intensive nodes or workloads, some kubelet configuration
/// of the input sets the static CPU manager policy.
fn cpu_manager(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let kubelets = &bundle.platform.kubelets;
    if kubelets.iter().any(|k| k.cpu_manager_static) {
        return;
    }
    let Some(reason) = network_intensive_reason(bundle) else {
        return;
    };
    for kubelet in kubelets {
        cx.report_with_help(
            "kubelet-cpu-manager",
            &kubelet.cpu_place,
            format!("this kubelet configuration does not set cpuManagerPolicy: static, but {reason}, and pinned CPUs need it"),
            "Set cpuManagerPolicy: static (with reservedSystemCPUs) in the kubelet configuration of the network-intensive nodes, then drain the node, remove /var/lib/kubelet/cpu_manager_state and restart the kubelet.",
        );
    }
}

/// no-host: the input describes the cluster's nodes, none of them is labelled
/// network-intensive, and a workload is network-intensive: nothing can host it.
fn no_host(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let nodes = &bundle.platform.nodes;
    if nodes.is_empty() || nodes.iter().any(crate::model::platform::NodeFact::network_intensive) {
        return;
    }
    for workload in &bundle.workloads {
        let Some((signal, place)) = crate::model::profile::resolve(workload, bundle) else {
            continue;
        };
        cx.report(
            "no-host",
            place,
            format!(
                "{signal}, so the workload is network-intensive, but none of the {} nodes of the input is labelled {PROFILE_LABEL}: {NETWORK_INTENSIVE}",
                nodes.len()
            ),
        );
    }
}

/// default-network: the input shows the cluster's DaemonSets and none runs a known CNI plugin
/// for the default pod network.
fn default_network(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    if !facts.shows_stack() || facts.runs(Stack::DefaultCni) {
        return;
    }
    let Some(first) = facts.daemonsets.first() else { return };
    cx.report(
        "default-network",
        &first.place,
        format!(
            "no DaemonSet of the input ({} in all) runs a CNI plugin ra2 knows for the default pod network (Calico, Cilium, Flannel, Weave Net, Kube-OVN, Antrea, OVN-Kubernetes, kube-router)",
            facts.daemonsets.len()
        ),
    );
}

/// multiplexer: NetworkAttachmentDefinitions exist, the input shows the cluster's DaemonSets,
/// and none runs a multiplexer (Multus, DANM) to attach them.
fn multiplexer(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    if !facts.shows_stack() || facts.runs(Stack::Multiplexer) {
        return;
    }
    let Some(first) = facts.nads.first() else { return };
    cx.report_with_help(
        "multiplexer",
        &first.place,
        format!(
            "the NetworkAttachmentDefinition {} defines a secondary network, but no DaemonSet of the input ({} in all) runs a multiplexer (Multus, DANM) that attaches it",
            first.name,
            facts.daemonsets.len()
        ),
        "Deploy a multiplexer such as Multus (its DaemonSet kube-multus-ds) so that pods can attach to the NetworkAttachmentDefinitions.",
    );
}

/// device-plugin: SR-IOV networks exist (a NetworkAttachmentDefinition of CNI type sriov), the
/// input shows the cluster's DaemonSets, and none runs the SR-IOV network device plugin.
fn sriov_device_plugin(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let facts = &bundle.platform;
    if !facts.shows_stack() || facts.runs(Stack::SriovDevicePlugin) {
        return;
    }
    for nad in facts.nads.iter().filter(|n| n.sriov) {
        cx.report_with_help(
            "device-plugin",
            &nad.place,
            format!(
                "the NetworkAttachmentDefinition {} is an SR-IOV network, but no DaemonSet of the input ({} in all) runs the SR-IOV network device plugin, so no node advertises its virtual functions",
                nad.name,
                facts.daemonsets.len()
            ),
            "Deploy the SR-IOV network device plugin (sriov-network-device-plugin DaemonSet and its ConfigMap) so that nodes advertise the virtual functions as extended resources.",
        );
    }
}
