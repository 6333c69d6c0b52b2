//! ra2.ntw.003: a pod asks for no more additional network attachments than every RA2 platform
//! provides (at least five besides the default one).

use crate::model::PodSpec;
use crate::multus::{NETWORKS_ANNOTATION, parse_networks};
use crate::rules::{Context, Rule};
use crate::view::Located;

pub static RULE: Rule = Rule {
    pod: Some(check_pod),
    ..Rule::new("ra2.ntw.003")
};

/// What RA2 guarantees when the user sets nothing.
const GUARANTEED: u64 = 5;

/// too-many: more attachments in the pod's network annotations (Multus and DANM together) than
/// the platform guarantees.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let multus = pod.annotation(NETWORKS_ANNOTATION);
    let danm = crate::danm::ANNOTATIONS.iter().find_map(|key| pod.annotation(key));
    let Some(annotation) = multus.clone().or_else(|| danm.clone()) else {
        return;
    };
    let mut names: Vec<String> = Vec::new();
    if let Some(text) = multus.as_ref().and_then(Located::as_str) {
        names.extend(parse_networks(text).elements.into_iter().map(|e| e.name));
    }
    if let Some(text) = danm.as_ref().and_then(Located::as_str) {
        names.extend(
            crate::danm::parse_interfaces(text)
                .interfaces
                .into_iter()
                .map(|i| i.name),
        );
    }
    let max = cx
        .param("max_attachments")
        .and_then(|v| v.as_u64())
        .unwrap_or(GUARANTEED);
    let count = names.len();
    if u64::try_from(count).unwrap_or(u64::MAX) <= max {
        return;
    }
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
