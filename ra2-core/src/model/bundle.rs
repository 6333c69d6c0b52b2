//! Cross-document facts. All files of one run form one bundle: while documents are read, the
//! linter records small facts (`NetworkAttachmentDefinitions`, `PersistentVolumes`, claims, pod
//! network attachments) with resolved places, so documents can be dropped as soon as they are
//! linted and memory stays bounded by the largest document.

use std::any::{Any, TypeId};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::parse::source::Position;
use crate::report::{ObjectRef, Related, Severity};

/// A resolved location in the input, kept after its document is gone ([`PlaceData`]). Facts
/// keep one per object or pod, and a cross-document finding shares its fact's: cloning a
/// place only counts a reference (writing to one through `DerefMut` copies it first if it is
/// shared).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place(Arc<PlaceData>);

impl std::ops::Deref for Place {
    type Target = PlaceData;
    fn deref(&self) -> &PlaceData {
        &self.0
    }
}

impl std::ops::DerefMut for Place {
    fn deref_mut(&mut self) -> &mut PlaceData {
        Arc::make_mut(&mut self.0)
    }
}

/// The object a rule is running on, for placing findings.
#[derive(Clone, Copy, Debug)]
pub struct Target<'c> {
    pub file: &'c str,
    pub document: usize,
    pub object: &'c crate::report::ObjectRef,
    pub object_index: usize,
}

impl Place {
    /// The place's data (copied only if the place is shared).
    pub fn into_data(self) -> PlaceData {
        Arc::try_unwrap(self.0).unwrap_or_else(|shared| (*shared).clone())
    }
}

/// What a [`Place`] holds. Its strings are shared: the file, group/kind, namespace and pointer
/// are interned (see [`Strings`]); only the object's name is its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceData {
    pub file: Arc<str>,
    pub document: usize,
    pub object: ObjectKey,
    /// Index of the object in the run, for suppression.
    pub object_index: usize,
    pub pointer: Arc<str>,
    pub start: Position,
    pub end: Position,
    pub offset: usize,
    pub len: usize,
    /// The anchor, when the node came through an alias.
    pub related: Option<Box<Related>>,
}

/// Which object a place is in: an [`ObjectRef`] with shared strings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectKey {
    pub api_version: Option<Arc<str>>,
    pub kind: Option<Arc<str>>,
    pub namespace: Option<Arc<str>>,
    pub name: Option<Box<str>>,
}

impl ObjectKey {
    pub fn to_ref(&self) -> ObjectRef {
        ObjectRef {
            api_version: self.api_version.as_deref().map(str::to_owned),
            kind: self.kind.as_deref().map(str::to_owned),
            namespace: self.namespace.as_deref().map(str::to_owned),
            name: self.name.as_deref().map(str::to_owned),
        }
    }
}

/// The strings facts share (files, kinds, namespaces, pointers, names of accounts and
/// resources): each distinct one is kept once per run.
#[derive(Clone, Debug, Default)]
pub struct Strings(BTreeSet<Arc<str>>);

impl Strings {
    pub fn get(&mut self, text: &str) -> Arc<str> {
        if let Some(shared) = self.0.get(text) {
            return Arc::clone(shared);
        }
        let shared: Arc<str> = Arc::from(text);
        self.0.insert(Arc::clone(&shared));
        shared
    }
}

/// The message of a place's related location when its node came through an alias.
pub(crate) const RELATED_ALIAS: &str = "defined here (reached through an alias)";

/// The related location of a finding reached through an alias: where the aliased node is
/// defined (`span` in `doc`).
pub(crate) fn alias_related(doc: &crate::parse::doc::Doc<'_>, span: crate::parse::source::Span) -> Related {
    let start = doc.position(span.start);
    let end = doc.position(span.end);
    Related {
        message: RELATED_ALIAS.to_owned(),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        offset: span.start,
        len: span.len(),
    }
}

impl Place {
    /// Resolves where a finding about `at` goes: the node's site, and the anchor when the node
    /// came through an alias.
    pub fn of(target: Target<'_>, at: &crate::parse::view::Located<'_>) -> Place {
        Place::shared(target, at, &mut Strings::default())
    }

    /// Like [`Place::of`], with its strings shared through `strings` (for places kept as facts).
    pub fn shared(target: Target<'_>, at: &crate::parse::view::Located<'_>, strings: &mut Strings) -> Place {
        let site = at.site();
        let doc = at.doc();
        let related = site.related.map(|span| Box::new(alias_related(doc, span)));
        let object = target.object;
        Place(Arc::new(PlaceData {
            file: strings.get(target.file),
            document: target.document,
            object: ObjectKey {
                api_version: object.api_version.as_deref().map(|s| strings.get(s)),
                kind: object.kind.as_deref().map(|s| strings.get(s)),
                namespace: object.namespace.as_deref().map(|s| strings.get(s)),
                name: object.name.as_deref().map(Box::from),
            },
            object_index: target.object_index,
            pointer: strings.get(&at.pointer()),
            start: doc.position(site.span.start),
            end: doc.position(site.span.end),
            offset: site.span.start,
            len: site.span.len(),
            related,
        }))
    }
}

/// What a cross-document rule records about one object (see [`crate::rules::Gather`]) and reads
/// back once every document is read (see [`crate::rules::BundleContext::facts`]).
pub trait Fact: Clone + Send + 'static {
    /// Whether a cross-document finding made of such a fact may carry a fix (the fact holds
    /// its patch): fixing reads a text for fixes only where a fact or finding may carry one
    /// (see [`Bundle::holds_fix`]).
    const CARRIES_FIX: bool = false;

    /// Shifts the object indices and places it holds (see [`Shift`]).
    fn shift(&mut self, by: Shift);
}

/// How far facts and findings move: their object indices by `objects` (documents read by
/// another linter: see [`Bundle::absorb`]), and, for documents whose text moved in their file
/// (a fix changed the text before them: see [`crate::fix`]), their document indices, lines and
/// byte offsets. Columns stay: a document starts a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shift {
    pub objects: usize,
    pub documents: isize,
    pub lines: isize,
    pub bytes: isize,
}

impl Shift {
    /// Object indices by `base`, nothing else.
    pub fn objects(base: usize) -> Shift {
        Shift {
            objects: base,
            ..Shift::default()
        }
    }

    /// Whether places move in their file (not only their object indices).
    pub fn moves(&self) -> bool {
        self.documents != 0 || self.lines != 0 || self.bytes != 0
    }

    pub fn document(&self, document: &mut usize) {
        *document = document.saturating_add_signed(self.documents);
    }

    pub fn line(&self, line: &mut usize) {
        *line = line.saturating_add_signed(self.lines);
    }

    pub fn byte(&self, offset: &mut usize) {
        *offset = offset.saturating_add_signed(self.bytes);
    }

    pub fn related(&self, related: &mut Related) {
        self.line(&mut related.line);
        self.line(&mut related.end_line);
        self.byte(&mut related.offset);
    }

    /// A finding's place (its object index is the linter's business: see
    /// [`crate::Linter::absorb`]).
    pub fn finding(&self, finding: &mut crate::report::Finding) {
        self.document(&mut finding.document);
        self.line(&mut finding.line);
        self.line(&mut finding.end_line);
        self.byte(&mut finding.offset);
        for related in &mut finding.related {
            self.related(related);
        }
    }
}

/// One rule's facts, whatever their type.
pub(crate) trait FactStore: Send {
    /// Shifts every fact (see [`Shift`]).
    fn shift(&mut self, by: Shift);
    /// Appends `later`'s facts (of the same type).
    fn append(&mut self, later: Box<dyn FactStore>);
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    /// How many facts it holds (for debugging).
    fn count(&self) -> usize;
    /// A copy (see [`Bundle`]'s `Clone`).
    fn clone_box(&self) -> Box<dyn FactStore>;
    /// Whether it holds a fact that may carry a fix ([`Fact::CARRIES_FIX`]).
    fn holds_fix(&self) -> bool;
}

impl<T: Fact> FactStore for Vec<T> {
    fn shift(&mut self, by: Shift) {
        for fact in self {
            fact.shift(by);
        }
    }

    fn append(&mut self, later: Box<dyn FactStore>) {
        if let Ok(mut later) = later.into_any().downcast::<Vec<T>>() {
            Vec::append(self, &mut later);
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }

    fn count(&self) -> usize {
        self.len()
    }

    fn holds_fix(&self) -> bool {
        T::CARRIES_FIX && !self.is_empty()
    }

    fn clone_box(&self) -> Box<dyn FactStore> {
        Box::new(self.clone())
    }
}

/// Cross-document rules' own facts, by rule id and fact type.
pub(crate) type RuleFacts = BTreeMap<(&'static str, TypeId), Box<dyn FactStore>>;

impl std::fmt::Debug for dyn FactStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} facts", self.count())
    }
}

impl Fact for Place {
    fn shift(&mut self, by: Shift) {
        if !by.moves() {
            if by.objects != 0 {
                self.object_index += by.objects;
            }
            return;
        }
        let data: &mut PlaceData = self;
        data.object_index += by.objects;
        by.document(&mut data.document);
        by.line(&mut data.start.line);
        by.line(&mut data.end.line);
        by.byte(&mut data.offset);
        if let Some(related) = data.related.as_deref_mut() {
            by.related(related);
        }
    }
}

/// A finding from a cross-document rule.
#[derive(Clone, Debug)]
pub(crate) struct BundleFinding {
    pub rule: &'static str,
    pub check: &'static str,
    pub severity: Severity,
    pub place: Place,
    /// Shared by the findings with the same message (one per pod for some rules).
    pub message: Arc<str>,
    /// A fix more specific than the rule's remediation.
    pub help: Option<Arc<str>>,
    /// The finding's mechanical remedy (boxed: most cross-document findings have none).
    pub fix: Option<Box<crate::report::fix::Fix>>,
}

/// A `NetworkAttachmentDefinition` in the input.
#[derive(Clone, Debug)]
pub struct Nad {
    pub namespace: String,
    pub name: String,
    /// `k8s.v1.cni.cncf.io/resourceName`.
    pub resource_name: Option<String>,
    /// CNI plugin `type`s of its config.
    pub plugin_types: Vec<String>,
}

impl Nad {
    /// The device-plugin resource each attachment takes one of: `resourceName`, unless it is a
    /// bridge marker's node resource, which only steers scheduling.
    pub fn device_resource(&self) -> Option<&str> {
        self.resource_name
            .as_deref()
            .filter(|r| !crate::k8s::devices::is_bridge_marker(r))
    }
}

/// A `SriovNetworkNodePolicy` of the SR-IOV Network Operator in the input: the device plugin
/// resource (`<prefix>/<spec.resourceName>`) whose devices are the VFs it configures.
#[derive(Clone, Debug)]
pub struct SriovPolicy {
    pub namespace: String,
    pub name: String,
    pub resource: String,
}

/// A `PersistentVolume` in the input.
#[derive(Clone, Debug)]
pub struct Pv {
    pub name: String,
    pub host_path: bool,
    pub local: bool,
    /// Its volume source field (`csi`, `nfs`, `hostPath`, ...), if it has one.
    pub source: Option<String>,
}

/// A `StorageClass` in the input.
#[derive(Clone, Debug)]
pub struct StorageClass {
    pub name: String,
    pub provisioner: String,
    /// Annotated as the cluster's default class.
    pub default: bool,
}

/// A claim (a PersistentVolumeClaim, a StatefulSet volumeClaimTemplate or a generic ephemeral
/// volume's template) and the storage class it names, for rules that judge claims against the
/// classes of the input (see [`Claim::all`]).
#[derive(Clone, Debug)]
pub(crate) struct Claim {
    /// `claim "data"`, `volume claim template "data"`, ... for messages.
    pub describe: String,
    /// The effective class (annotation, else `storageClassName`); `None`: the default applies.
    pub class: Option<String>,
    /// It names a volume with `volumeName` or selects volumes by label.
    pub pinned: bool,
    /// Where the class is written, else the claim's `spec`.
    pub place: Place,
}

impl Claim {
    /// The object's claims and its pod spec's; `place` says where a fact about a node points
    /// (a rule's gather: [`crate::rules::Gather::place`]).
    pub(crate) fn all(
        object: &crate::model::Object<'_>,
        mut place: impl FnMut(&crate::parse::view::Located<'_>) -> Place,
    ) -> Vec<Claim> {
        let mut claims = crate::model::storage::object_claims(object);
        claims.extend(
            object
                .pod_spec()
                .map(crate::model::storage::pod_claims)
                .unwrap_or_default(),
        );
        claims
            .into_iter()
            .map(|claim| {
                let class = claim.class();
                Claim {
                    class: class.as_ref().and_then(|c| c.as_str().map(str::to_owned)),
                    pinned: claim.volume_name().is_some() || claim.selector().is_some(),
                    place: place(class.as_ref().unwrap_or(&claim.spec)),
                    describe: claim.describe,
                }
            })
            .collect()
    }
}

impl Fact for Claim {
    fn shift(&mut self, by: Shift) {
        self.place.shift(by);
    }
}

/// A `PersistentVolumeClaim` that names its volume.
#[derive(Clone, Debug)]
pub struct Pvc {
    pub name: String,
    pub volume_name: String,
    /// Where `volumeName` is written.
    pub place: Place,
}

/// A pod's network attachments and the extended resources its containers request (recorded by
/// the rules that read them: see [`PodNetworks::of`]).
#[derive(Clone, Debug)]
pub(crate) struct PodNetworks {
    /// Where the network annotation is written.
    pub place: Place,
    /// (namespace, name) of each attachment, in order.
    pub attachments: Vec<(String, String)>,
    /// Total extended-resource limits over the pod's containers, by resource name.
    pub resources: BTreeMap<String, i128>,
}

impl PodNetworks {
    /// The pod's Multus attachments, when its annotation is a string: `namespace` is the pod's
    /// (else the run's default), and `place` says where a fact about a node points (a rule's
    /// gather: [`crate::rules::Gather::place`]).
    pub(crate) fn of(
        pod: &crate::model::PodSpec<'_>,
        namespace: &str,
        place: impl FnOnce(&crate::parse::view::Located<'_>) -> Place,
    ) -> Option<PodNetworks> {
        let (annotation, Some(selection)) = pod.networks()? else {
            return None;
        };
        let attachments = selection
            .elements
            .iter()
            .map(|e| (e.effective_namespace(namespace).to_owned(), e.name.clone()))
            .collect();
        let mut resources: BTreeMap<String, i128> = BTreeMap::new();
        for container in pod.workload_containers() {
            for pair in &container.resources.pairs {
                if crate::k8s::names::classify_resource_name(pair.name) == crate::k8s::names::ResourceName::Extended {
                    if let Some(q) = pair.limit.as_ref().and_then(|l| l.quantity()) {
                        *resources.entry(pair.name.to_owned()).or_default() += q.value();
                    }
                }
            }
        }
        Some(PodNetworks {
            place: place(&annotation),
            attachments,
            resources,
        })
    }
}

impl Fact for PodNetworks {
    fn shift(&mut self, by: Shift) {
        self.place.shift(by);
    }
}

/// A DANM network object in the input (`DanmNet`, `TenantNetwork`, `ClusterNetwork`).
#[derive(Clone, Debug)]
pub struct DanmNetwork {
    pub kind: crate::telco::danm::NetworkKind,
    /// Empty for a cluster-scoped `ClusterNetwork`.
    pub namespace: String,
    pub name: String,
}

/// A `ServiceAccount` in the input.
#[derive(Clone, Debug)]
pub struct ServiceAccount {
    pub namespace: String,
    pub name: String,
    /// `automountServiceAccountToken`, when it is a boolean.
    pub automount_token: Option<bool>,
}

/// Everything cross-document rules can see: the objects of the input that several rules look
/// up (the inventory, recorded here for every run), and each rule's own facts (recorded by its
/// `gather` function, only when it runs).
#[derive(Debug, Default)]
pub struct Bundle {
    pub nads: Vec<Nad>,
    /// The SR-IOV Network Operator's SriovNetworkNodePolicies: the VF resources they define.
    pub sriov_policies: Vec<SriovPolicy>,
    pub pvs: Vec<Pv>,
    pub pvcs: Vec<Pvc>,
    pub danm_networks: Vec<DanmNetwork>,
    pub storage_classes: Vec<StorageClass>,
    pub service_accounts: Vec<ServiceAccount>,
    /// Profile facts of pod specs that show a network-intensive signal or may still turn out
    /// to (ra2-rules.md §1.2); pods with neither are basic and not recorded.
    pub workloads: Vec<crate::model::profile::WorkloadProfile>,
    /// Nodes, control-plane components and kubelet configurations (see [`crate::model::platform`]).
    pub platform: crate::model::platform::Facts,
    /// Each rule's facts, by rule id and type.
    pub(crate) rule_facts: RuleFacts,
    /// The strings places and facts share.
    pub(crate) strings: Strings,
}

impl Clone for Bundle {
    fn clone(&self) -> Self {
        // Destructured, so that a new kind of fact cannot be forgotten here.
        let Bundle {
            nads,
            sriov_policies,
            pvs,
            pvcs,
            danm_networks,
            storage_classes,
            service_accounts,
            workloads,
            platform,
            rule_facts,
            strings,
        } = self;
        Bundle {
            nads: nads.clone(),
            sriov_policies: sriov_policies.clone(),
            pvs: pvs.clone(),
            pvcs: pvcs.clone(),
            danm_networks: danm_networks.clone(),
            storage_classes: storage_classes.clone(),
            service_accounts: service_accounts.clone(),
            workloads: workloads.clone(),
            platform: platform.clone(),
            rule_facts: rule_facts.iter().map(|(k, v)| (*k, v.clone_box())).collect(),
            strings: strings.clone(),
        }
    }
}

impl Bundle {
    /// Whether a cross-document finding made of these facts may carry a fix: a rule's facts
    /// (see [`Fact::CARRIES_FIX`]), or a pod's profile facts with the node selector it should
    /// require (ra2.k8s.011's fix).
    pub(crate) fn holds_fix(&self) -> bool {
        self.workloads.iter().any(|w| w.requirement.is_some())
            || self.rule_facts.values().any(|facts| facts.holds_fix())
    }

    /// Moves every fact's object index and place (see [`Shift`]).
    pub fn shift(&mut self, by: Shift) {
        // Destructured, so that a new kind of fact cannot be forgotten here.
        let Bundle {
            nads: _,
            sriov_policies: _,
            pvs: _,
            pvcs,
            danm_networks: _,
            storage_classes: _,
            service_accounts: _,
            workloads,
            platform,
            rule_facts,
            strings: _,
        } = self;
        for pvc in pvcs {
            pvc.place.shift(by);
        }
        platform.shift(by);
        for w in workloads {
            w.object_index += by.objects;
            if let Some((_, place)) = &mut w.local {
                place.shift(by);
            }
            if let Some(place) = &mut w.annotation {
                place.shift(by);
            }
            for device in &mut w.devices {
                device.place.shift(by);
            }
        }
        for facts in rule_facts.values_mut() {
            facts.shift(by);
        }
    }

    /// Appends the facts of `later`, a bundle of documents read after this one's (see
    /// [`crate::Linter::absorb`]); its object indices are shifted by `base`, the number of
    /// objects read before it. The result equals one bundle read in that order.
    pub fn absorb(&mut self, mut later: Bundle, base: usize) {
        later.shift(Shift::objects(base));
        // Destructured, so that a new kind of fact cannot be forgotten here.
        let Bundle {
            nads,
            sriov_policies,
            pvs,
            pvcs,
            danm_networks,
            storage_classes,
            service_accounts,
            workloads,
            platform,
            rule_facts,
            strings,
        } = later;
        self.nads.extend(nads);
        self.sriov_policies.extend(sriov_policies);
        self.pvs.extend(pvs);
        self.pvcs.extend(pvcs);
        self.danm_networks.extend(danm_networks);
        self.storage_classes.extend(storage_classes);
        self.service_accounts.extend(service_accounts);
        self.platform.absorb(platform);
        self.workloads.extend(workloads);
        for (key, facts) in rule_facts {
            match self.rule_facts.get_mut(&key) {
                Some(mine) => mine.append(facts),
                None => {
                    self.rule_facts.insert(key, facts);
                }
            }
        }
        // Places of `later` keep their own strings; new ones are shared from here on.
        self.strings.0.extend(strings.0);
    }

    /// Records the object if it is one that cross-document rules look up: a
    /// `NetworkAttachmentDefinition`, `PersistentVolume`, `StorageClass`, a claim naming its
    /// volume, a `ServiceAccount` or a DANM network. `namespace` is the object's, else the run's
    /// default.
    pub(crate) fn record(&mut self, target: Target<'_>, object: &crate::model::Object<'_>, namespace: &str) {
        let name = || object.name.unwrap_or_default().to_owned();
        let annotation = |key: &str| object.annotation(key).and_then(|a| a.as_str().map(str::to_owned));
        // Any group: a definition written with the swapped group (k8s.v1.cni.cncf.io) is
        // reported once, by ra2.ntw.006/api-version, and still names the network it defines.
        if object.is_nad() {
            self.nads.push(Nad {
                namespace: namespace.to_owned(),
                name: name(),
                resource_name: annotation(crate::telco::nad::RESOURCE_NAME_ANNOTATION),
                plugin_types: object
                    .root
                    .path(&["spec", "config"])
                    .and_then(|c| c.as_str().map(crate::telco::nad::plugin_types))
                    .unwrap_or_default(),
            });
        } else if object.is(
            crate::telco::nad::SRIOV_NETWORK_GROUP,
            crate::telco::nad::SRIOV_NETWORK_KIND,
        ) {
            // The definition the operator writes for it (see the constant's documentation).
            let spec = object.root.get("spec");
            let at = |key: &str| spec.as_ref().and_then(|s| s.str_at(key)).filter(|v| !v.is_empty());
            self.nads.push(Nad {
                namespace: at("networkNamespace").unwrap_or(namespace).to_owned(),
                name: name(),
                resource_name: at("resourceName").map(|r| format!("{}/{r}", crate::telco::nad::SRIOV_RESOURCE_PREFIX)),
                plugin_types: vec!["sriov".to_owned()],
            });
        } else if object.is(
            crate::telco::nad::SRIOV_NETWORK_GROUP,
            crate::telco::nad::SRIOV_POLICY_KIND,
        ) {
            if let Some(resource) = object
                .root
                .path(&["spec", "resourceName"])
                .and_then(|r| r.as_str().filter(|r| !r.is_empty()).map(str::to_owned))
            {
                self.sriov_policies.push(SriovPolicy {
                    namespace: namespace.to_owned(),
                    name: name(),
                    resource: format!("{}/{resource}", crate::telco::nad::SRIOV_RESOURCE_PREFIX),
                });
            }
        } else if object.is("", "PersistentVolume") {
            let spec = object.root.get("spec");
            self.pvs.push(Pv {
                name: name(),
                host_path: spec.as_ref().and_then(|s| s.get("hostPath")).is_some(),
                local: spec.as_ref().and_then(|s| s.get("local")).is_some(),
                source: spec.as_ref().and_then(|s| {
                    crate::model::storage::sources(s, crate::model::storage::is_pv_source)
                        .next()
                        .map(|(k, _)| k.to_owned())
                }),
            });
        } else if object.is("storage.k8s.io", "StorageClass") {
            if let Some(provisioner) = object.root.str_at("provisioner") {
                self.storage_classes.push(StorageClass {
                    name: name(),
                    provisioner: provisioner.to_owned(),
                    default: crate::model::storage::DEFAULT_CLASS_ANNOTATIONS
                        .iter()
                        .any(|key| annotation(key).as_deref() == Some("true")),
                });
            }
        } else if object.is("", "PersistentVolumeClaim") {
            let volume_name = object.root.path(&["spec", "volumeName"]);
            if let Some((node, v)) = volume_name.as_ref().and_then(|n| Some((n, n.as_str()?))) {
                self.pvcs.push(Pvc {
                    name: name(),
                    volume_name: v.to_owned(),
                    place: Place::shared(target, node, &mut self.strings),
                });
            }
        } else if object.is("", "ServiceAccount") {
            self.service_accounts.push(ServiceAccount {
                namespace: namespace.to_owned(),
                name: name(),
                automount_token: object.root.bool_at("automountServiceAccountToken"),
            });
        } else if let Some(kind) = object
            .kind
            .and_then(crate::telco::danm::NetworkKind::of_kind)
            .filter(|_| {
                object
                    .group_version()
                    .is_some_and(|(g, _)| crate::telco::danm::GROUPS.contains(&g))
            })
        {
            self.danm_networks.push(DanmNetwork {
                kind,
                namespace: if kind.namespaced() {
                    namespace.to_owned()
                } else {
                    String::new()
                },
                name: name(),
            });
        }
    }

    /// The facts of type `T` that `rule` recorded.
    pub fn facts<T: Fact>(&self, rule: &'static str) -> &[T] {
        self.rule_facts
            .get(&(rule, TypeId::of::<T>()))
            .and_then(|store| store.as_any().downcast_ref::<Vec<T>>())
            .map_or(&[], Vec::as_slice)
    }

    pub fn nad(&self, namespace: &str, name: &str) -> Option<&Nad> {
        self.nads.iter().find(|n| n.namespace == namespace && n.name == name)
    }

    /// The first `NetworkAttachmentDefinition` whose `resourceName` is the device `resource`.
    pub fn nad_for_resource(&self, resource: &str) -> Option<&Nad> {
        self.nads.iter().find(|n| n.device_resource() == Some(resource))
    }

    /// The first `SriovNetworkNodePolicy` whose VFs are the device `resource`.
    pub fn sriov_policy_for_resource(&self, resource: &str) -> Option<&SriovPolicy> {
        self.sriov_policies.iter().find(|p| p.resource == resource)
    }

    /// Claims bound by `volumeName` to a `PersistentVolume` of the input, with that volume.
    pub fn bound_claims(&self) -> impl Iterator<Item = (&Pvc, &Pv)> {
        self.pvcs
            .iter()
            .filter_map(|claim| Some((claim, self.pv(&claim.volume_name)?)))
    }

    pub fn pv(&self, name: &str) -> Option<&Pv> {
        self.pvs.iter().find(|p| p.name == name)
    }

    pub fn service_account(&self, namespace: &str, name: &str) -> Option<&ServiceAccount> {
        self.service_accounts
            .iter()
            .find(|a| a.namespace == namespace && a.name == name)
    }

    pub fn storage_class(&self, name: &str) -> Option<&StorageClass> {
        self.storage_classes.iter().find(|c| c.name == name)
    }
}
