//! The admission decision on structure-aware mutations of AdmissionReviews (seeded from
//! ra2-wasm/tests/admission and from corpus objects wrapped in a review by scripts/fuzz): nodes
//! replaced by other types, keys removed, renamed or added, subtrees copied, wrapped and
//! stretched with unicode. The answer read from the review's text must be the parsed review's.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};
use ra2_core::admission::{self, Input};
use ra2_fuzz::{Rng, mutate_json};

fuzz_target!(|data: &[u8]| {
    ra2_fuzz::within_budget(|| {
        let config = ra2_fuzz::config_for(data);
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
            return;
        };
        let answer = admission::review(Input::Value(&value), &config).review;
        assert!(
            answer.get("response").is_some_and(serde_json::Value::is_object),
            "no response: {answer}"
        );
        // The review read once from its text (what the policy, `ra2 serve` and the bindings
        // answer with) answers as the parsed review does.
        if let Ok(text) = std::str::from_utf8(data) {
            assert_eq!(admission::review(Input::Text(text), &config).review, answer, "{text}");
        }
        // The request on its own, as the waPC policy hands it over.
        let _ = admission::validate(Input::Value(&value), |_| Ok::<_, String>(&config));
    });
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = Rng::new(seed);
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(&data[..size]) else {
        return fuzzer_mutate(data, size, max_size);
    };
    if rng.chance(8) {
        return fuzzer_mutate(data, size, max_size);
    }
    for _ in 0..=rng.below(3) {
        mutate_json(&mut value, &mut rng);
    }
    let Ok(out) = serde_json::to_vec(&value) else {
        return fuzzer_mutate(data, size, max_size);
    };
    if out.len() > max_size {
        return fuzzer_mutate(data, size, max_size);
    }
    data[..out.len()].copy_from_slice(&out);
    out.len()
});
