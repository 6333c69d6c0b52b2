//! ra2.ntw.006 (base) / ra2.ntw.016 (latest): a NetworkAttachmentDefinition is well formed, so
//! that Multus can hand its CNI configuration to conformant plugins.

use serde_json::{Map, Value};

use crate::k8s::names::is_dns1123_label;
use crate::model::Object;
use crate::parse::view::Located;
use crate::report::words::json_type;
use crate::rules::{Checks, Context, with_article};
use crate::telco::nad::{self, API_VERSION};

/// Reported in the base edition (the multiplexer integrates through CNI).
pub(super) static RULE_BASE: Checks = Checks {
    object: Some(check),
    ..Checks::NONE
};

/// Reported in the latest edition (the multiplexer implements the multi-net spec v1.2).
pub(super) static RULE_LATEST: Checks = Checks {
    object: Some(check),
    ..Checks::NONE
};

/// The API group that is the annotations' prefix, and the annotation prefix that is the group:
/// easy to swap (ra2-rules.md §3.22).
const ANNOTATION_PREFIX: &str = "k8s.v1.cni.cncf.io";
const API_GROUP: &str = "k8s.cni.cncf.io";

/// Help for the empty-config check.
const EMPTY_HELP: &str = "Put the CNI configuration in spec.config, or make sure every node has a CNI configuration file with the network's name.";

/// Plugin-object keys the CNI spec reserves for the runtime (besides `cni.dev/*`).
const RESERVED_KEYS: &[&str] = &["runtimeConfig", "args"];

fn check(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is_nad() {
        return;
    }
    api_version(object, cx);
    metadata_name(object, cx);
    annotation_keys(object, cx);
    config(object, cx);
}

/// api-version: the CRD serves `k8s.cni.cncf.io/v1` only.
fn api_version(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(written) = object.api_version.filter(|v| *v != API_VERSION) else {
        return;
    };
    let Some(node) = object.root.get("apiVersion") else {
        return;
    };
    let message = if object.group_version().is_some_and(|(g, _)| g == ANNOTATION_PREFIX) {
        format!(
            "apiVersion {written} uses the annotation prefix {ANNOTATION_PREFIX} as API group; the API group is {API_GROUP}"
        )
    } else {
        format!("apiVersion {written} is not served for NetworkAttachmentDefinition; use {API_VERSION}")
    };
    cx.report_with_help("api-version", &node, message, "Set apiVersion to k8s.cni.cncf.io/v1.");
}

/// Help for the name check.
const NAME_HELP: &str =
    "Give the object a metadata.name of lower-case letters, digits and '-', and select the network by that name.";

/// name: pods select the network by `metadata.name`, a DNS-1123 label (MNS §3.3).
fn metadata_name(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(metadata) = object.metadata() else {
        cx.report_with_help(
            "name",
            &kind_node(object),
            "metadata is missing, so the network has no name pods can select",
            NAME_HELP,
        );
        return;
    };
    if !metadata.is_map() {
        let hint = metadata
            .as_str()
            .and_then(|s| s.split_once(':'))
            .filter(|(key, value)| *key == "name" && !value.starts_with(' '))
            .map(|(_, value)| format!(" (write \"name: {value}\", with a space after the colon)"))
            .unwrap_or_default();
        cx.report_with_help(
            "name",
            &metadata,
            format!(
                "metadata is {}, not a mapping{hint}",
                with_article(metadata.type_name())
            ),
            NAME_HELP,
        );
        return;
    }
    match metadata.get("name") {
        Some(name) => match name.as_str() {
            Some(text) if is_dns1123_label(text) => {}
            Some(text) => cx.report_with_help(
                "name",
                &name,
                format!("name {text:?} is not a DNS-1123 label (lower-case letters, digits and '-', at most 63), so pods cannot select it"),
                NAME_HELP,
            ),
            None => cx.report_with_help(
                "name",
                &name,
                format!("metadata.name is {}, not a string", with_article(name.type_name())),
                NAME_HELP,
            ),
        },
        None if metadata.get("generateName").is_none() => {
            cx.report_with_help(
                "name",
                &metadata,
                "metadata.name is missing, so pods cannot select the network",
                NAME_HELP,
            );
        }
        None => {}
    }
}

/// annotation-key: `k8s.cni.cncf.io/...` annotations are the API group used as a prefix; Multus
/// reads `k8s.v1.cni.cncf.io/...` and ignores them.
fn annotation_keys(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(annotations) = object.metadata().and_then(|m| m.get("annotations")) else {
        return;
    };
    for (key, value) in annotations.entries() {
        if let Some(name) = key.strip_prefix(API_GROUP).and_then(|rest| rest.strip_prefix('/')) {
            cx.report_with_help(
                "annotation-key",
                &value,
                format!("annotation {key} uses the API group as prefix; Multus reads {ANNOTATION_PREFIX}/{name}"),
                format!("Rename the annotation to {ANNOTATION_PREFIX}/{name}."),
            );
        }
    }
}

/// spec.config: a string holding a CNI configuration (single plugin or list) as a JSON object.
fn config(object: &Object<'_>, cx: &mut Context<'_>) {
    let spec = object.root.get("spec").filter(|s| !s.is_null());
    let Some(spec) = spec else {
        cx.report_with_help(
            "empty-config",
            &kind_node(object),
            "spec is missing, so Multus reads the CNI configuration from a file named after the network on each node",
            EMPTY_HELP,
        );
        return;
    };
    if !spec.is_map() {
        cx.report(
            "config",
            &spec,
            format!("spec is {}, not a mapping", with_article(spec.type_name())),
        );
        return;
    }
    let node = spec.get("config");
    if node.as_ref().is_none_or(|c| c.is_null() || c.as_str() == Some("")) {
        cx.report_with_help(
            "empty-config",
            node.as_ref().unwrap_or(&spec),
            "spec.config is empty, so Multus reads the CNI configuration from a file named after the network on each node",
            EMPTY_HELP,
        );
        return;
    }
    let Some(node) = node else { return };
    let Some(text) = node.as_str() else {
        cx.report(
            "config",
            &node,
            format!(
                "spec.config is {}, not a string: write the CNI configuration as JSON text in quotes",
                with_article(node.type_name())
            ),
        );
        return;
    };
    let json = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(json)) => json,
        Ok(other) => {
            cx.report(
                "config",
                &node,
                format!("spec.config is {} in JSON, not an object", json_type(&other)),
            );
            return;
        }
        Err(e) => {
            cx.report(
                "config",
                &node,
                format!("spec.config is not valid JSON ({e} of the configuration)"),
            );
            return;
        }
    };
    cni_version(&json, &node, cx);
    network_name(object, &json, &node, cx);
    plugins(&json, &node, cx);
}

/// cni-version: the config declares the CNI spec version it is written for, as MAJOR.MINOR.PATCH.
fn cni_version(json: &Map<String, Value>, node: &Located<'_>, cx: &mut Context<'_>) {
    let problem = match json.get("cniVersion") {
        Some(Value::String(version)) if is_semver(version) => return,
        Some(Value::String(version)) => {
            format!("cniVersion {version:?} in spec.config is not a MAJOR.MINOR.PATCH version")
        }
        Some(other) => format!("cniVersion in spec.config is {}, not a string", json_type(other)),
        None if has_cni_versions(json) => return,
        None => "spec.config has no cniVersion, so runtimes assume the oldest CNI version or refuse it".to_owned(),
    };
    cx.report_with_help(
        "cni-version",
        node,
        problem,
        "Set cniVersion in spec.config to the CNI version the plugins implement, such as \"1.0.0\".",
    );
}

/// A non-empty `cniVersions` list of versions stands in for `cniVersion` (CNI 1.1).
fn has_cni_versions(json: &Map<String, Value>) -> bool {
    json.get("cniVersions")
        .and_then(Value::as_array)
        .is_some_and(|list| !list.is_empty() && list.iter().all(|v| v.as_str().is_some_and(is_semver)))
}

/// `MAJOR.MINOR.PATCH`, each a number without leading zeros.
fn is_semver(version: &str) -> bool {
    let parts: Vec<&str> = version.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && (p.len() == 1 || !p.starts_with('0')))
}

/// network-name: the CNI network name should equal the NAD's name (MNS 3.4.3); absent is fine,
/// Multus fills it in.
fn network_name(object: &Object<'_>, json: &Map<String, Value>, node: &Located<'_>, cx: &mut Context<'_>) {
    let Some(name) = json.get("name") else { return };
    let Some(name) = name.as_str() else {
        cx.report(
            "config",
            node,
            format!("name in spec.config is {}, not a string", json_type(name)),
        );
        return;
    };
    let metadata_name = object.metadata().and_then(|m| m.str_at("name"));
    if let Some(metadata_name) = metadata_name.filter(|m| *m != name) {
        cx.report_with_help(
            "network-name",
            node,
            format!("network name {name:?} in spec.config differs from metadata.name {metadata_name:?}"),
            format!("Set name in spec.config to {metadata_name:?}, or leave it out and let Multus fill it in."),
        );
    }
}

/// plugins, plugin-type, type-and-plugins, reserved-key: the config names at least one plugin,
/// and every plugin object has a binary name as its type.
fn plugins(json: &Map<String, Value>, node: &Located<'_>, cx: &mut Context<'_>) {
    match (json.get("type"), json.get("plugins")) {
        (None, None) => {
            cx.report(
                "plugins",
                node,
                "spec.config has neither a plugin type nor a plugins list, so no plugin would run",
            );
            return;
        }
        (Some(single), Some(_)) => cx.report_with_help(
            "type-and-plugins",
            node,
            format!(
                "spec.config has both type {} and plugins; Multus reads it as a plugin list and ignores the top-level type",
                shown(single)
            ),
            "Remove the top-level type, or move that plugin into the plugins list.",
        ),
        _ => {}
    }
    match json.get("plugins") {
        None => plugin_object("", json, node, cx),
        Some(Value::Array(items)) if items.is_empty() => {
            cx.report(
                "plugins",
                node,
                "plugins in spec.config is empty, so no plugin would run",
            );
        }
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let path = format!("plugins[{i}]");
                match item.as_object() {
                    Some(conf) => plugin_object(&path, conf, node, cx),
                    None => cx.report(
                        "plugins",
                        node,
                        format!("{path} in spec.config is {}, not a plugin object", json_type(item)),
                    ),
                }
            }
        }
        Some(other) => cx.report(
            "plugins",
            node,
            format!("plugins in spec.config is {}, not a list", json_type(other)),
        ),
    }
}

/// One plugin configuration object: its `type` and the keys reserved for the runtime.
fn plugin_object(path: &str, conf: &Map<String, Value>, node: &Located<'_>, cx: &mut Context<'_>) {
    let type_path = nad::join(path, "type");
    match conf.get("type") {
        None => cx.report("plugin-type", node, format!("{path} in spec.config has no type")),
        Some(Value::String(t)) if t.is_empty() => {
            cx.report("plugin-type", node, format!("{type_path} in spec.config is empty"));
        }
        Some(Value::String(t)) if t.contains(['/', '\\']) => cx.report(
            "plugin-type",
            node,
            format!("{type_path} \"{t}\" in spec.config is a path; a plugin type is the name of a binary in the CNI plugin directory"),
        ),
        Some(Value::String(_)) => {}
        Some(other) => cx.report(
            "plugin-type",
            node,
            format!("{type_path} in spec.config is {}, not a string", json_type(other)),
        ),
    }
    for key in conf.keys() {
        if RESERVED_KEYS.contains(&key.as_str()) || key.starts_with("cni.dev/") {
            cx.report_with_help(
                "reserved-key",
                node,
                format!(
                    "{} in spec.config is reserved for the container runtime, which sets it per attachment",
                    nad::join(path, key)
                ),
                "Remove the key; declare capabilities in the plugin and pass per-pod values through the pod's network annotation.",
            );
        }
    }
}

/// Where to report something missing from the whole object: its `kind`.
fn kind_node<'d>(object: &Object<'d>) -> Located<'d> {
    object.root.get("kind").unwrap_or_else(|| object.root.clone())
}

/// A JSON scalar as written, for messages.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::is_semver;
    use crate::{Config, Edition};

    #[test]
    fn semver_has_three_numbers() {
        for v in ["0.3.1", "1.0.0", "0.4.0", "10.20.30"] {
            assert!(is_semver(v), "{v}");
        }
        for v in ["", "0.3", "1", "1.0.0.0", "01.0.0", "v1.0.0", "1.0.0-rc1", "1..0"] {
            assert!(!is_semver(v), "{v}");
        }
    }

    #[test]
    fn each_edition_reports_its_own_id() {
        let text = "apiVersion: k8s.cni.cncf.io/v1\nkind: NetworkAttachmentDefinition\nmetadata: {name: a}\nspec: {config: '{\"cniVersion\": \"1.0.0\"}'}\n";
        for (edition, id) in [(Edition::Base, "ra2.ntw.006"), (Edition::Latest, "ra2.ntw.016")] {
            let config = Config {
                edition,
                ..Config::default()
            };
            let rules: Vec<String> = crate::lint_str("t.yaml", text, &config)
                .findings
                .into_iter()
                .map(|f| f.rule)
                .filter(|r| r == "ra2.ntw.006" || r == "ra2.ntw.016")
                .collect();
            assert_eq!(rules, vec![id.to_owned()], "{edition:?}");
        }
    }
}
