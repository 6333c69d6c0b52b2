//! Workload profile classification (ra2-rules.md §1.2): does a workload target the
//! network-intensive (high-performance) profile?
//!
//! A pod is network-intensive when it shows any of these signals: it selects (or prefers) nodes
//! labelled `anuket.io/profile: network-intensive`; a container requests huge pages; a container
//! requests an extended resource that the device table ([`crate::k8s::devices`]) classifies as a
//! network device, or that a `NetworkAttachmentDefinition` in the input names as its
//! `resourceName` (accelerators are not a network-intensive signal); or the pod attaches (Multus
//! annotation) to a `NetworkAttachmentDefinition` in
//! the input whose CNI type is a fast-path one (SR-IOV, host-device, userspace, AF_XDP).
//!
//! The last two need other documents, which may come after the pod. So the linter records a
//! small [`WorkloadProfile`] fact per pod spec ([`local_signal`] and the candidates for the
//! rest) and settles the answer with [`resolve`] once the whole input is read; the report's
//! `objects[].profile` and every profile-dependent check use that one answer.

use std::fmt;

use crate::config::Config;
use crate::k8s::devices::{Classifier, DeviceClass};
use crate::k8s::names::{ResourceName, classify_resource_name};
use crate::model::PodSpec;
use crate::model::bundle::{Bundle, Place};
use crate::parse::view::Located;

/// The node label that says which Anuket profile a node serves, with the profile as its value
/// (`anuket.io/profile: network-intensive`). The RA2 text writes the labels as keys
/// `anuket.io/profile/<name>`, which Kubernetes cannot store (a label key has one `/`); the RA2
/// conformance tooling labels and checks nodes with this one key instead (ra2-rules.md, ra2.k8s.011).
pub(crate) const PROFILE_LABEL: &str = "anuket.io/profile";

/// The value of [`PROFILE_LABEL`] on nodes that meet the network-intensive profile.
pub(crate) const NETWORK_INTENSIVE: &str = "network-intensive";

/// The prefix of the RA2 text's literal label keys (`anuket.io/profile/network-intensive`),
/// which the API server refuses.
pub(crate) const LITERAL_KEY_PREFIX: &str = "anuket.io/profile/";

/// The profile names RA2 defines: the values of [`PROFILE_LABEL`].
pub(crate) const PROFILE_NAMES: &[&str] = &["basic", NETWORK_INTENSIVE];

/// CNI plugin types that give a pod a fast-path (device or kernel-bypass) interface.
pub(crate) const FAST_PATH_CNI_TYPES: &[&str] =
    &["sriov", "ib-sriov", "host-device", "userspace", "vhostuser", "afxdp"];

/// Why a workload counts as network-intensive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The pod requires network-intensive nodes (nodeSelector or required node affinity).
    SelectsProfile,
    /// The pod prefers network-intensive nodes (preferred node affinity) without requiring them.
    PrefersProfile,
    /// `who` (`container "dp"`, `the pod`) requests huge pages.
    HugePages { who: String, resource: String },
    /// `who` requests an extended resource that the device table classifies as a network
    /// device; `why` is the table's note or the configured pattern.
    NetworkDevice { who: String, resource: String, why: String },
    /// `who` requests the device resource of a `NetworkAttachmentDefinition` in the input.
    NadResource { who: String, resource: String, nad: String },
    /// The pod attaches to a `NetworkAttachmentDefinition` of a fast-path CNI type.
    NadType { nad: String, cni_type: String },
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Signal::SelectsProfile => write!(f, "the pod selects nodes labelled {PROFILE_LABEL}: {NETWORK_INTENSIVE}"),
            Signal::PrefersProfile => write!(
                f,
                "the pod prefers nodes labelled {PROFILE_LABEL}: {NETWORK_INTENSIVE} (preferred node affinity)"
            ),
            Signal::HugePages { who, resource } => write!(f, "{who} requests {resource}"),
            Signal::NetworkDevice { who, resource, why } => {
                write!(f, "{who} requests network device {resource} ({why})")
            }
            Signal::NadResource { who, resource, nad } => {
                write!(
                    f,
                    "{who} requests {resource}, the device of NetworkAttachmentDefinition {nad}"
                )
            }
            Signal::NadType { nad, cni_type } => write!(
                f,
                "the pod attaches to NetworkAttachmentDefinition {nad}, whose CNI type is {cni_type}"
            ),
        }
    }
}

/// An extended resource a container requests, kept while the profile is undecided.
#[derive(Clone, Debug)]
pub struct DeviceRequest {
    /// `container "dp"`, for messages.
    pub who: String,
    pub resource: String,
    /// Where the resource is written: its limit, else its request.
    pub place: Place,
}

/// What decides one pod spec's profile, recorded while its document is read.
#[derive(Clone, Debug)]
pub struct WorkloadProfile {
    /// Index of the object in the run.
    pub object_index: usize,
    /// The first signal the pod's own document shows, and where it is written.
    pub local: Option<(Signal, Place)>,
    /// Only when `local` is none: the attachments, as (namespace, name).
    pub attachments: Vec<(String, String)>,
    /// Where the network annotation is written (with `attachments`).
    pub annotation: Option<Place>,
    /// Only when `local` is none: the extended resources the containers request.
    pub devices: Vec<DeviceRequest>,
    /// The patch that makes the pod require network-intensive nodes (a nodeSelector entry),
    /// when its nodeSelector is missing or a mapping without [`PROFILE_LABEL`].
    pub requirement: Option<Vec<crate::report::fix::Operation>>,
}

impl WorkloadProfile {
    /// Whether the answer can still depend on other documents.
    pub fn undecided(&self) -> bool {
        self.local.is_none() && !(self.attachments.is_empty() && self.devices.is_empty())
    }
}

/// Where the pod requires network-intensive nodes, if it does.
fn required_selector<'d>(pod: &PodSpec<'d>) -> Option<Located<'d>> {
    if let Some(value) = pod
        .get("nodeSelector")
        .and_then(|s| s.get(PROFILE_LABEL))
        .filter(|v| v.as_str() == Some(NETWORK_INTENSIVE))
    {
        return Some(value);
    }
    pod.required_node_selector_terms()
        .iter()
        .find_map(|term| network_intensive_expression(term))
}

/// Where the pod prefers network-intensive nodes (preferred node affinity), if it does.
fn preferred_selector<'d>(pod: &PodSpec<'d>) -> Option<Located<'d>> {
    pod.preferred_node_selector_terms()
        .iter()
        .find_map(|term| network_intensive_expression(term))
}

/// The expression of a node selector term that matches network-intensive nodes.
fn network_intensive_expression<'d>(term: &Located<'d>) -> Option<Located<'d>> {
    term.get("matchExpressions")?.items().find(|e| {
        e.str_at("key") == Some(PROFILE_LABEL)
            && e.str_at("operator") == Some("In")
            && e.get("values")
                .is_some_and(|v| v.items().any(|i| i.as_str() == Some(NETWORK_INTENSIVE)))
    })
}

/// The first network-intensive signal visible in the pod itself: the profile selector (required,
/// else preferred), huge pages (in a container or, with `pod_level_resources`, in
/// `spec.resources`), or an extended resource that `devices` classifies as a network device.
pub(crate) fn local_signal<'d>(
    pod: &PodSpec<'d>,
    devices: &Classifier,
    pod_level_resources: bool,
) -> Option<(Signal, Located<'d>)> {
    if let Some(node) = required_selector(pod) {
        return Some((Signal::SelectsProfile, node));
    }
    if let Some(node) = preferred_selector(pod) {
        return Some((Signal::PrefersProfile, node));
    }
    let pod_resources = pod_level_resources.then(|| pod.pod_resources()).flatten();
    let containers = pod.workload_containers().map(|c| (Some(c), &c.resources));
    for (container, resources) in containers.chain(pod_resources.iter().map(|r| (None, r))) {
        let who = || container.map_or_else(|| "the pod".to_owned(), |c| c.describe().to_owned());
        for pair in &resources.pairs {
            let Some(node) = written(pair) else { continue };
            let resource = || pair.name.to_owned();
            match classify_resource_name(pair.name) {
                ResourceName::HugePages { .. } => {
                    return Some((
                        Signal::HugePages {
                            who: who(),
                            resource: resource(),
                        },
                        node,
                    ));
                }
                ResourceName::Extended => {
                    if let (DeviceClass::Network, why) = devices.classify(pair.name) {
                        return Some((
                            Signal::NetworkDevice {
                                who: who(),
                                resource: resource(),
                                why: why.to_string(),
                            },
                            node,
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Where a resource is written: its limit, else its request (not one defaulted from the limit).
fn written<'d>(pair: &crate::model::ResourcePair<'d>) -> Option<Located<'d>> {
    pair.limit
        .as_ref()
        .or(pair.request.as_ref().filter(|r| !r.defaulted))
        .map(|a| a.node.clone())
}

/// The pod's own profile facts: its local signal, or else the candidates that other documents
/// may turn into one (attachments and extended resources). `place` resolves a node of the pod's
/// document into a [`Place`].
pub(crate) fn facts(
    pod: &PodSpec<'_>,
    namespace: &str,
    object_index: usize,
    config: &Config,
    devices: &Classifier,
    place: &dyn Fn(&Located<'_>) -> Place,
) -> WorkloadProfile {
    let mut out = WorkloadProfile {
        object_index,
        local: None,
        attachments: Vec::new(),
        annotation: None,
        devices: Vec::new(),
        requirement: None,
    };
    let selector = pod.get("nodeSelector").filter(|s| !s.is_null());
    if selector
        .as_ref()
        .is_none_or(|s| s.is_map() && s.get(PROFILE_LABEL).is_none())
    {
        out.requirement = Some(crate::report::fix::set(
            &pod.spec,
            &["nodeSelector", PROFILE_LABEL],
            NETWORK_INTENSIVE.into(),
        ));
    }
    if let Some((signal, node)) = local_signal(pod, devices, config.pod_level_resources()) {
        out.local = Some((signal, place(&node)));
        return out;
    }
    if let Some((annotation, Some(selection))) = pod.networks() {
        out.attachments = selection
            .elements
            .iter()
            .map(|e| (e.effective_namespace(namespace).to_owned(), e.name.clone()))
            .collect();
        if !out.attachments.is_empty() {
            out.annotation = Some(place(&annotation));
        }
    }
    for container in pod.workload_containers() {
        for pair in &container.resources.pairs {
            if classify_resource_name(pair.name) != ResourceName::Extended {
                continue;
            }
            if let Some(node) = written(pair) {
                out.devices.push(DeviceRequest {
                    who: container.describe().to_owned(),
                    resource: pair.name.to_owned(),
                    place: place(&node),
                });
            }
        }
    }
    out
}

/// The pod's signal once every document is read: its local one, else an extended resource
/// that a `NetworkAttachmentDefinition` or a `SriovNetworkNodePolicy` names, else an
/// attachment to a fast-path NAD.
pub(crate) fn resolve<'b>(workload: &'b WorkloadProfile, bundle: &'b Bundle) -> Option<(Signal, &'b Place)> {
    if let Some((signal, place)) = &workload.local {
        return Some((signal.clone(), place));
    }
    for device in &workload.devices {
        if let Some(nad) = bundle.nad_for_resource(&device.resource) {
            let signal = Signal::NadResource {
                who: device.who.clone(),
                resource: device.resource.clone(),
                nad: format!("{}/{}", nad.namespace, nad.name),
            };
            return Some((signal, &device.place));
        }
        if let Some(policy) = bundle.sriov_policy_for_resource(&device.resource) {
            let signal = Signal::NetworkDevice {
                who: device.who.clone(),
                resource: device.resource.clone(),
                why: format!(
                    "the SR-IOV VFs of SriovNetworkNodePolicy {}/{}",
                    policy.namespace, policy.name
                ),
            };
            return Some((signal, &device.place));
        }
    }
    let annotation = workload.annotation.as_ref()?;
    workload.attachments.iter().find_map(|(namespace, name)| {
        let nad = bundle.nad(namespace, name)?;
        let cni_type = nad
            .plugin_types
            .iter()
            .find(|t| FAST_PATH_CNI_TYPES.contains(&t.as_str()))?;
        let signal = Signal::NadType {
            nad: format!("{namespace}/{name}"),
            cni_type: cni_type.clone(),
        };
        Some((signal, annotation))
    })
}

#[cfg(test)]
mod tests {
    use crate::Config;
    use crate::report::Profile;

    fn profiles(text: &str, config: &Config) -> Vec<(String, Option<Profile>)> {
        crate::lint_str("t.yaml", text, config)
            .objects
            .into_iter()
            .map(|o| (o.name.unwrap_or_default(), o.profile))
            .collect()
    }

    fn profile_of(text: &str, name: &str) -> Option<Profile> {
        profiles(text, &Config::default())
            .into_iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, p)| p)
    }

    const NAD_SRIOV: &str = "apiVersion: k8s.cni.cncf.io/v1\nkind: NetworkAttachmentDefinition\nmetadata: {name: fh, namespace: ran}\nspec:\n  config: '{\"cniVersion\": \"1.0.0\", \"name\": \"fh\", \"type\": \"sriov\"}'\n";
    const NAD_RESOURCE: &str = "apiVersion: k8s.cni.cncf.io/v1\nkind: NetworkAttachmentDefinition\nmetadata:\n  name: mh\n  namespace: other\n  annotations: {k8s.v1.cni.cncf.io/resourceName: example.com/fastpath}\nspec:\n  config: '{\"cniVersion\": \"1.0.0\", \"name\": \"mh\", \"type\": \"macvlan\"}'\n";
    const POD_ATTACHED: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: du\n  namespace: ran\n  annotations: {k8s.v1.cni.cncf.io/networks: fh}\nspec:\n  containers: [{name: du, image: r/du:1, resources: {requests: {cpu: 1, memory: 1Gi}}}]\n";
    const POD_DEVICE: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: cu, namespace: ran}\nspec:\n  containers: [{name: cu, image: r/cu:1, resources: {limits: {example.com/fastpath: 1}}}]\n";

    #[test]
    fn a_fast_path_attachment_defined_later_makes_the_pod_network_intensive() {
        let text = format!("{POD_ATTACHED}---\n{NAD_SRIOV}");
        assert_eq!(profile_of(&text, "du"), Some(Profile::NetworkIntensive));
        // The definition is not an object with a pod spec.
        assert_eq!(profile_of(&text, "fh"), None);
        let report = crate::lint_str("t.yaml", &text, &Config::default());
        let k8s_009: Vec<&str> = report
            .findings
            .iter()
            .filter(|f| f.rule == "ra2.k8s.009")
            .map(|f| f.check.as_str())
            .collect();
        assert_eq!(k8s_009, ["cpu-pinning"]);
        let k8s_011: Vec<(&str, usize)> = report
            .findings
            .iter()
            .filter(|f| f.rule == "ra2.k8s.011")
            .map(|f| (f.check.as_str(), f.line))
            .collect();
        assert_eq!(k8s_011, [("workload", 6)]);
        // Without the definition, or in another namespace, the pod is basic and k8s.009 is silent.
        let other_namespace = NAD_SRIOV.replace("namespace: ran", "namespace: core");
        for text in [POD_ATTACHED.to_owned(), format!("{POD_ATTACHED}---\n{other_namespace}")] {
            assert_eq!(profile_of(&text, "du"), Some(Profile::Basic));
            let report = crate::lint_str("t.yaml", &text, &Config::default());
            assert!(!report.findings.iter().any(|f| f.rule.starts_with("ra2.k8s.0")));
        }
    }

    #[test]
    fn a_device_named_by_any_definition_counts_in_either_order() {
        for text in [
            format!("{POD_DEVICE}---\n{NAD_RESOURCE}"),
            format!("{NAD_RESOURCE}---\n{POD_DEVICE}"),
        ] {
            assert_eq!(profile_of(&text, "cu"), Some(Profile::NetworkIntensive));
        }
        assert_eq!(profile_of(POD_DEVICE, "cu"), Some(Profile::Basic));
        // A bridge marker's node resource is no device, whichever definition names it.
        let marker = "ovs-cni.network.kubevirt.io/br-fastpath";
        let text = format!("{POD_DEVICE}---\n{NAD_RESOURCE}").replace("example.com/fastpath", marker);
        assert_eq!(profile_of(&text, "cu"), Some(Profile::Basic));
    }

    #[test]
    fn local_signals_and_configured_patterns() {
        let hugepages = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: r/a:1, resources: {limits: {hugepages-2Mi: 2Mi, memory: 1Gi}}}]\n";
        assert_eq!(profile_of(hugepages, "p"), Some(Profile::NetworkIntensive));
        let selector = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {app: d}}\n  template:\n    metadata: {labels: {app: d}}\n    spec:\n      nodeSelector: {anuket.io/profile: network-intensive}\n      containers: [{name: a, image: r/a:1}]\n";
        assert_eq!(profile_of(selector, "d"), Some(Profile::NetworkIntensive));
        // The RA2 text's literal key is refused by the API server: not a signal (ra2.k8s.011
        // reports it instead), and neither is the value "true" under the real key.
        for literal in [
            selector.replace(
                "anuket.io/profile: network-intensive",
                "anuket.io/profile/network-intensive: \"true\"",
            ),
            selector.replace("anuket.io/profile: network-intensive", "anuket.io/profile: \"true\""),
        ] {
            assert_eq!(profile_of(&literal, "d"), Some(Profile::Basic), "{literal}");
        }
        let preferred = selector.replace(
            "nodeSelector: {anuket.io/profile: network-intensive}",
            "affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {matchExpressions: [{key: anuket.io/profile, operator: In, values: [network-intensive]}]}}]}}",
        );
        assert_eq!(profile_of(&preferred, "d"), Some(Profile::NetworkIntensive));
        assert_eq!(profile_of(POD_DEVICE, "cu"), Some(Profile::Basic));
        let mut config = Config::default();
        config.params.entry("ra2.app.006".to_owned()).or_default().insert(
            "ni_resource_patterns".to_owned(),
            serde_json::json!(["example.com/fast*"]),
        );
        assert_eq!(
            profiles(POD_DEVICE, &config),
            [("cu".to_owned(), Some(Profile::NetworkIntensive))]
        );
    }
}
