//! Workload profile classification (ra2-rules.md §1.2): does a workload target the
//! network-intensive (high-performance) profile?

use crate::model::PodSpec;
use crate::names::{ResourceName, classify_resource_name};
use crate::report::Profile;

/// The node label that marks (and selects) network-intensive nodes.
pub const NETWORK_INTENSIVE_LABEL: &str = "anuket.io/profile/network-intensive";

/// Default patterns for extended resources that indicate SR-IOV/DPDK devices.
pub const NI_RESOURCE_PATTERNS: &[&str] = &["*/*sriov*", "*/*vf*", "*/*dpdk*"];

/// Does the pod select network-intensive nodes (nodeSelector, or required node affinity
/// `In ["true"]`)?
pub fn selects_network_intensive(pod: &PodSpec<'_>) -> bool {
    if pod
        .get("nodeSelector")
        .and_then(|s| s.str_at(NETWORK_INTENSIVE_LABEL).map(|v| v == "true"))
        .unwrap_or(false)
    {
        return true;
    }
    pod.required_node_selector_terms().iter().any(|term| {
        term.get("matchExpressions").is_some_and(|exprs| {
            exprs.items().any(|e| {
                e.str_at("key") == Some(NETWORK_INTENSIVE_LABEL)
                    && e.str_at("operator") == Some("In")
                    && e.get("values")
                        .is_some_and(|v| v.items().any(|i| i.as_str() == Some("true")))
            })
        })
    })
}

/// Network-intensive signals visible in the pod itself: the profile selector, huge pages, or
/// an SR-IOV/DPDK-looking extended resource.
pub fn classify(pod: &PodSpec<'_>) -> Profile {
    if selects_network_intensive(pod) {
        return Profile::NetworkIntensive;
    }
    let device =
        pod.workload_containers()
            .flat_map(|c| c.resources.pairs.iter())
            .any(|p| match classify_resource_name(p.name) {
                ResourceName::HugePages { .. } => true,
                ResourceName::Extended => NI_RESOURCE_PATTERNS
                    .iter()
                    .any(|pat| crate::config::glob(pat, &p.name.to_ascii_lowercase())),
                _ => false,
            });
    if device {
        Profile::NetworkIntensive
    } else {
        Profile::Basic
    }
}
