//! ra2.ntw.003: a pod asks for no more additional network attachments than every RA2 platform
//! provides (at least five besides the default one).

use crate::model::PodSpec;
use crate::multus::{NETWORKS_ANNOTATION, parse_networks};
use crate::rules::{Context, Rule};

pub static RULE: Rule = Rule {
    pod: Some(check_pod),
    ..Rule::new("ra2.ntw.003")
};

/// What RA2 guarantees when the user sets nothing.
const GUARANTEED: u64 = 5;

/// too-many: more attachments in the pod's network annotation than the platform guarantees.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(annotation) = pod.annotation(NETWORKS_ANNOTATION) else {
        return;
    };
    let Some(text) = annotation.as_str() else { return };
    let selection = parse_networks(text);
    let max = cx
        .param("max_attachments")
        .and_then(|v| v.as_u64())
        .unwrap_or(GUARANTEED);
    let count = selection.elements.len();
    if u64::try_from(count).unwrap_or(u64::MAX) <= max {
        return;
    }
    let names: Vec<&str> = selection.elements.iter().map(|e| e.name.as_str()).collect();
    let limit = if max == GUARANTEED {
        format!("the {max} that RA2 guarantees per pod")
    } else {
        format!("max_attachments ({max})")
    };
    cx.report(
        "too-many",
        &annotation,
        format!(
            "pod requests {count} additional network attachments ({}), more than {limit}",
            names.join(", ")
        ),
    );
}
