//! `ra2 export vap` against a real kube-apiserver (issue 33): the exported
//! ValidatingAdmissionPolicies decide as `ra2 lint` does.
//!
//! For each of several settings (each edition; a config with severity overrides, an ignored
//! check, exemptions and `fail-on`), the policies are applied to a real kube-apiserver
//! (ra2-testkit, v1.33), and then every workload object of the catalogue examples, the rule
//! fixtures and the corpus is created with a server-side dry run in a namespace of its own. Per
//! object, the API server's verdict is compared with `ra2 lint` of that object alone (its JSON,
//! as the API server receives it) under the same settings, restricted to the exported checks:
//! it denies exactly when ra2 reports an exported check that denies, the denial names such a
//! check, and its warnings name exactly the exported checks below `fail-on` that ra2 reports.
//! Objects the API server refuses on its own (its validation runs before admission policies)
//! are counted and skipped. Zero disagreements; the counts are printed.
//!
//! Named `differential_*` so the workspace test run skips it; `scripts/test` runs it on its own.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use ra2_core::export::vap;
use ra2_core::{Config, Linter};
use ra2_testkit::{Cluster, Verdict};
use serde_json::{Value, json};

const NAMESPACE: &str = "vap";

/// The documents of a YAML stream that are objects, as the JSON the API server receives.
fn documents(text: &str) -> Vec<Value> {
    let (text, bom) = ra2_core::source::strip_bom(text);
    ra2_core::source::chunks(text, bom, 0)
        .into_iter()
        .filter_map(|chunk| ra2_core::yaml_to_json(chunk.text).ok())
        .filter(Value::is_object)
        .collect()
}

fn is_judged(object: &Value) -> bool {
    let api_version = object.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
    matches!(
        (api_version, kind),
        (
            "v1",
            "Pod"
                | "PodTemplate"
                | "ReplicationController"
                | "ConfigMap"
                | "Service"
                | "PersistentVolume"
                | "PersistentVolumeClaim"
        ) | ("apps/v1", "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet")
            | ("batch/v1", "Job" | "CronJob")
            | ("storage.k8s.io/v1", "StorageClass")
    )
}

/// Claims pinned to a volume or not, with an empty, named or no class by the annotation or the
/// field, as PersistentVolumeClaims, StatefulSet volumeClaimTemplates and generic ephemeral
/// volumes of a Pod and a Deployment (ra2.stg.007).
fn claim_objects() -> Vec<(String, Value)> {
    let annotation = "volume.beta.kubernetes.io/storage-class";
    let cases = [
        ("volumeName", json!({}), json!({"volumeName": "pv-1"})),
        (
            "empty volumeName",
            json!({}),
            json!({"volumeName": "", "storageClassName": "fast"}),
        ),
        (
            "empty volumeName, empty class",
            json!({}),
            json!({"volumeName": "", "storageClassName": ""}),
        ),
        (
            "volumeName and empty class",
            json!({}),
            json!({"volumeName": "pv-1", "storageClassName": ""}),
        ),
        (
            "matchLabels",
            json!({}),
            json!({"selector": {"matchLabels": {"tier": "gold"}}}),
        ),
        (
            "matchExpressions",
            json!({}),
            json!({"selector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["gold"]}]}}),
        ),
        (
            "empty selector, empty class",
            json!({}),
            json!({"selector": {}, "storageClassName": ""}),
        ),
        ("empty class", json!({}), json!({"storageClassName": ""})),
        ("named class", json!({}), json!({"storageClassName": "fast"})),
        ("no class", json!({}), json!({})),
        (
            "annotation empty, field named",
            json!({annotation: ""}),
            json!({"storageClassName": "fast"}),
        ),
        (
            "annotation named, field empty",
            json!({annotation: "fast"}),
            json!({"storageClassName": ""}),
        ),
        ("annotation empty", json!({annotation: ""}), json!({})),
    ];
    let mut out = Vec::new();
    for (i, (what, annotations, fields)) in cases.into_iter().enumerate() {
        let mut spec = json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}});
        for (key, value) in fields.as_object().into_iter().flatten() {
            spec[key] = value.clone();
        }
        let metadata = |name: String| json!({"name": name, "annotations": annotations.clone()});
        out.push((
            format!("PersistentVolumeClaim, {what}"),
            json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": metadata(format!("claim-{i}")), "spec": spec}),
        ));
        let labels = json!({"app": format!("claims-{i}")});
        let container = json!([{"name": "c", "image": "registry.example.com/app:1.0"}]);
        out.push((
            format!("StatefulSet volumeClaimTemplate, {what}"),
            json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": format!("claims-{i}")},
                "spec": {"selector": {"matchLabels": labels}, "serviceName": "s",
                    "volumeClaimTemplates": [{"metadata": metadata("data".to_owned()), "spec": spec}],
                    "template": {"metadata": {"labels": labels}, "spec": {"containers": container}}}}),
        ));
        let ephemeral = json!([{"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"metadata": {"annotations": annotations}, "spec": spec}}}]);
        out.push((
            format!("Pod, ephemeral volume, {what}"),
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": format!("ephemeral-{i}")},
                "spec": {"containers": container, "volumes": ephemeral}}),
        ));
        out.push((
            format!("Deployment, ephemeral volume, {what}"),
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": format!("ephemeral-{i}")},
                "spec": {"selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels},
                    "spec": {"containers": container, "volumes": ephemeral}}}}),
        ));
    }
    out
}

/// PersistentVolumes of each kind of source, StorageClasses of each kind of provisioner, and a
/// Pod with volumes of several types.
fn storage_objects() -> Vec<(String, Value)> {
    let affinity = json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1"]}]}]}});
    let sources = [
        ("host-path", json!({"hostPath": {"path": "/var/run"}})),
        (
            "local",
            json!({"local": {"path": "/mnt/disk"}, "nodeAffinity": affinity}),
        ),
        ("nfs", json!({"nfs": {"server": "10.0.0.1", "path": "/export"}})),
        (
            "iscsi",
            json!({"iscsi": {"targetPortal": "10.0.0.2:3260", "iqn": "iqn.2001-04.com.example:storage", "lun": 0}}),
        ),
        (
            "csi",
            json!({"csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-1"}}),
        ),
    ];
    let mut out: Vec<(String, Value)> = sources
        .into_iter()
        .map(|(name, source)| {
            let mut spec = json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"]});
            for (key, value) in source.as_object().into_iter().flatten() {
                spec[key] = value.clone();
            }
            let pv = json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": format!("pv-{name}")}, "spec": spec});
            (format!("PersistentVolume {name}"), pv)
        })
        .collect();
    for (i, provisioner) in [
        "kubernetes.io/no-provisioner",
        "kubernetes.io/aws-ebs",
        "kubernetes.io/glusterfs",
        "ebs.csi.aws.com",
    ]
    .into_iter()
    .enumerate()
    {
        let class = json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": format!("class-{i}")}, "provisioner": provisioner});
        out.push((format!("StorageClass {provisioner}"), class));
    }
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "volumes"},
        "spec": {
            "containers": [{"name": "c", "image": "registry.example.com/app:1.0"}],
            "volumes": [
                {"name": "scratch", "emptyDir": {}},
                {"name": "share", "nfs": {"server": "10.0.0.1", "path": "/export"}},
                {"name": "inline", "csi": {"driver": "inline.csi.example.com"}},
                {"name": "disk", "iscsi": {"targetPortal": "10.0.0.2:3260", "iqn": "iqn.2001-04.com.example:storage", "lun": 0}},
            ],
        },
    });
    out.push(("Pod with nfs, csi and iscsi volumes".to_owned(), pod));
    // Host paths near the runtime sockets (ra2.app.028), in a Pod and a StatefulSet.
    let paths = [
        "/var/run",
        "/run/containerd",
        "//var//run/./docker.sock",
        "/var/r",
        "/var/run/docker",
        "/",
        "var/run/docker.sock",
        "/run/my.sock/",
        "/var/run/../run/docker.sock",
    ];
    for (i, path) in paths.into_iter().enumerate() {
        let spec = json!({
            "containers": [{"name": "c", "image": "registry.example.com/app:1.0"}],
            "volumes": [{"name": "socket", "hostPath": {"path": path}}],
        });
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": format!("socket-{i}")}, "spec": spec});
        out.push((format!("Pod with host path {path:?}"), pod));
        let set = json!({
            "apiVersion": "apps/v1", "kind": "StatefulSet",
            "metadata": {"name": format!("socket-{i}")},
            "spec": {"selector": {"matchLabels": {"app": "s"}}, "serviceName": "s",
                "template": {"metadata": {"labels": {"app": "s"}}, "spec": spec}},
        });
        out.push((format!("StatefulSet with host path {path:?}"), set));
    }
    out
}

/// Pods selecting `anuket.io/profile` by nodeSelector and by required and preferred node
/// affinity, with profile values and others (ra2.k8s.011/selector-value).
fn profile_pods() -> Vec<(String, Value)> {
    let term = |operator: &str, values: &[&str]| json!({"matchExpressions": [{"key": "anuket.io/profile", "operator": operator, "values": values}]});
    let affinities = [
        ("selector basic", json!({}), json!({"anuket.io/profile": "basic"})),
        ("selector gold", json!({}), json!({"anuket.io/profile": "gold"})),
        (
            "selector Basic",
            json!({}),
            json!({"anuket.io/profile": "Basic", "zone": "a"}),
        ),
        (
            "required In",
            json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term("In", &["network-intensive", "fast"])]}}}),
            json!({}),
        ),
        (
            "required NotIn",
            json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term("NotIn", &["fast"])]}}}),
            json!({}),
        ),
        (
            "preferred In",
            json!({"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": term("In", &["fast"])}]}}),
            json!({}),
        ),
        (
            "selector with the literal key",
            json!({}),
            json!({"anuket.io/profile/network-intensive": "true"}),
        ),
        (
            "required, the literal key",
            json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "anuket.io/profile/basic", "operator": "Exists"}]}]}}}),
            json!({}),
        ),
        (
            "preferred In, a profile",
            json!({"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": term("In", &["basic"])}]}}),
            json!({}),
        ),
    ];
    affinities
        .into_iter()
        .enumerate()
        .map(|(i, (what, affinity, selector))| {
            let pod = json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": format!("profile-{i}")},
                "spec": {"affinity": affinity, "nodeSelector": selector,
                    "containers": [{"name": "c", "image": "registry.example.com/app:1.0"}]},
            });
            (format!("Pod, profile {what}"), pod)
        })
        .chain(
            [
                "app",
                "team.example.com/tier",
                "a/b/c",
                "-app",
                "Example.com/app",
                &"k".repeat(64),
            ]
            .into_iter()
            .enumerate()
            .map(|(i, key)| {
                let set = json!({
                    "apiVersion": "apps/v1", "kind": "StatefulSet",
                    "metadata": {"name": format!("label-key-{i}")},
                    "spec": {"selector": {"matchLabels": {"app": "s"}}, "serviceName": "s",
                        "template": {"metadata": {"labels": {"app": "s", key: "x"}},
                            "spec": {"containers": [{"name": "c", "image": "registry.example.com/app:1.0"}]}}},
                });
                (format!("StatefulSet with label key {key:?}"), set)
            }),
        )
        .collect()
}

/// Pods that are network-intensive by their own signals (huge pages, network devices by the
/// device table, the profile selector, preferred affinity) or opt in, or that only look so
/// (accelerators, bridge markers, an opt-in that is not "true"), Guaranteed or not, with whole,
/// odd and fractional CPUs, and one of 150 containers (ra2.k8s.009).
fn cpu_pinning_pods() -> Vec<(String, Value)> {
    let container = |name: &str, cpu: &str, extra: Value| {
        let mut limits = json!({"cpu": cpu, "memory": "1Gi"});
        if let (Some(limits), Some(extra)) = (limits.as_object_mut(), extra.as_object()) {
            limits.extend(extra.clone());
        }
        json!({"name": name, "image": "registry.example.com/cnf/dp:1.0", "resources": {"limits": limits}})
    };
    let pod = |name: &str, annotations: Value, spec: Value| json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "annotations": annotations}, "spec": spec});
    let huge = json!({"hugepages-2Mi": "1Gi"});
    let cases = [
        (
            "huge pages, 2 CPUs",
            json!({}),
            json!({"containers": [container("dp", "2", huge.clone())]}),
        ),
        (
            "huge pages, 3 CPUs and a 500m sidecar",
            json!({}),
            json!({
            "initContainers": [{"name": "side", "image": "registry.example.com/cnf/side:1.0", "restartPolicy": "Always", "resources": {"limits": {"cpu": "500m", "memory": "64Mi"}}}],
            "containers": [container("dp", "3", huge.clone())]}),
        ),
        (
            "huge pages, 2000m CPUs as requests too",
            json!({}),
            json!({"containers": [{"name": "dp", "image": "registry.example.com/cnf/dp:1.0",
            "resources": {"requests": {"cpu": "2000m", "memory": "1Gi", "hugepages-1Gi": "2Gi"}, "limits": {"cpu": "2000m", "memory": "1Gi", "hugepages-1Gi": "2Gi"}}}]}),
        ),
        (
            "SR-IOV device, Burstable",
            json!({}),
            json!({"containers": [{"name": "dp", "image": "registry.example.com/cnf/dp:1.0",
            "resources": {"requests": {"cpu": "1", "intel.com/intel_sriov_netdevice": "1"}, "limits": {"intel.com/intel_sriov_netdevice": "1"}}}]}),
        ),
        (
            "DPDK device, 1500m",
            json!({}),
            json!({"containers": [container("dp", "1500m", json!({"example.com/fast-dpdk-port": "2"}))]}),
        ),
        (
            "GPU only, 1500m",
            json!({}),
            json!({"containers": [container("dp", "1500m", json!({"nvidia.com/gpu": "1"}))]}),
        ),
        (
            "bridge marker, 1500m",
            json!({}),
            json!({"containers": [container("dp", "1500m", json!({"ovs-cni.network.kubevirt.io/br-sriov": "1"}))]}),
        ),
        (
            "opted in, 1500m",
            json!({"ra2.lint/cpu-pinning": "true"}),
            json!({"containers": [container("dp", "1500m", json!({}))]}),
        ),
        (
            "opt-in false, 1500m",
            json!({"ra2.lint/cpu-pinning": "false"}),
            json!({"containers": [container("dp", "1500m", json!({}))]}),
        ),
        (
            "selector, no limits",
            json!({}),
            json!({"nodeSelector": {"anuket.io/profile": "network-intensive"},
            "containers": [{"name": "dp", "image": "registry.example.com/cnf/dp:1.0"}]}),
        ),
        (
            "preferred affinity, init container without limits",
            json!({}),
            json!({
            "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {"matchExpressions": [{"key": "anuket.io/profile", "operator": "In", "values": ["network-intensive"]}]}}]}},
            "initContainers": [{"name": "init", "image": "registry.example.com/cnf/init:1.0"}],
            "containers": [container("dp", "4", json!({}))]}),
        ),
        (
            "huge pages, zero cpu request",
            json!({}),
            json!({"containers": [{"name": "dp", "image": "registry.example.com/cnf/dp:1.0",
            "resources": {"requests": {"cpu": "0", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi", "hugepages-2Mi": "2Mi"}}}]}),
        ),
    ];
    let mut out: Vec<(String, Value)> = cases
        .into_iter()
        .enumerate()
        .map(|(i, (what, annotations, spec))| {
            (
                format!("Pod, CPU pinning: {what}"),
                pod(&format!("pinning-{i}"), annotations, spec),
            )
        })
        .collect();
    let many: Vec<Value> = (0..150)
        .map(|i| container(&format!("c{i}"), if i % 2 == 0 { "1" } else { "250m" }, huge.clone()))
        .collect();
    let labels = json!({"app": "pinning"});
    out.push((
        "Deployment, CPU pinning: 150 huge-page containers".to_owned(),
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "pinning-large"},
            "spec": {"selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels}, "spec": {"containers": many}}}}),
    ));
    out
}

/// Huge pages requested and mounted in ways the kubelet and the API server accept or not, in
/// Pods and in StatefulSets (whose template the API server does not validate) (ra2.ch.001).
fn huge_page_objects() -> Vec<(String, Value)> {
    let container =
        |resources: Value| json!({"name": "dp", "image": "registry.example.com/cnf/dp:1.0", "resources": resources});
    let medium = |m: &str| json!([{"name": "hp", "emptyDir": {"medium": m}}]);
    let cases = [
        (
            "2Mi, medium HugePages",
            json!({"limits": {"memory": "1Gi", "hugepages-2Mi": "4Mi"}}),
            medium("HugePages"),
        ),
        (
            "2Mi, medium HugePages-2048Ki",
            json!({"limits": {"memory": "1Gi", "hugepages-2Mi": "4Mi"}}),
            medium("HugePages-2048Ki"),
        ),
        (
            "2Mi, medium HugePages-1Gi",
            json!({"limits": {"memory": "1Gi", "hugepages-2Mi": "4Mi"}}),
            medium("HugePages-1Gi"),
        ),
        (
            "2Mi, medium HugePages-2X",
            json!({"limits": {"memory": "1Gi", "hugepages-2Mi": "4Mi"}}),
            medium("HugePages-2X"),
        ),
        (
            "no huge pages, medium HugePages",
            json!({"limits": {"memory": "1Gi"}}),
            medium("HugePages"),
        ),
        (
            "2Mi and 1Gi, medium HugePages",
            json!({"limits": {"memory": "1Gi", "hugepages-2Mi": "4Mi", "hugepages-1Gi": "1Gi"}}),
            medium("HugePages"),
        ),
        (
            "2Mi and 2048Ki, medium HugePages",
            json!({"limits": {"memory": "1Gi", "hugepages-2Mi": "4Mi", "hugepages-2048Ki": "4Mi"}}),
            medium("HugePages"),
        ),
        (
            "request without limit",
            json!({"requests": {"memory": "1Gi", "hugepages-2Mi": "4Mi"}, "limits": {"memory": "1Gi"}}),
            json!([]),
        ),
        (
            "request above limit",
            json!({"requests": {"memory": "1Gi", "hugepages-2Mi": "8Mi"}, "limits": {"memory": "1Gi", "hugepages-2Mi": "4Mi"}}),
            json!([]),
        ),
        (
            "request equal to limit, written otherwise",
            json!({"requests": {"memory": "1Gi", "hugepages-2Mi": "4096Ki"}, "limits": {"memory": "1Gi", "hugepages-2Mi": "4Mi"}}),
            json!([]),
        ),
        (
            "no cpu or memory",
            json!({"limits": {"hugepages-1Gi": "2Gi"}}),
            json!([]),
        ),
        (
            "cpu request only",
            json!({"requests": {"cpu": "1"}, "limits": {"hugepages-1Gi": "2Gi"}}),
            json!([]),
        ),
        (
            "invalid page size",
            json!({"limits": {"memory": "1Gi", "hugepages-2MB": "4Mi"}}),
            medium("HugePages"),
        ),
    ];
    let mut out = Vec::new();
    for (i, (what, resources, volumes)) in cases.into_iter().enumerate() {
        let spec = json!({"containers": [container(resources)], "volumes": volumes});
        out.push((
            format!("Pod, huge pages: {what}"),
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": format!("huge-{i}")}, "spec": spec.clone()}),
        ));
        out.push((
            format!("StatefulSet, huge pages: {what}"),
            json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": format!("huge-{i}")},
                "spec": {"selector": {"matchLabels": {"app": "h"}}, "serviceName": "h",
                    "template": {"metadata": {"labels": {"app": "h"}}, "spec": spec}}}),
        ));
    }
    out
}

/// Container resources the API server refuses in Pods, as Pods, StatefulSets (whose template it
/// does not validate) and Deployments (which the declared-kind settings send as custom
/// resources, kept as written) (ra2.app.009/extended-resource).
fn extended_resource_objects() -> Vec<(String, Value)> {
    let cases = [
        ("unprefixed gpu", json!({"limits": {"gpu": "1"}})),
        ("a fraction of a GPU", json!({"limits": {"nvidia.com/gpu": "500m"}})),
        (
            "a whole GPU written 1000m",
            json!({"limits": {"nvidia.com/gpu": "1000m"}}),
        ),
        ("a negative count", json!({"limits": {"nvidia.com/gpu": "-1"}})),
        (
            "a request without a limit",
            json!({"requests": {"nvidia.com/gpu": "1"}}),
        ),
        (
            "a request other than the limit",
            json!({"requests": {"nvidia.com/gpu": "1"}, "limits": {"nvidia.com/gpu": "2"}}),
        ),
        (
            "a request equal to the limit",
            json!({"requests": {"nvidia.com/gpu": "2000m"}, "limits": {"nvidia.com/gpu": "2"}}),
        ),
        (
            "a kubernetes.io name",
            json!({"limits": {"example.kubernetes.io/x": "1"}}),
        ),
        ("a requests. prefix", json!({"limits": {"requests.example.com/x": "1"}})),
        ("a number", json!({"limits": {"example.com/dev_a": 2}})),
    ];
    let mut out = Vec::new();
    for (i, (what, resources)) in cases.into_iter().enumerate() {
        let mut resources = resources;
        resources["limits"]["memory"] = json!("1Gi");
        resources["limits"]["cpu"] = json!("1");
        let spec =
            json!({"containers": [{"name": "app", "image": "registry.example.com/app:1.0", "resources": resources}]});
        let template = json!({"metadata": {"labels": {"app": "x"}}, "spec": spec.clone()});
        out.push((
            format!("Pod, extended resource: {what}"),
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": format!("ext-{i}")}, "spec": spec}),
        ));
        out.push((
            format!("StatefulSet, extended resource: {what}"),
            json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": format!("ext-{i}")},
                "spec": {"selector": {"matchLabels": {"app": "x"}}, "serviceName": "x", "template": template.clone()}}),
        ));
        out.push((
            format!("Deployment, extended resource: {what}"),
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": format!("ext-{i}")},
                "spec": {"selector": {"matchLabels": {"app": "x"}}, "template": template}}),
        ));
    }
    out
}

/// Helm 2's Tiller by image, name and labels, and objects that look like it but are not
/// (ra2.pkg.001).
fn tiller_objects() -> Vec<(String, Value)> {
    let digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    let images = [
        "gcr.io/kubernetes-helm/tiller:v2.16.12".to_owned(),
        "ghcr.io/helm/tiller:v2.17.0".to_owned(),
        format!("registry.example.com:5000/mirror/tiller@{digest}"),
        "tiller".to_owned(),
        "gcr.io/kubernetes-helm/tiller-proxy:1".to_owned(),
        "registry.example.com/tiller:5000/app".to_owned(),
        "alpine/helm:3.14.0".to_owned(),
    ];
    let mut out: Vec<(String, Value)> = images
        .iter()
        .enumerate()
        .map(|(i, image)| {
            let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": format!("tiller-{i}")},
                "spec": {"containers": [{"name": "c", "image": image}]}});
            (format!("Pod with image {image:?}"), pod)
        })
        .collect();
    let labels = json!({"app": "helm", "name": "tiller"});
    out.extend([
        (
            "Service tiller-deploy".to_owned(),
            json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "tiller-deploy"}, "spec": {"ports": [{"port": 44134}]}}),
        ),
        (
            "ConfigMap OWNER=TILLER".to_owned(),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "release.v1", "labels": {"OWNER": "TILLER"}}, "immutable": true}),
        ),
        (
            "Secret OWNER=TILLER".to_owned(),
            json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "release.v1", "labels": {"OWNER": "TILLER"}}}),
        ),
        (
            "ServiceAccount app=helm name=tiller".to_owned(),
            json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "tiller", "labels": labels}}),
        ),
        (
            "Deployment with a tiller pod template's labels".to_owned(),
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "helm"},
                "spec": {"selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels},
                    "spec": {"containers": [{"name": "c", "image": "registry.example.com/app:1.0"}]}}}}),
        ),
    ]);
    out
}

/// PersistentVolumes and StorageClasses (custom kinds are all installed namespaced).
fn is_cluster_scoped(object: &Value) -> bool {
    matches!(
        (object["apiVersion"].as_str(), object["kind"].as_str()),
        (Some("v1"), Some("PersistentVolume")) | (Some("storage.k8s.io/v1"), Some("StorageClass"))
    )
}

/// Every document of the catalogue examples, the fixtures and the corpus that is an object, with
/// where it comes from.
fn all_documents() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for doc in ra2_core::catalogue::all() {
        for (what, examples) in [("failing", doc.examples.failing), ("passing", doc.examples.passing)] {
            for example in examples {
                for (i, value) in documents(example.manifest).into_iter().enumerate() {
                    out.push((format!("{} {what} example {:?} #{i}", doc.id, example.title), value));
                }
            }
        }
    }
    for fixture in ra2_tests::fixtures() {
        for (i, value) in documents(&fixture.text).into_iter().enumerate() {
            out.push((format!("fixture {} #{i}", fixture.name), value));
        }
    }
    for (name, text) in ra2_tests::corpus_files().unwrap_or_default() {
        for (i, value) in documents(&text).into_iter().enumerate() {
            out.push((format!("corpus {name} #{i}"), value));
        }
    }
    out
}

/// An object's `(group, version, kind)`, when its apiVersion is `group/version`.
fn group_version_kind(object: &Value) -> Option<(&str, &str, &str)> {
    let (group, version) = object.get("apiVersion")?.as_str()?.rsplit_once('/')?;
    Some((group, version, object.get("kind")?.as_str()?))
}

/// Kinds at alpha, beta, GA and invalid versions, in groups Kubernetes owns, third parties own,
/// RA2 requires, and tools read (none served by the API server itself: custom resources).
const API_KINDS: &[(&str, &str)] = &[
    ("ra2.example.com/v1alpha1", "Widget"),
    ("ra2.example.com/v1beta2", "Widget"),
    ("ra2.example.com/v1", "Widget"),
    ("test.ra2.k8s.io/v1alpha1", "Gadget"),
    ("test.ra2.k8s.io/v2beta3", "Gadget"),
    ("test.ra2.k8s.io/v1beta", "Gadget"),
    ("test.ra2.k8s.io/v0", "Gadget"),
    ("test.ra2.k8s.io/v1", "Gadget"),
    ("gateway.networking.k8s.io/v1beta1", "Gateway"),
    ("gateway.networking.k8s.io/v1", "Gateway"),
    ("gateway.networking.k8s.io/v1beta1", "ReferenceGrant"),
    ("gateway.networking.k8s.io/v1alpha2", "TLSRoute"),
    ("snapshot.storage.k8s.io/v1beta1", "VolumeSnapshot"),
    ("snapshot.storage.k8s.io/v1", "VolumeSnapshot"),
    ("nfd.k8s-sigs.io/v1alpha1", "NodeFeatureRule"),
    ("kustomize.config.k8s.io/v1beta1", "Kustomization"),
    ("argoproj.io/v1alpha1", "Rollout"),
];

/// One object of each of [`API_KINDS`], and some with suppression annotations (on the object,
/// and on a Rollout's pod template).
fn api_objects() -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = API_KINDS
        .iter()
        .enumerate()
        .map(|(i, (api_version, kind))| {
            let object =
                json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": format!("api-{i}")}, "spec": {}});
            (format!("{kind} {api_version}"), object)
        })
        .collect();
    out.push((
        "Widget v1alpha1, ra2.k8s.012 suppressed".to_owned(),
        json!({"apiVersion": "ra2.example.com/v1alpha1", "kind": "Widget",
            "metadata": {"name": "suppressed", "annotations": {"ignore-check.ra2.dev/ra2.k8s.012": "test"}}}),
    ));
    out.push((
        "Gateway v1beta1, beta-with-ga suppressed".to_owned(),
        json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "Gateway",
            "metadata": {"name": "suppressed", "annotations": {"ignore-check.ra2.dev/ra2.k8s.019.beta-with-ga": "test"}}}),
    ));
    out.push((
        "Rollout, everything suppressed on its template".to_owned(),
        json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout",
            "metadata": {"name": "suppressed"},
            "spec": {"template": {"metadata": {"annotations": {"ra2.dev/ignore-all": "test"}},
                "spec": {"containers": [{"name": "c", "image": "nginx", "securityContext": {"privileged": true}}]}}}}),
    ));
    out
}

/// CustomResourceDefinitions serving every version of every custom kind of `objects` whose group
/// the API server does not serve itself (`served` holds the groups it does), each version's
/// schema open; with the kinds installed.
fn test_crds(objects: &[(String, Value)], served: &BTreeSet<String>) -> (String, BTreeSet<(String, String)>) {
    let label = |s: &str| {
        !s.is_empty()
            && s.len() <= 63
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !s.ends_with('-')
    };
    let mut kinds: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for (_, object) in objects {
        let Some((group, version, kind)) = group_version_kind(object) else {
            continue;
        };
        let valid_group = group.contains('.')
            && group.len() <= 253
            && group.split('.').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !part.starts_with('-')
                    && !part.ends_with('-')
            });
        let valid_kind = kind.starts_with(|c: char| c.is_ascii_uppercase())
            && kind.len() < 60
            && kind.bytes().all(|b| b.is_ascii_alphanumeric())
            && !kind.ends_with("List");
        if valid_group && valid_kind && label(version) && !served.contains(group) {
            kinds
                .entry((group.to_owned(), kind.to_owned()))
                .or_default()
                .insert(version.to_owned());
        }
    }
    let mut yaml = String::new();
    let mut installed = BTreeSet::new();
    // A plural two kinds of a group share (`Foo`, `FOO`) is one resource: the first kind's.
    let mut plurals = BTreeSet::new();
    let ga = |v: &str| {
        v.len() > 1 && v.starts_with('v') && !v.starts_with("v0") && v[1..].bytes().all(|b| b.is_ascii_digit())
    };
    // Kinds with a version that is not GA: the others' objects the apiVersion checks pass.
    kinds.retain(|_, versions| versions.iter().any(|v| !ga(v)));
    for ((group, kind), versions) in &kinds {
        let plural = format!("{}s", kind.to_ascii_lowercase());
        if !plurals.insert((group.clone(), plural.clone())) {
            continue;
        }
        let storage = versions
            .iter()
            .find(|v| ga(v))
            .unwrap_or_else(|| versions.iter().next().expect("a version"));
        let protected = group.ends_with(".k8s.io") || group.ends_with(".kubernetes.io");
        let versions: Vec<Value> = versions
            .iter()
            .map(|v| {
                json!({"name": v, "served": true, "storage": v == storage,
                    "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}})
            })
            .collect();
        let mut metadata = json!({"name": format!("{plural}.{group}")});
        if protected {
            metadata["annotations"] = json!({"api-approved.kubernetes.io": "unapproved, a ra2 test"});
        }
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": metadata,
            "spec": {"group": group, "scope": "Namespaced",
                "names": {"kind": kind, "plural": plural, "singular": kind.to_ascii_lowercase(), "listKind": format!("{kind}List")},
                "versions": versions},
        });
        yaml.push_str("---\n");
        yaml.push_str(&serde_json::to_string(&crd).unwrap_or_default());
        yaml.push('\n');
        installed.insert((group.clone(), kind.clone()));
    }
    (yaml, installed)
}

/// Every workload object, ConfigMap and Service of `documents`, and every object of a custom
/// kind `installed` serves (of the corpus, one per apiVersion and kind), in the test namespace.
fn objects(documents: Vec<(String, Value)>, installed: &BTreeSet<(String, String)>) -> Vec<(String, Value)> {
    let custom =
        |v: &Value| group_version_kind(v).is_some_and(|(g, _, k)| installed.contains(&(g.to_owned(), k.to_owned())));
    let mut out = documents;
    let mut kinds_seen = BTreeSet::new();
    out.retain(|(origin, v)| {
        is_judged(v)
            || (custom(v)
                && (!origin.starts_with("corpus ")
                    || kinds_seen.insert((v["apiVersion"].clone().to_string(), v["kind"].to_string()))))
    });
    out.extend(api_objects());
    out.extend(storage_objects());
    out.extend(claim_objects());
    out.extend(profile_pods());
    out.extend(cpu_pinning_pods());
    out.extend(huge_page_objects());
    out.extend(extended_resource_objects());
    out.extend(tiller_objects());
    out.retain(|(_, v)| v.get("metadata").is_none_or(Value::is_object));
    for (_, value) in &mut out {
        if is_cluster_scoped(value) {
            if let Some(metadata) = value.get_mut("metadata").and_then(Value::as_object_mut) {
                metadata.remove("namespace");
            }
        } else {
            value["metadata"]["namespace"] = json!(NAMESPACE);
        }
    }
    out.extend(large_objects());
    out.extend(image_pods());
    // The corpus repeats manifests (a chart, its rendering, its kustomization): each once.
    let mut seen = BTreeSet::new();
    out.retain(|(_, v)| seen.insert(v.to_string()));
    out
}

/// Objects at the size the CEL cost budget must allow: a Pod and a Deployment with 100
/// containers and 50 init containers, each with 100 environment variables, capabilities,
/// probes and mounts, and 100 volumes.
fn large_objects() -> Vec<(String, Value)> {
    let container = |prefix: &str, i: usize| {
        let env: Vec<Value> = (0..100)
            .map(|e| json!({"name": format!("VAR_{e}"), "value": format!("value-{e}")}))
            .collect();
        json!({
            "name": format!("{prefix}{i}"),
            "image": format!("registry.example.com/team/app-{i}:1.{i}.0"),
            "env": env,
            "securityContext": {"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true, "runAsUser": 10001, "runAsGroup": 10001,
                "capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE", "CHOWN", "SETUID"]}},
            "resources": {"limits": {"cpu": "100m", "memory": "64Mi"}},
            "volumeMounts": [{"name": format!("v{i}"), "mountPath": "/data"}],
        })
    };
    let mut containers: Vec<Value> = (0..100).map(|i| container("c", i)).collect();
    for (i, c) in containers.iter_mut().enumerate() {
        c["livenessProbe"] = json!({"tcpSocket": {"port": 8080}});
        c["readinessProbe"] = json!({"httpGet": {"path": "/ready", "port": 8080}});
        if i == 99 {
            c["image"] = json!("registry.example.com/team/app:latest");
        }
    }
    let init: Vec<Value> = (0..50).map(|i| container("init", i)).collect();
    let volumes: Vec<Value> = (0..100)
        .map(|i| json!({"name": format!("v{i}"), "emptyDir": {}}))
        .collect();
    let labels = json!({"app": "large", "app.kubernetes.io/name": "large", "app.kubernetes.io/version": "1.0", "app.kubernetes.io/part-of": "ra2"});
    let spec = json!({"hostUsers": false, "containers": containers, "initContainers": init, "volumes": volumes});
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "large", "namespace": NAMESPACE, "labels": labels}, "spec": spec});
    let deployment = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "large", "namespace": NAMESPACE},
        "spec": {"selector": {"matchLabels": {"app": "large"}}, "template": {"metadata": {"labels": labels}, "spec": spec}},
    });
    vec![
        ("large Pod".to_owned(), pod),
        ("large Deployment".to_owned(), deployment),
    ]
}

/// One Pod per image reference that is easy to misread: registries, ports, IPv6, case, digests,
/// separators, placeholders (ra2.app.034's reference grammar against the policy's pattern).
fn image_pods() -> Vec<(String, Value)> {
    let digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    let long = format!("registry.example.com/{}:1.0", "a".repeat(250));
    let images = [
        "nginx".to_owned(),
        "nginx:latest".to_owned(),
        "nginx:1.27".to_owned(),
        format!("nginx@{digest}"),
        format!("nginx:latest@{digest}"),
        format!("nginx:1.0@{digest}"),
        "nginx@sha256:abc".to_owned(),
        "registry.example.com:5000/team/app".to_owned(),
        "registry.example.com:5000/team/app:latest".to_owned(),
        "localhost/app:1.0".to_owned(),
        "localhost:5000/app".to_owned(),
        "[::1]:5000/app:1.0".to_owned(),
        "Registry.Example.com/app:1.0".to_owned(),
        "Team/app:1.0".to_owned(),
        "Team:1.0".to_owned(),
        "team/App:1.0".to_owned(),
        "a_b.c/app:1.0".to_owned(),
        "a_b/app:1.0".to_owned(),
        "a__b/c--d/e.f:1.0".to_owned(),
        "a___b:1.0".to_owned(),
        "a..b:1.0".to_owned(),
        "app:tag:more".to_owned(),
        "app:".to_owned(),
        "app:-tag".to_owned(),
        "app:_tag".to_owned(),
        "host:/app:1.0".to_owned(),
        "registry.example.com/app/".to_owned(),
        "-registry.example.com/app:1.0".to_owned(),
        long,
        "{{ .Values.image }}".to_owned(),
        "${IMAGE}".to_owned(),
        "<your image>".to_owned(),
        "ko://example.com/cmd/app".to_owned(),
    ];
    images
        .iter()
        .enumerate()
        .map(|(i, image)| {
            let pod = json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": format!("image-{i}"), "namespace": NAMESPACE},
                "spec": {"containers": [{"name": "c", "image": image}]},
            });
            (format!("image {image:?}"), pod)
        })
        .collect()
}

/// The settings tried: each edition's defaults (on every object), and configs that move checks
/// between actions, ignore one, and exempt objects by kind and name pattern (on the examples,
/// fixtures and large objects, which exercise every check; the corpus adds time, not cases).
fn settings() -> Vec<(&'static str, Config, bool)> {
    let read = |text: &str| Config::from_yaml(text, "settings").unwrap_or_else(|e| panic!("{e:?}"));
    vec![
        ("base", read("edition: base\n"), true),
        ("latest", read("edition: latest\n"), true),
        (
            "latest, overrides and exemptions",
            read(concat!(
                "edition: latest\n",
                "severity: {ra2.app.030: warning, ra2.app.043/privilege-escalation: error, sec.sys.021: error}\n",
                "ignore: [ra2.app.044/group-id]\n",
                "exemptions:\n",
                "  - {rule: ra2.app.031, kind: DaemonSet, reason: node agents}\n",
                "  - {rule: ra2.app.042/user-unset, name: '*e?t*', reason: pattern}\n",
                "  - {rule: ra2.app.007, namespace: vap, kind: 'Stateful*', reason: namespace}\n",
                "params: {ra2.app.048: {allowed_types: [container_t, spc_t]}, ra2.app.028: {sockets: [/run/my.sock, /var/run/docker.sock]}}\n",
            )),
            false,
        ),
        ("base, fail-on info", read("edition: base\nfail-on: info\n"), false),
        (DECLARED_BASE, read(&format!("edition: base\n{DECLARED_KINDS}")), false),
        (
            DECLARED_LATEST,
            read(&format!("edition: latest\n{DECLARED_KINDS}")),
            false,
        ),
    ]
}

/// The settings whose objects are the custom resource [`CNF_CRD`] declares.
const DECLARED_BASE: &str = "base, a declared workload kind";
const DECLARED_LATEST: &str = "latest, a declared workload kind";
const DECLARED_KINDS: &str =
    "workload-kinds:\n  - {api-version: ra2.example.com/v1, kind: Cnf, template: spec.workload.podTemplate}\n";

/// A custom resource that keeps a pod template at `spec.workload.podTemplate`, with a schema
/// that leaves it untyped (as many operators' CRDs do).
const CNF_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: cnfs.ra2.example.com}
spec:
  group: ra2.example.com
  scope: Namespaced
  names: {kind: Cnf, plural: cnfs, singular: cnf, listKind: CnfList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
";

/// Every Deployment of `objects` as a `Cnf` with the Deployment's pod template.
fn as_declared(objects: &[(String, Value)]) -> Vec<(String, Value)> {
    objects
        .iter()
        .filter(|(_, o)| o["apiVersion"] == "apps/v1" && o["kind"] == "Deployment")
        .map(|(origin, o)| {
            let cnf = json!({
                "apiVersion": "ra2.example.com/v1",
                "kind": "Cnf",
                "metadata": o["metadata"].clone(),
                "spec": {"workload": {"podTemplate": o["spec"]["template"].clone()}},
            });
            (format!("{origin} as a Cnf"), cnf)
        })
        .collect()
}

/// ra2's exported verdict on one object: the exported checks it reports that deny, and those
/// that warn.
fn ra2_verdict(
    object: &Value,
    config: &Config,
    actions: &BTreeMap<String, bool>,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let text = serde_json::to_string_pretty(object).unwrap_or_default();
    let mut linter = Linter::new(config);
    linter.add_file("object.json", &text);
    let report = linter.finish();
    let (mut deny, mut warn) = (BTreeSet::new(), BTreeSet::new());
    for f in &report.findings {
        let key = format!("{}/{}", f.rule, f.check);
        match actions.get(&key) {
            Some(true) => {
                deny.insert(key);
            }
            Some(false) => {
                warn.insert(key);
            }
            None => {}
        }
    }
    (deny, warn)
}

/// The exported checks a text names (`rule/check: `).
fn named(text: &str, actions: &BTreeMap<String, bool>) -> BTreeSet<String> {
    actions
        .keys()
        .filter(|key| text.contains(&format!("{key}: ")))
        .cloned()
        .collect()
}

/// The API server's verdict: `None` when it refused the object itself (not a policy).
fn api_verdict(
    verdict: &Verdict,
    actions: &BTreeMap<String, bool>,
) -> Option<(bool, BTreeSet<String>, BTreeSet<String>)> {
    let by_policy = verdict.message.contains("ValidatingAdmissionPolicy 'ra2-");
    if !verdict.accepted && !by_policy {
        return None;
    }
    let warned = verdict.warnings.iter().flat_map(|w| named(w, actions)).collect();
    Some((!verdict.accepted, named(&verdict.message, actions), warned))
}

fn apply(cluster: &Cluster, objects: &[Value]) {
    let out = cluster.kubectl(
        &[
            "delete",
            "validatingadmissionpolicies,validatingadmissionpolicybindings",
            "-l",
            "app.kubernetes.io/managed-by=ra2",
            "--wait=false",
        ],
        None,
    );
    assert!(out.success, "{}", out.stderr);
    let yaml = vap::to_yaml(objects);
    let out = cluster.kubectl(&["apply", "--server-side", "-f", "-"], Some(&yaml));
    assert!(out.success, "kubectl apply: {}\n{yaml}", out.stderr);
}

/// Every policy's type checking, as the API server reports it in the policy's status.
fn type_warnings(cluster: &Cluster) -> Vec<String> {
    let out = cluster.kubectl(&["get", "validatingadmissionpolicies", "-o", "json"], None);
    let list: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
    let mut warnings = Vec::new();
    for policy in list["items"].as_array().into_iter().flatten() {
        for w in policy["status"]["typeChecking"]["expressionWarnings"]
            .as_array()
            .into_iter()
            .flatten()
        {
            warnings.push(format!(
                "{}: {} {}",
                policy["metadata"]["name"], w["fieldRef"], w["warning"]
            ));
        }
    }
    warnings
}

#[derive(Default)]
struct Counts {
    objects: usize,
    refused_by_api_server: usize,
    denied: usize,
    warned: usize,
    disagreements: Vec<String>,
}

/// [`compare_part`] on one thread, or on `RA2_VAP_THREADS`. With four threads, two of five runs
/// lost their kube-apiserver mid-way (a dropped connection, then connection refused; no OOM
/// kill): the likely cause is a data race in kube-apiserver's CEL type provider when it
/// evaluates policies concurrently ("fatal error: concurrent map read and map write",
/// kubernetes/kubernetes#135757, open). One request at a time keeps the test about the
/// policies; `Cluster::send` prints the API server's fatal error if it exits all the same.
fn compare(
    cluster: &Cluster,
    objects: &[(String, Value)],
    config: &Config,
    actions: &BTreeMap<String, bool>,
    settled: Instant,
) -> Counts {
    let threads = std::env::var("RA2_VAP_THREADS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    let chunk = objects.len().div_ceil(threads).max(1);
    let parts: Vec<Counts> = std::thread::scope(|scope| {
        let handles: Vec<_> = objects
            .chunks(chunk)
            .map(|part| scope.spawn(move || compare_part(cluster, part, config, actions, settled)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a comparing thread"))
            .collect()
    });
    let mut counts = Counts::default();
    for part in parts {
        counts.objects += part.objects;
        counts.refused_by_api_server += part.refused_by_api_server;
        counts.denied += part.denied;
        counts.warned += part.warned;
        counts.disagreements.extend(part.disagreements);
    }
    counts
}

/// One object's comparison.
enum Outcome {
    /// The API server refused it itself, before the policies.
    Refused,
    Agree {
        denied: bool,
        warned: bool,
    },
    Disagree(String),
}

/// Sends `object` and compares the answer with ra2's exported verdict.
fn outcome(
    cluster: &Cluster,
    object: &Value,
    want: &(BTreeSet<String>, BTreeSet<String>),
    actions: &BTreeMap<String, bool>,
) -> Outcome {
    let (want_deny, want_warn) = want;
    let verdict = cluster.dry_run(object);
    let Some((denied, denial_names, warned)) = api_verdict(&verdict, actions) else {
        return Outcome::Refused;
    };
    let mut problems = Vec::new();
    if denied == want_deny.is_empty() {
        problems.push(format!("API server denied: {denied}, ra2 deny checks: {want_deny:?}"));
    }
    if denied && (denial_names.is_empty() || !denial_names.is_subset(want_deny)) {
        problems.push(format!("denial names {denial_names:?}, ra2 reports {want_deny:?}"));
    }
    // Warnings of a request the API server denies may be cut short.
    if !denied && warned != *want_warn {
        problems.push(format!("warnings {warned:?}, ra2 warns {want_warn:?}"));
    }
    if problems.is_empty() {
        Outcome::Agree {
            denied,
            warned: !warned.is_empty(),
        }
    } else {
        Outcome::Disagree(format!(
            "{}\n  message: {}\n  warnings: {:?}",
            problems.join("; "),
            verdict.message,
            verdict.warnings
        ))
    }
}

/// Compares the API server with ra2 on every object; a disagreement may be a policy not yet in
/// force, so until `settled` the object is tried again.
fn compare_part(
    cluster: &Cluster,
    objects: &[(String, Value)],
    config: &Config,
    actions: &BTreeMap<String, bool>,
    settled: Instant,
) -> Counts {
    let mut counts = Counts::default();
    for (origin, object) in objects {
        let want = ra2_verdict(object, config, actions);
        loop {
            match outcome(cluster, object, &want, actions) {
                Outcome::Refused => counts.refused_by_api_server += 1,
                Outcome::Agree { denied, warned } => {
                    counts.objects += 1;
                    counts.denied += usize::from(denied);
                    counts.warned += usize::from(warned);
                }
                Outcome::Disagree(problem) if Instant::now() > settled => {
                    counts.objects += 1;
                    counts.disagreements.push(format!("{origin}: {problem}"));
                }
                Outcome::Disagree(_) => {
                    std::thread::sleep(Duration::from_millis(200));
                    continue;
                }
            }
            break;
        }
    }
    counts
}

/// A Pod that fails most exported checks, and one that passes them but for warnings, to see the
/// policies come into force.
fn canaries() -> Vec<Value> {
    vec![bad_canary(), ra2_testkit::typical_pod(NAMESPACE)]
}

fn bad_canary() -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "canary", "namespace": NAMESPACE},
        "spec": {
            "hostPID": true,
            "containers": [{"name": "c", "image": "registry.example/app:1.0", "securityContext": {"privileged": true, "runAsUser": 0}}],
            "volumes": [{"name": "h", "hostPath": {"path": "/var/lib/x"}}]
        }
    })
}

#[test]
fn differential_vap_policies_decide_as_ra2_does() {
    let Some(cluster) = Cluster::start_or_skip("differential_vap_policies_decide_as_ra2_does") else {
        return;
    };
    // Before the first request: the harness learns the API server's resources once.
    let out = cluster.kubectl(&["apply", "-f", "-"], Some(CNF_CRD));
    assert!(out.success, "{}", out.stderr);
    let out = cluster.kubectl(
        &[
            "wait",
            "--for=condition=Established",
            "--timeout=60s",
            "crd/cnfs.ra2.example.com",
        ],
        None,
    );
    assert!(out.success, "{}", out.stderr);
    // Custom resources at alpha, beta and GA versions, for the apiVersion checks.
    let documents = all_documents();
    let out = cluster.kubectl(&["api-versions"], None);
    assert!(out.success, "{}", out.stderr);
    let served: BTreeSet<String> = out
        .stdout
        .lines()
        .filter_map(|l| l.trim().rsplit_once('/').map(|(g, _)| g.to_owned()))
        .collect();
    let mut with_api_kinds = documents.clone();
    with_api_kinds.extend(api_objects());
    let (crds, installed) = test_crds(&with_api_kinds, &served);
    let crds_started = Instant::now();
    let out = cluster.kubectl(&["apply", "--server-side", "-f", "-"], Some(&crds));
    assert!(out.success, "{}", out.stderr);
    let out = cluster.kubectl(
        &["wait", "--for=condition=Established", "--timeout=120s", "crd", "--all"],
        None,
    );
    assert!(out.success, "{}", out.stderr);
    eprintln!(
        "vap differential: {} custom kinds installed in {:.1?}",
        installed.len(),
        crds_started.elapsed()
    );
    cluster.create_namespace(NAMESPACE);
    let typical = canaries().pop().expect("a passing canary");
    let without = cluster.median_dry_run(&typical);
    let objects = objects(documents, &installed);
    let mut failures = Vec::new();
    let catalogue_and_fixtures: Vec<(String, Value)> = objects
        .iter()
        .filter(|(origin, _)| !origin.starts_with("corpus "))
        .cloned()
        .collect();
    let declared = as_declared(&catalogue_and_fixtures);
    for (name, config, with_corpus) in settings() {
        let objects = if name == DECLARED_BASE || name == DECLARED_LATEST {
            &declared
        } else if with_corpus {
            &objects
        } else {
            &catalogue_and_fixtures
        };
        let started = Instant::now();
        let (policies, summary) = vap::generate(&config).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let actions: BTreeMap<String, bool> = summary
            .checks
            .iter()
            .map(|(rule, check, deny)| (format!("{rule}/{check}"), *deny))
            .collect();
        apply(&cluster, &policies);
        let applied = started.elapsed();
        // In force (and the previous setting's gone) once the canaries agree with ra2; each
        // object is tried again on disagreement too.
        let deadline = Instant::now() + Duration::from_secs(30);
        for canary in canaries() {
            let want = ra2_verdict(&canary, &config, &actions);
            loop {
                match outcome(&cluster, &canary, &want, &actions) {
                    Outcome::Agree { .. } => break,
                    Outcome::Refused => panic!("{name}: the API server refuses the canary {canary}"),
                    Outcome::Disagree(problem) => {
                        assert!(
                            Instant::now() < deadline,
                            "{name}: the policies never came into force: {problem}"
                        );
                    }
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        let in_force = started.elapsed();
        let settled = Instant::now() + Duration::from_secs(10);
        let counts = compare(&cluster, objects, &config, &actions, settled);
        let warnings = type_warnings(&cluster);
        eprintln!(
            "vap differential [{name}]: {} policies ({} checks deny, {} warn), {} objects compared, {} denied, {} warned, {} refused by the API server itself, {} disagreements, {} type-checking warnings, {:.1?} (applied after {:.1?}, in force after {:.1?})",
            policies.len() / 2,
            summary.deny,
            summary.warn,
            counts.objects,
            counts.denied,
            counts.warned,
            counts.refused_by_api_server,
            counts.disagreements.len(),
            warnings.len(),
            started.elapsed(),
            applied,
            in_force
        );
        for w in warnings.iter().take(5) {
            eprintln!("  type checking: {w}");
        }
        if name == "latest" {
            eprintln!(
                "vap differential: a typical Pod's server-side dry run takes {:.2?} (median of 200) with the latest policies, {without:.2?} without",
                cluster.median_dry_run(&typical)
            );
        }
        if name == DECLARED_BASE || name == DECLARED_LATEST {
            assert!(
                counts.objects > 100 && counts.denied > 0,
                "the declared kind's objects were not judged by the policies"
            );
        }
        failures.extend(counts.disagreements.into_iter().map(|d| format!("[{name}] {d}")));
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}
