//! ra2.k8s.011: Anuket profile labels: nodes say which profile they serve with
//! `anuket.io/profile: basic | network-intensive`, network-intensive workloads select the nodes
//! that carry it, and nobody writes the RA2 text's literal `anuket.io/profile/<name>` keys, which
//! the API server refuses.

use crate::k8s::names::is_qualified_name;
use crate::model::bundle::Bundle;
use crate::model::profile::{LITERAL_KEY_PREFIX, NETWORK_INTENSIVE, PROFILE_LABEL, PROFILE_NAMES, Signal, resolve};
use crate::model::{Object, PodSpec};
use crate::parse::view::Located;
use crate::rules::{BundleContext, Checks, Context};

pub(super) static RULE: Checks = Checks {
    object: Some(check_object),
    pod: Some(check_pod),
    bundle: Some(check_bundle),
    ..Checks::NONE
};

/// invalid-key and node: a Node's label keys are ones the API server stores, and its profile
/// label names a profile.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is("", "Node") {
        return;
    }
    let Some(labels) = object.metadata().and_then(|m| m.get("labels")) else {
        return;
    };
    for (key, value) in labels.entries() {
        if !is_qualified_name(key) {
            invalid_key(cx, key, &value, "label", "node");
            continue;
        }
        if key != PROFILE_LABEL {
            continue;
        }
        match value.as_str() {
            Some(profile) if PROFILE_NAMES.contains(&profile) => {}
            Some(other) => cx.report(
                "node",
                &value,
                format!(
                    "label {PROFILE_LABEL} has value {other:?}, which is not an Anuket profile; profile selectors match only \"basic\" or \"{NETWORK_INTENSIVE}\", exactly"
                ),
            ),
            None => cx.report(
                "node",
                &value,
                format!(
                    "label {PROFILE_LABEL} has the {} value {}; label values must be strings, so the API server refuses the node: write \"basic\" or \"{NETWORK_INTENSIVE}\"",
                    value.type_name(),
                    value.source_text()
                ),
            ),
        }
    }
}

/// Reports a label, selector or affinity key that is not a valid qualified name. `what` names
/// where the key is written, `refused` the object the API server refuses because of it.
fn invalid_key(cx: &mut Context<'_>, key: &str, at: &Located<'_>, what: &str, refused: &str) {
    if let Some(profile) = key.strip_prefix(LITERAL_KEY_PREFIX) {
        let value = if PROFILE_NAMES.contains(&profile) {
            profile
        } else {
            NETWORK_INTENSIVE
        };
        cx.report_with_help(
            "invalid-key",
            at,
            format!(
                "{what} key {key} has two '/' (the RA2 text's literal form), but a Kubernetes label key is an optional prefix, one '/', and a name, so the API server refuses the {refused}"
            ),
            format!(
                "Write the profile as the value of one key: {PROFILE_LABEL}: {value}. This is the form Kubernetes can store and the RA2 conformance tooling checks."
            ),
        );
    } else {
        cx.report(
            "invalid-key",
            at,
            format!(
                "{what} key {key:?} is not a valid Kubernetes label key (an optional DNS subdomain prefix and '/', then a name of at most 63 alphanumerics, '-', '_' or '.'), so the API server refuses the {refused}"
            ),
        );
    }
}

/// invalid-key and selector-value in a pod: its labels, nodeSelector and node affinity.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if let Some(labels) = pod.labels() {
        for (key, value) in labels.entries() {
            if !is_qualified_name(key) {
                invalid_key(cx, key, &value, "label", "object");
            }
        }
    }
    if let Some(selector) = pod.get("nodeSelector") {
        for (key, value) in selector.entries() {
            if !is_qualified_name(key) {
                invalid_key(cx, key, &value, "node selector", "object");
            } else if key == PROFILE_LABEL {
                selector_value(cx, &value);
            }
        }
    }
    let required = pod.required_node_selector_terms();
    let preferred = pod.preferred_node_selector_terms();
    for term in required.iter().chain(&preferred) {
        let Some(expressions) = term.get("matchExpressions") else {
            continue;
        };
        for expression in expressions.items() {
            affinity_expression(&expression, cx);
        }
    }
}

/// A node-affinity expression: a key the API server accepts, and profile values that exist.
fn affinity_expression(expression: &Located<'_>, cx: &mut Context<'_>) {
    let Some(key_node) = expression.get("key") else { return };
    let Some(key) = key_node.as_str() else { return };
    if !is_qualified_name(key) {
        invalid_key(cx, key, &key_node, "node affinity", "object");
        return;
    }
    if key != PROFILE_LABEL || expression.str_at("operator") != Some("In") {
        return;
    }
    let Some(values) = expression.get("values") else { return };
    for value in values.items() {
        selector_value(cx, &value);
    }
}

/// selector-value: a selected profile that no node carries.
fn selector_value(cx: &mut Context<'_>, value: &Located<'_>) {
    match value.as_str() {
        Some(profile) if PROFILE_NAMES.contains(&profile) => {}
        Some(other) => cx.report(
            "selector-value",
            value,
            format!(
                "the pod selects {PROFILE_LABEL} {other:?}, which is not an Anuket profile, so no conformant node carries it; the profiles are \"basic\" and \"{NETWORK_INTENSIVE}\""
            ),
        ),
        None => cx.report(
            "selector-value",
            value,
            format!(
                "the pod selects {PROFILE_LABEL} with the {} value {}; selector values must be strings: write \"{NETWORK_INTENSIVE}\"",
                value.type_name(),
                value.source_text()
            ),
        ),
    }
}

/// workload: a pod that is network-intensive by any signal but a required selector should
/// require network-intensive nodes. Runs after the whole input is read, because the signal may
/// come from a `NetworkAttachmentDefinition` later in the input.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    for workload in &bundle.workloads {
        let Some((signal, place)) = resolve(workload, bundle) else {
            continue;
        };
        let message = match signal {
            Signal::SelectsProfile => continue,
            Signal::PrefersProfile => format!(
                "{signal}, but does not require them, so it may be scheduled on nodes without huge pages, SR-IOV functions or pinned CPUs"
            ),
            _ => format!(
                "{signal}, so the workload is network-intensive, but it does not select nodes labelled {PROFILE_LABEL}: {NETWORK_INTENSIVE}"
            ),
        };
        // Fixed only on a signal of the pod's own document: one from a
        // NetworkAttachmentDefinition may come from another file, and files are fixed one by one.
        match workload.requirement.as_ref().filter(|_| workload.local.is_some()) {
            Some(patch) => cx.report_fixable("workload", place, message, patch.clone()),
            None => cx.report("workload", place, message),
        }
    }
}
