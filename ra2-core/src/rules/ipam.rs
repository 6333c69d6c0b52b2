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
    if !object.is_nad() {
        return;
    }
    let Some(config) = object.nad_config() else { return };
    let plugins = config.plugins();
    // A config without a plugin that can run is ra2.ntw.006/016's finding.
    if !plugins.iter().any(|p| p.plugin_type().is_some()) {
        return;
    }
    let params = cx.params::<Params>();
    let cluster_wide = &params.cluster_wide_ipam;
    let mut managed = false;
    for plugin in &plugins {
        let Some(ipam) = plugin.conf.get("ipam").and_then(Value::as_object) else {
            continue;
        };
        let Some(kind) = ipam.get("type").and_then(Value::as_str).filter(|t| !t.is_empty()) else {
            continue;
        };
        managed = true;
        if cluster_wide.iter().any(|c| c == kind) {
            continue;
        }
        let path = nad::join(&plugin.key_path("ipam"), "type");
        if kind == NODE_LOCAL {
            cx.report(
                "host-local",
                &config.node,
                format!("{path} in spec.config is host-local, which allocates from the range on each node separately, so pods on different nodes can get the same address"),
            );
        } else {
            cx.report_with_help(
                "unknown-ipam",
                &config.node,
                format!("{path} in spec.config is {kind:?}, which is not listed in cluster_wide_ipam, so ra2 cannot tell whether it allocates addresses across nodes"),
                format!("If {kind} allocates addresses across all nodes, add it to the cluster_wide_ipam parameter of ra2.ntw.015; otherwise use a cluster-wide IPAM plugin such as whereabouts."),
            );
        }
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
