//! The Kubewarden policy under load in the waPC host, as policy-server runs it (a fresh instance
//! of the pre-compiled module per request), for `scripts/bench-serve`'s side-by-side with
//! `ra2 serve`: the same AdmissionReviews (written by `load bodies DIR`), CONCURRENCY threads
//! for SECONDS, one line in the load generator's format. No HTTP or TLS here: this is the
//! policy's own cost in its host, the part policy-server adds its server to.
//!
//! `policy-load DIR BODY CONCURRENCY SECONDS`
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use std::time::{Duration, Instant};

use ra2_host_tests::{FreshPerRequest, policy_path, read_artefact, validation_request};
use serde_json::{Value, json};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, body, concurrency, seconds] = args.as_slice() else {
        panic!("usage: policy-load DIR BODY CONCURRENCY SECONDS");
    };
    let concurrency: usize = concurrency.parse().expect("concurrency");
    let seconds: u64 = seconds.parse().expect("seconds");
    let mut payloads: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("bodies dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{body}-")))
        })
        .map(|p| {
            let review: Value = serde_json::from_slice(&std::fs::read(&p).expect("body")).expect("json");
            let payload = serde_json::to_vec(&validation_request(&review, &json!({}))).expect("json");
            (p.display().to_string(), payload)
        })
        .collect();
    payloads.sort();
    assert!(!payloads.is_empty(), "no {body}-*.json in {dir}");
    let module = read_artefact(&policy_path());
    // Every thread compiles its module first; the clock starts once all are ready.
    let ready = std::sync::Barrier::new(concurrency);
    let results: Vec<(Vec<u32>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..concurrency)
            .map(|n| {
                let (module, payloads, ready) = (&module, &payloads, &ready);
                s.spawn(move || {
                    let policy = FreshPerRequest::new(module).expect("the policy compiles");
                    ready.wait();
                    let until = Instant::now() + Duration::from_secs(seconds);
                    let (mut latencies, mut errors) = (Vec::new(), 0);
                    let mut i = n;
                    while Instant::now() < until {
                        let payload = &payloads[i % payloads.len()].1;
                        i += 1;
                        let t = Instant::now();
                        match policy.call("validate", payload) {
                            Ok(_) => latencies.push(u32::try_from(t.elapsed().as_micros()).unwrap_or(u32::MAX)),
                            Err(_) => errors += 1,
                        }
                    }
                    (latencies, errors)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("worker")).collect()
    });
    let elapsed = seconds as f64;
    let errors: usize = results.iter().map(|r| r.1).sum();
    let mut all: Vec<u32> = results.into_iter().flat_map(|r| r.0).collect();
    all.sort_unstable();
    let pct = |p: f64| {
        let i = ((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1));
        f64::from(all.get(i).copied().unwrap_or(0)) / 1000.0
    };
    println!(
        "body={body:8} c={concurrency:<3} requests={:<7} rps={:>8.0} p50={:.3}ms p99={:.3}ms p99.9={:.3}ms errors={errors}",
        all.len(),
        all.len() as f64 / elapsed,
        pct(0.50),
        pct(0.99),
        pct(0.999),
    );
}
