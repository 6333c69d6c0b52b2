//! The policy as Kubewarden's policy-server runs it (scripts/bench-wasm runs this in release):
//! a fresh instance of the pre-compiled module for every request, beside one reused instance,
//! and the floor guest (parse the request JSON, accept) measured the same two ways in the same
//! run. Latencies are reported as p50/p99 and as ratios to the floor's p50.
// Statistics over at most a few thousand samples: float conversions lose nothing that matters.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use std::time::{Duration, Instant};

use ra2_host_tests::{
    FreshPerRequest, Policy, build_floor_guest, compile, large_deployment, policy_path, read_artefact, root,
    validation_request,
};
use serde_json::{Value, json};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or_default()
}

/// Sorted latencies of `iterations` calls, after a tenth as many for warm-up.
fn sample(iterations: usize, mut f: impl FnMut()) -> Vec<Duration> {
    for _ in 0..iterations.div_ceil(10) {
        f();
    }
    let mut times: Vec<Duration> = (0..iterations)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort_unstable();
    times
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let policy_module = read_artefact(&policy_path());
    let floor_path = build_floor_guest().unwrap_or_else(|e| panic!("{e}"));
    let floor_module = read_artefact(&floor_path);
    let fresh_policy = FreshPerRequest::new(&policy_module).expect("policy compiles");
    let fresh_floor = FreshPerRequest::new(&floor_module).expect("floor compiles");
    let reused_policy = Policy::instantiate(&compile(&policy_module).expect("policy compiles")).expect("instance");
    let reused_floor = Policy::instantiate(&compile(&floor_module).expect("floor compiles")).expect("instance");

    let pod_path = root().join("ra2-wasm/tests/admission/pod-create-warns.json");
    let pod: Value = serde_json::from_str(&std::fs::read_to_string(&pod_path).expect("fixture")).expect("json");
    let settings = json!({});
    println!(
        "{:<18} {:<28} {:>10} {:>10} {:>12}",
        "request", "guest", "p50 µs", "p99 µs", "p50 / floor"
    );
    for (name, review, iterations) in [
        ("typical Pod", &pod, 4_000),
        ("large Deployment", &large_deployment(), 1_000),
    ] {
        let payload = serde_json::to_vec(&validation_request(review, &settings)).expect("json");
        // The same answer either way (the test `fresh_and_reused_instances_agree` checks the corpus).
        let fresh = fresh_policy.call("validate", &payload).expect("validate");
        assert_eq!(fresh, reused_policy.call("validate", &payload).expect("validate"));
        let runs: [(&str, Vec<Duration>); 4] = [
            (
                "floor, fresh instance",
                sample(iterations, || {
                    std::hint::black_box(fresh_floor.call("validate", &payload).expect("floor"));
                }),
            ),
            (
                "ra2, fresh instance",
                sample(iterations, || {
                    std::hint::black_box(fresh_policy.call("validate", &payload).expect("validate"));
                }),
            ),
            (
                "floor, reused instance",
                sample(iterations, || {
                    std::hint::black_box(reused_floor.call("validate", &payload).expect("floor"));
                }),
            ),
            (
                "ra2, reused instance",
                sample(iterations, || {
                    std::hint::black_box(reused_policy.call("validate", &payload).expect("validate"));
                }),
            ),
        ];
        for (i, (guest, times)) in runs.iter().enumerate() {
            // Fresh runs compare with the fresh floor, reused runs with the reused floor.
            let floor = percentile(&runs[i / 2 * 2].1, 0.5);
            let p50 = percentile(times, 0.5);
            println!(
                "{name:<18} {guest:<28} {:>10.1} {:>10.1} {:>11.2}x",
                micros(p50),
                micros(percentile(times, 0.99)),
                micros(p50) / micros(floor).max(f64::EPSILON),
            );
        }
        if name == "typical Pod" {
            // Of a fresh instance's time, what instantiation alone takes (the rest is the first
            // call: the guest's start-up and the request).
            for (guest, fresh) in [("floor", &fresh_floor), ("ra2", &fresh_policy)] {
                let times = sample(iterations, || {
                    std::hint::black_box(fresh.instantiate().expect("instance"));
                });
                println!(
                    "{:<18} {:<28} {:>10.1} {:>10.1}",
                    "(no request)",
                    format!("{guest}, instantiation only"),
                    micros(percentile(&times, 0.5)),
                    micros(percentile(&times, 0.99)),
                );
            }
        }
        let accepted: Value = serde_json::from_slice(&fresh).expect("json");
        println!(
            "{name:<18} ({} bytes of request; ra2 answers accepted {} with {} warnings)",
            payload.len(),
            accepted["accepted"],
            accepted["warnings"].as_array().map_or(0, Vec::len)
        );
    }
}
