//! ra2.app.007: workloads do not use hostPath volumes (base: should not; latest: must not).

use crate::model::bundle::Bundle;
use crate::model::storage::{HostPathVolume, host_path_volumes};
use crate::model::{Object, PodSpec};
use crate::rules::{BundleContext, Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    object: Some(check_object),
    bundle: Some(check_bundle),
    ..Checks::NONE
};

/// Every pod volume with a `hostPath` key, whatever its `type`. ra2.app.025 reports the same
/// volumes as local storage, naming this finding.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for HostPathVolume { name, path, node } in host_path_volumes(pod) {
        cx.report("host-path", &node, format!("volume {name:?} mounts host path {path}"));
    }
}

/// A `PersistentVolume` backed by a host path is node-local storage too.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is("", "PersistentVolume") {
        return;
    }
    if let Some(host_path) = object.root.path(&["spec", "hostPath"]) {
        let path = host_path.str_at("path").unwrap_or("?");
        cx.report(
            "pv",
            &host_path,
            format!(
                "persistent volume {:?} is backed by host path {path}",
                object.name.unwrap_or("?")
            ),
        );
    }
}

/// A claim bound by `volumeName` to a hostPath `PersistentVolume` in the same input.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    for (claim, pv) in bundle.bound_claims() {
        if pv.host_path {
            cx.report(
                "pv",
                &claim.place,
                format!(
                    "claim {:?} is bound to persistent volume {:?}, which is backed by a host path",
                    claim.name, claim.volume_name
                ),
            );
        }
    }
}
