//! The Helm chart in `deploy/ra2`, rendered by the real `helm` (`RA2_HELM`, which
//! `scripts/recipe-tools` builds), passes `helm lint --strict`, passes `ra2 lint --edition
//! latest` with no finding at warning or above (ra2 eats its own cooking), and its objects are
//! accepted by a real API server (server-side dry run, when ra2-testkit has one).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

fn helm() -> Option<String> {
    let found = std::env::var("RA2_HELM").ok().filter(|v| !v.is_empty());
    if found.is_none() {
        eprintln!("SKIPPED: no helm (set RA2_HELM or run scripts/recipe-tools); the chart is untested here");
    }
    found
}

fn chart() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../deploy/ra2")
        .to_string_lossy()
        .into_owned()
}

fn render(helm: &str, sets: &[&str]) -> String {
    let chart = chart();
    let mut args = vec!["template", "r", chart.as_str(), "--namespace", "ra2-system"];
    for set in sets {
        args.extend(["--set", set]);
    }
    let out = Command::new(helm).args(&args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn ra2_lint(rendered: &str) -> (bool, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args([
            "lint",
            "--edition",
            "latest",
            "--fail-on",
            "warning",
            "--format",
            "json",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(rendered.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn the_chart_renders_lints_clean_and_is_accepted_by_a_real_api_server() {
    let Some(helm) = helm() else { return };
    let lint = Command::new(&helm)
        .args(["lint", "--strict", &chart()])
        .output()
        .unwrap();
    assert!(lint.status.success(), "{}", String::from_utf8_lossy(&lint.stdout));

    let variants: [&[&str]; 3] = [
        &[],
        &["certManager.enabled=true"],
        &[
            "certManager.enabled=true",
            "certManager.issuerRef.name=ca",
            "certManager.issuerRef.kind=ClusterIssuer",
        ],
    ];
    for sets in variants {
        let rendered = render(&helm, sets);
        let (ok, report) = ra2_lint(&rendered);
        let loud: Vec<&Value> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| matches!(f["severity"].as_str(), Some("error" | "warning")))
            .collect();
        assert!(ok && loud.is_empty(), "{sets:?}: {loud:#?}");
        assert!(rendered.contains("sideEffects: None"), "{rendered}");
        assert!(rendered.contains("admissionReviewVersions: [v1]"));
        assert!(rendered.contains("failurePolicy: Fail"));
        assert!(
            rendered.contains("- ra2-system\n            - kube-system"),
            "{rendered}"
        );
    }
    let ignore = render(&helm, &["webhook.failurePolicy=Ignore"]);
    assert!(ignore.contains("failurePolicy: Ignore"));

    // The self-signed variant against Kubernetes itself (cert-manager's kinds are not served
    // there): every object passes the API server's validation.
    let Some(cluster) = ra2_testkit::Cluster::start_or_skip("chart dry run") else {
        return;
    };
    cluster.create_namespace("ra2-system");
    let out = cluster.kubectl(&["apply", "--dry-run=server", "-f", "-"], Some(&render(&helm, &[])));
    assert!(out.success, "{}\n{}", out.stdout, out.stderr);
    for kind in [
        "deployment.apps",
        "poddisruptionbudget.policy",
        "validatingwebhookconfiguration.admissionregistration.k8s.io",
        "secret",
        "service",
        "configmap",
    ] {
        assert!(
            out.stdout.contains(&format!("{kind}/r-ra2")),
            "{kind} missing: {}",
            out.stdout
        );
    }
}
