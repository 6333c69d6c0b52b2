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
    (
        "exemptions:\n- {rule: ra2.app.007, template: 'cnf/templates/node-*.yaml', reason: node agent}\n",
        true,
    ),
    ("exemptions:\n- {rule: ra2.app.007, template: 7, reason: x}\n", false),
    ("default-namespace: core\n", true),
    ("strict: true\n", true),
    ("strict: yes\n", true),
    ("strict: \"true\"\n", false),
    ("strict: [schema]\n", false),
    ("kubernetes-version: \"1.34\"\n", true),
    (
        "limits: {max-document-bytes: 1048576, max-depth: 64, max-alias-expansion: 5000}\n",
        true,
    ),
    ("limits: {max-depth: \"64\"}\n", false),
    ("limits: {max-nodes: 5}\n", false),
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
    (
        "workload-kinds:\n- {api-version: apps.kruise.io/v1alpha1, kind: CloneSet, template: spec.template}\n",
        true,
    ),
    (
        "workload-kinds:\n- {api-version: example.com/v1, kind: Cnf, template: spec.pod, resource: cnfs}\n",
        true,
    ),
    ("workload-kinds:\n- {api-version: example.com/v1, kind: Cnf}\n", false),
    (
        "workload-kinds:\n- {api-version: example.com/v1, kind: Cnf, template: spec.t, path: x}\n",
        false,
    ),
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
fn limits_are_settings_with_todays_values_as_defaults() {
    let limits = Config::default().limits;
    assert_eq!(
        (limits.max_document_bytes, limits.max_depth, limits.max_alias_expansion),
        (32 << 20, 256, 1_000_000)
    );
    let config = Config::from_yaml("limits: {max-depth: 3}\n", ".ra2.yaml").expect("valid");
    assert_eq!(config.limits.max_depth, 3);
    assert_eq!(
        config.limits.max_document_bytes,
        32 << 20,
        "unset limits keep their default"
    );
    assert_eq!(
        errors("limits:\n  max-depth: 0\n"),
        vec![".ra2.yaml:2:3: limits.max-depth must be at least 1, found 0".to_owned()]
    );
    // They take effect: a document nested deeper than max-depth is an error of its own.
    let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: {b: {c: {d: x}}}}\n";
    assert!(ra2_core::lint_str("t.yaml", text, &Config::default()).errors.is_empty());
    let report = ra2_core::lint_str("t.yaml", text, &config);
    let codes: Vec<&str> = report.errors.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, ["ra2::parse::too-deep"]);
    let small = Config::from_yaml("limits: {max-document-bytes: 10}\n", ".ra2.yaml").expect("valid");
    let codes: Vec<String> = ra2_core::lint_str("t.yaml", text, &small)
        .errors
        .into_iter()
        .map(|e| e.code)
        .collect();
    assert_eq!(codes, ["ra2::parse::too-large"]);
}

#[test]
fn strict_mode_is_a_setting() {
    assert!(!Config::default().strict, "off by default");
    let config = Config::from_yaml("strict: true\nkubernetes-version: \"1.33\"\n", ".ra2.yaml").expect("valid");
    assert!(config.strict);
    assert_eq!(
        errors("strict: \"true\"\n"),
        vec![".ra2.yaml:1:1: expected boolean, found string".to_owned()]
    );
    assert_eq!(
        errors("strikt: true\n"),
        vec![".ra2.yaml:1:1: unknown key \"strikt\" (did you mean \"strict\"?)".to_owned()]
    );
    // The pseudo-rule and its checks are known to selectors, severities and exemptions.
    let config = Config::from_yaml(
        "strict: true\nselect: [schema, ra2.app.007]\nseverity: {schema/missing-field: warning}\nexemptions:\n- {rule: schema/unknown-field, kind: ConfigMap, reason: vendor fields}\n",
        ".ra2.yaml",
    )
    .expect("valid");
    assert!(config.enabled("schema", "unknown-field"));
    assert_eq!(
        errors("ignore: [schema/unknown]\n"),
        vec![".ra2.yaml:1:10: unknown rule \"schema/unknown\"".to_owned()]
    );
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

/// `workload-kinds`: a custom resource's pod template judged where the entry says, and only with
/// the entry; a kind ra2 knows keeps its own reading; bad entries are errors at their line.
#[test]
fn declared_workload_kinds_are_judged_like_deployments() {
    let config = Config::from_yaml(
        "workload-kinds:\n- {api-version: apps.kruise.io/v1alpha1, kind: CloneSet, template: spec.template}\n- {api-version: argoproj.io/v1alpha1, kind: Rollout, template: spec.other}\n",
        ".ra2.yaml",
    )
    .expect("valid");
    let clone_set = "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: upf, namespace: core}\nspec:\n  replicas: 2\n  template:\n    metadata: {labels: {app: upf}}\n    spec:\n      hostNetwork: true\n      containers:\n        - name: upf\n          image: registry.example.com/upf:1.0\n          securityContext: {privileged: true}\n";
    let findings = |config: &Config, text: &str| -> Vec<(String, usize, String)> {
        ra2_core::lint_str("w.yaml", text, config)
            .findings
            .iter()
            .filter(|f| f.rule.starts_with("ra2.") && f.rule != "ra2.k8s.012")
            .map(|f| (format!("{}/{}", f.rule, f.check), f.line, f.pointer.clone()))
            .collect()
    };
    let declared = findings(&config, clone_set);
    for expected in [
        ("ra2.app.004/host-network", 9, "/spec/template/spec/hostNetwork"),
        (
            "ra2.app.003/privileged",
            13,
            "/spec/template/spec/containers/0/securityContext/privileged",
        ),
    ] {
        let expected = (expected.0.to_owned(), expected.1, expected.2.to_owned());
        assert!(declared.contains(&expected), "{expected:?} in {declared:?}");
    }
    assert!(
        findings(&Config::default(), clone_set).is_empty(),
        "not a workload without the entry"
    );
    // Argo Rollouts' Rollout is known: the entry does not move its template.
    let rollout = clone_set
        .replace("apps.kruise.io/v1alpha1", "argoproj.io/v1alpha1")
        .replace("CloneSet", "Rollout");
    assert_eq!(findings(&config, &rollout), findings(&Config::default(), &rollout));
    assert!(!findings(&config, &rollout).is_empty());

    let errs = errors("workload-kinds:\n- {api-version: v1, kind: Cnf, template: spec..template}\n");
    assert_eq!(
        errs,
        vec![
            ".ra2.yaml:2:4: api-version must be group/version (apps.kruise.io/v1alpha1), found \"v1\"".to_owned(),
            ".ra2.yaml:2:32: template must be keys joined by dots (spec.template), found \"spec..template\"".to_owned(),
        ]
    );
}

/// A Helm stream: two documents from different templates, each with a hostPath volume.
const HELM_STREAM: &str = "---\n# Source: cnf/templates/node-agent.yaml\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: core}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n      volumes: [{name: h, hostPath: {path: /var/log}}]\n      containers: [{name: c, image: r/c:1}]\n---\n# Source: cnf/templates/upf.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: upf\n  namespace: core\n  annotations: {ignore-check.ra2.dev/ra2.app.007: \"pcap to the node, ticket CNF-7\"}\nspec:\n  volumes: [{name: h, hostPath: {path: /srv/pcap}}]\n  containers: [{name: c, image: r/c:1}]\n---\n# Source: cnf/templates/smf.yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: smf, namespace: core}\nspec:\n  volumes: [{name: h, hostPath: {path: /srv/smf}}]\n  containers: [{name: c, image: r/c:1}]\n";

fn host_path_findings(report: &ra2_core::Report) -> Vec<(String, Option<String>)> {
    report
        .findings
        .iter()
        .filter(|f| f.rule == "ra2.app.007")
        .map(|f| (f.object.name.clone().unwrap_or_default(), f.source_template.clone()))
        .collect()
}

#[test]
fn exemptions_match_helm_templates_and_count_by_reason() {
    let config = Config::from_yaml(
        "select: [ra2.app.007, exemption]\nexemptions:\n  - rule: ra2.app.007\n    template: '*/templates/node-*.yaml'\n    reason: node agent reads host logs\n  - rule: ra2.app.007\n    template: other/templates/*\n    reason: stale\n  - rule: ra2.app.007\n    kind: Pod\n    name: smf\n    template: cnf/templates/smf.yaml\n    reason: lab only\n",
        ".ra2.yaml",
    )
    .expect("valid");
    let report = ra2_core::lint_str("rendered.yaml", HELM_STREAM, &config);
    assert_eq!(host_path_findings(&report), [], "all three are suppressed");
    assert_eq!(report.summary.suppressed, 3);
    let by_reason: Vec<(&str, usize)> = report
        .summary
        .suppressed_by_reason
        .iter()
        .map(|(r, n)| (r.as_str(), *n))
        .collect();
    assert_eq!(
        by_reason,
        [
            ("lab only", 1),
            ("node agent reads host logs", 1),
            ("pcap to the node, ticket CNF-7", 1)
        ]
    );
    let unused: Vec<String> = report
        .findings
        .iter()
        .filter(|f| f.rule == "exemption")
        .map(|f| {
            format!(
                "{}:{}:{} {} {} {}",
                f.file, f.line, f.column, f.severity, f.pointer, f.message
            )
        })
        .collect();
    assert_eq!(
        unused,
        [".ra2.yaml:6:5 info /exemptions/1 exemption for ra2.app.007 (template other/templates/*) matched no finding"]
    );
    let json = report.to_json_value();
    assert_eq!(json["summary"]["suppressed"], 3, "the total stays a number");
    assert_eq!(json["summary"]["suppressed_by_reason"]["lab only"], 1);
}

#[test]
fn a_template_pattern_never_matches_documents_without_a_source() {
    let config = Config::from_yaml(
        "exemptions:\n- {rule: ra2.app.007, template: '*', reason: everything rendered}\n",
        ".ra2.yaml",
    )
    .expect("valid");
    let plain = HELM_STREAM.replace("# Source: ", "# from ");
    let report = ra2_core::lint_str("plain.yaml", &plain, &config);
    assert_eq!(
        host_path_findings(&report),
        [("agent".to_owned(), None), ("smf".to_owned(), None)]
    );
    let rendered = ra2_core::lint_str("rendered.yaml", HELM_STREAM, &config);
    assert_eq!(host_path_findings(&rendered), []);
}

#[test]
fn exemptions_of_rules_that_did_not_run_are_not_stale() {
    let config = Config::from_yaml(
        "exemptions:\n- {rule: ra2.app.007, name: nothing, reason: x}\n- {rule: ra2.app.009, name: nothing, reason: later}\n",
        ".ra2.yaml",
    )
    .expect("valid");
    let report = ra2_core::lint_str(
        "p.yaml",
        HELM_STREAM,
        &Config {
            ignore: vec!["ra2.app.009".to_owned()],
            ..config.clone()
        },
    );
    let unused: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.rule == "exemption")
        .map(|f| f.pointer.as_str())
        .collect();
    assert_eq!(unused, ["/exemptions/0"]);
    let quiet = ra2_core::Linter::new(&config).with_unused_exemptions(false);
    let mut quiet = quiet;
    quiet.add_file("p.yaml", HELM_STREAM);
    assert!(quiet.finish().findings.iter().all(|f| f.rule != "exemption"));
}

#[test]
fn helm_sources_and_test_hooks_are_reported() {
    let text = format!(
        "{HELM_STREAM}---\n# Source: cnf/templates/tests/test-pfcp.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: test-pfcp\n  annotations: {{helm.sh/hook: \"test-success, test\"}}\nspec:\n  volumes: [{{name: h, hostPath: {{path: /x}}}}]\n  containers: [{{name: c, image: r/c:1}}]\n"
    );
    let report = ra2_core::lint_str("rendered.yaml", &text, &Config::default());
    assert_eq!(
        host_path_findings(&report),
        [
            ("agent".to_owned(), Some("cnf/templates/node-agent.yaml".to_owned())),
            ("smf".to_owned(), Some("cnf/templates/smf.yaml".to_owned())),
            (
                "test-pfcp".to_owned(),
                Some("cnf/templates/tests/test-pfcp.yaml".to_owned())
            ),
        ],
        "a test hook is linted like any workload"
    );
    let hooks: Vec<(Option<&str>, Option<&str>)> = report
        .objects
        .iter()
        .map(|o| (o.name.as_deref(), o.hook.as_deref()))
        .collect();
    assert_eq!(
        hooks,
        [
            (Some("agent"), None),
            (Some("upf"), None),
            (Some("smf"), None),
            (Some("test-pfcp"), Some("test"))
        ]
    );
    let json = report.to_json_value();
    assert_eq!(json["objects"][3]["hook"], "test");
    assert_eq!(
        json["objects"][3]["source_template"],
        "cnf/templates/tests/test-pfcp.yaml"
    );
    assert!(json["objects"][0].get("hook").is_none());
}
