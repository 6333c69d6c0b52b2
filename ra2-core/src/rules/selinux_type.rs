//! ra2.app.048: SELinux types that grant extra privileges are not used: every
//! `seLinuxOptions.type` (pod, container, init, sidecar, ephemeral) is unset or an allowed type.

use crate::model::PodSpec;
use crate::parse::view::Located;
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    params: Some(super::params::decoder::<Params>),
    ..Checks::NONE
};

/// The SELinux types containers may run as.
#[derive(Clone, Debug)]
struct Params {
    allowed_types: Vec<String>,
}

impl RuleParams for Params {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Params {
            allowed_types: params.list("allowed_types"),
        }
    }
}

/// Each written `type` is judged where it is written, as the Pod Security Standards do: a pod
/// value is reported even when every container overrides it.
fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let params = cx.params::<Params>();
    let allowed = &params.allowed_types;
    if let Some(kind) = pod.spec.path(&["securityContext", "seLinuxOptions", "type"]) {
        judge(&kind, "pod", allowed, cx);
    }
    for container in pod.containers() {
        let own = container.security.se_linux_options.as_ref().filter(|s| !s.from_pod);
        if let Some(kind) = own.and_then(|s| s.node.get("type")) {
            judge(&kind, container.describe(), allowed, cx);
        }
    }
}

/// Unset, empty and the allowed types pass.
fn judge(kind: &Located<'_>, whose: &str, allowed: &[String], cx: &mut Context<'_>) {
    if kind.is_null()
        || kind
            .as_str()
            .is_some_and(|t| t.is_empty() || allowed.iter().any(|a| a == t))
    {
        return;
    }
    let value = kind
        .as_str()
        .map_or_else(|| kind.source_text().to_owned(), |t| format!("{t:?}"));
    cx.report(
        "selinux-type",
        kind,
        format!(
            "{whose} uses SELinux type {value}, which is not one of {}",
            allowed.join(", ")
        ),
    );
}
