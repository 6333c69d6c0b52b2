//! Findings of `helm template` output land on the chart template's own line. The fixture
//! `tests/fixtures/cnf-vendor` is a repository holding `charts/cnf/` (with the subchart
//! `charts/cnf/charts/db/`); its `values-lab.yaml` switches on what ra2 must catch: a pod spec
//! written with `toYaml`, a privileged container from `.Values`, containers from a `range`
//! whose security context comes from an `include`, a host PID namespace from an `include`, a
//! hostPath volume inside `if`, and a host IPC namespace in the subchart. Beside it,
//! `charts/edge/` writes lists as Bitnami-style charts do: items behind switched-off `if`s, an
//! item from an `include` of `_helpers.tpl` between literal ones, a `range` followed by a
//! literal item. The real `helm` renders both (`RA2_HELM`, which `scripts/recipe-tools` builds).

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod multitool;
mod support;

use support::{helm, helm_output};

/// `ra2 ARGS` in `dir` with `stdin`.
fn ra2_in(dir: &Path, args: &[&str], stdin: &str) -> Output {
    support::ra2_in(dir, args, stdin.as_bytes())
}

/// The repository of the fixture: the source root of every upload path below.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/cnf-vendor")
        .canonicalize()
        .expect("the fixture repository")
}

/// `helm template cnf charts/cnf` with the lab values, run in the repository.
fn render(helm: &str) -> String {
    helm_output(
        helm,
        &repo(),
        &["template", "cnf", "charts/cnf", "-f", "charts/cnf/values-lab.yaml"],
    )
}

fn json_of(rendered: &str, dir: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["lint", "--edition", "latest", "--no-config", "--format", "json"];
    args.extend(extra);
    args.push("-");
    let out = ra2_in(dir, &args, rendered);
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

/// One line per finding: `rule/check pointer -> template:line:column (mapped)`.
fn listing(report: &Value) -> String {
    let mut lines: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let t = &f["template"];
            format!(
                "{}/{} {} -> {}:{}:{} ({})",
                f["rule"].as_str().unwrap_or_default(),
                f["check"].as_str().unwrap_or_default(),
                f["pointer"].as_str().unwrap_or_default(),
                t["file"].as_str().unwrap_or("-"),
                t["line"],
                t["column"],
                t["mapped"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    lines.sort();
    lines.join("\n") + "\n"
}

/// The template position of the finding `rule/check` at `pointer`.
fn mapped<'a>(report: &'a Value, id: &str, pointer: &str) -> &'a Value {
    let (rule, check) = id.split_once('/').expect("rule/check");
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["rule"] == rule && f["check"] == check && f["pointer"] == pointer)
        .map_or_else(|| panic!("no {id} at {pointer}"), |f| &f["template"])
}

const UPF: &str = "charts/cnf/templates/upf.yaml";
const AGENT: &str = "charts/cnf/templates/agent.yaml";
const DB: &str = "charts/cnf/charts/db/templates/statefulset.yaml";

/// (finding, pointer, template, line, how): one per mapping case.
const CASES: &[(&str, &str, &str, u64, &str)] = &[
    // A pod spec written with toYaml | nindent: the action's line.
    (
        "ra2.app.030/host-network",
        "/spec/template/spec/hostNetwork",
        UPF,
        17,
        "action",
    ),
    // A value from .Values under a literal key: the key's line.
    (
        "ra2.app.041/privileged",
        "/spec/template/spec/containers/0/securityContext/privileged",
        UPF,
        22,
        "key",
    ),
    // Containers from a range, their security context from an include in its body.
    (
        "ra2.app.006/host-network-net-admin",
        "/spec/template/spec/containers/2/securityContext/capabilities/add/0",
        UPF,
        29,
        "action",
    ),
    // A literal key inside {{ if }}.
    (
        "ra2.app.007/host-path",
        "/spec/template/spec/volumes/1/hostPath",
        UPF,
        40,
        "key",
    ),
    // A field written by an include of a named template.
    (
        "ra2.app.031/host-pid",
        "/spec/template/spec/hostPID",
        AGENT,
        15,
        "action",
    ),
    // A subchart's template.
    ("ra2.app.031/host-ipc", "/spec/template/spec/hostIPC", DB, 16, "key"),
];

#[test]
fn findings_map_to_the_template_line_that_wrote_them() {
    let Some(helm) = helm() else { return };
    let rendered = render(&helm);
    let report = json_of(&rendered, &repo(), &[]);
    for &(id, pointer, file, line, how) in CASES {
        let t = mapped(&report, id, pointer);
        assert_eq!(
            (t["file"].as_str(), t["line"].as_u64(), t["mapped"].as_str()),
            (Some(file), Some(line), Some(how)),
            "{id} at {pointer}"
        );
    }
    // JSON keeps the position in the rendered stream.
    let f = report["findings"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["check"] == "host-ipc"))
        .expect("host-ipc");
    assert_eq!(f["file"], "<stdin>");
    assert_eq!(
        rendered.lines().nth(f["line"].as_u64().unwrap() as usize - 1),
        Some("      hostIPC: true")
    );
    insta::assert_snapshot!("mapping", listing(&report));
    // The report, `template` included, matches the shipped JSON Schema.
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../ra2-core/schemas/report.schema.json"))
            .expect("schema"),
    )
    .expect("schema JSON");
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator.iter_errors(&report).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");

    // The same from a subdirectory with --chart-root, and from elsewhere without it: the
    // chart is not found, the findings stay where they were, and ra2 says why once.
    let charts = repo().join("charts");
    let from_charts = json_of(&rendered, &charts, &["--chart-root", "cnf"]);
    assert_eq!(
        mapped(&from_charts, "ra2.app.031/host-ipc", "/spec/template/spec/hostIPC")["file"],
        "cnf/charts/db/templates/statefulset.yaml",
        "JSON names templates relative to the working directory"
    );
    let elsewhere = repo().join("charts/cnf/charts/db/templates");
    let out = ra2_in(
        &elsewhere,
        &["lint", "--edition", "latest", "--format", "json", "-"],
        &rendered,
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f.get("template").is_none())
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("not found").count(), 1, "{stderr}");
    assert!(stderr.contains("Helm chart \"cnf\""), "{stderr}");
}

#[test]
fn code_quality_issues_sit_on_the_template_line() {
    let Some(helm) = helm() else { return };
    let rendered = render(&helm);
    let out = ra2_in(
        &repo().join("charts"),
        &[
            "lint",
            "--edition",
            "latest",
            "--no-config",
            "--source-root",
            "..",
            "--format",
            "codeclimate",
            "-",
        ],
        &rendered,
    );
    let issues: Value = serde_json::from_slice(&out.stdout).expect("Code Quality JSON");
    // Run from charts/: the paths are still relative to the repository.
    for &(id, _, file, line, _) in CASES {
        assert!(
            issues.as_array().unwrap().iter().any(|i| i["check_name"] == id
                && i["location"]["path"] == file
                && i["location"]["lines"]["begin"] == line),
            "{id} at {file}:{line}"
        );
    }
}

#[test]
fn the_post_renderer_maps_too() {
    let Some(helm) = helm() else { return };
    let rendered = render(&helm);
    let out = ra2_in(
        &repo(),
        &[
            "lint",
            "--post-render",
            "--edition",
            "latest",
            "--no-config",
            "--format",
            "json",
        ],
        &rendered,
    );
    assert!(out.stdout.is_empty());
    let report: Value = serde_json::from_slice(&out.stderr).expect("the report is JSON on stderr");
    let t = mapped(
        &report,
        "ra2.app.007/host-path",
        "/spec/template/spec/volumes/1/hostPath",
    );
    assert_eq!((t["file"].as_str(), t["line"].as_u64()), (Some(UPF), Some(40)));
}

/// `helm template … | ra2 lint --format sarif -` at the repository root, as the README's
/// workflow runs it: each result on the template line, with `%SRCROOT%` URIs, the line hash
/// GitHub computes, the rendered position as a linked related location; valid for GitHub.
#[test]
fn sarif_and_github_annotations_sit_on_the_template_line() {
    let Some(helm) = helm() else { return };
    let rendered = render(&helm);
    let args = [
        "lint",
        "--edition",
        "latest",
        "--source-root",
        ".",
        "--category",
        "ra2-chart",
        "--format",
    ];
    let sarif_out = ra2_in(&repo(), &[&args[..], &["sarif", "-"]].concat(), &rendered);
    let sarif: Value = serde_json::from_slice(&sarif_out.stdout).expect("SARIF");
    let run = &sarif["runs"][0];
    assert_eq!(run["automationDetails"]["id"], "ra2-chart/");
    let results = run["results"].as_array().expect("results");
    for &(id, pointer, file, line, _) in CASES {
        let (rule, check) = id.split_once('/').expect("rule/check");
        let result = results
            .iter()
            .find(|r| r["ruleId"] == rule && r["properties"]["check"] == check && r["properties"]["pointer"] == pointer)
            .unwrap_or_else(|| panic!("no {id} at {pointer}"));
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], file, "{id}");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%", "{id}");
        assert_eq!(location["region"]["startLine"], line, "{id}");
        // GitHub's line hash of that template line.
        let text = std::fs::read_to_string(repo().join(file)).expect("template");
        let hashes = ra2_report::line_hash::line_hashes(&text);
        let hash = result["partialFingerprints"]["primaryLocationLineHash"]
            .as_str()
            .expect("line hash");
        assert_eq!(
            hash.split(':').next(),
            hashes[line as usize - 1].split(':').next(),
            "{id}"
        );
        // The rendered position is a related location the message links.
        let related = &result["relatedLocations"][0];
        assert_eq!(related["physicalLocation"]["artifactLocation"]["uri"], "%3Cstdin%3E");
        assert!(
            result["message"]["text"]
                .as_str()
                .unwrap()
                .ends_with("[rendered output](0)"),
            "{id}"
        );
    }
    multitool::assert_valid("chart", &sarif_out.stdout);

    let github = ra2_in(&repo(), &[&args[..], &["github", "-"]].concat(), &rendered);
    let github = String::from_utf8(github.stdout).expect("UTF-8");
    for &(id, _, file, line, _) in CASES {
        let title = format!("title={}", id.replace(':', "%3A"));
        assert!(
            github
                .lines()
                .any(|l| l.contains(&format!("file={file},line={line},")) && l.contains(&title)),
            "{id} at {file}:{line}:\n{github}"
        );
    }
}

/// Text output shows the template's snippet, labelled with the rendered position.
#[test]
fn text_shows_the_template() {
    let Some(helm) = helm() else { return };
    let rendered = render(&helm);
    let out = ra2_in(
        &repo(),
        &[
            "lint",
            "--edition",
            "latest",
            "--no-config",
            "--select",
            "ra2.app.030,ra2.app.031,ra2.app.041,ra2.app.007",
            "-",
        ],
        &rendered,
    );
    insta::assert_snapshot!("text", String::from_utf8(out.stdout).expect("UTF-8"));
}

const EDGE: &str = "charts/edge/templates/deployment.yaml";

/// (finding, pointer, line, how) in the edge chart's deployment, linted with the base edition
/// (whose ra2.app.002 judges volume mounts).
const EDGE_CASES: &[(&str, &str, u64, &str)] = &[
    // (a) The first init container is behind a switched-off `if`: the rendered first item is
    // the template's second.
    (
        "ra2.app.003/privileged",
        "/spec/template/spec/initContainers/0/securityContext/privileged",
        25,
        "key",
    ),
    // (b) The mount in the middle is switched off: the rendered second mount is the third.
    (
        "ra2.app.002/host-system-path",
        "/spec/template/spec/containers/0/volumeMounts/1/mountPath",
        44,
        "key",
    ),
    // (c) An item from an include of a named template in _helpers.tpl, between literal items:
    // the include's line; the literal item after it, its own.
    (
        "ra2.app.003/privileged",
        "/spec/template/spec/initContainers/1/securityContext/privileged",
        27,
        "action",
    ),
    (
        "ra2.app.003/privilege-escalation",
        "/spec/template/spec/initContainers/2/securityContext/allowPrivilegeEscalation",
        32,
        "key",
    ),
    // (d) Items from a range over values, then a literal item.
    (
        "ra2.app.001/readonly-root",
        "/spec/template/spec/containers/2",
        46,
        "key",
    ),
    (
        "ra2.app.003/privileged",
        "/spec/template/spec/containers/3/securityContext/privileged",
        52,
        "key",
    ),
    // A volume after a switched-off one.
    (
        "ra2.app.007/host-path",
        "/spec/template/spec/volumes/1/hostPath",
        61,
        "key",
    ),
];

/// The line that wrote each node a finding of the fixture charts points at, by template and
/// pointer (read off the templates and the rendered output by hand).
const RIGHT_LINES: &[(&str, &str, u64)] = &[
    (UPF, "/spec/template/metadata/labels", 14),
    (UPF, "/spec/template/spec", 16),
    (UPF, "/spec/template/spec/hostNetwork", 17),
    (UPF, "/spec/template/spec/containers/0", 19),
    (UPF, "/spec/template/spec/containers/0/securityContext", 21),
    (UPF, "/spec/template/spec/containers/0/securityContext/privileged", 22),
    (UPF, "/spec/template/spec/containers/1", 27),
    (UPF, "/spec/template/spec/containers/1/securityContext", 29),
    (
        UPF,
        "/spec/template/spec/containers/1/securityContext/capabilities/add/0",
        29,
    ),
    (UPF, "/spec/template/spec/containers/2", 27),
    (UPF, "/spec/template/spec/containers/2/securityContext", 29),
    (
        UPF,
        "/spec/template/spec/containers/2/securityContext/capabilities/add/0",
        29,
    ),
    (UPF, "/spec/template/spec/volumes/1/hostPath", 40),
    (AGENT, "/metadata", 4),
    (AGENT, "/spec/template/metadata/labels", 12),
    (AGENT, "/spec/template/spec", 14),
    (AGENT, "/spec/template/spec/hostPID", 15),
    (AGENT, "/spec/template/spec/containers/0", 17),
    (DB, "/spec/template/metadata/labels", 12),
    (DB, "/spec/template/spec", 14),
    (DB, "/spec/template/spec/hostIPC", 16),
    (DB, "/spec/template/spec/containers/0", 19),
    ("charts/cnf/templates/config.yaml", "/kind", 2),
    (EDGE, "/metadata", 3),
    (EDGE, "/spec/template/metadata/labels", 12),
    (EDGE, "/spec/template/spec", 14),
    (EDGE, "/spec/template/spec/initContainers/0", 22),
    (EDGE, "/spec/template/spec/initContainers/0/securityContext", 24),
    (
        EDGE,
        "/spec/template/spec/initContainers/0/securityContext/privileged",
        25,
    ),
    (EDGE, "/spec/template/spec/initContainers/1", 27),
    (EDGE, "/spec/template/spec/initContainers/1/securityContext", 27),
    (
        EDGE,
        "/spec/template/spec/initContainers/1/securityContext/privileged",
        27,
    ),
    (EDGE, "/spec/template/spec/initContainers/2", 29),
    (EDGE, "/spec/template/spec/initContainers/2/securityContext", 31),
    (
        EDGE,
        "/spec/template/spec/initContainers/2/securityContext/allowPrivilegeEscalation",
        32,
    ),
    (EDGE, "/spec/template/spec/containers/0", 34),
    (EDGE, "/spec/template/spec/containers/0/volumeMounts/1/mountPath", 44),
    (EDGE, "/spec/template/spec/containers/1", 46),
    (EDGE, "/spec/template/spec/containers/2", 46),
    (EDGE, "/spec/template/spec/containers/3", 49),
    (EDGE, "/spec/template/spec/containers/3/securityContext", 51),
    (EDGE, "/spec/template/spec/containers/3/securityContext/privileged", 52),
    (EDGE, "/spec/template/spec/volumes/1/hostPath", 61),
];

/// `helm template edge charts/edge`, run in the repository.
fn render_edge(helm: &str) -> String {
    helm_output(helm, &repo(), &["template", "edge", "charts/edge"])
}

/// How many findings of `report` sit on the right template line, of how many.
fn right_lines(report: &Value) -> (usize, usize) {
    let findings = report["findings"].as_array().expect("findings");
    let right = findings
        .iter()
        .filter(|f| {
            let t = &f["template"];
            let pointer = f["pointer"].as_str().unwrap_or_default();
            let file = t["file"].as_str().unwrap_or_default();
            let expected = RIGHT_LINES
                .iter()
                .find(|(tf, p, _)| *tf == file && *p == pointer)
                .map(|r| r.2);
            assert!(expected.is_some(), "no right line known for {file} {pointer}");
            expected == t["line"].as_u64()
        })
        .count();
    (right, findings.len())
}

/// List items behind `if`s, from `include`s and after a `range` land on the template line
/// that wrote them; and the template-line accuracy on the fixture charts, printed.
#[test]
fn list_items_map_to_the_template_item_that_wrote_them() {
    let Some(helm) = helm() else { return };
    let edge = {
        let out = ra2_in(
            &repo(),
            &["lint", "--edition", "base", "--no-config", "--format", "json", "-"],
            &render_edge(&helm),
        );
        serde_json::from_slice::<Value>(&out.stdout).expect("JSON report")
    };
    let cnf = json_of(&render(&helm), &repo(), &[]);
    // Printed before anything is asserted, so that a run of older code can be measured too.
    let (cnf_right, cnf_all) = right_lines(&cnf);
    let (edge_right, edge_all) = right_lines(&edge);
    println!(
        "template-line accuracy on the fixture charts: {} of {} findings on the right line (cnf {cnf_right} of {cnf_all}, edge {edge_right} of {edge_all})",
        cnf_right + edge_right,
        cnf_all + edge_all
    );
    for &(id, pointer, line, how) in EDGE_CASES {
        let t = mapped(&edge, id, pointer);
        assert_eq!(
            (t["file"].as_str(), t["line"].as_u64(), t["mapped"].as_str()),
            (Some(EDGE), Some(line), Some(how)),
            "{id} at {pointer}"
        );
    }
    assert_eq!((cnf_right, edge_right), (cnf_all, edge_all));
}
