//! The YAML reader against libyaml, on structure-aware mutations of real manifests (and plain
//! byte mutations now and then): whenever the reader of our own reads a chunk, its documents
//! must equal the ones built from libyaml's events (nodes, values, spans, key spans, scalar
//! styles, problems), and libyaml must not have refused the chunk.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target};
use ra2_core::doc::{Limits, read_chunk_yaml, read_yaml_chunk};
use ra2_core::source::chunks;
use ra2_fuzz::within_budget;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    within_budget(|| {
        for chunk in chunks(text, 0, 0) {
            let Some(ours) = read_yaml_chunk(chunk, Limits::default()) else {
                continue;
            };
            let theirs = read_chunk_yaml(chunk, false, Limits::default());
            assert!(theirs.error.is_none(), "read what libyaml refuses: {:?}", theirs.error);
            assert_eq!(ours.docs.len(), theirs.docs.len());
            for (a, b) in ours.docs.iter().zip(&theirs.docs) {
                assert_eq!(a.outline(), b.outline());
                assert_eq!(a.problems, b.problems);
            }
        }
    });
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    ra2_fuzz::mutate_manifest(data, size, max_size, seed)
});
