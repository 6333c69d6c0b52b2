//! ra2.ntw.009: every network a pod attaches resolves to a NetworkAttachmentDefinition, judged
//! only where the input defines the networks of that namespace.

use std::collections::BTreeSet;

use std::sync::Arc;

use crate::k8s::names::is_dns1123_label;
use crate::model::Object;
use crate::model::bundle::{Bundle, Fact, Place, PodNetworks};
use crate::rules::{BundleContext, Checks, Gather};

pub(super) static RULE: Checks = Checks {
    gather: Some(gather),
    bundle: Some(check_bundle),
    ..Checks::NONE
};

/// A pod's DANM interfaces (`danm.io/interfaces` or `danm.k8s.io/interfaces`).
#[derive(Clone, Debug)]
struct DanmPod {
    namespace: Arc<str>,
    /// Where the annotation is written.
    place: Place,
    interfaces: Vec<crate::telco::danm::Interface>,
}

impl Fact for DanmPod {
    fn shift(&mut self, by: crate::model::bundle::Shift) {
        self.place.shift(by);
    }
}

/// The pod's Multus attachments, and its DANM interfaces.
fn gather(object: &Object<'_>, cx: &mut Gather<'_>) {
    let Some(pod) = object.pod_spec() else { return };
    if let Some(networks) = PodNetworks::of(pod, cx.namespace, |at| cx.place(at)) {
        cx.record(networks);
    }
    let Some(annotation) = crate::telco::danm::ANNOTATIONS
        .iter()
        .find_map(|key| pod.annotation(key))
    else {
        return;
    };
    if let Some(text) = annotation.as_str() {
        let fact = DanmPod {
            namespace: cx.intern(cx.namespace),
            place: cx.place(&annotation),
            interfaces: crate::telco::danm::parse_interfaces(text).interfaces,
        };
        cx.record(fact);
    }
}

/// missing-definition: an attachment whose definition is absent from a namespace the input does
/// define networks for. Without any definition of that namespace in the input, the cluster may
/// hold them, so nothing is said.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    danm_networks(bundle, cx);
    for pod in cx.facts::<PodNetworks>(bundle) {
        for (namespace, name) in unresolved(pod, bundle) {
            let defined: Vec<&str> = bundle
                .nads
                .iter()
                .filter(|n| n.namespace == namespace)
                .map(|n| n.name.as_str())
                .collect();
            if defined.is_empty() {
                continue;
            }
            cx.report(
                "missing-definition",
                &pod.place,
                format!(
                    "network {name:?} needs NetworkAttachmentDefinition {namespace}/{name}, which is not in the input; namespace {namespace} defines {}",
                    defined.join(", ")
                ),
            );
        }
    }
}

/// missing-definition for DANM: an interface whose network is absent while the input defines
/// networks of that kind (in that namespace, for the namespaced kinds).
fn danm_networks(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    for pod in cx.facts::<DanmPod>(bundle) {
        let mut seen = BTreeSet::new();
        for interface in &pod.interfaces {
            let kind = interface.kind;
            let namespace = if kind.namespaced() { &*pod.namespace } else { "" };
            if !seen.insert((kind, interface.name.as_str())) {
                continue;
            }
            let defined: Vec<&str> = bundle
                .danm_networks
                .iter()
                .filter(|n| n.kind == kind && n.namespace == namespace)
                .map(|n| n.name.as_str())
                .collect();
            if defined.is_empty() || defined.contains(&interface.name.as_str()) {
                continue;
            }
            let (object, scope) = if kind.namespaced() {
                (
                    format!("{kind} {namespace}/{}", interface.name),
                    format!("namespace {namespace} defines"),
                )
            } else {
                (format!("{kind} {}", interface.name), "the input defines".to_owned())
            };
            cx.report(
                "missing-definition",
                &pod.place,
                format!(
                    "network {:?} of the pod's DANM interfaces needs {object}, which is not in the input; {scope} {}",
                    interface.name,
                    defined.join(", ")
                ),
            );
        }
    }
}

/// The pod's attachments (each network once) with no definition in the input. Names and
/// namespaces that are not DNS-1123 labels are ra2.app.006's finding.
fn unresolved<'b>(pod: &'b PodNetworks, bundle: &Bundle) -> BTreeSet<(&'b str, &'b str)> {
    pod.attachments
        .iter()
        .filter(|(namespace, name)| is_dns1123_label(namespace) && is_dns1123_label(name))
        .filter(|(namespace, name)| bundle.nad(namespace, name).is_none())
        .map(|(namespace, name)| (namespace.as_str(), name.as_str()))
        .collect()
}
