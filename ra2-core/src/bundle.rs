//! Cross-document facts. All files of one run form one bundle: while documents are read, the
//! linter records small facts (`NetworkAttachmentDefinitions`, `PersistentVolumes`, claims, pod
//! network attachments) with resolved places, so documents can be dropped as soon as they are
//! linted and memory stays bounded by the largest document.

use std::collections::{BTreeMap, BTreeSet};

use crate::report::{ObjectRef, Related, Severity};
use crate::source::Position;

/// A resolved location in the input, kept after its document is gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub document: usize,
    pub object: ObjectRef,
    /// Index of the object in the run, for suppression.
    pub object_index: usize,
    pub pointer: String,
    pub start: Position,
    pub end: Position,
    pub offset: usize,
    pub len: usize,
    pub related: Vec<Related>,
}

impl Place {
    /// Resolves where a finding about `at` goes: the node's site, and the anchor when the node
    /// came through an alias.
    pub fn of(target: crate::rules::Target<'_>, at: &crate::view::Located<'_>) -> Place {
        let site = at.site();
        let doc = at.doc();
        let related = site
            .related
            .map(|span| {
                let start = doc.position(span.start);
                let end = doc.position(span.end);
                Related {
                    message: "defined here (reached through an alias)".to_owned(),
                    line: start.line,
                    column: start.column,
                    end_line: end.line,
                    end_column: end.column,
                    offset: span.start,
                    len: span.len(),
                }
            })
            .into_iter()
            .collect();
        Place {
            file: target.file.to_owned(),
            document: target.document,
            object: target.object.clone(),
            object_index: target.object_index,
            pointer: at.pointer().to_owned(),
            start: doc.position(site.span.start),
            end: doc.position(site.span.end),
            offset: site.span.start,
            len: site.span.len(),
            related,
        }
    }
}

/// A finding from a cross-document rule.
#[derive(Clone, Debug)]
pub struct BundleFinding {
    pub rule: &'static str,
    pub check: &'static str,
    pub severity: Severity,
    pub place: Place,
    pub message: String,
    /// A fix more specific than the rule's remediation.
    pub help: Option<String>,
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
/// volume's template) and the storage class it names.
#[derive(Clone, Debug)]
pub struct Claim {
    /// `claim "data"`, `volume claim template "data"`, ... for messages.
    pub describe: String,
    /// The effective class (annotation, else `storageClassName`); `None`: the default applies.
    pub class: Option<String>,
    /// It names a volume with `volumeName` or selects volumes by label.
    pub pinned: bool,
    /// Where the class is written, else the claim's `spec`.
    pub place: Place,
}

/// A `PersistentVolumeClaim` that names its volume.
#[derive(Clone, Debug)]
pub struct Pvc {
    pub namespace: String,
    pub name: String,
    pub volume_name: String,
    /// Where `volumeName` is written.
    pub place: Place,
}

/// A pod's network attachments and the extended resources its containers request.
#[derive(Clone, Debug)]
pub struct PodNetworks {
    pub namespace: String,
    /// Where the network annotation is written.
    pub place: Place,
    /// (namespace, name) of each attachment, in order.
    pub attachments: Vec<(String, String)>,
    /// Total extended-resource limits over the pod's containers, by resource name.
    pub resources: BTreeMap<String, i128>,
}

/// A DANM network object in the input (`DanmNet`, `TenantNetwork`, `ClusterNetwork`).
#[derive(Clone, Debug)]
pub struct DanmNetwork {
    pub kind: crate::danm::NetworkKind,
    /// Empty for a cluster-scoped `ClusterNetwork`.
    pub namespace: String,
    pub name: String,
}

/// A pod's DANM interfaces (`danm.io/interfaces` or `danm.k8s.io/interfaces`).
#[derive(Clone, Debug)]
pub struct DanmPod {
    pub namespace: String,
    /// Where the annotation is written.
    pub place: Place,
    pub interfaces: Vec<crate::danm::Interface>,
}

/// A prefixed resource that a regular, init or sidecar container requests or limits, in a pod
/// whose metadata selects no networks (neither the Multus nor a DANM annotation) and that
/// requests no huge pages (a DPDK pod drives its devices from user space, without a CNI
/// attachment).
#[derive(Clone, Debug)]
pub struct UnattachedResource {
    pub resource: String,
    /// `container "du"`, for messages.
    pub container: String,
    /// Where the resource is written: its limit, else its request.
    pub place: Place,
}

/// A `ServiceAccount` in the input.
#[derive(Clone, Debug)]
pub struct ServiceAccount {
    pub namespace: String,
    pub name: String,
    /// `automountServiceAccountToken`, when it is a boolean.
    pub automount_token: Option<bool>,
}

/// A pod that leaves `automountServiceAccountToken` unset, so its service account decides.
#[derive(Clone, Debug)]
pub struct TokenPod {
    pub namespace: String,
    /// `serviceAccountName` (or the deprecated `serviceAccount`), else `default`.
    pub service_account: String,
    /// Where the service account is named, else the pod spec.
    pub place: Place,
}

/// Everything cross-document rules can see.
#[derive(Clone, Debug, Default)]
pub struct Bundle {
    pub nads: Vec<Nad>,
    pub pvs: Vec<Pv>,
    pub pvcs: Vec<Pvc>,
    pub pods: Vec<PodNetworks>,
    pub danm_networks: Vec<DanmNetwork>,
    pub danm_pods: Vec<DanmPod>,
    pub storage_classes: Vec<StorageClass>,
    pub claims: Vec<Claim>,
    pub unattached_resources: Vec<UnattachedResource>,
    pub service_accounts: Vec<ServiceAccount>,
    pub token_pods: Vec<TokenPod>,
    /// Namespaces with a `ResourceQuota` or a `LimitRange` in the input.
    pub resource_policy_namespaces: BTreeSet<String>,
    /// The first object with a pod spec in each namespace: where its namespace is written, else
    /// its metadata.
    pub first_workloads: BTreeMap<String, Place>,
    /// Profile facts of pod specs that show a network-intensive signal or may still turn out
    /// to (ra2-rules.md §1.2); pods with neither are basic and not recorded.
    pub workloads: Vec<crate::profile::WorkloadProfile>,
    /// Nodes, control-plane components and kubelet configurations (see [`crate::platform`]).
    pub platform: crate::platform::Facts,
}

impl Bundle {
    /// Appends the facts of `later`, a bundle of documents read after this one's (see
    /// [`crate::Linter::absorb`]); its object indices are shifted by `base`, the number of
    /// objects read before it. The result equals one bundle read in that order.
    pub fn absorb(&mut self, later: Bundle, base: usize) {
        // Destructured, so that a new kind of fact cannot be forgotten here.
        let Bundle {
            nads,
            pvs,
            pvcs,
            pods,
            danm_networks,
            danm_pods,
            storage_classes,
            claims,
            unattached_resources,
            service_accounts,
            token_pods,
            resource_policy_namespaces,
            first_workloads,
            workloads,
            platform,
        } = later;
        let shift = |mut place: Place| {
            place.object_index += base;
            place
        };
        self.nads.extend(nads);
        self.pvs.extend(pvs);
        self.pvcs.extend(pvcs.into_iter().map(|mut p| {
            p.place = shift(p.place);
            p
        }));
        self.pods.extend(pods.into_iter().map(|mut p| {
            p.place = shift(p.place);
            p
        }));
        self.danm_networks.extend(danm_networks);
        self.danm_pods.extend(danm_pods.into_iter().map(|mut p| {
            p.place = shift(p.place);
            p
        }));
        self.storage_classes.extend(storage_classes);
        self.claims.extend(claims.into_iter().map(|mut c| {
            c.place = shift(c.place);
            c
        }));
        self.unattached_resources
            .extend(unattached_resources.into_iter().map(|mut u| {
                u.place = shift(u.place);
                u
            }));
        self.service_accounts.extend(service_accounts);
        self.token_pods.extend(token_pods.into_iter().map(|mut t| {
            t.place = shift(t.place);
            t
        }));
        self.resource_policy_namespaces.extend(resource_policy_namespaces);
        self.platform.absorb(platform, base);
        for (namespace, place) in first_workloads {
            // The first workload of the whole run wins, as when read in one pass.
            self.first_workloads.entry(namespace).or_insert_with(|| shift(place));
        }
        self.workloads.extend(workloads.into_iter().map(|mut w| {
            w.object_index += base;
            w.local = w.local.map(|(signal, place)| (signal, shift(place)));
            w.annotation = w.annotation.map(shift);
            for device in &mut w.devices {
                device.place.object_index += base;
            }
            w
        }));
    }

    pub fn nad(&self, namespace: &str, name: &str) -> Option<&Nad> {
        self.nads.iter().find(|n| n.namespace == namespace && n.name == name)
    }

    /// The first `NetworkAttachmentDefinition` whose `resourceName` is `resource`.
    pub fn nad_for_resource(&self, resource: &str) -> Option<&Nad> {
        self.nads.iter().find(|n| n.resource_name.as_deref() == Some(resource))
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
