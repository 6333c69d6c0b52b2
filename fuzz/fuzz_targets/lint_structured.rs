//! `lint` on structure-aware mutations of real manifests (seeded from the corpus, the fixtures
//! and the catalogue examples by scripts/fuzz): anchors and aliases, merge keys, duplicate keys,
//! flow/block switches, indentation shifts, unicode, document markers, tags, line endings. Plain
//! byte mutations mix in now and then.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};
use ra2_fuzz::{Rng, mutate_yaml};

fuzz_target!(|data: &[u8]| ra2_fuzz::lint_file_bytes(data));

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = Rng::new(seed);
    let Ok(text) = std::str::from_utf8(&data[..size]) else {
        return fuzzer_mutate(data, size, max_size);
    };
    if rng.chance(5) {
        return fuzzer_mutate(data, size, max_size);
    }
    let mut text = text.to_owned();
    for _ in 0..=rng.below(3) {
        if let Some(next) = mutate_yaml(&text, &mut rng) {
            text = next;
        }
    }
    if text.len() > max_size {
        return fuzzer_mutate(data, size, max_size);
    }
    data[..text.len()].copy_from_slice(text.as_bytes());
    text.len()
});
