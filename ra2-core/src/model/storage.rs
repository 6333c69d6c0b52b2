//! Storage views for ra2.stg.005/006/007 and the cross-document facts: volume source kinds,
//! in-tree plugins and provisioners, and the claims an object makes (PersistentVolumeClaims,
//! StatefulSet volumeClaimTemplates, generic ephemeral volumes) with their effective class.

use crate::model::{Object, PodSpec};
use crate::parse::view::Located;

/// The legacy annotation that names a claim's class; when present it wins over
/// `spec.storageClassName` (K-HELP `GetPersistentVolumeClaimClass`, ra2-rules.md §3.32).
pub(crate) const CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";

/// Annotations that make a StorageClass the cluster default.
pub(crate) const DEFAULT_CLASS_ANNOTATIONS: &[&str] = &[
    "storageclass.kubernetes.io/is-default-class",
    "storageclass.beta.kubernetes.io/is-default-class",
];

/// A source field of a pod volume (core/v1 `VolumeSource`).
pub(crate) const POD_VOLUME_SOURCES: &[&str] = &[
    "hostPath",
    "emptyDir",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "persistentVolumeClaim",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
    "image",
];

/// Whether `key` is one of [`POD_VOLUME_SOURCES`].
pub(crate) fn is_pod_volume_source(key: &str) -> bool {
    POD_VOLUME_SOURCES.contains(&key)
}

/// A source field of a PersistentVolume (core/v1 `PersistentVolumeSource`).
pub(crate) const PV_SOURCES: &[&str] = &[
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "hostPath",
    "glusterfs",
    "nfs",
    "rbd",
    "iscsi",
    "cinder",
    "cephfs",
    "fc",
    "flocker",
    "flexVolume",
    "azureFile",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "portworxVolume",
    "scaleIO",
    "local",
    "storageos",
    "csi",
];

/// Whether `key` is one of [`PV_SOURCES`].
pub(crate) fn is_pv_source(key: &str) -> bool {
    PV_SOURCES.contains(&key)
}

/// Sources that reach a storage backend through a plugin built into Kubernetes (or FlexVolume,
/// its deprecated out-of-tree predecessor) rather than a CSI driver.
pub(crate) const IN_TREE_STORAGE: &[&str] = &[
    "nfs",
    "iscsi",
    "fc",
    "rbd",
    "cephfs",
    "glusterfs",
    "awsElasticBlockStore",
    "gcePersistentDisk",
    "azureDisk",
    "azureFile",
    "cinder",
    "vsphereVolume",
    "portworxVolume",
    "photonPersistentDisk",
    "flocker",
    "quobyte",
    "scaleIO",
    "storageos",
    "flexVolume",
];

/// The source fields a volume sets, out of `sources`, in the order written.
pub(crate) fn sources<'v, 'd>(
    volume: &'v Located<'d>,
    is_source: fn(&str) -> bool,
) -> impl Iterator<Item = (&'d str, Located<'d>)> + 'v {
    volume.entries_where(is_source)
}

/// A StorageClass provisioner that is an in-tree volume plugin (`kubernetes.io/aws-ebs`). The
/// `kubernetes.io/no-provisioner` of local volumes provisions nothing and is not one.
pub(crate) fn is_in_tree_provisioner(provisioner: &str) -> bool {
    provisioner.starts_with("kubernetes.io/") && provisioner != "kubernetes.io/no-provisioner"
}

/// The CSI driver that CSI migration hands an in-tree provisioner's volumes to.
pub(crate) fn csi_driver_for(provisioner: &str) -> Option<&'static str> {
    Some(match provisioner.strip_prefix("kubernetes.io/")? {
        "aws-ebs" => "ebs.csi.aws.com",
        "gce-pd" => "pd.csi.storage.gke.io",
        "azure-disk" => "disk.csi.azure.com",
        "azure-file" => "file.csi.azure.com",
        "cinder" => "cinder.csi.openstack.org",
        "vsphere-volume" => "csi.vsphere.vmware.com",
        "portworx-volume" => "pxd.portworx.com",
        "rbd" => "rbd.csi.ceph.com",
        _ => return None,
    })
}

/// A request for storage: a PersistentVolumeClaim, or a claim template that creates one.
#[derive(Clone, Debug)]
pub(crate) struct ClaimView<'d> {
    /// `claim "data"`, `volume claim template "data"`, `ephemeral volume "scratch"`.
    pub describe: String,
    pub metadata: Option<Located<'d>>,
    pub spec: Located<'d>,
}

impl<'d> ClaimView<'d> {
    /// Where the claim names its class: the annotation when present (even when empty), else
    /// `spec.storageClassName`; `None` when neither is set, so the cluster's default applies.
    pub(crate) fn class(&self) -> Option<Located<'d>> {
        let annotation = self
            .metadata
            .as_ref()
            .and_then(|m| m.get("annotations"))
            .and_then(|a| a.get(CLASS_ANNOTATION))
            .filter(|a| a.as_str().is_some());
        annotation.or_else(|| self.spec.get("storageClassName").filter(|c| c.as_str().is_some()))
    }

    /// `spec.volumeName`, when it names a volume.
    pub(crate) fn volume_name(&self) -> Option<Located<'d>> {
        self.spec
            .get("volumeName")
            .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
    }

    /// `spec.selector`, when it selects anything: provisioners refuse claims with a selector,
    /// so such a claim can only bind to volumes made beforehand.
    pub(crate) fn selector(&self) -> Option<Located<'d>> {
        self.spec.get("selector").filter(|s| {
            ["matchLabels", "matchExpressions"].iter().any(|k| {
                s.get(k)
                    .is_some_and(|v| v.entries().next().is_some() || v.items().next().is_some())
            })
        })
    }
}

/// The claims an object makes itself: a PersistentVolumeClaim, or a StatefulSet's
/// `volumeClaimTemplates`.
pub(crate) fn object_claims<'d>(object: &Object<'d>) -> Vec<ClaimView<'d>> {
    if object.is("", "PersistentVolumeClaim") {
        return object
            .root
            .get("spec")
            .filter(Located::is_map)
            .map(|spec| ClaimView {
                describe: format!("claim {:?}", object.name.unwrap_or("?")),
                metadata: object.metadata(),
                spec,
            })
            .into_iter()
            .collect();
    }
    if object.is("apps", "StatefulSet") {
        let templates = object.root.path(&["spec", "volumeClaimTemplates"]);
        return templates
            .iter()
            .flat_map(Located::items)
            .filter_map(|template| {
                let metadata = template.get("metadata");
                let name = metadata.as_ref().and_then(|m| m.str_at("name")).unwrap_or("?");
                Some(ClaimView {
                    describe: format!("volume claim template {name:?}"),
                    spec: template.get("spec").filter(Located::is_map)?,
                    metadata,
                })
            })
            .collect();
    }
    Vec::new()
}

/// The claims a pod's generic ephemeral volumes create.
pub(crate) fn pod_claims<'d>(pod: &PodSpec<'d>) -> Vec<ClaimView<'d>> {
    pod.volumes()
        .filter_map(|volume| {
            let template = volume.path(&["ephemeral", "volumeClaimTemplate"])?;
            Some(ClaimView {
                describe: format!("ephemeral volume {:?}", volume.str_at("name").unwrap_or("?")),
                spec: template.get("spec").filter(Located::is_map)?,
                metadata: template.get("metadata"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_tree_provisioners() {
        assert!(is_in_tree_provisioner("kubernetes.io/aws-ebs"));
        assert!(is_in_tree_provisioner("kubernetes.io/glusterfs"));
        assert!(!is_in_tree_provisioner("kubernetes.io/no-provisioner"));
        assert!(!is_in_tree_provisioner("ebs.csi.aws.com"));
        assert!(!is_in_tree_provisioner("k8s.io/minikube-hostpath"));
        assert_eq!(csi_driver_for("kubernetes.io/gce-pd"), Some("pd.csi.storage.gke.io"));
        assert_eq!(csi_driver_for("kubernetes.io/glusterfs"), None);
        assert_eq!(csi_driver_for("ebs.csi.aws.com"), None);
    }
}

/// A pod volume with a `hostPath` key, whatever its `type`.
#[derive(Clone, Debug)]
pub(crate) struct HostPathVolume<'d> {
    /// The volume's name, `?` when it has none.
    pub name: &'d str,
    /// `hostPath.path`, `?` when it is not a string.
    pub path: &'d str,
    /// The `hostPath` node, where findings point.
    pub node: Located<'d>,
}

/// The pod's hostPath volumes, in order.
pub(crate) fn host_path_volumes<'p, 'd>(pod: &'p PodSpec<'d>) -> impl Iterator<Item = HostPathVolume<'d>> + 'p {
    pod.volumes().filter_map(|volume| {
        let node = volume.get("hostPath")?;
        Some(HostPathVolume {
            name: volume.str_at("name").unwrap_or("?"),
            path: node.str_at("path").unwrap_or("?"),
            node,
        })
    })
}
