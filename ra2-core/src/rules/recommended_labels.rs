//! ra2.app.045: pods carry the recommended labels `app.kubernetes.io/name`,
//! `app.kubernetes.io/version` and `app.kubernetes.io/part-of`.

use crate::model::{Object, WorkloadKind};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    object: Some(check),
    ..Checks::NONE
};

const RECOMMENDED: &[&str] = &[
    "app.kubernetes.io/name",
    "app.kubernetes.io/version",
    "app.kubernetes.io/part-of",
];

/// The labels that count are the pod's: the template's for controllers, never the
/// controller's own (ra2-rules.md §3.3). An empty value names nothing and counts as missing.
fn check(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(pod) = object.pod_spec() else { return };
    let labels = pod.labels();
    let missing: Vec<&str> = RECOMMENDED
        .iter()
        .copied()
        .filter(|key| !has_value(labels.as_ref(), key))
        .collect();
    if missing.is_empty() {
        return;
    }
    let at = labels
        .clone()
        .filter(Located::is_map)
        .or_else(|| pod.metadata.clone())
        .unwrap_or_else(|| pod.spec.clone());
    let whose = if pod.workload == WorkloadKind::Pod {
        "pod"
    } else {
        "pod template"
    };
    let message = format!("{whose} labels lack {}", join(&missing));
    let on_controller: Vec<&str> = missing
        .iter()
        .copied()
        .filter(|key| {
            pod.workload != WorkloadKind::Pod
                && has_value(object.metadata().and_then(|m| m.get("labels")).as_ref(), key)
        })
        .collect();
    if on_controller.is_empty() {
        cx.report("recommended-labels", &at, message);
    } else {
        let kind = object.kind.unwrap_or("controller");
        cx.report_with_help(
            "recommended-labels",
            &at,
            message,
            format!(
                "The {kind}'s own metadata has {}, but labels there do not reach its pods: copy them to the pod template's metadata.labels.",
                join(&on_controller)
            ),
        );
    }
}

fn has_value(labels: Option<&Located<'_>>, key: &str) -> bool {
    labels
        .and_then(|l| l.get(key))
        .is_some_and(|v| v.scalar_text().is_some_and(|t| !t.is_empty()))
}

/// `a`, `a and b`, `a, b and c`.
fn join(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
