//! What kubectl (its default strict field validation) makes of the spelling of a manifest that
//! the API server never sees as written: duplicate keys in YAML and JSON, and whole numbers
//! written as floats (`1.0`, `1e0`) in integer fields of YAML and JSON. kubectl decodes the
//! text (the last of duplicate keys wins; whole floats become integers) and sends the object
//! re-encoded, so it accepts them, with no warning; a fraction is refused. ra2 marks a finding
//! `refused_by_api_server` exactly when `kubectl create` and `kubectl apply --server-side`
//! (`--dry-run=server`) refuse the text; a duplicate key stays a `yaml/duplicate-key` error
//! (the file says two things) that the API server does not refuse. Run against the real kubectl and kube-apiserver
//! (`scripts/apiserver-tools`).

use ra2_testkit::Cluster;

const DEPLOYMENT_YAML: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: NAME
spec:
  replicas: REPLICAS
  selector:
    matchLabels: {app: a}
  template:
    metadata:
      labels: {app: a}
    spec:
      containers:
        - name: a
          image: registry.example.com/a:1.0EXTRA
";

fn yaml(name: &str, replicas: &str, extra: &str) -> String {
    DEPLOYMENT_YAML
        .replace("NAME", name)
        .replace("REPLICAS", replicas)
        .replace("EXTRA", extra)
}

fn json(name: &str, replicas: &str, extra: &str) -> String {
    format!(
        r#"{{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {{"name": "{name}"}},
  "spec": {{"replicas": {replicas}, "selector": {{"matchLabels": {{"app": "a"}}}},
    "template": {{"metadata": {{"labels": {{"app": "a"}}}},
      "spec": {{"containers": [{{"name": "a", "image": "registry.example.com/a:1.0"{extra}}}]}}}}}}}}
"#
    )
}

#[test]
fn differential_kubectl_decoding_as_ra2_predicts() {
    let Some(cluster) = Cluster::start_or_skip("differential_kubectl_decoding_as_ra2_predicts") else {
        return;
    };
    let cases: Vec<(&str, String)> = vec![
        ("yaml-plain", yaml("yaml-plain", "1", "")),
        ("yaml-float-one", yaml("yaml-float-one", "1.0", "")),
        ("yaml-float-exp", yaml("yaml-float-exp", "1e0", "")),
        ("yaml-fraction", yaml("yaml-fraction", "1.5", "")),
        (
            "yaml-duplicate",
            yaml("yaml-duplicate", "1", "\n          image: registry.example.com/a:2.0"),
        ),
        (
            "yaml-duplicate-same",
            yaml(
                "yaml-duplicate-same",
                "1",
                "\n          image: registry.example.com/a:1.0",
            ),
        ),
        ("json-plain", json("json-plain", "1", "")),
        ("json-float-one", json("json-float-one", "1.0", "")),
        ("json-float-exp", json("json-float-exp", "1e0", "")),
        ("json-fraction", json("json-fraction", "1.5", "")),
        (
            "json-duplicate",
            json("json-duplicate", "1", r#", "image": "registry.example.com/a:2.0""#),
        ),
    ];
    let mut refusals = 0;
    for (name, text) in &cases {
        let report = ra2_core::lint_str(
            &format!("{name}.{}", if text.starts_with('{') { "json" } else { "yaml" }),
            text,
            &ra2_core::Config::default(),
        );
        let predicted: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.refused_by_api_server)
            .map(|f| format!("{}/{}", f.rule, f.check))
            .collect();
        // Client-side create and server-side apply: both decode the text and send what they
        // decoded, re-encoded.
        for args in [
            &["create", "--dry-run=server", "-f", "-", "-o", "name"][..],
            &["apply", "--server-side", "--dry-run=server", "-f", "-", "-o", "name"][..],
        ] {
            let out = cluster.kubectl(args, Some(text));
            refusals += usize::from(!out.success);
            assert_eq!(
                !out.success,
                !predicted.is_empty(),
                "{name} (kubectl {}): kubectl {}, ra2 predicts {predicted:?}\n{}{}",
                args[0],
                if out.success { "accepts" } else { "refuses" },
                out.stdout,
                out.stderr
            );
            // Accepted without a warning either (a duplicate field would be one).
            if out.success {
                assert!(!out.stderr.contains("Warning"), "{name}: {}", out.stderr);
            }
        }
        // The duplicate key is still reported, as a mistake in the file, not as a refusal.
        if name.contains("duplicate") {
            assert!(
                report
                    .findings
                    .iter()
                    .any(|f| f.check == "duplicate-key" && !f.refused_by_api_server),
                "{name}"
            );
        }
    }
    eprintln!(
        "kubectl decoding: {} manifests, 2 clients each, {refusals} refusals, all predicted",
        cases.len()
    );
}
