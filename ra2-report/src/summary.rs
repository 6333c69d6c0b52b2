//! The one-line summary of a report, printed after text and GitHub output.

use std::fmt::Write as _;

use ra2_core::Report;

/// `3 errors, 1 warning, 0 infos in 12 objects (4 files); 1 document could not be read`.
pub fn summary_line(report: &Report) -> String {
    let s = &report.summary;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut line = format!(
        "{}, {}, {} in {} ({}), edition {}",
        plural(s.findings.error, "error"),
        plural(s.findings.warning, "warning"),
        plural(s.findings.info, "info"),
        plural(s.objects, "object"),
        plural(s.files, "file"),
        report.edition,
    );
    let unreadable_files = report
        .errors
        .iter()
        .filter(|e| e.code.starts_with("ra2::input::"))
        .count();
    let bad_documents = s.errors.saturating_sub(unreadable_files);
    if bad_documents > 0 {
        let _ = write!(line, "; {} could not be read", plural(bad_documents, "document"));
    }
    if unreadable_files > 0 {
        let _ = write!(line, "; {} could not be read", plural(unreadable_files, "file"));
    }
    if s.suppressed > 0 {
        let _ = write!(
            line,
            "; {} suppressed by {} in force",
            plural(s.suppressed, "finding"),
            plural(s.waivers.len(), "waiver")
        );
    }
    if let Some(fixed) = s.fixed {
        let _ = write!(line, "; {} fixed", plural(fixed, "finding"));
    }
    if let Some(baselined) = s.baselined {
        let _ = write!(line, "; {baselined} in the baseline");
    }
    if let Some(stale) = s.stale.filter(|&n| n > 0) {
        let _ = write!(
            line,
            "; {} in the baseline no longer found (rewrite it with --write-baseline)",
            plural(stale, "finding")
        );
    }
    if s.skipped > 0 {
        let reasons: Vec<String> = s.skipped_by_reason.iter().map(|(r, n)| format!("{n} {r}")).collect();
        let _ = write!(
            line,
            "; {} skipped as not Kubernetes manifests ({})",
            s.skipped,
            reasons.join(", ")
        );
    }
    if let Some(skipped) = s.strict_skipped.filter(|&n| n > 0) {
        let _ = write!(
            line,
            "; strict mode skipped {} of kinds without a schema",
            plural(skipped, "object")
        );
    }
    line
}
