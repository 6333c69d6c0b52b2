//! Benchmark of the built policy in a waPC host (scripts/bench-wasm runs it in release):
//! evaluations per second and p50/p99 latency of `validate` for a typical Pod and a large
//! Deployment, one instance, and the same decision natively for comparison.
// Statistics over at most a few thousand samples: float conversions lose nothing that matters.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use std::time::{Duration, Instant};

use ra2_host_tests::{Policy, root, validation_request};
use serde_json::{Value, json};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or_default()
}

fn measure(what: &str, iterations: usize, mut f: impl FnMut()) {
    for _ in 0..iterations.div_ceil(10) {
        f();
    }
    let mut times = Vec::with_capacity(iterations);
    let start = Instant::now();
    for _ in 0..iterations {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    let total = start.elapsed();
    times.sort_unstable();
    println!(
        "{what:<44} {:>8.0} evaluations/s   p50 {:>8.1} µs   p99 {:>8.1} µs",
        iterations as f64 / total.as_secs_f64(),
        percentile(&times, 0.5).as_secs_f64() * 1e6,
        percentile(&times, 0.99).as_secs_f64() * 1e6,
    );
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

fn main() {
    let pod_path = root().join("ra2-wasm/tests/admission/pod-create-warns.json");
    let pod: Value = serde_json::from_str(&std::fs::read_to_string(&pod_path).expect("fixture")).expect("json");
    let deployment = large_deployment();
    let settings = json!({});
    let compile = Instant::now();
    let policy = Policy::load();
    println!(
        "policy compiled and instantiated in {:.0} ms",
        compile.elapsed().as_secs_f64() * 1e3
    );
    let config = ra2_core::Config::default();
    for (name, review, iterations) in [("typical Pod", &pod, 20_000), ("large Deployment", &deployment, 1_000)] {
        let request = validation_request(review, &settings);
        let payload = serde_json::to_vec(&request).expect("json");
        let object_bytes = review["request"]["object"].to_string().len();
        let answer = policy.validate(&request);
        println!(
            "{name}: object {object_bytes} bytes of JSON, answer: accepted {} with {} warnings",
            answer["accepted"],
            answer["warnings"].as_array().map_or(0, Vec::len)
        );
        measure(&format!("  policy (waPC, wasmtime) {name}"), iterations, || {
            std::hint::black_box(policy.call("validate", &payload).expect("validate"));
        });
        measure(&format!("  native ra2_core::admission {name}"), iterations, || {
            let value: Value = serde_json::from_slice(&payload).expect("json");
            std::hint::black_box(ra2_core::admission::decide(&value["request"], &config).ok());
        });
    }
}
