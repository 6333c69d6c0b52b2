//! A fresh instance per request (how Kubewarden's policy-server runs a policy) answers exactly
//! as one reused instance does: every pod-bearing object of the corpus (`../shared/corpus`
//! beside the checkout, when present) and of the rule fixtures, with default and with strict
//! settings, through both. Not timed: scripts/bench-wasm measures the two.

use std::path::{Path, PathBuf};

use ra2_host_tests::{
    FreshPerRequest, Policy, create_review, objects, policy_path, read_artefact, root, validation_request,
};
use serde_json::{Value, json};

const POD_BEARING: &[&str] = &[
    "Pod",
    "PodTemplate",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.filter_map(Result::ok).map(|e| e.path()) {
        if path.is_dir() {
            files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
        {
            out.push(path);
        }
    }
}

#[test]
fn fresh_and_reused_instances_agree() {
    let mut paths = Vec::new();
    files(&root().join("tests/fixtures"), &mut paths);
    let corpus = root().join("../shared/corpus");
    let fixtures_only = paths.len();
    files(&corpus, &mut paths);
    if paths.len() == fixtures_only {
        eprintln!("fresh: no corpus at {}; the rule fixtures only", corpus.display());
    }
    paths.sort();
    let module = read_artefact(&policy_path());
    let fresh = FreshPerRequest::new(&module).expect("the policy compiles");
    let reused = Policy::load();
    let mut compared = 0;
    let mut denied = 0;
    for path in &paths {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for object in objects(&text) {
            if !object["kind"].as_str().is_some_and(|k| POD_BEARING.contains(&k)) {
                continue;
            }
            let review = create_review(&object);
            for settings in [json!({}), json!({"fail-on": "info", "edition": "latest"})] {
                let payload = serde_json::to_vec(&validation_request(&review, &settings)).expect("json");
                let from_fresh = fresh.call("validate", &payload).expect("fresh instance");
                let from_reused = reused.call("validate", &payload).expect("reused instance");
                assert_eq!(
                    String::from_utf8_lossy(&from_fresh),
                    String::from_utf8_lossy(&from_reused),
                    "{} ({} {}), settings {settings}",
                    path.display(),
                    object["kind"],
                    object["metadata"]["name"]
                );
                let answer: Value = serde_json::from_slice(&from_fresh).expect("a JSON answer");
                denied += usize::from(answer["accepted"] == false);
                compared += 1;
            }
        }
    }
    eprintln!(
        "fresh: {compared} requests from {} files, {denied} denied, identical answers",
        paths.len()
    );
    assert!(compared > 50, "too few pod-bearing objects: {compared}");
    assert!(
        denied > 0 && denied < compared,
        "the comparison covers denials and admissions"
    );
}
