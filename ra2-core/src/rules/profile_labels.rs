//! ra2.k8s.011: Anuket profile labels: nodes carry `anuket.io/profile/<profile>: "true"`, and
//! network-intensive workloads select the nodes that carry it.

use crate::bundle::Bundle;
use crate::model::{Object, PodSpec};
use crate::profile::{NETWORK_INTENSIVE_LABEL, PROFILE_LABEL_PREFIX, PROFILE_NAMES, Signal, resolve};
use crate::rules::{BundleContext, Context, Rule};
use crate::view::Located;

pub static RULE: Rule = Rule {
    object: Some(check_object),
    pod: Some(check_pod),
    bundle: Some(check_bundle),
    ..Rule::new("ra2.k8s.011")
};

/// node: a Node's profile labels are RA2's and say "true" (or "false") as strings.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is("", "Node") {
        return;
    }
    let Some(labels) = object.metadata().and_then(|m| m.get("labels")) else {
        return;
    };
    for (key, value) in labels.entries() {
        let Some(profile) = key.strip_prefix(PROFILE_LABEL_PREFIX) else {
            continue;
        };
        if !PROFILE_NAMES.contains(&profile) {
            cx.report(
                "node",
                &value,
                format!(
                    "label {key} is not an Anuket profile label; RA2 defines {PROFILE_LABEL_PREFIX}basic and {NETWORK_INTENSIVE_LABEL}"
                ),
            );
            continue;
        }
        if let Some(problem) = value_problem(&value) {
            cx.report("node", &value, format!("label {key} {problem}"));
        }
    }
}

/// What is wrong with a profile label value, if anything: profile selectors match the string
/// "true" exactly (a node that does not meet the profile may say "false").
fn value_problem(value: &Located<'_>) -> Option<String> {
    match value.as_str() {
        Some("true" | "false") => None,
        Some(other) => Some(format!(
            "has value {other:?}; node selectors for the profile match only the exact string \"true\""
        )),
        None => Some(format!(
            "has the {} value {}; label values must be strings, so the API server rejects it: write \"true\"",
            value.type_name(),
            value.source_text()
        )),
    }
}

/// selector-value: a pod that selects on a profile label with a value no conformant node has.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if let Some(selector) = pod.get("nodeSelector") {
        for (key, value) in selector.entries() {
            if let Some(problem) = selected_value_problem(key, &value) {
                cx.report("selector-value", &value, problem);
            }
        }
    }
    for term in pod.required_node_selector_terms() {
        let Some(expressions) = term.get("matchExpressions") else {
            continue;
        };
        for expression in expressions.items() {
            affinity_expression(&expression, cx);
        }
    }
}

/// A `In` (or `Exists`) expression on a profile label.
fn affinity_expression(expression: &Located<'_>, cx: &mut Context<'_>) {
    let Some(key) = expression.str_at("key") else { return };
    let Some(profile) = key.strip_prefix(PROFILE_LABEL_PREFIX) else {
        return;
    };
    let operator = expression.str_at("operator");
    if !PROFILE_NAMES.contains(&profile) && matches!(operator, Some("In" | "Exists")) {
        cx.report("selector-value", expression, unknown_profile(key));
        return;
    }
    if operator != Some("In") {
        return;
    }
    let Some(values) = expression.get("values") else { return };
    if !values.items().any(|v| v.as_str() == Some("true")) {
        cx.report(
            "selector-value",
            &values,
            format!("node affinity selects {key} without the value \"true\", which is what conformant nodes carry"),
        );
    }
}

fn selected_value_problem(key: &str, value: &Located<'_>) -> Option<String> {
    let profile = key.strip_prefix(PROFILE_LABEL_PREFIX)?;
    if !PROFILE_NAMES.contains(&profile) {
        return Some(unknown_profile(key));
    }
    match value.as_str() {
        Some("true") => None,
        Some(other) => Some(format!(
            "node selector {key} has value {other:?}, but conformant nodes carry the exact string \"true\""
        )),
        None => Some(format!(
            "node selector {key} has the {} value {}; selector values must be strings: write \"true\"",
            value.type_name(),
            value.source_text()
        )),
    }
}

fn unknown_profile(key: &str) -> String {
    format!(
        "{key} is not an Anuket profile label, so no node carries it; RA2 defines {PROFILE_LABEL_PREFIX}basic and {NETWORK_INTENSIVE_LABEL}"
    )
}

/// workload: a pod that is network-intensive by any signal but the selector itself should
/// select network-intensive nodes. Runs after the whole input is read, because the signal may
/// come from a `NetworkAttachmentDefinition` later in the input.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    for workload in &bundle.workloads {
        let Some((signal, place)) = resolve(workload, bundle) else {
            continue;
        };
        if signal == Signal::SelectsProfile {
            continue;
        }
        cx.report(
            "workload",
            place,
            format!(
                "{signal}, so the workload is network-intensive, but it does not select nodes labelled {NETWORK_INTENSIVE_LABEL}: \"true\""
            ),
        );
    }
}
