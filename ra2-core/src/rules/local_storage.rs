//! ra2.app.025: workloads do not keep data on node-local storage: no hostPath volumes, no local
//! PersistentVolumes, no StorageClass without a provisioner, no claim bound to a local volume.

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

/// The provisioner Kubernetes documents for classes of statically created local volumes.
const NO_PROVISIONER: &str = "kubernetes.io/no-provisioner";

/// host-path: the volumes ra2.app.007/host-path reports too (in both editions). Both
/// requirements stand, so the finding stays, but it names the other one and its fix instead of
/// repeating it.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for HostPathVolume { name, path, node } in host_path_volumes(pod) {
        cx.report_with_help(
            "host-path",
            &node,
            format!("volume {name:?} keeps its data in host path {path} on one node (the volume ra2.app.007/host-path reports)"),
            "Replacing the volume as ra2.app.007 asks clears both findings: keep data on a PersistentVolumeClaim of a StorageClass whose CSI driver provides networked or replicated storage, and scratch space on emptyDir.",
        );
    }
}

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
    for (claim, pv) in bundle.bound_claims() {
        if pv.local {
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_host_path_volume_is_reported_by_both_rules_and_the_second_names_the_first() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec:\n  containers: [{name: c, image: r/c:1}]\n  volumes: [{name: logs, hostPath: {path: /var/log}}]\n";
        let config = crate::Config {
            edition: crate::Edition::Latest,
            ..Default::default()
        };
        let report = crate::lint_str("t.yaml", pod, &config);
        let of = |rule: &str| {
            report
                .findings
                .iter()
                .find(|f| f.rule == rule && f.check == "host-path")
                .unwrap_or_else(|| panic!("{rule} reports the volume"))
        };
        let (first, second) = (of("ra2.app.007"), of("ra2.app.025"));
        assert!(second.message.contains("ra2.app.007/host-path"), "{}", second.message);
        assert!(second.help.contains("ra2.app.007"), "{}", second.help);
        assert_ne!(first.message, second.message);
        assert_ne!(first.help, second.help);
    }
}
