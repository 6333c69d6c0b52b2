//! ra2.ntw.003: a pod asks for no more additional network attachments than every RA2 platform
//! provides (at least five besides the default one).

use crate::model::PodSpec;
use crate::parse::view::Located;
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    params: Some(super::params::decoder::<Params>),
    ..Checks::NONE
};

/// How many attachments a pod may request.
#[derive(Clone, Debug)]
struct Params {
    max_attachments: u64,
}

impl RuleParams for Params {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Params {
            max_attachments: params.integer("max_attachments").unwrap_or(GUARANTEED),
        }
    }
}

/// What RA2 guarantees when the user sets nothing.
const GUARANTEED: u64 = 5;

/// too-many: more attachments in the pod's network annotations (Multus and DANM together) than
/// the platform guarantees.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let multus = pod.networks();
    let danm = crate::telco::danm::ANNOTATIONS
        .iter()
        .find_map(|key| pod.annotation(key));
    let Some(annotation) = multus.as_ref().map(|(a, _)| a.clone()).or_else(|| danm.clone()) else {
        return;
    };
    let mut names: Vec<String> = Vec::new();
    if let Some((_, Some(selection))) = &multus {
        names.extend(selection.elements.iter().map(|e| e.name.clone()));
    }
    if let Some(text) = danm.as_ref().and_then(Located::as_str) {
        names.extend(
            crate::telco::danm::parse_interfaces(text)
                .interfaces
                .into_iter()
                .map(|i| i.name),
        );
    }
    let max = cx.params::<Params>().max_attachments;
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
