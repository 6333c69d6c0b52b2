//! The harness itself: a real API server accepts a valid Pod and refuses one its own
//! validation rejects, and kubectl talks to it.

use ra2_testkit::Cluster;
use serde_json::json;

#[test]
fn a_real_api_server_accepts_and_refuses() {
    let Some(cluster) = Cluster::start_or_skip("a_real_api_server_accepts_and_refuses") else {
        return;
    };
    eprintln!("etcd + kube-apiserver ready in {:?}", cluster.startup);
    cluster.create_namespace("harness");

    let pod = |labels: serde_json::Value| {
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "harness", "labels": labels},
            "spec": {"containers": [{"name": "c", "image": "registry.example/app:1.0"}]},
        })
    };
    let ok = cluster.dry_run(&pod(json!({"app": "web"})));
    assert!(ok.accepted, "{} {}", ok.status, ok.message);
    assert_eq!(ok.body["metadata"]["name"], "p");

    let bad = cluster.dry_run(&pod(json!({"a/b/c": "x"})));
    assert!(!bad.accepted);
    assert_eq!(bad.status, 422, "{}", bad.message);
    assert!(bad.message.contains("a/b/c"), "{}", bad.message);

    // Strict field validation: an unknown field is refused, not dropped.
    let mut unknown = pod(json!({}));
    unknown["spec"]["containerz"] = json!([]);
    let strict = cluster.dry_run(&unknown);
    assert!(!strict.accepted);
    assert!(strict.message.contains("containerz"), "{}", strict.message);

    // Dry run stored nothing; kubectl sees the same server.
    let out = cluster.kubectl(&["get", "pods", "-n", "harness", "-o", "name"], None);
    assert!(out.success, "{}", out.stderr);
    assert_eq!(out.stdout.trim(), "");
    let out = cluster.kubectl(&["version", "-o", "json"], None);
    assert!(out.success, "{}", out.stderr);
    assert!(out.stdout.contains(ra2_testkit::KUBERNETES_VERSION), "{}", out.stdout);
}

#[test]
fn base64_matches_the_standard_alphabet() {
    assert_eq!(ra2_testkit::base64(b""), "");
    assert_eq!(ra2_testkit::base64(b"f"), "Zg==");
    assert_eq!(ra2_testkit::base64(b"fo"), "Zm8=");
    assert_eq!(ra2_testkit::base64(b"foo"), "Zm9v");
    assert_eq!(ra2_testkit::base64(b"foobar"), "Zm9vYmFy");
}
