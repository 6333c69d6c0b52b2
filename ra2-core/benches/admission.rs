//! Native admission latency: `ra2_core::admission::review` of a review's text on a typical Pod and a large
//! Deployment (the same inputs as the waPC `policy-bench`), and, in the same run, how long
//! reading the object takes through the JSON reader and through libyaml (the path every JSON
//! document took before the JSON reader), so the ratio holds on a noisy machine.
//!
//! `cargo bench -p ra2-core --bench admission`.
// Statistics over at most a few thousand samples: float conversions lose nothing that matters.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or_default()
}

/// p50 in µs, after printing a row; rows whose name lacks the command line's filter (if one is
/// given, as in `cargo bench --bench admission -- decision`) are skipped, so a profiler sees
/// one path only.
/// `RA2_BENCH_ITERATIONS` caps the iterations, so that an instruction-counting profiler
/// (`valgrind --tool=callgrind`, steady on a loaded machine where times are not) finishes soon.
fn measure(what: &str, iterations: usize, mut f: impl FnMut()) -> f64 {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if filter.is_some_and(|filter| !what.contains(&filter)) {
        return f64::NAN;
    }
    let iterations = std::env::var("RA2_BENCH_ITERATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .map_or(iterations, |cap: usize| iterations.min(cap.max(1)));
    for _ in 0..iterations.div_ceil(10) {
        f();
    }
    let mut times = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort_unstable();
    let p50 = percentile(&times, 0.5).as_secs_f64() * 1e6;
    println!(
        "{what:<52} p50 {p50:>8.1} µs   p99 {:>8.1} µs",
        percentile(&times, 0.99).as_secs_f64() * 1e6,
    );
    p50
}

/// A Deployment the size of a big CNF: 24 containers with env, mounts, probes and resources,
/// and as many volumes, some of them hostPath.
fn large_deployment() -> Value {
    let containers: Vec<Value> = (0..24)
        .map(|i| {
            json!({
                "name": format!("worker-{i}"),
                "image": format!("registry.example.com/cnf/worker:{i}.0.0"),
                "imagePullPolicy": "IfNotPresent",
                "args": ["--config=/etc/worker/config.yaml", "--log-level=info", format!("--shard={i}")],
                "env": (0..20).map(|e| json!({"name": format!("WORKER_SETTING_{e}"), "value": format!("value-{i}-{e}")})).collect::<Vec<_>>(),
                "ports": [{"name": "metrics", "containerPort": 9000 + i, "protocol": "TCP"}],
                "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}, "limits": {"cpu": "1", "memory": "1Gi"}},
                "livenessProbe": {"httpGet": {"path": "/healthz", "port": 9000 + i}, "periodSeconds": 10},
                "readinessProbe": {"httpGet": {"path": "/ready", "port": 9000 + i}, "periodSeconds": 5},
                "securityContext": {"runAsNonRoot": true, "runAsUser": 10001, "readOnlyRootFilesystem": true,
                                    "allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}},
                "volumeMounts": [
                    {"name": format!("config-{i}"), "mountPath": "/etc/worker"},
                    {"name": format!("data-{i}"), "mountPath": "/var/lib/worker"},
                    {"name": "logs", "mountPath": "/var/log/worker"},
                ],
            })
        })
        .collect();
    let mut volumes: Vec<Value> = (0..24)
        .flat_map(|i| {
            [
                json!({"name": format!("config-{i}"), "configMap": {"name": format!("worker-{i}")}}),
                json!({"name": format!("data-{i}"), "emptyDir": {}}),
            ]
        })
        .collect();
    volumes.push(json!({"name": "logs", "hostPath": {"path": "/var/log/cnf", "type": "DirectoryOrCreate"}}));
    json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
        "uid": "bench", "operation": "CREATE", "namespace": "core", "name": "workers",
        "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
        "resource": {"group": "apps", "version": "v1", "resource": "deployments"},
        "object": {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "workers", "namespace": "core", "labels": {"app": "workers"}},
                   "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "workers"}},
                            "template": {"metadata": {"labels": {"app": "workers"},
                                                      "annotations": {"k8s.v1.cni.cncf.io/networks": "core/n3, core/n6"}},
                                         "spec": {"containers": containers, "volumes": volumes,
                                                  "nodeSelector": {"feature.node.kubernetes.io/cpu-cpuid.AVX512F": "true"}}}}}}})
}

/// JSON text without the whitespace between tokens, its keys in the order written: what the
/// API server sends (Go writes a struct's fields in declaration order, not sorted as
/// `serde_json::Value` would write them).
fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut quoted, mut escaped) = (false, false);
    for c in text.chars() {
        if quoted {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
        } else if !c.is_ascii_whitespace() {
            quoted = c == '"';
            out.push(c);
        }
    }
    out
}

fn main() {
    let pod_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ra2-wasm/tests/admission/pod-create-warns.json");
    let pod_text = std::fs::read_to_string(&pod_path).expect("fixture");
    let pod: Value = serde_json::from_str(&pod_text).expect("json");
    // The first decision pays for what ra2 sets up once per process (or per fresh waPC
    // instance): one sample, so a rough figure.
    let first = {
        let text = compact(&pod_text);
        let start = Instant::now();
        std::hint::black_box(ra2_core::admission::review(
            ra2_core::admission::Input::Text(&text),
            &ra2_core::Config::default(),
        ));
        let first = start.elapsed();
        let start = Instant::now();
        std::hint::black_box(ra2_core::admission::review(
            ra2_core::admission::Input::Text(&text),
            &ra2_core::Config::default(),
        ));
        (first, start.elapsed())
    };
    println!(
        "first decision in this process (one sample): {:.1} µs; the second: {:.1} µs",
        first.0.as_secs_f64() * 1e6,
        first.1.as_secs_f64() * 1e6
    );
    let config = ra2_core::Config::default();
    for (name, review, sent, iterations) in [
        ("typical Pod", pod, Some(compact(&pod_text)), 20_000),
        ("large Deployment", large_deployment(), None, 1_000),
    ] {
        let text = review.to_string();
        let object = review["request"]["object"].to_string();
        if let Some(sent) = sent {
            assert_eq!(serde_json::from_str::<Value>(&sent).expect("json"), review);
            println!(
                "{name} as the API server sends it: review {} bytes, keys in Go's order",
                sent.len()
            );
            measure(&format!("  review (decision), sent order {name}"), iterations, || {
                std::hint::black_box(ra2_core::admission::review(
                    ra2_core::admission::Input::Text(&sent),
                    &config,
                ));
            });
            measure(
                &format!("  read request into the tree, sent order {name}"),
                iterations,
                || {
                    std::hint::black_box(ra2_core::admission::read_into_tree(&sent));
                },
            );
            // An UPDATE carries the old object too: read, not kept.
            let mut update = review.clone();
            update["request"]["operation"] = Value::from("UPDATE");
            update["request"]["oldObject"] = update["request"]["object"].clone();
            let update = update.to_string();
            println!(
                "{name} as an UPDATE: review {} bytes, with its old object",
                update.len()
            );
            measure(&format!("  review (decision), UPDATE {name}"), iterations, || {
                std::hint::black_box(ra2_core::admission::review(
                    ra2_core::admission::Input::Text(&update),
                    &config,
                ));
            });
        }
        println!(
            "{name}: review {} bytes, object {} bytes of JSON",
            text.len(),
            object.len()
        );
        let decision = measure(&format!("  review (decision) {name}"), iterations, || {
            std::hint::black_box(ra2_core::admission::review(
                ra2_core::admission::Input::Text(&text),
                &config,
            ));
        });
        measure(&format!("  read request into the tree {name}"), iterations, || {
            std::hint::black_box(ra2_core::admission::read_into_tree(&text));
        });
        measure(
            &format!("  Linter::new + finish (no document) {name}"),
            iterations,
            || {
                std::hint::black_box(ra2_core::Linter::new(&config).finish());
            },
        );
        let lint = |libyaml: bool| {
            let mut linter = ra2_core::Linter::new(&config);
            if libyaml {
                linter = linter.with_libyaml_only();
            }
            linter.add_file("<admission>", &object);
            linter.finish()
        };
        let json = measure(&format!("  lint object, JSON reader {name}"), iterations, || {
            std::hint::black_box(lint(false));
        });
        let yaml = measure(&format!("  lint object, libyaml (before) {name}"), iterations, || {
            std::hint::black_box(lint(true));
        });
        println!(
            "  => lint: libyaml / JSON reader = {:.1}x; decision p50 {decision:.1} µs",
            yaml / json
        );
    }
}
