//! ra2.pkg.001: workloads do not depend on a cluster-side package-manager component such as
//! Helm 2's Tiller.

use crate::k8s::names::image_reference;
use crate::model::Object;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    object: Some(check_object),
    ..Checks::NONE
};

/// The name Helm 2 gave Tiller's Deployment and Service.
const TILLER_DEPLOY: &str = "tiller-deploy";

/// One finding per object, at the most telling sign: a container running the Tiller image, the
/// `tiller-deploy` name, the `app: helm, name: tiller` labels (on the object or its pod
/// template), or the `OWNER: TILLER` label Helm 2 puts on the ConfigMaps and Secrets that store
/// its releases.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    if let Some(pod) = object.pod_spec() {
        let mut found = false;
        for container in pod.containers() {
            let Some(image) = container.node.get("image") else {
                continue;
            };
            if image.as_str().is_some_and(is_tiller_image) {
                found = true;
                cx.report(
                    "no-tiller",
                    &image,
                    format!(
                        "{} runs Tiller ({}), Helm 2's in-cluster component",
                        container.describe(),
                        image.as_str().unwrap_or_default()
                    ),
                );
            }
        }
        if found {
            return;
        }
    }
    let kind = object.kind.unwrap_or("object");
    if let Some(name) = object.metadata().and_then(|m| m.get("name")) {
        if name.as_str() == Some(TILLER_DEPLOY) && matches!(kind, "Deployment" | "Service" | "Pod" | "ReplicaSet") {
            cx.report(
                "no-tiller",
                &name,
                format!("the name {TILLER_DEPLOY:?} is the one Helm 2 gives its in-cluster Tiller {kind}"),
            );
            return;
        }
    }
    let template_labels = object.pod_spec().and_then(crate::model::PodSpec::labels);
    let own_labels = object.metadata().and_then(|m| m.get("labels"));
    for labels in [own_labels, template_labels].into_iter().flatten() {
        if labels.str_at("app") == Some("helm") && labels.str_at("name") == Some("tiller") {
            cx.report(
                "no-tiller",
                &labels,
                "labels app=helm and name=tiller mark Helm 2's in-cluster Tiller component",
            );
            return;
        }
    }
    if matches!(kind, "ConfigMap" | "Secret") && object.group_version().is_some_and(|(g, _)| g.is_empty()) {
        if let Some(owner) = object.label("OWNER").filter(|o| o.as_str() == Some("TILLER")) {
            cx.report(
                "no-tiller",
                &owner,
                format!("label OWNER=TILLER marks this {kind} as a Helm 2 release record kept by Tiller"),
            );
        }
    }
}

/// An image whose repository's last path component is `tiller` (`gcr.io/kubernetes-helm/tiller`,
/// `ghcr.io/helm/tiller`, or a mirror of them).
fn is_tiller_image(image: &str) -> bool {
    // Most images are not: no need to parse them.
    if !image.contains("tiller") {
        return false;
    }
    let reference = image_reference(image);
    reference.repository.rsplit('/').next() == Some("tiller")
}

#[cfg(test)]
mod tests {
    use super::is_tiller_image;

    #[test]
    fn tiller_images() {
        for image in [
            "gcr.io/kubernetes-helm/tiller:v2.16.12",
            "ghcr.io/helm/tiller:v2.17.0",
            "registry.example.com:5000/mirror/tiller@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        ] {
            assert!(is_tiller_image(image), "{image}");
        }
        for image in [
            "gcr.io/kubernetes-helm/tiller-proxy:1",
            "registry.example.com/tiller:5000/app",
            "alpine/helm:3.14.0",
        ] {
            assert!(!is_tiller_image(image), "{image}");
        }
    }
}
