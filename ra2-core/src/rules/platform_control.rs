//! Platform checks on the control plane's command lines (RA2 ch.4 table 4-2): alpha APIs and
//! alpha feature gates disabled (ra2.k8s.012), beta APIs only where no GA exists (ra2.k8s.019),
//! read from `--runtime-config` and `--feature-gates` of kube-apiserver,
//! kube-controller-manager and kube-scheduler (static pods, or any pod spec that runs them),
//! from kubeadm's `ClusterConfiguration` extra arguments, and from a `KubeletConfiguration`'s
//! `featureGates`; and the control plane's version (ra2.k8s.005).

use std::collections::BTreeMap;

use crate::k8s::api_versions::{Level, table};
use crate::k8s::feature_gates::{self, Stage};
use crate::model::platform::flags::{Entry, GateSpec, MapEntry, configuration_map, feature_gates, parse_bool};
use crate::model::platform::runtime_config::{AnyApi, RuntimeConfig, level_of};
use crate::model::platform::{Component, KUBEADM_GROUP, KUBELET_GROUP, extra_args, image_tag, kubernetes_minor};
use crate::model::{Object, PodSpec};
use crate::parse::view::Located;
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

pub(super) static K8S024: Checks = Checks {
    pod: Some(sidecar_pod),
    object: Some(sidecar_object),
    ..Checks::NONE
};

/// The first release whose components run sidecar containers by default (SidecarContainers
/// beta, on by default; alpha and off in 1.28, GA and locked on in 1.33).
const SIDECARS_SINCE: u32 = 29;

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

/// The gates a component sets (name to value and the entry that sets it); empty when the
/// component refuses its `--feature-gates` and does not start, so turns nothing on.
type Gates<'d> = BTreeMap<String, (bool, MapEntry<'d>)>;

/// A component's `--feature-gates` occurrences (value and where), read as the component reads
/// them against ra2's table of gates for the target release.
fn gates<'v, 'd: 'v>(occurrences: impl IntoIterator<Item = (&'v str, Located<'d>)>, target: u32) -> Gates<'d> {
    feature_gates(occurrences, |name| gate_spec(name, target)).unwrap_or_default()
}

/// What the components of release `1.target` know of a gate, by ra2's table: a gate the table
/// never heard of, or a release newer than the table, is not judged.
fn gate_spec(name: &str, target: u32) -> GateSpec {
    if feature_gates::gate(name).is_none() || target > feature_gates::newest_release() {
        return GateSpec::Unjudged;
    }
    match feature_gates::stage(name, target) {
        None => GateSpec::Unknown,
        Some(spec) if spec.stage == Stage::Removed => GateSpec::Unknown,
        Some(spec) => GateSpec::Known {
            default: spec.default,
            locked: spec.locked,
            pre_alpha: spec.stage == Stage::PreAlpha,
        },
    }
}

/// kube-apiserver's `--runtime-config` occurrences (value and where), resolved as the API server
/// resolves them; `None` when it refuses them and does not start, so serves nothing.
fn runtime_config<'v, 'd: 'v>(
    occurrences: impl IntoIterator<Item = (&'v str, Located<'d>)>,
) -> Option<RuntimeConfig<Located<'d>>> {
    RuntimeConfig::resolve(&configuration_map(occurrences), &AnyApi).ok()
}

/// A GA API version the table names as the replacement of a beta group version.
fn ga_replacement(group: &str, version: &str) -> Option<&'static str> {
    table()
        .versions
        .iter()
        .filter(|e| e.group == group && e.version == version)
        .find_map(|e| e.replacement)
}

/// A component, its feature gates and, for kube-apiserver, its `--runtime-config`.
type Line<'d> = (Component, Gates<'d>, Option<RuntimeConfig<Located<'d>>>);

/// The flags of every control-plane container of a pod.
fn command_lines<'d>(pod: &PodSpec<'d>, target: u32) -> Vec<Line<'d>> {
    pod.components()
        .iter()
        .filter(|c| c.component != Component::Etcd)
        .map(|c| {
            let values = |name: &'static str| {
                c.flags
                    .iter()
                    .filter(move |f| f.name == name)
                    .filter_map(|f| Some((f.value?, f.value_at.clone())))
            };
            let runtime = (c.component == Component::ApiServer)
                .then(|| runtime_config(values("runtime-config")))
                .flatten();
            (c.component, gates(values("feature-gates"), target), runtime)
        })
        .collect()
}

/// The flags kubeadm's `ClusterConfiguration` passes to each control-plane component, as
/// flags (`extraArgs`, v1beta3 map or v1beta4 list).
fn kubeadm_lines<'d>(object: &Object<'d>, target: u32) -> Vec<Line<'d>> {
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
        let values = |name: &'static str| {
            args.iter()
                .filter(move |(n, _, _)| n == name)
                .map(|(_, value, at)| (value.as_str(), at.clone()))
        };
        let runtime = (component == Component::ApiServer)
            .then(|| runtime_config(values("runtime-config")))
            .flatten();
        lines.push((component, gates(values("feature-gates"), target), runtime));
    }
    lines
}

/// The kubelet's `featureGates` map: each gate and its value (a value that is no boolean is left
/// to the kubelet, which refuses it).
fn kubelet_gates<'d>(object: &Object<'d>) -> Gates<'d> {
    if !object.is(KUBELET_GROUP, "KubeletConfiguration") {
        return BTreeMap::new();
    }
    let Some(map) = object.root.get("featureGates") else {
        return BTreeMap::new();
    };
    map.entries()
        .filter_map(|(k, v)| {
            let value = v.scalar_text()?.into_owned();
            let on = parse_bool(&value)?;
            let entry = Entry {
                key: k.to_owned(),
                value,
                at: v,
            };
            Some((k.to_owned(), (on, entry)))
        })
        .collect()
}

fn alpha_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for (component, gates, runtime) in command_lines(pod, cx.config().kubernetes_minor) {
        alpha(component.binary(), &gates, runtime.as_ref(), cx);
    }
}

fn alpha_object(object: &Object<'_>, cx: &mut Context<'_>) {
    for (component, gates, runtime) in kubeadm_lines(object, cx.config().kubernetes_minor) {
        alpha(component.binary(), &gates, runtime.as_ref(), cx);
    }
    alpha("the kubelet", &kubelet_gates(object), None, cx);
}

fn beta_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for (component, gates, runtime) in command_lines(pod, cx.config().kubernetes_minor) {
        beta(component.binary(), &gates, runtime.as_ref(), cx);
    }
}

fn beta_object(object: &Object<'_>, cx: &mut Context<'_>) {
    for (component, gates, runtime) in kubeadm_lines(object, cx.config().kubernetes_minor) {
        beta(component.binary(), &gates, runtime.as_ref(), cx);
    }
    beta("the kubelet", &kubelet_gates(object), None, cx);
}

/// alpha-feature-gate and alpha-runtime-config.
fn alpha(who: &str, gates: &Gates<'_>, runtime: Option<&RuntimeConfig<Located<'_>>>, cx: &mut Context<'_>) {
    if let Some((true, entry)) = gates.get("AllAlpha") {
        cx.report(
            "alpha-feature-gate",
            &entry.at,
            format!("{who} turns on every alpha feature gate (AllAlpha={})", entry.value),
        );
    }
    let target = cx.config().kubernetes_minor;
    for (_, entry) in gates.values().filter(|(on, _)| *on) {
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
    let Some(runtime) = runtime else { return };
    if let Some(level) = runtime.level(Level::Alpha).filter(|s| s.on) {
        let why = if level.entry.key == "api/alpha" {
            "every alpha API version"
        } else {
            "every API version, alpha ones included"
        };
        report_runtime(cx, &level.entry, who, why);
    }
    let versions = runtime.versions().map(|(_, v, s)| (v, s, "an alpha API version"));
    let resources = runtime
        .resources()
        .map(|(_, v, _, s)| (v, s, "a resource of an alpha API version"));
    for (version, setting, why) in versions.chain(resources) {
        if setting.on && level_of(version) == Some(Level::Alpha) {
            report_runtime(cx, &setting.entry, who, why);
        }
    }
}

fn report_runtime(cx: &mut Context<'_>, entry: &MapEntry<'_>, who: &str, why: &str) {
    cx.report(
        "alpha-runtime-config",
        &entry.at,
        format!("{who} serves {} with --runtime-config: {why}", entry.key),
    );
}

/// beta-feature-gate and beta-runtime-config.
fn beta(who: &str, gates: &Gates<'_>, runtime: Option<&RuntimeConfig<Located<'_>>>, cx: &mut Context<'_>) {
    if let Some((true, entry)) = gates.get("AllBeta") {
        cx.report(
            "beta-feature-gate",
            &entry.at,
            format!(
                "{who} turns on every beta feature gate (AllBeta={}), including betas whose API has a GA version",
                entry.value
            ),
        );
    }
    let Some(runtime) = runtime else { return };
    if let Some(level) = runtime.level(Level::Beta).filter(|s| s.on) {
        let key = &level.entry.key;
        let what = if key == "api/beta" {
            "every beta API version"
        } else {
            "every API version"
        };
        cx.report(
            "beta-runtime-config",
            &level.entry.at,
            format!("{who} serves {what} with --runtime-config {key}, including betas that have a GA version"),
        );
    }
    let versions = runtime.versions();
    let resources = runtime.resources().map(|(g, v, _, s)| (g, v, s));
    for (group, version, setting) in versions.chain(resources) {
        if !setting.on || level_of(version) != Some(Level::Beta) {
            continue;
        }
        let Some(ga) = ga_replacement(group, version) else {
            continue;
        };
        cx.report(
            "beta-runtime-config",
            &setting.entry.at,
            format!(
                "{who} serves beta API {} with --runtime-config, but its GA version {ga} exists",
                setting.entry.key
            ),
        );
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

/// ra2.k8s.024 on the control plane's command lines: sidecar-gate-off, and old-release for
/// kube-apiserver's image.
fn sidecar_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for (component, gates, _) in command_lines(pod, cx.config().kubernetes_minor) {
        sidecars_off(component.binary(), &gates, cx);
    }
    for found in pod.components() {
        if found.component != Component::ApiServer {
            continue;
        }
        let Some(image) = found.container.get("image") else {
            continue;
        };
        let Some(minor) = image.as_str().and_then(image_tag).and_then(kubernetes_minor) else {
            continue;
        };
        if minor < SIDECARS_SINCE {
            cx.report(
                "old-release",
                &image,
                format!(
                    "kube-apiserver runs Kubernetes 1.{minor}, which has no sidecar containers by default (SidecarContainers is on from 1.{SIDECARS_SINCE})"
                ),
            );
        }
    }
}

/// ra2.k8s.024 in kubeadm's extra arguments and the kubelet's `featureGates`.
fn sidecar_object(object: &Object<'_>, cx: &mut Context<'_>) {
    for (component, gates, _) in kubeadm_lines(object, cx.config().kubernetes_minor) {
        sidecars_off(component.binary(), &gates, cx);
    }
    sidecars_off("the kubelet", &kubelet_gates(object), cx);
}

/// sidecar-gate-off: a component switches SidecarContainers off (where the release still lets
/// it: from 1.33 the gate is locked on, and a component given `false` refuses to start).
fn sidecars_off(who: &str, gates: &Gates<'_>, cx: &mut Context<'_>) {
    if let Some((false, entry)) = gates.get("SidecarContainers") {
        cx.report(
            "sidecar-gate-off",
            &entry.at,
            format!(
                "{who} switches sidecar containers off (SidecarContainers={}), so init containers with restartPolicy: Always are refused or not run beside the pod's containers",
                entry.value
            ),
        );
    }
}
