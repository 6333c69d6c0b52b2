//! ra2.app.010: node features are selected through the labels Node Feature Discovery publishes.

use crate::model::PodSpec;
use crate::parse::view::Located;
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context, with_article};
use crate::telco::nfd::{
    FEATURE_LABEL_NS, KeyClass, classify_key, feature_word, is_denied, is_nfd_namespace, legacy_replacement,
};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    params: Some(super::params::decoder::<Namespaces>),
    ..Checks::NONE
};

/// Suffixes of NFD labels that are published as "true" only.
const BOOLEAN_SUFFIXES: &[&str] = &[
    ".present",
    ".capable",
    ".configured",
    ".enabled",
    ".dax",
    ".protected",
    ".turbo",
];

/// Boolean features NFD also publishes as "false".
const MAY_BE_FALSE: &[&str] = &["cpu-pstate.turbo", "cpu-cstate.enabled"];

const LEGACY_PREFIXES: &[&str] = &["node.alpha.kubernetes-incubator.io", "node.alpha.intel.com"];

/// The label namespaces nfd-master is configured with.
#[derive(Clone, Debug)]
struct Namespaces {
    extra: Vec<String>,
    deny: Vec<String>,
}

impl RuleParams for Namespaces {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Namespaces {
            extra: params.list("nfd_extra_label_ns"),
            deny: params.list("nfd_deny_label_ns"),
        }
    }
}

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let params = cx.params::<Namespaces>();
    let namespaces: &Namespaces = &params;
    if let Some(selector) = pod.get("nodeSelector") {
        for (key, value) in selector.entries() {
            check_key(key, &value, "nodeSelector key", namespaces, cx);
            check_value(key, &value, cx);
        }
    }
    for expression in affinity_expressions(pod) {
        let Some(key_node) = expression.get("key") else {
            continue;
        };
        let Some(key) = key_node.as_str() else { continue };
        check_key(key, &key_node, "node affinity key", namespaces, cx);
        if matches!(expression.str_at("operator"), Some("In" | "NotIn")) {
            for value in expression.get("values").iter().flat_map(Located::items) {
                check_value(key, &value, cx);
            }
        }
    }
}

/// The match expressions of required and preferred node affinity terms.
fn affinity_expressions<'d>(pod: &PodSpec<'d>) -> Vec<Located<'d>> {
    let Some(affinity) = pod.get("affinity").and_then(|a| a.get("nodeAffinity")) else {
        return Vec::new();
    };
    let required = affinity
        .path(&["requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"])
        .map(|terms| terms.items().collect::<Vec<_>>())
        .unwrap_or_default();
    let preferred = affinity
        .get("preferredDuringSchedulingIgnoredDuringExecution")
        .map(|terms| terms.items().filter_map(|t| t.get("preference")).collect::<Vec<_>>())
        .unwrap_or_default();
    required
        .iter()
        .chain(&preferred)
        .filter_map(|term| term.get("matchExpressions"))
        .flat_map(|list| list.items().collect::<Vec<_>>())
        .collect()
}

/// legacy-nfd, nfd-shape and use-nfd: one verdict per key, by namespace.
fn check_key(key: &str, at: &Located<'_>, what: &str, namespaces: &Namespaces, cx: &mut Context<'_>) {
    let class = classify_key(key, &namespaces.extra, &namespaces.deny);
    if class == KeyClass::WellKnown {
        return;
    }
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if prefix.is_some_and(|p| LEGACY_PREFIXES.contains(&p)) {
        let message =
            format!("{what} {key:?} is a label of an NFD release before v0.4, which current NFD removes from nodes");
        match legacy_replacement(key) {
            Some(modern) => cx.report_with_help("legacy-nfd", at, message, format!("Select {modern} instead.")),
            None => cx.report("legacy-nfd", at, message),
        }
    } else if let KeyClass::NfdMalformed(why) = class {
        // The NFD model says why and, where it can derive one, which label to use.
        cx.report("nfd-shape", at, why);
    } else if nfd_never_publishes(prefix, namespaces) {
        if let Some(word) = feature_word(name) {
            cx.report(
                "use-nfd",
                at,
                format!("{what} {key:?} names a node feature ({word:?}) with a label NFD does not publish"),
            );
        }
    } else if let (KeyClass::LooksLikeFeature(_), Some(prefix)) = (&class, prefix) {
        // A vendor namespace NFD may publish into but is not known to: on a network-intensive
        // pod the device capability is more likely a hand-made label of the node's owner.
        if let Some(word) = feature_word(name) {
            cx.report_if_network_intensive(
                "vendor-feature-label",
                at,
                format!(
                    "{what} {key:?} of a network-intensive pod names a device capability ({word:?}) with a \
                     vendor label in {prefix:?}; discover the feature through NFD ({FEATURE_LABEL_NS}/...)"
                ),
            );
        }
    }
}

/// Keys NFD never publishes: unprefixed, in `kubernetes.io` outside NFD's own namespaces, or in
/// a namespace nfd-master denies and does not re-allow (`extra_label_ns` entries match exactly,
/// as in nfd-master; see [`crate::telco::nfd`]).
fn nfd_never_publishes(prefix: Option<&str>, namespaces: &Namespaces) -> bool {
    let Some(ns) = prefix else { return true };
    if is_nfd_namespace(ns) {
        return false;
    }
    if ns == "kubernetes.io" || ns.strip_suffix(".kubernetes.io").is_some_and(|sub| !sub.is_empty()) {
        return true;
    }
    is_denied(ns, &namespaces.deny) && !namespaces.extra.iter().any(|e| e == ns)
}

/// nfd-value: a boolean NFD feature compared with anything but the string NFD publishes.
fn check_value(key: &str, value: &Located<'_>, cx: &mut Context<'_>) {
    let Some(name) = key.strip_prefix(FEATURE_LABEL_NS).and_then(|r| r.strip_prefix('/')) else {
        return;
    };
    if !is_boolean_feature(name) {
        return;
    }
    let may_be_false = MAY_BE_FALSE.contains(&name);
    // A null label value decodes as the empty string.
    let text = if value.is_null() { Some("") } else { value.as_str() };
    let message = match text {
        Some("true") => return,
        Some("false") if may_be_false => return,
        Some("false") => format!(
            "value \"false\" for {key:?} never matches: NFD removes the label when the feature is absent (select that with DoesNotExist)"
        ),
        Some(text) => {
            let published = if may_be_false {
                "\"true\" or \"false\""
            } else {
                "\"true\""
            };
            format!("value {text:?} for {key:?} never matches: NFD publishes {published}")
        }
        None => format!(
            "value {} for {key:?} is {}, not the string \"true\", so the API server rejects the object",
            value.source_text(),
            with_article(value.type_name())
        ),
    };
    cx.report("nfd-value", value, message);
}

fn is_boolean_feature(name: &str) -> bool {
    if let Some(flag) = name.strip_prefix("cpu-cpuid.") {
        return !flag.ends_with("_VERSION");
    }
    matches!(
        name,
        "cpu-hardware_multithreading"
            | "cpu-cpu_atom"
            | "cpu-cpu_core"
            | "cpu-coprocessor.nx_gzip"
            | "memory-numa"
            | "memory-swap"
            | "storage-nonrotationaldisk"
    ) || name.starts_with("kernel-config.")
        || BOOLEAN_SUFFIXES.iter().any(|s| name.ends_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_words_are_whole_parts_with_optional_digits() {
        assert_eq!(feature_word("cpu-avx512"), Some("cpu"));
        assert_eq!(feature_word("AVX512"), Some("AVX512"));
        assert_eq!(feature_word("rt2"), Some("rt2"));
        assert_eq!(feature_word("start"), None);
        assert_eq!(feature_word("partition"), None);
        assert_eq!(feature_word("smartnic"), None);
    }

    #[test]
    fn namespaces_nfd_never_publishes() {
        let none = Namespaces {
            extra: vec![],
            deny: vec![],
        };
        assert!(nfd_never_publishes(None, &none));
        assert!(nfd_never_publishes(Some("kubernetes.io"), &none));
        assert!(nfd_never_publishes(Some("node.kubernetes.io"), &none));
        assert!(!nfd_never_publishes(Some("feature.node.kubernetes.io"), &none));
        assert!(!nfd_never_publishes(Some("vendor.profile.node.kubernetes.io"), &none));
        assert!(!nfd_never_publishes(Some("example.com"), &none));
        let configured = Namespaces {
            extra: vec!["accel.example.com".to_owned()],
            deny: vec!["*.example.com".to_owned(), "intel.com".to_owned()],
        };
        assert!(nfd_never_publishes(Some("net.example.com"), &configured));
        assert!(nfd_never_publishes(Some("intel.com"), &configured));
        assert!(!nfd_never_publishes(Some("accel.example.com"), &configured));
        assert!(!nfd_never_publishes(Some("example.com"), &configured));
    }
}
