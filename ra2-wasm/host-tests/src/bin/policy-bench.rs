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

use ra2_host_tests::{Policy, large_deployment, root, validation_request};
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
            let input = ra2_core::admission::Input::Value(&value);
            std::hint::black_box(ra2_core::admission::validate(input, |_| Ok::<_, String>(&config)).ok());
        });
    }
}
