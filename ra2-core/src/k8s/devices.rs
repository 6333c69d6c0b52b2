//! Extended resources classified by what they are: network devices, accelerators, or unknown.
//! The table is data (`data/devices.yaml`, compiled in by `build.rs`: nothing is parsed at
//! start-up); the config extends it with ra2.app.006's
//! `ni_resource_patterns` (network) and ra2.app.009's `accelerator_resource_patterns`.
//!
//! Network devices feed ra2.app.006/resource-without-annotation and the network-intensive
//! profile (ra2-rules.md §1.2); accelerators are never network connection points; unknown names
//! are judged only by the rules that hold for every extended resource.

use std::fmt;

use serde::Serialize;

use crate::config::Config;
use crate::config::params::Params;

/// The shipped table, as written.
#[cfg(test)]
pub const TABLE: &str = include_str!("../../data/devices.yaml");

include!(concat!(env!("OUT_DIR"), "/devices.rs"));

/// The rule and parameter that add network-device patterns.
pub const NETWORK_RULE: &str = "ra2.app.006";
pub const NETWORK_PARAM: &str = "ni_resource_patterns";
/// The rule and parameter that add accelerator patterns.
pub const ACCELERATOR_RULE: &str = "ra2.app.009";
pub const ACCELERATOR_PARAM: &str = "accelerator_resource_patterns";

/// What an extended resource is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeviceClass {
    Network,
    Accelerator,
    Unknown,
}

/// One glob of the table, and what it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub pattern: &'static str,
    pub note: &'static str,
}

/// `data/devices.yaml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    pub accelerator: &'static [Entry],
    pub network: &'static [Entry],
}

/// The shipped table, compiled in (`build.rs` refuses a malformed `data/devices.yaml`).
pub fn table() -> &'static Table {
    &DEVICES
}

/// Why a resource has its class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A pattern of the config (`rule`'s parameter).
    Config { pattern: String },
    /// An entry of the shipped table.
    Table { pattern: String, note: String },
    /// Not classified.
    None,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Config { pattern } => write!(f, "matches the configured pattern {pattern:?}"),
            Source::Table { pattern, .. } => write!(f, "device table entry {pattern:?}"),
            Source::None => f.write_str("not in the device table"),
        }
    }
}

/// The device table of one run: the config's patterns, then the shipped table.
#[derive(Clone, Debug, Default)]
pub struct Classifier {
    network: Vec<String>,
    accelerator: Vec<String>,
}

/// The parameters the device table reads: (rule, name). The shipped table follows them.
#[cfg(test)]
pub const PARAMS: [(&str, &str); 2] = [(NETWORK_RULE, NETWORK_PARAM), (ACCELERATOR_RULE, ACCELERATOR_PARAM)];

/// Does the glob `pattern` match `resource` (both compared lower-cased: device plugins differ in
/// case)?
fn matches(pattern: &str, resource: &str) -> bool {
    crate::config::glob(&pattern.to_ascii_lowercase(), &resource.to_ascii_lowercase())
}

impl Classifier {
    pub fn new(config: &Config) -> Self {
        // The common case, no patterns configured: the catalogue's defaults, read once.
        if !config.params.contains_key(NETWORK_RULE) && !config.params.contains_key(ACCELERATOR_RULE) {
            static DEFAULT: std::sync::OnceLock<Classifier> = std::sync::OnceLock::new();
            return DEFAULT.get_or_init(|| Classifier::read(&Config::default())).clone();
        }
        Classifier::read(config)
    }

    fn read(config: &Config) -> Self {
        Classifier {
            network: Params::new(NETWORK_RULE, config).list(NETWORK_PARAM),
            accelerator: Params::new(ACCELERATOR_RULE, config).list(ACCELERATOR_PARAM),
        }
    }

    /// What `resource` is, and why. A `NetworkAttachmentDefinition` naming the resource is
    /// checked by the callers, between the config's patterns and the table.
    pub fn classify(&self, resource: &str) -> (DeviceClass, Source) {
        if let Some(class) = self.configured(resource) {
            return class;
        }
        self.shipped(resource)
    }

    /// The config's network and accelerator patterns, in the order [`Classifier::configured`]
    /// tries them (for `ra2 export vap`, which writes the same decision in CEL).
    pub(crate) fn configured_patterns(&self) -> (&[String], &[String]) {
        (&self.network, &self.accelerator)
    }

    /// The class the config's patterns give, if any.
    pub fn configured(&self, resource: &str) -> Option<(DeviceClass, Source)> {
        for (class, patterns) in [
            (DeviceClass::Network, &self.network),
            (DeviceClass::Accelerator, &self.accelerator),
        ] {
            if let Some(pattern) = patterns.iter().find(|p| matches(p, resource)) {
                return Some((
                    class,
                    Source::Config {
                        pattern: pattern.clone(),
                    },
                ));
            }
        }
        None
    }

    /// The class the shipped table gives: accelerators first, so that a catch-all network
    /// pattern never claims an accelerator. A bridge marker's node resource
    /// (`ovs-cni.network.kubevirt.io/br-dpdk`) is no device, whatever its bridge is called.
    pub fn shipped(&self, resource: &str) -> (DeviceClass, Source) {
        if is_bridge_marker(resource) {
            return (DeviceClass::Unknown, Source::None);
        }
        let table = table();
        for (class, entries) in [
            (DeviceClass::Accelerator, table.accelerator),
            (DeviceClass::Network, table.network),
        ] {
            if let Some(entry) = entries.iter().find(|e| matches(e.pattern, resource)) {
                return (
                    class,
                    Source::Table {
                        pattern: entry.pattern.to_owned(),
                        note: entry.note.to_owned(),
                    },
                );
            }
        }
        (DeviceClass::Unknown, Source::None)
    }
}

/// Prefixes of the node resources that bridge markers write into a node's capacity, one per
/// bridge on the node (1k of each): OVS-CNI's marker (`ovs-cni.network.kubevirt.io/<bridge>`,
/// kubevirt/ovs-cni docs/marker.md) and KubeVirt's bridge marker for Linux bridges
/// (`bridge.network.kubevirt.io/<bridge>`, kubevirt/bridge-marker). A definition names one as its
/// resourceName only so that pods are scheduled where the bridge exists: no device plugin stands
/// behind it, the kubelet allocates nothing, Multus finds no device ID for it and passes none,
/// and the plug-in attaches to the bridge on whatever node the pod runs.
pub(crate) const BRIDGE_MARKER_PREFIXES: &[&str] = &["ovs-cni.network.kubevirt.io/", "bridge.network.kubevirt.io/"];

/// Whether an extended resource is a bridge marker's node resource rather than a device.
pub(crate) fn is_bridge_marker(resource: &str) -> bool {
    BRIDGE_MARKER_PREFIXES.iter().any(|p| resource.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_is_compiled_in_as_written() {
        let table = super::table();
        assert!(table.network.len() > 5 && table.accelerator.len() > 5);
        let written = crate::yaml_to_json(TABLE).unwrap();
        assert_eq!(serde_json::to_value(table).unwrap(), written);
    }

    #[test]
    fn devices_are_classified_by_what_they_are() {
        let c = Classifier::default();
        for (resource, class) in [
            ("intel.com/intel_sriov_netdevice", DeviceClass::Network),
            ("intel.com/intel_sriov_dpdk", DeviceClass::Network),
            ("openshift.io/intelnics_radio_uplink", DeviceClass::Network),
            ("mellanox.com/mlnx_connectx5", DeviceClass::Network),
            ("intel.com/x700_gtp", DeviceClass::Network),
            ("intel.com/e800_default", DeviceClass::Network),
            ("example.com/sriov_media", DeviceClass::Network),
            ("Example.com/SRIOV_Media", DeviceClass::Network),
            ("dlb.intel.com/vf", DeviceClass::Accelerator),
            ("dlb.intel.com/pf", DeviceClass::Accelerator),
            ("qat.intel.com/generic", DeviceClass::Accelerator),
            ("dsa.intel.com/wq-user-dedicated", DeviceClass::Accelerator),
            ("iaa.intel.com/wq-user-shared", DeviceClass::Accelerator),
            (
                "fpga.intel.com/af-695.d84.aVKNtusxV3qMNmj5-qCB9thCTcSko8QT-J5DNoP5BAs",
                DeviceClass::Accelerator,
            ),
            ("gpu.intel.com/i915", DeviceClass::Accelerator),
            ("intel.com/intel_fec_5g", DeviceClass::Accelerator),
            ("intel.com/intel_sriov_qat", DeviceClass::Accelerator),
            ("nvidia.com/gpu", DeviceClass::Accelerator),
            ("nvidia.com/mig-1g.5gb", DeviceClass::Accelerator),
            ("amd.com/gpu", DeviceClass::Accelerator),
            ("amd.com/xilinx_u30_gen3x4_base_2-0", DeviceClass::Accelerator),
            ("example.com/fastpath", DeviceClass::Unknown),
            ("vendor.io/static", DeviceClass::Unknown),
            ("example.com/vf", DeviceClass::Unknown),
            ("ovs-cni.network.kubevirt.io/br-sriov", DeviceClass::Unknown),
            ("bridge.network.kubevirt.io/br-dpdk", DeviceClass::Unknown),
        ] {
            assert_eq!(c.classify(resource).0, class, "{resource}");
        }
    }

    #[test]
    fn the_config_extends_and_overrides_the_table() {
        let mut config = Config::default();
        config.params.entry(NETWORK_RULE.to_owned()).or_default().insert(
            NETWORK_PARAM.to_owned(),
            serde_json::json!(["example.com/fast*", "dlb.intel.com/vf"]),
        );
        config
            .params
            .entry(ACCELERATOR_RULE.to_owned())
            .or_default()
            .insert(ACCELERATOR_PARAM.to_owned(), serde_json::json!(["example.com/crypto*"]));
        let c = Classifier::new(&config);
        assert_eq!(c.classify("example.com/fastpath").0, DeviceClass::Network);
        assert_eq!(c.classify("dlb.intel.com/vf").0, DeviceClass::Network);
        assert_eq!(c.classify("dlb.intel.com/pf").0, DeviceClass::Accelerator);
        assert_eq!(c.classify("example.com/crypto-vf").0, DeviceClass::Accelerator);
        assert_eq!(
            c.classify("example.com/fastpath").1.to_string(),
            "matches the configured pattern \"example.com/fast*\""
        );
    }
}
