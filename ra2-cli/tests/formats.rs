//! The machine formats for CI pipelines: SARIF, JUnit XML and GitHub workflow commands.
//! Golden output of the built binary, and every SARIF log ra2 can produce on our fixtures
//! and on the shared corpus validated against the official SARIF 2.1.0 schema.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod multitool;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("data")
}

/// Runs `ra2 args...` in `tests/data`, colour off.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(args)
        .current_dir(data())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("ra2 runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// The official SARIF 2.1.0 schema, from `../shared/schemas` beside the checkout.
fn sarif_validator() -> Option<jsonschema::Validator> {
    let path = workspace()
        .join("..")
        .join("shared")
        .join("schemas")
        .join("sarif-2.1.0.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping schema validation: {} is not there", path.display());
        return None;
    };
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the SARIF schema is JSON");
    Some(
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the SARIF schema compiles"),
    )
}

fn assert_valid_sarif(validator: &jsonschema::Validator, sarif: &str, what: &str) {
    let value: serde_json::Value = serde_json::from_str(sarif).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .take(10)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: invalid SARIF:\n{}", errors.join("\n"));
}

const GOLDEN_ARGS: &[&str] = &[
    "lint",
    "manifests",
    "--select",
    "ra2.app.007",
    "--no-config",
    // Paths for upload are relative to the source root: this directory, not the checkout.
    "--source-root",
    ".",
    "--format",
];

fn golden(format: &str) -> (i32, String) {
    let mut args = GOLDEN_ARGS.to_vec();
    args.push(format);
    let output = run(&args);
    (output.status.code().expect("exit status"), stdout(&output))
}

#[test]
fn sarif_golden() {
    let (code, text) = golden("sarif");
    assert_eq!(code, 2, "one document cannot be parsed");
    if let Some(validator) = sarif_validator() {
        assert_valid_sarif(&validator, &text, "golden");
    }
    let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let run = &value["runs"][0];
    // The rule metadata is the catalogue, which grows as rules land: pin only its shape here
    // and snapshot the results.
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let host_path = rules.iter().find(|r| r["id"] == "ra2.app.007").expect("ra2.app.007");
    assert_eq!(host_path["shortDescription"]["text"], "Host volumes are not used");
    assert_eq!(host_path["defaultConfiguration"]["level"], "warning");
    assert!(
        host_path["helpUri"]
            .as_str()
            .is_some_and(|u| u.starts_with("https://") && u.ends_with("/rules/ra2.app.007.yaml"))
    );
    assert!(
        host_path["help"]["markdown"]
            .as_str()
            .is_some_and(|m| m.contains("`host-path`"))
    );
    assert_eq!(host_path["name"], "HostVolumesAreNotUsed");
    assert_eq!(host_path["properties"]["security-severity"], "7.5");
    assert_eq!(
        host_path["properties"]["tags"],
        serde_json::json!(["kubernetes", "anuket-ra2", "security"])
    );
    assert_eq!(host_path["properties"]["precision"], "very-high");
    let probes = rules.iter().find(|r| r["id"] == "ra2.app.026");
    assert!(
        probes.is_none_or(|r| r["properties"].get("security-severity").is_none()),
        "conformance rules are not security alerts"
    );
    assert!(rules.iter().all(|r| r["name"].as_str().is_some_and(|n| !n.is_empty())));
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["description"]["text"]
            .as_str()
            .map(|t| !t.is_empty()),
        Some(true)
    );
    assert!(
        run.get("automationDetails").is_none(),
        "no category, no automationDetails"
    );
    for result in run["results"].as_array().expect("results") {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }
    insta::assert_json_snapshot!(
        "sarif_results",
        serde_json::json!({
            "results": run["results"],
            "invocations": run["invocations"],
            "columnKind": run["columnKind"],
            "properties": run["properties"],
        })
    );
}

#[test]
fn sarif_of_the_latest_edition_lists_its_rules_with_their_levels() {
    let output = run(&[
        "lint",
        "manifests/upf.yaml",
        "--no-config",
        "--edition",
        "latest",
        "--format",
        "sarif",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let rules = value["runs"][0]["tool"]["driver"]["rules"].as_array().expect("rules");
    let host_path = rules.iter().find(|r| r["id"] == "ra2.app.007").expect("ra2.app.007");
    assert_eq!(host_path["defaultConfiguration"]["level"], "error");
    assert!(
        !rules.iter().any(|r| r["id"] == "ra2.app.001"),
        "retired in the latest edition"
    );
}

#[test]
fn junit_golden() {
    let (code, text) = golden("junit");
    assert_eq!(code, 2);
    insta::assert_snapshot!("junit", text);
}

#[test]
fn github_golden() {
    let (code, text) = golden("github");
    assert_eq!(code, 2);
    insta::assert_snapshot!("github", text);
}

/// OpenReports: the same reports as `policyreport` in `openreports.io/v1alpha1`.
#[test]
fn openreports_golden() {
    let output = report_golden("openreports");
    assert_eq!(output.status.code(), Some(2));
    insta::assert_snapshot!("openreports", stdout(&output));
}

/// The golden run in a report format, at the time `SOURCE_DATE_EPOCH` 1700000000.
fn report_golden(format: &str) -> std::process::Output {
    let mut args = GOLDEN_ARGS.to_vec();
    args.push(format);
    Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(&args)
        .current_dir(data())
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .stdin(Stdio::null())
        .output()
        .expect("ra2 runs")
}

/// PolicyReports: one per namespace, the PersistentVolume's finding in the
/// ClusterPolicyReport, the unreadable document in the report without a namespace; the time
/// from `SOURCE_DATE_EPOCH` (the API server e2e: `policyreport_e2e.rs`).
#[test]
fn policyreport_golden() {
    let output = report_golden("policyreport");
    assert_eq!(output.status.code(), Some(2));
    let mut args = GOLDEN_ARGS.to_vec();
    args.push("policyreport");
    insta::assert_snapshot!("policyreport", stdout(&output));
    let bad = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(&args)
        .current_dir(data())
        .env("SOURCE_DATE_EPOCH", "yesterday")
        .output()
        .expect("ra2 runs");
    assert_eq!(bad.status.code(), Some(2), "a bad SOURCE_DATE_EPOCH is an error");
    assert!(bad.stdout.is_empty());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("SOURCE_DATE_EPOCH"));
}

#[test]
fn jsonl_golden() {
    let (code, text) = golden("jsonl");
    assert_eq!(code, 2);
    insta::assert_snapshot!("jsonl", text);
}

/// Every line of `--format jsonl` is a JSON object; without their `type`, the finding and
/// error lines are exactly the JSON report's `findings` and `errors` (the same multiset, in
/// input order), and the last line is its `summary`.
#[test]
fn jsonl_is_the_json_report_line_by_line() {
    let args = |format: &'static str| {
        vec![
            "lint",
            "manifests",
            "../../../tests/fixtures",
            "--no-config",
            "--format",
            format,
        ]
    };
    let json = run(&args("json"));
    let jsonl = run(&args("jsonl"));
    assert_eq!(json.status.code(), jsonl.status.code());
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let text = stdout(&jsonl);
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let mut summary = lines.pop().expect("a summary line");
    assert_eq!(
        summary.as_object_mut().and_then(|o| o.remove("type")),
        Some("summary".into())
    );
    assert_eq!(summary, report["summary"]);
    let (mut findings, mut errors) = (Vec::new(), Vec::new());
    let mut last = (String::new(), 0, 0);
    for mut line in lines {
        let here = (
            line["file"].as_str().expect("file").to_owned(),
            line["line"].as_u64().expect("line"),
            line["column"].as_u64().expect("column"),
        );
        assert!(here >= last, "input order: {here:?} after {last:?}");
        last = here;
        match line
            .as_object_mut()
            .and_then(|o| o.remove("type"))
            .as_ref()
            .and_then(|t| t.as_str())
        {
            Some("finding") => findings.push(line),
            Some("error") => errors.push(line),
            other => panic!("unexpected type {other:?}"),
        }
    }
    assert!(findings.len() > 100 && !errors.is_empty());
    assert_eq!(serde_json::Value::Array(findings), report["findings"]);
    assert_eq!(serde_json::Value::Array(errors), report["errors"]);
}

/// Every SARIF log of the rule fixtures, in both editions, is valid.
#[test]
fn sarif_of_every_fixture_is_valid() {
    let Some(validator) = sarif_validator() else { return };
    let dir = workspace().join("tests").join("fixtures");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("fixture");
        let name = format!(
            "tests/fixtures/{}",
            path.file_name().and_then(|n| n.to_str()).unwrap_or("")
        );
        // A latest-only rule's fixture may have no findings in the base edition; every fixture
        // must produce results in at least one.
        let mut results = 0;
        for edition in ra2_core::Edition::ALL {
            let config = ra2_core::Config {
                edition,
                ..Default::default()
            };
            let report = ra2_core::lint_str(&name, &text, &config);
            results += report.findings.len();
            let sarif = ra2_report::sarif::render(&report);
            assert_valid_sarif(&validator, &sarif, &format!("{name} ({})", edition.as_str()));
        }
        assert!(results > 0, "{name} has findings");
    }
}

/// The whole shared corpus as one run: thousands of results, all valid.
#[test]
fn sarif_of_the_corpus_is_valid() {
    let Some(validator) = sarif_validator() else { return };
    let corpus = workspace().join("..").join("shared").join("corpus");
    if !corpus.is_dir() {
        eprintln!("skipping: ../shared/corpus is not beside the checkout");
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![corpus.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("corpus dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    let config = ra2_core::Config::default();
    let mut linter = ra2_core::Linter::new(&config);
    for path in &files {
        let name = path
            .strip_prefix(&corpus)
            .expect("under corpus")
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(path).expect("corpus files are UTF-8");
        linter.add_file(&name, &text);
    }
    let report = linter.finish();
    assert!(report.findings.len() > 100, "the corpus has findings");
    let sarif = ra2_report::sarif::render(&report);
    assert_valid_sarif(&validator, &sarif, "corpus");
}

/// The same file gets the same URI (and so the same fingerprints) however it was named.
#[test]
fn sarif_is_the_same_however_the_files_are_named() {
    let absolute = data().join("manifests").canonicalize().expect("manifests");
    let absolute = absolute.to_string_lossy();
    let runs: Vec<(&str, PathBuf, Vec<&str>)> = vec![
        ("manifests", data(), vec!["manifests", "--source-root", "."]),
        (
            "./manifests/../manifests",
            data(),
            vec!["./manifests/../manifests", "--source-root", "."],
        ),
        ("an absolute path", data(), vec![&*absolute, "--source-root", "."]),
        (
            ". from manifests/",
            data().join("manifests"),
            vec![".", "--source-root", ".."],
        ),
    ];
    let mut first: Option<String> = None;
    for (what, dir, paths) in runs {
        let mut args = vec![
            "lint",
            "--select",
            "ra2.app.007",
            "--no-config",
            "--format",
            "sarif",
            "--category",
            "ra2-base",
        ];
        args.extend(paths);
        let output = Command::new(env!("CARGO_BIN_EXE_ra2"))
            .args(&args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .expect("ra2 runs");
        let text = stdout(&output);
        assert!(!text.contains("file://"), "{what}: no absolute path");
        assert!(text.contains("\"uri\": \"manifests/upf.yaml\""), "{what}");
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(value["runs"][0]["automationDetails"]["id"], "ra2-base/");
        match &first {
            None => first = Some(text),
            Some(first) => assert_eq!(first, &text, "{what}"),
        }
    }
}

/// Microsoft's SARIF multitool, with GitHub code scanning's rules, finds no error and no
/// warning in the SARIF of the examples, of every rule fixture in both editions and of the
/// whole shared corpus; and it does find them in a log that breaks GitHub's rules.
#[test]
fn the_sarif_multitool_finds_nothing_wrong() {
    let Some(tool) = multitool::multitool() else { return };
    let dir = multitool::scratch("formats");
    let write = |name: &str, text: &str| std::fs::write(dir.join(format!("{name}.sarif")), text).expect("write");
    write("examples", &golden("sarif").1);
    for edition in ["base", "latest"] {
        let output = Command::new(env!("CARGO_BIN_EXE_ra2"))
            .args([
                "lint",
                "--no-config",
                "--edition",
                edition,
                "--format",
                "sarif",
                "fixtures",
            ])
            .current_dir(workspace().join("tests"))
            .stdin(Stdio::null())
            .output()
            .expect("ra2 runs");
        write(&format!("fixtures-{edition}"), &stdout(&output));
    }
    let corpus = workspace().join("..").join("shared").join("corpus");
    if corpus.is_dir() {
        let output = Command::new(env!("CARGO_BIN_EXE_ra2"))
            .args(["lint", "--no-config", "--format", "sarif", "--source-root", ".", "."])
            .current_dir(&corpus)
            .stdin(Stdio::null())
            .output()
            .expect("ra2 runs");
        write("corpus", &stdout(&output));
    }
    let problems = multitool::problems(&tool, &dir);
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    // The validator is not a rubber stamp: a result without a location breaks GitHub's rules.
    let mut broken: serde_json::Value = serde_json::from_str(&golden("sarif").1).expect("JSON");
    broken["runs"][0]["results"][0]
        .as_object_mut()
        .expect("a result")
        .remove("locations");
    let bad = multitool::scratch("formats-bad");
    std::fs::write(bad.join("broken.sarif"), broken.to_string()).expect("write");
    let problems = multitool::problems(&tool, &bad);
    assert!(problems.iter().any(|p| p.contains("GH")), "{problems:?}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&bad);
}
