//! k8s.api: what the Kubernetes API server itself refuses, for the fields RA2 rules read
//! (ra2-rules.md §0, issue 19).
//!
//! Every condition here is one the API server's validation (`pkg/apis/core/validation`,
//! `pkg/apis/apps/validation`, `pkg/apis/batch/validation`, apimachinery's `ObjectMeta` and
//! label validation) or its decoder refuses on create, so an object with such a finding can never
//! exist in a cluster. The reasons quote the API server's own wording where it has one.
//!
//! When an RA2 rule already reports the same condition at the same place (for example
//! `ra2.app.002/subpath` for a `..` in a subPath), the linter marks that finding
//! `refused_by_api_server` instead of adding a second one ([`settle`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::k8s::names::{
    ResourceName, classify_resource_name, is_dns1123_label, is_dns1123_subdomain, is_label_value, is_qualified_name,
};
use crate::k8s::quantity::Quantity;
use crate::model::{Amount, Container, ContainerKind, Object, PodSpec, ResourcePair, WorkloadKind};
use crate::parse::view::Located;
use crate::report::Finding;
use crate::rules::{Checks, Context, Pending};

/// The rule id: outside the RA2 numbering, named after the API server.
pub(crate) const ID: &str = "k8s.api";

pub(crate) static RULE: Checks = Checks {
    object: Some(check_object),
    settle: Some(settle),
    ..Checks::NONE
};

/// A rule id and one of its checks.
type RuleCheck = (&'static str, &'static str);

/// The RA2 (and strict-mode) findings that report the same condition as a `k8s.api` check: when
/// one of them is at the same place, it is marked refused and the `k8s.api` finding is dropped.
/// Each row: `k8s.api` checks, and the (rule, check) pairs that cover them (a test ties both
/// to the catalogue).
static COVERED_BY: &[(&[&str], &[RuleCheck])] = &[
    (
        &["label", "node-selector", "affinity"],
        &[
            ("ra2.k8s.011", "invalid-key"),
            ("ra2.k8s.011", "node"),
            ("ra2.k8s.011", "selector-value"),
            ("ra2.app.010", "nfd-value"),
        ],
    ),
    (
        &["extended-resource", "resource-name"],
        &[("ra2.app.009", "extended-resource")],
    ),
    (
        &["hugepages"],
        &[
            ("ra2.ch.001", "request-limit"),
            ("ra2.ch.001", "multiple"),
            ("ra2.ch.001", "needs-cpu-or-memory"),
            ("ra2.ch.001", "page-size-name"),
        ],
    ),
    (
        &["quantity"],
        &[("ra2.ch.001", "multiple"), ("ra2.app.009", "extended-resource")],
    ),
    (
        &["probe"],
        &[
            ("ra2.app.026", "liveness-probe"),
            ("ra2.app.027", "readiness-probe"),
            ("schema", "missing-field"),
        ],
    ),
    (
        &["volume-mount"],
        &[
            ("ra2.app.002", "undeclared-volume"),
            ("ra2.app.002", "duplicate-mount-path"),
            ("ra2.app.002", "bidirectional-propagation"),
            ("schema", "missing-field"),
        ],
    ),
    (&["sub-path"], &[("ra2.app.002", "subpath")]),
    (&["hostname"], &[("ra2.app.004", "hostname-invalid")]),
    (
        &["container", "volume", "port", "toleration", "dns"],
        &[("schema", "missing-field")],
    ),
];

/// The findings that cover a `k8s.api` check (see [`COVERED_BY`]).
fn covered_by(check: &str) -> &'static [RuleCheck] {
    COVERED_BY
        .iter()
        .find(|(checks, _)| checks.contains(&check))
        .map_or(&[], |(_, by)| by)
}

/// Marks the findings of one object whose condition the API server refuses, and drops the
/// `k8s.api` findings an RA2 finding at the same place already reports. A finding the user
/// silenced (`silenced(rule, check)`: an annotation or exemption) does not stand in for the
/// refusal, so silencing an RA2 rule never hides that the object cannot be created.
fn settle(found: &mut Vec<Pending>, silenced: &dyn Fn(&Finding) -> bool) {
    let (mut api, mut rest): (Vec<Pending>, Vec<Pending>) =
        std::mem::take(found).into_iter().partition(|(f, _)| f.rule == ID);
    // A value of the wrong type that a check of its field already refuses (a label value that
    // is a number, a quantity that is not one) is reported once, by that check.
    let specific: Vec<(usize, usize, String)> = api
        .iter()
        .filter(|(f, _)| f.check != "wrong-type")
        .map(|(f, i)| (f.document, *i, f.pointer.clone()))
        .collect();
    api.retain(|(f, i)| {
        f.check != "wrong-type"
            || !specific
                .iter()
                .any(|(d, j, p)| *d == f.document && j == i && *p == f.pointer)
    });
    for (mut refusal, index) in api {
        let mut covered = false;
        for (finding, other) in &mut rest {
            if *other == index
                && finding.document == refusal.document
                && covered_by(&refusal.check)
                    .iter()
                    .any(|(rule, check)| finding.rule == *rule && finding.check == *check)
                && same_place(&finding.pointer, &refusal.pointer)
                && !silenced(finding)
            {
                finding.refused_by_api_server = true;
                covered = true;
            }
        }
        if !covered {
            refusal.refused_by_api_server = true;
            rest.push((refusal, index));
        }
    }
    *found = rest;
}

/// Two pointers name the same place when one is the other or a path below it.
fn same_place(a: &str, b: &str) -> bool {
    let below = |long: &str, short: &str| {
        long.strip_prefix(short)
            .is_some_and(|r| r.is_empty() || r.starts_with('/'))
    };
    below(a, b) || below(b, a)
}

/// The API server's field path for a JSON pointer: `spec.containers[0].resources.limits[cpu]`.
pub(super) fn field_path(pointer: &str) -> String {
    let mut out = String::new();
    let mut parent = String::new();
    for segment in crate::parse::view::pointer_segments(pointer) {
        let keyed = matches!(
            parent.as_str(),
            "labels" | "annotations" | "nodeSelector" | "limits" | "requests" | "matchLabels"
        );
        if keyed || segment.bytes().all(|b| b.is_ascii_digit()) && !segment.is_empty() {
            out.push('[');
            out.push_str(&segment);
            out.push(']');
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&segment);
        }
        parent = segment;
    }
    if out.is_empty() { "<root>".to_owned() } else { out }
}

/// Reports a refusal at `at`, in the API server's shape: `<field>: <reason>`.
fn refuse(cx: &mut Context<'_>, check: &'static str, at: &Located<'_>, reason: impl std::fmt::Display) {
    cx.report(check, at, format!("{}: {reason}", field_path(&at.pointer())));
}

/// Reports a refusal about a field that is missing: the path names the field, the finding
/// points at its parent.
fn refuse_missing(cx: &mut Context<'_>, check: &'static str, parent: &Located<'_>, field: &str, reason: &str) {
    let parent_path = field_path(&parent.pointer());
    let path = if parent_path == "<root>" {
        field.to_owned()
    } else {
        format!("{parent_path}.{field}")
    };
    cx.report(check, parent, format!("{path}: {reason}"));
}

fn quoted(node: &Located<'_>) -> String {
    match node.scalar_text() {
        Some(text) => format!("{text:?}"),
        None => node.source_text().to_owned(),
    }
}

/// Refuses `node`, which is not a DNS-1123 label.
fn refuse_label(cx: &mut Context<'_>, check: &'static str, node: &Located<'_>) {
    refuse(
        cx,
        check,
        node,
        format!("Invalid value: {}: {DNS_LABEL_REASON}", quoted(node)),
    );
}

const DNS_LABEL_REASON: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character, at most 63 characters";
const DNS_SUBDOMAIN_REASON: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character, at most 253 characters";
const QUALIFIED_NAME_REASON: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (at most 63 characters), with an optional DNS subdomain prefix and one '/'";
const LABEL_VALUE_REASON: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, at most 63 characters";

fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    super::api_fields::check(object, cx);
    if let Some(metadata) = object.metadata() {
        object_meta(object, &metadata, cx);
    } else if name_rule(object).is_some() {
        refuse_missing(
            cx,
            "name",
            &object.root,
            "metadata.name",
            "Required value: name or generateName is required",
        );
    }
    let Some(pod) = object.pod_spec().filter(|p| p.workload.template_validated_as_core()) else {
        return;
    };
    if pod.workload != WorkloadKind::Pod {
        if let Some(metadata) = &pod.metadata {
            labels_and_annotations(metadata, cx);
        }
    }
    check_pod(object, pod, cx);
}

/// How the API server validates the name of a kind: `None` for kinds ra2 does not know.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NameRule {
    Subdomain,
    Label,
    /// Services: a DNS-1035 label (starts with a letter).
    Label1035,
}

fn name_rule(object: &Object<'_>) -> Option<NameRule> {
    let (group, _) = object.group_version()?;
    let kind = object.kind?;
    match (group, kind) {
        ("", "Namespace") => Some(NameRule::Label),
        ("", "Service") => Some(NameRule::Label1035),
        (
            "",
            "Pod"
            | "PodTemplate"
            | "ReplicationController"
            | "ConfigMap"
            | "Secret"
            | "ServiceAccount"
            | "PersistentVolumeClaim"
            | "PersistentVolume"
            | "Node",
        )
        | ("apps", "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet")
        | ("batch", "Job" | "CronJob") => Some(NameRule::Subdomain),
        _ => None,
    }
}

fn object_meta(object: &Object<'_>, metadata: &Located<'_>, cx: &mut Context<'_>) {
    if let Some(rule) = name_rule(object) {
        let name = metadata.get("name").filter(|n| !n.is_null());
        let generate = metadata.get("generateName").filter(|n| !n.is_null());
        match (&name, &generate) {
            (None, None) => refuse_missing(
                cx,
                "name",
                metadata,
                "name",
                "Required value: name or generateName is required",
            ),
            (Some(node), _) => check_name(object, rule, node, cx),
            (None, Some(_)) => {}
        }
    }
    if let Some(namespace) = metadata.get("namespace").filter(|n| !n.is_null()) {
        match namespace.as_str() {
            Some(ns) if is_dns1123_label(ns) => {}
            _ => refuse_label(cx, "namespace", &namespace),
        }
    }
    labels_and_annotations(metadata, cx);
}

fn check_name(object: &Object<'_>, rule: NameRule, node: &Located<'_>, cx: &mut Context<'_>) {
    let Some(name) = node.as_str() else {
        refuse(
            cx,
            "name",
            node,
            format!("Invalid value: {}: a name must be a string", node.source_text()),
        );
        return;
    };
    let ok = match rule {
        NameRule::Subdomain => is_dns1123_subdomain(name),
        NameRule::Label => is_dns1123_label(name),
        NameRule::Label1035 => is_dns1123_label(name) && name.starts_with(|c: char| c.is_ascii_lowercase()),
    };
    if !ok {
        let reason = match rule {
            NameRule::Subdomain => DNS_SUBDOMAIN_REASON,
            NameRule::Label => DNS_LABEL_REASON,
            NameRule::Label1035 => {
                "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character, at most 63 characters"
            }
        };
        refuse(cx, "name", node, format!("Invalid value: {name:?}: {reason}"));
        return;
    }
    // A Job labels its pods with its name; a CronJob appends 11 characters to name its Jobs.
    if object.is("batch", "Job") && name.len() > 63 {
        refuse(
            cx,
            "name",
            node,
            format!(
                "Invalid value: {name:?}: must be no more than 63 characters, as the Job's name becomes a label value of its pods"
            ),
        );
    } else if object.is("batch", "CronJob") && name.len() > 52 {
        refuse(
            cx,
            "name",
            node,
            format!("Invalid value: {name:?}: must be no more than 52 characters"),
        );
    }
}

/// `metadata.labels` and `metadata.annotations` of an object or a pod template.
fn labels_and_annotations(metadata: &Located<'_>, cx: &mut Context<'_>) {
    if let Some(labels) = metadata.get("labels") {
        label_map(&labels, "label", cx);
    }
    if let Some(annotations) = metadata.get("annotations") {
        let mut total = 0usize;
        for (key, value) in annotations.entries() {
            if !is_qualified_name(&key.to_ascii_lowercase()) {
                refuse(
                    cx,
                    "annotation",
                    &value,
                    format!("Invalid value: {key:?}: {QUALIFIED_NAME_REASON}"),
                );
            }
            match value.as_str() {
                Some(text) => total += key.len() + text.len(),
                None if value.is_null() => total += key.len(),
                None => refuse(
                    cx,
                    "annotation",
                    &value,
                    format!(
                        "Invalid value: {}: annotation values must be strings",
                        value.source_text()
                    ),
                ),
            }
        }
        if total > 256 * 1024 {
            refuse(
                cx,
                "annotation",
                &annotations,
                format!("Too long: may not be more than 262144 bytes (these are {total})"),
            );
        }
    }
}

/// A map of label keys to label values (labels, nodeSelector, matchLabels).
fn label_map(map: &Located<'_>, check: &'static str, cx: &mut Context<'_>) {
    for (key, value) in map.entries() {
        if !is_qualified_name(key) {
            refuse(
                cx,
                check,
                &value,
                format!("Invalid value: {key:?}: {QUALIFIED_NAME_REASON}"),
            );
        }
        label_value(&value, check, cx);
    }
}

fn label_value(value: &Located<'_>, check: &'static str, cx: &mut Context<'_>) {
    if value.is_null() {
        return;
    }
    match value.as_str() {
        Some(text) if is_label_value(text) => {}
        Some(text) => refuse(
            cx,
            check,
            value,
            format!("Invalid value: {text:?}: {LABEL_VALUE_REASON}"),
        ),
        None => refuse(
            cx,
            check,
            value,
            format!(
                "Invalid value: {}: label values must be strings, not {}",
                value.source_text(),
                crate::rules::with_article(value.type_name())
            ),
        ),
    }
}

fn check_pod<'d>(object: &Object<'d>, pod: &PodSpec<'d>, cx: &mut Context<'_>) {
    if pod.workload == WorkloadKind::StatefulSet {
        // The API server validates a StatefulSet's template only for its labels, annotations,
        // selector and restartPolicy (apps validation leaves the pod spec to the pods the
        // controller creates, which are then refused); only what fails to decode is refused.
        for container in pod.workload_containers() {
            for pair in &container.resources.pairs {
                for amount in [written(pair.request.as_ref()), pair.limit.as_ref()]
                    .into_iter()
                    .flatten()
                {
                    if amount.quantity.is_err() {
                        refuse(cx, "quantity", &amount.node, unparsable(amount));
                    }
                }
            }
        }
        restart_policy(pod, cx);
        workload_selector(object, pod, cx);
        return;
    }
    if pod.spec.get("containers").is_none_or(|c| c.items().next().is_none()) {
        refuse_missing(cx, "container", &pod.spec, "containers", "Required value");
    }
    if let Some(ephemeral) = pod
        .spec
        .get("ephemeralContainers")
        .filter(|e| e.items().next().is_some())
    {
        let reason = if pod.workload == WorkloadKind::Pod {
            "Forbidden: cannot be set on create"
        } else {
            "Forbidden: ephemeral containers not allowed in pod template"
        };
        refuse(cx, "ephemeral-containers", &ephemeral, reason);
    }
    let volumes = volumes(object, pod, cx);
    containers(pod, &volumes, cx);
    pod_security(pod, cx);
    if let Some(selector) = pod.get("nodeSelector") {
        label_map(&selector, "node-selector", cx);
    }
    if let Some(affinity) = pod.get("affinity") {
        check_affinity(&affinity, cx);
    }
    if let Some(tolerations) = pod.get("tolerations") {
        for toleration in tolerations.items() {
            check_toleration(&toleration, cx);
        }
    }
    for key in ["hostname", "subdomain"] {
        if let Some(node) = pod.get(key).filter(|n| !n.is_null()) {
            match node.as_str() {
                Some("") => {}
                Some(name) if is_dns1123_label(name) => {}
                _ => refuse_label(cx, "hostname", &node),
            }
        }
    }
    restart_policy(pod, cx);
    dns_policy(pod, cx);
    workload_selector(object, pod, cx);
}

fn dns_policy(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(node) = pod.get("dnsPolicy").filter(|n| !n.is_null()) else {
        return;
    };
    match node.as_str() {
        Some("ClusterFirstWithHostNet" | "ClusterFirst" | "Default") => {}
        Some("None") => {
            if pod.get("dnsConfig").is_none_or(|c| c.is_null()) {
                refuse_missing(
                    cx,
                    "dns",
                    &pod.spec,
                    "dnsConfig",
                    "Required value: must provide `dnsConfig` when `dnsPolicy` is None",
                );
            }
        }
        _ => refuse(
            cx,
            "dns",
            &node,
            format!(
                "Unsupported value: {}: supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"",
                quoted(&node)
            ),
        ),
    }
}

/// The volume names the containers may mount, each with whether it is a claim (a
/// persistentVolumeClaim or ephemeral volume, which alone may back a volumeDevice): the pod's
/// volumes and a StatefulSet's claim
/// templates.
fn volumes<'d>(object: &Object<'d>, pod: &PodSpec<'d>, cx: &mut Context<'_>) -> BTreeMap<&'d str, bool> {
    let mut names = BTreeMap::new();
    for volume in pod.volumes() {
        let name = volume.get("name").and_then(|n| n.as_str().map(|s| (s, n)));
        match name {
            None => refuse_missing(cx, "volume", &volume, "name", "Required value"),
            Some((name, node)) => {
                if !is_dns1123_label(name) {
                    refuse_label(cx, "volume", &node);
                }
                let claim = ["persistentVolumeClaim", "ephemeral"]
                    .iter()
                    .any(|k| volume.get(k).is_some_and(|v| !v.is_null()));
                if names.insert(name, claim).is_some() {
                    refuse(cx, "volume", &node, format!("Duplicate value: {name:?}"));
                }
            }
        }
        volume_source(&volume, cx);
    }
    if object.is("apps", "StatefulSet") {
        if let Some(templates) = object.root.path(&["spec", "volumeClaimTemplates"]) {
            for template in templates.items() {
                // The API server validates the template with each claim as a
                // persistentVolumeClaim volume in place of any volume of its name.
                if let Some(name) = template.path(&["metadata", "name"]).and_then(|n| n.as_str()) {
                    names.insert(name, true);
                }
            }
        }
    }
    names
}

const HOST_PATH_TYPES: &[&str] = &[
    "",
    "DirectoryOrCreate",
    "Directory",
    "FileOrCreate",
    "File",
    "Socket",
    "CharDevice",
    "BlockDevice",
];

fn volume_source(volume: &Located<'_>, cx: &mut Context<'_>) {
    let mut sources = crate::model::storage::sources(volume, crate::model::storage::is_pod_volume_source)
        .filter(|(_, v)| !v.is_null());
    // A volume with no source is defaulted to an emptyDir, so only two or more are refused.
    if let (Some(_), Some((_, second))) = (sources.next(), sources.next()) {
        refuse(
            cx,
            "volume",
            &second,
            "Forbidden: may not specify more than 1 volume type",
        );
    }
    if let Some(limit) = volume.path(&["emptyDir", "sizeLimit"]).filter(|l| !l.is_null()) {
        let text = limit.scalar_text();
        if text
            .as_deref()
            .and_then(|t| Quantity::parse_json_text(t).ok())
            .is_some_and(|q| q.is_negative())
        {
            refuse(
                cx,
                "volume",
                &limit,
                "Forbidden: SizeLimit field must be a valid resource quantity",
            );
        }
    }
    for (source, field) in [("secret", "secretName"), ("persistentVolumeClaim", "claimName")] {
        if let Some(node) = volume.get(source).filter(Located::is_map) {
            if node.str_at(field).is_none_or(str::is_empty) {
                refuse_missing(cx, "volume", &node, field, "Required value");
            }
        }
    }
    let Some(host_path) = volume.get("hostPath").filter(Located::is_map) else {
        return;
    };
    match host_path.get("path").filter(|p| !p.is_null()) {
        None => refuse_missing(cx, "host-path", &host_path, "path", "Required value"),
        Some(path) => match path.as_str() {
            Some("") => refuse(cx, "host-path", &path, "Required value"),
            Some(text) if text.split('/').any(|e| e == "..") => {
                refuse(
                    cx,
                    "host-path",
                    &path,
                    format!("Invalid value: {text:?}: must not contain '..'"),
                );
            }
            _ => {}
        },
    }
    if let Some(kind) = host_path.get("type").filter(|t| !t.is_null()) {
        if !kind.as_str().is_some_and(|k| HOST_PATH_TYPES.contains(&k)) {
            refuse(
                cx,
                "host-path",
                &kind,
                format!(
                    "Unsupported value: {}: supported values: \"\", \"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\"",
                    quoted(&kind)
                ),
            );
        }
    }
}

fn containers(pod: &PodSpec<'_>, volumes: &BTreeMap<&str, bool>, cx: &mut Context<'_>) {
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        for node in pod.spec.get(key).iter().flat_map(Located::items) {
            if !node.is_map() {
                continue;
            }
            match node.get("name").filter(|n| !n.is_null()) {
                None => refuse_missing(cx, "container", &node, "name", "Required value"),
                Some(name_node) => match name_node.as_str() {
                    Some(name) if !is_dns1123_label(name) => refuse_label(cx, "container", &name_node),
                    Some(name) if !names.insert(name) => {
                        refuse(cx, "container", &name_node, format!("Duplicate value: {name:?}"));
                    }
                    _ => {}
                },
            }
            if let Some(policy) = node.get("restartPolicy").filter(|p| !p.is_null()) {
                if key != "initContainers" || policy.as_str() != Some("Always") {
                    let supported = if key == "initContainers" {
                        "supported values: \"Always\""
                    } else {
                        "may not be set for regular or ephemeral containers"
                    };
                    refuse(
                        cx,
                        "container",
                        &policy,
                        format!("Unsupported value: {}: {supported}", quoted(&policy)),
                    );
                }
            }
            if key != "ephemeralContainers" {
                match node.get("image").and_then(|i| i.as_str().map(|s| (s, i))) {
                    None | Some(("", _)) => refuse_missing(cx, "container", &node, "image", "Required value"),
                    Some((image, at)) if image.trim() != image => refuse(
                        cx,
                        "container",
                        &at,
                        format!("Invalid value: {image:?}: must not have leading or trailing whitespace"),
                    ),
                    _ => {}
                }
            }
        }
    }
    for container in pod.containers() {
        probes(container, cx);
        ports(container, pod.flag("hostNetwork"), cx);
        if container.kind != ContainerKind::Ephemeral {
            resources(container, cx);
        }
        container_security(container, pod, cx);
        mounts(container, volumes, cx);
        devices(container, volumes, cx);
    }
}

/// A container's volumeDevices (raw block devices) as the API server checks them: each names a
/// claim volume the container does not also mount, at a unique path without '..' that no
/// mount uses.
fn devices(container: &Container<'_>, volumes: &BTreeMap<&str, bool>, cx: &mut Context<'_>) {
    let Some(devices) = container.node.get("volumeDevices") else {
        return;
    };
    let mount_names = listed(container, "volumeMounts", "name");
    let mount_paths = listed(container, "volumeMounts", "mountPath");
    let mut names = BTreeSet::new();
    let mut paths = BTreeSet::new();
    for device in devices.items().filter(Located::is_map) {
        match device.get("name").filter(|n| !n.is_null()) {
            None => refuse_missing(cx, "volume-device", &device, "name", "Required value"),
            Some(node) => {
                let name = node.as_str();
                if let Some(name) = name.filter(|n| !n.is_empty() && !names.insert(*n)) {
                    refuse(
                        cx,
                        "volume-device",
                        &node,
                        format!("Invalid value: {name:?}: must be unique"),
                    );
                }
                match name.and_then(|n| volumes.get(n).map(|claim| (n, *claim))) {
                    Some((_, true)) => {}
                    Some((name, false)) => refuse(
                        cx,
                        "volume-device",
                        &node,
                        format!(
                            "Invalid value: {name:?}: can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"
                        ),
                    ),
                    None => refuse(cx, "volume-device", &node, format!("Not found: {}", quoted(&node))),
                }
                if let Some(name) = name.filter(|n| mount_names.contains(n)) {
                    refuse(
                        cx,
                        "volume-device",
                        &node,
                        format!("Invalid value: {name:?}: must not already exist in volumeMounts"),
                    );
                }
            }
        }
        match device.get("devicePath").and_then(|p| p.as_str().map(|s| (s, p))) {
            None | Some(("", _)) => refuse_missing(cx, "volume-device", &device, "devicePath", "Required value"),
            Some((path, node)) => {
                if paths.contains(path) {
                    refuse(
                        cx,
                        "volume-device",
                        &node,
                        format!("Invalid value: {path:?}: must be unique"),
                    );
                }
                if path.split('/').any(|e| e == "..") {
                    refuse(
                        cx,
                        "volume-device",
                        &node,
                        format!("Invalid value: {path:?}: can not contain backsteps ('..')"),
                    );
                } else {
                    paths.insert(path);
                }
                if mount_paths.contains(path) {
                    refuse(
                        cx,
                        "volume-device",
                        &node,
                        format!("Invalid value: {path:?}: must not already exist as a path in volumeMounts"),
                    );
                }
            }
        }
    }
}

/// The handlers a probe can have; it needs exactly one.
const PROBE_HANDLERS: &[&str] = &["exec", "httpGet", "tcpSocket", "grpc"];

fn probes(container: &Container<'_>, cx: &mut Context<'_>) {
    if container.kind == ContainerKind::Ephemeral {
        return;
    }
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        let Some(probe) = container.node.get(key).filter(Located::is_map) else {
            continue;
        };
        let handlers: Vec<Located<'_>> = probe
            .entries()
            .filter(|(k, v)| PROBE_HANDLERS.contains(k) && !v.is_null())
            .map(|(_, v)| v)
            .collect();
        match handlers.as_slice() {
            [] => refuse(cx, "probe", &probe, "Required value: must specify a handler type"),
            [_] => {}
            [_, second, ..] => refuse(
                cx,
                "probe",
                second,
                "Forbidden: may not specify more than 1 handler type",
            ),
        }
        if key != "readinessProbe" {
            if let Some(threshold) = probe.get("successThreshold").filter(|t| !t.is_null()) {
                if threshold.as_int() != Some(1) {
                    refuse(
                        cx,
                        "probe",
                        &threshold,
                        format!("Invalid value: {}: must be 1", threshold.source_text()),
                    );
                }
            }
        }
    }
}

fn is_iana_svc_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 15
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b.iter().any(u8::is_ascii_lowercase)
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

fn ports(container: &Container<'_>, host_network: bool, cx: &mut Context<'_>) {
    let Some(ports) = container.node.get("ports") else {
        return;
    };
    let mut names = BTreeSet::new();
    for port in ports.items().filter(Located::is_map) {
        match port.get("containerPort").filter(|p| !p.is_null()) {
            None => refuse_missing(cx, "port", &port, "containerPort", "Required value"),
            Some(node) => port_number(cx, &node, false),
        }
        if let (true, Some(host), Some(own)) = (
            host_network,
            port.get("hostPort").filter(|p| p.as_int().is_some_and(|v| v != 0)),
            port.get("containerPort").and_then(|p| p.as_int()),
        ) {
            if host.as_int() != Some(own) {
                refuse(
                    cx,
                    "port",
                    &host,
                    format!(
                        "Invalid value: {}: must match `containerPort` when `hostNetwork` is true",
                        host.source_text()
                    ),
                );
            }
        }
        if let Some(node) = port.get("hostPort").filter(|p| !p.is_null()) {
            // 0 leaves the host port unset.
            port_number(cx, &node, true);
        }
        if let Some(node) = port.get("protocol").filter(|p| !p.is_null()) {
            if !node.as_str().is_some_and(|p| matches!(p, "TCP" | "UDP" | "SCTP")) {
                refuse(
                    cx,
                    "port",
                    &node,
                    format!(
                        "Unsupported value: {}: supported values: \"SCTP\", \"TCP\", \"UDP\"",
                        quoted(&node)
                    ),
                );
            }
        }
        if let Some(node) = port.get("name").filter(|p| !p.is_null()) {
            match node.as_str() {
                Some("") => {}
                Some(name) if !is_iana_svc_name(name) => refuse(
                    cx,
                    "port",
                    &node,
                    format!(
                        "Invalid value: {name:?}: must be no more than 15 characters of lower case letters, digits and '-', contain a letter, and not start, end or repeat '-'"
                    ),
                ),
                Some(name) if !names.insert(name) => {
                    refuse(cx, "port", &node, format!("Duplicate value: {name:?}"));
                }
                _ => {}
            }
        }
    }
}

/// A port number the API server accepts, 1 to 65535 (and 0 where `zero_unsets`).
fn port_number(cx: &mut Context<'_>, node: &Located<'_>, zero_unsets: bool) {
    let valid = |p| (1..=65535).contains(&p) || (zero_unsets && p == 0);
    // A float with an integral value (`8080.0`) is the integer sigs.k8s.io/yaml writes.
    if !super::api_fields::integer(node.value()).is_some_and(valid) {
        refuse(
            cx,
            "port",
            node,
            format!(
                "Invalid value: {}: must be between 1 and 65535, inclusive",
                node.source_text()
            ),
        );
    }
}

/// Only cpu, memory and ephemeral-storage may be overcommitted (request below limit).
fn overcommit_allowed(name: &ResourceName) -> bool {
    matches!(
        name,
        ResourceName::Cpu | ResourceName::Memory | ResourceName::EphemeralStorage | ResourceName::Reserved
    )
}

fn written<'a, 'd>(amount: Option<&'a Amount<'d>>) -> Option<&'a Amount<'d>> {
    amount.filter(|a| !a.defaulted)
}

fn resources(container: &Container<'_>, cx: &mut Context<'_>) {
    let mut huge_pages = false;
    let mut cpu_or_memory = false;
    for pair in &container.resources.pairs {
        let class = classify_resource_name(pair.name);
        huge_pages |= matches!(class, ResourceName::HugePages { .. });
        cpu_or_memory |= matches!(class, ResourceName::Cpu | ResourceName::Memory);
        resource_pair(pair, &class, cx);
    }
    if huge_pages && !cpu_or_memory {
        if let Some(node) = &container.resources.node {
            refuse(cx, "hugepages", node, "Forbidden: HugePages require cpu or memory");
        }
    }
}

fn resource_pair(pair: &ResourcePair<'_>, class: &ResourceName, cx: &mut Context<'_>) {
    let name = pair.name;
    let request = written(pair.request.as_ref());
    let limit = pair.limit.as_ref();
    let amounts = [request, limit];
    let check_for = |class: &ResourceName| match class {
        ResourceName::Extended => "extended-resource",
        ResourceName::HugePages { .. } => "hugepages",
        _ => "quantity",
    };
    if *class == ResourceName::Invalid {
        let reason = if name.contains('/') {
            "doesn't follow extended resource name standard"
        } else {
            "must be a standard resource for containers"
        };
        for amount in amounts.into_iter().flatten() {
            refuse(
                cx,
                "resource-name",
                &amount.node,
                format!("Invalid value: {name:?}: {reason}"),
            );
        }
        return;
    }
    let mut all_valid = true;
    for amount in amounts.into_iter().flatten() {
        let problem = match &amount.quantity {
            Err(_) => Some(unparsable(amount)),
            Ok(q) if q.is_negative() => Some(format!("Invalid value: \"{q}\": must be greater than or equal to 0")),
            Ok(q) if *class == ResourceName::Extended && !q.is_integer() => {
                Some(format!("Invalid value: \"{q}\": must be an integer"))
            }
            Ok(q) => match class {
                ResourceName::HugePages { size } if !huge_page_divisible(size, q) => Some(format!(
                    "Invalid value: \"{q}\": {q} is not positive integer multiple of {name}"
                )),
                _ => None,
            },
        };
        if let Some(problem) = problem {
            all_valid = false;
            let check = if amount.quantity.is_err() {
                "quantity"
            } else {
                check_for(class)
            };
            refuse(cx, check, &amount.node, problem);
        }
    }
    let Some(request) = request else { return };
    let (Some(req), true) = (request.quantity(), all_valid) else {
        return;
    };
    let check = check_for(class);
    match limit.and_then(Amount::quantity) {
        None if limit.is_none() && !overcommit_allowed(class) => {
            let at = request.node.clone();
            cx.report(
                check,
                &at,
                format!(
                    "{}: Required value: Limit must be set for non overcommitable resources",
                    field_path(&sibling_pointer(&at.pointer(), "limits"))
                ),
            );
        }
        Some(lim) if req != lim && !overcommit_allowed(class) => refuse(
            cx,
            check,
            &request.node,
            format!("Invalid value: \"{req}\": must be equal to {name} limit of {lim}"),
        ),
        Some(lim) if req > lim => refuse(
            cx,
            "quantity",
            &request.node,
            format!("Invalid value: \"{req}\": must be less than or equal to {name} limit of {lim}"),
        ),
        _ => {}
    }
}

/// The decoder's refusal of an amount that is not a quantity.
fn unparsable(amount: &Amount<'_>) -> String {
    format!(
        "Invalid value: {}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        quoted(&amount.node)
    )
}

/// `/…/resources/requests/x` -> `/…/resources/limits`.
fn sibling_pointer(pointer: &str, field: &str) -> String {
    let parent = pointer.rsplit_once('/').map_or("", |(p, _)| p);
    let grand = parent.rsplit_once('/').map_or("", |(p, _)| p);
    format!("{grand}/{field}")
}

/// The API server's `IsHugePageResourceValueDivisible`: the page size parses, is positive, and
/// divides the amount.
fn huge_page_divisible(size: &str, amount: &Quantity) -> bool {
    match Quantity::parse(size) {
        Ok(page) if !page.is_negative() && !page.is_zero() => amount.hugepage_divisible(&page),
        _ => false,
    }
}

/// Valid user and group ids: 0 to 2^31-1.
fn check_id(node: &Located<'_>, cx: &mut Context<'_>) {
    if !node.as_int().is_some_and(|id| (0..=2_147_483_647).contains(&id)) && !node.is_null() {
        refuse(
            cx,
            "security-context",
            node,
            format!(
                "Invalid value: {}: must be between 0 and 2147483647, inclusive",
                node.source_text()
            ),
        );
    }
}

/// seccompProfile and appArmorProfile: a known type, and a localhostProfile exactly for
/// Localhost (seccomp) or at least for Localhost (AppArmor).
fn profiles(context: &Located<'_>, cx: &mut Context<'_>) {
    for (key, what, only_localhost) in [
        ("seccompProfile", "seccomp", true),
        ("appArmorProfile", "AppArmor", false),
    ] {
        let Some(profile) = context.get(key).filter(Located::is_map) else {
            continue;
        };
        let kind = profile.str_at("type");
        let localhost = profile.get("localhostProfile").filter(|p| !p.is_null());
        match kind {
            Some("Localhost") if localhost.is_none() => refuse_missing(
                cx,
                "security-context",
                &profile,
                "localhostProfile",
                &format!("Required value: must be set when {what} type is Localhost"),
            ),
            Some("Localhost") => {}
            Some("RuntimeDefault" | "Unconfined") => {
                if let Some(node) = localhost.filter(|_| only_localhost) {
                    refuse(
                        cx,
                        "security-context",
                        &node,
                        format!("Invalid value: can only be set when {what} type is Localhost"),
                    );
                }
            }
            _ => {
                let at = profile.get("type").unwrap_or_else(|| profile.clone());
                refuse(
                    cx,
                    "security-context",
                    &at,
                    format!(
                        "Unsupported value: {}: supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\"",
                        quoted(&at)
                    ),
                );
            }
        }
    }
}

fn container_security(container: &Container<'_>, pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(context) = container.node.get("securityContext").filter(Located::is_map) else {
        return;
    };
    profiles(&context, cx);
    if let Some(node) = context.get("procMount").filter(|n| !n.is_null()) {
        match node.as_str() {
            Some("Default") => {}
            Some("Unmasked") => {
                if pod.get("hostUsers").and_then(|n| n.as_bool()) != Some(false) {
                    refuse(
                        cx,
                        "security-context",
                        &node,
                        "Invalid value: \"Unmasked\": `hostUsers` must be false to use `Unmasked`",
                    );
                }
            }
            _ => refuse(
                cx,
                "security-context",
                &node,
                format!(
                    "Unsupported value: {}: supported values: \"Default\", \"Unmasked\"",
                    quoted(&node)
                ),
            ),
        }
    }
    for key in ["runAsUser", "runAsGroup"] {
        if let Some(node) = context.get(key) {
            check_id(&node, cx);
        }
    }
    if container.kind == ContainerKind::Ephemeral && pod.workload == WorkloadKind::Pod {
        // Already refused as a whole on create.
        return;
    }
    if context.get("allowPrivilegeEscalation").and_then(|n| n.as_bool()) != Some(false) {
        return;
    }
    if context.get("privileged").and_then(|n| n.as_bool()) == Some(true) {
        refuse(
            cx,
            "security-context",
            &context,
            "Invalid value: cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
        );
    }
    if container
        .security
        .added_capabilities()
        .iter()
        .any(|(name, _)| *name == "CAP_SYS_ADMIN")
    {
        refuse(
            cx,
            "security-context",
            &context,
            "Invalid value: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
        );
    }
}

fn pod_security(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if let Some(context) = pod.get("securityContext").filter(Located::is_map) {
        profiles(&context, cx);
        for key in ["runAsUser", "runAsGroup", "fsGroup"] {
            if let Some(node) = context.get(key) {
                check_id(&node, cx);
            }
        }
        if let Some(groups) = context.get("supplementalGroups") {
            for group in groups.items() {
                check_id(&group, cx);
            }
        }
    }
    if pod.get("hostUsers").and_then(|n| n.as_bool()) == Some(false) {
        for key in ["hostNetwork", "hostPID", "hostIPC"] {
            if let Some(node) = pod.get(key).filter(Located::is_true) {
                refuse(cx, "security-context", &node, "Forbidden: when `hostUsers` is false");
            }
        }
    }
}

/// The values of `field` in the mappings of the container's `list` (volumeMounts or
/// volumeDevices), as the API server's name and path maps of them hold.
fn listed<'d>(container: &Container<'d>, list: &str, field: &str) -> BTreeSet<&'d str> {
    container
        .node
        .get(list)
        .iter()
        .flat_map(Located::items)
        .filter_map(|d| d.str_at(field))
        .collect()
}

fn mounts(container: &Container<'_>, volumes: &BTreeMap<&str, bool>, cx: &mut Context<'_>) {
    let Some(mounts) = container.node.get("volumeMounts") else {
        return;
    };
    let mut paths = BTreeSet::new();
    let device_names = listed(container, "volumeDevices", "name");
    let device_paths = listed(container, "volumeDevices", "devicePath");
    for mount in mounts.items().filter(Located::is_map) {
        match mount.get("name").filter(|n| !n.is_null()) {
            None => refuse_missing(cx, "volume-mount", &mount, "name", "Required value"),
            Some(node) => {
                match node.as_str() {
                    Some(name) if volumes.contains_key(name) => {}
                    _ => refuse(cx, "volume-mount", &node, format!("Not found: {}", quoted(&node))),
                }
                if let Some(name) = node.as_str().filter(|n| device_names.contains(n)) {
                    refuse(
                        cx,
                        "volume-mount",
                        &node,
                        format!("Invalid value: {name:?}: must not already exist in volumeDevices"),
                    );
                }
            }
        }
        match mount.get("mountPath").and_then(|p| p.as_str().map(|s| (s, p))) {
            None | Some(("", _)) => refuse_missing(cx, "volume-mount", &mount, "mountPath", "Required value"),
            Some((path, node)) => {
                if !paths.insert(path) {
                    refuse(
                        cx,
                        "volume-mount",
                        &node,
                        format!("Invalid value: {path:?}: must be unique"),
                    );
                } else if device_paths.contains(path) {
                    refuse(
                        cx,
                        "volume-mount",
                        &node,
                        format!("Invalid value: {path:?}: must not already exist as a path in volumeDevices"),
                    );
                }
            }
        }
        let sub_path = mount
            .get("subPath")
            .filter(|s| s.as_str().is_some_and(|t| !t.is_empty()));
        let sub_path_expr = mount
            .get("subPathExpr")
            .filter(|s| s.as_str().is_some_and(|t| !t.is_empty()));
        if let (Some(_), Some(expr)) = (&sub_path, &sub_path_expr) {
            refuse(
                cx,
                "sub-path",
                expr,
                "Invalid value: subPathExpr and subPath are mutually exclusive",
            );
        }
        for node in sub_path.iter().chain(sub_path_expr.iter()) {
            let Some(text) = node.as_str() else { continue };
            if text.starts_with('/') {
                refuse(
                    cx,
                    "sub-path",
                    node,
                    format!("Invalid value: {text:?}: must be a relative path"),
                );
            } else if text.split('/').any(|e| e == "..") {
                refuse(
                    cx,
                    "sub-path",
                    node,
                    format!("Invalid value: {text:?}: must not contain '..'"),
                );
            }
        }
        if let Some(node) = mount.get("recursiveReadOnly").filter(|n| !n.is_null()) {
            if !mount.get("readOnly").is_some_and(|r| r.is_true()) && node.as_str().is_some_and(|v| v != "Disabled") {
                refuse(
                    cx,
                    "volume-mount",
                    &node,
                    "Forbidden: may only be specified when readOnly is true",
                );
            }
        }
        if let Some(node) = mount.get("mountPropagation").filter(|n| !n.is_null()) {
            match node.as_str() {
                Some("None" | "HostToContainer") => {}
                Some("Bidirectional") => {
                    if !container.security.is_privileged() {
                        refuse(
                            cx,
                            "volume-mount",
                            &node,
                            "Forbidden: Bidirectional mount propagation is available only to privileged containers",
                        );
                    }
                }
                _ => refuse(
                    cx,
                    "volume-mount",
                    &node,
                    format!(
                        "Unsupported value: {}: supported values: \"Bidirectional\", \"HostToContainer\", \"None\"",
                        quoted(&node)
                    ),
                ),
            }
        }
    }
}

const SELECTOR_OPERATORS: &[&str] = &["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];

fn check_affinity(affinity: &Located<'_>, cx: &mut Context<'_>) {
    if let Some(node) = affinity.get("nodeAffinity") {
        if let Some(required) = node
            .get("requiredDuringSchedulingIgnoredDuringExecution")
            .filter(|r| !r.is_null())
        {
            let terms: Vec<Located<'_>> = required
                .get("nodeSelectorTerms")
                .map(|t| t.items().collect())
                .unwrap_or_default();
            if terms.is_empty() {
                refuse_missing(
                    cx,
                    "affinity",
                    &required,
                    "nodeSelectorTerms",
                    "Required value: must have at least one node selector term",
                );
            }
            for term in &terms {
                node_selector_term(term, cx);
            }
        }
        if let Some(preferred) = node.get("preferredDuringSchedulingIgnoredDuringExecution") {
            for item in preferred.items() {
                weight(&item, cx);
                match item.get("preference") {
                    Some(term) => node_selector_term(&term, cx),
                    None => refuse_missing(cx, "affinity", &item, "preference", "Required value"),
                }
            }
        }
    }
    for key in ["podAffinity", "podAntiAffinity"] {
        let Some(node) = affinity.get(key) else { continue };
        if let Some(required) = node.get("requiredDuringSchedulingIgnoredDuringExecution") {
            for term in required.items() {
                pod_affinity_term(&term, cx);
            }
        }
        if let Some(preferred) = node.get("preferredDuringSchedulingIgnoredDuringExecution") {
            for item in preferred.items() {
                weight(&item, cx);
                match item.get("podAffinityTerm") {
                    Some(term) => pod_affinity_term(&term, cx),
                    None => refuse_missing(cx, "affinity", &item, "podAffinityTerm", "Required value"),
                }
            }
        }
    }
}

fn weight(item: &Located<'_>, cx: &mut Context<'_>) {
    match item.get("weight") {
        Some(node) if node.as_int().is_some_and(|w| (1..=100).contains(&w)) => {}
        Some(node) => refuse(
            cx,
            "affinity",
            &node,
            format!("Invalid value: {}: must be in the range 1-100", node.source_text()),
        ),
        None => refuse(cx, "affinity", item, "Invalid value: 0: must be in the range 1-100"),
    }
}

fn node_selector_term(term: &Located<'_>, cx: &mut Context<'_>) {
    for requirement in term.get("matchExpressions").iter().flat_map(Located::items) {
        let key = requirement.get("key");
        match key.as_ref().and_then(|k| k.as_str().map(|s| (s, k))) {
            Some((text, node)) if !is_qualified_name(text) => {
                refuse(
                    cx,
                    "affinity",
                    node,
                    format!("Invalid value: {text:?}: {QUALIFIED_NAME_REASON}"),
                );
            }
            None => refuse_missing(cx, "affinity", &requirement, "key", "Required value"),
            _ => {}
        }
        requirement_values(&requirement, cx);
        if matches!(requirement.str_at("operator"), Some("In" | "NotIn")) {
            for value in requirement.get("values").iter().flat_map(Located::items) {
                label_value(&value, "affinity", cx);
            }
        }
    }
    for requirement in term.get("matchFields").iter().flat_map(Located::items) {
        if let Some(key) = requirement.get("key") {
            if key.as_str() != Some("metadata.name") {
                refuse(
                    cx,
                    "affinity",
                    &key,
                    format!("Invalid value: {}: not a valid field selector key", quoted(&key)),
                );
            }
        }
        let values = requirement.get("values").map_or(0, |v| v.items().count());
        match requirement.get("operator").and_then(|o| o.as_str().map(|s| (s, o))) {
            Some(("In" | "NotIn", _)) if values != 1 => refuse_missing(
                cx,
                "affinity",
                &requirement,
                "values",
                "Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            ),
            Some(("In" | "NotIn", _)) => {}
            Some((op, node)) => refuse(
                cx,
                "affinity",
                &node,
                format!("Invalid value: {op:?}: not a valid selector operator"),
            ),
            None => refuse_missing(cx, "affinity", &requirement, "operator", "Required value"),
        }
    }
}

fn requirement_values(requirement: &Located<'_>, cx: &mut Context<'_>) {
    let values = requirement.get("values").map_or(0, |v| v.items().count());
    match requirement.get("operator").and_then(|o| o.as_str().map(|s| (s, o))) {
        Some(("In" | "NotIn", _)) if values == 0 => refuse_missing(
            cx,
            "affinity",
            requirement,
            "values",
            "Required value: must be specified when `operator` is 'In' or 'NotIn'",
        ),
        Some(("Exists" | "DoesNotExist", _)) if values > 0 => refuse_missing(
            cx,
            "affinity",
            requirement,
            "values",
            "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
        Some(("Gt" | "Lt", _)) if values != 1 => refuse_missing(
            cx,
            "affinity",
            requirement,
            "values",
            "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
        ),
        Some((op, node)) if !SELECTOR_OPERATORS.contains(&op) => refuse(
            cx,
            "affinity",
            &node,
            format!("Invalid value: {op:?}: not a valid selector operator"),
        ),
        None => refuse_missing(cx, "affinity", requirement, "operator", "Required value"),
        _ => {}
    }
}

fn pod_affinity_term(term: &Located<'_>, cx: &mut Context<'_>) {
    match term.get("topologyKey").and_then(|k| k.as_str().map(|s| (s, k))) {
        None | Some(("", _)) => refuse_missing(cx, "affinity", term, "topologyKey", "Required value: can not be empty"),
        Some((key, node)) if !is_qualified_name(key) => {
            refuse(
                cx,
                "affinity",
                &node,
                format!("Invalid value: {key:?}: {QUALIFIED_NAME_REASON}"),
            );
        }
        _ => {}
    }
    if let Some(selector) = term.get("labelSelector") {
        label_selector(&selector, "affinity", cx);
    }
}

/// A `metav1.LabelSelector`: matchLabels and matchExpressions.
fn label_selector(selector: &Located<'_>, check: &'static str, cx: &mut Context<'_>) {
    if let Some(labels) = selector.get("matchLabels") {
        label_map(&labels, check, cx);
    }
    for requirement in selector.get("matchExpressions").iter().flat_map(Located::items) {
        if let Some(key) = requirement.get("key").and_then(|k| k.as_str().map(|s| (s, k))) {
            if !is_qualified_name(key.0) {
                refuse(
                    cx,
                    check,
                    &key.1,
                    format!("Invalid value: {:?}: {QUALIFIED_NAME_REASON}", key.0),
                );
            }
        }
        let values = requirement.get("values").map_or(0, |v| v.items().count());
        match requirement.get("operator").and_then(|o| o.as_str().map(|s| (s, o))) {
            Some(("In" | "NotIn", _)) if values == 0 => refuse_missing(
                cx,
                check,
                &requirement,
                "values",
                "Required value: must be specified when `operator` is 'In' or 'NotIn'",
            ),
            Some(("Exists" | "DoesNotExist", _)) if values > 0 => refuse_missing(
                cx,
                check,
                &requirement,
                "values",
                "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
            Some(("In" | "NotIn" | "Exists" | "DoesNotExist", _)) => {}
            Some((op, node)) => refuse(
                cx,
                check,
                &node,
                format!("Invalid value: {op:?}: not a valid selector operator"),
            ),
            None => refuse_missing(cx, check, &requirement, "operator", "Required value"),
        }
        for value in requirement.get("values").iter().flat_map(Located::items) {
            label_value(&value, check, cx);
        }
    }
}

fn check_toleration(toleration: &Located<'_>, cx: &mut Context<'_>) {
    let key = toleration.get("key").and_then(|k| k.as_str().map(|s| (s, k)));
    let operator = toleration.get("operator").and_then(|o| o.as_str().map(|s| (s, o)));
    if let Some((text, node)) = key.as_ref().filter(|(t, _)| !t.is_empty()) {
        if !is_qualified_name(text) {
            refuse(
                cx,
                "toleration",
                node,
                format!("Invalid value: {text:?}: {QUALIFIED_NAME_REASON}"),
            );
        }
    }
    let key_empty = key.as_ref().is_none_or(|(t, _)| t.is_empty());
    let value = toleration.get("value").filter(|v| !v.is_null());
    match &operator {
        Some(("Exists", _)) => {
            if let Some(value) = value.filter(|v| v.as_str() != Some("")) {
                refuse(
                    cx,
                    "toleration",
                    &value,
                    format!(
                        "Invalid value: {}: value must be empty when `operator` is 'Exists'",
                        quoted(&value)
                    ),
                );
            }
        }
        Some(("Equal" | "", _)) | None if key_empty => {
            let at = operator.as_ref().map_or_else(|| toleration.clone(), |(_, n)| n.clone());
            refuse(
                cx,
                "toleration",
                &at,
                "Invalid value: operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            );
        }
        Some(("Equal" | "", _)) | None => {
            if let Some(value) = &value {
                label_value(value, "toleration", cx);
            }
        }
        Some((op, node)) => refuse(
            cx,
            "toleration",
            node,
            format!("Unsupported value: {op:?}: supported values: \"Equal\", \"Exists\""),
        ),
    }
    let effect = toleration.get("effect").filter(|e| !e.is_null());
    if let Some(node) = &effect {
        if !node
            .as_str()
            .is_some_and(|e| matches!(e, "" | "NoSchedule" | "PreferNoSchedule" | "NoExecute"))
        {
            refuse(
                cx,
                "toleration",
                node,
                format!(
                    "Unsupported value: {}: supported values: \"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"",
                    quoted(node)
                ),
            );
        }
    }
    if let Some(seconds) = toleration.get("tolerationSeconds").filter(|s| !s.is_null()) {
        if effect.as_ref().and_then(Located::as_str) != Some("NoExecute") {
            refuse(
                cx,
                "toleration",
                &seconds,
                "Invalid value: effect must be 'NoExecute' when `tolerationSeconds` is set",
            );
        }
    }
}

fn restart_policy(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let node = pod.get("restartPolicy").filter(|n| !n.is_null());
    let value = node.as_ref().and_then(Located::as_str);
    let allowed: &[&str] = match pod.workload {
        WorkloadKind::Job | WorkloadKind::CronJob => &["OnFailure", "Never"],
        WorkloadKind::Pod | WorkloadKind::PodTemplate => &["Always", "OnFailure", "Never"],
        _ => &["Always"],
    };
    match (&node, value) {
        // Defaulted to Always.
        (None, _) if allowed.contains(&"Always") => {}
        (None, _) => refuse_missing(
            cx,
            "restart-policy",
            &pod.spec,
            "restartPolicy",
            "Required value: valid values: \"OnFailure\", \"Never\"",
        ),
        (Some(_), Some(v)) if allowed.contains(&v) => {}
        (Some(at), _) => {
            let supported: Vec<String> = allowed.iter().map(|a| format!("{a:?}")).collect();
            refuse(
                cx,
                "restart-policy",
                at,
                format!(
                    "Unsupported value: {}: supported values: {}",
                    quoted(at),
                    supported.join(", ")
                ),
            );
        }
    }
}

/// A ReplicationController's selector (a plain map) defaults to its template's labels; it must
/// end up non-empty and select them.
fn controller_selector(object: &Object<'_>, pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(spec) = object.root.get("spec") else { return };
    let labels = pod.labels();
    let label = |key: &str| {
        labels
            .as_ref()
            .and_then(|l| l.get(key))
            .and_then(|v| v.as_str().map(str::to_owned))
    };
    let selector = spec.get("selector").filter(|s| s.entries().next().is_some());
    match selector {
        None if labels.as_ref().is_none_or(|l| l.entries().next().is_none()) => {
            refuse_missing(cx, "selector", &spec, "selector", "Required value");
        }
        None => {}
        Some(selector) => {
            label_map(&selector, "selector", cx);
            if selector
                .entries()
                .any(|(k, v)| label(k).as_deref() != Some(v.as_str().unwrap_or("")))
            {
                let at = pod
                    .metadata
                    .as_ref()
                    .and_then(|m| m.get("labels"))
                    .unwrap_or(selector.clone());
                cx.report(
                    "selector",
                    &at,
                    format!(
                        "{}: Invalid value: `selector` does not match template `labels`",
                        field_path(&format!("{}/template/metadata/labels", spec.pointer()))
                    ),
                );
            }
        }
    }
}

/// apps/v1 controllers need a selector that selects their own template's labels.
fn workload_selector(object: &Object<'_>, pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if pod.workload == WorkloadKind::ReplicationController {
        controller_selector(object, pod, cx);
        return;
    }
    if !matches!(
        pod.workload,
        WorkloadKind::Deployment | WorkloadKind::ReplicaSet | WorkloadKind::DaemonSet | WorkloadKind::StatefulSet
    ) || object.group_version() != Some(("apps", "v1"))
    {
        return;
    }
    let Some(spec) = object.root.get("spec") else { return };
    let Some(selector) = spec.get("selector").filter(|s| !s.is_null()) else {
        refuse_missing(cx, "selector", &spec, "selector", "Required value");
        return;
    };
    let before = selector_problems(&selector, cx);
    if before {
        return;
    }
    let labels = pod.labels();
    let label = |key: &str| {
        labels
            .as_ref()
            .and_then(|l| l.get(key))
            .and_then(|v| v.as_str().map(str::to_owned))
    };
    let match_labels: Vec<(&str, Located<'_>)> = selector
        .get("matchLabels")
        .map(|m| m.entries().collect())
        .unwrap_or_default();
    let expressions: Vec<Located<'_>> = selector
        .get("matchExpressions")
        .map(|m| m.items().collect())
        .unwrap_or_default();
    if match_labels.is_empty() && expressions.is_empty() {
        refuse(
            cx,
            "selector",
            &selector,
            "Invalid value: empty selector is invalid for this workload",
        );
        return;
    }
    let mut matches = match_labels
        .iter()
        .all(|(k, v)| label(k).as_deref() == Some(v.as_str().unwrap_or("")));
    for expression in &expressions {
        let key = expression.str_at("key").unwrap_or("");
        let values: Vec<&str> = expression
            .get("values")
            .map(|v| v.items().filter_map(|i| i.as_str()).collect())
            .unwrap_or_default();
        let have = label(key);
        matches &= match expression.str_at("operator") {
            Some("In") => have.as_deref().is_some_and(|h| values.contains(&h)),
            Some("NotIn") => have.as_deref().is_none_or(|h| !values.contains(&h)),
            Some("Exists") => have.is_some(),
            Some("DoesNotExist") => have.is_none(),
            _ => true,
        };
    }
    if !matches {
        let at = pod
            .metadata
            .as_ref()
            .and_then(|m| m.get("labels"))
            .unwrap_or_else(|| selector.clone());
        cx.report(
            "selector",
            &at,
            format!(
                "{}: Invalid value: `selector` does not match template `labels`",
                field_path(&format!("{}/template/metadata/labels", spec.pointer()))
            ),
        );
    }
}

/// Reports what is wrong in a label selector itself; true when something was.
fn selector_problems(selector: &Located<'_>, cx: &mut Context<'_>) -> bool {
    let before = cx.reported();
    label_selector(selector, "selector", cx);
    cx.reported() != before
}

#[cfg(test)]
mod tests {
    /// Every row of [`super::COVERED_BY`] names checks of `k8s.api` and checks that exist.
    #[test]
    fn covering_findings_are_checks_of_the_catalogue() {
        let api = crate::catalogue::get(super::ID).expect("the k8s.api catalogue entry");
        for (checks, by) in super::COVERED_BY {
            for check in *checks {
                assert!(api.check(check).is_some(), "k8s.api has no check {check}");
            }
            for (rule, check) in *by {
                let known = if *rule == crate::catalogue::SCHEMA_RULE {
                    crate::config::SCHEMA_CHECKS.contains(check)
                } else {
                    crate::catalogue::get(rule).and_then(|doc| doc.check(check)).is_some()
                };
                assert!(known, "{rule} has no check {check} (covering k8s.api {checks:?})");
            }
        }
    }

    /// A template the API server validates as a core pod template is judged; a custom
    /// resource's (an Argo Rollout's, a Knative Service's) is left to its schema, controller
    /// or webhook.
    #[test]
    fn templates_are_judged_where_the_api_server_validates_them() {
        let refusals = |api_version: &str, kind: &str| -> Vec<String> {
            let text = format!(
                "apiVersion: {api_version}\nkind: {kind}\nmetadata: {{name: w}}\nspec:\n  template:\n    metadata: {{labels: {{app: w}}}}\n    spec:\n      restartPolicy: Never\n      containers: [{{name: w, image: r/w:1}}]\n"
            );
            crate::lint_str("t.yaml", &text, &crate::Config::default())
                .findings
                .into_iter()
                .filter(|f| f.rule == super::ID)
                .map(|f| format!("{} {}", f.check, f.pointer))
                .collect()
        };
        assert_eq!(
            refusals("apps.openshift.io/v1", "DeploymentConfig"),
            ["restart-policy /spec/template/spec/restartPolicy"]
        );
        assert_eq!(refusals("argoproj.io/v1alpha1", "Rollout"), Vec::<String>::new());
        assert_eq!(refusals("serving.knative.dev/v1", "Service"), Vec::<String>::new());
    }
}
