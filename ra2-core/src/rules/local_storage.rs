//! ra2.app.025: workloads do not keep data on node-local storage: no hostPath volumes, no local
//! PersistentVolumes, no StorageClass without a provisioner, no claim bound to a local volume.

use crate::bundle::Bundle;
use crate::model::Object;
use crate::rules::{BundleContext, Context, Rule};

pub static RULE: Rule = Rule {
    pod: Some(super::host_path::check_pod),
    object: Some(check_object),
    bundle: Some(check_bundle),
    ..Rule::new("ra2.app.025")
};

/// The provisioner Kubernetes documents for classes of statically created local volumes.
const NO_PROVISIONER: &str = "kubernetes.io/no-provisioner";

fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    let name = object.name.unwrap_or("?");
    if object.is("", "PersistentVolume") {
        if let Some(local) = object.root.path(&["spec", "local"]) {
            let path = local.str_at("path").unwrap_or("?");
            cx.report(
                "local-pv",
                &local,
                format!("persistent volume {name:?} is a local volume on one node's disk at {path}"),
            );
        }
    }
    if object.is("storage.k8s.io", "StorageClass") {
        if let Some(provisioner) = object
            .root
            .get("provisioner")
            .filter(|p| p.as_str() == Some(NO_PROVISIONER))
        {
            cx.report(
                "no-provisioner",
                &provisioner,
                format!(
                    "storage class {name:?} has no provisioner ({NO_PROVISIONER}), the class for pre-created local volumes"
                ),
            );
        }
    }
}

/// A claim bound by `volumeName` to a local `PersistentVolume` in the same input.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    for claim in &bundle.pvcs {
        if bundle.pv(&claim.volume_name).is_some_and(|pv| pv.local) {
            cx.report(
                "local-pv",
                &claim.place,
                format!(
                    "claim {:?} is bound to persistent volume {:?}, which is a local volume",
                    claim.name, claim.volume_name
                ),
            );
        }
    }
}
