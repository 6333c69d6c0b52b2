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
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ceph
provisioner: rbd.csi.ceph.com
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: fec
  namespace: ran
spec:
  selector:
    matchLabels: {app: fec}
  template:
    metadata:
      labels: {app: fec}
    spec:
      containers:
        - name: fec
          image: registry.example.com/ran/fec:1.0.0
          resources:
            limits: {cpu: "1", memory: 1Gi, example.com/fpga: "1"}
"#;

/// An exec credential plugin, as kubectl runs them: it checks what client-go gives a plugin
/// (its args, its env, KUBERNETES_EXEC_INFO with interactive false, no standard input under
/// interactiveMode Never) and prints an ExecCredential with the token.
const EXEC_PLUGIN: &str = r#"#!/bin/sh
[ "$1" = "--audience" ] && [ "$2" = "ra2" ] || { echo "plugin: unexpected args: $*" >&2; exit 3; }
[ -n "$RA2_PLUGIN_TOKEN" ] || { echo "plugin: exec env not set" >&2; exit 4; }
case "$KUBERNETES_EXEC_INFO" in
  *'"interactive":false'*) ;;
  *) echo "plugin: KUBERNETES_EXEC_INFO is $KUBERNETES_EXEC_INFO" >&2; exit 5 ;;
esac
if read -r line; then echo "plugin: standard input is open" >&2; exit 6; fi
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}\n' "$RA2_PLUGIN_TOKEN"
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
    ra2_env(dir, args, stdin, &[])
}

/// [`ra2`] with environment variables set (and KUBECONFIG removed unless set here).
fn ra2_env(dir: &std::path::Path, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(args)
        .env_remove("KUBECONFIG")
        .envs(env.iter().copied())
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
// One cluster set up once, then every way of reading it compared: splitting it would start the
// API server again per part.
#[allow(clippy::too_many_lines)]
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
        ("ra2.stg.006/unregistered-driver", "ceph"),
        ("ra2.ntw.012/no-device-plugin", "fec"),
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

    // KUBECONFIG with two files, merged as kubectl merges them: the cluster and the context in
    // one, the user in the other, authenticated by an exec plugin (a script, named relative to
    // its kubeconfig file) that prints the token.
    let admin = std::fs::read_to_string(cluster.kubeconfig()).unwrap();
    let field = |name: &str| {
        admin
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .unwrap_or_else(|| panic!("{name} in {admin}"))
            .to_owned()
    };
    let (server, token) = (field("server: "), field("token: "));
    let plugins = dir.join("plugins");
    std::fs::create_dir_all(plugins.join("bin")).unwrap();
    let plugin = plugins.join("bin").join("token.sh");
    std::fs::write(&plugin, EXEC_PLUGIN).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let first = dir.join("cluster.kubeconfig");
    std::fs::write(
        &first,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: audit\nclusters:\n- name: testkit\n  cluster:\n    server: {server}\n    certificate-authority: {}\ncontexts:\n- name: audit\n  context: {{cluster: testkit, user: plugin-user}}\n",
            cluster.ca_file().display()
        ),
    )
    .unwrap();
    let second = plugins.join("user.kubeconfig");
    std::fs::write(
        &second,
        format!("apiVersion: v1\nkind: Config\ncurrent-context: elsewhere\nusers:\n- name: plugin-user\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ./bin/token.sh\n      args: [--audience, ra2]\n      env:\n      - {{name: RA2_PLUGIN_TOKEN, value: {token}}}\n      interactiveMode: Never\n"),
    )
    .unwrap();
    let list = std::env::join_paths([first.as_path(), dir.join("missing").as_path(), second.as_path()]).unwrap();
    let list = list.to_str().unwrap();
    let (status, stdout, stderr) = ra2_env(
        dir,
        &[
            "audit",
            "--kubelet-config",
            kubelet_arg,
            "--no-config",
            "--format",
            "json",
        ],
        None,
        &[("KUBECONFIG", list)],
    );
    assert_eq!(status, 1, "{stderr}");
    let merged: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    assert_eq!(
        findings(&merged),
        audited,
        "the merged kubeconfig with the exec plugin reads another cluster"
    );
    // The plugin's token is what authenticates: a wrong one is refused by the API server.
    let (status, _, stderr) = ra2_env(
        dir,
        &["audit", "--no-config"],
        None,
        &[("KUBECONFIG", list), ("RA2_PLUGIN_TOKEN", "ignored: exec env wins")],
    );
    assert_eq!(status, 1, "exec env overrides the process env: {stderr}");
    std::fs::write(&plugin, EXEC_PLUGIN.replace("\"$RA2_PLUGIN_TOKEN\"", "\"wrong-token\"")).unwrap();
    let (status, _, stderr) = ra2_env(dir, &["audit", "--no-config"], None, &[("KUBECONFIG", list)]);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("401"), "{stderr}");
    std::fs::write(&plugin, "#!/bin/sh\necho 'plugin: no credentials here' >&2\nexit 7\n").unwrap();
    let (status, _, stderr) = ra2_env(dir, &["audit", "--no-config"], None, &[("KUBECONFIG", list)]);
    assert_eq!(status, 2, "{stderr}");
    assert!(
        stderr.contains("no credentials here") && stderr.contains("failed"),
        "{stderr}"
    );

    // --configz: the testkit has no kubelet behind its Nodes, so the node proxy cannot reach
    // one; each node is noted and the audit is otherwise the same.
    let (status, stdout, stderr) = ra2(
        dir,
        &[
            "audit",
            "--kubeconfig",
            kubeconfig,
            "--kubelet-config",
            kubelet_arg,
            "--configz",
            "--no-config",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("note: configz of node cp-1"), "{stderr}");
    let with_configz: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(findings(&with_configz), audited);

    // A kubeconfig ra2 cannot use is an error, not an empty report.
    let bad = dir.join("bad-kubeconfig");
    std::fs::write(&bad, "apiVersion: v1\nkind: Config\ncurrent-context: nope\n").unwrap();
    let (status, _, stderr) = ra2(dir, &["audit", "--kubeconfig", bad.to_str().unwrap()], None);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("no context named"), "{stderr}");
}
