//! Reading input the way the API server does, and surviving bad input (ra2-rules.md §2.9,
//! §3 items 1, 2, 14–17, 37). ra2.app.007 (hostPath) is the probe: it fires wherever a pod
//! spec is found.

use std::fmt::Write as _;

use ra2_core::{Config, Edition, Report, lint_str};

fn lint(text: &str) -> Report {
    lint_str("t.yaml", text, &Config::default())
}

fn host_paths(report: &Report) -> Vec<(usize, usize, String)> {
    report
        .findings
        .iter()
        .filter(|f| f.rule == "ra2.app.007")
        .map(|f| (f.line, f.column, f.pointer.clone()))
        .collect()
}

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: r/a:1}]\n  volumes: [{name: h, hostPath: {path: /x}}]\n";

#[test]
fn multi_document_streams_with_empty_documents_and_comments() {
    let text = format!("# leading comment\n---\n---\n{POD}---\n# only a comment\n---\n{POD}...\n");
    let report = lint(&text);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    // Every document counts, the empty ones included, as `yaml.safe_load_all` sees them:
    // [None, POD, None, POD].
    assert_eq!(report.summary.documents, 4);
    let hits = host_paths(&report);
    assert_eq!(hits.len(), 2);
    let docs: Vec<usize> = report
        .findings
        .iter()
        .filter(|f| f.rule == "ra2.app.007")
        .map(|f| f.document)
        .collect();
    assert_eq!(docs, vec![1, 3]);
    let objects: Vec<usize> = report.objects.iter().map(|o| o.document).collect();
    assert_eq!(objects, vec![1, 3]);
    assert_eq!(hits[1].0, 18);
}

#[test]
fn errors_after_an_empty_document_keep_their_index() {
    // [None, <parse error>, POD, None]: a trailing `---` is an empty document too.
    let text = format!("---\n# nothing\n---\nkind: [unclosed\n---\n{POD}---\n");
    let report = lint(&text);
    let errors: Vec<usize> = report.errors.iter().map(|e| e.document).collect();
    assert_eq!(errors, vec![1]);
    let docs: Vec<usize> = report
        .findings
        .iter()
        .filter(|f| f.rule == "ra2.app.007")
        .map(|f| f.document)
        .collect();
    assert_eq!(docs, vec![2]);
    assert_eq!(report.summary.documents, 4);
}

#[test]
fn document_marker_inside_a_block_scalar_is_content() {
    let text = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\ndata:\n  s: |\n    ---\n    not a document\n---\n{POD}"
    );
    let report = lint(&text);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.summary.documents, 2);
}

#[test]
fn byte_order_mark_is_skipped_and_positions_stay_right() {
    let text = format!("\u{feff}{POD}");
    let report = lint(&text);
    assert_eq!(
        host_paths(&report),
        vec![(6, 23, "/spec/volumes/0/hostPath".to_owned())]
    );
    // Offsets index the original text (with the BOM) so snippets line up.
    let f = report.findings.iter().find(|f| f.rule == "ra2.app.007").unwrap();
    assert_eq!(&text[f.offset..f.offset + f.len], "hostPath");
}

#[test]
fn kind_list_items_are_objects() {
    let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n    containers: [{name: a, image: r/a:1}]\n    volumes: [{name: h, hostPath: {path: /x}}]\n";
    let report = lint(text);
    assert_eq!(
        host_paths(&report),
        vec![(9, 25, "/items/0/spec/volumes/0/hostPath".to_owned())]
    );
    assert_eq!(report.objects.len(), 1);
    let f = report.findings.iter().find(|f| f.rule == "ra2.app.007").unwrap();
    assert_eq!(f.object.name.as_deref(), Some("p"));
}

#[test]
fn json_input_with_positions() {
    let text = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},
 "spec":{"template":{"spec":{"containers":[{"name":"a","image":"r/a:1"}],
 "volumes":[{"name":"h","hostPath":{"path":"/x"}}]}}}}"#;
    let report = lint_str("d.json", text, &Config::default());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(
        host_paths(&report),
        vec![(3, 25, "/spec/template/spec/volumes/0/hostPath".to_owned())]
    );
}

#[test]
fn pod_specs_are_found_in_every_workload_kind() {
    let vols = "volumes: [{name: h, hostPath: {path: /x}}]";
    let c = "containers: [{name: a, image: r/a:1}]";
    let template = format!("spec: {{template: {{spec: {{{c}, {vols}}}}}}}");
    let cases = [
        (
            "v1",
            "Pod",
            format!("spec: {{{c}, {vols}}}"),
            "/spec/volumes/0/hostPath",
        ),
        (
            "v1",
            "PodTemplate",
            format!("template: {{spec: {{{c}, {vols}}}}}"),
            "/template/spec/volumes/0/hostPath",
        ),
        (
            "v1",
            "ReplicationController",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "apps/v1",
            "ReplicaSet",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "apps/v1",
            "Deployment",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "apps/v1",
            "StatefulSet",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "apps/v1",
            "DaemonSet",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "batch/v1",
            "Job",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "apps.openshift.io/v1",
            "DeploymentConfig",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "argoproj.io/v1alpha1",
            "Rollout",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "serving.knative.dev/v1",
            "Service",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "serving.knative.dev/v1",
            "Configuration",
            template.clone(),
            "/spec/template/spec/volumes/0/hostPath",
        ),
        (
            "batch/v1",
            "CronJob",
            format!("spec: {{jobTemplate: {{spec: {{template: {{spec: {{{c}, {vols}}}}}}}}}}}"),
            "/spec/jobTemplate/spec/template/spec/volumes/0/hostPath",
        ),
    ];
    for (api, kind, body, pointer) in cases {
        let text = format!("apiVersion: {api}\nkind: {kind}\nmetadata: {{name: x}}\n{body}\n");
        let report = lint(&text);
        let hits = host_paths(&report);
        assert_eq!(hits.len(), 1, "{kind}: {:?}", report.findings);
        assert_eq!(hits[0].2, pointer, "{kind}");
    }
    // A core Service is not a workload, whatever its spec holds.
    let report = lint(&format!(
        "apiVersion: v1\nkind: Service\nmetadata: {{name: x}}\n{template}\n"
    ));
    assert!(host_paths(&report).is_empty());
    // Kind matching is case-sensitive, and a PodTemplate has no top-level spec.
    let spec = format!("spec: {{{c}, {vols}}}");
    let report = lint(&format!("apiVersion: v1\nkind: pod\nmetadata: {{name: x}}\n{spec}\n"));
    assert!(host_paths(&report).is_empty());
    let report = lint(&format!(
        "apiVersion: v1\nkind: PodTemplate\nmetadata: {{name: x}}\n{spec}\n"
    ));
    assert!(host_paths(&report).is_empty());
}

#[test]
fn merge_keys_and_aliases_are_expanded_and_reported_at_the_use_site() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  <<: &defaults\n    volumes:\n    - name: h\n      hostPath: {path: /x}\n  containers: [{name: a, image: r/a:1}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: q}\nx-volumes: &vols\n- name: h\n  hostPath: {path: /y}\nspec:\n  containers: [{name: a, image: r/a:1}]\n  volumes: *vols\n";
    let report = lint(text);
    let hits = host_paths(&report);
    assert_eq!(hits.len(), 2, "{:?}", report.findings);
    // The second pod's volumes come through `*vols` on line 19: reported there, with the
    // anchored definition (line 16) as a related location.
    let q = report
        .findings
        .iter()
        .filter(|f| f.rule == "ra2.app.007")
        .nth(1)
        .unwrap();
    assert_eq!((q.line, q.column), (19, 12));
    assert_eq!(q.related.first().map(|r| r.line), Some(16));
}

#[test]
fn duplicate_keys_are_reported_and_the_last_wins() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: []\n  volumes: [{name: h, hostPath: {path: /x}}]\n  containers: [{name: a, image: r/a:1}]\n";
    let report = lint(text);
    let dup: Vec<_> = report.findings.iter().filter(|f| f.rule == "yaml").collect();
    assert_eq!(dup.len(), 1);
    assert_eq!((dup[0].check.as_str(), dup[0].line), ("duplicate-key", 6));
    assert_eq!(host_paths(&report).len(), 1);
}

#[test]
fn a_bad_document_fails_alone() {
    let text =
        format!("{POD}---\nkind: [unclosed\n---\n- just\n- a list\n---\nmetadata: {{name: no-kind}}\n---\n{POD}");
    let report = lint(&text);
    assert_eq!(
        host_paths(&report).len(),
        2,
        "good documents around bad ones are still linted"
    );
    let errors: Vec<(usize, usize, &str)> = report
        .errors
        .iter()
        .map(|e| (e.line, e.document, e.code.as_str()))
        .collect();
    assert_eq!(
        errors,
        vec![
            (9, 1, "ra2::parse::yaml"),
            (10, 2, "ra2::object::not-a-mapping"),
            (13, 3, "ra2::object::missing-field")
        ]
    );
}

#[test]
fn unrendered_helm_templates_get_their_own_error() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n  labels:\n    {{- include \"x.labels\" . | nindent 4 }}\n";
    let report = lint(text);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].code, "ra2::parse::template");
    assert!(
        report.errors[0].message.contains("helm template"),
        "{}",
        report.errors[0].message
    );
}

/// A template whose actions all sit in quoted scalars reads as YAML: it gets the same error,
/// at the first action, and no findings on its template text (`k8s.api` would call
/// `"{{ .Release.Name }}"` an invalid name).
#[test]
fn unrendered_templates_that_parse_get_the_error_and_no_findings() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  labels:\n    app: \"{{ .Values.app }}\"\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n      containers:\n      - name: a\n        image: '{{ .Values.image }}'\n        resources: {limits: {cpu: \"{{ .Values.cpu }}\"}}\n";
    let report = lint(text);
    assert_eq!(report.findings, [], "no findings on template text");
    assert_eq!(report.errors.len(), 1);
    let error = &report.errors[0];
    assert_eq!(
        (error.code.as_str(), error.line, error.column),
        ("ra2::parse::template", 6, 10)
    );
    assert!(
        error.message.contains("{{ .Values.app }} is a template action"),
        "{}",
        error.message
    );
    assert_eq!(report.summary.objects, 0);
}

/// Go templates of other tools are data in rendered objects, and so is a Helm template inside
/// a block scalar or a ConfigMap's data: none of them makes the object a template.
#[test]
fn rendered_objects_may_carry_other_templates() {
    for text in [
        "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: r}\nspec:\n  groups:\n  - name: g\n    rules:\n    - alert: Down\n      expr: up == 0\n      annotations:\n        summary: \"{{ $labels.instance }} is down ({{ .CommonLabels.job }})\"\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  values.tpl: \"image: {{ .Values.image }}\"\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    note: |\n      rendered from {{ .Values.x }}\n",
    ] {
        let report = lint(text);
        assert_eq!(report.errors, [], "{text}");
        assert_eq!(report.summary.objects, 1, "{text}");
    }
}

#[test]
fn yaml_bombs_and_deep_nesting_fail_fast_with_a_clear_error() {
    let mut bomb = String::from(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n",
    );
    for i in 1..12 {
        let _ = writeln!(bomb, "a{i}: &a{i} [{}]", vec![format!("*a{}", i - 1); 10].join(", "));
    }
    let deep = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: deep}}\ndata: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let start = std::time::Instant::now();
    let text = format!("{bomb}---\n{deep}---\n{POD}");
    let report = lint(&text);
    let codes: Vec<&str> = report.errors.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, vec!["ra2::parse::alias-bomb", "ra2::parse::too-deep"]);
    assert!(
        report.errors[0].message.contains("YAML bomb"),
        "{}",
        report.errors[0].message
    );
    assert_eq!(host_paths(&report).len(), 1);
    // Generous bound: this is about not expanding a billion nodes, not about speed.
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn editions_change_severity() {
    let latest = lint_str(
        "t.yaml",
        POD,
        &Config {
            edition: Edition::Latest,
            ..Config::default()
        },
    );
    assert_eq!(latest.edition, "latest");
    let sev = |r: &Report| r.findings.iter().find(|f| f.rule == "ra2.app.007").map(|f| f.severity);
    assert_eq!(sev(&latest), Some(ra2_core::Severity::Error));
    assert_eq!(sev(&lint(POD)), Some(ra2_core::Severity::Warning));
}

#[test]
fn suppression_annotations() {
    let base = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  annotations: {ANN}\nspec:\n  template:\n    spec:\n      containers: [{name: a, image: r/a:1}]\n      volumes: [{name: h, hostPath: {path: /x}}]\n";
    let run = |ann: &str| lint(&base.replace("{ANN}", ann));
    let r = run("{ignore-check.ra2.dev/ra2.app.007: \"node agent needs /x\"}");
    assert!(host_paths(&r).is_empty());
    assert_eq!(r.summary.suppressed, 1);
    assert!(r.findings.iter().all(|f| f.rule != "suppression"));
    let r = run("{ignore-check.ra2.dev/ra2.app.007.host-path: \"\"}");
    assert!(host_paths(&r).is_empty());
    let reason: Vec<_> = r.findings.iter().filter(|f| f.rule == "suppression").collect();
    assert_eq!(reason.len(), 1);
    assert_eq!(
        (reason[0].check.as_str(), reason[0].severity, reason[0].line),
        ("missing-reason", ra2_core::Severity::Info, 5)
    );
    let r = run("{ignore-check.ra2.dev/ra2.app.007.other: \"x\"}");
    assert_eq!(
        host_paths(&r).len(),
        1,
        "another check's suppression does not hide this one"
    );
    let r = run("{ra2.dev/ignore-all: \"vendor chart\"}");
    assert!(host_paths(&r).is_empty());
    let r = run("{ignore-check.ra2.dev/ra2.app.999: \"x\"}");
    assert!(
        r.findings
            .iter()
            .any(|f| f.rule == "suppression" && f.check == "unknown-rule")
    );
}

#[test]
fn pod_template_annotations_also_suppress() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    metadata:\n      annotations: {ignore-check.ra2.dev/ra2.app.007: \"needs /x\"}\n    spec:\n      containers: [{name: a, image: r/a:1}]\n      volumes: [{name: h, hostPath: {path: /x}}]\n";
    assert!(host_paths(&lint(text)).is_empty());
}
