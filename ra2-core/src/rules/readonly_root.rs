//! ra2.app.001: every workload container runs with a read-only root filesystem (OCI `root.readonly`).

use crate::model::PodSpec;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

/// Each regular, init or sidecar container whose own `readOnlyRootFilesystem` is not `true`.
/// The field has no pod-level form, and ephemeral debug containers are left alone. ra2.app.033
/// runs the same check in the latest edition.
pub(super) fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for container in pod.workload_containers() {
        let fix = || {
            crate::report::fix::set(
                &container.node,
                &["securityContext", "readOnlyRootFilesystem"],
                true.into(),
            )
        };
        match &container.security.read_only_root_filesystem {
            None => cx.report_fixable(
                "readonly-root",
                &container.missing_field_site(),
                format!(
                    "{} has a writable root filesystem (readOnlyRootFilesystem is not set)",
                    container.describe()
                ),
                None,
                fix(),
            ),
            Some(setting) => match setting.as_bool() {
                Some(true) => {}
                Some(false) => cx.report_fixable(
                    "readonly-root",
                    &setting.node,
                    format!("{} sets readOnlyRootFilesystem to false", container.describe()),
                    None,
                    fix(),
                ),
                None => cx.report_fixable(
                    "readonly-root",
                    &setting.node,
                    format!(
                        "{} sets readOnlyRootFilesystem to {}, a {} rather than the boolean true",
                        container.describe(),
                        setting.node.source_text(),
                        setting.node.type_name()
                    ),
                    None,
                    fix(),
                ),
            },
        }
    }
}
