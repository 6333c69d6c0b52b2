//! `lint` on arbitrary bytes: whatever a file holds, ra2 answers with findings or errors and
//! never crashes, hangs or balloons. The report is rendered too (JSON and text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ra2_core::Linter;

fuzz_target!(|data: &[u8]| {
    ra2_fuzz::within_budget(|| {
        let config = ra2_fuzz::config_for(data);
        let mut linter = Linter::new(&config);
        linter.add_file_bytes("fuzz.yaml", data);
        let report = linter.finish();
        let _ = report.to_json_compact();
    });
});
