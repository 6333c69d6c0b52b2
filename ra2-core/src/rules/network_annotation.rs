//! ra2.app.006: additional network interfaces are requested through the pod's network
//! annotation or its containers' resources, in a form that reaches the pod and Multus can use.

use std::sync::Arc;

use crate::k8s::devices::{Classifier, DeviceClass};
use crate::k8s::names::{ResourceName, classify_resource_name};
use crate::model::bundle::{Bundle, Fact, Place};
use crate::model::{Object, PodSpec, WorkloadKind};
use crate::parse::view::Located;
use crate::rules::{BundleContext, Checks, Context, Gather, with_article};
use crate::telco::multus::{NETWORKS_ANNOTATION, NetworkSelection, Severity, parse_networks};

pub(super) static RULE: Checks = Checks {
    object: Some(check_object),
    pod: Some(check_pod),
    gather: Some(gather),
    bundle: Some(check_bundle),
    ..Checks::NONE
};

/// Capabilities that let a host-network container configure the node's interfaces.
const NET_ADMIN_CAPABILITIES: &[&str] = &["NET_ADMIN", "ALL"];

/// annotation-invalid wherever a workload writes the annotation; annotation-on-controller when
/// only the controller's own metadata carries it.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(workload) = object.workload_kind() else { return };
    if let Some(pod) = object.pod_spec() {
        for key in crate::telco::danm::ANNOTATIONS {
            if let Some(annotation) = pod.annotation(key) {
                check_danm(&annotation, key, cx);
            }
        }
    }
    let on_pod = object.pod_spec().and_then(PodSpec::networks);
    if let Some((annotation, selection)) = &on_pod {
        check_value(annotation, *selection, cx);
    }
    if workload == WorkloadKind::Pod {
        // A Pod without a pod spec still has its annotation checked.
        if let (None, Some(annotation)) = (&on_pod, object.annotation(NETWORKS_ANNOTATION)) {
            check_value(&annotation, None, cx);
        }
        return;
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
        check_value(&annotation, None, cx);
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
/// as an empty string, which selects no networks. annotation-lenient: what Multus accepts but a
/// stricter reader of the same annotation would not (keys in another case, unknown or repeated
/// keys, deprecated fields).
/// `selection` is the pod's parsed value when the annotation is the pod's (parsed here otherwise).
fn check_value(annotation: &Located<'_>, selection: Option<&NetworkSelection>, cx: &mut Context<'_>) {
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
    let parsed;
    let selection = if let Some(selection) = selection {
        selection
    } else {
        parsed = parse_networks(text);
        &parsed
    };
    for problem in &selection.problems {
        match problem.severity {
            Severity::Error => cx.report("annotation-invalid", annotation, problem.message.clone()),
            Severity::Warning => cx.report_with_help(
                "annotation-lenient",
                annotation,
                problem.message.clone(),
                "Write the annotation as the network selection spec defines it: lower-case keys, each key once, no deprecated or null fields.",
            ),
        }
    }
}

/// danm-annotation-invalid: a DANM interfaces annotation must be a string that DANM can decode
/// into interfaces that each name one network (see [`crate::telco::danm`]).
fn check_danm(annotation: &Located<'_>, key: &str, cx: &mut Context<'_>) {
    const HELP: &str = "Write the annotation as a JSON array of objects, each naming one network with \"network\", \"tenantNetwork\" or \"clusterNetwork\", and with \"ip\"/\"ip6\" set to \"dynamic\", \"none\" or an address with its prefix length.";
    if annotation.is_null() {
        return;
    }
    let Some(text) = annotation.as_str() else {
        cx.report_with_help(
            "danm-annotation-invalid",
            annotation,
            format!(
                "{key} is {}, not a string, so the API server rejects the object",
                with_article(annotation.type_name())
            ),
            HELP,
        );
        return;
    };
    let problems = crate::telco::danm::parse_interfaces(text).problems;
    if !problems.is_empty() {
        cx.report_with_help(
            "danm-annotation-invalid",
            annotation,
            format!("{key}: {}", problems.join("; ")),
            HELP,
        );
    }
}

/// host-network-net-admin: a host-network container that may add `NET_ADMIN`, or is privileged
/// (which grants every capability), plumbs interfaces on the node, outside the Kubernetes API.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if !pod.flag("hostNetwork") {
        return;
    }
    for container in pod.containers() {
        if let Some(privileged) = container.security.privileged_true() {
            cx.report_with_help(
                "host-network-net-admin",
                &privileged.node,
                format!("{} is privileged in a pod on the host network, so it holds NET_ADMIN and can configure the node's interfaces", container.describe()),
                "Request the extra interfaces through the k8s.v1.cni.cncf.io/networks annotation, or drop privileged (adding back only the capabilities the process needs) or hostNetwork.",
            );
        }
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

/// A prefixed resource that a regular, init or sidecar container requests or limits, in a pod
/// whose metadata selects no networks (neither the Multus nor a DANM annotation) and that
/// requests no huge pages (a DPDK pod drives its devices from user space, without a CNI
/// attachment).
#[derive(Clone, Debug)]
struct UnattachedResource {
    resource: Arc<str>,
    /// `container "du"`, for messages.
    container: String,
    /// Where the resource is written: its limit, else its request.
    place: Place,
}

impl Fact for UnattachedResource {
    fn shift(&mut self, by: crate::model::bundle::Shift) {
        self.place.shift(by);
    }
}

/// Does any regular, init or sidecar container request huge pages?
fn requests_huge_pages(pod: &PodSpec<'_>) -> bool {
    pod.workload_containers().any(|c| {
        c.resources
            .pairs
            .iter()
            .any(|p| matches!(classify_resource_name(p.name), ResourceName::HugePages { .. }))
    })
}

fn gather(object: &Object<'_>, cx: &mut Gather<'_>) {
    let Some(pod) = object.pod_spec() else { return };
    if pod.annotation(NETWORKS_ANNOTATION).is_some()
        || crate::telco::danm::ANNOTATIONS
            .iter()
            .any(|key| pod.annotation(key).is_some())
        || requests_huge_pages(pod)
    {
        return;
    }
    for container in pod.workload_containers() {
        for pair in container.resources.pairs.iter().filter(|p| p.name.contains('/')) {
            let written = pair.limit.as_ref().or(pair.request.as_ref().filter(|r| !r.defaulted));
            if let Some(amount) = written {
                let fact = UnattachedResource {
                    resource: cx.intern(pair.name),
                    container: container.describe().to_owned(),
                    place: cx.place(&amount.node),
                };
                cx.record(fact);
            }
        }
    }
}

/// resource-without-annotation: a network device allocated to a pod that attaches no network.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    let devices = Classifier::new(cx.settings.config);
    for fact in cx.facts::<UnattachedResource>(bundle) {
        if let Some(why) = network_device(fact, bundle, &devices) {
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

/// Why a resource is a network device (see [`crate::k8s::devices`]): a configured pattern says so,
/// else a `NetworkAttachmentDefinition` or a `SriovNetworkNodePolicy` in the input names it, else
/// the device table lists it as one. Accelerators and unknown resources are not network devices.
fn network_device(fact: &UnattachedResource, bundle: &Bundle, devices: &Classifier) -> Option<String> {
    match devices.configured(&fact.resource) {
        Some((DeviceClass::Network, why)) => return Some(why.to_string()),
        Some(_) => return None,
        None => {}
    }
    if let Some(nad) = bundle.nad_for_resource(&fact.resource) {
        return Some(format!(
            "the resource of NetworkAttachmentDefinition {}/{}",
            nad.namespace, nad.name
        ));
    }
    if let Some(policy) = bundle.sriov_policy_for_resource(&fact.resource) {
        return Some(format!(
            "the SR-IOV VFs of SriovNetworkNodePolicy {}/{}",
            policy.namespace, policy.name
        ));
    }
    match devices.shipped(&fact.resource) {
        (DeviceClass::Network, why) => Some(why.to_string()),
        _ => None,
    }
}
