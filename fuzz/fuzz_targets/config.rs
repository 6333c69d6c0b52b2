//! `.ra2.yaml` parsing (`Config::from_yaml`) on arbitrary text (seeded from the README's and the
//! tests' configurations, with YAML-aware mutations): a bad file is a list of errors with
//! positions, never a crash; a good one is then used to lint a small manifest.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};
use ra2_core::Config;
use ra2_fuzz::{Rng, mutate_yaml};

const MANIFEST: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: monitoring\nspec:\n  containers:\n    - name: c\n      image: registry.example/app:1.0\n      resources:\n        limits: {cpu: '1', memory: 1Gi}\n  volumes:\n    - name: h\n      hostPath: {path: /proc}\n";

fuzz_target!(|data: &[u8]| {
    ra2_fuzz::within_budget(|| {
        let text = String::from_utf8_lossy(data);
        match Config::from_yaml(&text, ".ra2.yaml") {
            Ok(config) => {
                let _ = ra2_core::lint_str("pod.yaml", MANIFEST, &config);
            }
            Err(errors) => assert!(!errors.is_empty(), "a refused configuration names no error"),
        }
    });
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = Rng::new(seed);
    let Ok(text) = std::str::from_utf8(&data[..size]) else {
        return fuzzer_mutate(data, size, max_size);
    };
    if rng.chance(4) {
        return fuzzer_mutate(data, size, max_size);
    }
    let Some(text) = mutate_yaml(text, &mut rng) else {
        return fuzzer_mutate(data, size, max_size);
    };
    if text.len() > max_size {
        return fuzzer_mutate(data, size, max_size);
    }
    data[..text.len()].copy_from_slice(text.as_bytes());
    text.len()
});
