//! What the API server refuses (rule `k8s.api` and `refused_by_api_server`), across the catalogue.
//!
//! The documentation must never show users a manifest Kubernetes refuses: every passing example
//! of every rule is checked here for refusals in every edition its rule belongs to. (The
//! differential test against a real kube-apiserver checks the same examples, and ra2's verdicts
//! on them, against the API server itself.)

use ra2_core::catalogue;

#[test]
fn passing_examples_are_objects_the_api_server_accepts() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for doc in catalogue::all() {
        for &edition in doc.editions {
            let config = ra2_core::Config {
                edition,
                ..Default::default()
            };
            for example in doc.examples.passing {
                checked += 1;
                let report = ra2_core::lint_str("example.yaml", example.manifest, &config);
                for f in report.findings.iter().filter(|f| f.refused_by_api_server) {
                    problems.push(format!(
                        "{} [{}] passing example {:?}: {}/{} at line {}: {}",
                        doc.id,
                        edition.as_str(),
                        example.title,
                        f.rule,
                        f.check,
                        f.line,
                        f.message
                    ));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} passing examples found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn refusals_carry_the_flag_and_ra2_findings_are_marked_not_repeated() {
    // A `..` in a subPath: ra2.app.002 (base edition) reports it, so it is marked refused and
    // k8s.api stays silent; in the latest edition (no ra2.app.002) k8s.api reports it.
    let manifest = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: b\nspec:\n  containers:\n  - name: c\n    image: registry.example.com/c:1.0.0\n    volumeMounts:\n    - name: v\n      mountPath: /v\n      subPath: ../etc\n  volumes:\n  - name: v\n    emptyDir: {}\n";
    for (edition, rule, check) in [
        (ra2_core::Edition::Base, "ra2.app.002", "subpath"),
        (ra2_core::Edition::Latest, "k8s.api", "sub-path"),
    ] {
        let config = ra2_core::Config {
            edition,
            ..Default::default()
        };
        let report = ra2_core::lint_str("pod.yaml", manifest, &config);
        let refused: Vec<(&str, &str)> = report
            .findings
            .iter()
            .filter(|f| f.refused_by_api_server)
            .map(|f| (f.rule.as_str(), f.check.as_str()))
            .collect();
        assert_eq!(refused, vec![(rule, check)], "{edition:?}");
        let json = serde_json::to_value(&report).expect("report serializes");
        let flagged = json["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f.get("refused_by_api_server") == Some(&serde_json::Value::Bool(true)))
            .count();
        assert_eq!(flagged, 1);
        let unflagged_have_no_key = json["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f.get("refused_by_api_server").is_none())
            .count();
        assert_eq!(unflagged_have_no_key, report.findings.len() - 1);
    }
}
