//! The pass/fail verdict of a lint run, as every face reports it (`ra2 lint`'s exit status).

use ra2_core::{FailOn, Report};

/// Nothing at or above `--fail-on`.
pub const EXIT_OK: u8 = 0;
/// Findings at or above `--fail-on`.
pub const EXIT_FINDINGS: u8 = 1;
/// Usage error, unreadable input or configuration, or a document that could not be parsed.
pub const EXIT_ERROR: u8 = 2;

/// The exit status of a lint run: read errors outrank findings.
pub fn exit_status(report: &Report, fail_on: FailOn) -> u8 {
    if !report.errors.is_empty() {
        return EXIT_ERROR;
    }
    match (fail_on.threshold(), report.max_severity()) {
        (Some(threshold), Some(max)) if max >= threshold => EXIT_FINDINGS,
        _ => EXIT_OK,
    }
}
