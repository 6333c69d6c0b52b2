//! ra2.app.044: every container runs with a non-root user id and a non-root group id, both
//! set explicitly to a value above 999.

use crate::model::{Container, PodSpec, Setting};
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

/// Ids up to this value are root or system accounts on common distributions.
const HIGHEST_SYSTEM_ID: i128 = 999;

/// The id the fix of a missing one writes: the remediation's, above every system id.
const FIXED_ID: i64 = 10001;

/// Regular, init and sidecar containers, with each id taken from the container's
/// securityContext, else the pod's. Windows pods have no numeric ids.
fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if pod.is_windows() {
        return;
    }
    for container in pod.workload_containers() {
        let security = &container.security;
        id(
            "user-id",
            "runAsUser",
            "user",
            security.run_as_user.as_ref(),
            container,
            cx,
        );
        id(
            "group-id",
            "runAsGroup",
            "group",
            security.run_as_group.as_ref(),
            container,
            cx,
        );
    }
}

/// The id must be written and be an integer above [`HIGHEST_SYSTEM_ID`].
fn id(
    check: &'static str,
    field: &str,
    noun: &str,
    setting: Option<&Setting<'_>>,
    container: &Container<'_>,
    cx: &mut Context<'_>,
) {
    let who = container.describe();
    let Some(setting) = setting else {
        let patch = crate::report::fix::set(&container.node, &["securityContext", field], FIXED_ID.into());
        cx.report_fixable(
            check,
            &container.missing_field_site(),
            format!("{who} sets no {field}, so the image decides its {noun} id"),
            None,
            patch,
        );
        return;
    };
    let source = if setting.from_pod {
        ", set in the pod's securityContext"
    } else {
        ""
    };
    match setting.as_int() {
        Some(value) if value > HIGHEST_SYSTEM_ID => {}
        Some(value) if value < 0 => cx.report(
            check,
            &setting.node,
            format!("{who} has {field} {value}{source}, which the API server rejects: ids are not negative"),
        ),
        Some(0) => cx.report(
            check,
            &setting.node,
            format!("{who} runs with {noun} id 0 (root){source}"),
        ),
        Some(value) => cx.report(
            check,
            &setting.node,
            format!("{who} runs with {noun} id {value}{source}, which is not above {HIGHEST_SYSTEM_ID}"),
        ),
        None => cx.report(
            check,
            &setting.node,
            format!(
                "{who} has {field} {}{source}, which is {} rather than an integer id",
                setting.node.source_text(),
                crate::rules::with_article(setting.node.type_name())
            ),
        ),
    }
}
