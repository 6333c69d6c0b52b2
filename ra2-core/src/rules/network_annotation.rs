//! ra2.app.006: additional network interfaces are requested through the pod's network
//! annotation or its containers' resources, in a form that reaches the pod and Multus can use.

use crate::bundle::{Bundle, UnattachedResource};
use crate::config::glob;
use crate::model::{Object, PodSpec, WorkloadKind};
use crate::multus::{NETWORKS_ANNOTATION, Severity, parse_networks};
use crate::rules::{BundleContext, Context, Rule, with_article};
use crate::view::Located;

pub static RULE: Rule = Rule {
    object: Some(check_object),
    pod: Some(check_pod),
    bundle: Some(check_bundle),
    ..Rule::new("ra2.app.006")
};

/// Capabilities that let a host-network container configure the node's interfaces.
const NET_ADMIN_CAPABILITIES: &[&str] = &["NET_ADMIN", "ALL"];

/// annotation-invalid wherever a workload writes the annotation; annotation-on-controller when
/// only the controller's own metadata carries it.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(workload) = object.workload_kind() else { return };
    if workload == WorkloadKind::Pod {
        if let Some(annotation) = object.annotation(NETWORKS_ANNOTATION) {
            check_value(&annotation, cx);
        }
        return;
    }
    let on_pod = object.pod_spec().and_then(|pod| pod.annotation(NETWORKS_ANNOTATION));
    if let Some(annotation) = &on_pod {
        check_value(annotation, cx);
    }
    let job_template = (workload == WorkloadKind::CronJob)
        .then(|| {
            object
                .root
                .path(&["spec", "jobTemplate", "metadata", "annotations", NETWORKS_ANNOTATION])
        })
        .flatten();
    let kind = object.kind.unwrap_or("controller");
    for (annotation, whose) in [
        (object.annotation(NETWORKS_ANNOTATION), kind),
        (job_template, "job template"),
    ] {
        let Some(annotation) = annotation else { continue };
        check_value(&annotation, cx);
        if on_pod.is_none() {
            cx.report_with_help(
                "annotation-on-controller",
                &annotation,
                format!("network annotation on the {whose}'s own metadata never reaches the pods, and the pod template has none"),
                "Move the k8s.v1.cni.cncf.io/networks annotation to the pod template's metadata.annotations.",
            );
        }
    }
}

/// annotation-invalid: the value must be a string that Multus can parse. A null value decodes
/// as an empty string, which selects no networks.
fn check_value(annotation: &Located<'_>, cx: &mut Context<'_>) {
    if annotation.is_null() {
        return;
    }
    let Some(text) = annotation.as_str() else {
        cx.report_with_help(
            "annotation-invalid",
            annotation,
            format!(
                "network annotation is {}, not a string, so the API server rejects the object",
                with_article(annotation.type_name())
            ),
            "Quote the value or write it as a block scalar (|) so that the network list stays a string.",
        );
        return;
    };
    for problem in parse_networks(text).problems {
        if problem.severity == Severity::Error {
            cx.report("annotation-invalid", annotation, problem.message);
        }
    }
}

/// host-network-net-admin: a host-network container that may add `NET_ADMIN` plumbs interfaces
/// on the node, outside the Kubernetes API.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if !pod.flag("hostNetwork") {
        return;
    }
    for container in pod.containers() {
        for (capability, node) in container.security.added_capabilities() {
            let upper = capability.to_ascii_uppercase();
            let name = upper.strip_prefix("CAP_").unwrap_or(&upper);
            if NET_ADMIN_CAPABILITIES.contains(&name) {
                cx.report_with_help(
                    "host-network-net-admin",
                    &node,
                    format!("{} adds capability {capability} in a pod on the host network, so it can configure the node's interfaces", container.describe()),
                    "Request the extra interfaces through the k8s.v1.cni.cncf.io/networks annotation, or drop the capability or hostNetwork.",
                );
            }
        }
    }
}

/// resource-without-annotation: a network device allocated to a pod that attaches no network.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let patterns = param_list(cx, "ni_resource_patterns");
    for fact in &bundle.unattached_resources {
        if let Some(why) = network_device(fact, bundle, &patterns) {
            cx.report(
                "resource-without-annotation",
                &fact.place,
                format!(
                    "{} requests network device {} ({why}) but the pod selects no network to attach it to",
                    fact.container, fact.resource
                ),
            );
        }
    }
}

/// Why a resource is a network device: a `NetworkAttachmentDefinition` in the input names it, or
/// it matches a configured pattern.
fn network_device(fact: &UnattachedResource, bundle: &Bundle, patterns: &[String]) -> Option<String> {
    if let Some(nad) = bundle.nad_for_resource(&fact.resource) {
        return Some(format!(
            "the resource of NetworkAttachmentDefinition {}/{}",
            nad.namespace, nad.name
        ));
    }
    patterns
        .iter()
        .find(|p| glob(p, &fact.resource))
        .map(|p| format!("matches pattern {p:?}"))
}

/// A string-list parameter for a bundle rule: from the config, else the catalogue default.
fn param_list(cx: &BundleContext<'_>, name: &str) -> Vec<String> {
    let value = cx
        .settings
        .config
        .param(cx.rule, name)
        .cloned()
        .or_else(|| cx.doc.and_then(|d| d.param(name)).map(|p| p.default.to_value()));
    match value {
        Some(serde_json::Value::Array(items)) => items.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use crate::Config;

    fn checks(text: &str, config: &Config) -> Vec<(String, usize)> {
        crate::lint_str("t.yaml", text, config)
            .findings
            .into_iter()
            .filter(|f| f.rule == "ra2.app.006")
            .map(|f| (f.check, f.line))
            .collect()
    }

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: r/a:1\n    resources:\n      limits:\n        example.com/fastpath: 1\n";

    #[test]
    fn resource_patterns_come_from_the_config() {
        assert!(checks(POD, &Config::default()).is_empty());
        let mut config = Config::default();
        config.params.entry("ra2.app.006".to_owned()).or_default().insert(
            "ni_resource_patterns".to_owned(),
            serde_json::json!(["example.com/fast*"]),
        );
        assert_eq!(
            checks(POD, &config),
            vec![("resource-without-annotation".to_owned(), 11)]
        );
    }

    #[test]
    fn a_definition_later_in_the_input_names_the_device() {
        let nad = "---\napiVersion: k8s.cni.cncf.io/v1\nkind: NetworkAttachmentDefinition\nmetadata:\n  name: fp\n  annotations:\n    k8s.v1.cni.cncf.io/resourceName: example.com/fastpath\n";
        let text = format!("{POD}{nad}");
        assert_eq!(
            checks(&text, &Config::default()),
            vec![("resource-without-annotation".to_owned(), 11)]
        );
    }

    #[test]
    fn null_annotation_is_an_empty_selection() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    k8s.v1.cni.cncf.io/networks: ~\nspec:\n  containers: [{name: a, image: r/a:1}]\n";
        assert!(checks(text, &Config::default()).is_empty());
    }
}
