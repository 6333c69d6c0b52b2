//! ra2.app.001: every workload container runs with a read-only root filesystem (OCI `root.readonly`).

use crate::model::{Container, PodSpec};
use crate::rules::{Context, Rule};
use crate::view::Located;

pub static RULE: Rule = Rule {
    pod: Some(check_pod),
    ..Rule::new("ra2.app.001")
};

/// Each regular, init or sidecar container whose own `readOnlyRootFilesystem` is not `true`.
/// The field has no pod-level form, and ephemeral debug containers are left alone.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for container in pod.workload_containers() {
        match &container.security.read_only_root_filesystem {
            None => cx.report(
                "readonly-root",
                &missing_field_site(container),
                format!("{} has a writable root filesystem (readOnlyRootFilesystem is not set)", container.describe()),
            ),
            Some(setting) => match setting.as_bool() {
                Some(true) => {}
                Some(false) => cx.report(
                    "readonly-root",
                    &setting.node,
                    format!("{} sets readOnlyRootFilesystem to false", container.describe()),
                ),
                None => cx.report(
                    "readonly-root",
                    &setting.node,
                    format!(
                        "{} sets readOnlyRootFilesystem to {}, a {} rather than the boolean true",
                        container.describe(),
                        setting.node.source_text(),
                        setting.node.type_name()
                    ),
                ),
            },
        }
    }
}

/// Where to report a field the container does not set: its `securityContext` key if it has
/// one, else the container itself.
fn missing_field_site<'d>(container: &Container<'d>) -> Located<'d> {
    container
        .node
        .get("securityContext")
        .filter(Located::is_map)
        .unwrap_or_else(|| container.node.clone())
}
