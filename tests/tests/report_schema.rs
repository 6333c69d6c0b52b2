//! The report's JSON Schema (`ra2-core/schemas/report.schema.json`, shipped like the config
//! schema): it compiles, real output validates against it, and the TypeScript declarations of
//! the JS module (`ra2-wasm/src/web.rs`) name exactly its fields, optional where it does not
//! require them.

use std::collections::BTreeSet;

use ra2_core::{Config, Linter, Report};
use ra2_tests::{fixtures, root};
use serde_json::Value;

fn schema() -> Value {
    serde_json::from_str(ra2_core::report::SCHEMA).expect("the schema is JSON")
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, report: &Report) {
    let json = report.to_json_value();
    let errors: Vec<String> = validator
        .iter_errors(&json)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

#[test]
fn real_output_validates() {
    let validator = jsonschema::validator_for(&schema()).expect("schema compiles");
    for fixture in fixtures() {
        assert_valid(&validator, &fixture.file_name(), &fixture.lint());
    }
    for edition in ["base", "latest"] {
        let config = Config {
            edition: ra2_core::Edition::parse(edition).unwrap_or_default(),
            ..Config::default()
        };
        let mut linter = Linter::new(&config);
        for dir in ["examples/broken", "examples/conformant"] {
            for entry in std::fs::read_dir(root().join(dir)).expect("examples") {
                let path = entry.expect("entry").path();
                let text = std::fs::read_to_string(&path).expect("UTF-8");
                linter.add_file(&path.to_string_lossy(), &text);
            }
        }
        assert_valid(&validator, edition, &linter.finish());
    }
    // The optional parts: strict mode's counts, Helm sources and hooks, related locations,
    // API-server refusals, suppressions, unreadable documents.
    let text = "# Source: cnf/templates/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: {helm.sh/hook: test, ignore-check.ra2.dev/ra2.app.007: \"lab only\"}\nspec:\n  hostNetwork: true\n  volumes: [{name: h, hostPath: {path: /x}}]\n  containers:\n  - name: c\n    image: r/c:1\n    ports: [{containerPort: 80, protocol: tcp}]\n    hostpath: typo\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\nkind: [\n";
    let config = Config::default();
    let mut linter = Linter::new(&config).with_object_hook(Box::new(ra2_strict::Strict::new()));
    linter.add_file("chart.yaml", text);
    let report = linter.finish();
    let json = report.to_json_value();
    assert!(json["summary"]["strict_skipped"].as_u64() > Some(0), "{json:#}");
    assert!(
        json["findings"]
            .as_array()
            .is_some_and(|f| f.iter().any(|f| f["refused_by_api_server"] == true))
    );
    assert!(
        json["objects"]
            .as_array()
            .is_some_and(|o| o.iter().any(|o| o["source_template"].is_string()))
    );
    assert!(!report.errors.is_empty() && report.summary.suppressed > 0);
    assert_valid(&validator, "strict Helm output", &report);
    // And the schema can fail: a report without its summary, a finding with a bad severity.
    let mut broken = json.clone();
    broken.as_object_mut().expect("object").remove("summary");
    assert!(!validator.is_valid(&broken));
    let mut broken = json;
    broken["findings"][0]["severity"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

/// The members of `export interface NAME { ... }` in TypeScript text: (name, optional).
fn interface(ts: &str, name: &str) -> BTreeSet<(String, bool)> {
    let start = ts
        .find(&format!("export interface {name} "))
        .unwrap_or_else(|| panic!("no interface {name}"));
    let body_start = start + ts[start..].find('{').expect("a body") + 1;
    let mut depth = 0usize;
    let mut members = BTreeSet::new();
    let mut current = String::new();
    let mut in_comment = false;
    let mut chars = ts[body_start..].chars().peekable();
    while let Some(c) = chars.next() {
        if in_comment {
            if c == '*' && chars.peek() == Some(&'/') {
                chars.next();
                in_comment = false;
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'*') => in_comment = true,
            '{' | '(' | '[' => {
                depth += 1;
                current.push(c);
            }
            '}' if depth == 0 => break,
            '}' | ')' | ']' => {
                depth -= 1;
                current.push(c);
            }
            ';' | '\n' if depth == 0 => {
                if let Some(member) = member(&current) {
                    members.insert(member);
                }
                current.clear();
            }
            _ => current.push(c),
        }
    }
    if let Some(member) = member(&current) {
        members.insert(member);
    }
    members
}

fn member(text: &str) -> Option<(String, bool)> {
    let (key, _) = text.trim().split_once(':')?;
    let optional = key.ends_with('?');
    let key = key.trim_end_matches('?').trim().trim_matches('"').trim_matches('\'');
    (!key.is_empty()).then(|| (key.to_owned(), optional))
}

/// The properties of a schema object: (name, optional).
fn properties(schema: &Value) -> BTreeSet<(String, bool)> {
    let required: BTreeSet<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(|k| (k.clone(), !required.contains(k.as_str())))
        .collect()
}

#[test]
fn typescript_declarations_match_the_schema() {
    let ts = std::fs::read_to_string(root().join("ra2-wasm/src/web.rs")).expect("web.rs");
    let schema = schema();
    let defs = &schema["$defs"];
    for (ts_name, def) in [
        ("Report", &schema),
        ("Finding", &defs["finding"]),
        ("LintError", &defs["error"]),
        ("ObjectSummary", &defs["object"]),
        ("Summary", &defs["summary"]),
        ("ObjectRef", &defs["objectRef"]),
    ] {
        assert_eq!(
            interface(&ts, ts_name),
            properties(def),
            "{ts_name} in ra2-wasm/src/web.rs"
        );
    }
}
