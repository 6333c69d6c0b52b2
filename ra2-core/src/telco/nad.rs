//! The NetworkAttachmentDefinition view the ra2.ntw rules share: the CNI configuration parsed
//! from `spec.config`, and the plugin objects in it with the JSON path messages name them by.

use serde_json::{Map, Value};

use crate::parse::view::Located;

/// The kind, matched on its own so that a NAD written with the wrong API group is still judged.
pub(crate) const KIND: &str = "NetworkAttachmentDefinition";
/// The only `apiVersion` the NAD CRD serves (NADC).
pub(crate) const API_VERSION: &str = "k8s.cni.cncf.io/v1";
/// The annotation that ties attachments to a device-plugin resource (MULTUS).
pub(crate) const RESOURCE_NAME_ANNOTATION: &str = "k8s.v1.cni.cncf.io/resourceName";

/// The SR-IOV Network Operator's SriovNetwork (`sriovnetwork.openshift.io/v1`): the operator
/// writes a NetworkAttachmentDefinition of the same name for it, in `spec.networkNamespace` (else
/// the SriovNetwork's own namespace), with the `sriov` CNI, `spec.ipam` as its `ipam`, and the
/// resource `<prefix>/<spec.resourceName>` in the resourceName annotation.
pub(crate) const SRIOV_NETWORK_GROUP: &str = "sriovnetwork.openshift.io";
pub(crate) const SRIOV_NETWORK_KIND: &str = "SriovNetwork";
/// The operator's SriovNetworkNodePolicy: it configures VFs on the nodes it selects and has the
/// device plugin offer them as the resource `<prefix>/<spec.resourceName>`.
pub(crate) const SRIOV_POLICY_KIND: &str = "SriovNetworkNodePolicy";
/// The prefix the operator gives its device plugin's resources (`RESOURCE_PREFIX`, which the
/// operator's manifests and Helm chart set to `openshift.io`).
pub(crate) const SRIOV_RESOURCE_PREFIX: &str = "openshift.io";

/// A SriovNetwork's `spec.ipam`: a JSON text holding an object.
pub(crate) fn sriov_network_ipam(node: &Located<'_>) -> Option<Map<String, Value>> {
    match serde_json::from_str(node.as_str()?.trim()) {
        Ok(Value::Object(ipam)) => Some(ipam),
        _ => None,
    }
}

/// A CNI configuration that parsed as a JSON object.
#[derive(Clone, Debug)]
pub(crate) struct NadConfig<'d> {
    /// The `spec.config` string: findings about anything inside it point here.
    pub node: Located<'d>,
    pub json: Map<String, Value>,
}

/// One plugin configuration object of a config (the config itself, when it is not a list).
#[derive(Clone, Debug)]
pub(crate) struct Plugin<'a> {
    /// `plugins[1]`, or `""` for a single-plugin config.
    pub path: String,
    pub conf: &'a Map<String, Value>,
}

impl Plugin<'_> {
    /// The JSON path of `key` inside this plugin, for messages: `plugins[1].ipam`, `ipam`.
    pub(crate) fn key_path(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// The plugin's `type`, when it is a string.
    pub(crate) fn plugin_type(&self) -> Option<&str> {
        self.conf.get("type").and_then(Value::as_str)
    }
}

/// `parent.key`, or `key` at the top level.
pub(crate) fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

impl<'d> NadConfig<'d> {
    /// A NAD's `spec.config` (`node`), parsed, when it is a string holding a JSON object (see
    /// [`crate::model::Object::nad_config`]).
    pub(crate) fn parse(node: Located<'d>) -> Option<NadConfig<'d>> {
        match serde_json::from_str(node.as_str()?) {
            Ok(Value::Object(json)) => Some(NadConfig { node, json }),
            _ => None,
        }
    }

    /// The plugin objects: the entries of `plugins` that are objects, or the config itself when
    /// it has no `plugins`.
    pub(crate) fn plugins(&self) -> Vec<Plugin<'_>> {
        match self.json.get("plugins") {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| {
                    item.as_object().map(|conf| Plugin {
                        path: format!("plugins[{i}]"),
                        conf,
                    })
                })
                .collect(),
            Some(_) => Vec::new(),
            None => vec![Plugin {
                path: String::new(),
                conf: &self.json,
            }],
        }
    }
}

/// The CNI plugin `type`s a `spec.config` names: its own `type`, then each of its `plugins`'
/// (empty when it is not JSON).
pub(crate) fn plugin_types(config: &str) -> Vec<String> {
    let Ok(config) = serde_json::from_str::<Value>(config) else {
        return Vec::new();
    };
    let own = config.get("type").and_then(Value::as_str);
    let listed = config
        .get("plugins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("type")?.as_str());
    own.into_iter().chain(listed).map(str::to_owned).collect()
}
