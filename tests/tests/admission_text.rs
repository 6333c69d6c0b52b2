//! The admission decision read once from the request's text (what `admission::review` does
//! first with the text every face hands it) against the serde_json path it replaced (the same
//! entry on a parsed value): for every object of the corpus and of the rule
//! fixtures, as CREATE and UPDATE reviews written the way serde_json writes them and the way the
//! API server does (Go's field order, indented, `&`, `<` and `>` escaped, with `status`,
//! `managedFields` and a name left to the request), with two configurations, the answers are
//! identical byte for byte. The text path must actually answer most of them (it may hand a
//! review it cannot vouch for to the serde_json path), so a fast path that always gave up would
//! fail here.

use std::fmt::Write as _;

use ra2_core::admission::{self, Input};
use ra2_core::{Config, source};
use serde_json::{Value, json};

/// JSON as the API server writes it: keys in the reverse of serde_json's order (so nothing
/// relies on sorted input), two-space indents, and Go's HTML-safe escapes.
fn go_json(value: &Value, indent: usize, out: &mut String) {
    let pad = |n: usize| "  ".repeat(n);
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push_str("{\n");
            for (i, (key, value)) in map.iter().rev().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                let _ = write!(out, "{}{}: ", pad(indent + 1), go_string(key));
                go_json(value, indent + 1, out);
            }
            let _ = write!(out, "\n{}}}", pad(indent));
        }
        Value::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                out.push_str(&pad(indent + 1));
                go_json(item, indent + 1, out);
            }
            let _ = write!(out, "\n{}]", pad(indent));
        }
        Value::String(s) => out.push_str(&go_string(s)),
        other => out.push_str(&other.to_string()),
    }
}

fn go_string(s: &str) -> String {
    Value::from(s)
        .to_string()
        .replace('&', "\\u0026")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
}

fn review(operation: &str, object: &Value, old: Option<&Value>) -> Value {
    let mut request = json!({
        "uid": "0df28fbd-5f5f-11e8-b9ad-42010a800002",
        "kind": {"group": "", "version": "v1", "kind": object["kind"]},
        "resource": {"group": "", "version": "v1", "resource": "things"},
        "namespace": "core",
        "operation": operation,
        "userInfo": {"username": "admin", "groups": ["system:masters"]},
        "object": object,
        "dryRun": false,
    });
    if let Some(old) = old {
        request["oldObject"] = old.clone();
    }
    json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request})
}

/// The object as a CREATE with server bookkeeping: `status`, `managedFields`, and the name
/// left to the request (`generateName` only).
fn with_bookkeeping(object: &Value) -> (Value, Option<String>) {
    let mut object = object.clone();
    let Some(map) = object.as_object_mut() else {
        return (object, None);
    };
    map.insert(
        "status".to_owned(),
        json!({"phase": "Pending", "conditions": [{"type": "Ready"}]}),
    );
    let mut name = None;
    if let Some(Value::Object(metadata)) = map.get_mut("metadata") {
        metadata.insert(
            "managedFields".to_owned(),
            json!([{"manager": "kubectl", "operation": "Update", "fieldsV1": {"f:spec": {}}}]),
        );
        if let Some(Value::String(n)) = metadata.remove("name") {
            metadata.insert("generateName".to_owned(), Value::from(format!("{n}-")));
            name = Some(format!("{n}-x7k2p"));
        }
    }
    (object, name)
}

#[derive(Default)]
struct Tally {
    compared: usize,
    taken: usize,
    denied: usize,
}

fn compare(what: &str, text: &str, config: &Config, tally: &mut Tally) {
    let parsed = serde_json::from_str(text).expect("generated JSON");
    let reference = admission::review(Input::Value(&parsed), config).review;
    tally.compared += 1;
    tally.denied += usize::from(reference["response"]["allowed"] == false);
    let answer = admission::review(Input::Text(text), config);
    if answer.read_once {
        tally.taken += 1;
        assert_eq!(
            serde_json::to_string(&answer.review).unwrap(),
            serde_json::to_string(&reference).unwrap(),
            "{what}"
        );
    }
    assert_eq!(answer.review, reference, "{what}");
}

fn objects(text: &str) -> Vec<Value> {
    let (body, bom) = source::strip_bom(text);
    source::chunks(body, bom, 0)
        .iter()
        .filter_map(|chunk| ra2_core::yaml_to_json(chunk.text).ok())
        .flat_map(|value| match value.get("items").and_then(Value::as_array) {
            Some(items) if value["kind"].as_str().is_some_and(|k| k.ends_with("List")) => items.clone(),
            _ => vec![value],
        })
        .filter(|v| v["kind"].is_string() && v["apiVersion"].is_string())
        .collect()
}

/// Corpus objects are judged as CREATEs only (UPDATE takes the same path; the fixtures cover it).
fn check_files(files: &[(String, String)], tally: &mut Tally) {
    // A depth limit below the reader's makes the text path measure each object exactly as
    // serde_json writes it; with the default limits it only puts the keys in order.
    let strict = Config::from_json(
        &json!({"fail-on": "info", "edition": "latest", "limits": {"max-depth": 99}}),
        "settings",
    )
    .unwrap();
    let default = Config::default();
    for (name, text) in files {
        let corpus = !name.starts_with('/');
        for (i, object) in objects(text).iter().enumerate() {
            let what = format!("{name} #{i} ({} {})", object["kind"], object["metadata"]["name"]);
            let compact = review("CREATE", object, None).to_string();
            compare(&format!("{what}, compact"), &compact, &default, tally);
            let (kept, name) = with_bookkeeping(object);
            let mut create = review("CREATE", &kept, None);
            if let Some(name) = name {
                create["request"]["name"] = Value::from(name);
            }
            let mut pretty = String::new();
            go_json(&create, 0, &mut pretty);
            compare(
                &format!("{what}, as the API server writes it"),
                &pretty,
                &default,
                tally,
            );
            compare(
                &format!("{what}, as the API server writes it, strict"),
                &pretty,
                &strict,
                tally,
            );
            if !corpus {
                let mut update = String::new();
                go_json(&review("UPDATE", object, Some(object)), 0, &mut update);
                compare(&format!("{what}, UPDATE"), &update, &default, tally);
            }
        }
    }
}

#[test]
fn handwritten_reviews_answer_the_same() {
    let pod = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "annotations": {"a&b": "<x>", "caf\u{e9}": "\u{1}\t\"q\""}},
        "spec": {"nodeSelector": {"node-role.kubernetes.io/control-plane": ""},
                 "volumes": [{"name": "h", "hostPath": {"path": "/var/lib/x"}}, {"name": "e", "emptyDir": {}}],
                 "containers": [{"name": "a", "image": "r/a:1", "ports": [{"containerPort": 80, "hostPort": 8080}],
                                 "securityContext": {"privileged": true, "runAsUser": 0}}]}});
    let mut tally = Tally::default();
    let mut text = String::new();
    go_json(&review("CREATE", &pod, None), 0, &mut text);
    for config in [
        Config::default(),
        Config::from_json(&json!({"fail-on": "never"}), "settings").unwrap(),
    ] {
        compare("pod", &text, &config, &mut tally);
        compare(
            "pod, compact",
            &review("CREATE", &pod, None).to_string(),
            &config,
            &mut tally,
        );
    }
    // `managedFields` and the old object are read but not kept: what is in them (duplicate
    // keys, which the text path otherwise hands to serde_json) changes nothing.
    let mut update = review("UPDATE", &pod, Some(&json!({"metadata": {"name": "p"}})));
    update["request"]["object"]["metadata"]["managedFields"] = json!([{"manager": "m", "fieldsV1": {"f:x": {}}}]);
    let dup = update
        .to_string()
        .replace(r#""manager":"m""#, r#""manager":"m","manager":"n""#)
        .replace(
            r#"{"metadata":{"name":"p"}}"#,
            r#"{"metadata":{"name":"p","name":"q"}}"#,
        );
    assert_eq!(dup.matches(r#""manager""#).count(), 2);
    assert_eq!(dup.matches(r#""name":"q""#).count(), 1);
    // Values serde_json writes otherwise than their text (a 19-digit integer; `-0`; an escaped
    // character ra2 refuses raw): the text path measures the object exactly, or hands it over.
    for (value, text) in [("1234567890123456789", true), ("-0", false), (r#""a\u0085b""#, false)] {
        let odd = review("CREATE", &pod, None)
            .to_string()
            .replace(r#""name":"p""#, &format!(r#""name":"p","labels":{{"x":{value}}}"#));
        assert!(odd.contains(value));
        let mut each = Tally::default();
        compare(&format!("pod with {value}"), &odd, &Config::default(), &mut each);
        assert_eq!(each.taken, usize::from(text), "{value}");
    }
    compare(
        "pod with duplicate keys where they are not kept",
        &dup,
        &Config::default(),
        &mut tally,
    );
    assert_eq!(tally.taken, tally.compared, "the text path answered every plain review");
    // What the text path hands to serde_json: floats, duplicate keys, not JSON, not a review.
    for text in [
        r#"{"request": {"operation": "CREATE", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"x": 1.5}}}}"#,
        r#"{"request": {"operation": "UPDATE", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}, "oldObject": {"x": 1.5}}}"#,
        r#"{"request": {"operation": "CREATE", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "managedFields": [1 2]}}}}"#,
        r#"{"request": {"operation": "CREATE", "operation": "DELETE", "object": {}}}"#,
        r#"{"request": {"operation": "PATCH"}}"#,
        r#"{"kind": "Pod", "request": {"operation": "DELETE"}}"#,
        "{\"request\": ",
        "[]",
    ] {
        assert!(
            !admission::review(Input::Text(text), &Config::default()).read_once,
            "{text}"
        );
        if serde_json::from_str::<Value>(text).is_ok() {
            compare(text, text, &Config::default(), &mut Tally::default());
        }
    }
    // DELETE is answered without a look at the object.
    let delete = r#"{"request": {"uid": "u", "operation": "DELETE"}}"#;
    let answer = admission::review(Input::Text(delete), &Config::default());
    assert!(answer.read_once);
    assert_eq!(
        answer.review,
        json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": "u", "allowed": true}})
    );
    // The report's positions are in the request's text.
    let answer = admission::review(Input::Text(&text), &Config::default());
    assert!(answer.read_once);
    let finding = answer.report.findings.iter().find(|f| f.rule == "ra2.app.007").unwrap();
    let line = text.lines().nth(finding.line - 1).unwrap();
    assert!(line.trim_start().starts_with("\"hostPath\""), "{line}");
}

#[test]
fn corpus_and_fixture_reviews_answer_the_same() {
    let mut files: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(ra2_tests::root().join("tests/fixtures"))
        .unwrap()
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "yaml" || e == "json") {
            files.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    files.sort();
    match ra2_tests::corpus_files() {
        Some(corpus) => files.extend(corpus),
        None => eprintln!("admission_text: no corpus beside the checkout; the rule fixtures only"),
    }
    // Two halves on two threads: the corpus is large for a debug build.
    let (first, second) = files.split_at(files.len() / 2);
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = [first, second]
            .into_iter()
            .map(|half| {
                s.spawn(move || {
                    let mut tally = Tally::default();
                    check_files(half, &mut tally);
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let compared: usize = tallies.iter().map(|t| t.compared).sum();
    let taken: usize = tallies.iter().map(|t| t.taken).sum();
    let denied: usize = tallies.iter().map(|t| t.denied).sum();
    eprintln!("admission_text: {compared} reviews, {taken} answered from the text, {denied} denied");
    assert!(compared > 100 && denied > 10, "{compared} reviews, {denied} denied");
    assert!(
        taken * 100 >= compared * 95,
        "only {taken} of {compared} reviews answered from the text"
    );
}
