//! ra2.stg.007: claims get their storage through StorageClasses (dynamic provisioning), not by
//! opting out of them or pinning a volume.

use crate::model::bundle::{Bundle, Claim};
use crate::model::storage::{CLASS_ANNOTATION, ClaimView, object_claims, pod_claims};
use crate::model::{Object, PodSpec};
use crate::rules::{BundleContext, Checks, Context, Gather};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    object: Some(check_object),
    gather: Some(gather),
    bundle: Some(check_bundle),
    ..Checks::NONE
};

/// PersistentVolumeClaims and StatefulSet volumeClaimTemplates.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    for claim in object_claims(object) {
        check_claim(&claim, cx);
    }
}

/// Generic ephemeral volumes' claim templates.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for claim in pod_claims(pod) {
        check_claim(&claim, cx);
    }
}

/// static-binding: the claim names its volume or selects volumes by label; empty-class: its effective class is `""`,
/// which turns dynamic provisioning off. The annotation wins over `storageClassName`.
fn check_claim(claim: &ClaimView<'_>, cx: &mut Context<'_>) {
    if let Some(volume) = claim.volume_name() {
        cx.report(
            "static-binding",
            &volume,
            format!(
                "{} is bound by volumeName to persistent volume {:?} instead of being provisioned through a storage class",
                claim.describe,
                volume.as_str().unwrap_or_default()
            ),
        );
        return;
    }
    if let Some(selector) = claim.selector() {
        cx.report(
            "static-binding",
            &selector,
            format!(
                "{} selects existing persistent volumes by label, which no provisioner serves",
                claim.describe
            ),
        );
        return;
    }
    let Some(class) = claim.class() else { return };
    if class.as_str() == Some("") {
        let how = if class.pointer().ends_with("storageClassName") {
            "storageClassName".to_owned()
        } else {
            format!("annotation {CLASS_ANNOTATION}")
        };
        cx.report(
            "empty-class",
            &class,
            format!(
                "{} sets {how} to \"\", which turns dynamic provisioning off",
                claim.describe
            ),
        );
    }
}

/// Claims that name no class and no volume.
fn gather(object: &Object<'_>, cx: &mut Gather<'_>) {
    for claim in Claim::all(object, |at| cx.place(at)) {
        if claim.class.is_none() && !claim.pinned {
            cx.record(claim);
        }
    }
}

/// default-class: a claim that names no class gets the cluster's default, if there is one;
/// silent when the input itself has a StorageClass annotated as the default.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    if bundle.storage_classes.iter().any(|c| c.default) {
        return;
    }
    for claim in cx.facts::<Claim>(bundle) {
        cx.report(
            "default-class",
            &claim.place,
            format!(
                "{} names no storage class, so it depends on the cluster having a default one",
                claim.describe
            ),
        );
    }
}
