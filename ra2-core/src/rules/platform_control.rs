//! Platform checks on the control plane's command lines (RA2 ch.4 table 4-2): alpha APIs and
//! alpha feature gates disabled (ra2.k8s.012), beta APIs only where no GA exists (ra2.k8s.019),
//! read from `--runtime-config` and `--feature-gates` of kube-apiserver,
//! kube-controller-manager and kube-scheduler (static pods, or any pod spec that runs them),
//! from kubeadm's `ClusterConfiguration` extra arguments, and from a `KubeletConfiguration`'s
//! `featureGates`; and the control plane's version (ra2.k8s.005).

use std::collections::BTreeMap;

use crate::k8s::api_versions::{Level, level, table};
use crate::k8s::feature_gates::{self, Stage};
use crate::model::{Object, PodSpec};
use crate::parse::view::Located;
use crate::platform::flags::{Flag, MapEntry, map_flag, merge_map_values, parse_bool};
use crate::platform::{Component, KUBEADM_GROUP, KUBELET_GROUP, extra_args, image_tag, kubernetes_minor};
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context};

pub(super) static K8S012: Checks = Checks {
    pod: Some(alpha_pod),
    object: Some(alpha_object),
    ..Checks::NONE
};

pub(super) static K8S019: Checks = Checks {
    pod: Some(beta_pod),
    object: Some(beta_object),
    ..Checks::NONE
};

pub(super) static K8S005: Checks = Checks {
    pod: Some(version_pod),
    object: Some(version_object),
    params: Some(super::params::decoder::<VersionParams>),
    ..Checks::NONE
};

/// How many minor releases behind `kubernetes-version` components may be.
#[derive(Clone, Debug)]
pub(crate) struct VersionParams {
    skew: u32,
}

impl RuleParams for VersionParams {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        VersionParams {
            skew: params
                .integer("skew")
                .and_then(|v| u32::try_from(v).ok())
                .unwrap_or(u32::MAX),
        }
    }
}

/// Is a map-flag value on? A bare key (`--runtime-config=batch/v2alpha1`) means `true`, as the
/// API server reads it; a value Go cannot parse is left to the component, which refuses it.
fn on(entry: &MapEntry<'_>) -> bool {
    entry.value.is_empty() || parse_bool(&entry.value) == Some(true)
}

/// The group and version of a `--runtime-config` key: `group/version`, `group/version/resource`,
/// or `version` alone for the core group.
fn group_version(key: &str) -> (&str, &str) {
    let mut parts = key.splitn(3, '/');
    match (parts.next(), parts.next()) {
        (Some(version), None) => ("", version),
        (Some(group), Some(version)) => (group, version),
        _ => ("", key),
    }
}

/// A GA API version the table names as the replacement of a beta group version.
fn ga_replacement(group: &str, version: &str) -> Option<&'static str> {
    table()
        .versions
        .iter()
        .filter(|e| e.group == group && e.version == version)
        .find_map(|e| e.replacement)
}

/// The `--feature-gates` and `--runtime-config` of every control-plane container of a pod.
fn command_lines<'d>(pod: &PodSpec<'d>) -> Vec<(Component, Vec<Flag<'d>>)> {
    pod.components()
        .iter()
        .filter(|c| c.component != Component::Etcd)
        .map(|c| (c.component, c.flags.clone()))
        .collect()
}

/// A component, its `--feature-gates` and its `--runtime-config`.
type Line<'d> = (
    Component,
    BTreeMap<String, MapEntry<'d>>,
    BTreeMap<String, MapEntry<'d>>,
);

/// The flags kubeadm's `ClusterConfiguration` passes to each control-plane component, as
/// flags (`extraArgs`, v1beta3 map or v1beta4 list).
fn kubeadm_lines<'d>(object: &Object<'d>) -> Vec<Line<'d>> {
    if !object.is(KUBEADM_GROUP, "ClusterConfiguration") {
        return Vec::new();
    }
    let mut lines = Vec::new();
    for (section, component) in [
        ("apiServer", Component::ApiServer),
        ("controllerManager", Component::ControllerManager),
        ("scheduler", Component::Scheduler),
    ] {
        let Some(args) = object.root.path(&[section, "extraArgs"]) else {
            continue;
        };
        let args = extra_args(&args);
        let map = |name: &str| {
            merge_map_values(
                args.iter()
                    .filter(|(n, _, _)| n == name)
                    .map(|(_, value, at)| (value.as_str(), at)),
            )
        };
        lines.push((component, map("feature-gates"), map("runtime-config")));
    }
    lines
}

/// The kubelet's `featureGates` map as map-flag entries.
fn kubelet_gates<'d>(object: &Object<'d>) -> BTreeMap<String, MapEntry<'d>> {
    if !object.is(KUBELET_GROUP, "KubeletConfiguration") {
        return BTreeMap::new();
    }
    object
        .root
        .get("featureGates")
        .map(|g| {
            g.entries()
                .map(|(k, v)| {
                    (
                        k.to_owned(),
                        MapEntry {
                            key: k.to_owned(),
                            value: v.scalar_text().map(std::borrow::Cow::into_owned).unwrap_or_default(),
                            at: v,
                        },
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn alpha_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for (component, flags) in command_lines(pod) {
        alpha(
            component.binary(),
            &map_flag(&flags, "feature-gates"),
            &map_flag(&flags, "runtime-config"),
            cx,
        );
    }
}

fn alpha_object(object: &Object<'_>, cx: &mut Context<'_>) {
    for (component, gates, runtime) in kubeadm_lines(object) {
        alpha(component.binary(), &gates, &runtime, cx);
    }
    alpha("the kubelet", &kubelet_gates(object), &BTreeMap::new(), cx);
}

fn beta_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for (component, flags) in command_lines(pod) {
        beta(
            component.binary(),
            &map_flag(&flags, "feature-gates"),
            &map_flag(&flags, "runtime-config"),
            cx,
        );
    }
}

fn beta_object(object: &Object<'_>, cx: &mut Context<'_>) {
    for (component, gates, runtime) in kubeadm_lines(object) {
        beta(component.binary(), &gates, &runtime, cx);
    }
    beta("the kubelet", &kubelet_gates(object), &BTreeMap::new(), cx);
}

/// alpha-feature-gate and alpha-runtime-config.
fn alpha(
    who: &str,
    gates: &BTreeMap<String, MapEntry<'_>>,
    runtime: &BTreeMap<String, MapEntry<'_>>,
    cx: &mut Context<'_>,
) {
    if let Some(entry) = gates.get("AllAlpha").filter(|e| on(e)) {
        cx.report(
            "alpha-feature-gate",
            &entry.at,
            format!("{who} turns on every alpha feature gate (AllAlpha={})", entry.value),
        );
    }
    let target = cx.config().kubernetes_minor;
    for entry in gates.values().filter(|e| on(e)) {
        let Some(spec) = feature_gates::stage(&entry.key, target) else {
            continue;
        };
        if !matches!(spec.stage, Stage::Alpha | Stage::PreAlpha) {
            continue;
        }
        cx.report(
            "alpha-feature-gate",
            &entry.at,
            format!(
                "{who} turns on {}={}, a feature gate that is {} in Kubernetes 1.{target} (since 1.{})",
                entry.key,
                entry.value,
                spec.stage.as_str(),
                spec.since
            ),
        );
    }
    for entry in runtime.values().filter(|e| on(e)) {
        let why = match entry.key.as_str() {
            "api/all" => "every API version, alpha ones included",
            "api/alpha" => "every alpha API version",
            key => match group_version(key) {
                (_, version) if level(version) == Some(Level::Alpha) => "an alpha API version",
                _ => continue,
            },
        };
        cx.report(
            "alpha-runtime-config",
            &entry.at,
            format!("{who} serves {} with --runtime-config: {why}", entry.key),
        );
    }
}

/// beta-feature-gate and beta-runtime-config.
fn beta(
    who: &str,
    gates: &BTreeMap<String, MapEntry<'_>>,
    runtime: &BTreeMap<String, MapEntry<'_>>,
    cx: &mut Context<'_>,
) {
    if let Some(entry) = gates.get("AllBeta").filter(|e| on(e)) {
        cx.report(
            "beta-feature-gate",
            &entry.at,
            format!(
                "{who} turns on every beta feature gate (AllBeta={}), including betas whose API has a GA version",
                entry.value
            ),
        );
    }
    for entry in runtime.values().filter(|e| on(e)) {
        let message = if entry.key == "api/beta" {
            format!(
                "{who} serves every beta API version with --runtime-config api/beta, including betas that have a GA version"
            )
        } else {
            let (group, version) = group_version(&entry.key);
            if level(version) != Some(Level::Beta) {
                continue;
            }
            let Some(ga) = ga_replacement(group, version) else {
                continue;
            };
            format!(
                "{who} serves beta API {} with --runtime-config, but its GA version {ga} exists",
                entry.key
            )
        };
        cx.report("beta-runtime-config", &entry.at, message);
    }
}

/// component-version: a control-plane image tag (kube-apiserver, kube-controller-manager,
/// kube-scheduler) outside the supported window.
fn version_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for found in pod.components() {
        if found.component == Component::Etcd {
            continue;
        }
        let Some(image) = found.container.get("image") else {
            continue;
        };
        let Some(tag) = image.as_str().and_then(image_tag) else {
            continue;
        };
        if kubernetes_minor(tag).is_none() {
            continue;
        }
        window(
            cx,
            "component-version",
            &image,
            tag,
            &format!("{}'s image is tagged", found.component.binary()),
        );
    }
}

/// component-version: kubeadm's `kubernetesVersion`.
fn version_object(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is(KUBEADM_GROUP, "ClusterConfiguration") {
        return;
    }
    let Some(at) = object.root.get("kubernetesVersion") else {
        return;
    };
    let Some(text) = at.as_str() else { return };
    if text.starts_with("stable") || text.starts_with("latest") || text.starts_with("ci/") {
        return;
    }
    window(
        cx,
        "component-version",
        &at,
        text,
        "kubeadm's ClusterConfiguration sets kubernetesVersion",
    );
}

/// Reports a version outside `kubernetes-version - skew ..= kubernetes-version`.
pub(crate) fn window(cx: &mut Context<'_>, check: &'static str, at: &Located<'_>, version: &str, what: &str) {
    let target = cx.config().kubernetes_minor;
    let skew = cx.params::<VersionParams>().skew;
    let oldest = target.saturating_sub(skew);
    let message = match kubernetes_minor(version) {
        None => format!("{what} {version}, which is not a Kubernetes 1.x version"),
        Some(minor) if minor < oldest => format!(
            "{what} {version}, older than the supported window 1.{oldest} to 1.{target} (kubernetes-version 1.{target}, skew {skew})"
        ),
        Some(minor) if minor > target => format!(
            "{what} {version}, newer than kubernetes-version 1.{target}, the release ra2 judges against; set kubernetes-version to the cluster's release"
        ),
        Some(_) => return,
    };
    cx.report(check, at, message);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_config_keys() {
        assert_eq!(group_version("batch/v2alpha1"), ("batch", "v2alpha1"));
        assert_eq!(group_version("v1"), ("", "v1"));
        assert_eq!(
            group_version("resource.k8s.io/v1beta1/deviceclasses"),
            ("resource.k8s.io", "v1beta1")
        );
    }
}
