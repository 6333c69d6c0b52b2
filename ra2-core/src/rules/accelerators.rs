//! ra2.app.009: accelerators and network devices are requested as device-plugin resources, not
//! reached on the node directly.

use std::collections::BTreeMap;

use crate::k8s::names::{ResourceName, classify_resource_name};
use crate::model::bundle::{Bundle, PodNetworks};
use crate::model::{Amount, Container, Object, PodSpec, ResourcePair};
use crate::parse::view::Located;
use crate::rules::params::RuleParams;
use crate::rules::{BundleContext, Checks, Context, Gather};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    gather: Some(gather),
    bundle: Some(check_bundle),
    params: Some(super::params::decoder::<Params>),
    ..Checks::NONE
};

/// The Network Resources Injector adds the resources attachments need; the accelerator
/// patterns are the device table's (see [`crate::k8s::devices::PARAMS`]).
#[derive(Clone, Debug)]
pub(crate) struct Params {
    pub(crate) network_resources_injector: bool,
}

impl RuleParams for Params {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Params {
            network_resources_injector: params.boolean("network_resources_injector"),
        }
    }
}

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    privileged_containers(pod, cx);
    device_volumes(pod, cx);
    for container in pod.workload_containers() {
        for pair in &container.resources.pairs {
            extended_resource(container, pair, cx);
        }
    }
}

/// privileged-device: a privileged container (of any kind) sees every device on the node.
fn privileged_containers(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for container in pod.containers() {
        if let Some(privileged) = container
            .security
            .privileged
            .as_ref()
            .filter(|_| container.security.is_privileged())
        {
            cx.report(
                "privileged-device",
                &privileged.node,
                format!(
                    "{} is privileged, which opens every device of the node to it",
                    container.describe()
                ),
            );
        }
    }
}

/// privileged-device: a hostPath under /dev, or of a device type, maps a node device directly.
fn device_volumes(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for volume in pod.volumes() {
        let Some(host_path) = volume.get("hostPath") else {
            continue;
        };
        let name = volume.str_at("name").unwrap_or("?");
        let path = host_path.get("path");
        let kind = host_path.get("type");
        if let Some(path) = path.as_ref().filter(|p| p.as_str().is_some_and(is_under_dev)) {
            let text = path.as_str().unwrap_or_default();
            cx.report(
                "privileged-device",
                path,
                format!("volume {name:?} mounts the node's device path {text}"),
            );
        } else if let Some(kind) = kind
            .as_ref()
            .filter(|k| matches!(k.as_str(), Some("CharDevice" | "BlockDevice")))
        {
            let text = path.as_ref().and_then(Located::as_str).unwrap_or("?");
            let kind_text = kind.as_str().unwrap_or_default();
            cx.report(
                "privileged-device",
                kind,
                format!("volume {name:?} mounts host path {text} as a {kind_text}"),
            );
        }
    }
}

/// `/dev` or a path below it, after lexical cleaning (`//dev/./vfio`, `/x/../dev`).
fn is_under_dev(path: &str) -> bool {
    if !path.starts_with('/') {
        return false;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.first() == Some(&"dev")
}

/// extended-resource: what the API server refuses in container resources (§2.4).
fn extended_resource(container: &Container<'_>, pair: &ResourcePair<'_>, cx: &mut Context<'_>) {
    let who = container.describe();
    let name = pair.name;
    match classify_resource_name(name) {
        ResourceName::Invalid => {
            let why = if name.contains('/') {
                "which is not a valid extended resource name"
            } else {
                "which is not a container resource: device resources carry their vendor's domain, as in nvidia.com/gpu"
            };
            for (verb, amount) in [("requests", written_request(pair)), ("limits", pair.limit.as_ref())] {
                if let Some(amount) = amount {
                    cx.report(
                        "extended-resource",
                        &amount.node,
                        format!("{who} {verb} resource {name:?}, {why}"),
                    );
                }
            }
        }
        ResourceName::Extended => {
            let mut all_valid = true;
            for (noun, amount) in [("request", written_request(pair)), ("limit", pair.limit.as_ref())] {
                if let Some(amount) = amount {
                    if let Some(problem) = quantity_problem(amount) {
                        all_valid = false;
                        cx.report(
                            "extended-resource",
                            &amount.node,
                            format!("{who} has {noun} {} for {name}{problem}", amount.shown()),
                        );
                    }
                }
            }
            let Some(request) = written_request(pair) else { return };
            match &pair.limit {
                None => cx.report(
                    "extended-resource",
                    &request.node,
                    format!("{who} requests {name} without a limit; device resources cannot be overcommitted, so the limit is required"),
                ),
                Some(limit) if all_valid && request.quantity != limit.quantity => cx.report(
                    "extended-resource",
                    &request.node,
                    format!(
                        "{who} requests {} {name} but limits it to {}; device resources need the request to equal the limit",
                        request.shown(),
                        limit.shown()
                    ),
                ),
                Some(_) => {}
            }
        }
        _ => {}
    }
}

/// The request as written in the manifest (not the one defaulted from the limit).
fn written_request<'p, 'd>(pair: &'p ResourcePair<'d>) -> Option<&'p Amount<'d>> {
    pair.request.as_ref().filter(|r| !r.defaulted)
}

/// Why an extended-resource amount is refused: not a quantity, or not a non-negative integer.
fn quantity_problem(amount: &Amount<'_>) -> Option<&'static str> {
    if amount.templated {
        return Some(", an unrendered template: run `helm template` first");
    }
    match &amount.quantity {
        Err(_) => Some(", which is not a quantity"),
        Ok(q) if q.is_negative() => Some(", but device counts cannot be negative"),
        Ok(q) if !q.is_integer() => Some(", but devices are counted in whole numbers"),
        Ok(_) => None,
    }
}

fn gather(object: &Object<'_>, cx: &mut Gather<'_>) {
    if let Some(pod) = object
        .pod_spec()
        .and_then(|pod| PodNetworks::of(pod, cx.namespace, |at| cx.place(at)))
    {
        cx.record(pod);
    }
}

/// sriov-resource: each attachment to a `NetworkAttachmentDefinition` with a `resourceName` needs
/// one device of that resource in the pod's limits.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    if cx.params::<Params>().network_resources_injector {
        return;
    }
    for pod in cx.facts::<PodNetworks>(bundle) {
        for (resource, networks) in attachments_by_resource(pod, bundle) {
            let needed = i128::try_from(networks.len()).unwrap_or(i128::MAX);
            let have = pod.resources.get(resource).copied().unwrap_or(0);
            if have < needed {
                cx.report(
                    "sriov-resource",
                    &pod.place,
                    format!(
                        "{} to {} {} {needed} {resource}, but the containers' limits provide {have}",
                        if needed == 1 { "attachment" } else { "attachments" },
                        networks.join(", "),
                        if needed == 1 { "needs" } else { "need" },
                    ),
                );
            }
        }
    }
}

/// The pod's attachments whose `NetworkAttachmentDefinition` is in the input and names a
/// device resource (not a bridge marker's), grouped by that resource.
fn attachments_by_resource<'b>(pod: &'b PodNetworks, bundle: &'b Bundle) -> BTreeMap<&'b str, Vec<&'b str>> {
    let mut out: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (namespace, name) in &pod.attachments {
        if let Some(resource) = bundle.nad(namespace, name).and_then(|n| n.device_resource()) {
            out.entry(resource).or_default().push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::is_under_dev;

    #[test]
    fn dev_paths_are_cleaned_first() {
        for path in [
            "/dev",
            "/dev/",
            "/dev/vfio",
            "//dev//vfio",
            "/./dev/dri",
            "/x/../dev/sgx_enclave",
            "/../dev",
        ] {
            assert!(is_under_dev(path), "{path}");
        }
        for path in ["/devices", "/var/dev", "dev/vfio", "/dev/../var", "/", ""] {
            assert!(!is_under_dev(path), "{path}");
        }
    }
}
