//! ra2.app.034: container images name a concrete version: a tag other than `latest`, or a
//! digest.

use crate::k8s::names::image_reference;
use crate::model::{Container, PodSpec};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

/// Every container that names an image, ephemeral ones included (they are in the pod
/// manifest too). A missing or empty `image` is the API server's to reject, and a placeholder
/// that a tool replaces before deployment is not judged.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for container in pod.containers() {
        let Some(node) = container.node.get("image") else {
            continue;
        };
        let Some(image) = node.as_str().filter(|i| !i.is_empty()) else {
            continue;
        };
        if is_placeholder(image) {
            continue;
        }
        check_image(container, &node, image, cx);
    }
}

/// Text that some tool replaces before the manifest reaches a cluster: a Helm template, an
/// environment variable (`$IMAGE`, `${IMAGE}`), a `<your image>` placeholder in documentation, or
/// a build reference such as `ko://example.com/cmd/app`.
fn is_placeholder(image: &str) -> bool {
    crate::parse::source::looks_templated(image) || image.contains(['$', '<', '>']) || image.contains("://")
}

fn check_image(container: &Container<'_>, node: &Located<'_>, image: &str, cx: &mut Context<'_>) {
    let who = container.describe();
    let reference = image_reference(image);
    if !reference.valid {
        let hint = if reference.repository.bytes().any(|b| b.is_ascii_uppercase()) {
            " (repository names are lower-case)"
        } else {
            ""
        };
        cx.report(
            "invalid-reference",
            node,
            format!("{who} names image {image:?}, which is not a valid image reference{hint}"),
        );
        return;
    }
    match (reference.tag, reference.digest.is_some()) {
        (None, false) => cx.report(
            "no-tag",
            node,
            format!("{who} names image {image:?} with no tag or digest, so it pulls whatever \"latest\" points to"),
        ),
        (Some("latest"), false) => cx.report(
            "latest-tag",
            node,
            format!("{who} names image {image:?}, whose latest tag moves with every push"),
        ),
        (Some("latest"), true) => cx.report(
            "latest-with-digest",
            node,
            format!("{who} names image {image:?}: the digest pins it, and the latest tag is ignored but misleading"),
        ),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::is_placeholder;

    #[test]
    fn placeholders_are_left_to_the_tools_that_fill_them() {
        for image in [
            "{{ .Values.image }}",
            "$OPERATOR_IMAGE",
            "${REGISTRY}/app:1.0",
            "<DPDK testpmd image>",
            "ko://knative.dev/serving/cmd/activator",
        ] {
            assert!(is_placeholder(image), "{image}");
        }
        assert!(!is_placeholder("registry.example.com:5000/app"));
        assert!(!is_placeholder("APP:1.0"));
    }
}
