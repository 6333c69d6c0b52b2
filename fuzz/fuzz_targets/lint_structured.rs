//! `lint` on structure-aware mutations of real manifests (seeded from the corpus, the fixtures
//! and the catalogue examples by scripts/fuzz): anchors and aliases, merge keys, duplicate keys,
//! flow/block switches, indentation shifts, unicode, document markers, tags, line endings. Plain
//! byte mutations mix in now and then.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target};

fuzz_target!(|data: &[u8]| ra2_fuzz::lint_file_bytes(data));

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    ra2_fuzz::mutate_manifest(data, size, max_size, seed)
});
