//! ra2.stg.006: persistent storage comes through CSI drivers, not the in-tree volume plugins
//! that Kubernetes deprecated and is removing.

use crate::model::bundle::{Bundle, Claim};
use crate::model::storage::{
    IN_TREE_STORAGE, csi_driver_for, is_in_tree_provisioner, is_pod_volume_source, is_pv_source, sources,
};
use crate::model::{Object, PodSpec};
use crate::rules::{BundleContext, Checks, Context, Gather};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    object: Some(check_object),
    gather: Some(gather),
    bundle: Some(check_bundle),
    ..Checks::NONE
};

/// in-tree-volume: a pod volume that reaches its storage through an in-tree plugin. Inline
/// `csi` volumes are CSI and pass.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for volume in pod.volumes() {
        let name = volume.str_at("name").unwrap_or("?");
        for (kind, source) in sources(&volume, is_pod_volume_source) {
            if IN_TREE_STORAGE.contains(&kind) {
                cx.report(
                    "in-tree-volume",
                    &source,
                    format!("volume {name:?} uses the in-tree {kind} plugin instead of a CSI driver"),
                );
            }
        }
    }
}

fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    if object.is("", "PersistentVolume") {
        persistent_volume(object, cx);
    } else if object.is("storage.k8s.io", "StorageClass") {
        storage_class(object, cx);
    }
}

/// pv-source: a PersistentVolume backed by an in-tree plugin. hostPath and local volumes are
/// node-local storage, judged by ra2.app.007 and ra2.app.025.
fn persistent_volume(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(spec) = object.root.get("spec") else { return };
    let name = object.name.unwrap_or("?");
    for (kind, source) in sources(&spec, is_pv_source) {
        if IN_TREE_STORAGE.contains(&kind) {
            cx.report(
                "pv-source",
                &source,
                format!("persistent volume {name:?} uses the in-tree {kind} plugin instead of a CSI driver"),
            );
        }
    }
}

/// provisioner: a StorageClass whose provisioner is an in-tree plugin (`kubernetes.io/...`,
/// except `kubernetes.io/no-provisioner`).
fn storage_class(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(provisioner) = object.root.get("provisioner") else {
        return;
    };
    let Some(text) = provisioner.as_str().filter(|p| is_in_tree_provisioner(p)) else {
        return;
    };
    let message = format!(
        "storage class {:?} uses the in-tree provisioner {text}",
        object.name.unwrap_or("?")
    );
    match csi_driver_for(text) {
        Some(driver) => cx.report_with_help(
            "provisioner",
            &provisioner,
            message,
            format!("Provision through the CSI driver {driver}, which took over {text} volumes."),
        ),
        None => cx.report("provisioner", &provisioner, message),
    }
}

/// Claims that name a storage class.
fn gather(object: &Object<'_>, cx: &mut Gather<'_>) {
    for claim in Claim::all(object, |at| cx.place(at)) {
        if claim.class.is_some() {
            cx.record(claim);
        }
    }
}

/// The same problems seen from the claims that lead to them: a claim naming a StorageClass of
/// the input whose provisioner is in-tree (provisioner), and a claim bound by `volumeName` to a
/// PersistentVolume of the input backed by an in-tree plugin (pv-source).
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    for claim in cx.facts::<Claim>(bundle) {
        let Some(class) = claim.class.as_deref().and_then(|c| bundle.storage_class(c)) else {
            continue;
        };
        if is_in_tree_provisioner(&class.provisioner) {
            cx.report(
                "provisioner",
                &claim.place,
                format!(
                    "{} uses storage class {:?}, whose provisioner {} is an in-tree plugin",
                    claim.describe, class.name, class.provisioner
                ),
            );
        }
    }
    for (claim, pv) in bundle.bound_claims() {
        if let Some(source) = pv.source.as_deref().filter(|s| IN_TREE_STORAGE.contains(s)) {
            cx.report(
                "pv-source",
                &claim.place,
                format!(
                    "claim {:?} is bound to persistent volume {:?}, which uses the in-tree {source} plugin",
                    claim.name, pv.name
                ),
            );
        }
    }
}
