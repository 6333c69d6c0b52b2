//! The built policy in a real waPC host: the admission fixtures (Pods, Deployments, CronJobs,
//! DaemonSets; CREATE, UPDATE, DELETE, CONNECT, dry-run; denials, warnings, settings) and
//! malformed payloads.

use std::path::PathBuf;

use ra2_host_tests::{Policy, root, rule_and_pointer, validation_request};
use serde_json::{Value, json};

fn admission_dir() -> PathBuf {
    root().join("ra2-wasm/tests/admission")
}

fn read_json(name: &str) -> Value {
    let path = admission_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sorted(lines: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = lines.into_iter().collect();
    v.sort();
    v
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

#[test]
fn admission_fixtures() {
    let policy = Policy::load();
    let expected = read_json("expected.json");
    let cases = expected["cases"].as_array().expect("cases");
    let mut kinds = std::collections::BTreeSet::new();
    let mut operations = std::collections::BTreeSet::new();
    for case in cases {
        let name = case["review"].as_str().expect("review");
        let review = read_json(name);
        kinds.insert(
            review["request"]["kind"]["kind"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        );
        operations.insert(review["request"]["operation"].as_str().unwrap_or_default().to_owned());
        let settings = case.get("settings").cloned().unwrap_or_else(|| json!({}));
        let what = format!("{name} with settings {settings}");
        assert_eq!(policy.validate_settings(&settings)["valid"], true, "{what}");
        let out = policy.validate(&validation_request(&review, &settings));
        assert_eq!(out["accepted"], case["allowed"], "{what}: {out:#}");
        let message = out["message"].as_str().unwrap_or_default();
        if case["allowed"] == true {
            assert_eq!(out["code"], Value::Null, "{what}");
            assert_eq!(message, "", "{what}");
        } else {
            assert_eq!(out["code"], case["code"], "{what}");
        }
        let deny = message.lines().filter(|l| !l.is_empty()).map(rule_and_pointer);
        assert_eq!(sorted(deny), sorted(strings(&case["deny"])), "{what}: denial lines");
        let warnings = strings(&out["warnings"]);
        assert!(warnings.iter().all(|w| w.chars().count() < 256), "{what}");
        assert_eq!(
            sorted(warnings.iter().map(|w| rule_and_pointer(w))),
            sorted(strings(&case["warnings"])),
            "{what}: warnings"
        );
    }
    for kind in ["Pod", "Deployment", "CronJob", "DaemonSet"] {
        assert!(kinds.contains(kind), "no fixture for {kind}");
    }
    for op in ["CREATE", "UPDATE", "DELETE", "CONNECT"] {
        assert!(operations.contains(op), "no fixture for {op}");
    }
}

#[test]
fn dry_run_is_judged_like_the_real_request() {
    let policy = Policy::load();
    let real = read_json("pod-create-denied.json");
    let dry = read_json("pod-create-dry-run.json");
    assert_eq!(dry["request"]["dryRun"], true);
    let settings = json!({});
    assert_eq!(
        policy.validate(&validation_request(&real, &settings)),
        policy.validate(&validation_request(&dry, &settings))
    );
}

#[test]
fn malformed_payloads_are_refused_not_crashed() {
    let policy = Policy::load();
    let review = read_json("pod-create-denied.json");
    let request = &review["request"];
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"".to_vec(), "ra2: malformed validation request: EOF while parsing"),
        (
            b"{\"request\": ".to_vec(),
            "ra2: malformed validation request: EOF while parsing",
        ),
        (b"\xff\xfe".to_vec(), "ra2: malformed validation request: "),
        (
            b"[]".to_vec(),
            "ra2: malformed admission request: the admission request is null",
        ),
        (
            b"{}".to_vec(),
            "ra2: malformed admission request: the admission request is null",
        ),
        (
            br#"{"request": {"uid": "1"}}"#.to_vec(),
            "ra2: malformed admission request: the admission request has no operation",
        ),
        (
            br#"{"request": {"operation": "CREATE", "object": "a Pod"}}"#.to_vec(),
            "ra2: malformed admission request: the CREATE request's object is a string, not an object",
        ),
        (
            br#"{"request": {"operation": "CREATE", "object": {"kind": "Pod", "spec": {}}}}"#.to_vec(),
            "ra2: malformed admission request: ra2 cannot read the object: object has no apiVersion",
        ),
        (
            serde_json::to_vec(&json!({"request": request, "settings": {"fail-on": 3}})).unwrap(),
            "ra2: invalid ra2 settings: /fail-on: 3 is not one of",
        ),
        (
            serde_json::to_vec(&json!({"request": request, "settings": ["ra2.app"]})).unwrap(),
            "ra2: invalid ra2 settings: expected object, found list",
        ),
    ];
    for (payload, expected) in cases {
        let out = policy.call_json("validate", &payload);
        assert_eq!(out["accepted"], false, "{}", String::from_utf8_lossy(&payload));
        assert_eq!(out["code"], 400, "{}", String::from_utf8_lossy(&payload));
        let message = out["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(expected),
            "{}: {message}",
            String::from_utf8_lossy(&payload)
        );
    }
    // The instance is still healthy after all that.
    let out = policy.validate(&validation_request(&review, &json!({})));
    assert_eq!(out["code"], 403);
    // An operation the policy does not export is a waPC error, not a trap.
    let error = policy.call("mutate", b"{}").unwrap_err();
    assert!(error.contains("No handler registered for function mutate"), "{error}");
}

#[test]
fn settings_validation() {
    let policy = Policy::load();
    let good = json!({
        "edition": "latest",
        "fail-on": "warning",
        "kubernetes-version": "1.33",
        "select": "ra2.app",
        "ignore": ["ra2.app.010/use-nfd"],
        "severity": {"ra2.app.007": "error"},
        "params": {"ra2.app.009": {"network_resources_injector": true}},
        "exemptions": [{"rule": "ra2.app.007", "kind": "DaemonSet", "namespace": "monitoring", "name": "node-exporter*", "reason": "host metrics"}],
        "default-namespace": "cnf",
    });
    assert_eq!(policy.validate_settings(&good), json!({"valid": true, "message": null}));
    assert_eq!(policy.validate_settings(&json!({}))["valid"], true);
    assert_eq!(policy.validate_settings(&Value::Null)["valid"], true);
    let cases = [
        (
            json!({"fail-on": "sometimes"}),
            "invalid ra2 settings: /fail-on: \"sometimes\" is not one of \"error\", \"warning\", \"info\", \"never\"",
        ),
        (
            json!({"selct": ["ra2.app"]}),
            "invalid ra2 settings: /selct: unknown key \"selct\" (did you mean \"select\"?)",
        ),
        (
            json!({"ignore": ["ra2.app.07"]}),
            "invalid ra2 settings: /ignore/0: unknown rule \"ra2.app.07\" (did you mean \"ra2.app.007\"?)",
        ),
        (
            json!({"params": {"ra2.app.009": {"network_resources_injector": "yes"}}}),
            "invalid ra2 settings: /params/ra2.app.009/network_resources_injector: parameter \"network_resources_injector\" of ra2.app.009 must be a boolean, found string",
        ),
        (
            json!({"exemptions": [{"rule": "ra2.app.007"}]}),
            "invalid ra2 settings: /exemptions/0: missing required key \"reason\"",
        ),
        (
            json!({"kubernetes-version": "133"}),
            "invalid ra2 settings: /kubernetes-version: kubernetes-version must be a version like \"1.33\", found \"133\"",
        ),
    ];
    for (settings, expected) in cases {
        assert_eq!(
            policy.validate_settings(&settings),
            json!({"valid": false, "message": expected}),
            "{settings}"
        );
    }
    let out = policy.call_json("validate_settings", b"edition: latest");
    assert_eq!(out["valid"], false);
    assert!(
        out["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("ra2 settings are not JSON: ")
    );
}

#[test]
fn protocol_version_is_v1() {
    let policy = Policy::load();
    assert_eq!(policy.call("protocol_version", b"").unwrap(), b"\"v1\"");
}

#[test]
fn a_large_deployment_is_judged_whole() {
    // 200 containers each mounting a hostPath volume: every finding is counted, the response
    // stays within the API server's warning limits.
    let containers: Vec<Value> = (0..200)
        .map(|i| {
            json!({"name": format!("c{i}"), "image": "registry.example.com/a:1",
                        "volumeMounts": [{"name": format!("v{i}"), "mountPath": "/data"}]})
        })
        .collect();
    let volumes: Vec<Value> = (0..200)
        .map(|i| json!({"name": format!("v{i}"), "hostPath": {"path": format!("/srv/{i}")}}))
        .collect();
    let review = json!({"request": {
        "uid": "big", "operation": "CREATE", "namespace": "core",
        "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
        "object": {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "big"},
                   "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}},
                            "spec": {"containers": containers, "volumes": volumes}}}}}});
    let policy = Policy::load();
    let out = policy.validate(&validation_request(&review, &json!({"select": ["ra2.app.007"]})));
    assert_eq!(out["accepted"], true);
    let warnings = strings(&out["warnings"]);
    let total: usize = warnings.iter().map(|w| w.chars().count()).sum();
    assert!(total < 4096, "{total}");
    let last = warnings.last().expect("warnings");
    let more: usize = last.split(' ').nth(2).and_then(|n| n.parse().ok()).expect("a count");
    assert_eq!(warnings.len() - 1 + more, 200);
    let out = policy.validate(&validation_request(
        &review,
        &json!({"select": ["ra2.app.007"], "fail-on": "warning"}),
    ));
    let message = out["message"].as_str().unwrap_or_default();
    assert_eq!(message.lines().count(), 11);
    assert!(
        message.ends_with("… and 190 more findings (`ra2 lint` lists them all)"),
        "{message}"
    );
}
