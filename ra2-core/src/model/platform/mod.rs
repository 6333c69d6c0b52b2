//! The platform half of RA2 (chapter 4): the objects that describe the cluster itself rather
//! than a workload, and the cross-document facts the platform checks need.
//!
//! - `Node` (`v1`): labels, capacity, allocatable and `status.nodeInfo`, as `kubectl get nodes
//!   -o yaml` prints them.
//! - `KubeletConfiguration` (`kubelet.config.k8s.io/v1beta1`): the kubelet's configuration file
//!   (not an API object; `--kubelet-config` of `ra2 audit`, or the file itself).
//! - kubeadm `ClusterConfiguration`, `InitConfiguration` and `JoinConfiguration`
//!   (`kubeadm.k8s.io/v1beta3` and `v1beta4`): control-plane extra arguments, etcd topology,
//!   the Kubernetes version and the kubelet's extra arguments.
//! - Control-plane components (kube-apiserver, kube-controller-manager, kube-scheduler, etcd)
//!   in any pod spec, usually the static pods of `/etc/kubernetes/manifests` or their mirror
//!   pods in `kube-system`: the command line parsed as the components parse it ([`flags`]).
//!
//! Object checks judge one of these at a time (`rules/platform_*.rs`); checks that need the
//! whole cluster (etcd members, zones, which nodes are network-intensive) run over [`Facts`],
//! recorded while the documents are read, like the other cross-document facts in
//! [`crate::model::bundle`].

pub mod flags;
pub mod runtime_config;

use std::collections::BTreeMap;

use crate::k8s::quantity::Quantity;
use crate::model::bundle::Place;
use crate::model::bundle::Target;
use crate::model::profile::{NETWORK_INTENSIVE, PROFILE_LABEL};
use crate::model::{Object, PodSpec};
use crate::parse::view::Located;

/// The node-role labels that mark control-plane nodes (kubeadm's, and its deprecated name).
pub(crate) const CONTROL_PLANE_LABELS: &[&str] = &[
    "node-role.kubernetes.io/control-plane",
    "node-role.kubernetes.io/master",
];

/// Zone labels, the current one first.
pub(crate) const ZONE_LABELS: &[&str] = &["topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"];

/// The API group of the kubelet's configuration file.
pub(crate) const KUBELET_GROUP: &str = "kubelet.config.k8s.io";

/// The API group of kubeadm's configuration files.
pub(crate) const KUBEADM_GROUP: &str = "kubeadm.k8s.io";

/// A control-plane component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Component {
    ApiServer,
    ControllerManager,
    Scheduler,
    Etcd,
}

impl Component {
    pub const ALL: [Component; 4] = [
        Component::ApiServer,
        Component::ControllerManager,
        Component::Scheduler,
        Component::Etcd,
    ];

    /// The binary's name, which is also the component's name in kubeadm's static pods.
    pub fn binary(self) -> &'static str {
        match self {
            Component::ApiServer => "kube-apiserver",
            Component::ControllerManager => "kube-controller-manager",
            Component::Scheduler => "kube-scheduler",
            Component::Etcd => "etcd",
        }
    }

    fn from_binary(name: &str) -> Option<Component> {
        Component::ALL.into_iter().find(|c| c.binary() == name)
    }
}

/// A container that runs a control-plane component, and its command line.
#[derive(Clone, Debug)]
pub(crate) struct ComponentContainer<'d> {
    pub component: Component,
    pub flags: Vec<flags::Flag<'d>>,
    /// The container, for findings about a flag it lacks.
    pub container: Located<'d>,
}

/// The control-plane components a pod spec runs: a regular container whose command starts with
/// the component's binary (`/usr/local/bin/kube-apiserver` included); when the container has no
/// command, one named after the component whose image is the component's.
/// Found once per pod spec: see [`PodSpec::components`].
pub(crate) fn find_components<'d>(pod: &PodSpec<'d>) -> Vec<ComponentContainer<'d>> {
    let mut found = Vec::new();
    let Some(containers) = pod.get("containers") else {
        return found;
    };
    for container in containers.items() {
        // Most containers are no component: decide that before collecting anything.
        let command = container.get("command");
        let mut command = command.iter().flat_map(Located::items);
        let component = if let Some(binary) = command.next() {
            let name = binary.as_str().unwrap_or_default();
            let name = name.rsplit('/').next().unwrap_or(name);
            Component::from_binary(name)
        } else {
            let name = container.str_at("name").unwrap_or_default();
            Component::from_binary(name)
                .filter(|c| image_base(container.str_at("image").unwrap_or_default()) == c.binary())
        };
        let Some(component) = component else { continue };
        let mut line: Vec<Located<'d>> = command.collect();
        if let Some(args) = container.get("args") {
            line.extend(args.items());
        }
        found.push(ComponentContainer {
            component,
            flags: flags::parse(&line),
            container,
        });
    }
    found
}

/// The last path segment of an image's repository (`registry.k8s.io/kube-apiserver:v1.33.1` →
/// `kube-apiserver`).
fn image_base(image: &str) -> &str {
    let repository = image.split('@').next().unwrap_or(image);
    let last = repository.rsplit('/').next().unwrap_or(repository);
    last.split(':').next().unwrap_or(last)
}

/// The tag of an image, if it has one (`registry.k8s.io/kube-apiserver:v1.33.1` → `v1.33.1`).
pub(crate) fn image_tag(image: &str) -> Option<&str> {
    let repository = image.split('@').next().unwrap_or(image);
    let last = repository.rsplit('/').next().unwrap_or(repository);
    last.split_once(':').map(|(_, tag)| tag)
}

/// The minor version of a Kubernetes version string (`v1.33.1`, `1.30`, `v1.29.3-eks-1`,
/// `v1.31.0+k3s1`).
pub(crate) fn kubernetes_minor(version: &str) -> Option<u32> {
    let version = version.trim().strip_prefix('v').unwrap_or(version.trim());
    let mut parts = version.split('.');
    if parts.next()? != "1" {
        return None;
    }
    let minor = parts.next()?;
    let digits = minor.bytes().take_while(u8::is_ascii_digit).count();
    let (number, rest) = minor.split_at(digits);
    if number.is_empty() || !(rest.is_empty() || rest.starts_with(['-', '+'])) {
        return None;
    }
    let digits = number;
    digits.parse().ok()
}

/// Is this object a `Node`?
pub(crate) fn is_node(object: &Object<'_>) -> bool {
    object.is("", "Node")
}

/// Is this node a control-plane node (by its node-role label)?
pub(crate) fn is_control_plane(object: &Object<'_>) -> bool {
    CONTROL_PLANE_LABELS.iter().any(|key| object.label(key).is_some())
}

/// The node's zone label value.
pub(crate) fn zone<'d>(object: &Object<'d>) -> Option<(String, Located<'d>)> {
    ZONE_LABELS.iter().find_map(|key| {
        let value = object.label(key)?;
        let zone = value.as_str().filter(|z| !z.is_empty())?.to_owned();
        Some((zone, value))
    })
}

/// A resource quantity in `status.capacity` or `status.allocatable` of a node.
pub(crate) fn node_quantity<'d>(object: &Object<'d>, field: &str, resource: &str) -> Option<(Quantity, Located<'d>)> {
    let node = object.root.path(&["status", field, resource])?;
    let text = node.scalar_text()?;
    let quantity = Quantity::parse(&text).ok()?;
    Some((quantity, node))
}

/// A node, as the cluster-wide checks see it.
#[derive(Clone, Debug)]
pub struct NodeFact {
    pub name: String,
    pub control_plane: bool,
    pub zone: Option<String>,
    /// The value of [`PROFILE_LABEL`].
    pub profile: Option<String>,
    /// Allocatable amounts by resource name (whole units; huge pages in bytes).
    pub allocatable: BTreeMap<String, i128>,
    /// Where the node is named (its `metadata.name`, else its metadata).
    pub place: Place,
    /// Where its zone label is written, when it has one.
    pub zone_place: Option<Place>,
}

impl NodeFact {
    pub fn network_intensive(&self) -> bool {
        self.profile.as_deref() == Some(NETWORK_INTENSIVE)
    }
}

/// A control-plane component found in a pod spec.
#[derive(Clone, Debug)]
pub struct ComponentFact {
    pub component: Component,
    /// `spec.nodeName` of the pod (mirror pods of static pods carry it).
    pub node: Option<String>,
    /// Members named by etcd's `--initial-cluster`.
    pub initial_cluster: Vec<String>,
    /// Where the container is.
    pub place: Place,
}

/// A kubelet configuration: a `KubeletConfiguration` file, or a kubeadm
/// `InitConfiguration`/`JoinConfiguration`'s kubelet flags.
#[derive(Clone, Debug)]
pub struct KubeletFact {
    /// `cpuManagerPolicy` (or `--cpu-manager-policy`) is `static`.
    pub cpu_manager_static: bool,
    /// `topologyManagerPolicy` is set to a policy other than `none`.
    pub topology_manager: bool,
    /// The CPUManager or TopologyManager feature gate is switched off.
    pub gate_off: Option<String>,
    /// Where the CPU manager policy is written, else the object.
    pub cpu_place: Place,
    /// Where the topology manager policy is written, else the object.
    pub topology_place: Place,
}

/// A component of the network or device stack, recognised by the image a DaemonSet runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stack {
    /// A CNI plugin for the default pod network.
    DefaultCni,
    /// A multiplexer/meta-plugin (Multus, DANM).
    Multiplexer,
    /// The SR-IOV network device plugin.
    SriovDevicePlugin,
    /// A CNI plugin for user-plane (fast-path) networking: SR-IOV, userspace (DPDK, VPP).
    UserPlaneCni,
    /// The daemon of a cluster-wide IPAM plugin: the plugin's `ipam.type`.
    Ipam(&'static str),
}

/// Images (the last segments of the repository) of the stack's usual DaemonSets.
const STACK_IMAGES: &[(&str, Stack)] = &[
    ("calico/node", Stack::DefaultCni),
    ("cilium/cilium", Stack::DefaultCni),
    ("flannel", Stack::DefaultCni),
    ("mirrored-flannelcni-flannel", Stack::DefaultCni),
    ("weave-kube", Stack::DefaultCni),
    ("kube-ovn", Stack::DefaultCni),
    ("antrea-agent", Stack::DefaultCni),
    ("antrea-ubuntu", Stack::DefaultCni),
    ("ovn-kubernetes", Stack::DefaultCni),
    ("ovn-daemonset-ubuntu", Stack::DefaultCni),
    ("kube-router", Stack::DefaultCni),
    ("multus-cni", Stack::Multiplexer),
    ("multus", Stack::Multiplexer),
    ("danm-cni-plugins", Stack::Multiplexer),
    ("sriov-network-device-plugin", Stack::SriovDevicePlugin),
    ("sriov-device-plugin", Stack::SriovDevicePlugin),
    // The SR-IOV CNI plugins (their DaemonSets copy the binaries onto the nodes), the SR-IOV
    // Network Operator's config daemon (which installs them), the userspace CNI (DPDK with
    // OVS-DPDK or VPP) and Calico/VPP's dataplane.
    ("sriov-cni", Stack::UserPlaneCni),
    ("ib-sriov-cni", Stack::UserPlaneCni),
    ("sriov-network-config-daemon", Stack::UserPlaneCni),
    ("userspace-cni", Stack::UserPlaneCni),
    ("userspace-cni-network-plugin", Stack::UserPlaneCni),
    ("calicovpp/agent", Stack::UserPlaneCni),
    ("calicovpp/vpp", Stack::UserPlaneCni),
    // Cluster-wide IPAM plugins that need their own daemon on the nodes.
    ("whereabouts", Stack::Ipam("whereabouts")),
    ("spiderpool-agent", Stack::Ipam("spiderpool")),
    ("nvidia-k8s-ipam", Stack::Ipam("nv-ipam")),
];

/// CNI plugin types that attach user-plane (fast-path) interfaces: a
/// NetworkAttachmentDefinition of one of these configures such a plugin on the nodes.
pub(crate) const USER_PLANE_CNI_TYPES: &[&str] = &["sriov", "ib-sriov", "userspace", "vhostuser", "accelerated-bridge"];

/// The IPAM types whose plugin needs a daemon ra2 recognises (see [`STACK_IMAGES`]), and the
/// deployment's usual name, for messages.
pub(crate) const IPAM_DAEMONS: &[(&str, &str)] = &[
    ("whereabouts", "the whereabouts DaemonSet"),
    ("spiderpool", "Spiderpool's spiderpool-agent DaemonSet"),
    ("nv-ipam", "NVIDIA IPAM's nv-ipam-node DaemonSet"),
];

/// What an image is part of, if ra2 knows it: the repository (tag and digest dropped) ends with
/// one of [`STACK_IMAGES`] after a `/` (or is it).
pub(crate) fn classify_image(image: &str) -> Option<Stack> {
    let repository = repository_of(image);
    STACK_IMAGES
        .iter()
        .find(|(suffix, _)| image_is(&repository, suffix))
        .map(|(_, stack)| *stack)
}

/// An image's repository, lower case, without its tag or digest:
/// `quay.io/prometheus/node-exporter` for `quay.io/prometheus/node-exporter:v1.8.0`.
pub(crate) fn repository_of(image: &str) -> String {
    let repository = image.split('@').next().unwrap_or(image);
    let last_slash = repository.rfind('/').map_or(0, |i| i + 1);
    let repository = match repository.get(last_slash..).and_then(|last| last.find(':')) {
        Some(colon) => repository.get(..last_slash + colon).unwrap_or(repository),
        None => repository,
    };
    repository.to_ascii_lowercase()
}

/// Whether a repository ([`repository_of`]) is the image `suffix` names: the whole repository,
/// or its last path segments (`prometheus/node-exporter`, `node-exporter`).
pub(crate) fn image_is(repository: &str, suffix: &str) -> bool {
    repository == suffix || repository.strip_suffix(suffix).is_some_and(|rest| rest.ends_with('/'))
}

/// The cert-manager kinds whose objects ask for certificates (`cert-manager.io/v1`).
const CERT_MANAGER_KINDS: &[&str] = &["Certificate", "CertificateRequest", "Issuer", "ClusterIssuer"];

/// A Deployment, StatefulSet or DaemonSet of the input and the repositories of its images.
#[derive(Clone, Debug)]
pub struct ControllerFact {
    /// `DaemonSet`, `Deployment` or `StatefulSet`.
    pub kind: &'static str,
    /// `kube-system/fluent-bit`, for messages.
    pub name: String,
    /// The images of its containers and init containers ([`repository_of`]).
    pub repositories: Vec<String>,
    pub place: Place,
}

/// A DaemonSet in the input, and what its images are part of.
#[derive(Clone, Debug)]
pub struct DaemonSetFact {
    pub stack: Vec<Stack>,
    /// Where it is named.
    pub place: Place,
}

/// A `NetworkAttachmentDefinition`, where it is named, and whether its CNI type is SR-IOV.
#[derive(Clone, Debug)]
pub struct NadFact {
    pub name: String,
    pub sriov: bool,
    /// Some plugin of its config is a user-plane plugin ([`USER_PLANE_CNI_TYPES`]).
    pub user_plane: bool,
    /// The non-empty `ipam.type`s of its plugins.
    pub ipam: Vec<String>,
    pub place: Place,
    /// Where `spec.config` is written, else where it is named.
    pub config_place: Place,
}

/// A `StorageClass`, as the storage platform checks see it.
#[derive(Clone, Debug)]
pub struct StorageClassFact {
    pub name: String,
    pub provisioner: String,
    /// Where the provisioner is written.
    pub place: Place,
}

/// An extended resource a container requests (or limits): a device a device plugin must
/// advertise, or another extended resource.
#[derive(Clone, Debug)]
pub struct ResourceRequest {
    pub resource: String,
    /// `container "du"`, for messages.
    pub who: String,
    /// Where the resource is written: its limit, else its request.
    pub place: Place,
}

/// Everything the cluster-wide platform checks see.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub nodes: Vec<NodeFact>,
    pub components: Vec<ComponentFact>,
    pub kubelets: Vec<KubeletFact>,
    /// kubeadm's external etcd endpoints, with where they are written.
    pub external_etcd: Vec<(usize, Place)>,
    pub daemonsets: Vec<DaemonSetFact>,
    pub nads: Vec<NadFact>,
    /// The names of the `CSIDriver` objects of the input.
    pub csi_drivers: Vec<String>,
    pub storage_classes: Vec<StorageClassFact>,
    /// Extended resources requested by the pod specs of the input.
    pub resource_requests: Vec<ResourceRequest>,
    /// The Deployments, StatefulSets and DaemonSets, with their images.
    pub controllers: Vec<ControllerFact>,
    /// cert-manager objects (Certificate, CertificateRequest, Issuer, ClusterIssuer): where the
    /// first is named, and how many there are.
    pub certificates: Option<(Place, usize)>,
}

impl Facts {
    /// Moves every fact's object index and place (see [`crate::model::bundle::Shift`]).
    pub fn shift(&mut self, by: crate::model::bundle::Shift) {
        use crate::model::bundle::Fact;
        // Destructured, so that a new kind of fact cannot be forgotten here.
        let Facts {
            nodes,
            components,
            kubelets,
            external_etcd,
            daemonsets,
            nads,
            csi_drivers: _,
            storage_classes,
            resource_requests,
            controllers,
            certificates,
        } = self;
        for n in nodes {
            n.place.shift(by);
            if let Some(p) = n.zone_place.as_mut() {
                p.shift(by);
            }
        }
        for c in components {
            c.place.shift(by);
        }
        for k in kubelets {
            k.cpu_place.shift(by);
            k.topology_place.shift(by);
        }
        for (_, p) in external_etcd {
            p.shift(by);
        }
        for d in daemonsets {
            d.place.shift(by);
        }
        for n in nads {
            n.place.shift(by);
            n.config_place.shift(by);
        }
        for c in storage_classes {
            c.place.shift(by);
        }
        for r in resource_requests {
            r.place.shift(by);
        }
        for c in controllers {
            c.place.shift(by);
        }
        if let Some((place, _)) = certificates {
            place.shift(by);
        }
    }

    /// Appends the facts of a later bundle, shifted already (see
    /// [`crate::model::bundle::Bundle::absorb`]).
    pub fn absorb(&mut self, later: Facts) {
        let Facts {
            nodes,
            components,
            kubelets,
            external_etcd,
            daemonsets,
            nads,
            csi_drivers,
            storage_classes,
            resource_requests,
            controllers,
            certificates,
        } = later;
        self.nodes.extend(nodes);
        self.components.extend(components);
        self.kubelets.extend(kubelets);
        self.external_etcd.extend(external_etcd);
        self.daemonsets.extend(daemonsets);
        self.nads.extend(nads);
        self.csi_drivers.extend(csi_drivers);
        self.storage_classes.extend(storage_classes);
        self.resource_requests.extend(resource_requests);
        self.controllers.extend(controllers);
        if let Some((place, later)) = certificates {
            self.certificates = Some(match self.certificates.take() {
                Some((first, mine)) => (first, mine + later),
                None => (place, later),
            });
        }
    }

    /// Does the input show the cluster's DaemonSets (a cluster dump, or `ra2 audit`), so that
    /// a missing network component can be told from one that is not in view?
    pub fn shows_stack(&self) -> bool {
        self.has_nodes() && !self.daemonsets.is_empty()
    }

    /// Does some DaemonSet of the input run this part of the stack?
    pub fn runs(&self, stack: Stack) -> bool {
        self.daemonsets.iter().any(|d| d.stack.contains(&stack))
    }

    /// Does the input describe nodes?
    pub fn has_nodes(&self) -> bool {
        !self.nodes.is_empty()
    }

    pub fn node(&self, name: &str) -> Option<&NodeFact> {
        self.nodes.iter().find(|n| n.name == name)
    }
}

/// A kubelet setting: the `KubeletConfiguration` field, or the kubelet flag kubeadm passes.
struct KubeletSettings<'d> {
    cpu_manager_policy: Option<(String, Located<'d>)>,
    topology_manager_policy: Option<(String, Located<'d>)>,
    gates: Vec<(String, bool)>,
}

/// The kubelet settings of a `KubeletConfiguration`.
fn kubelet_file<'d>(object: &Object<'d>) -> KubeletSettings<'d> {
    let field = |key: &str| {
        let node = object.root.get(key)?;
        Some((node.as_str()?.to_owned(), node))
    };
    let gates = object
        .root
        .get("featureGates")
        .map(|g| {
            g.entries()
                .filter_map(|(k, v)| Some((k.to_owned(), v.as_bool()?)))
                .collect()
        })
        .unwrap_or_default();
    KubeletSettings {
        cpu_manager_policy: field("cpuManagerPolicy"),
        topology_manager_policy: field("topologyManagerPolicy"),
        gates,
    }
}

/// kubeadm's `extraArgs`: a map (`v1beta3`) or a list of `{name, value}` (`v1beta4`), as
/// (name, value, value node).
pub(crate) fn extra_args<'d>(node: &Located<'d>) -> Vec<(String, String, Located<'d>)> {
    if node.is_map() {
        return node
            .entries()
            .filter_map(|(k, v)| Some((k.to_owned(), v.scalar_text()?.into_owned(), v)))
            .collect();
    }
    node.items()
        .filter_map(|item| {
            let name = item.str_at("name")?.to_owned();
            let value = item.get("value")?;
            Some((name, value.scalar_text()?.into_owned(), value))
        })
        .collect()
}

/// The kubelet settings of a kubeadm `InitConfiguration` or `JoinConfiguration`
/// (`nodeRegistration.kubeletExtraArgs`).
fn kubelet_flags<'d>(object: &Object<'d>) -> Option<KubeletSettings<'d>> {
    let args = object.root.path(&["nodeRegistration", "kubeletExtraArgs"])?;
    let args = extra_args(&args);
    let find = |name: &str| {
        args.iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, at)| (v.clone(), at.clone()))
    };
    let gates = find("feature-gates")
        .map(|(text, _)| {
            text.split(',')
                .filter_map(|item| {
                    let (k, v) = item.split_once('=')?;
                    Some((k.trim().to_owned(), flags::parse_bool(v.trim())?))
                })
                .collect()
        })
        .unwrap_or_default();
    Some(KubeletSettings {
        cpu_manager_policy: find("cpu-manager-policy"),
        topology_manager_policy: find("topology-manager-policy"),
        gates,
    })
}

/// Records the platform facts of one object.
// One arm per kind of platform object (Node, kubelet and kubeadm configurations, static pods).
#[allow(clippy::too_many_lines)]
pub(crate) fn collect(facts: &mut Facts, target: Target<'_>, object: &Object<'_>, pod: Option<&PodSpec<'_>>) {
    let place = |node: &Located<'_>| Place::of(target, node);
    if is_node(object) {
        let metadata = object.metadata();
        let named = metadata
            .as_ref()
            .and_then(|m| m.get("name"))
            .or(metadata)
            .unwrap_or_else(|| object.root.clone());
        let allocatable = object
            .root
            .path(&["status", "allocatable"])
            .map(|a| {
                a.entries()
                    .filter_map(|(k, v)| Some((k.to_owned(), Quantity::parse(&v.scalar_text()?).ok()?.value())))
                    .collect()
            })
            .unwrap_or_default();
        let zone = zone(object);
        facts.nodes.push(NodeFact {
            name: object.name.unwrap_or_default().to_owned(),
            control_plane: is_control_plane(object),
            profile: object.label(PROFILE_LABEL).and_then(|l| l.as_str().map(str::to_owned)),
            allocatable,
            place: place(&named),
            zone_place: zone.as_ref().map(|(_, at)| place(at)),
            zone: zone.map(|(z, _)| z),
        });
    }
    let named = || {
        let metadata = object.metadata();
        metadata
            .as_ref()
            .and_then(|m| m.get("name"))
            .or(metadata)
            .unwrap_or_else(|| object.root.clone())
    };
    if let (true, Some(pod)) = (object.is("apps", "DaemonSet"), pod) {
        let mut stack: Vec<Stack> = pod
            .containers()
            .iter()
            .filter_map(|c| c.node.str_at("image").and_then(classify_image))
            .collect();
        stack.dedup();
        facts.daemonsets.push(DaemonSetFact {
            stack,
            place: place(&named()),
        });
    }
    if object.is_nad() {
        let config = object.nad_config();
        let plugins = config
            .as_ref()
            .map(crate::telco::nad::NadConfig::plugins)
            .unwrap_or_default();
        let types: Vec<&str> = plugins
            .iter()
            .filter_map(crate::telco::nad::Plugin::plugin_type)
            .collect();
        let ipam = plugins
            .iter()
            .filter_map(|p| p.conf.get("ipam")?.get("type")?.as_str())
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect();
        let named = named();
        facts.nads.push(NadFact {
            name: object.name.unwrap_or_default().to_owned(),
            sriov: types.contains(&"sriov"),
            user_plane: types.iter().any(|t| USER_PLANE_CNI_TYPES.contains(t)),
            ipam,
            config_place: place(config.as_ref().map_or(&named, |c| &c.node)),
            place: place(&named),
        });
    }
    let controller = ["DaemonSet", "Deployment", "StatefulSet"]
        .into_iter()
        .find(|kind| object.is("apps", kind));
    if let (Some(kind), Some(pod)) = (controller, pod) {
        let mut repositories: Vec<String> = pod
            .containers()
            .iter()
            .filter_map(|c| c.node.str_at("image").map(repository_of))
            .collect();
        repositories.sort();
        repositories.dedup();
        let name = match (object.namespace, object.name) {
            (Some(ns), Some(name)) => format!("{ns}/{name}"),
            (_, name) => name.unwrap_or_default().to_owned(),
        };
        facts.controllers.push(ControllerFact {
            kind,
            name,
            repositories,
            place: place(&named()),
        });
    }
    if CERT_MANAGER_KINDS.iter().any(|kind| object.is("cert-manager.io", kind)) {
        let first = place(&named());
        facts.certificates = Some(match facts.certificates.take() {
            Some((at, n)) => (at, n + 1),
            None => (first, 1),
        });
    }
    if object.is("storage.k8s.io", "CSIDriver") {
        if let Some(name) = object.name {
            facts.csi_drivers.push(name.to_owned());
        }
    }
    if object.is("storage.k8s.io", "StorageClass") {
        if let Some(at) = object.root.get("provisioner") {
            if let Some(provisioner) = at.as_str() {
                facts.storage_classes.push(StorageClassFact {
                    name: object.name.unwrap_or_default().to_owned(),
                    provisioner: provisioner.to_owned(),
                    place: place(&at),
                });
            }
        }
    }
    if let Some(pod) = pod {
        for container in pod.workload_containers() {
            for pair in &container.resources.pairs {
                if crate::k8s::names::classify_resource_name(pair.name) != crate::k8s::names::ResourceName::Extended {
                    continue;
                }
                let written = pair.limit.as_ref().or(pair.request.as_ref().filter(|r| !r.defaulted));
                let Some(amount) = written else { continue };
                if amount.quantity.as_ref().is_ok_and(|q| q.value() <= 0) {
                    continue;
                }
                facts.resource_requests.push(ResourceRequest {
                    resource: pair.name.to_owned(),
                    who: container.describe().to_owned(),
                    place: place(&amount.node),
                });
            }
        }
    }
    if let Some(pod) = pod {
        let node = pod.get("nodeName").and_then(|n| n.as_str().map(str::to_owned));
        for found in pod.components() {
            let initial_cluster = flags::last(&found.flags, "initial-cluster")
                .and_then(|f| f.value)
                .map(|v| {
                    v.split(',')
                        .filter_map(|m| m.split_once('=').map(|(name, _)| name.trim().to_owned()))
                        .collect()
                })
                .unwrap_or_default();
            facts.components.push(ComponentFact {
                component: found.component,
                node: node.clone(),
                initial_cluster,
                place: place(&found.container),
            });
        }
    }
    let settings = if object.is(KUBELET_GROUP, "KubeletConfiguration") {
        Some(kubelet_file(object))
    } else if object.is(KUBEADM_GROUP, "InitConfiguration") || object.is(KUBEADM_GROUP, "JoinConfiguration") {
        kubelet_flags(object)
    } else {
        None
    };
    if let Some(settings) = settings {
        let kind = object.root.get("kind").unwrap_or_else(|| object.root.clone());
        let gate_off = settings
            .gates
            .iter()
            .find(|(name, on)| !on && (name == "CPUManager" || name == "TopologyManager"))
            .map(|(name, _)| name.clone());
        facts.kubelets.push(KubeletFact {
            cpu_manager_static: settings.cpu_manager_policy.as_ref().is_some_and(|(p, _)| p == "static"),
            topology_manager: settings
                .topology_manager_policy
                .as_ref()
                .is_some_and(|(p, _)| !p.is_empty() && p != "none"),
            gate_off,
            cpu_place: place(settings.cpu_manager_policy.as_ref().map_or(&kind, |(_, at)| at)),
            topology_place: place(settings.topology_manager_policy.as_ref().map_or(&kind, |(_, at)| at)),
        });
    }
    if object.is(KUBEADM_GROUP, "ClusterConfiguration") {
        if let Some(endpoints) = object.root.path(&["etcd", "external", "endpoints"]) {
            let count = endpoints.items().count();
            facts.external_etcd.push((count, place(&endpoints)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minor_versions() {
        assert_eq!(kubernetes_minor("v1.33.1"), Some(33));
        assert_eq!(kubernetes_minor("1.30"), Some(30));
        assert_eq!(kubernetes_minor("v1.29.3-eks-1"), Some(29));
        assert_eq!(kubernetes_minor("v1.31.0+k3s1"), Some(31));
        assert_eq!(kubernetes_minor("v2.0.0"), None);
        assert_eq!(kubernetes_minor("latest"), None);
    }

    #[test]
    fn stack_images() {
        assert_eq!(classify_image("docker.io/calico/node:v3.28.0"), Some(Stack::DefaultCni));
        assert_eq!(classify_image("registry.example.com:5000/node:v3"), None);
        assert_eq!(
            classify_image("ghcr.io/k8snetworkplumbingwg/multus-cni:v4.1.0-thick"),
            Some(Stack::Multiplexer)
        );
        assert_eq!(
            classify_image("localhost:5000/sriov-network-device-plugin@sha256:00"),
            Some(Stack::SriovDevicePlugin)
        );
        assert_eq!(classify_image("quay.io/cilium/cilium-operator:v1.16"), None);
    }

    #[test]
    fn image_tags() {
        assert_eq!(image_tag("registry.k8s.io/kube-apiserver:v1.33.1"), Some("v1.33.1"));
        assert_eq!(image_tag("localhost:5000/kube-apiserver"), None);
        assert_eq!(image_base("localhost:5000/kube-apiserver:v1"), "kube-apiserver");
    }
}
