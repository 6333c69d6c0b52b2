//! ra2.ntw.008: an SR-IOV NetworkAttachmentDefinition is tied to the resource the SR-IOV device
//! plugin advertises, so that each attachment gets the virtual function allocated to the pod.

use serde_json::Value;

use crate::k8s::names::{ResourceName, classify_resource_name};
use crate::model::Object;
use crate::rules::{Checks, Context, with_article};
use crate::telco::nad::RESOURCE_NAME_ANNOTATION;

pub(super) static RULE: Checks = Checks {
    object: Some(check),
    ..Checks::NONE
};

/// CNI plugins that attach a virtual function (SR-IOV CNI, InfiniBand SR-IOV CNI).
const SRIOV_TYPES: &[&str] = &["sriov", "ib-sriov"];

/// The API group, mistaken for the annotation prefix (ra2.ntw.006/016 reports the key itself).
const SWAPPED_ANNOTATION: &str = "k8s.cni.cncf.io/resourceName";

fn check(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is_nad() {
        return;
    }
    let Some(config) = object.nad_config() else { return };
    let plugins = config.plugins();
    let Some(sriov) = plugins
        .iter()
        .find(|p| p.plugin_type().is_some_and(|t| SRIOV_TYPES.contains(&t)))
    else {
        return;
    };
    if let Some(annotation) = object.annotation(RESOURCE_NAME_ANNOTATION) {
        resource_name(&annotation, cx);
        return;
    }
    let has_device_id = plugins
        .iter()
        .filter(|p| p.plugin_type().is_some_and(|t| SRIOV_TYPES.contains(&t)))
        .any(|p| {
            p.conf
                .get("deviceID")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.is_empty())
        });
    if has_device_id {
        return;
    }
    let metadata = object.metadata();
    let at = metadata
        .as_ref()
        .and_then(|m| m.get("annotations"))
        .or(metadata)
        .unwrap_or_else(|| object.root.clone());
    let plugin = if sriov.path.is_empty() {
        format!("{} plugin", sriov.plugin_type().unwrap_or("sriov"))
    } else {
        format!("{} plugin ({})", sriov.plugin_type().unwrap_or("sriov"), sriov.path)
    };
    let swapped = if object.annotation(SWAPPED_ANNOTATION).is_some() {
        format!(" ({SWAPPED_ANNOTATION} uses the API group as prefix and is not read)")
    } else {
        String::new()
    };
    cx.report(
        "missing-resource",
        &at,
        format!("this SR-IOV network has no {RESOURCE_NAME_ANNOTATION} annotation{swapped} and its {plugin} sets no deviceID, so attachments get no virtual function"),
    );
}

/// resource-name: the annotation names an extended resource a container can request.
fn resource_name(annotation: &crate::parse::view::Located<'_>, cx: &mut Context<'_>) {
    let Some(text) = annotation.as_str() else {
        cx.report(
            "resource-name",
            annotation,
            format!(
                "{RESOURCE_NAME_ANNOTATION} is {}, not a string",
                with_article(annotation.type_name())
            ),
        );
        return;
    };
    if classify_resource_name(text) != ResourceName::Extended {
        cx.report(
            "resource-name",
            annotation,
            format!("{RESOURCE_NAME_ANNOTATION} {text:?} is not an extended resource name (<vendor domain>/<name>, as in intel.com/intel_sriov_netdevice), so no container can request it"),
        );
    }
}
