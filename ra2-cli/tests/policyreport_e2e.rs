//! `--format policyreport` and `--format openreports` against a real kube-apiserver
//! (ra2-testkit): the CRDs ra2 ships (`deploy/crds/`) are created, then what `ra2 lint` and
//! `ra2 audit` write in each API is created with
//! kubectl and strict field validation (the API server refuses any field the CRD does not
//! know), read back, and compared with the JSON report of the same run: one result per
//! finding, on the right object, in the right report.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use ra2_testkit::Cluster;
use serde_json::Value;

/// A fixed time for every result, so the reports of one run can be compared.
const EPOCH: &str = "1700000000";

/// Runs the ra2 binary in `dir`: (exit status, stdout, stderr).
fn ra2(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

type Key = (String, String, String, String, String);

/// The JSON report's findings as (rule/check, kind, namespace, name, pointer), counted.
fn json_findings(report: &Value) -> BTreeMap<Key, usize> {
    let mut found = BTreeMap::new();
    for f in report["findings"].as_array().unwrap() {
        let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
        let key = (
            format!("{}/{}", s(&f["rule"]), s(&f["check"])),
            s(&f["object"]["kind"]),
            s(&f["object"]["namespace"]),
            s(&f["object"]["name"]),
            s(&f["pointer"]),
        );
        *found.entry(key).or_default() += 1;
    }
    found
}

/// The results of the reports read back, keyed as [`json_findings`] (errors left out), after
/// checking each report's summary against its results.
fn report_results(list: &Value, api: &Api) -> (BTreeMap<Key, usize>, usize) {
    let mut found = BTreeMap::new();
    let mut errors = 0;
    for report in list["items"].as_array().unwrap() {
        if api.format == "openreports" {
            assert_eq!(report["source"], "ra2", "OpenReports name the engine on the report");
        }
        let results = report["results"].as_array().cloned().unwrap_or_default();
        for outcome in ["pass", "fail", "warn", "error", "skip"] {
            let n = results.iter().filter(|r| r["result"] == outcome).count();
            assert_eq!(
                report["summary"][outcome].as_u64(),
                Some(n as u64),
                "summary.{outcome} of {}",
                report["metadata"]
            );
        }
        for r in &results {
            assert_eq!(r["source"], "ra2");
            assert_eq!(r["timestamp"]["seconds"].to_string(), EPOCH);
            if r["result"] == "error" {
                errors += 1;
                continue;
            }
            let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            let subject = &r["resources"][0];
            if report["kind"] == api.namespaced && subject["namespace"].is_string() {
                assert_eq!(subject["namespace"], report["metadata"]["namespace"], "{r}");
            }
            let key = (
                format!("{}/{}", s(&r["policy"]), s(&r["rule"])),
                s(&subject["kind"]),
                s(&subject["namespace"]),
                s(&subject["name"]),
                s(&r["properties"]["pointer"]),
            );
            *found.entry(key).or_default() += 1;
        }
    }
    (found, errors)
}

/// One report API: the `--format` that writes it, its resources for `kubectl get`, its kinds.
struct Api {
    format: &'static str,
    resources: &'static str,
    crds: [&'static str; 2],
    namespaced: &'static str,
    cluster: &'static str,
}

const APIS: [Api; 2] = [
    Api {
        format: "policyreport",
        resources: "policyreports,clusterpolicyreports",
        crds: [
            "crd/policyreports.wgpolicyk8s.io",
            "crd/clusterpolicyreports.wgpolicyk8s.io",
        ],
        namespaced: "PolicyReport",
        cluster: "ClusterPolicyReport",
    },
    Api {
        format: "openreports",
        resources: "reports.openreports.io,clusterreports.openreports.io",
        crds: ["crd/reports.openreports.io", "crd/clusterreports.openreports.io"],
        namespaced: "Report",
        cluster: "ClusterReport",
    },
];

#[test]
fn policy_reports_are_accepted_by_the_api_server_and_read_back() {
    let Some(cluster) = Cluster::start_or_skip("policyreport_e2e") else {
        return;
    };
    let kubectl = |args: &[&str], stdin: Option<&str>| {
        let out = cluster.kubectl(args, stdin);
        assert!(out.success, "kubectl {args:?}: {}{}", out.stdout, out.stderr);
        out.stdout
    };
    let crds = ra2_testkit::workspace_root().join("deploy").join("crds");
    kubectl(&["create", "-f", crds.to_str().unwrap()], None);
    let established: Vec<&str> = ["wait", "--for=condition=established", "--timeout=60s"]
        .into_iter()
        .chain(APIS.iter().flat_map(|api| api.crds))
        .collect();
    kubectl(&established, None);
    kubectl(&["create", "namespace", "core"], None);
    kubectl(
        &["create", "-f", "-"],
        Some(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: logger, namespace: core}\nspec:\n  volumes: [{name: logs, hostPath: {path: /var/log}}]\n  containers: [{name: c, image: registry.example.com/logger:1.0}]\n",
        ),
    );
    let uid = kubectl(
        &["get", "pod", "logger", "-n", "core", "-o", "jsonpath={.metadata.uid}"],
        None,
    );
    assert!(!uid.is_empty());
    for api in &APIS {
        round_trip(&cluster, api, &uid);
    }
}

/// What `ra2 lint` and `ra2 audit` write in one report API, created in the API server and read
/// back.
fn round_trip(cluster: &Cluster, api: &Api, uid: &str) {
    let kubectl = |args: &[&str], stdin: Option<&str>| {
        let out = cluster.kubectl(args, stdin);
        assert!(out.success, "kubectl {args:?}: {}{}", out.stdout, out.stderr);
        out.stdout
    };
    let managed = ["--all-namespaces", "-l", "app.kubernetes.io/managed-by=ra2"];
    let read_back = || -> Value {
        let text = kubectl(&[&["get", api.resources][..], &managed, &["-o", "json"]].concat(), None);
        serde_json::from_str(&text).unwrap()
    };

    // 1. Manifests on disk: namespaced objects, a PersistentVolume, a document that cannot
    //    be read, every rule.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("data");
    let lint = |format: &str| ra2(&data, &["lint", "manifests", "--no-config", "--format", format]);
    let (json_status, json, _) = lint("json");
    let (status, yaml, stderr) = lint(api.format);
    assert_eq!(status, json_status, "the same exit status as any format\n{stderr}");
    assert_eq!(lint(api.format).1, yaml, "deterministic");
    kubectl(&["create", "--validate=strict", "-f", "-"], Some(&yaml));
    let reports = read_back();
    let kinds: Vec<(String, String, String)> = reports["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            (s(&r["kind"]), s(&r["metadata"]["namespace"]), s(&r["metadata"]["name"]))
        })
        .collect();
    for expected in [
        (api.namespaced, "core", "ra2"),
        (api.namespaced, "default", "ra2-no-namespace"),
        (api.cluster, "", "ra2"),
    ] {
        let expected = (expected.0.to_owned(), expected.1.to_owned(), expected.2.to_owned());
        assert!(kinds.contains(&expected), "{expected:?} not in {kinds:?}");
    }
    let json: Value = serde_json::from_str(&json).unwrap();
    let (results, errors) = report_results(&reports, api);
    assert_eq!(results, json_findings(&json), "one result per finding");
    assert_eq!(errors, json["errors"].as_array().unwrap().len());
    assert!(
        results.keys().any(|(_, kind, ..)| kind == "PersistentVolume"),
        "the cluster-scoped finding is in the {}",
        api.cluster
    );

    // 2. `ra2 audit`: the objects as the API server lists them, with their uids; applied
    //    server-side, as the README shows, twice (a second run replaces the first).
    kubectl(&[&["delete", api.resources][..], &managed].concat(), None);
    let kubeconfig = cluster.kubeconfig();
    let audit = |format: &str| {
        ra2(
            cluster.dir(),
            &[
                "audit",
                "--kubeconfig",
                kubeconfig.to_str().unwrap(),
                "--no-config",
                "--format",
                format,
            ],
        )
    };
    let (_, json, stderr) = audit("json");
    let json: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{stderr}"));
    for _ in 0..2 {
        let (_, yaml, stderr) = audit(api.format);
        assert!(
            yaml.contains(&format!("kind: \"{}\"", api.namespaced)),
            "{yaml}\n{stderr}"
        );
        kubectl(&["apply", "--server-side", "--validate=strict", "-f", "-"], Some(&yaml));
    }
    let reports = read_back();
    let (results, _) = report_results(&reports, api);
    assert_eq!(results, json_findings(&json), "one result per finding");
    let host_path: Vec<Value> = reports["items"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["results"].as_array().cloned().unwrap_or_default())
        .filter(|r| r["policy"] == "ra2.app.007" && r["resources"][0]["name"] == "logger")
        .collect();
    assert_eq!(host_path.len(), 1, "{reports}");
    assert_eq!(host_path[0]["resources"][0]["uid"], uid, "the uid from the API server");
    assert_eq!(host_path[0]["resources"][0]["namespace"], "core");
    kubectl(&[&["delete", api.resources][..], &managed].concat(), None);
}
