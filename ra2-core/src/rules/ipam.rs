//! ra2.ntw.015: secondary networks take their addresses from an IPAM plugin that allocates across
//! all nodes of the cluster.

use serde_json::Value;

use crate::model::Object;
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context};
use crate::telco::nad;

pub(super) static RULE: Checks = Checks {
    object: Some(check),
    params: Some(super::params::decoder::<Params>),
    ..Checks::NONE
};

/// The IPAM plugins that manage addresses cluster-wide.
#[derive(Clone, Debug)]
struct Params {
    cluster_wide_ipam: Vec<String>,
}

impl RuleParams for Params {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Params {
            cluster_wide_ipam: params.list("cluster_wide_ipam"),
        }
    }
}

/// The node-local allocator: every node hands out the same range on its own.
const NODE_LOCAL: &str = "host-local";

/// Pod-network plugins that address their interfaces themselves (through a delegate or their
/// own daemon) rather than through an `ipam` section.
const SELF_ADDRESSING: &[&str] = &[
    "flannel",
    "calico",
    "cilium-cni",
    "antrea",
    "weave-net",
    "ovn-k8s-cni-overlay",
    "kube-ovn",
];

fn check(object: &Object<'_>, cx: &mut Context<'_>) {
    if object.is(nad::SRIOV_NETWORK_GROUP, nad::SRIOV_NETWORK_KIND) {
        check_sriov_network(object, cx);
        return;
    }
    if !object.is_nad() {
        return;
    }
    let Some(config) = object.nad_config() else { return };
    let plugins = config.plugins();
    // A config without a plugin that can run is ra2.ntw.006/016's finding.
    if !plugins.iter().any(|p| p.plugin_type().is_some()) {
        return;
    }
    let mut managed = false;
    for plugin in &plugins {
        let Some(ipam) = plugin.conf.get("ipam").and_then(Value::as_object) else {
            continue;
        };
        let path = nad::join(&plugin.key_path("ipam"), "type");
        managed |= judge_ipam(ipam, &config.node, &format!("{path} in spec.config"), cx);
    }
    let self_addressed = plugins
        .iter()
        .any(|p| p.plugin_type().is_some_and(|t| SELF_ADDRESSING.contains(&t)) || p.conf.contains_key("delegate"));
    if !managed && !self_addressed {
        cx.report_with_help(
            "no-ipam",
            &config.node,
            "no plugin in spec.config has an ipam section, so no IP address is managed on this network",
            "If the attachment needs IP addresses, add an ipam section with a cluster-wide plugin such as whereabouts; layer-2 and DPDK attachments need none.",
        );
    }
}

/// A SriovNetwork of the SR-IOV Network Operator: the operator writes a NetworkAttachmentDefinition
/// of the `sriov` CNI whose `ipam` is `spec.ipam` (a JSON text), so the network is judged by it.
fn check_sriov_network(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(spec) = object.root.get("spec") else { return };
    let node = spec.get("ipam");
    let managed = match &node {
        None => false,
        Some(node) => match nad::sriov_network_ipam(node) {
            Some(ipam) => judge_ipam(&ipam, node, "ipam.type in spec.ipam", cx),
            None if node.as_str().is_some_and(|text| text.trim().is_empty()) => false,
            // Not a JSON object: the operator's (and its webhook's) to refuse.
            None => return,
        },
    };
    if !managed {
        cx.report_with_help(
            "no-ipam",
            node.as_ref().unwrap_or(&spec),
            "the SriovNetwork's spec.ipam names no IPAM plugin, so the NetworkAttachmentDefinition the operator writes for it manages no IP address on this network",
            "If the attachment needs IP addresses, set spec.ipam to a cluster-wide plugin such as '{\"type\": \"whereabouts\", \"range\": \"192.0.2.0/24\"}'; layer-2 and DPDK (vfio-pci) attachments need none.",
        );
    }
}

/// Judges one `ipam` section (`what` names its `type` in messages, at `node`); true when it
/// names an IPAM plugin.
fn judge_ipam(
    ipam: &serde_json::Map<String, Value>,
    node: &crate::parse::view::Located<'_>,
    what: &str,
    cx: &mut Context<'_>,
) -> bool {
    let Some(kind) = ipam.get("type").and_then(Value::as_str).filter(|t| !t.is_empty()) else {
        return false;
    };
    let params = cx.params::<Params>();
    if params.cluster_wide_ipam.iter().any(|c| c == kind) {
        return true;
    }
    if kind == NODE_LOCAL {
        cx.report(
            "host-local",
            node,
            format!("{what} is host-local, which allocates from the range on each node separately, so pods on different nodes can get the same address"),
        );
    } else {
        cx.report_with_help(
            "unknown-ipam",
            node,
            format!("{what} is {kind:?}, which is not listed in cluster_wide_ipam, so ra2 cannot tell whether it allocates addresses across nodes"),
            format!("If {kind} allocates addresses across all nodes, add it to the cluster_wide_ipam parameter of ra2.ntw.015; otherwise use a cluster-wide IPAM plugin such as whereabouts."),
        );
    }
    true
}
