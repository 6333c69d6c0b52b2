//! `.ra2.yaml`: validated against the shipped JSON Schema, errors at the offending line, and
//! our schema validator agreeing with a complete JSON Schema implementation.

use ra2_core::config::{Config, SCHEMA};

fn errors(text: &str) -> Vec<String> {
    match Config::from_yaml(text, ".ra2.yaml") {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

const CASES: &[(&str, bool)] = &[
    ("", true),
    ("# just a comment\n", true),
    ("edition: latest\nfail-on: warning\n", true),
    ("select: ra2.app, yaml\n", true),
    (
        "select: [ra2.app.007, ra2.app.009/sriov-resource]\nignore: [ra2.app.001]\n",
        true,
    ),
    (
        "severity: {ra2.app.010: error, ra2.app.009/sriov-resource: info}\n",
        true,
    ),
    ("params:\n  ra2.app.004: {cluster_domain: example.org}\n", true),
    (
        "exemptions:\n- {rule: ra2.app.007, kind: DaemonSet, name: 'node-*', reason: host metrics}\n",
        true,
    ),
    ("default-namespace: core\n", true),
    ("kubernetes-version: \"1.34\"\n", true),
    ("kubernetes-version: 1.34\n", false),
    ("edition: newest\n", false),
    ("fail-on: errors\n", false),
    ("editon: base\n", false),
    ("select: 7\n", false),
    ("severity: {ra2.app.010: fatal}\n", false),
    ("exemptions:\n- {rule: ra2.app.007}\n", false),
    ("exemptions:\n- {rule: ra2.app.007, reason: x, owner: me}\n", false),
    ("params: [a]\n", false),
    ("- a\n- b\n", false),
];

#[test]
fn shipped_schema_and_our_validator_agree() {
    let schema: serde_json::Value = serde_json::from_str(SCHEMA).expect("schema is JSON");
    let full = jsonschema::validator_for(&schema).expect("schema compiles");
    for (text, valid) in CASES {
        let instance = ra2_core::yaml_to_json(text).expect("case is YAML");
        // An empty file means "no settings".
        let instance = if instance.is_null() {
            serde_json::json!({})
        } else {
            instance
        };
        assert_eq!(full.is_valid(&instance), *valid, "jsonschema on {text:?}");
        assert_eq!(errors(text).is_empty(), *valid, "ra2 on {text:?}: {:?}", errors(text));
    }
}

#[test]
fn errors_name_the_line_and_suggest_fixes() {
    let text = "edition: latest\nselect: [ra2.app]\neditoin: base\nseverity:\n  ra2.app.07: error\nparams:\n  ra2.app.004: {cluster_domian: x}\n";
    let errs = errors(text);
    assert_eq!(
        errs,
        vec![".ra2.yaml:3:1: unknown key \"editoin\" (did you mean \"edition\"?)".to_owned(),],
        "schema errors come first; semantic checks run on a schema-valid file"
    );
    let errs =
        errors("severity:\n  ra2.app.07: error\nparams:\n  ra2.app.004: {cluster_domian: x}\n  ra2.app.001: {x: 1}\n");
    assert_eq!(
        errs,
        vec![
            ".ra2.yaml:2:3: unknown rule \"ra2.app.07\" (did you mean \"ra2.app.007\"?)".to_owned(),
            ".ra2.yaml:4:17: unknown parameter \"cluster_domian\" for ra2.app.004 (did you mean \"cluster_domain\"?)"
                .to_owned(),
            ".ra2.yaml:5:17: unknown parameter \"x\" for ra2.app.001 (this rule has no parameters)".to_owned(),
        ]
    );
    let errs = errors("fail-on: sometimes\n");
    assert_eq!(
        errs,
        vec![".ra2.yaml:1:1: \"sometimes\" is not one of \"error\", \"warning\", \"info\", \"never\"".to_owned()]
    );
    let errs = errors("kubernetes-version: \"v1.33\"\n");
    assert_eq!(
        errs,
        vec![".ra2.yaml:1:1: kubernetes-version must be a version like \"1.33\", found \"v1.33\"".to_owned()]
    );
    let errs = errors("edition: [base\n");
    assert_eq!(errs.len(), 1);
    assert!(errs[0].starts_with(".ra2.yaml:2:1: invalid YAML"), "{errs:?}");
}

#[test]
fn settings_take_effect() {
    let config = Config::from_yaml(
        "edition: latest\nignore: [ra2.app.008]\nseverity: {ra2.app.007/host-path: info}\nexemptions:\n- {rule: ra2.app.009, kind: Pod, name: 'dpdk-*', reason: lab}\n",
        ".ra2.yaml",
    )
    .expect("valid");
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: dpdk-1}\nspec:\n  nodeName: cp-1\n  volumes: [{name: h, hostPath: {path: /dev/vfio}}]\n  containers: [{name: a, image: r/a:1}]\n";
    let report = ra2_core::lint_str("p.yaml", text, &config);
    let rules: Vec<(&str, &str, ra2_core::Severity)> = report
        .findings
        .iter()
        .filter(|f| f.rule == "ra2.app.007" || f.rule == "ra2.app.008" || f.rule == "ra2.app.009")
        .map(|f| (f.rule.as_str(), f.check.as_str(), f.severity))
        .collect();
    assert_eq!(rules, vec![("ra2.app.007", "host-path", ra2_core::Severity::Info)]);
    assert!(report.summary.suppressed >= 1, "the exemption suppressed ra2.app.009");
}
