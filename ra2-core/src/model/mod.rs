//! The Kubernetes object model rules see: objects, the pod spec of every workload kind found
//! once, containers of every set, and effective resources and security context computed once.

pub(crate) mod bundle;
pub mod manifest;
pub(crate) mod platform;
pub(crate) mod profile;
pub mod resources;
pub(crate) mod storage;

use crate::k8s::quantity::{Quantity, QuantityError};
use crate::parse::view::Located;

/// A Kubernetes object: one document, or one item of a `kind: List`.
#[derive(Clone, Debug)]
pub struct Object<'d> {
    pub root: Located<'d>,
    pub api_version: Option<&'d str>,
    pub kind: Option<&'d str>,
    /// `metadata.name`, or `metadata.generateName` when there is no name.
    pub name: Option<&'d str>,
    pub namespace: Option<&'d str>,
    /// The pod spec, found once for the linter and every rule.
    pod: std::cell::OnceCell<Option<PodSpec<'d>>>,
    /// `metadata`, found once for the rules that ask.
    metadata: Option<Located<'d>>,
    /// Where the pod template is, when the config declares this object's kind a workload
    /// (`workload-kinds`) and ra2 does not know it already.
    declared: Option<Box<[String]>>,
}

impl<'d> Object<'d> {
    pub fn new(root: Located<'d>) -> Self {
        let metadata = root.get("metadata");
        let name = metadata
            .as_ref()
            .and_then(|m| m.str_at("name").or_else(|| m.str_at("generateName")));
        let namespace = metadata.as_ref().and_then(|m| m.str_at("namespace"));
        Object {
            api_version: root.str_at("apiVersion"),
            kind: root.str_at("kind"),
            name,
            namespace,
            root,
            pod: std::cell::OnceCell::new(),
            metadata,
            declared: None,
        }
    }

    pub fn metadata(&self) -> Option<Located<'d>> {
        self.metadata.clone()
    }

    /// The API group (`""` for the core group) and version.
    pub fn group_version(&self) -> Option<(&'d str, &'d str)> {
        let api_version = self.api_version?;
        Some(api_version.rsplit_once('/').unwrap_or(("", api_version)))
    }

    pub fn is(&self, group: &str, kind: &str) -> bool {
        self.kind == Some(kind) && self.group_version().is_some_and(|(g, _)| g == group)
    }

    pub fn annotation(&self, key: &str) -> Option<Located<'d>> {
        self.metadata()?.get("annotations")?.get(key)
    }

    pub fn label(&self, key: &str) -> Option<Located<'d>> {
        self.metadata()?.get("labels")?.get(key)
    }

    /// Whether this is a `NetworkAttachmentDefinition`, whatever group its apiVersion names.
    pub(crate) fn is_nad(&self) -> bool {
        self.kind == Some(crate::telco::nad::KIND)
    }

    /// The parsed `spec.config` of a NAD, when it is a string holding a JSON object.
    pub(crate) fn nad_config(&self) -> Option<crate::telco::nad::NadConfig<'d>> {
        crate::telco::nad::NadConfig::parse(self.root.path(&["spec", "config"])?)
    }

    /// This object with the kinds the config declares to carry a pod template
    /// (`workload-kinds`): one of them, unless ra2 knows the kind already, is a
    /// [`WorkloadKind::Declared`] with its pod template where the entry says.
    #[must_use]
    pub fn with_declared(mut self, kinds: &[crate::config::DeclaredWorkload]) -> Self {
        if kinds.is_empty() || self.builtin_workload_kind().is_some() {
            return self;
        }
        let (Some(api_version), Some(kind)) = (self.api_version, self.kind) else {
            return self;
        };
        if let Some(declared) = kinds.iter().find(|d| d.api_version == api_version && d.kind == kind) {
            self.declared = Some(declared.template.clone().into_boxed_slice());
            // Found again with the declared template, if it was looked for before.
            self.pod = std::cell::OnceCell::new();
        }
        self
    }

    /// The workload kind, if this object embeds a pod spec.
    pub fn workload_kind(&self) -> Option<WorkloadKind> {
        self.builtin_workload_kind()
            .or_else(|| self.declared.as_ref().map(|_| WorkloadKind::Declared))
    }

    /// The workload kind ra2 knows without a config.
    fn builtin_workload_kind(&self) -> Option<WorkloadKind> {
        let (group, _) = self.group_version()?;
        builtin_workload_kind(group, self.kind?)
    }

    /// The pod spec of a workload, found where its kind keeps it (ra2-rules.md §0.1); built on
    /// first use and kept.
    pub fn pod_spec(&self) -> Option<&PodSpec<'d>> {
        self.pod.get_or_init(|| self.find_pod_spec()).as_ref()
    }

    fn find_pod_spec(&self) -> Option<PodSpec<'d>> {
        let workload = self.workload_kind()?;
        if let (WorkloadKind::Declared, Some(template)) = (workload, &self.declared) {
            let keys: Vec<&str> = template.iter().map(String::as_str).collect();
            let at = self.root.path(&keys)?;
            let spec = at.get("spec").filter(Located::is_map)?;
            return Some(PodSpec::new(workload, at.get("metadata"), spec));
        }
        let (template_path, spec_path): (&[&str], &[&str]) = match workload {
            WorkloadKind::Pod => (&[], &["spec"]),
            WorkloadKind::PodTemplate => (&["template"], &["template", "spec"]),
            WorkloadKind::CronJob => (
                &["spec", "jobTemplate", "spec", "template"],
                &["spec", "jobTemplate", "spec", "template", "spec"],
            ),
            _ => (&["spec", "template"], &["spec", "template", "spec"]),
        };
        let spec = self.root.path(spec_path).filter(Located::is_map)?;
        let metadata = if template_path.is_empty() {
            self.metadata()
        } else {
            self.root.path(template_path).and_then(|t| t.get("metadata"))
        };
        Some(PodSpec::new(workload, metadata, spec))
    }
}

/// The workload kind ra2 knows without a config, by API group and kind.
pub(crate) fn builtin_workload_kind(group: &str, kind: &str) -> Option<WorkloadKind> {
    let core = group.is_empty();
    let apps = matches!(group, "apps" | "extensions");
    Some(match kind {
        "Pod" if core => WorkloadKind::Pod,
        "PodTemplate" if core => WorkloadKind::PodTemplate,
        "ReplicationController" if core => WorkloadKind::ReplicationController,
        "ReplicaSet" if apps => WorkloadKind::ReplicaSet,
        "Deployment" if apps => WorkloadKind::Deployment,
        "DaemonSet" if apps => WorkloadKind::DaemonSet,
        "StatefulSet" if group == "apps" => WorkloadKind::StatefulSet,
        "Job" if group == "batch" => WorkloadKind::Job,
        "CronJob" if group == "batch" => WorkloadKind::CronJob,
        "DeploymentConfig" if group == "apps.openshift.io" => WorkloadKind::DeploymentConfig,
        "Rollout" if group == "argoproj.io" => WorkloadKind::Rollout,
        // Only Knative's: a core `v1` Service stays a Service.
        "Service" if group == "serving.knative.dev" => WorkloadKind::KnativeService,
        "Configuration" if group == "serving.knative.dev" => WorkloadKind::KnativeConfiguration,
        _ => return None,
    })
}

/// The kinds that embed a pod spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkloadKind {
    Pod,
    PodTemplate,
    ReplicationController,
    ReplicaSet,
    Deployment,
    StatefulSet,
    DaemonSet,
    Job,
    CronJob,
    /// OpenShift's `apps.openshift.io` DeploymentConfig (pod template at `spec.template`).
    DeploymentConfig,
    /// An Argo Rollouts `argoproj.io` Rollout (pod template at `spec.template`; none when it
    /// points at a Deployment with `spec.workloadRef`).
    Rollout,
    /// A Knative Serving `serving.knative.dev` Service (pod template at `spec.template`).
    KnativeService,
    /// A Knative Serving Configuration (pod template at `spec.template`). Its Revisions are
    /// written by Knative from that template, not by hand, so they are not workloads here.
    KnativeConfiguration,
    /// A kind the config declares to carry a pod template (`workload-kinds`), where the entry
    /// says.
    Declared,
}

impl WorkloadKind {
    /// Pods of this kind are meant to run until stopped (not run to completion).
    pub fn is_long_running(self) -> bool {
        !matches!(self, WorkloadKind::Job | WorkloadKind::CronJob)
    }

    /// The API server that stores this kind validates its pod template as a core pod template
    /// (`pkg/apis/core/validation`; OpenShift's API server for a DeploymentConfig), so what
    /// `k8s.api` reports in it is refused on create. A custom resource's template is checked
    /// only by its schema, its controller and (Knative's) its own webhook.
    pub fn template_validated_as_core(self) -> bool {
        !matches!(
            self,
            WorkloadKind::Rollout
                | WorkloadKind::KnativeService
                | WorkloadKind::KnativeConfiguration
                | WorkloadKind::Declared
        )
    }
}

/// Which list a container comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ContainerKind {
    Init,
    /// An init container with `restartPolicy: Always`: runs for the pod's whole life.
    Sidecar,
    Regular,
    Ephemeral,
}

impl ContainerKind {
    /// How messages name a container of this kind.
    pub fn noun(self) -> &'static str {
        match self {
            ContainerKind::Init => "init container",
            ContainerKind::Sidecar => "sidecar container",
            ContainerKind::Regular => "container",
            ContainerKind::Ephemeral => "ephemeral container",
        }
    }
}

/// A resource amount as written (or defaulted), with its parsed quantity.
#[derive(Clone, Debug)]
pub struct Amount<'d> {
    pub node: Located<'d>,
    pub quantity: Result<Quantity, QuantityError>,
    /// A request copied from the limit by API defaulting (not written in the manifest).
    pub defaulted: bool,
    /// The value is an unrendered template such as `{{ .Values.cpu }}`.
    pub templated: bool,
}

impl<'d> Amount<'d> {
    /// The amount as a message shows it: its scalar text, else its text in the source.
    pub(crate) fn shown(&self) -> String {
        self.node
            .scalar_text()
            .map_or_else(|| self.node.source_text().to_owned(), std::borrow::Cow::into_owned)
    }

    fn new(node: Located<'d>) -> Self {
        let text = node.scalar_text();
        let templated = text.as_deref().is_some_and(crate::parse::source::looks_templated);
        let quantity = if node.is_null() {
            Ok(Quantity::zero())
        } else if node.as_bool().is_some()
            || !(node.as_str().is_some()
                || node.as_int().is_some()
                || matches!(node.value(), crate::parse::doc::Value::Float(_)))
        {
            Err(QuantityError::Format)
        } else {
            text.map_or(Err(QuantityError::Empty), |t| Quantity::parse_json_text(&t))
        };
        Amount {
            node,
            quantity,
            defaulted: false,
            templated,
        }
    }

    pub fn quantity(&self) -> Option<&Quantity> {
        self.quantity.as_ref().ok()
    }

    /// The amount as a fix may copy it to another key (a limit set to the request): written in
    /// the manifest, not templated, a readable quantity above zero; its JSON value as written
    /// (`500m` a string, `2` a number).
    pub(crate) fn copyable(&self) -> Option<serde_json::Value> {
        let positive = self.quantity().is_some_and(|q| q > &Quantity::zero());
        (positive && !self.defaulted && !self.templated).then(|| self.node.to_json())
    }
}

/// One resource's request and limit.
#[derive(Clone, Debug)]
pub struct ResourcePair<'d> {
    pub name: &'d str,
    /// The name as it appears in the manifest (the key of the limit or request).
    pub request: Option<Amount<'d>>,
    pub limit: Option<Amount<'d>>,
}

/// A container's resources after API defaulting: a missing request takes the limit's value,
/// key by key.
#[derive(Clone, Debug, Default)]
pub struct Resources<'d> {
    pub pairs: Vec<ResourcePair<'d>>,
    /// The `resources` node itself, if written.
    pub node: Option<Located<'d>>,
}

impl<'d> Resources<'d> {
    fn new(container: &Located<'d>) -> Self {
        let Some(node) = container.get("resources") else {
            return Resources::default();
        };
        let mut pairs: Vec<ResourcePair<'d>> = Vec::new();
        if let Some(limits) = node.get("limits") {
            for (name, value) in limits.entries() {
                pairs.push(ResourcePair {
                    name,
                    request: None,
                    limit: Some(Amount::new(value)),
                });
            }
        }
        if let Some(requests) = node.get("requests") {
            for (name, value) in requests.entries() {
                let amount = Amount::new(value);
                match pairs.iter_mut().find(|p| p.name == name) {
                    Some(pair) => pair.request = Some(amount),
                    None => pairs.push(ResourcePair {
                        name,
                        request: Some(amount),
                        limit: None,
                    }),
                }
            }
        }
        for pair in &mut pairs {
            if pair.request.is_none() {
                if let Some(limit) = &pair.limit {
                    let mut request = limit.clone();
                    request.defaulted = true;
                    pair.request = Some(request);
                }
            }
        }
        Resources {
            pairs,
            node: Some(node),
        }
    }

    pub fn get(&self, name: &str) -> Option<&ResourcePair<'d>> {
        self.pairs.iter().find(|p| p.name == name)
    }

    /// The effective (possibly defaulted) request.
    pub fn request(&self, name: &str) -> Option<&Amount<'d>> {
        self.get(name)?.request.as_ref()
    }

    pub fn limit(&self, name: &str) -> Option<&Amount<'d>> {
        self.get(name)?.limit.as_ref()
    }
}

/// A setting with the node it was read from, and whether it came from the pod level.
#[derive(Clone, Debug)]
pub struct Setting<'d> {
    pub node: Located<'d>,
    pub from_pod: bool,
}

impl Setting<'_> {
    pub fn as_bool(&self) -> Option<bool> {
        self.node.as_bool()
    }

    pub fn as_int(&self) -> Option<i128> {
        self.node.as_int()
    }
}

/// The security context a container runs with: container values override pod values for the
/// fields both have (ra2-rules.md §3.28); the rest are container-only.
#[derive(Clone, Debug, Default)]
pub struct Security<'d> {
    pub run_as_user: Option<Setting<'d>>,
    pub run_as_group: Option<Setting<'d>>,
    pub run_as_non_root: Option<Setting<'d>>,
    pub se_linux_options: Option<Setting<'d>>,
    pub seccomp_profile: Option<Setting<'d>>,
    pub app_armor_profile: Option<Setting<'d>>,
    pub privileged: Option<Setting<'d>>,
    pub allow_privilege_escalation: Option<Setting<'d>>,
    pub capabilities: Option<Setting<'d>>,
    pub read_only_root_filesystem: Option<Setting<'d>>,
    pub proc_mount: Option<Setting<'d>>,
}

impl<'d> Security<'d> {
    fn new(container: &Located<'d>, pod: Option<&Located<'d>>) -> Self {
        let mut security = Security::default();
        // One pass over each context's keys rather than a lookup per field. As a lookup would,
        // the first entry of a key decides (a later duplicate is ignored) and null is unset.
        if let Some(own) = container.get("securityContext") {
            let mut seen = 0u16;
            for (key, node) in own.entries() {
                let Some((bit, slot)) = security.slot(key, false) else {
                    continue;
                };
                if seen & bit == 0 && !node.is_null() {
                    *slot = Some(Setting { node, from_pod: false });
                }
                seen |= bit;
            }
        }
        // The fields the pod's context sets for every container, where the container's does not.
        if let Some(pod) = pod {
            let mut seen = 0u16;
            for (key, node) in pod.entries() {
                let Some((bit, slot)) = security.slot(key, true) else {
                    continue;
                };
                if seen & bit == 0 && slot.is_none() && !node.is_null() {
                    *slot = Some(Setting { node, from_pod: true });
                }
                seen |= bit;
            }
        }
        security
    }

    /// The field for `key` of a security context and a bit of its own; with `pod_level`, only
    /// the fields a pod's context sets for its containers.
    fn slot(&mut self, key: &str, pod_level: bool) -> Option<(u16, &mut Option<Setting<'d>>)> {
        let inherited = match key {
            "runAsUser" => (1, &mut self.run_as_user),
            "runAsGroup" => (1 << 1, &mut self.run_as_group),
            "runAsNonRoot" => (1 << 2, &mut self.run_as_non_root),
            "seLinuxOptions" => (1 << 3, &mut self.se_linux_options),
            "seccompProfile" => (1 << 4, &mut self.seccomp_profile),
            "appArmorProfile" => (1 << 5, &mut self.app_armor_profile),
            _ if pod_level => return None,
            "privileged" => (1 << 6, &mut self.privileged),
            "allowPrivilegeEscalation" => (1 << 7, &mut self.allow_privilege_escalation),
            "capabilities" => (1 << 8, &mut self.capabilities),
            "readOnlyRootFilesystem" => (1 << 9, &mut self.read_only_root_filesystem),
            "procMount" => (1 << 10, &mut self.proc_mount),
            _ => return None,
        };
        Some(inherited)
    }

    pub fn is_privileged(&self) -> bool {
        self.privileged_true().is_some()
    }

    /// The `privileged` field, when it is true (any YAML 1.1 spelling of true).
    pub fn privileged_true(&self) -> Option<&Setting<'d>> {
        self.privileged.as_ref().filter(|s| s.node.is_true())
    }

    /// Capabilities in `capabilities.add`, with their nodes.
    pub fn added_capabilities(&self) -> Vec<(&'d str, Located<'d>)> {
        self.capabilities
            .as_ref()
            .and_then(|c| c.node.get("add"))
            .map(|add| add.items().filter_map(|i| Some((i.as_str()?, i))).collect())
            .unwrap_or_default()
    }
}

/// A container of any set, with its effective values.
#[derive(Clone, Debug)]
pub struct Container<'d> {
    pub node: Located<'d>,
    pub kind: ContainerKind,
    pub name: Option<&'d str>,
    pub resources: Resources<'d>,
    pub security: Security<'d>,
    /// [`Container::describe`], written once: rules ask for it per container, most of them
    /// before they know whether they report anything.
    description: std::cell::OnceCell<String>,
}

impl<'d> Container<'d> {
    /// Where to report a security field the container does not set: its `securityContext`
    /// key if it has one, else the container itself.
    pub fn missing_field_site(&self) -> Located<'d> {
        self.node
            .get("securityContext")
            .filter(Located::is_map)
            .unwrap_or_else(|| self.node.clone())
    }

    /// `container "dp"`, `init container "setup"`, ... for messages.
    pub fn describe(&self) -> &str {
        self.description.get_or_init(|| match self.name {
            Some(name) => format!("{} {name:?}", self.kind.noun()),
            None => format!(
                "{} #{}",
                self.kind.noun(),
                self.node.pointer().rsplit('/').next().unwrap_or("?")
            ),
        })
    }
}

/// A pod spec, wherever its workload keeps it.
#[derive(Clone, Debug)]
pub struct PodSpec<'d> {
    pub workload: WorkloadKind,
    /// The pod's metadata (the template's, for controllers).
    pub metadata: Option<Located<'d>>,
    pub spec: Located<'d>,
    containers: Vec<Container<'d>>,
    /// The Multus network selection, parsed once for the linter and every rule.
    networks: std::cell::OnceCell<Option<crate::telco::multus::NetworkSelection>>,
    /// The control-plane components it runs, found once for every rule that asks.
    components: std::cell::OnceCell<Vec<crate::model::platform::ComponentContainer<'d>>>,
    /// The items of `volumes`, found once for every rule that asks.
    volumes: std::cell::OnceCell<Vec<Located<'d>>>,
    /// The metadata's `annotations`, found once for the rules that look up annotations.
    annotations: std::cell::OnceCell<Option<Located<'d>>>,
}

impl<'d> PodSpec<'d> {
    fn new(workload: WorkloadKind, metadata: Option<Located<'d>>, spec: Located<'d>) -> Self {
        let pod_security = spec.get("securityContext");
        let mut containers = Vec::new();
        for (key, default_kind) in [
            ("initContainers", ContainerKind::Init),
            ("containers", ContainerKind::Regular),
            ("ephemeralContainers", ContainerKind::Ephemeral),
        ] {
            let Some(list) = spec.get(key) else { continue };
            for node in list.items().filter(Located::is_map) {
                let kind = if default_kind == ContainerKind::Init && node.str_at("restartPolicy") == Some("Always") {
                    ContainerKind::Sidecar
                } else {
                    default_kind
                };
                let resources = if kind == ContainerKind::Ephemeral {
                    Resources::default()
                } else {
                    Resources::new(&node)
                };
                containers.push(Container {
                    name: node.str_at("name"),
                    security: Security::new(&node, pod_security.as_ref()),
                    resources,
                    kind,
                    node,
                    description: std::cell::OnceCell::new(),
                });
            }
        }
        PodSpec {
            workload,
            metadata,
            spec,
            containers,
            networks: std::cell::OnceCell::new(),
            components: std::cell::OnceCell::new(),
            volumes: std::cell::OnceCell::new(),
            annotations: std::cell::OnceCell::new(),
        }
    }

    /// The pod's `k8s.v1.cni.cncf.io/networks` annotation and its parsed selection (`None` when
    /// the value is not a string); parsed on first use and kept.
    pub fn networks(&self) -> Option<(Located<'d>, Option<&crate::telco::multus::NetworkSelection>)> {
        let annotation = self.annotation(crate::telco::multus::NETWORKS_ANNOTATION)?;
        let selection = self
            .networks
            .get_or_init(|| annotation.as_str().map(crate::telco::multus::parse_networks))
            .as_ref();
        Some((annotation, selection))
    }

    /// The control-plane components the pod runs (see [`crate::model::platform::find_components`]).
    pub(crate) fn components(&self) -> &[crate::model::platform::ComponentContainer<'d>] {
        self.components
            .get_or_init(|| crate::model::platform::find_components(self))
    }

    /// Every container: init, sidecar, regular and ephemeral, in manifest order by list.
    pub fn containers(&self) -> &[Container<'d>] {
        &self.containers
    }

    /// Containers that run the workload: init, sidecar and regular (not ephemeral).
    pub fn workload_containers(&self) -> impl Iterator<Item = &Container<'d>> {
        self.containers.iter().filter(|c| c.kind != ContainerKind::Ephemeral)
    }

    pub fn volumes(&self) -> impl Iterator<Item = Located<'d>> + '_ {
        // Found once for the ten or so rules that look at the volumes.
        self.volumes
            .get_or_init(|| {
                self.spec
                    .get("volumes")
                    .map(|v| v.items().collect())
                    .unwrap_or_default()
            })
            .iter()
            .cloned()
    }

    pub fn get(&self, key: &str) -> Option<Located<'d>> {
        self.spec.get(key)
    }

    /// The pod declares `os.name: windows`: Linux-only security fields do not apply.
    pub fn is_windows(&self) -> bool {
        self.spec.path(&["os", "name"]).and_then(|n| n.as_str()) == Some("windows")
    }

    /// `true` only when the field is a real boolean true.
    pub fn flag(&self, key: &str) -> bool {
        self.spec.get(key).is_some_and(|v| v.is_true())
    }

    pub fn annotation(&self, key: &str) -> Option<Located<'d>> {
        self.annotations
            .get_or_init(|| self.metadata.as_ref()?.get("annotations"))
            .as_ref()?
            .get(key)
    }

    pub fn labels(&self) -> Option<Located<'d>> {
        self.metadata.as_ref()?.get("labels")
    }

    /// Pod-level `spec.resources` (the PodLevelResources feature) after the API server's
    /// defaulting (KEP-2837, `defaultPodRequests`): when the pod sets limits, a cpu or memory
    /// request it does not write is the containers' aggregated effective request if any regular,
    /// init or sidecar container requests that resource (its own request or one defaulted from its
    /// limit), else the pod's limit; other keys take the pod's limit.
    pub fn pod_resources(&self) -> Option<Resources<'d>> {
        let node = self.spec.get("resources").filter(Located::is_map)?;
        let mut resources = Resources::new(&self.spec);
        if !resources.pairs.iter().any(|p| p.limit.is_some()) {
            return Some(resources);
        }
        for name in ["cpu", "memory"] {
            if resources
                .get(name)
                .is_some_and(|p| p.request.as_ref().is_some_and(|r| !r.defaulted))
            {
                continue;
            }
            if !self.workload_containers().any(|c| c.resources.request(name).is_some()) {
                continue;
            }
            let crate::model::resources::Effective::Bounded(sum) =
                crate::model::resources::pod_effective(self, name, crate::model::resources::Side::Requests)
            else {
                continue;
            };
            let at = resources.limit(name).map_or_else(|| node.clone(), |l| l.node.clone());
            let request = Amount {
                node: at,
                quantity: Ok(sum),
                defaulted: true,
                templated: false,
            };
            match resources.pairs.iter_mut().find(|p| p.name == name) {
                Some(pair) => pair.request = Some(request),
                None => resources.pairs.push(ResourcePair {
                    name,
                    request: Some(request),
                    limit: None,
                }),
            }
        }
        Some(resources)
    }

    /// The terms of `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`.
    pub fn required_node_selector_terms(&self) -> Vec<Located<'d>> {
        self.spec
            .path(&[
                "affinity",
                "nodeAffinity",
                "requiredDuringSchedulingIgnoredDuringExecution",
                "nodeSelectorTerms",
            ])
            .map(|terms| terms.items().collect())
            .unwrap_or_default()
    }

    /// The node selector terms of `preferredDuringSchedulingIgnoredDuringExecution` (each
    /// item's `preference`), which the scheduler weighs but does not require.
    pub fn preferred_node_selector_terms(&self) -> Vec<Located<'d>> {
        self.spec
            .path(&[
                "affinity",
                "nodeAffinity",
                "preferredDuringSchedulingIgnoredDuringExecution",
            ])
            .map(|items| items.items().filter_map(|item| item.get("preference")).collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::doc::{Limits, read_chunk};
    use crate::parse::source::chunks;

    /// The workload kind of the document and the pointer of its pod spec.
    fn found(text: &str) -> (Option<WorkloadKind>, Option<String>) {
        let result = read_chunk(chunks(text, 0, 0)[0], false, Limits::default());
        let object = Object::new(Located::root(&result.docs[0]));
        let pointer = object.pod_spec().map(|p| p.spec.pointer());
        (object.workload_kind(), pointer)
    }

    const TEMPLATE: &str = "spec:\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n      containers: [{name: a, image: r/a:1}]\n";

    #[test]
    fn a_deployment_config_is_a_workload_in_any_version_of_its_group() {
        for api_version in ["apps.openshift.io/v1", "apps.openshift.io/v1beta1"] {
            let text = format!("apiVersion: {api_version}\nkind: DeploymentConfig\nmetadata: {{name: d}}\n{TEMPLATE}");
            assert_eq!(
                found(&text),
                (
                    Some(WorkloadKind::DeploymentConfig),
                    Some("/spec/template/spec".to_owned())
                )
            );
        }
        // Another group's DeploymentConfig is not OpenShift's.
        let text = format!("apiVersion: example.com/v1\nkind: DeploymentConfig\nmetadata: {{name: d}}\n{TEMPLATE}");
        assert_eq!(found(&text), (None, None));
        // Without a template there is no pod spec to judge.
        let text =
            "apiVersion: apps.openshift.io/v1\nkind: DeploymentConfig\nmetadata: {name: d}\nspec: {replicas: 1}\n";
        assert_eq!(found(text), (Some(WorkloadKind::DeploymentConfig), None));
    }

    #[test]
    fn an_argo_rollout_is_a_workload_unless_it_points_at_a_deployment() {
        let text = format!("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {{name: r}}\n{TEMPLATE}");
        assert_eq!(
            found(&text),
            (Some(WorkloadKind::Rollout), Some("/spec/template/spec".to_owned()))
        );
        // A workloadRef leaves the pods to the Deployment it names: no pod spec here.
        let text = "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: r}\nspec:\n  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  strategy: {canary: {steps: [{setWeight: 20}]}}\n";
        assert_eq!(found(text), (Some(WorkloadKind::Rollout), None));
        let text = format!("apiVersion: example.com/v1\nkind: Rollout\nmetadata: {{name: r}}\n{TEMPLATE}");
        assert_eq!(found(&text), (None, None));
    }

    #[test]
    fn a_knative_service_is_a_workload_and_a_core_service_is_not() {
        for (kind, workload) in [
            ("Service", WorkloadKind::KnativeService),
            ("Configuration", WorkloadKind::KnativeConfiguration),
        ] {
            let text = format!("apiVersion: serving.knative.dev/v1\nkind: {kind}\nmetadata: {{name: k}}\n{TEMPLATE}");
            assert_eq!(found(&text), (Some(workload), Some("/spec/template/spec".to_owned())));
        }
        // A core Service, even one with a `template` under its spec, is a Service.
        for api_version in ["v1", "example.com/v1"] {
            let text = format!("apiVersion: {api_version}\nkind: Service\nmetadata: {{name: k}}\n{TEMPLATE}");
            assert_eq!(found(&text), (None, None), "{api_version}");
        }
        // A Revision is written by Knative from its Configuration's template: not judged.
        let text = "apiVersion: serving.knative.dev/v1\nkind: Revision\nmetadata: {name: k-00001}\nspec:\n  containers: [{image: r/a:1}]\n";
        assert_eq!(found(text), (None, None));
    }
}
