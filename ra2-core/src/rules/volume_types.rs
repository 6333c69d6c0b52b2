//! ra2.stg.005: pod volumes use the types every RA2 platform must support (emptyDir, configMap,
//! secret, persistentVolumeClaim) or ones that need no storage backend.

use crate::model::PodSpec;
use crate::model::storage::{is_pod_volume_source, sources};
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

/// Guaranteed by RA2, or served from the API (`projected`, `downwardAPI`) or through a claim
/// (`ephemeral`). hostPath is ra2.app.007's alone, so it is not reported twice.
pub(crate) const PORTABLE: &[&str] = &[
    "emptyDir",
    "configMap",
    "secret",
    "persistentVolumeClaim",
    "projected",
    "downwardAPI",
    "ephemeral",
    "hostPath",
];

/// Each pod volume whose source is another type (nfs, iscsi, an inline csi volume, a cloud
/// disk, gitRepo, ...). A volume without a source defaults to emptyDir; unknown or mis-cased
/// fields are dropped by the API server and are not a source.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for volume in pod.volumes() {
        let name = volume.str_at("name").unwrap_or("?");
        for (kind, source) in sources(&volume, is_pod_volume_source) {
            if !PORTABLE.contains(&kind) {
                cx.report(
                    "volume-types",
                    &source,
                    format!("volume {name:?} is of type {kind}, which RA2 platforms need not support"),
                );
            }
        }
    }
}
