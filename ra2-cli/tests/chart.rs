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

/// The chart's policies (`enforcement: policies`) are `ra2 export vap` of this build with the
/// default settings, never edited by hand: `scripts/chart-policies` writes them.
#[test]
fn the_charts_policies_are_this_builds_export() {
    let empty = std::env::temp_dir().join(format!("ra2-chart-policies-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    for edition in ["base", "latest"] {
        let out = Command::new(env!("CARGO_BIN_EXE_ra2"))
            .args(["export", "vap", "--edition", edition])
            .current_dir(&empty)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let shipped = std::fs::read_to_string(Path::new(&chart()).join(format!("policies/{edition}.yaml"))).unwrap();
        assert!(
            shipped == String::from_utf8_lossy(&out.stdout),
            "deploy/ra2/policies/{edition}.yaml is not this build's `ra2 export vap`: run scripts/chart-policies"
        );
    }
    let _ = std::fs::remove_dir_all(&empty);
}

/// `enforcement: policies` installs the policies instead of the webhook (`both`: beside it),
/// `policies.action: warn` makes them warn only, settings the shipped policies do not express
/// are refused, and the API server accepts the policies.
#[test]
fn the_chart_installs_policies_instead_of_or_beside_the_webhook() {
    let Some(helm) = helm() else { return };
    let kinds = |rendered: &str| -> Vec<String> {
        let mut kinds: Vec<String> = rendered
            .lines()
            .filter_map(|l| l.strip_prefix("kind: "))
            .map(|k| k.trim_matches('"').to_owned())
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
    };
    let policies = render(&helm, &["enforcement=policies"]);
    assert_eq!(
        kinds(&policies),
        ["ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"]
    );
    assert!(policies.contains("ra2.dev/edition: \"latest\""), "the chart's edition");
    assert!(policies.contains("- \"Deny\""));
    let both = render(&helm, &["enforcement=both"]);
    assert!(
        kinds(&both).contains(&"Deployment".to_owned())
            && kinds(&both).contains(&"ValidatingAdmissionPolicy".to_owned())
    );
    assert!(!kinds(&render(&helm, &[])).contains(&"ValidatingAdmissionPolicy".to_owned()));
    let warn = render(&helm, &["enforcement=policies", "policies.action=warn"]);
    assert!(!warn.contains("Deny") && warn.contains("- \"Audit\""), "{warn}");
    let refused = Command::new(&helm)
        .args([
            "template",
            "r",
            &chart(),
            "--set",
            "enforcement=policies",
            "--set",
            "settings.fail-on=warning",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("ra2 export vap --config"));

    // A kind settings.workload-kinds declares is sent to the webhook too.
    let declared = render(
        &helm,
        &[
            "settings.workload-kinds[0].api-version=apps.kruise.io/v1alpha1,settings.workload-kinds[0].kind=CloneSet,settings.workload-kinds[0].template=spec.template",
        ],
    );
    assert!(
        declared.contains(
            "- apiGroups: [\"apps.kruise.io\"]\n        apiVersions: [\"v1alpha1\"]\n        resources: [\"clonesets\"]"
        ),
        "{declared}"
    );

    let Some(cluster) = ra2_testkit::Cluster::start_or_skip("chart policies dry run") else {
        return;
    };
    cluster.create_namespace("ra2-system");
    let out = cluster.kubectl(&["apply", "--dry-run=server", "-f", "-"], Some(&policies));
    assert!(out.success, "{}\n{}", out.stdout, out.stderr);
    assert_eq!(
        out.stdout.matches("validatingadmissionpolicy").count(),
        26,
        "{}",
        out.stdout
    );
}
