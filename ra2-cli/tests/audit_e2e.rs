//! `ra2 audit` against a real kube-apiserver (ra2-testkit): Nodes (plain API objects, no
//! kubelet), kube-system static pods and a DaemonSet, a NetworkAttachmentDefinition (through
//! its CRD), a CSIDriver and StorageClasses are created with kubectl; `ra2 audit` reads them
//! through the API and must report the platform findings they carry; and the same objects
//! dumped with `kubectl get -o yaml` and linted with `ra2 lint -` must give the same findings.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};

use ra2_testkit::Cluster;
use serde_json::Value;

const NAD_CRD: &str = r"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: network-attachment-definitions.k8s.cni.cncf.io
spec:
  group: k8s.cni.cncf.io
  scope: Namespaced
  names:
    plural: network-attachment-definitions
    singular: network-attachment-definition
    kind: NetworkAttachmentDefinition
    shortNames: [net-attach-def]
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
";

const CLUSTER: &str = r#"
apiVersion: v1
kind: Namespace
metadata:
  name: ran
---
apiVersion: v1
kind: Node
metadata:
  name: cp-1
  labels:
    kubernetes.io/hostname: cp-1
    node-role.kubernetes.io/control-plane: ""
    topology.kubernetes.io/zone: zone-a
    feature.node.kubernetes.io/cpu-cpuid.AVX512F: "true"
status:
  capacity: {cpu: "16", memory: 65843244Ki, ephemeral-storage: 468713620Ki, pods: "110"}
  allocatable: {cpu: "15", memory: 64692268Ki, ephemeral-storage: 431964641037, pods: "110"}
  nodeInfo:
    kubeletVersion: v1.33.1
    containerRuntimeVersion: containerd://1.7.27
    architecture: amd64
    operatingSystem: linux
    osImage: Ubuntu 24.04.1 LTS
    kernelVersion: 6.8.0-45-generic
    kubeProxyVersion: v1.33.1
    machineID: "1"
    systemUUID: "1"
    bootID: "1"
---
apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels:
    kubernetes.io/hostname: worker-1
    topology.kubernetes.io/zone: zone-a
    anuket.io/profile: network-intensive
    feature.node.kubernetes.io/network-sriov.capable: "true"
status:
  capacity: {cpu: "32", memory: 16Gi, ephemeral-storage: 468713620Ki, hugepages-1Gi: "0", pods: "110"}
  allocatable: {cpu: "32", memory: 16Gi, ephemeral-storage: 431964641037, hugepages-1Gi: "0", pods: "110"}
  nodeInfo:
    kubeletVersion: v1.28.15
    containerRuntimeVersion: docker://26.1.4
    architecture: amd64
    operatingSystem: linux
    osImage: Ubuntu 24.04.1 LTS
    kernelVersion: 6.8.0-45-generic
    kubeProxyVersion: v1.28.15
    machineID: "2"
    systemUUID: "2"
    bootID: "2"
---
apiVersion: v1
kind: Node
metadata:
  name: worker-2
  labels:
    kubernetes.io/hostname: worker-2
    topology.kubernetes.io/zone: zone-b
---
apiVersion: v1
kind: Pod
metadata:
  name: kube-apiserver-cp-1
  namespace: kube-system
spec:
  nodeName: cp-1
  hostNetwork: true
  containers:
    - name: kube-apiserver
      image: registry.k8s.io/kube-apiserver:v1.33.1
      command:
        - kube-apiserver
        - --advertise-address=10.0.0.11
        - --runtime-config
        - api/alpha=true
---
apiVersion: v1
kind: Pod
metadata:
  name: kube-controller-manager-cp-1
  namespace: kube-system
spec:
  nodeName: cp-1
  hostNetwork: true
  containers:
    - name: kube-controller-manager
      image: registry.k8s.io/kube-controller-manager:v1.33.1
      command: [kube-controller-manager, --feature-gates=AllAlpha=true]
---
apiVersion: v1
kind: Pod
metadata:
  name: etcd-worker-1
  namespace: kube-system
spec:
  nodeName: worker-1
  hostNetwork: true
  containers:
    - name: etcd
      image: registry.k8s.io/etcd:3.5.21-0
      command: [etcd, --name, worker-1, --data-dir=/var/lib/etcd]
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kube-multus-ds
  namespace: kube-system
spec:
  selector:
    matchLabels: {app: multus}
  template:
    metadata:
      labels: {app: multus}
    spec:
      hostNetwork: true
      containers:
        - name: kube-multus
          image: ghcr.io/k8snetworkplumbingwg/multus-cni:v4.1.0
          securityContext: {privileged: true}
          volumeMounts:
            - {name: cni, mountPath: /host/etc/cni/net.d}
      volumes:
        - name: cni
          hostPath: {path: /etc/cni/net.d}
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata:
  name: csi.example.com
spec:
  attachRequired: true
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: legacy
provisioner: kubernetes.io/cinder
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
provisioner: csi.example.com
"#;

const NAD: &str = r#"
apiVersion: k8s.cni.cncf.io/v1
kind: NetworkAttachmentDefinition
metadata:
  name: fronthaul
  namespace: ran
spec:
  config: '{"cniVersion": "1.0.0", "name": "fronthaul", "type": "sriov", "vlan": 20}'
"#;

/// Runs the ra2 binary with `args` (and `stdin`), in `dir`: (exit status, stdout, stderr).
fn ra2(dir: &std::path::Path, args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(args)
        .current_dir(dir)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(text.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Findings as (rule/check, kind, namespace, name, message), counted.
fn findings(report: &Value) -> BTreeMap<(String, String, String, String, String), usize> {
    let mut found = BTreeMap::new();
    for f in report["findings"].as_array().unwrap() {
        let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
        let key = (
            format!("{}/{}", s(&f["rule"]), s(&f["check"])),
            s(&f["object"]["kind"]),
            s(&f["object"]["namespace"]),
            s(&f["object"]["name"]),
            s(&f["message"]),
        );
        *found.entry(key).or_default() += 1;
    }
    found
}

#[test]
fn audit_reads_the_cluster_and_matches_lint_of_a_kubectl_dump() {
    let Some(cluster) = Cluster::start_or_skip("audit_e2e") else {
        return;
    };
    let kubectl = |args: &[&str], stdin: Option<&str>| {
        let out = cluster.kubectl(args, stdin);
        assert!(out.success, "kubectl {args:?}: {}{}", out.stdout, out.stderr);
        out.stdout
    };
    kubectl(&["create", "-f", "-"], Some(NAD_CRD));
    kubectl(
        &[
            "wait",
            "--for=condition=established",
            "--timeout=60s",
            "crd/network-attachment-definitions.k8s.cni.cncf.io",
        ],
        None,
    );
    kubectl(&["create", "-f", "-"], Some(CLUSTER));
    kubectl(&["create", "-f", "-"], Some(NAD));
    let dir = cluster.dir();
    let kubelet = dir.join("kubelet.yaml");
    std::fs::write(
        &kubelet,
        "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncpuManagerPolicy: none\n",
    )
    .unwrap();
    let kubeconfig = cluster.kubeconfig();
    let kubeconfig = kubeconfig.to_str().unwrap();
    let kubelet_arg = kubelet.to_str().unwrap();

    let (status, stdout, stderr) = ra2(
        dir,
        &[
            "audit",
            "--kubeconfig",
            kubeconfig,
            "--kubelet-config",
            kubelet_arg,
            "--no-config",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(status, 1, "findings at error: exit 1\n{stderr}");
    let audit: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    assert!(audit["errors"].as_array().unwrap().is_empty(), "{}", audit["errors"]);
    let audited = findings(&audit);
    let fired = |check: &str, name: &str| audited.keys().any(|(c, _, _, n, _)| c == check && n == name);
    for (check, name) in [
        ("ra2.ch.001/node-hugepages", "worker-1"),
        ("ra2.ch.012/node-memory", "worker-1"),
        ("ra2.ch.018/node-nfd-labels", "worker-2"),
        ("ra2.k8s.011/worker-label", "worker-2"),
        ("ra2.k8s.005/node-version", "worker-1"),
        ("ra2.k8s.008/node-reservations", "worker-1"),
        ("ra2.crt.002/node-runtime", "worker-1"),
        ("ra2.k8s.003/control-plane-zone", "worker-2"),
        ("ra2.k8s.002/etcd-on-worker", "etcd-worker-1"),
        ("ra2.k8s.002/etcd-members", "etcd-worker-1"),
        ("ra2.k8s.012/alpha-runtime-config", "kube-apiserver-cp-1"),
        ("ra2.k8s.012/alpha-feature-gate", "kube-controller-manager-cp-1"),
        ("ra2.k8s.012/control-plane-services", "cp-1"),
        ("ra2.k8s.009/kubelet-cpu-manager", ""),
        ("ra2.k8s.008/kubelet-reservations", ""),
        ("ra2.app.007/host-path", "kube-multus-ds"),
        ("ra2.stg.006/provisioner", "legacy"),
    ] {
        assert!(
            fired(check, name),
            "ra2 audit did not report {check} on {name:?}:\n{stdout}"
        );
    }
    // The NetworkAttachmentDefinition was read: the SR-IOV network without a resource name.
    assert!(
        audited.keys().any(|(c, k, _, n, _)| c.starts_with("ra2.ntw.008/")
            && k == "NetworkAttachmentDefinition"
            && n == "fronthaul"),
        "the NetworkAttachmentDefinition was not audited:\n{stdout}"
    );
    // Findings point at the object in the listed text.
    let node_memory = audit["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "ra2.ch.012")
        .unwrap();
    assert!(
        node_memory["file"].as_str().unwrap().ends_with("/api/v1/nodes"),
        "{node_memory}"
    );
    assert!(
        node_memory["pointer"]
            .as_str()
            .unwrap()
            .ends_with("/status/capacity/memory"),
        "{node_memory}"
    );

    // Pages of two objects: more requests with continue tokens, the same findings.
    let (status, stdout, stderr) = ra2(
        dir,
        &[
            "audit",
            "--kubeconfig",
            kubeconfig,
            "--kubelet-config",
            kubelet_arg,
            "--no-config",
            "--format",
            "json",
            "--page-size",
            "2",
        ],
        None,
    );
    assert_eq!(status, 1, "{stderr}");
    let paged: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(findings(&paged), audited, "paged and unpaged audits disagree");
    assert!(
        paged["summary"]["documents"].as_u64() > audit["summary"]["documents"].as_u64(),
        "pages of two objects are more documents: {} vs {}",
        paged["summary"],
        audit["summary"]
    );

    // Every output format of ra2 lint.
    for format in ["text", "jsonl", "sarif", "junit", "github"] {
        let (status, out, err) = ra2(
            dir,
            &["audit", "--kubeconfig", kubeconfig, "--no-config", "--format", format],
            None,
        );
        assert_eq!(status, 1, "{format}: {err}");
        assert!(out.contains("node-memory"), "{format}: {out}");
    }

    // The same objects through kubectl and ra2 lint.
    let dump = kubectl(
        &[
            "get",
            "nodes,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs,network-attachment-definitions,csidrivers,storageclasses",
            "--all-namespaces",
            "-o",
            "yaml",
        ],
        None,
    );
    let (status, stdout, stderr) = ra2(
        dir,
        &["lint", "-", kubelet_arg, "--no-config", "--format", "json"],
        Some(&dump),
    );
    assert_eq!(status, 1, "{stderr}");
    let linted: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        findings(&linted),
        audited,
        "ra2 lint of `kubectl get -o yaml` and ra2 audit disagree"
    );

    // A kubeconfig ra2 cannot use is an error, not an empty report.
    let bad = dir.join("bad-kubeconfig");
    std::fs::write(&bad, "apiVersion: v1\nkind: Config\ncurrent-context: nope\n").unwrap();
    let (status, _, stderr) = ra2(dir, &["audit", "--kubeconfig", bad.to_str().unwrap()], None);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("no context named"), "{stderr}");
}
