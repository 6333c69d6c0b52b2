//! Parity across the faces: the rule fixtures through `ra2 lint --format json` (the CLI), `lint`
//! of the built web package (in Node) and the built admission policy (in a waPC host) give the
//! same rule ids at the same pointers.
//!
//! Whole fixture files go through the CLI and the web build, whose reports must be identical.
//! Every object of every fixture also goes alone (as the JSON an API server would send) through
//! all three: the policy sees one object per request, so cross-document checks need the same
//! single-object input on the other faces to compare like with like.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use ra2_host_tests::{Policy, objects, ra2_bin, root, rule_and_pointer, validation_request};
use serde_json::{Value, json};

struct Fixture {
    name: String,
    text: String,
    edition: String,
}

fn fixtures() -> Vec<Fixture> {
    let dir = root().join("tests/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/fixtures")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| Path::new(n).extension().is_some_and(|e| e == "yaml"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(&name)).expect("fixture");
            let edition = text
                .lines()
                .find_map(|l| l.strip_prefix("# edition: "))
                .unwrap_or("base")
                .trim()
                .to_owned();
            Fixture { name, text, edition }
        })
        .collect()
}

/// `ra2 lint --format json` on `input` (a path under tests/, or `-` with `stdin`).
fn cli(input: &str, stdin: Option<&str>, edition: &str) -> Value {
    let mut child = Command::new(ra2_bin())
        .args([
            "lint",
            "--format",
            "json",
            "--no-config",
            "--fail-on",
            "never",
            "--edition",
            edition,
            input,
        ])
        .current_dir(root().join("tests"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}; build it with cargo build -p ra2-cli", ra2_bin().display()));
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(stdin.unwrap_or_default().as_bytes())
        .expect("write stdin");
    drop(pipe);
    let out = child.wait_with_output().expect("ra2 lint");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("ra2 lint {input}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// `lint` of the web package's node flavour, for many inputs in one Node process.
fn web(inputs: &[Value]) -> Vec<Value> {
    let script = root().join("ra2-wasm/tests/node/lint-batch.mjs");
    let mut child = Command::new("node")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node");
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(&serde_json::to_vec(inputs).expect("json"))
        .expect("write stdin");
    drop(pipe);
    let out = child.wait_with_output().expect("node");
    assert!(out.status.success(), "node: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("reports")
}

/// `rule pointer` of each finding, as admission lines start.
/// The k8s.api checks of what the API server's decoder refuses: an admission review's object
/// cannot hold those, and the policy does not look for them.
const DECODING_CHECKS: &[&str] = &["unknown-field", "wrong-type", "unknown-kind", "service-type"];

/// A report without its findings of [`DECODING_CHECKS`].
fn without_decoding_refusals(report: &Value) -> Value {
    let mut report = report.clone();
    if let Some(findings) = report["findings"].as_array_mut() {
        findings.retain(|f| !(f["rule"] == "k8s.api" && DECODING_CHECKS.iter().any(|c| f["check"] == *c)));
    }
    report
}

fn heads(report: &Value) -> Vec<String> {
    let mut out: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let (rule, pointer) = (
                f["rule"].as_str().unwrap_or_default(),
                f["pointer"].as_str().unwrap_or_default(),
            );
            if pointer.is_empty() {
                rule.to_owned()
            } else {
                format!("{rule} {pointer}")
            }
        })
        .collect();
    out.sort();
    out
}

fn request(object: &Value) -> Value {
    json!({"request": {
        "uid": "parity", "operation": "CREATE",
        "kind": {"group": "", "version": "", "kind": object["kind"]},
        "object": object,
    }})
}

#[test]
fn cli_web_and_policy_agree() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 10, "expected the rule fixtures in tests/fixtures");

    // Whole files: the CLI and the web build give the same report.
    let inputs: Vec<Value> = fixtures
        .iter()
        .map(|f| json!({"text": f.text, "options": {"filename": format!("fixtures/{}", f.name), "edition": f.edition}}))
        .collect();
    let web_reports = web(&inputs);
    for (fixture, web_report) in fixtures.iter().zip(&web_reports) {
        let cli_report = cli(&format!("fixtures/{}", fixture.name), None, &fixture.edition);
        assert!(
            !cli_report["findings"].as_array().expect("findings").is_empty(),
            "{}",
            fixture.name
        );
        assert_eq!(&cli_report, web_report, "{}: CLI and web reports differ", fixture.name);
    }

    // Object by object: all three faces.
    let mut cases: Vec<(String, String, Value)> = Vec::new();
    for fixture in &fixtures {
        for (i, object) in objects(&fixture.text).into_iter().enumerate() {
            cases.push((format!("{} object {i}", fixture.name), fixture.edition.clone(), object));
        }
    }
    let inputs: Vec<Value> = cases
        .iter()
        .map(|(_, edition, object)| json!({"text": object.to_string(), "options": {"filename": "<stdin>", "edition": edition}}))
        .collect();
    let web_reports = web(&inputs);
    let policy = Policy::load();
    let mut per_rule: BTreeMap<String, usize> = BTreeMap::new();
    let mut unreadable = 0;
    for ((what, edition, object), web_report) in cases.iter().zip(&web_reports) {
        let text = object.to_string();
        let cli_report = cli("-", Some(&text), edition);
        assert_eq!(&cli_report, web_report, "{what}: CLI and web reports differ");
        let answer = policy.validate(&validation_request(
            &request(object),
            &json!({"fail-on": "never", "edition": edition}),
        ));
        if !cli_report["errors"].as_array().expect("errors").is_empty() {
            // What the CLI cannot read, the policy refuses as a bad request.
            unreadable += 1;
            assert_eq!(answer["code"], 400, "{what}: {answer}");
            assert!(
                answer["message"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("ra2 cannot read the object: "),
                "{what}: {answer}"
            );
            continue;
        }
        assert_eq!(answer["accepted"], true, "{what}: {answer}");
        // The object of an admission review has been decoded by the API server already, so the
        // policy leaves out what only a manifest can hold (`Linter::with_decoded_objects`).
        let expected = heads(&without_decoding_refusals(&cli_report));
        for head in &expected {
            *per_rule
                .entry(head.split(' ').next().unwrap_or_default().to_owned())
                .or_default() += 1;
        }
        let mut warnings: Vec<String> = answer["warnings"]
            .as_array()
            .map(|w| w.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        // A long list ends with `… and N more findings`: what is shown must be findings of the
        // CLI, and shown plus N must be all of them.
        let more = warnings
            .last()
            .and_then(|w| w.strip_prefix("… and "))
            .and_then(|w| w.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok());
        if more.is_some() {
            warnings.pop();
        }
        let mut shown: Vec<String> = warnings.iter().map(|w| rule_and_pointer(w)).collect();
        shown.sort();
        match more {
            None => assert_eq!(shown, expected, "{what}: policy and CLI differ"),
            Some(n) => {
                assert_eq!(shown.len() + n, expected.len(), "{what}");
                let mut rest = expected.clone();
                for head in &shown {
                    let at = rest.iter().position(|h| h == head);
                    assert!(at.is_some(), "{what}: policy reports {head}, the CLI does not");
                    rest.remove(at.unwrap_or_default());
                }
            }
        }
    }
    // Every rule of the catalogue took part, except rules that only compare documents with
    // each other (one object at a time, as in admission, gives them nothing to compare).
    for id in ra2_core::catalogue::all().iter().map(|d| d.id) {
        let cross_document_only =
            ra2_core::rules::find(id).is_some_and(|r| r.parts.iter().all(|c| c.pod.is_none() && c.object.is_none()));
        if cross_document_only {
            continue;
        }
        assert!(
            per_rule.get(id).is_some_and(|n| *n > 0),
            "no finding of {id} in the parity run"
        );
    }
    eprintln!(
        "parity: {} files, {} objects ({unreadable} unreadable), findings per rule {per_rule:?}",
        fixtures.len(),
        cases.len()
    );
}
