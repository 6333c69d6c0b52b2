//! `lint` on arbitrary bytes: whatever a file holds, ra2 answers with findings or errors and
//! never crashes, hangs or balloons. The report is written as JSON too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ra2_fuzz::lint_file_bytes(data));
