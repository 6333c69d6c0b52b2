//! ra2.app.013: workloads can be updated (and rolled back) one pod at a time: no Deployment or
//! DeploymentConfig `Recreate` strategy, no StatefulSet or DaemonSet `OnDelete` update strategy.

use crate::model::{Object, WorkloadKind};
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    object: Some(check_object),
    ..Checks::NONE
};

/// The strategy field of a controller kind and the strategy type that does not roll. A
/// DeploymentConfig's types are `Rolling`, `Recreate` and `Custom`; a `Custom` deployer runs an
/// image of the user's choice, which may or may not roll, so it is not judged. An Argo Rollout
/// always rolls (canary or blue-green steps), and a Knative Service moves traffic from one
/// revision to the next, so neither is judged.
fn non_rolling(kind: WorkloadKind) -> Option<(&'static str, &'static str)> {
    match kind {
        WorkloadKind::Deployment | WorkloadKind::DeploymentConfig => Some(("strategy", "Recreate")),
        WorkloadKind::StatefulSet | WorkloadKind::DaemonSet => Some(("updateStrategy", "OnDelete")),
        _ => None,
    }
}

fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some((field, stopping)) = object.workload_kind().and_then(non_rolling) else {
        return;
    };
    let Some(strategy) = object.root.path(&["spec", field, "type"]) else {
        return;
    };
    if strategy.as_str() != Some(stopping) {
        return;
    }
    let kind = object.kind.unwrap_or("?");
    let effect = if stopping == "Recreate" {
        "stops every old pod before it starts a new one"
    } else {
        "replaces a pod only when someone deletes it"
    };
    cx.report(
        "rolling-update",
        &strategy,
        format!("update strategy {stopping} {effect}, so the {kind} cannot roll a new version out pod by pod"),
    );
}
