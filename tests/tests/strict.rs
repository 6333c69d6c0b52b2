//! Strict mode (`ra2 lint --strict`, config `strict: true`): objects checked against the
//! Kubernetes OpenAPI schema of their kind. Unknown fields and values of the wrong type are
//! `k8s.api` findings of every run (from tables generated from the same schemas), so the
//! fixture's `# expect:` markers must match the `schema` and `k8s.api` findings of a strict run
//! exactly, and a default run must report the same `k8s.api` findings; messages read as
//! documented, custom resources are skipped and counted, NetworkAttachmentDefinitions are left
//! to their own rules, and over the real-world corpus the findings are counted per kind and
//! sampled with their source lines.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use ra2_core::{Config, Linter, Report};
use ra2_tests::{Fixture, only_rule, render_text, root};

const FILE: &str = "strict/manifests.yaml";

fn fixture() -> Fixture {
    Fixture::load(&root().join("tests").join("strict").join("manifests.yaml"))
}

fn lint_strict(file: &str, text: &str, config: &Config) -> Report {
    let mut linter = Linter::new(config).with_object_hook(Box::new(ra2_strict::Strict::new()));
    linter.add_file(file, text);
    linter.finish()
}

fn schema_findings(report: &Report) -> Vec<(usize, usize, String, String)> {
    report
        .findings
        .iter()
        .filter(|f| f.rule == "schema")
        .map(|f| (f.line, f.column, f.check.clone(), f.message.clone()))
        .collect()
}

/// The `k8s.api` findings of a report, as (line, column, check, message).
fn api_findings(report: &Report) -> Vec<(usize, usize, String, String)> {
    report
        .findings
        .iter()
        .filter(|f| f.rule == "k8s.api")
        .map(|f| (f.line, f.column, f.check.clone(), f.message.clone()))
        .collect()
}

#[test]
fn findings_match_the_markers_exactly() {
    let fixture = fixture();
    let report = lint_strict(FILE, &fixture.text, &fixture.config);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let actual: BTreeSet<(usize, String)> = report
        .findings
        .iter()
        .filter(|f| f.rule == "schema" || f.rule == "k8s.api")
        .map(|f| (f.line, format!("{}/{}", f.rule, f.check)))
        .collect();
    let expected: BTreeSet<(usize, String)> = fixture
        .expected
        .iter()
        .filter(|(_, rule, _)| rule == "schema" || rule == "k8s.api")
        .map(|(line, rule, check)| {
            (
                *line,
                format!("{rule}/{}", check.clone().expect("markers name the check")),
            )
        })
        .collect();
    assert_eq!(actual, expected);
    // A default run predicts the same refusals: strict mode adds only schema findings.
    let default = ra2_core::lint_str(FILE, &fixture.text, &fixture.config);
    assert_eq!(api_findings(&default), api_findings(&report));
    assert!(
        report
            .findings
            .iter()
            .filter(|f| f.rule == "k8s.api")
            .all(|f| f.refused_by_api_server),
        "decoding refusals are marked refused"
    );
    for f in report
        .findings
        .iter()
        .filter(|f| f.rule == "schema" || f.rule == "k8s.api")
    {
        assert_eq!(f.severity, ra2_core::Severity::Error);
        assert!(!f.message.starts_with(char::is_uppercase), "{}", f.message);
        assert!(!f.message.ends_with('.'), "{}", f.message);
        assert!(f.help.ends_with('.'), "{}", f.help);
    }
    assert!(
        !report.findings.iter().any(|f| f.rule == "suppression"),
        "ignore-check.ra2.dev/k8s.api names a known rule"
    );
    assert_eq!(
        report
            .summary
            .suppressed_by_reason
            .get("vendor tooling reads the extra field, ticket CNF-12"),
        Some(&1),
        "the annotation suppresses the ConfigMap's unknown field"
    );
}

#[test]
fn messages_name_the_field_the_place_and_the_fix() {
    let fixture = fixture();
    let report = lint_strict(FILE, &fixture.text, &fixture.config);
    let find = |line: usize| {
        report
            .findings
            .iter()
            .find(|f| (f.rule == "schema" || f.rule == "k8s.api") && f.line == line)
            .unwrap_or_else(|| panic!("a finding at line {line}"))
    };
    let line_of = |needle: &str| {
        fixture
            .text
            .lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
            .expect("needle in fixture")
    };
    let hostpath = find(line_of("hostpath:"));
    assert_eq!(
        hostpath.message,
        "unknown field \"spec.template.spec.volumes[0].hostpath\" in Volume (did you mean \"hostPath\"?)"
    );
    assert_eq!(hostpath.column, 9, "reported at the key");
    assert_eq!(hostpath.pointer, "/spec/template/spec/volumes/0/hostpath");
    assert!(
        hostpath.help.starts_with("Rename it to \"hostPath\"."),
        "{}",
        hostpath.help
    );

    let case = find(line_of("HostNetwork"));
    assert_eq!(
        case.message,
        "unknown field \"spec.template.spec.HostNetwork\" in PodSpec (did you mean \"hostNetwork\"?)"
    );

    let port = find(line_of("targetPort: 3642100000"));
    assert_eq!(
        port.message,
        "spec.ports[0].targetPort: Invalid type: must be a 32-bit integer or a string, found integer 3642100000"
    );

    let replicas = find(line_of("replicas: \"3\""));
    assert_eq!(
        replicas.message,
        "spec.replicas: Invalid type: must be a 32-bit integer (from -2147483648 to 2147483647), found string \"3\""
    );
    assert_eq!(
        replicas.help,
        "Write 3 without quotes: the API server does not convert a string to a number, and refuses the object."
    );

    let host_network = find(line_of("hostNetwork: \"true\""));
    assert_eq!(
        host_network.message,
        "spec.hostNetwork: Invalid type: must be a boolean, found string \"true\""
    );

    let env = find(line_of("DEBUG"));
    assert_eq!(
        env.message,
        "spec.template.spec.containers[0].env[1].value: Invalid type: must be a string, found boolean true"
    );
    assert!(env.help.starts_with("Quote the value (\"true\")"), "{}", env.help);

    let nested = find(line_of("imagePullPolicyy"));
    assert_eq!(
        nested.message,
        "unknown field \"spec.jobTemplate.spec.template.spec.containers[0].imagePullPolicyy\" in Container (did you mean \"imagePullPolicy\"?)"
    );

    let misspelt = find(line_of("containres"));
    assert_eq!(
        misspelt.message,
        "unknown field \"spec.containres\" in PodSpec (did you mean \"containers\"?)"
    );
    assert!(
        !report
            .findings
            .iter()
            .any(|f| f.rule == "schema" && f.message.contains("missing required field \"containers\"")),
        "a misspelt required field is reported once, as the unknown field"
    );

    let missing = report
        .findings
        .iter()
        .find(|f| f.rule == "schema")
        .expect("a schema finding");
    assert_eq!(missing.line, line_of("spec: # expect: schema/missing-field"));
    assert_eq!(
        missing.message,
        "missing required field \"selector\" in StatefulSet spec"
    );

    let listed = find(line_of("automountServiceAcountToken"));
    assert_eq!(listed.pointer, "/items/0/automountServiceAcountToken");
    assert_eq!(
        listed.message,
        "unknown field \"items[0].automountServiceAcountToken\" in ServiceAccount (did you mean \"automountServiceAccountToken\"?)"
    );

    let crd = find(line_of("descripton"));
    assert!(
        crd.message
            .ends_with("in JSONSchemaProps (did you mean \"description\"?)"),
        "inside a CRD's openAPIV3Schema: {}",
        crd.message
    );
}

#[test]
fn custom_resources_are_skipped_and_counted_and_nads_left_alone() {
    let fixture = fixture();
    let report = lint_strict(FILE, &fixture.text, &fixture.config);
    assert_eq!(report.summary.strict_skipped, Some(1));
    assert_eq!(
        report.summary.strict_skipped_kinds,
        BTreeMap::from([("example.com/v1 Widget".to_owned(), 1)])
    );
    assert!(
        !report
            .findings
            .iter()
            .any(|f| (f.rule == "schema" || f.rule == "k8s.api")
                && matches!(f.object.kind.as_deref(), Some("NetworkAttachmentDefinition" | "Widget"))),
        "NetworkAttachmentDefinitions are judged by ra2.ntw.006/016, not by strict mode"
    );
    let json = report.to_json_value();
    assert_eq!(json["summary"]["strict_skipped"], 1);
    assert_eq!(json["summary"]["strict_skipped_kinds"]["example.com/v1 Widget"], 1);
}

#[test]
fn without_strict_mode_nothing_changes() {
    let fixture = fixture();
    let report = ra2_core::lint_str(FILE, &fixture.text, &fixture.config);
    assert!(schema_findings(&report).is_empty());
    assert_eq!(report.summary.strict_skipped, None);
    let json = report.to_json_value();
    assert!(
        json["summary"].get("strict_skipped").is_none(),
        "the JSON summary is unchanged"
    );
    assert!(json["summary"].get("strict_skipped_kinds").is_none());
}

#[test]
fn schema_findings_follow_ignore_and_severity_settings() {
    let fixture = fixture();
    // schema/unknown-field and schema/wrong-type are still valid names in settings (strict
    // mode no longer reports them: they are k8s.api findings of every run).
    let config = Config::from_yaml(
        "strict: true\nignore: [k8s.api/wrong-type, schema/wrong-type]\nseverity: {k8s.api/unknown-field: warning, schema/unknown-field: info}\n",
        ".ra2.yaml",
    )
    .expect("valid config");
    assert!(config.strict);
    let report = lint_strict(FILE, &fixture.text, &config);
    let checks: BTreeSet<(&str, ra2_core::Severity)> = report
        .findings
        .iter()
        .filter(|f| f.rule == "schema" || ["unknown-field", "wrong-type"].contains(&f.check.as_str()))
        .map(|f| (f.check.as_str(), f.severity))
        .collect();
    assert_eq!(
        checks,
        BTreeSet::from([
            ("unknown-field", ra2_core::Severity::Warning),
            ("missing-field", ra2_core::Severity::Error),
        ])
    );
    let config = Config::from_yaml("select: [schema]\n", ".ra2.yaml").expect("valid config");
    let report = lint_strict(FILE, &fixture.text, &config);
    assert!(report.findings.iter().all(|f| f.rule == "schema"));
    assert!(!report.findings.is_empty());
}

#[test]
fn kubectl_dry_run_output_and_quantities_pass() {
    // `kubectl create deployment web --image=nginx --dry-run=client -o yaml`, plus numbers
    // where the API takes quantities and integers or strings.
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  creationTimestamp: null\n  labels:\n    app: web\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  strategy: {}\n  template:\n    metadata:\n      creationTimestamp: null\n      labels:\n        app: web\n    spec:\n      containers:\n      - image: nginx\n        name: nginx\n        resources:\n          limits: {cpu: 2, memory: 5e8, hugepages-2Mi: 1Gi}\n          requests: {cpu: 0.5, memory: 268435456}\n        ports: [{containerPort: 80}]\n        startupProbe: {httpGet: {port: 80}}\nstatus: {}\n";
    let report = lint_strict("dry-run.yaml", text, &Config::default());
    assert_eq!(schema_findings(&report), []);
    assert_eq!(api_findings(&report), []);
    assert_eq!(report.summary.strict_skipped, Some(0));
}

#[test]
fn strict_diagnostics_snapshot() {
    let fixture = fixture();
    let report = only_rule(&lint_strict(FILE, &fixture.text, &fixture.config), "schema");
    insta::assert_snapshot!("strict_fixture", render_text(&report, FILE, &fixture.text));
    // What every run reports of the same fixture: the decoding refusals, as k8s.api.
    let report = only_rule(&ra2_core::lint_str(FILE, &fixture.text, &fixture.config), "k8s.api");
    insta::assert_snapshot!("strict_fixture_default_run", render_text(&report, FILE, &fixture.text));
}

/// Strict mode over the real-world corpus: schema findings counted per kind and check, with
/// the first finding of each class and the line it points at, and the kinds it skipped.
#[test]
fn corpus_strict_counts() {
    let Some(files) = ra2_tests::corpus_files() else {
        eprintln!("skipping: ../shared/corpus is not beside the checkout");
        return;
    };
    let config = Config {
        select: vec!["schema".to_owned()],
        ..Config::default()
    };
    let mut linter = Linter::new(&config).with_object_hook(Box::new(ra2_strict::Strict::new()));
    for (name, text) in &files {
        linter.add_file(name, text);
    }
    let report = linter.finish();
    assert!(report.errors.is_empty(), "corpus documents are valid YAML");
    let texts: BTreeMap<&str, &str> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let skipped = report.summary.strict_skipped.unwrap_or_default();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} objects, {} checked against a schema, {} skipped ({} kinds without a schema), {} schema findings",
        report.summary.objects,
        report
            .objects
            .iter()
            .filter(|o| o.kind.as_deref() != Some("NetworkAttachmentDefinition"))
            .count()
            - skipped,
        skipped,
        report.summary.strict_skipped_kinds.len(),
        report.findings.len()
    );
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut samples: BTreeMap<(String, String), &ra2_core::Finding> = BTreeMap::new();
    for f in &report.findings {
        let key = (f.object.kind.clone().unwrap_or_default(), f.check.clone());
        *counts.entry(key.clone()).or_default() += 1;
        samples.entry(key).or_insert(f);
    }
    let _ = writeln!(out, "findings per kind and check:");
    for ((kind, check), n) in &counts {
        let _ = writeln!(out, "  {kind} schema/{check}: {n}");
    }
    let _ = writeln!(out, "samples (first finding of each kind and check, with its line):");
    for ((kind, check), f) in &samples {
        let line = texts
            .get(f.file.as_str())
            .and_then(|t| t.lines().nth(f.line - 1))
            .unwrap_or("")
            .trim_end();
        let _ = writeln!(
            out,
            "  {kind} schema/{check} {}:{}:{} {}\n    | {line}",
            f.file, f.line, f.column, f.message
        );
    }
    let _ = writeln!(out, "skipped kinds with 10 or more objects:");
    for (kind, n) in report.summary.strict_skipped_kinds.iter().filter(|(_, n)| **n >= 10) {
        let _ = writeln!(out, "  {kind}: {n}");
    }
    insta::assert_snapshot!("strict_corpus", out);
}
